//! Booleans, integers and floats.
//!
//! Default encodings follow the xlang type mapping for Rust: `i32` is VARINT32, `i64`
//! VARINT64, `u32` VAR_UINT32, `u64` VAR_UINT64; use [`super::Fixed`] or [`super::Tagged`]
//! for the other encodings. Readers accept every integer encoding whose value fits the target.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::types::TypeId;

/// Reads the payload of any integer type id as `i128`; `None` if `id` is not an integer.
pub(crate) fn read_any_int<'de>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<Option<i128>> {
    let r = &mut ctx.reader;
    Ok(Some(match id {
        TypeId::Int8 => r.i8()? as i128,
        TypeId::Int16 => r.i16()? as i128,
        TypeId::Int32 => r.i32()? as i128,
        TypeId::VarInt32 => r.var_i32()? as i128,
        TypeId::Int64 => r.i64()? as i128,
        TypeId::VarInt64 => r.var_i64()? as i128,
        TypeId::TaggedInt64 => r.tagged_i64()? as i128,
        TypeId::UInt8 => r.u8()? as i128,
        TypeId::UInt16 => r.u16()? as i128,
        TypeId::UInt32 => r.u32()? as i128,
        TypeId::VarUInt32 => r.var_u32()? as i128,
        TypeId::UInt64 => r.u64()? as i128,
        TypeId::VarUInt64 => r.var_u64()? as i128,
        TypeId::TaggedUInt64 => r.tagged_u64()? as i128,
        _ => return Ok(None),
    }))
}

/// Reads a float of any width as `f64` (exact), with the offset of its payload.
fn read_any_float<'de>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<(f64, usize)> {
    let at = ctx.reader.position();
    let v = match id {
        TypeId::Float16 => F16(ctx.reader.u16()?).to_f32() as f64,
        TypeId::BFloat16 => BF16(ctx.reader.u16()?).to_f32() as f64,
        TypeId::Float32 => ctx.reader.f32()? as f64,
        TypeId::Float64 => ctx.reader.f64()?,
        other => return Err(ctx.mismatch("a float", other)),
    };
    Ok((v, at))
}

/// An `f64` as `f32` when no precision is lost (NaN and infinities pass).
fn narrow_f32(v: f64, at: usize) -> Result<f32> {
    let n = v as f32;
    if v.is_nan() || n as f64 == v {
        Ok(n)
    } else {
        Err(crate::Error::at(
            ErrorKind::OutOfRange {
                value: v.to_string(),
                target: "f32",
            },
            at,
        ))
    }
}

/// Reads an integer of any encoding and narrows it to `T`, failing if it does not fit.
pub(crate) fn read_int_as<'de, T: TryFrom<i128>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<T> {
    let at = ctx.reader.position();
    match read_any_int(ctx, id)? {
        Some(v) => T::try_from(v).map_err(|_| {
            crate::Error::at(
                ErrorKind::OutOfRange {
                    value: v.to_string(),
                    target: std::any::type_name::<T>(),
                },
                at,
            )
        }),
        None => Err(ctx.mismatch(std::any::type_name::<T>(), id)),
    }
}

