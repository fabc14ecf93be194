//! The Fory *row format*: random access to the fields of a record without decoding it.
//!
//! A row is a null bitmap (one bit per field, `((n + 63) / 64) * 8` bytes), one 8-byte
//! little-endian slot per field and a variable-length region. A fixed-width field (bool,
//! integers, floats, date, timestamp, duration) lives in its slot; a string, binary, list,
//! map or nested struct lives in the variable region and its slot holds
//! `(offset << 32) | size`, the offset counted from the start of the row. Lists are arrays
//! (an element count, their own bitmap, elements at their natural width), maps a key array
//! and a value array. The layout is the public row format of Apache Fory (standard format),
//! byte for byte what pyfory's `pyfory.format` and the official `fory` crate write; the
//! repository's `spec/11-row-format.md` draws it.
//!
//! `#[derive(FuryRow)]` on a struct with named fields gives [`to_row`](FuryRow::to_row),
//! [`from_row`](FuryRow::from_row) and a view type `FooRow<'a>` with one accessor per field.
//! Bytes from outside are validated once, by [`view_row`](FuryRow::view_row) (rkyv's
//! checked access); the view's accessors then cannot fail or panic, and each is O(1): a
//! string accessor returns `&'a str`, binary `&'a [u8]`, a list a [`RowArray`], a map a
//! [`RowMap`], a nested struct its own view.
//!
//! ```
//! use fury::row::FuryRow;
//!
//! #[derive(FuryRow, Debug, PartialEq)]
//! struct Point {
//!     x: i32,
//!     label: Option<String>,
//!     path: Vec<i64>,
//! }
//!
//! let p = Point { x: 7, label: Some("start".into()), path: vec![1, 2, 3] };
//! let bytes = p.to_row();
//! assert_eq!(bytes.len(), 8 + 3 * 8 + 8 + 8 + 8 + 3 * 8); // bitmap, slots, "start", array
//!
//! let view = Point::view_row(&bytes)?; // validates every offset once
//! assert_eq!(view.x(), 7);
//! assert_eq!(view.label(), Some("start"));
//! assert_eq!(view.path().get(2), Some(3));
//! assert_eq!(Point::from_row(&bytes)?, p);
//! # Ok::<(), fury::Error>(())
//! ```
//!
//! Field order is the declaration order (the schema's order, as the spec and the official
//! crate have it); `#[fury_row(field_order = "name")]` sorts the fields by name instead,
//! which is the schema pyfory infers from a dataclass (see [`FuryRow`]).

#![allow(unsafe_code)] // `view` trusts validated bytes; every block says why it is sound

mod array;
mod check;
mod hash;
mod impls;
mod layout;
mod list;
mod structs;

pub use array::{RowArray, RowArrayIter, RowMap};
pub use check::Check;
pub use hash::hash_step;
pub use list::{RowElement, RowList};
pub use structs::{StructView, StructWriter};

pub use fury_derive::FuryRow;

use crate::error::{Error, ErrorKind, Result};

/// How one type is laid out in a row: the hidden trait behind [`FuryRow`], implemented for
/// the field types (`bool`, `i8`..`i64`, `u8`..`u32` widened, `f32`, `f64`, `String`,
/// `Vec<u8>` and `[u8; N]` as binary, [`Date`](crate::Date), [`Timestamp`](crate::Timestamp)
/// and `SystemTime`, [`Duration`](crate::Duration) and `std::time::Duration`, `Option<T>`,
/// `Box<T>`, `Vec<T>`, `[T; N]` and tuples of one type as arrays, `BTreeMap` and `HashMap`)
/// and by the derive for structs.
///
/// # Safety
///
/// [`view`](RowValue::view) may rely on its bytes having passed [`check`](RowValue::check)
/// (a string view skips the UTF-8 check), so an implementation's `check` must accept only
/// bytes its `view` reads correctly, and `view` must not panic on any bytes. The derive
/// upholds this by checking and viewing each field with the same field type.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no row layout",
    note = "row fields are bool, i8..i64, u8..u32 (widened to int16..int64), f32, f64, String, \
            Vec<u8>, Date, Timestamp, SystemTime, Duration, Option, Box, Vec, [T; N], tuples of \
            one element type, BTreeMap, HashMap and #[derive(FuryRow)] structs",
    note = "u64, usize and i128 have none (no row type holds them): use i64; a tuple of mixed \
            types has none (pyfory takes only tuples of one type, as lists): use a \
            #[derive(FuryRow)] struct"
)]
pub unsafe trait RowValue {
    /// Width as an array element: 1, 2, 4 or 8; 8 for a value stored out of line.
    const WIDTH: usize;
    /// Stored in the variable region (offset and size in the slot).
    const VARIABLE: bool;
    /// A set null bit is a valid value (`Option`).
    const NULLABLE: bool = false;
    /// Every fixed-width value must be looked at by `check` (bool: 0 or 1).
    const CHECKS_FIXED: bool = false;
    /// What an accessor returns.
    type View<'a>: Copy;

