//! Compatible mode on the read side: matching a peer's TypeDef to the local struct (by tag id
//! or snake_case name), reading fields whose declared type changed in compatible ways,
//! skipping fields the local struct does not have, and defaults for missing ones.

use super::collection::{read_elements_with, ItemReader, Typed};
use super::map::read_map_with;
use super::object::FuryObject;
use super::{read_type_info, Deserialize};
use crate::context::ReadContext;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldId, FieldInfo, FieldType};
use crate::resolver::RemoteTypeDef;
use crate::types::{RefFlag, TypeId};
use crate::value::Value;
use std::sync::Arc;

/// How to read the fields of one remote TypeDef into one local struct.
#[derive(Debug)]
pub struct ReadPlan {
    /// The remote fields are exactly the local ones, in the same order and with the same
    /// types: read them as the local schema says.
    pub identical: bool,
    /// Per remote field, in wire order: the local field (its position in the local wire order
    /// for `compress_int = true`) or `None` to skip it, and the remote declared type.
    pub steps: Vec<PlanStep>,
}

/// One remote field.
#[derive(Debug)]
pub struct PlanStep {
    /// Index of the local field receiving the value, if any.
    pub local: Option<usize>,
    /// The remote declared type.
    pub field_type: FieldType,
}

use crate::types::snake::snake_case as snake;

fn same_id(a: &FieldId, b: &FieldId) -> bool {
    match (a, b) {
        (FieldId::Tag(x), FieldId::Tag(y)) => x == y,
        (FieldId::Name(x), FieldId::Name(y)) => x == y || snake(x) == snake(y),
        _ => false,
    }
}

fn is_int(id: u8) -> bool {
    matches!(
        TypeId::from_u8(id),
        Some(
            TypeId::Int8
                | TypeId::Int16
                | TypeId::Int32
                | TypeId::VarInt32
                | TypeId::Int64
                | TypeId::VarInt64
                | TypeId::TaggedInt64
                | TypeId::UInt8
                | TypeId::UInt16
                | TypeId::UInt32
                | TypeId::VarUInt32
                | TypeId::UInt64
                | TypeId::VarUInt64
                | TypeId::TaggedUInt64
        )
    )
}

/// Numbers, bools and strings: a `ref` field of these kinds carries no reference flag.
fn inline_kind(id: u8) -> bool {
    id == TypeId::Bool as u8
        || id == TypeId::String as u8
        || id == TypeId::Float32 as u8
        || id == TypeId::Float64 as u8
        || is_int(id)
}

fn is_float(id: u8) -> bool {
    matches!(
        TypeId::from_u8(id),
        Some(TypeId::Float16 | TypeId::BFloat16 | TypeId::Float32 | TypeId::Float64)
    )
}

fn is_struct_kind(id: u8) -> bool {
    matches!(
        TypeId::from_u8(id),
        Some(
            TypeId::Struct
                | TypeId::CompatibleStruct
                | TypeId::NamedStruct
                | TypeId::NamedCompatibleStruct
        )
    )
}

fn is_enum_kind(id: u8) -> bool {
    matches!(TypeId::from_u8(id), Some(TypeId::Enum | TypeId::NamedEnum))
}

/// Whether a value declared `remote` can be read into a field declared `local`.
fn readable(remote: &FieldType, local: &FieldType) -> bool {
    let (r, l) = (remote.type_id, local.type_id);
    if l == TypeId::Unknown as u8 || r == TypeId::Unknown as u8 {
        return true; // dynamic on one side: the value carries its type info
    }
    if (is_int(r) && is_int(l)) || (is_float(r) && is_float(l)) {
        return true; // range- or precision-checked when read
    }
    if (is_struct_kind(r) && is_struct_kind(l)) || (is_enum_kind(r) && is_enum_kind(l)) {
        return true; // the nested TypeDef / variant id decides
    }
    r == l
        && remote.children.len() == local.children.len()
        && remote
            .children
            .iter()
            .zip(&local.children)
            .all(|(a, b)| a.type_id == b.type_id && readable(a, b))
}

fn name_of(id: &FieldId) -> String {
    match id {
        FieldId::Name(n) => n.clone(),
        FieldId::Tag(t) => format!("#{t}"),
    }
}

