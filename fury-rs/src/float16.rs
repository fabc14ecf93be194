//! 16-bit floating point values kept as their bit patterns: IEEE-754 half precision
//! ([`F16`]) and bfloat16 ([`BF16`]). Conversions to and from `f32` round to nearest-even.

/// An IEEE-754 binary16 value, stored as its bits (FLOAT16 on the wire).
///
/// ```
/// use fury::F16;
/// assert_eq!(F16::from_f32(1.5).to_bits(), 0x3e00);
/// assert_eq!(F16::from_bits(0x3e00).to_f32(), 1.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct F16(pub u16);

/// A bfloat16 value (the top half of an `f32`), stored as its bits (BFLOAT16 on the wire).
///
/// ```
/// use fury::BF16;
/// assert_eq!(BF16::from_f32(1.5).to_bits(), 0x3fc0);
/// assert_eq!(BF16::from_bits(0x3fc0).to_f32(), 1.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct BF16(pub u16);

impl F16 {
    /// Wraps a bit pattern.
    pub const fn from_bits(bits: u16) -> Self {
        F16(bits)
    }

    /// The bit pattern.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Widens exactly to `f32`.
    pub fn to_f32(self) -> f32 {
        let h = self.0 as u32;
        let sign = (h & 0x8000) << 16;
        let exp = (h >> 10) & 0x1f;
        let man = h & 0x3ff;
        let bits = match (exp, man) {
            (0, 0) => sign,
            (0, _) => {
                // Subnormal: value = man * 2^-24; normalise into an f32.
                let shift = man.leading_zeros() - 21; // bring the top set bit to bit 10
                let man = (man << shift) & 0x3ff;
                let exp = 127 - 15 + 1 - shift;
                sign | (exp << 23) | (man << 13)
            }
            (0x1f, 0) => sign | 0x7f80_0000,
            (0x1f, _) => sign | 0x7fc0_0000 | (man << 13),
            _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
        };
        f32::from_bits(bits)
    }

    /// Narrows an `f32`, rounding to nearest-even; overflow becomes infinity, NaN stays NaN.
    pub fn from_f32(v: f32) -> Self {
        let x = v.to_bits();
        let sign = ((x >> 16) & 0x8000) as u16;
        let exp = ((x >> 23) & 0xff) as i32;
        let man = x & 0x7f_ffff;
        if exp == 0xff {
            let nan = if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
            return F16(sign | 0x7c00 | nan);
        }
        let e = exp - 127 + 15;
        if e >= 0x1f {
            return F16(sign | 0x7c00);
        }
        if e <= 0 {
            if e < -10 {
                return F16(sign);
            }
            // Subnormal result: shift the full significand (with its hidden bit) into place.
            let m = man | 0x80_0000;
            let shift = (14 - e) as u32;
            let half = 1u32 << (shift - 1);
            let rest = m & ((1u32 << shift) - 1);
            let mut out = (m >> shift) as u16;
            if rest > half || (rest == half && out & 1 == 1) {
                out += 1;
            }
            return F16(sign | out);
        }
        let mut out = ((e as u32) << 10 | (man >> 13)) as u16;
        let rest = man & 0x1fff;
        if rest > 0x1000 || (rest == 0x1000 && out & 1 == 1) {
            out += 1; // may carry into the exponent, which is the correct rounding
        }
        F16(sign | out)
    }
}

impl BF16 {
    /// Wraps a bit pattern.
    pub const fn from_bits(bits: u16) -> Self {
        BF16(bits)
    }

    /// The bit pattern.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Widens exactly to `f32`.
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }

    /// Narrows an `f32`, rounding to nearest-even; NaN stays NaN.
    pub fn from_f32(v: f32) -> Self {
        let x = v.to_bits();
        if v.is_nan() {
            return BF16(((x >> 16) as u16) | 0x40);
        }
        let rest = x & 0xffff;
        let mut out = (x >> 16) as u16;
        if rest > 0x8000 || (rest == 0x8000 && out & 1 == 1) {
            out = out.wrapping_add(1);
        }
        BF16(out)
    }
}

impl From<F16> for f32 {
    fn from(v: F16) -> f32 {
        v.to_f32()
    }
}

impl From<BF16> for f32 {
    fn from(v: BF16) -> f32 {
        v.to_f32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trips_every_non_nan_pattern() {
        for bits in 0..=u16::MAX {
            let h = F16(bits);
            let f = h.to_f32();
            if f.is_nan() {
                assert!(F16::from_f32(f).to_f32().is_nan());
            } else {
                assert_eq!(F16::from_f32(f), h, "bits {bits:04x}");
            }
        }
    }

    #[test]
    fn f16_known_values() {
        assert_eq!(F16::from_f32(65504.0).0, 0x7bff);
        assert_eq!(F16::from_f32(65520.0).0, 0x7c00); // rounds up to infinity
        assert_eq!(F16::from_f32(-2.0).0, 0xc000);
        assert_eq!(F16::from_f32(5.960_464_5e-8).0, 0x0001);
        assert_eq!(F16(0x0001).to_f32(), 5.960_464_5e-8);
        assert_eq!(F16::from_f32(1.0 + 1.0 / 2048.0).0, 0x3c00); // tie to even
    }

    #[test]
    fn bf16_round_trips_every_non_nan_pattern() {
        for bits in 0..=u16::MAX {
            let b = BF16(bits);
            let f = b.to_f32();
            if !f.is_nan() {
                assert_eq!(BF16::from_f32(f), b);
            }
        }
    }
}
