//! Reading a value whose type only a peer's TypeDef declares (a field of a struct read
//! without a local type, or one the local struct lacks), into a dynamic form: a `Value`, or
//! nothing at all when the field is skipped. One reader for both, generic over the form.

use super::collection::read_elements_with;
use super::items::ItemReader;
use super::map::read_map_with;
use super::{read_type_info, Deserialize};
use crate::context::ReadContext;
use crate::error::{ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::types::table::{wire_type, Family};
use crate::types::TypeId;

/// A dynamic form of values: what containers of declared element types become.
pub(crate) trait Dynamic<'de>: Deserialize<'de> {
    /// A list of items.
    fn list(items: Vec<Self>) -> Self;
    /// A set of items.
    fn set(items: Vec<Self>) -> Self;
    /// A map of pairs.
    fn map(pairs: Vec<(Self, Self)>) -> Self;
    /// An enum variant id.
    fn variant(id: u32) -> Self;
    /// Whether the values are written again (a `Value`), so the writer numbers them; a
    /// skipped value is not.
    const WRITTEN: bool;
    /// The type a value (a copy a back reference resolved to) is written with, if it is
    /// written at all; `None` for a back reference kept as one, a null, a skipped value.
    fn written_type(&self) -> Option<TypeId>;
}

/// Numbers, bools and strings: a `ref` field of these kinds carries no reference flag.
pub(crate) fn inline_kind(id: u8) -> bool {
    matches!(
        wire_type(id).map(|t| t.family),
        Some(Family::Bool | Family::Int | Family::String)
    ) || id == TypeId::Float32 as u8
        || id == TypeId::Float64 as u8
}

pub(crate) fn is_struct_kind(id: u8) -> bool {
    wire_type(id).is_some_and(|t| t.family == Family::Struct)
}

/// Refuses a value whose own type info `wire` contradicts the type `t` its TypeDef declares:
/// a user type of another kind, or a leaf or container of another type. The writer of a
/// dynamic value writes by the TypeDef, so what this accepts it can write back.
fn check_fits(ctx: &ReadContext<'_, '_>, t: &FieldType, wire: TypeId) -> Result<()> {
    if t.type_id == TypeId::Unknown as u8 {
        return Ok(());
    }
    let fits = match wire_type(t.type_id).map(|d| d.family) {
        Some(family @ (Family::Enum | Family::Struct | Family::Ext | Family::Union)) => {
            wire_type(wire as u8).is_some_and(|w| w.family == family)
        }
        _ => wire as u8 == t.type_id,
    };
    if fits {
        return Ok(());
    }
    let declared = TypeId::from_u8(t.type_id)
        .map_or_else(|| t.type_id.to_string(), |id| id.name().to_string());
    Err(ctx.error(ErrorKind::Invalid {
        what: format!(
            "a {} value where the TypeDef declares {declared}",
            wire.name()
        ),
    }))
}

/// Whether values of the declared type `id` take reference ids in tracked positions.
fn tracked_kind(id: u8) -> bool {
    TypeId::from_u8(id).is_some_and(TypeId::is_tracked)
}

/// Reads a value declared as `t` (with its null flag if `t` is nullable): payload only where
/// the type is declared, type info where the peer writes it.
pub(crate) fn read_declared<'de, D: Dynamic<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    t: &FieldType,
) -> Result<D> {
    let any = t.type_id == TypeId::Unknown as u8;
    let tracked = t.track_ref && ctx.ref_tracking() && !inline_kind(t.type_id);
    // The writer of a dynamic value (value/write.rs) numbers a field's value exactly when
    // the field is declared ref and is `any` (every kind, ints and strings included, spec
    // 09 §9.8) or of a tracked kind; a plain field takes no id, whatever its kind.
    let item = Declared::<D>::with_count(t, Some(tracked && (any || tracked_kind(t.type_id))));
    let mut slot = None;
    if t.nullable || tracked {
        match super::refs::read_flag(ctx, &item)? {
            super::refs::Flagged::Done(v) => return Ok(v),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = if any || is_struct_kind(t.type_id) {
        let wire = read_type_info::<D>(ctx)?;
        check_fits(ctx, t, wire)?;
        item.read(ctx, Some(wire))?
    } else {
        item.read(ctx, None)?
    };
    Ok(super::refs::finish(ctx, &item, v, slot))
}

/// Reads items of a declared type (from a TypeDef) in the dynamic form `D`. `count`: whether
/// the writer of a dynamic value gives each item an id (`None`: as its kind says).
struct Declared<'t, D> {
    t: &'t FieldType,
    count: Option<bool>,
    _form: std::marker::PhantomData<D>,
}

impl<'t, D> Declared<'t, D> {
    /// Items whose numbering follows their kind (map sides, and elements of `any`).
    fn new(t: &'t FieldType) -> Self {
        Declared::with_count(t, None)
    }

    fn with_count(t: &'t FieldType, count: Option<bool>) -> Self {
        Declared {
            t,
            count,
            _form: std::marker::PhantomData,
        }
    }

    /// Elements of a declared list or set: with tracking on, the writer flags (and numbers)
    /// the elements of a tracked kind.
    fn element(t: &'t FieldType, tracking: bool) -> Self {
        let count =
            (t.type_id != TypeId::Unknown as u8).then(|| tracking && tracked_kind(t.type_id));
        Declared::with_count(t, count)
    }
}

impl<'de, D: Dynamic<'de>> ItemReader<'de> for Declared<'_, D> {
    type Out = D;
    fn dynamic_refs(&self) -> bool {
        true
    }

    fn null(&self, ctx: &ReadContext<'de, '_>) -> Result<D> {
        super::null_of::<D>(ctx)
    }

    fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
        let wire = read_type_info::<D>(ctx)?;
        check_fits(ctx, self.t, wire)?;
        Ok(wire)
    }

    fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<D> {
        let v = D::from_ref(ctx, id, at)?;
        // A reference to a value the writer does not number (a number, an enum) reads as a
        // copy of it, which must fit the declared type as the value itself would have to.
        if let Some(wire) = v.written_type() {
            check_fits(ctx, self.t, wire)?;
        }
        Ok(v)
    }

    fn begin_ref(&self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        D::begin_ref(ctx, slot)
    }

    fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, v: D, slot: usize) -> D {
        v.keep_ref(ctx, slot)
    }

    fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<D> {
        // A dynamic value's renumbering (see `Value::read_root`): the position says whether
        // the writer numbers this item (a lone side of a null pair always), else its kind.
        let count = ctx.take_count().or(self.count);
        if let Some(c) = count {
            if c && D::WRITTEN && ctx.values_canonical() {
                ctx.bump_canon();
            }
        }
        let typed = |ctx: &mut ReadContext<'de, '_>, id: TypeId| {
            if count.is_some() {
                // Counted here already: `read_typed` must not count it again.
                ctx.set_count(Some(false));
            }
            let v = D::read_typed(ctx, id);
            ctx.set_count(None);
            v
        };
        if let Some(id) = id {
            return typed(ctx, id);
        }
        let t = self.t;
        let child = |i: usize| {
            t.children.get(i).ok_or_else(|| {
                ctx.error(ErrorKind::Invalid {
                    what: format!("container type {} without element types", t.type_id),
                })
            })
        };
        match TypeId::from_u8(t.type_id) {
            Some(TypeId::List) => {
                let e = child(0)?;
                let item = Declared::<D>::element(e, ctx.ref_tracking());
                Ok(D::list(read_elements_with(ctx, &item)?))
            }
            Some(TypeId::Set) => {
                let e = child(0)?;
                let item = Declared::<D>::element(e, ctx.ref_tracking());
                Ok(D::set(read_elements_with(ctx, &item)?))
            }
            Some(TypeId::Map) => {
                let (k, v) = (child(0)?, child(1)?);
                let mut pairs = Vec::new();
                read_map_with(
                    ctx,
                    &Declared::<D>::new(k),
                    &Declared::<D>::new(v),
                    super::map::PairVec(&mut pairs),
                )?;
                Ok(D::map(pairs))
            }
            Some(TypeId::Enum | TypeId::NamedEnum) => Ok(D::variant(ctx.reader.var_u32()?)),
            Some(TypeId::Union) => typed(ctx, TypeId::Union),
            Some(
                TypeId::Struct
                | TypeId::NamedStruct
                | TypeId::CompatibleStruct
                | TypeId::NamedCompatibleStruct
                | TypeId::Unknown
                | TypeId::Ext
                | TypeId::NamedExt,
            ) => Err(ctx.error(ErrorKind::Unsupported {
                what: format!(
                    "a struct or extension payload of declared type {} without its TypeDef",
                    t.type_id
                ),
            })),
            Some(other) => typed(ctx, other),
            None => Err(ctx.error(ErrorKind::UnknownTypeId { id: t.type_id })),
        }
    }
}