    /// Folds this type into pyfory's schema hash (its type id, then its children's).
    fn hash_into(h: u64) -> u64;
    /// Whether this value is written as a null bit.
    #[inline(always)]
    fn is_null(&self) -> bool {
        false
    }
    /// Writes a fixed-width value into its `WIDTH` bytes (fixed-width types only).
    #[inline(always)]
    fn write_fixed(&self, _out: &mut [u8]) -> Result<()> {
        Ok(())
    }
    /// Appends a variable-width value at the end of `buf` (variable-width types only); the
    /// container records its offset and size and pads it.
    #[inline(always)]
    fn write_variable(&self, _buf: &mut Vec<u8>) -> Result<()> {
        Ok(())
    }
    /// Validates a non-null value: its `WIDTH` bytes, or the bytes its slot points at.
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()>;
    /// The view of a value whose null bit is `null`.
    ///
    /// # Safety
    ///
    /// `bytes` passed [`check`](RowValue::check) (or `null` is set and the type is nullable).
    unsafe fn view(null: bool, bytes: &[u8]) -> Self::View<'_>;
    /// The owned value of a view.
    fn from_view(view: Self::View<'_>) -> Self;
}

/// A struct with a row layout: `#[derive(FuryRow)]` implements it (see the
/// [module docs](crate::row)). The provided methods encode, validate and decode.
///
/// # The derive
///
/// For `struct Foo` the derive generates `FooRow<'a>`, a `Copy` view with one method per
/// field, named after it, returning the field's view: the value itself for `bool`,
/// integers, floats, [`Date`](crate::Date), [`Timestamp`](crate::Timestamp),
/// [`Duration`](crate::Duration), `SystemTime` and `std::time::Duration`; `&'a str` for
/// `String`; `&'a [u8]` for `Vec<u8>` and `[u8; N]`; [`RowArray`] for `Vec<T>`, `[T; N]`
/// and tuples of one type `(T, T, ..)`; [`RowMap`] for `BTreeMap` and `HashMap`; the
/// nested struct's view for a struct; `Option` of those for `Option<T>` (a null bit). A
/// non-`Option` field whose null bit is set fails validation, and so does a fixed array or
/// tuple with another number of elements.
///
/// The row format has no unsigned integers (nor do pyfory and the official crate have a
/// layout for them), so `u8`, `u16` and `u32` are stored as `int16`, `int32` and `int64`,
/// which hold all their values: a peer reads the same number, and validation refuses one
/// out of range. `u64`, `usize`, `u128` and `i128` have no row type that holds them and are
/// compile errors (use `i64`); so is a tuple of mixed types (use a struct).
///
/// Attributes: `#[fury_row(field_order = "declaration")]` (the default: the schema is the
/// fields as declared, the order of the official Rust crate) or `"name"` (sorted by field
/// name, as pyfory infers a dataclass's schema). `#[fury_row(view = "Name")]` names the view.
///
/// Timestamps and durations are stored in microseconds (finer parts are dropped, rounding
/// toward negative infinity) and dates as 32-bit day counts; a row holds at most 4 GiB.
/// With the feature `chrono`, `chrono::DateTime<Utc>` and `NaiveDateTime` are timestamps,
/// `NaiveDate` a date32 and `chrono::Duration` a duration too.
///
/// ```
/// use fury::row::FuryRow;
///
/// #[derive(FuryRow, Debug, PartialEq)]
/// struct Reading {
///     sensor: u16,                   // int32
///     at: std::time::SystemTime,     // timestamp
///     pos: (f64, f64),               // list<float64> of 2
///     digest: [u8; 4],               // binary of 4 bytes
/// }
///
/// let r = Reading {
///     sensor: 65535,
///     at: std::time::UNIX_EPOCH,
///     pos: (1.5, -2.0),
///     digest: *b"abcd",
/// };
/// let bytes = r.to_row();
/// let view = Reading::view_row(&bytes)?;
/// assert_eq!(view.sensor(), 65535);
/// assert_eq!(view.pos().get(1), Some(-2.0));
/// assert_eq!(view.digest(), b"abcd");
/// assert_eq!(Reading::from_row(&bytes)?, r);
/// # Ok::<(), fury::Error>(())
/// ```
///
/// ```
/// use fury::row::FuryRow;
/// use std::collections::BTreeMap;
///
/// #[derive(FuryRow)]
/// #[fury_row(field_order = "name")] // pyfory's schema for the same dataclass
/// struct Order {
///     id: i64,
///     items: BTreeMap<String, i64>,
///     customer: Customer,
/// }
///
/// #[derive(FuryRow)]
/// struct Customer {
///     name: String,
///     email: Option<String>,
/// }
///
/// let order = Order {
///     id: 42,
///     items: BTreeMap::from([("apple".to_string(), 3)]),
///     customer: Customer { name: "Ada".into(), email: None },
/// };
/// let bytes = order.to_row();
/// let view = Order::view_row(&bytes)?;
/// assert_eq!(view.customer().name(), "Ada");
/// assert_eq!(view.customer().email(), None);
/// assert_eq!(view.items().get(0), Some(("apple", 3)));
/// // pyfory's `Encoder.encode`: the 8-byte schema hash, then the row.
/// let framed = order.to_row_with_hash();
/// assert_eq!(&framed[8..], &bytes[..]);
/// assert_eq!(Order::view_row_with_hash(&framed)?.id(), 42);
/// # Ok::<(), fury::Error>(())
/// ```
pub trait FuryRow: RowValue + Sized {
    /// Folds the fields into pyfory's schema hash (generated).
    #[doc(hidden)]
    fn hash_fields(h: u64) -> u64;

