//! Dense primitive arrays (`*_ARRAY`, and BINARY for bytes):
//! `varuint32 byte length | elements, little-endian, back to back`.

use super::Deserialize;
use crate::buffer::{ArrayView, Reader, ViewElement, Writer};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::types::TypeId;

/// A fixed-size element of a dense array.
pub(crate) trait Dense: Sized + Copy {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Appends the little-endian encodings of `items`.
    fn put_all(items: &[Self], w: &mut Writer);
    /// Reads `count` elements (`count * SIZE` bytes); `Err(i)` if element `i` is invalid.
    fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>>;
    /// The elements encoded in `bytes`, in place, for element types whose encoding is their
    /// memory layout whatever the alignment (bytes); `None` for the others.
    #[inline]
    fn in_place(bytes: &[u8]) -> Option<&[Self]> {
        let _ = bytes;
        None
    }
    /// Fills `out` from `out.len()` encoded elements, for the wider numbers whose every bit
    /// pattern is a value; false (nothing read) for the others.
    #[inline]
    fn get_array(r: &mut Reader, out: &mut [Self]) -> Result<bool> {
        let _ = (r, out);
        Ok(false)
    }
    /// `items` as the payload of a BINARY, for the element type whose `Vec` is one (`u8`);
    /// `None` for the others.
    #[inline]
    fn as_binary(items: &[Self]) -> Option<&[u8]> {
        let _ = items;
        None
    }
}

macro_rules! dense_num {
    ($($t:ty),*) => {$(
        impl Dense for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn put_all(items: &[Self], w: &mut Writer) {
                w.numbers(items);
            }
            #[inline]
            fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>> {
                r.numbers(count).map(Ok)
            }
            #[inline]
            fn get_array(r: &mut Reader, out: &mut [Self]) -> Result<bool> {
                r.numbers_into(out).map(|()| true)
            }
        }
    )*};
}
dense_num!(i16, i32, i64, u16, u32, u64, f32, f64);

impl Dense for u8 {
    const SIZE: usize = 1;
    #[inline]
    fn put_all(items: &[Self], w: &mut Writer) {
        w.numbers(items);
    }
    #[inline]
    fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>> {
        r.numbers(count).map(Ok)
    }
    #[inline]
    fn in_place(bytes: &[u8]) -> Option<&[Self]> {
        Some(bytes)
    }
    #[inline]
    fn as_binary(items: &[Self]) -> Option<&[u8]> {
        Some(items)
    }
}

impl Dense for i8 {
    const SIZE: usize = 1;
    #[inline]
    fn put_all(items: &[Self], w: &mut Writer) {
        w.numbers(items);
    }
    #[inline]
    fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>> {
        r.numbers(count).map(Ok)
    }
    #[inline]
    fn in_place(bytes: &[u8]) -> Option<&[Self]> {
        Some(crate::buffer::bytes_as_i8(bytes))
    }
}

impl Dense for bool {
    const SIZE: usize = 1;
    #[inline]
    fn put_all(items: &[Self], w: &mut Writer) {
        w.reserve(items.len());
        for &b in items {
            w.bool(b);
        }
    }
    #[inline]
    fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>> {
        let bytes = r.bytes(count)?;
        if let Some(i) = bytes.iter().position(|&b| b > 1) {
            return Ok(Err(i));
        }
        Ok(Ok(bytes.iter().map(|&b| b == 1).collect()))
    }
}

macro_rules! dense_half {
    ($($t:ident),*) => {$(
        impl Dense for $t {
            const SIZE: usize = 2;
            #[inline]
            fn put_all(items: &[Self], w: &mut Writer) {
                w.reserve(items.len() * 2);
                for x in items {
                    w.u16(x.0);
                }
            }
            fn get_all(r: &mut Reader, count: usize) -> Result<std::result::Result<Vec<Self>, usize>> {
                Ok(Ok(r.numbers::<u16>(count)?.into_iter().map($t).collect()))
            }
        }
    )*};
}
dense_half!(F16, BF16);

/// Reads a dense array's byte length and checks it: a multiple of the element size `size`,
/// and no more than the input holds.
#[inline(always)]
fn dense_len(ctx: &mut ReadContext<'_, '_>, size: usize) -> Result<usize> {
    let at = ctx.reader.position();
    let len = ctx.reader.var_u32()? as usize;
    if !len.is_multiple_of(size) {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "array byte length {len} is not a multiple of the element size {size}"
                ),
            },
            at,
        ));
    }
    ctx.reader.check_count("array", len as u64, 1, at)
}