/// Builds the plan for reading `remote` fields into local fields `local` (wire order).
pub fn build_plan(remote: &[FieldInfo], local: &[FieldInfo], rust_name: &str) -> Result<ReadPlan> {
    let identical = remote == local;
    let mut steps = Vec::with_capacity(remote.len());
    for rf in remote {
        let found = local.iter().position(|lf| same_id(&lf.id, &rf.id));
        if let Some(i) = found {
            let lf = &local[i];
            if !readable(&rf.field_type, &lf.field_type) {
                return Err(Error::new(ErrorKind::TypeMismatch {
                    expected: format!(
                        "field `{}` of {rust_name} declared as type id {}",
                        name_of(&lf.id),
                        lf.field_type.type_id
                    ),
                    found: format!(
                        "the peer's field `{}` declared as type id {} (no conversion)",
                        name_of(&rf.id),
                        rf.field_type.type_id
                    ),
                }));
            }
        }
        steps.push(PlanStep {
            local: found,
            field_type: rf.field_type.clone(),
        });
    }
    Ok(ReadPlan { identical, steps })
}

/// The plan for the next body of `T`: `None` when no remote TypeDef was read for `T` (the
/// local schema applies) or when the remote TypeDef equals the local one.
pub fn plan_for<'de, T: FuryObject>(
    ctx: &mut ReadContext<'de, '_>,
    compress_int: bool,
) -> Result<Option<Arc<ReadPlan>>> {
    let key = std::any::TypeId::of::<T>();
    if let Some(plan) = ctx.cached_plan(key, compress_int) {
        return Ok(plan);
    }
    let Some(remote) = ctx.current_typedef(key) else {
        return Ok(None);
    };
    let plan = resolve_plan::<T>(ctx, &remote, compress_int)?;
    ctx.cache_plan(key, compress_int, plan.clone());
    Ok(plan)
}

fn resolve_plan<'de, T: FuryObject>(
    ctx: &ReadContext<'de, '_>,
    remote: &RemoteTypeDef,
    compress_int: bool,
) -> Result<Option<Arc<ReadPlan>>> {
    let key = std::any::TypeId::of::<T>();
    let entry = ctx.registry().entry::<T>()?;
    let local = entry.local_typedef(ctx.registry(), compress_int)?;
    if local.header == remote.def.header {
        return Ok(None);
    }
    if let Ok(plans) = remote.plans.lock() {
        if let Some((_, _, p)) = plans
            .iter()
            .find(|(k, c, _)| *k == key && *c == compress_int)
        {
            return Ok(Some(p.clone()));
        }
    }
    let local_true = entry.local_typedef(ctx.registry(), true)?;
    let plan = Arc::new(build_plan(
        &remote.def.fields,
        &local_true.fields,
        entry.rust_name,
    )?);
    if let Ok(mut plans) = remote.plans.lock() {
        plans.push((key, compress_int, plan.clone()));
    }
    Ok(Some(plan))
}

/// Reads a field the peer declared as `remote` into local type `F`.
pub fn read_evolved<'de, F: Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    remote: &FieldType,
) -> Result<F> {
    let item = Typed::<F>::new();
    let mut slot = None;
    if remote.nullable || (remote.track_ref && ctx.ref_tracking() && !inline_kind(remote.type_id)) {
        if ctx.reader.peek_u8()? == RefFlag::Null.byte() {
            ctx.reader.u8()?;
            // A null into a field that cannot hold one takes the field's default.
            return F::null().or_else(F::missing).ok_or_else(|| {
                ctx.error(ErrorKind::UnexpectedNull {
                    expected: std::any::type_name::<F>().to_string(),
                })
            });
        }
        match super::refs::read_flag(ctx, &item)? {
            super::refs::Flagged::Done(v) => return Ok(v),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = read_evolved_body::<F>(ctx, remote)?;
    Ok(super::refs::finish(ctx, &item, v, slot))
}

fn read_evolved_body<'de, F: Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    remote: &FieldType,
) -> Result<F> {
    let id = remote.type_id;
    if id == TypeId::Unknown as u8 || is_struct_kind(id) {
        let wire = read_type_info::<F>(ctx)?;
        return F::read_typed(ctx, wire);
    }
    let id = TypeId::from_u8(id).ok_or_else(|| ctx.error(ErrorKind::UnknownTypeId { id }))?;
    F::read_typed(ctx, id)
}

/// A local field missing from the peer's TypeDef: its default, or an error naming it.
pub fn missing_field<'de, F: Deserialize<'de>>(
    value: Option<F>,
    field: &str,
    ty: &str,
) -> Result<F> {
    match value {
        Some(v) => Ok(v),
        None => F::missing().ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!(
                    "field `{field}` of {ty} is missing from the peer's schema and its type has no default"
                ),
            })
        }),
    }
}