    /// The row of this value.
    ///
    /// # Panics
    ///
    /// If an offset or size passes 4 GiB, a date leaves the 32-bit day range or a
    /// timestamp or duration the 64-bit microsecond range; [`try_to_row`](Self::try_to_row)
    /// returns those as errors.
    fn to_row(&self) -> Vec<u8> {
        match self.try_to_row() {
            Ok(row) => row,
            Err(e) => panic!("to_row: {e}"),
        }
    }

    /// The row of this value, or why it has none (see [`to_row`](Self::to_row)).
    fn try_to_row(&self) -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        self.write_row(&mut buf)?;
        Ok(buf)
    }

    /// Appends the row of this value to `buf` (offsets are relative to where it starts).
    fn write_row(&self, buf: &mut Vec<u8>) -> Result<()> {
        let start = buf.len();
        let result = self.write_variable(buf);
        if result.is_err() {
            buf.truncate(start);
        }
        result
    }

    /// Validates `bytes` as a row of this type, in one pass: every slot, offset and size in
    /// range, bitmaps sized, no null where the field is not an `Option`, strings UTF-8,
    /// nested rows recursively up to [`DEFAULT_MAX_DEPTH`](crate::Config::DEFAULT_MAX_DEPTH) levels,
    /// the values out of line of each container in slot order without overlapping (as every
    /// writer appends them; so the pass is linear). The view's accessors then cannot fail.
    fn view_row(bytes: &[u8]) -> Result<Self::View<'_>> {
        Check::root::<Self>(bytes, crate::Config::DEFAULT_MAX_DEPTH)?;
        // SAFETY: `bytes` passed `check` just above.
        Ok(unsafe { Self::view(false, bytes) })
    }

    /// The view of `bytes` without validation (rkyv's unchecked access).
    ///
    /// # Safety
    ///
    /// `bytes` must be a row that [`view_row`](Self::view_row) accepts, e.g. one written by
    /// [`to_row`](Self::to_row) for this type. The accessors never read out of bounds even
    /// otherwise, but a string accessor would return a `&str` that is not UTF-8.
    unsafe fn view_row_unchecked(bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: the caller promises `bytes` passes `check`.
        unsafe { Self::view(false, bytes) }
    }

    /// Validates `bytes` and decodes the owned value.
    fn from_row(bytes: &[u8]) -> Result<Self> {
        Self::view_row(bytes).map(Self::from_view)
    }

    /// pyfory's schema hash of this type (`pyfory.format.infer.compute_schema_hash`): the
    /// 8 bytes `Encoder.encode` writes before the row.
    fn schema_hash() -> u64 {
        Self::hash_fields(17)
    }

    /// pyfory's `Encoder.encode`: the schema hash (little-endian), then the row.
    fn to_row_with_hash(&self) -> Vec<u8> {
        let mut buf = Self::schema_hash().to_le_bytes().to_vec();
        let mut row = self.to_row();
        buf.append(&mut row);
        buf
    }

    /// Checks the 8-byte schema hash `to_row_with_hash` wrote, then validates the row after it.
    fn view_row_with_hash(bytes: &[u8]) -> Result<Self::View<'_>> {
        let (hash, row) = match bytes.split_first_chunk::<8>() {
            Some((h, row)) => (u64::from_le_bytes(*h), row),
            None => {
                return Err(Error::at(
                    ErrorKind::UnexpectedEof {
                        needed: 8,
                        remaining: bytes.len(),
                    },
                    0,
                ))
            }
        };
        if hash != Self::schema_hash() {
            return Err(Error::at(
                ErrorKind::TypeMismatch {
                    expected: format!("a row of schema hash {}", Self::schema_hash()),
                    found: format!("schema hash {hash}"),
                },
                0,
            ));
        }
        Check::root::<Self>(row, crate::Config::DEFAULT_MAX_DEPTH).map_err(|e| e.shifted(8))?;
        // SAFETY: `row` passed `check` just above.
        Ok(unsafe { Self::view(false, row) })
    }

    /// [`view_row_with_hash`](Self::view_row_with_hash), then the owned value.
    fn from_row_with_hash(bytes: &[u8]) -> Result<Self> {
        Self::view_row_with_hash(bytes).map(Self::from_view)
    }
}
