//! Writing a struct held in a dynamic value: its type info (compatible kind, meta-share
//! marker, TypeDef) and its body, each field written as its TypeDef declares it (spec 06
//! §6.4-6.5 and 08 §8.6), so that a struct read from a peer's stream writes back to the
//! bytes it came from.

use crate::context::WriteContext;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldInfo, FieldType, TypeDefRegistration, BY_NAME_FLAG};
use crate::registry::{Registration, RemoteTypeDef, UserKind};
use crate::serializer::typedef_declared::{inline_kind, is_struct_kind};
use crate::serializer::{write_elements, write_map, Serialize};
use crate::types::{RefFlag, TypeId};
use crate::value::{DynamicStruct, DynamicValue, Form};
use std::sync::Arc;

/// The schema a struct value writes with.
struct Schema<'a> {
    named: bool,
    header: u64,
    bytes: &'a [u8],
    fields: &'a [FieldInfo],
    /// The registry entry owning the TypeDef, if one does (its meta-share marker is then
    /// shared with values of the registered Rust type).
    entry: Option<u32>,
}

fn unsupported(what: String) -> Error {
    Error::new(ErrorKind::Unsupported { what })
}

fn invalid(what: String) -> Error {
    Error::new(ErrorKind::Invalid { what })
}

/// The registrations `type_name` may stand for: `#<id>`, or a name split at each dot.
fn registrations(type_name: &str) -> Vec<TypeDefRegistration> {
    if let Some(id) = type_name.strip_prefix('#') {
        return id
            .parse::<u32>()
            .map(|id| vec![TypeDefRegistration::Id(id)])
            .unwrap_or_default();
    }
    let mut out = vec![TypeDefRegistration::Name {
        namespace: String::new(),
        type_name: type_name.to_string(),
    }];
    for (i, _) in type_name.match_indices('.') {
        out.push(TypeDefRegistration::Name {
            namespace: type_name[..i].to_string(),
            type_name: type_name[i + 1..].to_string(),
        });
    }
    out
}

/// What decides the schema a struct value writes with: its type name, and the TypeDef it
/// was read with.
#[derive(Clone, Copy)]
pub(super) struct StructHead<'a> {
    type_name: &'a str,
    typedef: Option<&'a Arc<RemoteTypeDef>>,
}

/// The head of `s`.
pub(super) fn head<F: Form>(s: &DynamicStruct<F>) -> StructHead<'_> {
    StructHead {
        type_name: &s.type_name,
        typedef: s.typedef(),
    }
}

fn schema<'s, 'r: 's>(s: StructHead<'s>, ctx: &WriteContext<'r>) -> Result<Schema<'s>> {
    if !ctx.compatible() {
        return Err(unsupported(format!(
            "writing struct {} held in a dynamic Value in same-schema mode (its body needs the \
             schema hash of a declared type; only compatible mode can write it, from its TypeDef)",
            s.type_name
        )));
    }
    let registry = ctx.registry();
    if let Some(def) = s.typedef {
        let d = &def.def;
        if !d.is_struct() {
            return Err(invalid(format!(
                "struct {} carries a TypeDef that does not describe a struct",
                s.type_name
            )));
        }
        // The registered type with byte-identical TypeDef shares its marker.
        let entry = registry
            .find(UserKind::Struct, &d.registration)
            .and_then(|e| {
                let local = e.local_typedef(registry, ctx.compress_int()).ok()?;
                (local.bytes == d.encoded).then_some(e.index())
            });
        return Ok(Schema {
            named: d.meta_header & BY_NAME_FLAG != 0,
            header: d.header,
            bytes: &d.encoded,
            fields: &d.fields,
            entry,
        });
    }
    let reg = registrations(s.type_name);
    let Some(e) = reg.iter().find_map(|r| registry.find(UserKind::Struct, r)) else {
        return Err(unsupported(format!(
            "writing struct {} held in a dynamic Value: it carries no TypeDef and no struct is \
             registered as {}",
            s.type_name, s.type_name
        )));
    };
    let local = e.local_typedef(registry, ctx.compress_int())?;
    Ok(Schema {
        named: matches!(e.registration, Registration::Name { .. }),
        header: local.header,
        bytes: &local.bytes,
        fields: &local.fields,
        entry: Some(e.index()),
    })
}

