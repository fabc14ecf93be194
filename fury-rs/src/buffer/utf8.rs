//! UTF-8 validation, 16 bytes at a time where the CPU allows it. This file holds `unsafe`
//! code; every block says why it is sound.
//!
//! The vector path follows the "lookup" method of Keiser and Lemire (*Validating UTF-8 in less
//! than one instruction per byte*, 2021). Every error that two adjacent bytes can show is a
//! bit; three 16-entry tables, indexed by the high nibble of the previous byte, the low nibble
//! of the previous byte and the high nibble of the current byte, each name the errors their
//! nibble is compatible with, so the AND of the three lookups is non-zero exactly where the
//! pair is bad. One bit, "two continuation bytes in a row", is an error except as the third or
//! fourth byte of a long sequence; those positions are found from the bytes two and three
//! places back and flipped with an XOR.
//!
//! The verdict decides `from_utf8_unchecked` in [`super::text`], so the tests below compare it
//! with `std::str::from_utf8` on every sequence of four bytes drawn from all byte classes, at
//! every offset around a block boundary, and on random input.

#![allow(unsafe_code)]

/// Whether `b` is valid UTF-8 (the same verdict as `std::str::from_utf8(b).is_ok()`).
///
/// (Example: `doc_examples::is_utf8_checks_whole_sequences` in the crate's unit tests.)
#[inline]
pub fn is_utf8(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU supports SSSE3, checked just above.
            return unsafe { x86::is_utf8_ssse3(b) };
        }
    }
    std::str::from_utf8(b).is_ok()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, _mm_alignr_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x, _mm_setr_epi8,
        _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16, _mm_subs_epu8, _mm_xor_si128,
    };

    // One bit per error a pair (previous byte, current byte) can show.
    /// A lead byte followed by a byte that is not a continuation.
    const TOO_SHORT: u8 = 1 << 0;
    /// An ASCII byte followed by a continuation.
    const TOO_LONG: u8 = 1 << 1;
    /// E0 followed by 80..9F (a 3-byte form of a code point below U+0800).
    const OVERLONG_3: u8 = 1 << 2;
    /// F4 followed by 90..BF, or F5..FF followed by 90..BF (above U+10FFFF).
    const TOO_LARGE: u8 = 1 << 3;
    /// ED followed by A0..BF (UTF-16 surrogates).
    const SURROGATE: u8 = 1 << 4;
    /// C0 or C1 followed by a continuation (a 2-byte form of ASCII).
    const OVERLONG_2: u8 = 1 << 5;
    /// F5..FF followed by 80..8F (above U+10FFFF); shares its bit with `OVERLONG_4`.
    const TOO_LARGE_1000: u8 = 1 << 6;
    /// F0 followed by 80..8F (a 4-byte form of a code point below U+10000).
    const OVERLONG_4: u8 = 1 << 6;
    /// A continuation followed by a continuation: wrong unless it is the third or fourth
    /// byte of a sequence.
    const TWO_CONTS: u8 = 1 << 7;
    /// The bits the high nibble of the previous byte decides alone.
    const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

    /// Errors possible for each high nibble of the previous byte.
    const PREV_HIGH: [u8; 16] = [
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ];

    /// Errors possible for each low nibble of the previous byte.
    const PREV_LOW: [u8; 16] = [
        CARRY | OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ];

    /// Errors possible for each high nibble of the current byte.
    const CUR_HIGH: [u8; 16] = [
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ];

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn table(t: &[u8; 16]) -> __m128i {
        let b = t.map(|x| x as i8);
        _mm_setr_epi8(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        )
    }

    /// The lookup tables and masks, built once per call (they stay in registers).
    struct Tables {
        prev_high: __m128i,
        prev_low: __m128i,
        cur_high: __m128i,
        low_nibble: __m128i,
        third: __m128i,
        fourth: __m128i,
        top_bit: __m128i,
    }

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn tables() -> Tables {
        Tables {
            prev_high: table(&PREV_HIGH),
            prev_low: table(&PREV_LOW),
            cur_high: table(&CUR_HIGH),
            low_nibble: _mm_set1_epi8(0x0f),
            // A byte minus 0x60 (saturating) has its top bit set exactly when the byte is at
            // least 0xE0, the lead of a 3- or 4-byte sequence; minus 0x70, at least 0xF0.
            third: _mm_set1_epi8(0x60),
            fourth: _mm_set1_epi8(0x70),
            top_bit: _mm_set1_epi8(0x80u8 as i8),
        }
    }

    /// Each byte's high nibble, as a table index.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn high_nibbles(v: __m128i, low_nibble: __m128i) -> __m128i {
        _mm_and_si128(_mm_srli_epi16::<4>(v), low_nibble)
    }

    /// The error bits of the 16 bytes of `cur`, given the 16 bytes before them.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn block_errors(t: &Tables, prev: __m128i, cur: __m128i) -> __m128i {
        let prev1 = _mm_alignr_epi8::<15>(cur, prev);
        let prev2 = _mm_alignr_epi8::<14>(cur, prev);
        let prev3 = _mm_alignr_epi8::<13>(cur, prev);
        let pairs = _mm_and_si128(
            _mm_and_si128(
                _mm_shuffle_epi8(t.prev_high, high_nibbles(prev1, t.low_nibble)),
                _mm_shuffle_epi8(t.prev_low, _mm_and_si128(prev1, t.low_nibble)),
            ),
            _mm_shuffle_epi8(t.cur_high, high_nibbles(cur, t.low_nibble)),
        );
        let long_tail = _mm_and_si128(
            _mm_or_si128(
                _mm_subs_epu8(prev2, t.third),
                _mm_subs_epu8(prev3, t.fourth),
            ),
            t.top_bit,
        );
        _mm_xor_si128(pairs, long_tail)
    }

    /// The last `rest.len()` (< 16) bytes, zero-padded to a block; safe overlapping loads.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn tail(rest: &[u8]) -> __m128i {
        let n = rest.len();
        let word = |c: Option<&[u8; 8]>| c.map_or(0, |c| u64::from_le_bytes(*c));
        let half = |c: Option<&[u8; 4]>| c.map_or(0, |c| u32::from_le_bytes(*c) as u64);
        let (lo, hi): (u64, u64) = if n >= 8 {
            // Bytes 0..8, then bytes n-8..n moved to lanes n-8..n (the overlap agrees).
            let last = word(rest.last_chunk::<8>()) as u128;
            let v = (word(rest.first_chunk::<8>()) as u128) | (last << (8 * (n as u32 - 8)));
            (v as u64, (v >> 64) as u64)
        } else if n >= 4 {
            let last = half(rest.last_chunk::<4>());
            (
                half(rest.first_chunk::<4>()) | (last << (8 * (n as u32 - 4))),
                0,
            )
        } else {
            let mut v = 0u64;
            for (i, &x) in rest.iter().enumerate() {
                v |= (x as u64) << (8 * i);
            }
            (v, 0)
        };
        _mm_set_epi64x(hi as i64, lo as i64)
    }

    /// SSSE3 validation: every full block, then the zero-padded rest, which also catches a
    /// sequence cut by the end of the input (its zero padding is not a continuation).
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn is_utf8_ssse3(b: &[u8]) -> bool {
        let t = tables();
        let mut prev = _mm_setzero_si128();
        let mut errors = _mm_setzero_si128();
        let mut blocks = b.chunks_exact(16);
        for block in blocks.by_ref() {
            // SAFETY: `block` is 16 readable bytes; `loadu` has no alignment requirement.
            let cur = unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) };
            errors = _mm_or_si128(errors, block_errors(&t, prev, cur));
            prev = cur;
        }
        let cur = tail(blocks.remainder());
        errors = _mm_or_si128(errors, block_errors(&t, prev, cur));
        _mm_movemask_epi8(_mm_cmpeq_epi8(errors, _mm_setzero_si128())) == 0xffff
    }
}

