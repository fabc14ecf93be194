//! Structs in a row: the writer and the view the generated code uses.

#![allow(unsafe_code)] // `view` trusts validated bytes; every block says why it is sound

use super::layout::{bit, bitmap_width, pointed, round8, slice};
use super::RowValue;
use crate::error::{Error, ErrorKind, Result};

/// A validated struct in a row (hidden: the generated `FooRow` views wrap one).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct StructView<'a> {
    bytes: &'a [u8],
    width: usize,
}

impl<'a> StructView<'a> {
    /// The view of a struct of `fields` fields.
    ///
    /// # Safety
    ///
    /// `bytes` passed the struct's `check`, which checked every field with the type its
    /// accessor reads it as.
    #[inline(always)]
    pub unsafe fn new_unchecked(bytes: &'a [u8], fields: usize) -> Self {
        StructView {
            bytes,
            width: bitmap_width(fields),
        }
    }

    /// Field `index` as an `F`.
    #[inline(always)]
    pub fn field<F: RowValue>(&self, index: usize) -> F::View<'a> {
        let null = bit(self.bytes, 0, index);
        let at = self.width + index * 8;
        let cell = if F::VARIABLE {
            pointed(self.bytes, at)
        } else {
            slice(self.bytes, at, F::WIDTH)
        };
        // SAFETY: the struct's check checked this field as an `F` (`new_unchecked`).
        unsafe { F::view(null, cell) }
    }

    /// Whether field `index`'s null bit is set.
    #[inline(always)]
    pub fn is_null(&self, index: usize) -> bool {
        bit(self.bytes, 0, index)
    }

    /// The row's bytes.
    #[inline(always)]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// Writes a struct's fields into a row (hidden: used by generated code).
#[doc(hidden)]
pub struct StructWriter {
    base: usize,
    width: usize,
}

impl StructWriter {
    /// Starts a struct of `fields` fields at the end of `buf`: a zero bitmap and zero slots.
    #[inline]
    pub fn begin(buf: &mut Vec<u8>, fields: usize) -> Self {
        let base = buf.len();
        let width = bitmap_width(fields);
        buf.resize(base + width + fields * 8, 0);
        StructWriter { base, width }
    }

    /// Writes field `index`.
    #[inline]
    pub fn field<F: RowValue>(&self, buf: &mut Vec<u8>, index: usize, value: &F) -> Result<()> {
        write_cell(
            buf,
            self.base,
            self.base,
            index,
            self.base + self.width + index * 8,
            value,
        )
    }
}

/// Writes one field or element of the container at `base` (bitmap at `bitmap`): a null bit,
/// a value in its slot at `at`, or a value appended to `buf`, padded to 8 bytes, whose
/// offset from `base` and size go in the slot.
#[inline(always)]
pub(crate) fn write_cell<F: RowValue>(
    buf: &mut Vec<u8>,
    base: usize,
    bitmap: usize,
    index: usize,
    at: usize,
    value: &F,
) -> Result<()> {
    if value.is_null() {
        if let Some(b) = buf.get_mut(bitmap + index / 8) {
            *b |= 1 << (index % 8);
        }
        return Ok(());
    }
    if !F::VARIABLE {
        return match buf.get_mut(at..at + F::WIDTH) {
            Some(out) => value.write_fixed(out),
            None => Ok(()),
        };
    }
    let start = buf.len();
    value.write_variable(buf)?;
    let size = buf.len() - start;
    buf.resize(start + round8(size), 0);
    let (Ok(offset), Ok(size)) = (u32::try_from(start - base), u32::try_from(size)) else {
        return Err(Error::new(ErrorKind::LengthTooLarge {
            what: "row offset or size",
            declared: (buf.len() - base) as u64,
            limit: u32::MAX as u64,
        }));
    };
    let slot = (u64::from(offset) << 32) | u64::from(size);
    if let Some(out) = buf.get_mut(at..at + 8) {
        out.copy_from_slice(&slot.to_le_bytes());
    }
    Ok(())
}
