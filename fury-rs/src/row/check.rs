//! Validation of a row from untrusted bytes: one pass, before any view is handed out.
//!
//! Every container checks its fixed region (bitmap and slots, or count, bitmap and
//! elements) is inside its bytes, and that the out-of-line values it points at lie in its
//! variable region, in slot order, without overlapping. The last rule holds for every writer
//! (each appends the values as it sets the fields, in order) and bounds the work: no byte is
//! validated twice at one nesting level, and the levels are bounded by the depth limit.

use super::layout::{bit, bitmap_width, round8, word};
use super::RowValue;
use crate::error::{Error, ErrorKind, Result};

/// Validation state (hidden: used by generated code): nesting depth and where the current
/// container starts in the input, for error offsets.
#[doc(hidden)]
pub struct Check {
    depth: u32,
    max_depth: u32,
    base: usize,
}

#[cold]
pub(crate) fn bad(at: usize, what: String) -> Error {
    Error::at(
        ErrorKind::BadRow {
            field: String::new(),
            what,
        },
        at,
    )
}

impl Check {
    /// Validates `bytes` as a whole row of `T`.
    pub(crate) fn root<T: RowValue>(bytes: &[u8], max_depth: u32) -> Result<()> {
        let mut cx = Check {
            depth: 0,
            max_depth,
            base: 0,
        };
        T::check(bytes, &mut cx)
    }

    /// An error at `at` bytes into the current container.
    #[cold]
    pub fn error(&self, at: usize, what: String) -> Error {
        bad(self.base.saturating_add(at), what)
    }

    fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(Error::at(
                ErrorKind::DepthLimit {
                    limit: self.max_depth,
                },
                self.base,
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Starts a struct of `fields` fields over `bytes`: its bitmap and slots must be there.
    pub fn begin_struct<'a>(&mut self, bytes: &'a [u8], fields: usize) -> Result<Fields<'a>> {
        self.enter()?;
        let width = bitmap_width(fields);
        let fixed = width + fields * 8;
        if bytes.len() < fixed {
            return Err(self.error(
                0,
                format!(
                    "a struct of {fields} fields needs {fixed} bytes of bitmap and slots, it has {}",
                    bytes.len()
                ),
            ));
        }
        Ok(Fields {
            bytes,
            width,
            cursor: fixed,
        })
    }

    /// Ends the struct `begin_struct` started.
    pub fn end_struct(&mut self) {
        self.depth -= 1;
    }

    /// Checks cell `index` of a container: a null bit only where `F` is nullable, then the
    /// value (in its `F::WIDTH` bytes at `at`, or out of line through the slot at `at`).
    #[inline(always)]
    fn cell<F: RowValue>(
        &mut self,
        bytes: &[u8],
        null: bool,
        at: usize,
        cursor: &mut usize,
    ) -> Result<()> {
        if null {
            if F::NULLABLE {
                return Ok(());
            }
            return Err(self.error(at, "null, but the type is not an Option".into()));
        }
        if !F::VARIABLE {
            let Some(b) = bytes.get(at..at + F::WIDTH) else {
                return Err(self.error(at, "slot past the end".into()));
            };
            // The value's errors point at its slot.
            let base = self.base;
            self.base += at;
            let result = F::check(b, self);
            self.base = base;
            return result;
        }
        let w = word(bytes, at);
        let (offset, size) = ((w >> 32) as usize, w as u32 as usize);
        if offset < *cursor || offset.checked_add(size).is_none_or(|end| end > bytes.len()) {
            return Err(self.error(
                at,
                format!(
                    "offset {offset} and size {size}: expected a value within {}..{} (after \
                     the fixed region and the values before it)",
                    *cursor,
                    bytes.len()
                ),
            ));
        }
        *cursor = offset + size;
        let base = self.base;
        self.base += offset;
        let result = F::check(&bytes[offset..offset + size], self);
        self.base = base;
        result
    }

    /// Validates an array of `T` over `bytes`: count, bitmap, elements, values out of line.
    pub(crate) fn array<T: RowValue>(&mut self, bytes: &[u8]) -> Result<()> {
        self.enter()?;
        let result = self.array_body::<T>(bytes);
        self.depth -= 1;
        result
    }

