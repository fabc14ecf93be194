//! Arrays and maps in a row: [`RowArray`], [`RowMap`] and their writers.

#![allow(unsafe_code)] // `view` trusts validated bytes; every block says why it is sound

use std::fmt;
use std::marker::PhantomData;

use super::layout::{bit, bitmap_width, pointed, round8, slice, word};
use super::structs::write_cell;
use super::RowValue;
use crate::error::Result;

/// A validated array in a row: an element count, a null bitmap and the elements at their
/// natural width (1, 2, 4 or 8 bytes; 8 for an offset and size). [`get`](Self::get) is
/// O(1) and reads nothing else; elements decode from little-endian on access, so no
/// alignment is assumed.
///
/// ```
/// use fury::row::FuryRow;
///
/// #[derive(FuryRow)]
/// struct Series {
///     values: Vec<i32>,
///     names: Vec<Option<String>>,
/// }
///
/// let bytes = Series { values: (0..100_000).collect(), names: vec![None, Some("b".into())] }
///     .to_row();
/// let view = Series::view_row(&bytes)?;
/// assert_eq!(view.values().len(), 100_000);
/// assert_eq!(view.values().get(90_000), Some(90_000));
/// assert_eq!(view.values().get(100_000), None);
/// assert_eq!(view.names().iter().collect::<Vec<_>>(), [None, Some("b")]);
/// # Ok::<(), fury::Error>(())
/// ```
pub struct RowArray<'a, T> {
    bytes: &'a [u8],
    len: usize,
    header: usize,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for RowArray<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for RowArray<'_, T> {}

impl<'a, T: RowValue> RowArray<'a, T> {
    /// # Safety
    ///
    /// `bytes` passed `Check::array::<T>`.
    #[inline(always)]
    pub(crate) unsafe fn new_unchecked(bytes: &'a [u8]) -> Self {
        // The count was checked to be at most the length.
        let len = (word(bytes, 0) as usize).min(bytes.len());
        RowArray {
            bytes,
            len,
            header: 8 + bitmap_width(len),
            _t: PhantomData,
        }
    }

    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether element `index`'s null bit is set (false past the end).
    #[inline(always)]
    pub fn is_null(&self, index: usize) -> bool {
        index < self.len && bit(self.bytes, 8, index)
    }

    /// Element `index`, or `None` past the end.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<T::View<'a>> {
        if index >= self.len {
            return None;
        }
        let at = self.header + index * T::WIDTH;
        let cell = if T::VARIABLE {
            pointed(self.bytes, at)
        } else {
            slice(self.bytes, at, T::WIDTH)
        };
        // SAFETY: the array was checked as an array of `T` (`new_unchecked`), every element.
        Some(unsafe { T::view(bit(self.bytes, 8, index), cell) })
    }

    /// Element `index` without the bounds check: past the end it is the view of empty bytes
    /// (for a fixed array whose count was checked, never the case).
    #[inline(always)]
    pub(crate) fn at(&self, index: usize) -> T::View<'a> {
        let at = self.header.saturating_add(index.saturating_mul(T::WIDTH));
        let cell = if T::VARIABLE {
            pointed(self.bytes, at)
        } else {
            slice(self.bytes, at, T::WIDTH)
        };
        // SAFETY: the array was checked as an array of `T`; past its end the cell is empty,
        // which every view reads without panicking.
        unsafe { T::view(index < self.len && bit(self.bytes, 8, index), cell) }
    }

    /// The elements, in order.
    #[inline]
    pub fn iter(&self) -> RowArrayIter<'a, T> {
        RowArrayIter {
            array: *self,
            next: 0,
        }
    }

    /// The elements as owned values.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().map(T::from_view).collect()
    }

    /// The array's bytes (count, bitmap, elements, values out of line).
    #[inline(always)]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<'a, T: RowValue> IntoIterator for RowArray<'a, T> {
    type Item = T::View<'a>;
    type IntoIter = RowArrayIter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: RowValue> fmt::Debug for RowArray<'a, T>
where
    T::View<'a>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The iterator of [`RowArray::iter`].
pub struct RowArrayIter<'a, T> {
    array: RowArray<'a, T>,
    next: usize,
}

impl<'a, T: RowValue> Iterator for RowArrayIter<'a, T> {
    type Item = T::View<'a>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let item = self.array.get(self.next)?;
        self.next += 1;
        Some(item)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.array.len - self.next.min(self.array.len);
        (n, Some(n))
    }
}

