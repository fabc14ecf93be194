//! MurmurHash3, x64 128-bit variant (Austin Appleby's public-domain algorithm).
//!
//! Fory uses it to give meta strings longer than 16 bytes a 64-bit identity on the wire
//! (seed 47, first half of the result). Every input, including the empty one, is valid.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// The final avalanche step applied to each half.
#[inline]
pub(crate) fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

#[inline]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// Little-endian value of up to 8 bytes (missing high bytes are zero).
#[inline]
pub(crate) fn le_u64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// MurmurHash3 x64_128 of `data` with `seed`, returned as its two 64-bit halves `(h1, h2)`.
///
/// Both halves start from `seed`. The reference implementation (and pyfory's binding of it)
/// takes a 32-bit seed; for seeds below 2^32 the results are identical.
///
/// ```
/// use fury::meta::murmur3_x64_128;
/// assert_eq!(murmur3_x64_128(b"", 0), (0, 0));
/// // MurmurHash3_x64_128("hello", seed 0), as the reference implementation gives it.
/// assert_eq!(
///     murmur3_x64_128(b"hello", 0),
///     (0xcbd8_a7b3_41bd_9b02, 0x5b1e_906a_48ae_1d19)
/// );
/// ```
pub fn murmur3_x64_128(data: &[u8], seed: u64) -> (u64, u64) {
    let mut h1 = seed;
    let mut h2 = seed;

    let mut blocks = data.chunks_exact(16);
    for block in &mut blocks {
        let (lo, hi) = block.split_at(8);
        let k1 = le_u64(lo);
        let k2 = le_u64(hi);

        h1 ^= mix_k1(k1);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);

        h2 ^= mix_k2(k2);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }

    let tail = blocks.remainder();
    if tail.len() > 8 {
        h2 ^= mix_k2(le_u64(tail.get(8..).unwrap_or_default()));
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(le_u64(tail.get(..tail.len().min(8)).unwrap_or_default()));
    }

    let len = data.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (h1, h2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_with_zero_seed_is_zero() {
        assert_eq!(murmur3_x64_128(&[], 0), (0, 0));
    }

    #[test]
    fn seed_changes_the_hash() {
        assert_ne!(murmur3_x64_128(b"abc", 0), murmur3_x64_128(b"abc", 47));
    }

    #[test]
    fn le_u64_reads_partial_words() {
        assert_eq!(le_u64(&[]), 0);
        assert_eq!(le_u64(&[1]), 1);
        assert_eq!(le_u64(&[1, 2, 3]), 0x0003_0201);
        assert_eq!(
            le_u64(&[1, 2, 3, 4, 5, 6, 7, 8]),
            u64::from_le_bytes([1, 2, 3, 4, 5, 6, 7, 8])
        );
    }
}