/// What a dynamic value's type info holds after its kind byte.
pub(crate) enum TypeInfoRest<'r> {
    /// Nothing (a built-in type).
    Nothing,
    /// A user type id (a user kind registered by id, outside compatible mode's TypeDefs).
    Id(u32),
    /// The namespace and type name meta strings of a named type (same-schema mode).
    Names(
        crate::meta::WireMetaString<'r>,
        crate::meta::WireMetaString<'r>,
    ),
    /// The shared TypeDef that names the type (compatible structs; named kinds in
    /// compatible mode).
    TypeDef(std::sync::Arc<crate::registry::RemoteTypeDef>),
}

/// Reads what follows the kind byte `id` of a dynamic value's type info: the user id, the
/// names, or the meta-share marker and TypeDef. One reader for every dynamic form (`Value`,
/// `dyn AnyObject`), which then decide what the registration means to them.
pub(crate) fn read_type_info_rest<'r>(
    ctx: &mut ReadContext<'_, 'r>,
    id: TypeId,
) -> Result<TypeInfoRest<'r>> {
    Ok(match id {
        TypeId::Enum | TypeId::Struct | TypeId::Ext | TypeId::TypedUnion => {
            TypeInfoRest::Id(ctx.reader.var_u32()?)
        }
        TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
            TypeInfoRest::TypeDef(ctx.read_shared_typedef()?)
        }
        TypeId::NamedEnum | TypeId::NamedStruct | TypeId::NamedExt | TypeId::NamedUnion => {
            if ctx.compatible() {
                TypeInfoRest::TypeDef(ctx.read_shared_typedef()?)
            } else {
                let (ns, ty) = ctx.read_type_name_strings()?;
                TypeInfoRest::Names(ns, ty)
            }
        }
        _ => TypeInfoRest::Nothing,
    })
}

/// What follows the kind byte `id` of a dynamic value's type info (see
/// [`read_type_info_rest`]); the TypeDef of a compatible struct is kept under `key` for the
/// body that follows.
pub(crate) fn dynamic_type_info_rest<'de>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
    key: std::any::TypeId,
) -> Result<()> {
    if let TypeInfoRest::TypeDef(def) = read_type_info_rest(ctx, id)? {
        if matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct) {
            ctx.set_current_typedef(key, def);
        }
    }
    Ok(())
}

/// The TypeDef of the compatible struct body that follows, as the type info under `key`
/// announced it; the caller puts it back with `set_current_typedef` when done, for siblings
/// that share the type info.
pub(crate) fn current_body_typedef(
    ctx: &ReadContext<'_, '_>,
    key: std::any::TypeId,
) -> Result<std::sync::Arc<crate::registry::RemoteTypeDef>> {
    ctx.current_typedef(key).ok_or_else(|| {
        ctx.error(ErrorKind::Invalid {
            what: "a compatible struct body without its TypeDef".to_string(),
        })
    })
}
