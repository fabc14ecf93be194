//! The leaves of a dynamic value (numbers, text, byte strings, time values, decimals, dense
//! arrays): read and written in a frame of their own, so that the recursion through
//! containers stays small on the stack even in debug builds.

use super::form::ReadForm;
use crate::buffer::ViewElement;
use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::serializer::array::{read_dense, write_dense, Dense};
use crate::serializer::{Deserialize, Serialize};
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;
use crate::value::{ArrayData, DynamicValue, Elements, Form};

/// Reads the payload of a leaf of type `id`.
#[inline(never)]
pub(super) fn read_leaf<'de, F: ReadForm<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<DynamicValue<F>> {
    use DynamicValue as V;
    let r = &mut ctx.reader;
    Ok(match id {
        TypeId::None => V::Null,
        TypeId::Bool => V::Bool(r.bool()?),
        TypeId::Int8 => V::Int8(r.i8()?),
        TypeId::Int16 => V::Int16(r.i16()?),
        TypeId::Int32 => V::Int32(r.i32()?),
        TypeId::VarInt32 => V::VarInt32(r.var_i32()?),
        TypeId::Int64 => V::Int64(r.i64()?),
        TypeId::VarInt64 => V::VarInt64(r.var_i64()?),
        TypeId::TaggedInt64 => V::TaggedInt64(r.tagged_i64()?),
        TypeId::UInt8 => V::UInt8(r.u8()?),
        TypeId::UInt16 => V::UInt16(r.u16()?),
        TypeId::UInt32 => V::UInt32(r.u32()?),
        TypeId::VarUInt32 => V::VarUInt32(r.var_u32()?),
        TypeId::UInt64 => V::UInt64(r.u64()?),
        TypeId::VarUInt64 => V::VarUInt64(r.var_u64()?),
        TypeId::TaggedUInt64 => V::TaggedUInt64(r.tagged_u64()?),
        TypeId::Float16 => V::Float16(F16(r.u16()?)),
        TypeId::BFloat16 => V::BFloat16(BF16(r.u16()?)),
        TypeId::Float32 => V::Float32(r.f32()?),
        TypeId::Float64 => V::Float64(r.f64()?),
        TypeId::String => V::String(F::read_str(ctx)?),
        TypeId::Binary => V::Binary(F::read_binary(ctx)?),
        TypeId::Duration => V::Duration(Duration::read_data(ctx)?),
        TypeId::Timestamp => V::Timestamp(Timestamp::read_data(ctx)?),
        TypeId::Date => V::Date(Date::read_data(ctx)?),
        TypeId::Decimal => V::Decimal(crate::Decimal::read_data(ctx)?),
        TypeId::BoolArray => V::BoolArray(read_dense(ctx)?),
        TypeId::Int8Array => V::Int8Array(F::read_int8_array(ctx)?),
        TypeId::Int16Array => V::Int16Array(F::read_array(ctx)?),
        TypeId::Int32Array => V::Int32Array(F::read_array(ctx)?),
        TypeId::Int64Array => V::Int64Array(F::read_array(ctx)?),
        TypeId::UInt8Array => V::UInt8Array(F::read_uint8_array(ctx)?),
        TypeId::UInt16Array => V::UInt16Array(F::read_array(ctx)?),
        TypeId::UInt32Array => V::UInt32Array(F::read_array(ctx)?),
        TypeId::UInt64Array => V::UInt64Array(F::read_array(ctx)?),
        TypeId::Float16Array => V::Float16Array(F::read_array(ctx)?),
        TypeId::BFloat16Array => V::BFloat16Array(F::read_array(ctx)?),
        TypeId::Float32Array => V::Float32Array(F::read_array(ctx)?),
        TypeId::Float64Array => V::Float64Array(F::read_array(ctx)?),
        TypeId::Struct | TypeId::NamedStruct => {
            return Err(ctx.error(ErrorKind::Unsupported {
                what: format!(
                    "a same-schema struct ({}) in a dynamic value: a Value reads a struct by \
                     its TypeDef, which only compatible mode writes (read it as its Rust type)",
                    id.name()
                ),
            }))
        }
        other => {
            return Err(ctx.error(ErrorKind::Unsupported {
                what: format!("type {} in a dynamic value", other.name()),
            }))
        }
    })
}

/// Writes the payload of `value`, whose type info (if any) was written.
#[inline(never)]
pub(super) fn write_leaf<F: Form>(value: &DynamicValue<F>, ctx: &mut WriteContext) -> Result<()> {
    use DynamicValue as V;
    let w = &mut ctx.writer;
    match value {
        V::Null => {}
        V::Bool(v) => w.bool(*v),
        V::Int8(v) => w.i8(*v),
        V::Int16(v) => w.i16(*v),
        V::Int32(v) => w.i32(*v),
        V::VarInt32(v) => w.var_i32(*v),
        V::Int64(v) => w.i64(*v),
        V::VarInt64(v) => w.var_i64(*v),
        V::TaggedInt64(v) => w.tagged_i64(*v),
        V::UInt8(v) => w.u8(*v),
        V::UInt16(v) => w.u16(*v),
        V::UInt32(v) => w.u32(*v),
        V::VarUInt32(v) => w.var_u32(*v),
        V::UInt64(v) => w.u64(*v),
        V::VarUInt64(v) => w.var_u64(*v),
        V::TaggedUInt64(v) => w.tagged_u64(*v),
        V::Float16(v) => w.u16(v.0),
        V::BFloat16(v) => w.u16(v.0),
        V::Float32(v) => w.f32(*v),
        V::Float64(v) => w.f64(*v),
        V::String(s) => str::write_data(s, ctx)?,
        V::Binary(b) => ctx.binary(b)?,
        V::UInt8Array(b) => write_dense::<u8>(b, ctx)?,
        V::Duration(d) => d.write_data(ctx)?,
        V::Timestamp(t) => t.write_data(ctx)?,
        V::Date(d) => d.write_data(ctx)?,
        V::Decimal(d) => d.write_data(ctx)?,
        // Not leaves: what `write_data` writes.
        V::List(_) | V::Set(_) | V::Map(_) | V::Struct(_) | V::Union(_) | V::Ref(_) => {
            return value.write_data(ctx)
        }
        V::Enum(e) => w.var_u32(e.variant),
        V::BoolArray(a) => write_dense(a, ctx)?,
        V::Int8Array(a) => write_dense::<i8>(a, ctx)?,
        V::Int16Array(a) => write_array(a, ctx)?,
        V::Int32Array(a) => write_array(a, ctx)?,
        V::Int64Array(a) => write_array(a, ctx)?,
        V::UInt16Array(a) => write_array(a, ctx)?,
        V::UInt32Array(a) => write_array(a, ctx)?,
        V::UInt64Array(a) => write_array(a, ctx)?,
        V::Float16Array(a) => write_array(a, ctx)?,
        V::BFloat16Array(a) => write_array(a, ctx)?,
        V::Float32Array(a) => write_array(a, ctx)?,
        V::Float64Array(a) => write_array(a, ctx)?,
    }
    Ok(())
}

/// A dense array's payload, from its elements or from the encoded bytes a view holds.
#[inline]
fn write_array<T: ViewElement + Dense>(a: &impl Elements<T>, ctx: &mut WriteContext) -> Result<()> {
    match a.data() {
        ArrayData::Elements(items) => write_dense(items, ctx),
        ArrayData::Encoded(bytes) => {
            ctx.length(bytes.len())?;
            ctx.writer.bytes(bytes);
            Ok(())
        }
    }
}
