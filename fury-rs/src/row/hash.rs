//! pyfory's schema hash (`pyfory.format.infer.compute_schema_hash`), the 8 bytes
//! `Encoder.encode` writes before a row: from 17, each type folds in `h * 31 + type_id`,
//! halved twice (`h >> 2`) as often as that would pass `i64::MAX`; a list folds in its
//! element type after its own id, a map its key then value type, a struct its fields.

/// One fold of the schema hash: `h * 31 + id`, with `h` shifted right by 2 until the sum
/// stays within `i64::MAX`.
///
/// ```
/// use fury::row::hash_step;
/// assert_eq!(hash_step(17, 6), 17 * 31 + 6); // an int64 field
/// assert_eq!(hash_step(u64::MAX >> 1, 6), (u64::MAX >> 7) * 31 + 6); // shifted 3 times
/// ```
#[doc(hidden)]
#[inline]
pub fn hash_step(mut h: u64, id: u8) -> u64 {
    loop {
        let next = h as u128 * 31 + id as u128;
        if next <= i64::MAX as u128 {
            return next as u64;
        }
        h >>= 2;
    }
}
