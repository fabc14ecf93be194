//! Tagged unions: `#[derive(FuryObject)]` on an enum whose variants are unit or hold one
//! value. The payload is the case id (varuint32), then the case value written as a whole
//! value (flag, type info, payload); a unit case is the NULL flag. The type info of a union
//! is TYPED_UNION and the user type id, or NAMED_UNION and the names; a union field is
//! declared UNION in a TypeDef and written without type info.

use super::{read_type_info, read_with_flag, Deserialize, Serialize};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::RefFlag;
use crate::value::Value;

/// A union case this side does not know, kept by the enum's `#[fury(unknown)]` variant: its
/// case id and its value, read dynamically. Written back as it came.
///
/// ```
/// #[derive(fury::FuryObject, Debug, PartialEq)]
/// #[fury(id = 300)]
/// enum Shape {
///     Circle(f64),
///     #[fury(unknown)]
///     Other(fury::UnknownCase),
/// }
/// let mut fury = fury::Fury::default();
/// fury.register::<Shape>().unwrap();
/// let s = Shape::Other(fury::UnknownCase { case_id: 9, value: fury::Value::String("sq".into()) });
/// let bytes = fury.serialize(&s).unwrap();
/// assert_eq!(fury.deserialize::<Shape>(&bytes).unwrap(), s);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownCase {
    /// The case id read.
    pub case_id: u32,
    /// The case value (`Value::Null` for an empty case).
    pub value: Value,
}

/// Writes a case: its id, then its value with flag and type info.
#[inline]
pub fn write_union_case<T: Serialize + ?Sized>(
    case_id: u32,
    value: &T,
    ctx: &mut WriteContext,
) -> Result<()> {
    ctx.writer.var_u32(case_id);
    ctx.enter()?;
    // As pyfory: a REF_VALUE flag (with tracking on) only for kinds that are tracked.
    let r = match value.write_ref_flag(ctx, value.is_ref_type()) {
        Ok(true) => Ok(()),
        // The case type is known to both sides (pyfory's union serializer is built from the
        // case's type hint), so a list case declares its element type as in a struct field.
        Ok(false) => value
            .write_type_info(ctx)
            .and_then(|()| value.write_declared(ctx)),
        Err(e) => Err(e),
    };
    ctx.leave();
    r
}

/// Writes a unit case: its id and the NULL flag.
#[inline]
pub fn write_union_unit(case_id: u32, ctx: &mut WriteContext) -> Result<()> {
    ctx.writer.var_u32(case_id);
    ctx.ref_flag(RefFlag::Null);
    Ok(())
}

/// Writes an unknown case back.
pub fn write_union_unknown(u: &UnknownCase, ctx: &mut WriteContext) -> Result<()> {
    if u.value == Value::Null {
        return write_union_unit(u.case_id, ctx);
    }
    write_union_case(u.case_id, &u.value, ctx)
}

/// Reads the case id of a union payload; the offset it was read at comes with it.
#[inline]
pub fn read_union_case_id(ctx: &mut ReadContext<'_, '_>) -> Result<(u32, usize)> {
    let at = ctx.reader.position();
    Ok((ctx.reader.var_u32()?, at))
}

/// Reads a case value of type `T` (flag, type info, payload). Without reference tracking the
/// REF_VALUE flag `00` is read as NOT_NULL: the official crate writes it before a struct case
/// where pyfory writes `ff`.
#[inline]
pub fn read_union_case<'de, T: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<T> {
    ctx.enter()?;
    let r = if !ctx.ref_tracking() && ctx.reader.take_if(RefFlag::RefValue.byte()) {
        read_type_info::<T>(ctx).and_then(|id| T::read_typed(ctx, id))
    } else {
        read_with_flag::<T>(ctx)
    };
    ctx.leave();
    r
}

/// Reads the value of a unit case: the NULL flag (a value there is read and dropped, so
/// that a peer's non-empty case still reads into a local unit variant).
pub fn read_union_unit(ctx: &mut ReadContext<'_, '_>) -> Result<()> {
    if ctx.reader.take_if(RefFlag::Null.byte()) {
        return Ok(());
    }
    read_union_case::<Value>(ctx).map(drop)
}

/// Reads an unknown case's value into the `#[fury(unknown)]` variant.
pub fn read_union_unknown(ctx: &mut ReadContext<'_, '_>, case_id: u32) -> Result<UnknownCase> {
    let value = if ctx.reader.take_if(RefFlag::Null.byte()) {
        Value::Null
    } else {
        read_union_case::<Value>(ctx)?
    };
    Ok(UnknownCase { case_id, value })
}

/// The error for a case id the union does not have (and no `#[fury(unknown)]` variant).
#[cold]
pub fn bad_union_case<T>(at: usize, case_id: u32) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: format!(
                "union case id {case_id} is not a case of {} (add a #[fury(unknown)] variant to keep unknown cases)",
                std::any::type_name::<T>()
            ),
        },
        at,
    )
}