/// Implements the traits for one primitive: its type id, the id of its dense array, how to
/// write and read it, and what other encodings `read_typed` accepts.
macro_rules! primitive {
    ($t:ty, $id:ident, $vec_id:ident, $max:expr, |$w:ident, $v:ident| $write:expr, |$r:ident| $read:expr,
     |$c:ident, $i:ident| $other:expr) => {
        impl WireType for $t {
            const TYPE_ID: TypeId = TypeId::$id;
            const VEC_TYPE_ID: TypeId = TypeId::$vec_id;
        }

        impl Serialize for $t {
            #[inline(always)]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                let $w = &mut ctx.writer;
                let $v = *self;
                $write;
                Ok(())
            }

            #[inline]
            fn write_vec(items: &[Self], _declared: bool, ctx: &mut WriteContext) -> Result<()> {
                super::array::write_vec_dense(items, ctx)
            }

            #[inline]
            fn visit_slice<'v>(items: &'v [Self], out: &mut Vec<&'v [u8]>) {
                super::array::visit_dense(items, out)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            #[inline(always)]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                let $r = &mut ctx.reader;
                $read
            }

            const DIRECT: bool = true;

            #[inline(always)]
            fn read_direct(
                r: &mut crate::buffer::Reader<'de>,
                _ctx: &ReadContext<'de, '_>,
            ) -> Option<Self> {
                let $r = r;
                $read.ok()
            }

            #[inline]
            fn missing() -> Option<Self> {
                Some(<$t>::default())
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                if id == TypeId::$id {
                    Self::read_data(ctx)
                } else {
                    let ($c, $i) = (ctx, id);
                    $other
                }
            }

            #[inline]
            fn read_vec(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Vec<Self>> {
                super::array::read_dense_or_list(ctx, id, TypeId::$vec_id)
            }

            #[inline]
            fn read_array<const N: usize>(
                ctx: &mut ReadContext<'de, '_>,
                id: TypeId,
            ) -> Result<Option<[Self; N]>> {
                super::array::read_dense_array(ctx, id, TypeId::$vec_id)
            }

            #[inline]
            fn read_slice_cow(
                ctx: &mut ReadContext<'de, '_>,
                id: TypeId,
            ) -> Result<std::borrow::Cow<'de, [Self]>> {
                super::array::read_dense_cow(ctx, id, TypeId::$vec_id)
            }
        }
    };
}

/// An integer: any other integer encoding is read and range-checked.
macro_rules! int {
    ($t:ty, $id:ident, $vec_id:ident, $max:expr, $write:ident, $read:ident) => {
        primitive!(
            $t,
            $id,
            $vec_id,
            $max,
            |w, v| w.$write(v),
            |r| r.$read(),
            |c, i| read_int_as(c, i)
        );
    };
}

/// A non-integer primitive: only its own type id is accepted.
macro_rules! plain {
    ($t:ty, $id:ident, $vec_id:ident, $max:expr, |$w:ident, $v:ident| $write:expr, |$r:ident| $read:expr) => {
        primitive!(
            $t,
            $id,
            $vec_id,
            $max,
            |$w, $v| $write,
            |$r| $read,
            |c, i| Err(c.mismatch(std::any::type_name::<$t>(), i))
        );
    };
}

int!(i8, Int8, Int8Array, 1, i8, i8);
int!(i16, Int16, Int16Array, 2, i16, i16);
int!(i32, VarInt32, Int32Array, 5, var_i32, var_i32);
int!(i64, VarInt64, Int64Array, 9, var_i64, var_i64);
int!(u8, UInt8, Binary, 1, u8, u8);
int!(u16, UInt16, UInt16Array, 2, u16, u16);
int!(u32, VarUInt32, UInt32Array, 5, var_u32, var_u32);
int!(u64, VarUInt64, UInt64Array, 9, var_u64, var_u64);

plain!(bool, Bool, BoolArray, 1, |w, v| w.bool(v), |r| r.bool());
primitive!(
    f32,
    Float32,
    Float32Array,
    4,
    |w, v| w.f32(v),
    |r| r.f32(),
    |c, i| read_any_float(c, i).and_then(|(v, at)| narrow_f32(v, at))
);
primitive!(
    f64,
    Float64,
    Float64Array,
    8,
    |w, v| w.f64(v),
    |r| r.f64(),
    |c, i| read_any_float(c, i).map(|(v, _)| v)
);
plain!(F16, Float16, Float16Array, 2, |w, v| w.u16(v.0), |r| r
    .u16()
    .map(F16));
plain!(BF16, BFloat16, BFloat16Array, 2, |w, v| w.u16(v.0), |r| r
    .u16()
    .map(BF16));
