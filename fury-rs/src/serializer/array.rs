//! Dense primitive arrays (`*_ARRAY`, and BINARY for bytes):
//! `varuint32 byte length | elements, little-endian, back to back`.

use super::Deserialize;
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::types::TypeId;

/// A fixed-size element of a dense array.
pub(crate) trait Dense: Sized + Copy {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Appends the little-endian encoding.
    fn put(self, out: &mut Vec<u8>);
    /// Decodes one element from exactly `SIZE` bytes; `None` if the bytes are invalid.
    fn get(b: &[u8]) -> Option<Self>;
}

macro_rules! dense_num {
    ($($t:ty),*) => {$(
        impl Dense for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn get(b: &[u8]) -> Option<Self> {
                b.try_into().ok().map(<$t>::from_le_bytes)
            }
        }
    )*};
}
dense_num!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Dense for bool {
    const SIZE: usize = 1;
    #[inline]
    fn put(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    #[inline]
    fn get(b: &[u8]) -> Option<Self> {
        match b {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
}

macro_rules! dense_half {
    ($($t:ident),*) => {$(
        impl Dense for $t {
            const SIZE: usize = 2;
            #[inline]
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.0.to_le_bytes());
            }
            #[inline]
            fn get(b: &[u8]) -> Option<Self> {
                b.try_into().ok().map(|a| $t(u16::from_le_bytes(a)))
            }
        }
    )*};
}
dense_half!(F16, BF16);

/// Writes a slice as a dense array payload.
pub(crate) fn write_dense<T: Dense>(items: &[T], ctx: &mut WriteContext) -> Result<()> {
    let bytes = items.len().saturating_mul(T::SIZE);
    ctx.length(bytes)?;
    let out = ctx.writer.vec_mut();
    out.reserve(bytes);
    for &x in items {
        x.put(out);
    }
    Ok(())
}

/// Reads a dense array payload of `T`.
pub(crate) fn read_dense<T: Dense>(ctx: &mut ReadContext) -> Result<Vec<T>> {
    let at = ctx.reader.position();
    let len = ctx.reader.var_u32()? as usize;
    if !len.is_multiple_of(T::SIZE) {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "array byte length {len} is not a multiple of the element size {}",
                    T::SIZE
                ),
            },
            at,
        ));
    }
    let len = ctx.reader.check_count("array", len as u64, 1, at)?;
    let bytes = ctx.reader.bytes(len)?;
    let mut out = Vec::with_capacity(len / T::SIZE);
    for (i, chunk) in bytes.chunks_exact(T::SIZE).enumerate() {
        match T::get(chunk) {
            Some(v) => out.push(v),
            None => {
                return Err(Error::at(
                    ErrorKind::Invalid {
                        what: format!("invalid element in {}", std::any::type_name::<T>()),
                    },
                    at + i * T::SIZE,
                ))
            }
        }
    }
    Ok(out)
}

/// Reads a `Vec<T>` written either as the dense array `dense_id` (or BINARY / UINT8_ARRAY
/// for bytes) or as a LIST.
pub(crate) fn read_dense_or_list<T: Dense + Deserialize>(
    ctx: &mut ReadContext,
    id: TypeId,
    dense_id: TypeId,
) -> Result<Vec<T>> {
    let bytes_alias = dense_id == TypeId::Binary && id == TypeId::UInt8Array;
    if id == dense_id || bytes_alias {
        read_dense(ctx)
    } else if id == TypeId::List {
        super::read_elements(ctx)
    } else {
        Err(ctx.mismatch(std::any::type_name::<Vec<T>>(), id))
    }
}

/// Bytes written as UINT8_ARRAY instead of BINARY (the form of a plain `Vec<u8>`), for peers
/// that declare an unsigned byte array (e.g. pyfory's `UInt8Array`). Both read either form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UInt8Array(pub Vec<u8>);

impl super::Serialize for UInt8Array {
    const TYPE_ID: TypeId = TypeId::UInt8Array;

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_dense(&self.0, ctx)
    }
}

impl Deserialize for UInt8Array {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext) -> Result<Self> {
        read_dense(ctx).map(UInt8Array)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
        u8::read_vec(ctx, id).map(UInt8Array)
    }
}