/// Whether two struct values write the same type info.
pub(super) fn same_struct_type(a: StructHead, b: StructHead) -> bool {
    match (a.typedef, b.typedef) {
        (Some(x), Some(y)) => x.def.header == y.def.header && x.def.encoded == y.def.encoded,
        (None, None) => a.type_name == b.type_name,
        _ => false,
    }
}

/// The type info of a struct value: compatible kind, meta-share marker and, the first time
/// in the stream, the TypeDef.
pub(super) fn struct_type_info(s: StructHead, ctx: &mut WriteContext) -> Result<()> {
    let sc = schema(s, ctx)?;
    let kind = if sc.named {
        TypeId::NamedCompatibleStruct
    } else {
        TypeId::CompatibleStruct
    };
    let (marker, first) = match sc.entry {
        Some(i) => ctx.shared_marker(i),
        None => ctx.shared_marker_dynamic(sc.header),
    };
    ctx.writer.u8(kind as u8);
    ctx.writer.var_u32(marker);
    if first {
        ctx.writer.bytes(sc.bytes);
    }
    Ok(())
}

/// The body of a struct value: every field of its schema, in the schema's order.
pub(super) fn struct_body<F: Form>(s: &DynamicStruct<F>, ctx: &mut WriteContext) -> Result<()> {
    let sc = schema(head(s), ctx)?;
    if s.fields.len() != sc.fields.len() {
        let declared: Vec<String> = sc
            .fields
            .iter()
            .map(|f| crate::registry::plan::name_of(&f.id))
            .collect();
        let extra: Vec<&str> = s
            .fields
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !declared.iter().any(|d| d == n))
            .collect();
        let missing: Vec<&str> = declared
            .iter()
            .map(String::as_str)
            .filter(|d| s.get(d).is_none())
            .collect();
        return Err(invalid(format!(
            "struct {} holds {} fields where its schema declares {} (not in the schema: {}; \
             without a value: {})",
            s.type_name,
            s.fields.len(),
            sc.fields.len(),
            if extra.is_empty() {
                "none".to_string()
            } else {
                extra.join(", ")
            },
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            },
        )));
    }
    ctx.enter()?;
    for (i, f) in sc.fields.iter().enumerate() {
        let name = crate::registry::plan::name_of(&f.id);
        let v = match s.fields.get(i) {
            Some((n, v)) if *n == name => Some(v),
            _ => s.get(&name),
        };
        let Some(v) = v else {
            return Err(invalid(format!(
                "struct {} has no value for its field {name}",
                s.type_name
            )));
        };
        write_declared(v, &f.field_type, ctx).map_err(|e| {
            let what = format!("struct {} field {name}: {e}", s.type_name);
            match e.kind() {
                ErrorKind::DepthLimit { .. } => e,
                // What this writer cannot do yet stays `Unsupported`; a value that does not
                // fit its schema is `Invalid`.
                ErrorKind::Unsupported { .. } => unsupported(what),
                _ => invalid(what),
            }
        })?;
    }
    ctx.leave();
    Ok(())
}

/// Whether values of declared type `t` carry reference flags in this stream.
fn tracked(t: &FieldType, ctx: &WriteContext) -> bool {
    t.track_ref && ctx.ref_tracking() && !inline_kind(t.type_id)
}

/// Writes `v` where `t` is declared: the flag if `t` is nullable or tracked, then type info
/// only where the peer writes it (`any` and structs), then the payload.
///
/// A field declared ref takes `00` (an id) and `fe` for an `any` field, whatever the value
/// (spec 09 §9.8), and for a tracked kind; an "other untracked" kind (enum, float16,
/// bfloat16, dense arrays) gets `ff`, as pyfory writes it. The reader's renumbering of a
/// dynamic value (`read_declared`) counts exactly the values given an id here.
fn write_declared<F: Form>(
    v: &DynamicValue<F>,
    t: &FieldType,
    ctx: &mut WriteContext,
) -> Result<()> {
    let any = t.type_id == TypeId::Unknown as u8;
    let numbered = any || TypeId::from_u8(t.type_id).is_some_and(TypeId::is_tracked);
    if tracked(t, ctx) && numbered {
        if v.write_ref_flag(ctx, true)? {
            return Ok(());
        }
    } else if t.nullable || tracked(t, ctx) {
        if v.is_null() {
            ctx.writer.u8(RefFlag::Null.byte());
            return Ok(());
        }
        ctx.writer.u8(RefFlag::NotNull.byte());
    } else if v.is_null() && !any {
        return Err(invalid(format!(
            "a null where type {} is declared not nullable",
            t.type_id
        )));
    }
    if matches!(v, DynamicValue::Ref(_)) {
        return Err(invalid(
            "a DynamicValue::Ref in a position without reference flags".to_string(),
        ));
    }
    if any || is_struct_kind(t.type_id) {
        if !any && !matches!(v, DynamicValue::Struct(_)) {
            return Err(invalid(format!(
                "a {} value where a struct is declared",
                v.type_id().name()
            )));
        }
        v.write_type_info(ctx)?;
        return v.write_data(ctx);
    }
    write_payload(v, t, ctx)
}

