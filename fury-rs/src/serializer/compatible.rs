//! Compatible mode on the read side: matching a peer's TypeDef to the local struct (by tag id
//! or snake_case name), reading fields whose declared type changed in compatible ways,
//! skipping fields the local struct does not have, and defaults for missing ones.

use super::items::Typed;
use super::{read_type_info, Deserialize};
use crate::context::ReadContext;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::registry::plan::{build_plan, ReadPlan};
use crate::registry::{RemoteTypeDef, UserType};
use crate::types::{RefFlag, TypeId};
use std::sync::Arc;

use super::typedef_declared::{inline_kind, is_struct_kind};

/// The plan for the next body of `T`: `None` when no remote TypeDef was read for `T` (the
/// local schema applies) or when the remote TypeDef equals the local one.
pub fn plan_for<'de, T: UserType>(
    ctx: &mut ReadContext<'de, '_>,
    compress_int: bool,
) -> Result<Option<Arc<ReadPlan>>> {
    let key = crate::registry::type_key::<T>();
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

fn resolve_plan<'de, T: UserType>(
    ctx: &ReadContext<'de, '_>,
    remote: &RemoteTypeDef,
    compress_int: bool,
) -> Result<Option<Arc<ReadPlan>>> {
    let key = crate::registry::type_key::<T>();
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
        entry.aliases,
        &entry.rust_name,
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
    match read_evolved_or_null(ctx, remote)? {
        Some(v) => Ok(v),
        // A null into a field that cannot hold one takes its type's default value.
        None => F::missing().ok_or_else(|| {
            ctx.error(ErrorKind::UnexpectedNull {
                expected: std::any::type_name::<F>().to_string(),
            })
        }),
    }
}

/// As [`read_evolved`], with `None` for a null that `F` cannot hold: a field with
/// `#[fury(default)]` takes its own default then.
pub fn read_evolved_or_null<'de, F: Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    remote: &FieldType,
) -> Result<Option<F>> {
    let item = Typed::<F>::new();
    let mut slot = None;
    if remote.nullable || (remote.track_ref && ctx.ref_tracking() && !inline_kind(remote.type_id)) {
        if ctx.reader.peek_u8()? == RefFlag::Null.byte() {
            ctx.reader.u8()?;
            return Ok(F::null());
        }
        match super::refs::read_flag(ctx, &item)? {
            super::refs::Flagged::Done(v) => return Ok(Some(v)),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = read_evolved_body::<F>(ctx, remote)?;
    Ok(Some(super::refs::finish(ctx, &item, v, slot)))
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
    if let Some(element) = crate::registry::plan::declared_element(remote) {
        return F::read_list_declared(ctx, element);
    }
    let id = TypeId::from_u8(id).ok_or_else(|| ctx.error(ErrorKind::UnknownTypeId { id }))?;
    // No type info precedes this payload: a `dyn AnyObject` must not take the type that an
    // earlier one named (an enum field the peer declares is a bare variant id).
    ctx.clear_any_target();
    F::read_typed(ctx, id)
}

/// A local field (without `#[fury(default)]`) missing from the peer's TypeDef: its type's
/// default value, or an error naming it (in strict mode always).
pub fn missing_field<'de, F: Deserialize<'de>>(
    ctx: &ReadContext<'de, '_>,
    value: Option<F>,
    field: &str,
    ty: &str,
) -> Result<F> {
    if let Some(v) = value {
        return Ok(v);
    }
    missing_field_value(ctx.strict(), field, ty)
}

#[cold]
fn missing_field_value<'de, F: Deserialize<'de>>(strict: bool, field: &str, ty: &str) -> Result<F> {
    let missing = || {
        Error::new(ErrorKind::MissingField {
            ty: ty.to_string(),
            field: field.to_string(),
        })
    };
    if strict {
        return Err(missing().with_hint(
            "this Fury is strict: give the field #[fury(default)] (or default = \"path\") to \
             accept its absence",
        ));
    }
    F::missing().ok_or_else(|| {
        missing().with_hint(
            "its type has no default value: give the field #[fury(default = \"path\")], or \
             the type #[fury(default)] (with a Default impl)",
        )
    })
}

/// Reads past a value the peer declared as `t` (a field the local struct lacks), building
/// nothing.
pub fn skip_field<'de>(ctx: &mut ReadContext<'de, '_>, t: &FieldType) -> Result<()> {
    super::typedef_declared::read_declared::<super::skip::Skipped>(ctx, t).map(drop)
}
