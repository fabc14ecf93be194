//! DURATION, TIMESTAMP and DATE payloads.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::temporal::{Date, Duration, Timestamp, NANOS_PER_SEC};
use crate::types::TypeId;

fn bad_nanos(at: usize, nanos: i64) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: format!("nanoseconds {nanos} outside 0..1000000000"),
        },
        at,
    )
}

impl WireType for Duration {
    const TYPE_ID: TypeId = TypeId::Duration;
    const REF_TYPE: bool = true;
}

impl Serialize for Duration {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.writer.var_i64(self.seconds());
        ctx.writer.i32(self.nanos() as i32);
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Duration {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let seconds = ctx.reader.var_i64()?;
        let at = ctx.reader.position();
        let nanos = ctx.reader.i32()?;
        u32::try_from(nanos)
            .ok()
            .and_then(|n| Duration::new(seconds, n))
            .ok_or_else(|| bad_nanos(at, nanos as i64))
    }
}

impl WireType for std::time::Duration {
    const TYPE_ID: TypeId = TypeId::Duration;
    const REF_TYPE: bool = true;
}

impl Serialize for std::time::Duration {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        Duration::from(*self).write_data(ctx)
    }
}

impl<'de> Deserialize<'de> for std::time::Duration {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let at = ctx.reader.position();
        let d = Duration::read_data(ctx)?;
        std::time::Duration::try_from(d).map_err(|d| {
            Error::at(
                ErrorKind::OutOfRange {
                    value: format!("{}s", d.seconds()),
                    target: "std::time::Duration (negative duration)",
                },
                at,
            )
        })
    }
}

impl WireType for Timestamp {
    const TYPE_ID: TypeId = TypeId::Timestamp;
    const REF_TYPE: bool = true;
}

impl Serialize for Timestamp {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.writer.i64(self.seconds());
        ctx.writer.u32(self.nanos());
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let seconds = ctx.reader.i64()?;
        let at = ctx.reader.position();
        let nanos = ctx.reader.u32()?;
        if nanos >= NANOS_PER_SEC {
            return Err(bad_nanos(at, nanos as i64));
        }
        Timestamp::new(seconds, nanos).ok_or_else(|| bad_nanos(at, nanos as i64))
    }
}

impl WireType for std::time::SystemTime {
    const TYPE_ID: TypeId = TypeId::Timestamp;
    const REF_TYPE: bool = true;
}

impl Serialize for std::time::SystemTime {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        Timestamp::from(*self).write_data(ctx)
    }
}

impl<'de> Deserialize<'de> for std::time::SystemTime {
    #[inline]
    fn missing() -> Option<Self> {
        Some(std::time::UNIX_EPOCH)
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let at = ctx.reader.position();
        let t = Timestamp::read_data(ctx)?;
        t.to_system_time().ok_or_else(|| {
            Error::at(
                ErrorKind::OutOfRange {
                    value: format!("{}s", t.seconds()),
                    target: "std::time::SystemTime",
                },
                at,
            )
        })
    }
}

impl WireType for Date {
    const TYPE_ID: TypeId = TypeId::Date;
    const REF_TYPE: bool = true;
}

impl Serialize for Date {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.writer.var_i64(self.days());
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Date {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        ctx.reader.var_i64().map(Date::from_days)
    }
}
