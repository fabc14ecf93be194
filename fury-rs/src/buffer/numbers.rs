//! Runs of primitive numbers as little-endian bytes, copied in one piece.
//!
//! On a little-endian target the memory of a `[i32]` (or any other primitive number slice)
//! already is its little-endian encoding, so a dense array is written and read with one copy
//! instead of a loop. This file holds `unsafe` code; every block says why it is sound.

#![allow(unsafe_code)]

use super::{Reader, Writer};
use crate::error::Result;

mod sealed {
    pub trait Sealed {}
}

/// A primitive number type whose every bit pattern is a valid value and which has no
/// padding: `i8`..`i64`, `u8`..`u64`, `f32`, `f64`. Sealed: the `unsafe` code below relies
/// on exactly these properties.
pub trait LeNumber: Copy + sealed::Sealed + 'static {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Decodes one value from its little-endian bytes (`bytes.len() == SIZE`).
    fn from_le_slice(bytes: &[u8]) -> Option<Self>;
    /// Appends the little-endian encoding of one value.
    fn put_le(self, w: &mut Writer);
}

macro_rules! le_number {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LeNumber for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn from_le_slice(bytes: &[u8]) -> Option<Self> {
                bytes.try_into().ok().map(<$t>::from_le_bytes)
            }
            #[inline]
            fn put_le(self, w: &mut Writer) {
                w.bytes(&self.to_le_bytes());
            }
        }
    )*};
}
le_number!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Writer<'_> {
    /// Appends the little-endian encoding of every number in `items`, back to back.
    ///
    /// ```
    /// use fury::wire::Writer;
    /// let mut out = Vec::new();
    /// Writer::new(&mut out).numbers(&[1i16, -2]);
    /// assert_eq!(out, [0x01, 0x00, 0xfe, 0xff]);
    /// ```
    #[inline]
    pub fn numbers<T: LeNumber>(&mut self, items: &[T]) {
        if cfg!(target_endian = "little") {
            // SAFETY: `T` is a primitive number (sealed trait): no padding, so all
            // `size_of_val(items)` bytes behind `items.as_ptr()` are initialised and may be
            // viewed as `u8` (alignment 1) for the lifetime of the borrow of `items`.
            let bytes = unsafe {
                std::slice::from_raw_parts(
                    items.as_ptr() as *const u8,
                    std::mem::size_of_val(items),
                )
            };
            self.bytes(bytes);
        } else {
            for &x in items {
                x.put_le(self);
            }
        }
    }
}

impl<'a> Reader<'a> {
    /// Reads `count` little-endian numbers into a new vector (the bytes are checked to be
    /// there before anything is allocated).
    ///
    /// ```
    /// use fury::wire::Reader;
    /// let mut r = Reader::new(&[0x01, 0x00, 0xfe, 0xff]);
    /// assert_eq!(r.numbers::<i16>(2).unwrap(), [1, -2]);
    /// assert!(r.numbers::<i16>(1).is_err());
    /// ```
    #[inline]
    pub fn numbers<T: LeNumber>(&mut self, count: usize) -> Result<Vec<T>> {
        let bytes = self.bytes(count.saturating_mul(T::SIZE))?;
        if cfg!(target_endian = "little") {
            let mut out: Vec<T> = Vec::with_capacity(count);
            // SAFETY: `bytes` holds exactly `count * SIZE` bytes (`bytes` failed otherwise,
            // and a saturated product cannot be satisfied by any slice), the vector has room
            // for `count` values of `SIZE` bytes, and the two allocations are distinct. Every
            // bit pattern is a valid `T` (sealed trait), so after the copy the first `count`
            // elements are initialised and `set_len` is sound.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    out.as_mut_ptr() as *mut u8,
                    bytes.len(),
                );
                out.set_len(count);
            }
            Ok(out)
        } else {
            Ok(bytes
                .chunks_exact(T::SIZE)
                .filter_map(T::from_le_slice)
                .collect())
        }
    }
}

impl Reader<'_> {
    /// Reads `out.len()` little-endian numbers into `out` (the bytes are checked to be there
    /// before any is stored).
    ///
    /// ```
    /// use fury::wire::Reader;
    /// let mut out = [0u16; 2];
    /// Reader::new(&[0x01, 0x00, 0x02, 0x01]).numbers_into(&mut out).unwrap();
    /// assert_eq!(out, [1, 0x0102]);
    /// ```
    #[inline]
    pub fn numbers_into<T: LeNumber>(&mut self, out: &mut [T]) -> Result<()> {
        let bytes = self.bytes(out.len().saturating_mul(T::SIZE))?;
        for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(T::SIZE)) {
            if let Some(v) = T::from_le_slice(chunk) {
                *o = v;
            }
        }
        Ok(())
    }
}

/// The bytes of an INT8_ARRAY as the `i8`s they encode (two's complement: the same bits).
#[inline]
pub(crate) fn bytes_as_i8(bytes: &[u8]) -> &[i8] {
    // SAFETY: `i8` and `u8` have the same size and alignment (1) and every bit pattern is a
    // valid `i8`, so the region of `bytes` is a valid `[i8]` of the same length, borrowed for
    // the same lifetime.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) }
}