fn child(t: &FieldType, i: usize) -> Result<&FieldType> {
    t.children.get(i).ok_or_else(|| {
        invalid(format!(
            "container type {} without element types",
            t.type_id
        ))
    })
}

/// The payload of a non-null `v` of declared (non-`any`, non-struct) type `t`.
fn write_payload<F: Form>(
    v: &DynamicValue<F>,
    t: &FieldType,
    ctx: &mut WriteContext,
) -> Result<()> {
    let declared = TypeId::from_u8(t.type_id)
        .ok_or_else(|| Error::new(ErrorKind::UnknownTypeId { id: t.type_id }))?;
    match (declared, v) {
        (TypeId::List, DynamicValue::List(items)) | (TypeId::Set, DynamicValue::Set(items)) => {
            write_declared_elements(items, child(t, 0)?, ctx)
        }
        (TypeId::Map, DynamicValue::Map(pairs)) => {
            write_declared_map(pairs, child(t, 0)?, child(t, 1)?, ctx)
        }
        (TypeId::Enum | TypeId::NamedEnum, DynamicValue::Enum(e)) => {
            ctx.writer.var_u32(e.variant);
            Ok(())
        }
        (TypeId::Union, DynamicValue::Union(u)) => {
            crate::serializer::union::write_union_case(u.case, &u.value, ctx)
        }
        (
            _,
            DynamicValue::List(_)
            | DynamicValue::Set(_)
            | DynamicValue::Map(_)
            | DynamicValue::Enum(_)
            | DynamicValue::Union(..)
            | DynamicValue::Struct(_)
            | DynamicValue::Null
            | DynamicValue::Ref(_),
        ) => Err(mismatch(v, t)),
        (id, leaf) if leaf.type_id() == id => super::leaf::write_leaf(leaf, ctx),
        _ => Err(mismatch(v, t)),
    }
}

fn mismatch<F: Form>(v: &DynamicValue<F>, t: &FieldType) -> Error {
    let declared = TypeId::from_u8(t.type_id)
        .map_or_else(|| t.type_id.to_string(), |id| id.name().to_string());
    invalid(format!(
        "a {} value where {declared} is declared",
        v.type_id().name()
    ))
}

const TRACK_REF: u8 = 0x01;
const HAS_NULL: u8 = 0x02;

/// Whether elements of declared type `id` take reference ids with tracking on.
fn tracked_elements(id: u8) -> bool {
    TypeId::from_u8(id).is_some_and(TypeId::is_tracked)
}

/// The flag of a list element, if the list flags its elements; true when nothing more
/// follows it (a null, or a back reference).
fn element_flag<F: Form>(
    v: &DynamicValue<F>,
    track: bool,
    has_null: bool,
    ctx: &mut WriteContext,
) -> Result<bool> {
    if track {
        return v.write_ref_flag(ctx, true);
    }
    if matches!(v, DynamicValue::Ref(_)) {
        return Err(invalid(
            "a DynamicValue::Ref in a list whose elements carry no reference flags".to_string(),
        ));
    }
    if has_null {
        if v.is_null() {
            ctx.writer.u8(RefFlag::Null.byte());
            return Ok(true);
        }
        ctx.writer.u8(RefFlag::NotNull.byte());
    }
    Ok(false)
}
const DECLARED: u8 = 0x04;
const SAME_TYPE: u8 = 0x08;

