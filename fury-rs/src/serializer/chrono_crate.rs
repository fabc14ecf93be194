//! `chrono`'s `DateTime<Utc>`, `NaiveDateTime`, `NaiveDate` and `Duration` (feature
//! `chrono`) as TIMESTAMP, TIMESTAMP, DATE and DURATION: pyfory's `datetime.datetime`,
//! `datetime.date` and `datetime.timedelta`, and the official crate's chrono types. Each is
//! written and read through [`Timestamp`], [`Date`] and [`Duration`] (the conversions are
//! in `temporal.rs`), so the bytes are theirs; a value chrono cannot hold is an error when
//! read, at the offset of the value.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, Result};
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;
use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeDelta, Utc};

/// Implements the traits for `$t`, which converts into `$via` and back with `TryFrom`.
macro_rules! through {
    ($($t:ty => $via:ty = $id:ident, missing $missing:expr;)*) => {$(
        impl WireType for $t {
            const TYPE_ID: TypeId = TypeId::$id;
            const REF_TYPE: bool = true;
        }

        impl Serialize for $t {
            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                <$via>::from(*self).write_data(ctx)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            #[inline]
            fn missing() -> Option<Self> {
                Some($missing)
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                let at = ctx.reader.position();
                let v = <$via>::read_data(ctx)?;
                <$t>::try_from(v).map_err(|e| Error::at(e.kind().clone(), at))
            }
        }
    )*};
}

through! {
    DateTime<Utc> => Timestamp = Timestamp, missing DateTime::UNIX_EPOCH;
    NaiveDateTime => Timestamp = Timestamp, missing DateTime::UNIX_EPOCH.naive_utc();
    NaiveDate => Date = Date, missing DateTime::UNIX_EPOCH.date_naive();
    TimeDelta => Duration = Duration, missing TimeDelta::zero();
}
