//! DECIMAL (40): the scale as a zigzag varint32, then the unscaled integer in one of two
//! forms, told apart by the lowest bit of a varuint64 header:
//! - small (bit 0 clear): `zigzag(unscaled) << 1`, when it fits 64 bits (|unscaled| < 2^62);
//! - big (bit 0 set): `len << 2 | negative << 1 | 1`, then `len` bytes of magnitude,
//!   little-endian, without trailing zero bytes.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::decimal::Decimal;
use crate::error::{Error, ErrorKind, Result};
use crate::types::TypeId;

impl WireType for Decimal {
    const TYPE_ID: TypeId = TypeId::Decimal;
}

impl Serialize for Decimal {
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_decimal(self.is_negative(), self.magnitude_le(), self.scale(), ctx)
    }
}

/// Writes a DECIMAL payload: `scale`, then the unscaled integer given by its sign and its
/// little-endian magnitude (trailing zero bytes allowed), in the small form where it fits.
pub(crate) fn write_decimal(
    negative: bool,
    magnitude_le: &[u8],
    scale: i32,
    ctx: &mut WriteContext,
) -> Result<()> {
    ctx.writer.var_i32(scale);
    let m = match magnitude_le.iter().rposition(|&b| b != 0) {
        Some(last) => &magnitude_le[..=last],
        None => &[],
    };
    if m.len() <= 8 {
        let mut word = [0u8; 8];
        word[..m.len()].copy_from_slice(m);
        let abs = u64::from_le_bytes(word);
        if abs < 1 << 62 || (negative && abs == 1 << 62) {
            let u = if negative {
                (abs as i64).wrapping_neg()
            } else {
                abs as i64
            };
            ctx.writer.var_u64(crate::buffer::zigzag64(u) << 1);
            return Ok(());
        }
    }
    let len = u64::try_from(m.len()).map_err(|_| too_long(m.len()))?;
    if len > u64::from(u32::MAX) {
        return Err(too_long(m.len()));
    }
    ctx.writer.var_u64(len << 2 | u64::from(negative) << 1 | 1);
    ctx.writer.bytes(m);
    Ok(())
}

#[cold]
fn too_long(n: usize) -> Error {
    Error::new(ErrorKind::LengthTooLarge {
        what: "decimal magnitude",
        declared: n as u64,
        limit: u64::from(u32::MAX),
    })
}

impl<'de> Deserialize<'de> for Decimal {
    fn missing() -> Option<Self> {
        Some(Decimal::default())
    }

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let scale = ctx.reader.var_i32()?;
        let at = ctx.reader.position();
        let header = ctx.reader.var_u64()?;
        if header & 1 == 0 {
            let z = header >> 1;
            // Undo the zigzag of a value below 2^62 in magnitude.
            let u = (z >> 1) as i64 ^ -((z & 1) as i64);
            return Ok(Decimal::new(i128::from(u), scale));
        }
        let len = ctx
            .reader
            .check_count("decimal magnitude", header >> 2, 1, at)?;
        let bytes = ctx.reader.bytes(len)?;
        // Trailing zero bytes (a peer's non-minimal magnitude) are accepted and dropped.
        Ok(Decimal::from_parts(header & 2 != 0, bytes.to_vec(), scale))
    }
}