    fn array_body<T: RowValue>(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(count) = bytes.first_chunk::<8>().map(|c| u64::from_le_bytes(*c)) else {
            return Err(self.error(
                0,
                format!(
                    "an array needs an 8-byte count, it has {} bytes",
                    bytes.len()
                ),
            ));
        };
        // Every element takes at least one byte, so a count past the length is wrong (and
        // the sizes below cannot overflow).
        if count > bytes.len() as u64 {
            return Err(self.error(0, format!("array count {count} in {} bytes", bytes.len())));
        }
        let n = count as usize;
        let header = 8 + bitmap_width(n);
        let fixed_end = header + round8(n * T::WIDTH);
        if fixed_end > bytes.len() {
            return Err(self.error(
                0,
                format!(
                    "an array of {n} elements of {} bytes needs {fixed_end} bytes, it has {}",
                    T::WIDTH,
                    bytes.len()
                ),
            ));
        }
        if !T::VARIABLE && !T::CHECKS_FIXED {
            // Only the bitmap can be wrong: no null may be set unless nullable.
            if T::NULLABLE {
                return Ok(());
            }
            return match first_set(bytes, n) {
                Some(i) => Err(self
                    .error(8 + i / 8, "null, but the type is not an Option".into())
                    .in_row_field(&format!("[{i}]"))),
                None => Ok(()),
            };
        }
        let mut cursor = fixed_end;
        for i in 0..n {
            let null = bit(bytes, 8, i);
            self.cell::<T>(bytes, null, header + i * T::WIDTH, &mut cursor)
                .map_err(|e| e.in_row_field(&format!("[{i}]")))?;
        }
        Ok(())
    }

    /// Validates a map: the key array's size, then the key and value arrays, of one count.
    pub(crate) fn map<K: RowValue, V: RowValue>(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(size) = bytes.first_chunk::<8>().map(|c| u64::from_le_bytes(*c)) else {
            return Err(self.error(
                0,
                format!(
                    "a map needs an 8-byte key array size, it has {} bytes",
                    bytes.len()
                ),
            ));
        };
        let rest = bytes.len() - 8;
        if size > rest as u64 {
            return Err(self.error(0, format!("key array size {size}, but {rest} bytes follow")));
        }
        let split = 8 + size as usize;
        let (keys, values) = (&bytes[8..split], &bytes[split..]);
        let base = self.base;
        self.base = base + 8;
        let r = self.array::<K>(keys).map_err(|e| e.in_row_field("keys"));
        self.base = base + split;
        let r = r.and_then(|_| {
            self.array::<V>(values)
                .map_err(|e| e.in_row_field("values"))
        });
        self.base = base;
        r?;
        let (nk, nv) = (word(keys, 0), word(values, 0));
        if nk != nv {
            return Err(self.error(0, format!("{nk} keys but {nv} values")));
        }
        Ok(())
    }
}

/// The first of the `n` null bits of an array (at byte 8) that is set, a word at a time.
fn first_set(bytes: &[u8], n: usize) -> Option<usize> {
    let map = bytes.get(8..8 + bitmap_width(n))?;
    for (w, chunk) in map.chunks_exact(8).enumerate() {
        let mut bits = chunk
            .first_chunk::<8>()
            .map_or(0, |c| u64::from_le_bytes(*c));
        if (w + 1) * 64 > n {
            bits &= (1u64 << (n % 64)) - 1; // the last word: bits past the count are unused
        }
        if bits != 0 {
            return Some(w * 64 + bits.trailing_zeros() as usize);
        }
    }
    None
}

/// The fields of a struct being validated (hidden: used by generated code).
#[doc(hidden)]
pub struct Fields<'a> {
    bytes: &'a [u8],
    width: usize,
    cursor: usize,
}

impl Fields<'_> {
    /// Checks field `index`, named `name` in errors, as an `F`.
    #[inline(always)]
    pub fn field<F: RowValue>(&mut self, cx: &mut Check, index: usize, name: &str) -> Result<()> {
        let null = bit(self.bytes, 0, index);
        if !F::VARIABLE && !F::CHECKS_FIXED && (F::NULLABLE || !null) {
            return Ok(()); // the slot is inside the fixed region `begin_struct` checked
        }
        self.slow::<F>(cx, null, index, name)
    }

    #[inline(never)]
    fn slow<F: RowValue>(
        &mut self,
        cx: &mut Check,
        null: bool,
        index: usize,
        name: &str,
    ) -> Result<()> {
        cx.cell::<F>(self.bytes, null, self.width + index * 8, &mut self.cursor)
            .map_err(|e| e.in_row_field(name))
    }
}