/// Writes a slice as a dense array payload.
pub(crate) fn write_dense<T: Dense>(items: &[T], ctx: &mut WriteContext) -> Result<()> {
    let bytes = items.len().saturating_mul(T::SIZE);
    ctx.length(bytes)?;
    T::put_all(items, &mut ctx.writer);
    Ok(())
}

/// Writes a `[T]` as its `Vec` is written: BINARY for bytes (see `WriteContext::binary`), the
/// dense array of `T` otherwise.
#[inline]
pub(crate) fn write_vec_dense<T: Dense>(items: &[T], ctx: &mut WriteContext) -> Result<()> {
    match T::as_binary(items) {
        Some(bytes) => ctx.binary(bytes),
        None => write_dense(items, ctx),
    }
}

/// The out-of-band candidates of a `[T]` of numbers: itself, if it is written as BINARY.
#[inline]
pub(crate) fn visit_dense<'v, T: Dense>(items: &'v [T], out: &mut Vec<&'v [u8]>) {
    if let Some(bytes) = T::as_binary(items) {
        out.push(bytes);
    }
}

/// Reads a dense array payload of `T`.
pub(crate) fn read_dense<'de, T: Dense>(ctx: &mut ReadContext<'de, '_>) -> Result<Vec<T>> {
    let at = ctx.reader.position();
    let len = dense_len(ctx, T::SIZE)?;
    match T::get_all(&mut ctx.reader, len / T::SIZE)? {
        Ok(v) => Ok(v),
        Err(i) => Err(Error::at(
            ErrorKind::Invalid {
                what: format!("invalid element in {}", std::any::type_name::<T>()),
            },
            at + i * T::SIZE,
        )),
    }
}

/// Reads a `[T; N]` written as the dense array `dense_id` of exactly `N` elements straight
/// into the array (no `Vec` in between), for the element types [`Dense::get_array`] fills;
/// `None`, with nothing consumed, for any other form (the general path reads it and reports
/// a wrong count).
#[inline]
pub(crate) fn read_dense_array<'de, T: Dense + Default, const N: usize>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
    dense_id: TypeId,
) -> Result<Option<[T; N]>> {
    if id != dense_id || id == TypeId::Binary {
        return Ok(None);
    }
    let at = ctx.reader.position();
    let len = dense_len(ctx, T::SIZE)?;
    if len != N.saturating_mul(T::SIZE) {
        ctx.reader.rewind_to(at)?;
        return Ok(None);
    }
    let mut out = [T::default(); N];
    if !T::get_array(&mut ctx.reader, &mut out)? {
        ctx.reader.rewind_to(at)?;
        return Ok(None);
    }
    Ok(Some(out))
}

/// Reads a `Vec<T>` written either as the dense array `dense_id` (or BINARY / UINT8_ARRAY
/// for bytes) or as a LIST.
pub(crate) fn read_dense_or_list<'de, T: Dense + Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
    dense_id: TypeId,
) -> Result<Vec<T>> {
    let bytes_alias = dense_id == TypeId::Binary && id == TypeId::UInt8Array;
    if id == TypeId::Binary && dense_id == TypeId::Binary {
        let bytes = ctx.binary()?;
        match T::in_place(bytes) {
            Some(items) => Ok(items.to_vec()),
            None => Err(ctx.mismatch(std::any::type_name::<Vec<T>>(), id)),
        }
    } else if id == dense_id || bytes_alias {
        read_dense(ctx)
    } else if id == TypeId::List {
        super::read_elements(ctx)
    } else {
        Err(ctx.mismatch(std::any::type_name::<Vec<T>>(), id))
    }
}

/// Reads a `[T]` written as `read_dense_or_list` reads it, borrowed from the input where
/// the dense form holds the elements as they are (bytes, see [`Dense::in_place`]).
pub(crate) fn read_dense_cow<'de, T: Dense + Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
    dense_id: TypeId,
) -> Result<std::borrow::Cow<'de, [T]>> {
    let bytes_alias = dense_id == TypeId::Binary && id == TypeId::UInt8Array;
    if (id == dense_id || bytes_alias) && T::in_place(&[]).is_some() {
        let bytes = if id == TypeId::Binary {
            ctx.binary()?
        } else {
            read_bytes(ctx)?
        };
        if let Some(items) = T::in_place(bytes) {
            return Ok(std::borrow::Cow::Borrowed(items));
        }
    }
    read_dense_or_list(ctx, id, dense_id).map(std::borrow::Cow::Owned)
}