#[cfg(test)]
mod tests {
    use super::is_utf8;

    fn agree(b: &[u8]) {
        assert_eq!(
            is_utf8(b),
            std::str::from_utf8(b).is_ok(),
            "verdicts differ on {b:02x?}"
        );
    }

    /// One byte of every class the validator or the standard library tells apart.
    const CLASSES: [u8; 30] = [
        0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xd5, 0xdf, 0xe0,
        0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xfb, 0xfe, 0xff,
    ];

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "exhaustive: the test command runs it optimised (cargo test --release -p fury --lib)"
    )]
    fn every_four_bytes_of_all_classes_at_every_offset_around_a_block_edge() {
        // Placed so that they straddle the first block edge, end on it, or sit in the tail.
        let lead = [b'a'; 20];
        for &a in &CLASSES {
            for &b in &CLASSES {
                for &c in &CLASSES {
                    for &d in &CLASSES {
                        let seq = [a, b, c, d];
                        for at in [0usize, 9, 12, 13, 14, 15, 16] {
                            let mut v = lead[..at].to_vec();
                            v.extend_from_slice(&seq);
                            agree(&v);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_pair_and_every_sequence_cut_at_the_end() {
        for a in 0..=255u8 {
            agree(&[a]);
            for b in 0..=255u8 {
                agree(&[a, b]);
                // Cut right at the end of a full block, and at the end of the tail.
                let mut v = vec![b'x'; 14];
                v.extend_from_slice(&[a, b]);
                agree(&v);
                v.insert(0, b'y');
                agree(&v);
            }
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "exhaustive: the test command runs it optimised (cargo test --release -p fury --lib)"
    )]
    fn every_three_byte_sequence() {
        let mut v = vec![b'.'; 14];
        v.extend_from_slice(&[0, 0, 0]);
        for a in 0x80..=0xffu8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    let s = [a, b, c];
                    let mine = is_utf8(&s);
                    assert_eq!(mine, std::str::from_utf8(&s).is_ok(), "{s:02x?}");
                    v[14..].copy_from_slice(&s);
                    assert_eq!(is_utf8(&v), mine, "{v:02x?}");
                }
            }
        }
    }

    #[test]
    fn random_text_with_random_damage() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = [
            "a",
            "é",
            "ж",
            "北",
            "京",
            "€",
            "😀",
            "\u{10ffff}",
            "\u{ffff}",
            "\u{7ff}",
        ];
        for _ in 0..20_000 {
            let mut s = String::new();
            let len = next() % 24;
            for _ in 0..len {
                s.push_str(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
            let mut v = s.into_bytes();
            agree(&v);
            if !v.is_empty() {
                let at = (next() % v.len() as u64) as usize;
                match next() % 3 {
                    0 => v[at] = next() as u8,
                    1 => v.truncate(at),
                    _ => v.insert(at, 0x80 | (next() as u8 & 0x3f)),
                }
                agree(&v);
            }
        }
    }

    #[test]
    fn tails_of_every_length_hold_their_bytes() {
        // A 3-byte character ending exactly at every length up to 48: a misplaced tail byte
        // would cut it or move it.
        for len in 3..48 {
            let mut v = vec![b'z'; len - 3];
            v.extend_from_slice("北".as_bytes());
            assert!(is_utf8(&v), "len {len}");
            let last = v.len() - 1;
            v[last] = b'z';
            assert!(!is_utf8(&v), "len {len}");
        }
    }
}
