//! Owned strings from checked bytes. This file holds `unsafe` code; every block says why it
//! is sound.

#![allow(unsafe_code)]

/// Whether every byte is below 0x80. Runs of up to 16 bytes are tested as two overlapping
/// words, runs of up to 64 as whole words and an overlapping last word.
///
/// (Example: `doc_examples::is_ascii_tells_ascii_from_other_bytes` in the crate's unit tests.)
#[inline]
pub fn is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |c: &[u8; 8]| u64::from_ne_bytes(*c);
    let n = b.len();
    match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(a), Some(z)) if n <= 16 => (word(a) | word(z)) & HIGH == 0,
        (Some(_), Some(z)) if n <= 64 => {
            let mut all = word(z);
            for c in b.chunks_exact(8) {
                all |= c.first_chunk::<8>().map_or(0, word);
            }
            all & HIGH == 0
        }
        _ => match (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            (Some(a), Some(z)) if n < 8 => {
                (u32::from_ne_bytes(*a) | u32::from_ne_bytes(*z)) & HIGH as u32 == 0
            }
            _ => b.is_ascii(),
        },
    }
}

/// A copy of `b` in a new vector of exactly its length, with whether it is all ASCII. Runs
/// of 4 to 64 bytes are copied as words and tested from the same words (no call to `memcpy`,
/// no second pass); other runs are tested after the copy.
#[inline(always)]
fn copy_to_vec(b: &[u8]) -> (Vec<u8>, bool) {
    let mut v = Vec::with_capacity(b.len());
    // SAFETY: the vector's capacity is at least `b.len()`, so `copy_run` may write that many
    // bytes at its start; a fresh allocation does not overlap `b`. Those bytes are then
    // initialised, so the length may be set to `b.len()`.
    let words = unsafe { super::writer::copy_run(b, v.as_mut_ptr()) };
    unsafe { v.set_len(b.len()) };
    let ascii = match words {
        Some(w) => w & 0x8080_8080_8080_8080 == 0,
        // The source, not the copy just stored (see `utf8_to_string`).
        None => is_ascii(b),
    };
    (v, ascii)
}

/// A copy of `b` as a `String` when `b` is valid UTF-8 (checked once; ASCII quickly).
///
/// (Example: `doc_examples::utf8_to_string_copies_only_utf8` in the crate's unit tests.)
#[inline]
pub fn utf8_to_string(b: &[u8]) -> Option<String> {
    let (v, ascii) = copy_to_vec(b);
    // `is_utf8` gives the verdict of `std::str::from_utf8` (tested on every sequence of byte
    // classes and on random input in `utf8.rs`). It reads the source, not the copy just
    // stored in words: wide loads of freshly stored narrow words wait for the stores.
    if ascii || super::utf8::is_utf8(b) {
        // SAFETY: `v` holds the bytes of `b`: ASCII, or valid UTF-8 by the check above.
        Some(unsafe { String::from_utf8_unchecked(v) })
    } else {
        None
    }
}

/// A copy of `b` as a `String` when `b` is ASCII; `None` otherwise.
///
/// (Example: `doc_examples::ascii_to_string_copies_only_ascii` in the crate's unit tests.)
#[inline]
pub fn ascii_to_string(b: &[u8]) -> Option<String> {
    let (v, ascii) = copy_to_vec(b);
    // SAFETY: every byte is below 0x80, and ASCII is valid UTF-8.
    ascii.then(|| unsafe { String::from_utf8_unchecked(v) })
}

/// `b` as a `&str` in place when it is valid UTF-8 (checked once; ASCII quickly), for
/// strings borrowed from the input.
#[inline(always)]
pub fn utf8_str(b: &[u8]) -> Option<&str> {
    if is_ascii(b) || super::utf8::is_utf8(b) {
        // SAFETY: `b` is ASCII or valid UTF-8 by the check above (`is_utf8` gives the verdict
        // of `std::str::from_utf8`).
        Some(unsafe { std::str::from_utf8_unchecked(b) })
    } else {
        None
    }
}

/// `b` as a `&str` in place when it is ASCII; `None` otherwise.
#[inline]
pub fn ascii_str(b: &[u8]) -> Option<&str> {
    // SAFETY: every byte is below 0x80, and ASCII is valid UTF-8.
    is_ascii(b).then(|| unsafe { std::str::from_utf8_unchecked(b) })
}

#[cfg(test)]
mod tests {
    use super::{ascii_to_string, utf8_to_string};

    #[test]
    fn strings_of_every_length_with_a_high_byte_at_every_place() {
        for n in 0..=150usize {
            let ascii: Vec<u8> = (0..n).map(|i| b'!' + (i % 90) as u8).collect();
            let text = String::from_utf8(ascii.clone()).unwrap();
            assert_eq!(utf8_to_string(&ascii).as_deref(), Some(text.as_str()));
            assert_eq!(ascii_to_string(&ascii).as_deref(), Some(text.as_str()));
            for at in 0..n.saturating_sub(1) {
                // A valid two-byte character: UTF-8 but not ASCII.
                let mut v = ascii.clone();
                v[at] = 0xc3;
                v[at + 1] = 0xa9;
                let want = String::from_utf8(v.clone()).unwrap();
                assert_eq!(utf8_to_string(&v).as_deref(), Some(want.as_str()), "n {n}");
                assert_eq!(ascii_to_string(&v), None, "n {n} at {at}");
                // A byte that never occurs in UTF-8.
                v[at + 1] = 0xff;
                assert_eq!(utf8_to_string(&v), None, "n {n} at {at}");
            }
        }
    }
}