/// A list or set whose element type `e` is declared (spec 06 §6.5, 08 §8.6).
fn write_declared_elements<F: Form>(
    items: &[DynamicValue<F>],
    e: &FieldType,
    ctx: &mut WriteContext,
) -> Result<()> {
    if e.type_id == TypeId::Unknown as u8 {
        // list<any>: the dynamic form.
        return write_elements(items.len(), items.iter(), false, ctx);
    }
    ctx.length(items.len())?;
    if items.is_empty() {
        return Ok(());
    }
    let has_null = items.iter().any(DynamicValue::is_null);
    // With tracking on, elements of a tracked kind carry reference flags (spec 09 §9.5).
    let track = ctx.ref_tracking() && tracked_elements(e.type_id);
    let null_bit = if has_null { HAS_NULL } else { 0 } | if track { TRACK_REF } else { 0 };
    ctx.enter()?;
    if is_struct_kind(e.type_id) {
        // Struct elements: their type info once, after the header.
        let first = items.iter().find_map(|v| match v {
            DynamicValue::Struct(s) => Some(s),
            _ => None,
        });
        let Some(first) = first else {
            // No element has a body (all null, or back references): the struct's type info
            // (which the Value did not keep) would introduce nothing, so the list takes the
            // declared form, which pyfory reads too (`0e` and the flags).
            ctx.writer.u8(DECLARED | SAME_TYPE | null_bit);
            for v in items {
                if !element_flag(v, track, has_null, ctx)? {
                    ctx.leave();
                    return Err(invalid(format!(
                        "a {} element in a list of structs",
                        v.type_id().name()
                    )));
                }
            }
            ctx.leave();
            return Ok(());
        };
        for v in items {
            match v {
                DynamicValue::Null => {}
                DynamicValue::Ref(_) if track => {}
                DynamicValue::Struct(s) if same_struct_type(head(first), head(s)) => {}
                other => {
                    return Err(invalid(format!(
                        "a {} element in a list of {} structs",
                        other.type_id().name(),
                        first.type_name
                    )))
                }
            }
        }
        ctx.writer.u8(SAME_TYPE | null_bit);
        struct_type_info(head(first), ctx)?;
        for v in items {
            if element_flag(v, track, has_null, ctx)? {
                continue;
            }
            if let DynamicValue::Struct(s) = v {
                struct_body(s, ctx)?;
            }
        }
    } else {
        ctx.writer.u8(DECLARED | SAME_TYPE | null_bit);
        for v in items {
            if element_flag(v, track, has_null, ctx)? {
                continue;
            }
            write_payload(v, e, ctx)?;
        }
    }
    ctx.leave();
    Ok(())
}

const KEY_TRACK_REF: u8 = 0x01;
const KEY_NULL: u8 = 0x02;
const KEY_DECLARED: u8 = 0x04;
const VALUE_TRACK_REF: u8 = 0x08;
const VALUE_NULL: u8 = 0x10;
const VALUE_DECLARED: u8 = 0x20;

/// One side of a declared map: declared (bare payloads) or not (type info per chunk).
fn write_side<F: Form>(
    v: &DynamicValue<F>,
    t: &FieldType,
    declared: bool,
    ctx: &mut WriteContext,
) -> Result<()> {
    if declared {
        write_payload(v, t, ctx)
    } else {
        if is_struct_kind(t.type_id) && !matches!(v, DynamicValue::Struct(_)) {
            return Err(mismatch(v, t));
        }
        v.write_data(ctx)
    }
}

