//! `bigdecimal::BigDecimal` (feature `bigdecimal`) as DECIMAL (40), the wire form of
//! [`fury::Decimal`](crate::Decimal), and conversions between the two.
//!
//! Both hold an unscaled integer of any size and a scale, so every DECIMAL reads into a
//! `BigDecimal` with the same digits and scale and writes back to the same bytes. Only the
//! scale's range differs: the wire's is a 32-bit integer, `BigDecimal`'s 64 bits; writing a
//! scale beyond 32 bits is an error.

use super::decimal::write_decimal;
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::TypeId;
use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::BigDecimal;

impl WireType for BigDecimal {
    const TYPE_ID: TypeId = TypeId::Decimal;
}

impl Serialize for BigDecimal {
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        let (unscaled, scale) = self.as_bigint_and_scale();
        let scale = wire_scale(scale)?;
        let (sign, magnitude) = unscaled.to_bytes_le();
        write_decimal(sign == Sign::Minus, &magnitude, scale, ctx)
    }
}

impl<'de> Deserialize<'de> for BigDecimal {
    fn missing() -> Option<Self> {
        Some(BigDecimal::from(0))
    }

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        crate::Decimal::read_data(ctx).map(|d| BigDecimal::from(&d))
    }
}

fn wire_scale(scale: i64) -> Result<i32> {
    i32::try_from(scale).map_err(|_| {
        Error::new(ErrorKind::Invalid {
            what: format!("a BigDecimal of scale {scale}: DECIMAL's scale is a 32-bit integer"),
        })
    })
}

impl From<&crate::Decimal> for BigDecimal {
    /// The same number with the same scale.
    ///
    /// ```
    /// // Needs fury's feature `bigdecimal` and the crate `bigdecimal`.
    /// let d: fury::Decimal = "-123.45".parse().unwrap();
    /// assert_eq!(bigdecimal::BigDecimal::from(&d).to_string(), "-123.45");
    /// ```
    fn from(d: &crate::Decimal) -> Self {
        let sign = if d.is_negative() {
            Sign::Minus
        } else {
            Sign::Plus
        };
        let unscaled = BigInt::from_bytes_le(sign, d.magnitude_le());
        BigDecimal::new(unscaled, i64::from(d.scale()))
    }
}

impl TryFrom<&BigDecimal> for crate::Decimal {
    type Error = Error;

    /// The same number with the same scale, if the scale fits DECIMAL's 32 bits.
    ///
    /// ```
    /// // Needs fury's feature `bigdecimal` and the crate `bigdecimal`.
    /// use std::str::FromStr;
    /// let b = bigdecimal::BigDecimal::from_str("123456789012345678901234567890.5").unwrap();
    /// let d = fury::Decimal::try_from(&b).unwrap();
    /// assert_eq!(d.to_string(), "123456789012345678901234567890.5");
    /// ```
    fn try_from(b: &BigDecimal) -> Result<Self> {
        let (unscaled, scale) = b.as_bigint_and_scale();
        let scale = wire_scale(scale)?;
        let (sign, magnitude) = unscaled.to_bytes_le();
        Ok(crate::Decimal::from_parts(
            sign == Sign::Minus,
            magnitude,
            scale,
        ))
    }
}
