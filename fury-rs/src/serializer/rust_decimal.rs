//! `rust_decimal::Decimal` (feature `rust_decimal`) as DECIMAL (40), the wire form of
//! [`fury::Decimal`](crate::Decimal), and conversions between the two.
//!
//! `rust_decimal` holds a 96-bit unscaled integer and a scale of 0 to 28. A DECIMAL outside
//! that range (more digits, a scale above 28) is an error when read into it. A negative
//! scale (`1E+10`, which Python writes) is read as the same number with scale 0, and so
//! writes back with scale 0.

use super::decimal::write_decimal;
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::TypeId;
use rust_decimal::Decimal as RustDecimal;

impl WireType for RustDecimal {
    const TYPE_ID: TypeId = TypeId::Decimal;
}

impl Serialize for RustDecimal {
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        let m = self.mantissa();
        // The scale is at most 28, so it always fits.
        let scale = i32::try_from(self.scale()).unwrap_or(i32::MAX);
        write_decimal(m < 0, &m.unsigned_abs().to_le_bytes(), scale, ctx)
    }
}

impl<'de> Deserialize<'de> for RustDecimal {
    fn missing() -> Option<Self> {
        Some(RustDecimal::ZERO)
    }

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let at = ctx.reader.position();
        let d = crate::Decimal::read_data(ctx)?;
        RustDecimal::try_from(&d).map_err(|e| Error::at(e.kind().clone(), at))
    }
}

impl From<RustDecimal> for crate::Decimal {
    /// The same number with the same scale.
    ///
    /// ```
    /// // Needs fury's feature `rust_decimal` and the crate `rust_decimal`.
    /// let d = rust_decimal::Decimal::new(-12345, 2);
    /// assert_eq!(fury::Decimal::from(d).to_string(), "-123.45");
    /// ```
    fn from(d: RustDecimal) -> Self {
        let scale = i32::try_from(d.scale()).unwrap_or(i32::MAX);
        crate::Decimal::new(d.mantissa(), scale)
    }
}

impl TryFrom<&crate::Decimal> for RustDecimal {
    type Error = Error;

    /// The same number, if `rust_decimal` can hold it: an unscaled integer of at most 96
    /// bits after a negative scale is multiplied out, and a scale of at most 28.
    ///
    /// ```
    /// // Needs fury's feature `rust_decimal` and the crate `rust_decimal`.
    /// let d: fury::Decimal = "1E+3".parse().unwrap();
    /// assert_eq!(rust_decimal::Decimal::try_from(&d).unwrap().to_string(), "1000");
    /// let tiny: fury::Decimal = "1E-30".parse().unwrap();
    /// assert!(rust_decimal::Decimal::try_from(&tiny).is_err());
    /// ```
    fn try_from(d: &crate::Decimal) -> Result<Self> {
        let out_of_range = || {
            Error::new(ErrorKind::Invalid {
                what: format!(
                    "DECIMAL {d} does not fit rust_decimal::Decimal (96-bit unscaled integer, \
                     scale 0 to 28)"
                ),
            })
        };
        let mut unscaled = d.to_i128().ok_or_else(out_of_range)?;
        let mut scale = d.scale();
        if unscaled == 0 {
            scale = scale.max(0);
        }
        // 10^39 overflows an i128, so a longer loop would only fail later.
        if scale < -39 {
            return Err(out_of_range());
        }
        while scale < 0 {
            unscaled = unscaled.checked_mul(10).ok_or_else(out_of_range)?;
            scale += 1;
        }
        let scale = u32::try_from(scale).map_err(|_| out_of_range())?;
        RustDecimal::try_from_i128_with_scale(unscaled, scale).map_err(|_| out_of_range())
    }
}
