//! Type ids derived from names: how the Fory schema compiler (`foryc`) numbers a type that its
//! schema gives no `[id=..]`, and how fury-rs numbers the case struct of an enum variant with
//! several fields.
//!
//! Both use MurmurHash3 x86 32-bit (Austin Appleby's public-domain algorithm, seed 0) of the
//! UTF-8 bytes of a dotted name.

/// MurmurHash3 x86 32-bit of `data` with `seed`.
///
/// ```
/// use fury_types::ids::murmur3_x86_32;
/// assert_eq!(murmur3_x86_32(b"", 0), 0);
/// // The reference implementation's value for "hello", seed 0.
/// assert_eq!(murmur3_x86_32(b"hello", 0), 0x248b_fa47);
/// ```
pub fn murmur3_x86_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mix = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h = seed;
    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let k = block
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        h ^= mix(k);
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let k = tail
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        h ^= mix(k);
    }
    // The length is mixed in modulo 2^32, as the reference implementation's `int` length.
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// The user type id `foryc` gives a type whose schema names no id: the hash of its
/// qualified name (`package.Outer.Inner`).
///
/// ```
/// use fury_types::ids::name_type_id;
/// assert_eq!(name_type_id("demo.Dog"), fury_types::ids::murmur3_x86_32(b"demo.Dog", 0));
/// ```
pub fn name_type_id(qualified_name: &str) -> u32 {
    murmur3_x86_32(qualified_name.as_bytes(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from fory-compiler 1.7.7's `compute_registered_type_id` (every tail length).
    #[test]
    fn matches_foryc() {
        for (name, id) in [
            ("abc", 3_017_643_002u32),
            ("abcde", 3_902_511_862),
            ("hello", 0x248b_fa47),
            ("310.Received", 3_946_252_467),
        ] {
            assert_eq!(name_type_id(name), id, "{name}");
        }
    }
}
