//! Sizes and slot words of the standard row layout, and reads that cannot panic.

/// Bytes of a null bitmap for `n` fields or elements: whole 64-bit words.
#[inline(always)]
pub(crate) const fn bitmap_width(n: usize) -> usize {
    n.div_ceil(64) * 8
}

/// `n` rounded up to a multiple of 8.
#[inline(always)]
pub(crate) const fn round8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

/// Whether bit `i` of the bitmap starting at `bytes[at]` is set (false past the end).
#[inline(always)]
pub(crate) fn bit(bytes: &[u8], at: usize, i: usize) -> bool {
    match bytes.get(at + i / 8) {
        Some(b) => b >> (i % 8) & 1 != 0,
        None => false,
    }
}

/// The little-endian u64 at `at` (0 past the end).
#[inline(always)]
pub(crate) fn word(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        Some(w) => u64::from_le_bytes(*w),
        None => 0,
    }
}

/// `len` bytes at `at` (empty past the end).
#[inline(always)]
pub(crate) fn slice(bytes: &[u8], at: usize, len: usize) -> &[u8] {
    match at.checked_add(len) {
        Some(end) => bytes.get(at..end).unwrap_or(&[]),
        None => &[],
    }
}

/// The bytes an offset-and-size slot at `at` points at (empty if they are not all there).
#[inline(always)]
pub(crate) fn pointed(bytes: &[u8], at: usize) -> &[u8] {
    let w = word(bytes, at);
    slice(bytes, (w >> 32) as usize, w as u32 as usize)
}