impl<T: RowValue> ExactSizeIterator for RowArrayIter<'_, T> {}

/// A validated map in a row: a key array and a value array of the same length, the
/// `i`-th key going with the `i`-th value (in the writer's iteration order; no lookup
/// structure).
///
/// ```
/// use fury::row::FuryRow;
/// use std::collections::BTreeMap;
///
/// #[derive(FuryRow)]
/// struct Stock {
///     counts: BTreeMap<String, i32>,
/// }
///
/// let bytes = Stock { counts: BTreeMap::from([("a".into(), 1), ("b".into(), 2)]) }.to_row();
/// let counts = Stock::view_row(&bytes)?.counts();
/// assert_eq!(counts.len(), 2);
/// assert_eq!(counts.get(1), Some(("b", 2)));
/// assert_eq!(counts.keys().iter().collect::<Vec<_>>(), ["a", "b"]);
/// # Ok::<(), fury::Error>(())
/// ```
pub struct RowMap<'a, K, V> {
    keys: RowArray<'a, K>,
    values: RowArray<'a, V>,
}

impl<K, V> Clone for RowMap<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K, V> Copy for RowMap<'_, K, V> {}

impl<'a, K: RowValue, V: RowValue> RowMap<'a, K, V> {
    /// # Safety
    ///
    /// `bytes` passed `Check::map::<K, V>`.
    #[inline(always)]
    pub(crate) unsafe fn new_unchecked(bytes: &'a [u8]) -> Self {
        let split = (word(bytes, 0) as usize).saturating_add(8).min(bytes.len());
        let (keys, values) = bytes.split_at(split);
        // SAFETY: the map's check checked both arrays.
        unsafe {
            RowMap {
                keys: RowArray::new_unchecked(keys.get(8..).unwrap_or(&[])),
                values: RowArray::new_unchecked(values),
            }
        }
    }

    /// The number of entries.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.keys.len().min(self.values.len())
    }

    /// Whether there are no entries.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index`, or `None` past the end.
    #[inline]
    pub fn get(&self, index: usize) -> Option<(K::View<'a>, V::View<'a>)> {
        Some((self.keys.get(index)?, self.values.get(index)?))
    }

    /// The key array.
    #[inline(always)]
    pub fn keys(&self) -> RowArray<'a, K> {
        self.keys
    }

    /// The value array.
    #[inline(always)]
    pub fn values(&self) -> RowArray<'a, V> {
        self.values
    }

    /// The entries, in order.
    pub fn iter(&self) -> std::iter::Zip<RowArrayIter<'a, K>, RowArrayIter<'a, V>> {
        self.keys.iter().zip(self.values.iter())
    }
}

impl<'a, K: RowValue, V: RowValue> fmt::Debug for RowMap<'a, K, V>
where
    K::View<'a>: fmt::Debug,
    V::View<'a>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Appends an array of `items` to `buf`: count, zero bitmap and slots, then each element.
pub(crate) fn write_array<'v, T: RowValue + 'v>(
    buf: &mut Vec<u8>,
    items: impl ExactSizeIterator<Item = &'v T>,
) -> Result<()> {
    let base = buf.len();
    let n = items.len();
    let header = 8 + bitmap_width(n);
    buf.resize(base + header + round8(n * T::WIDTH), 0);
    if let Some(count) = buf.get_mut(base..base + 8) {
        count.copy_from_slice(&(n as u64).to_le_bytes());
    }
    for (i, item) in items.enumerate() {
        write_cell(buf, base, base + 8, i, base + header + i * T::WIDTH, item)?;
    }
    Ok(())
}

/// Appends a map to `buf`: the key array's size, the key array, the value array.
pub(crate) fn write_map<'v, K: RowValue + 'v, V: RowValue + 'v>(
    buf: &mut Vec<u8>,
    keys: impl ExactSizeIterator<Item = &'v K>,
    values: impl ExactSizeIterator<Item = &'v V>,
) -> Result<()> {
    let base = buf.len();
    buf.resize(base + 8, 0);
    write_array(buf, keys)?;
    let size = (buf.len() - base - 8) as u64;
    if let Some(out) = buf.get_mut(base..base + 8) {
        out.copy_from_slice(&size.to_le_bytes());
    }
    write_array(buf, values)
}