/// A map whose key and value types are declared (spec 06 §6.5, 08 §8.6): a side of type
/// `any` or of a struct type is not declared and carries its type info once per chunk.
fn write_declared_map<F: Form>(
    pairs: &[(DynamicValue<F>, DynamicValue<F>)],
    kt: &FieldType,
    vt: &FieldType,
    ctx: &mut WriteContext,
) -> Result<()> {
    let k_any = kt.type_id == TypeId::Unknown as u8;
    let v_any = vt.type_id == TypeId::Unknown as u8;
    if k_any && v_any {
        return write_map(pairs.len(), pairs.iter().map(|(k, v)| (k, v)), false, ctx);
    }
    // With tracking on, a side of a tracked kind carries a reference flag before each of its
    // values (TRACK_REF in the chunk header; spec 09 §9.6), as pyfory writes it. A tracked
    // value (a list, a struct...) on an `any` side is not written here yet.
    let tracked_value = |v: &DynamicValue<F>| v.type_id().is_tracked();
    if ctx.ref_tracking()
        && ((k_any && pairs.iter().any(|(k, _)| tracked_value(k)))
            || (v_any && pairs.iter().any(|(_, v)| tracked_value(v))))
    {
        return Err(unsupported(
            "a declared map with reference-tracked values on a side of type `any` in a dynamic \
             struct"
                .to_string(),
        ));
    }
    let k_track = ctx.ref_tracking() && tracked_elements(kt.type_id);
    let v_track = ctx.ref_tracking() && tracked_elements(vt.type_id);
    let k_decl = !k_any && !is_struct_kind(kt.type_id);
    let v_decl = !v_any && !is_struct_kind(vt.type_id);
    // A back reference has no type info to open a chunk with on an undeclared side.
    if pairs.iter().any(|(k, v)| {
        (!k_decl && matches!(k, DynamicValue::Ref(_)))
            || (!v_decl && matches!(v, DynamicValue::Ref(_)))
    }) {
        return Err(unsupported(
            "a back reference on a side of a map whose type is not declared, in a dynamic struct"
                .to_string(),
        ));
    }
    ctx.length(pairs.len())?;
    if pairs.is_empty() {
        return Ok(());
    }
    ctx.enter()?;
    // The open chunk: position of its count byte, its count, and its first pair.
    let mut open: Option<(usize, u8, &DynamicValue<F>, &DynamicValue<F>)> = None;
    for (k, v) in pairs {
        if k.is_null() || v.is_null() {
            if let Some((at, n, ..)) = open.take() {
                ctx.writer.patch_u8(at, n);
            }
            if (matches!(k, DynamicValue::Ref(_)) && !k_track)
                || (matches!(v, DynamicValue::Ref(_)) && !v_track)
            {
                return Err(invalid(
                    "a DynamicValue::Ref in a map without reference tracking".to_string(),
                ));
            }
            match (k.is_null(), v.is_null()) {
                (true, true) => ctx.writer.u8(KEY_NULL | VALUE_NULL),
                (false, true) if k_decl => {
                    ctx.writer.u8(VALUE_NULL | KEY_DECLARED);
                    write_payload(k, kt, ctx)?;
                }
                (false, true) => {
                    ctx.writer.u8(VALUE_NULL | KEY_TRACK_REF);
                    crate::serializer::write_with_flag(k, ctx)?;
                }
                (true, false) if v_decl => {
                    ctx.writer.u8(KEY_NULL | VALUE_DECLARED);
                    write_payload(v, vt, ctx)?;
                }
                (true, false) => {
                    ctx.writer.u8(KEY_NULL | VALUE_TRACK_REF);
                    crate::serializer::write_with_flag(v, ctx)?;
                }
                (false, false) => {}
            }
            continue;
        }
        let joins = match open {
            Some((_, n, k0, v0)) => {
                n < u8::MAX && (k_decl || k0.same_type(k)) && (v_decl || v0.same_type(v))
            }
            None => false,
        };
        if !joins {
            if let Some((at, n, ..)) = open.take() {
                ctx.writer.patch_u8(at, n);
            }
            let mut h = 0;
            if k_decl {
                h |= KEY_DECLARED;
            }
            if v_decl {
                h |= VALUE_DECLARED;
            }
            if k_track {
                h |= KEY_TRACK_REF;
            }
            if v_track {
                h |= VALUE_TRACK_REF;
            }
            ctx.writer.u8(h);
            let at = ctx.writer.len();
            ctx.writer.u8(0);
            if !k_decl {
                k.write_type_info(ctx)?;
            }
            if !v_decl {
                v.write_type_info(ctx)?;
            }
            open = Some((at, 0, k, v));
        }
        // A tracked side's flag: a back reference stands for the value.
        if !(k_track && k.write_ref_flag(ctx, true)?) {
            write_side(k, kt, k_decl, ctx)?;
        }
        if !(v_track && v.write_ref_flag(ctx, true)?) {
            write_side(v, vt, v_decl, ctx)?;
        }
        if let Some(o) = open.as_mut() {
            o.1 += 1;
        }
    }
    if let Some((at, n, ..)) = open {
        ctx.writer.patch_u8(at, n);
    }
    ctx.leave();
    Ok(())
}