/// Reads the payload of a byte array (BINARY, UINT8_ARRAY, INT8_ARRAY: a length, then the
/// bytes), borrowed from the input.
#[inline]
fn read_bytes<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<&'de [u8]> {
    let len = dense_len(ctx, 1)?;
    ctx.reader.bytes(len)
}

/// Bytes written as UINT8_ARRAY instead of BINARY (the form of a plain `Vec<u8>`), for peers
/// that declare an unsigned byte array (e.g. pyfory's `UInt8Array`). Both read either form.
///
/// `UInt8Array<&'de [u8]>` is the borrowed form: the same declared type (so the same TypeDef
/// and schema hash), with the bytes left in the input.
///
/// ```
/// use fury::UInt8Array;
///
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&UInt8Array(vec![7u8, 8, 9])).unwrap();
/// let view: UInt8Array<&[u8]> = fury.deserialize(&bytes).unwrap();
/// assert_eq!(view.0, [7, 8, 9]);
/// assert_eq!(fury.serialize(&view).unwrap(), bytes);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UInt8Array<B = Vec<u8>>(pub B);

impl<B> super::WireType for UInt8Array<B> {
    const TYPE_ID: TypeId = TypeId::UInt8Array;
}

impl<B: AsRef<[u8]>> super::Serialize for UInt8Array<B> {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_dense(self.0.as_ref(), ctx)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for UInt8Array<&'a [u8]> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(UInt8Array(&[]))
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_bytes(ctx).map(UInt8Array)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        <&[u8]>::read_typed(ctx, id).map(UInt8Array)
    }
}

impl<'de> Deserialize<'de> for UInt8Array {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_dense(ctx).map(UInt8Array)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        u8::read_vec(ctx, id).map(UInt8Array)
    }
}

/// Bytes borrowed from the input: the payload of a BINARY (or UINT8_ARRAY, the same layout).
///
/// ```
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&vec![1u8, 2, 3]).unwrap();
/// let view: &[u8] = fury.deserialize(&bytes).unwrap();
/// assert_eq!(view, [1, 2, 3]);
/// ```
impl<'de: 'a, 'a> Deserialize<'de> for &'a [u8] {
    #[inline]
    fn missing() -> Option<Self> {
        Some(&[])
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        ctx.binary()
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::Binary {
            ctx.binary()
        } else if id == TypeId::UInt8Array {
            read_bytes(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }
}

/// Signed bytes borrowed from the input: the payload of an INT8_ARRAY.
///
/// ```
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&vec![-1i8, 2, -3]).unwrap();
/// let view: &[i8] = fury.deserialize(&bytes).unwrap();
/// assert_eq!(view, [-1, 2, -3]);
/// ```
impl<'de: 'a, 'a> Deserialize<'de> for &'a [i8] {
    #[inline]
    fn missing() -> Option<Self> {
        Some(&[])
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_bytes(ctx).map(crate::buffer::bytes_as_i8)
    }
}

impl<T: ViewElement + super::WireType> super::WireType for ArrayView<'_, T> {
    const TYPE_ID: TypeId = T::VEC_TYPE_ID;
}

impl<T: ViewElement + super::WireType> super::Serialize for ArrayView<'_, T> {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.length(self.as_bytes().len())?;
        ctx.writer.bytes(self.as_bytes());
        Ok(())
    }
}

impl<'de: 'a, 'a, T: ViewElement + super::WireType> Deserialize<'de> for ArrayView<'a, T> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(ArrayView::new(&[]))
    }

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Self::read_typed(ctx, T::VEC_TYPE_ID)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        let bytes_alias = T::VEC_TYPE_ID == TypeId::Binary && id == TypeId::UInt8Array;
        if id == TypeId::Binary && T::VEC_TYPE_ID == TypeId::Binary {
            Ok(ArrayView::new(ctx.binary()?))
        } else if id == T::VEC_TYPE_ID || bytes_alias {
            let len = dense_len(ctx, T::SIZE)?;
            Ok(ArrayView::new(ctx.reader.bytes(len)?))
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }
}