/// Reads and drops a value the peer declared as `t` (a field the local struct lacks).
pub fn skip_field<'de>(ctx: &mut ReadContext<'de, '_>, t: &FieldType) -> Result<()> {
    read_declared_value(ctx, t).map(drop)
}

/// Reads a value declared as `t` (with its null flag if `t` is nullable) as a dynamic
/// [`Value`]: payload only where the type is declared, type info where the peer writes it.
pub fn read_declared_value<'de>(ctx: &mut ReadContext<'de, '_>, t: &FieldType) -> Result<Value> {
    let item = DeclaredValue(t);
    let mut slot = None;
    if t.nullable || (t.track_ref && ctx.ref_tracking() && !inline_kind(t.type_id)) {
        match super::refs::read_flag(ctx, &item)? {
            super::refs::Flagged::Done(v) => return Ok(v),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = read_declared_body(ctx, t)?;
    Ok(super::refs::finish(ctx, &item, v, slot))
}

fn read_declared_body<'de>(ctx: &mut ReadContext<'de, '_>, t: &FieldType) -> Result<Value> {
    let id = t.type_id;
    if id == TypeId::Unknown as u8 || is_struct_kind(id) {
        let wire = read_type_info::<Value>(ctx)?;
        return Value::read_typed(ctx, wire);
    }
    DeclaredValue(t).read(ctx, None)
}

/// Reads items of a declared type (from a TypeDef) as [`Value`]s.
struct DeclaredValue<'t>(&'t FieldType);

impl<'de> ItemReader<'de> for DeclaredValue<'_> {
    type Out = Value;

    fn null(&self, _ctx: &ReadContext<'de, '_>) -> Result<Value> {
        Ok(Value::Null)
    }

    fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
        read_type_info::<Value>(ctx)
    }

    fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Value> {
        Value::from_ref(ctx, id, at)
    }

    fn begin_ref(&self, _ctx: &mut ReadContext<'de, '_>, _slot: usize) {}

    fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, v: Value, slot: usize) -> Value {
        v.keep_ref(ctx, slot)
    }

    fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Value> {
        if let Some(id) = id {
            return Value::read_typed(ctx, id);
        }
        let t = self.0;
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
                Ok(Value::List(read_elements_with(ctx, &DeclaredValue(e))?))
            }
            Some(TypeId::Set) => {
                let e = child(0)?;
                Ok(Value::Set(read_elements_with(ctx, &DeclaredValue(e))?))
            }
            Some(TypeId::Map) => {
                let (k, v) = (child(0)?, child(1)?);
                let mut pairs = Vec::new();
                read_map_with(ctx, &DeclaredValue(k), &DeclaredValue(v), |a, b| {
                    pairs.push((a, b))
                })?;
                Ok(Value::Map(pairs))
            }
            Some(TypeId::Enum | TypeId::NamedEnum) => Ok(Value::Enum(ctx.reader.var_u32()?)),
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
            Some(other) => Value::read_typed(ctx, other),
            None => Err(ctx.error(ErrorKind::UnknownTypeId { id: t.type_id })),
        }
    }
}

/// Reads the body of a compatible struct described by `def` as a [`Value::Struct`].
pub fn read_struct_value<'de>(
    ctx: &mut ReadContext<'de, '_>,
    def: &crate::resolver::RemoteTypeDef,
) -> Result<Value> {
    use crate::meta::typedef::TypeDefRegistration;
    let type_name = match &def.def.registration {
        TypeDefRegistration::Id(id) => format!("#{id}"),
        TypeDefRegistration::Name {
            namespace,
            type_name,
        } if namespace.is_empty() => type_name.clone(),
        TypeDefRegistration::Name {
            namespace,
            type_name,
        } => format!("{namespace}.{type_name}"),
    };
    ctx.enter()?;
    let mut fields = Vec::with_capacity(def.def.fields.len());
    for f in &def.def.fields {
        let v = read_declared_value(ctx, &f.field_type)?;
        fields.push((name_of(&f.id), v));
    }
    ctx.leave();
    Ok(Value::Struct(crate::value::StructValue {
        type_name,
        fields,
    }))
}
