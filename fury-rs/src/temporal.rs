//! Time values of the xlang format: [`Duration`], [`Timestamp`] and [`Date`].

use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds per second.
pub(crate) const NANOS_PER_SEC: u32 = 1_000_000_000;

/// A signed length of time: DURATION on the wire (zigzag varint64 seconds, then a fixed
/// int32 of nanoseconds in `0..1_000_000_000`). Negative durations have negative `seconds`
/// and a non-negative `nanos`, so `-1 ns` is `{ seconds: -1, nanos: 999_999_999 }`.
///
/// ```
/// use fury::Duration;
/// let d = Duration::new(-1, 999_999_999).unwrap();
/// assert_eq!(d.total_nanos(), -1);
/// assert!(Duration::new(0, 1_000_000_000).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Duration {
    seconds: i64,
    nanos: u32,
}

impl Duration {
    /// A duration of `seconds + nanos / 1e9`; `None` if `nanos` is not below one second.
    pub fn new(seconds: i64, nanos: u32) -> Option<Self> {
        (nanos < NANOS_PER_SEC).then_some(Duration { seconds, nanos })
    }

    /// Whole seconds (rounded toward negative infinity).
    pub fn seconds(&self) -> i64 {
        self.seconds
    }

    /// Nanoseconds added to `seconds`, in `0..1_000_000_000`.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }

    /// The whole duration in nanoseconds.
    pub fn total_nanos(&self) -> i128 {
        self.seconds as i128 * NANOS_PER_SEC as i128 + self.nanos as i128
    }
}

impl From<std::time::Duration> for Duration {
    fn from(d: std::time::Duration) -> Self {
        Duration {
            seconds: d.as_secs().min(i64::MAX as u64) as i64,
            nanos: d.subsec_nanos(),
        }
    }
}

impl TryFrom<Duration> for std::time::Duration {
    type Error = Duration;
    /// Fails (returning the input) for negative durations.
    fn try_from(d: Duration) -> Result<Self, Duration> {
        if d.seconds < 0 {
            return Err(d);
        }
        Ok(std::time::Duration::new(d.seconds as u64, d.nanos))
    }
}

/// A point in time: TIMESTAMP on the wire (fixed int64 seconds since the Unix epoch, then a
/// fixed uint32 of nanoseconds in `0..1_000_000_000`).
///
/// ```
/// use fury::Timestamp;
/// let t = Timestamp::new(1_577_836_800, 0).unwrap(); // 2020-01-01T00:00:00Z
/// assert_eq!(t.seconds(), 1_577_836_800);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Timestamp {
    seconds: i64,
    nanos: u32,
}

impl Timestamp {
    /// `seconds + nanos / 1e9` after 1970-01-01T00:00:00Z; `None` if `nanos >= 1e9`.
    pub fn new(seconds: i64, nanos: u32) -> Option<Self> {
        (nanos < NANOS_PER_SEC).then_some(Timestamp { seconds, nanos })
    }

    /// Whole seconds since the epoch (rounded toward negative infinity).
    pub fn seconds(&self) -> i64 {
        self.seconds
    }

    /// Nanoseconds added to `seconds`.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }
}

impl From<SystemTime> for Timestamp {
    fn from(t: SystemTime) -> Self {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Timestamp {
                seconds: d.as_secs().min(i64::MAX as u64) as i64,
                nanos: d.subsec_nanos(),
            },
            Err(e) => {
                let d = e.duration();
                let mut seconds = -(d.as_secs().min(i64::MAX as u64) as i64);
                let mut nanos = d.subsec_nanos();
                if nanos > 0 {
                    seconds -= 1;
                    nanos = NANOS_PER_SEC - nanos;
                }
                Timestamp { seconds, nanos }
            }
        }
    }
}

impl Timestamp {
    /// The same instant as a `SystemTime`; `None` if the platform cannot represent it.
    pub fn to_system_time(&self) -> Option<SystemTime> {
        let nanos = std::time::Duration::new(0, self.nanos);
        if self.seconds >= 0 {
            UNIX_EPOCH
                .checked_add(std::time::Duration::new(self.seconds as u64, 0))?
                .checked_add(nanos)
        } else {
            UNIX_EPOCH
                .checked_sub(std::time::Duration::new(self.seconds.unsigned_abs(), 0))?
                .checked_add(nanos)
        }
    }
}

/// A calendar date without time zone: DATE on the wire (zigzag varint64 days since
/// 1970-01-01).
///
/// ```
/// use fury::Date;
/// assert_eq!(Date::from_days(18262).days(), 18262); // 2020-01-01
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Date {
    days: i64,
}

impl Date {
    /// The date `days` after (or before, if negative) 1970-01-01.
    pub const fn from_days(days: i64) -> Self {
        Date { days }
    }

    /// Days since 1970-01-01.
    pub const fn days(&self) -> i64 {
        self.days
    }
}

/// Conversions with `chrono` (feature `chrono`): the one place its types meet the wire's, so
/// the xlang serializers and the row format both go through them. A `NaiveDateTime` is taken
/// as UTC, as the official crate takes it.
#[cfg(feature = "chrono")]
mod chrono_conv {
    use super::{Date, Duration, Timestamp};
    use crate::error::{Error, ErrorKind};
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeDelta, Utc};

    /// Days from 0001-01-01 (chrono's day 1, "from CE") to 1970-01-01.
    const EPOCH_FROM_CE: i64 = 719_163;

    fn out_of_range(value: String, target: &'static str) -> Error {
        Error::new(ErrorKind::OutOfRange { value, target })
    }

    impl From<DateTime<Utc>> for Timestamp {
        /// The same instant (chrono keeps nanoseconds in `0..1e9` after the second, except
        /// in a leap second, which is folded into the next second as `SystemTime` does).
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let t = chrono::DateTime::from_timestamp(-1, 500_000_000).unwrap();
        /// let ts = fury::Timestamp::from(t);
        /// assert_eq!((ts.seconds(), ts.nanos()), (-1, 500_000_000));
        /// ```
        fn from(t: DateTime<Utc>) -> Self {
            let (mut seconds, mut nanos) = (t.timestamp(), t.timestamp_subsec_nanos());
            if nanos >= super::NANOS_PER_SEC {
                seconds = seconds.saturating_add(1);
                nanos -= super::NANOS_PER_SEC;
            }
            Timestamp { seconds, nanos }
        }
    }

    impl TryFrom<Timestamp> for DateTime<Utc> {
        type Error = Error;
        /// The same instant, if chrono's range (about ±262,000 years) holds it.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// use chrono::{DateTime, Utc};
        /// let t = fury::Timestamp::new(1_577_836_800, 0).unwrap();
        /// let dt = DateTime::<Utc>::try_from(t).unwrap();
        /// assert_eq!(dt.timestamp(), 1_577_836_800);
        /// assert!(DateTime::<Utc>::try_from(fury::Timestamp::new(i64::MAX, 0).unwrap()).is_err());
        /// ```
        fn try_from(t: Timestamp) -> Result<Self, Error> {
            DateTime::from_timestamp(t.seconds, t.nanos)
                .ok_or_else(|| out_of_range(format!("{} s", t.seconds), "chrono::DateTime<Utc>"))
        }
    }

    impl From<NaiveDateTime> for Timestamp {
        /// The instant of the date and time read as UTC.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let t = chrono::NaiveDate::from_ymd_opt(1970, 1, 2)
        ///     .and_then(|d| d.and_hms_opt(0, 0, 1))
        ///     .unwrap();
        /// assert_eq!(fury::Timestamp::from(t).seconds(), 86_401);
        /// ```
        fn from(t: NaiveDateTime) -> Self {
            Timestamp::from(t.and_utc())
        }
    }

    impl TryFrom<Timestamp> for NaiveDateTime {
        type Error = Error;
        /// The UTC date and time of the instant, if chrono's range holds it.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let t = chrono::NaiveDateTime::try_from(fury::Timestamp::new(-1, 0).unwrap()).unwrap();
        /// assert_eq!(t.to_string(), "1969-12-31 23:59:59");
        /// ```
        fn try_from(t: Timestamp) -> Result<Self, Error> {
            DateTime::<Utc>::try_from(t)
                .map(|dt| dt.naive_utc())
                .map_err(|_| out_of_range(format!("{} s", t.seconds), "chrono::NaiveDateTime"))
        }
    }

    impl From<NaiveDate> for Date {
        /// Days since 1970-01-01.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let d = chrono::NaiveDate::from_ymd_opt(1969, 12, 31).unwrap();
        /// assert_eq!(fury::Date::from(d).days(), -1);
        /// ```
        fn from(d: NaiveDate) -> Self {
            Date::from_days(i64::from(d.num_days_from_ce()) - EPOCH_FROM_CE)
        }
    }

    impl TryFrom<Date> for NaiveDate {
        type Error = Error;
        /// The date, if chrono's range (about ±262,000 years) holds it.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// use chrono::NaiveDate;
        /// let d = NaiveDate::try_from(fury::Date::from_days(18_262)).unwrap();
        /// assert_eq!(d, NaiveDate::from_ymd_opt(2020, 1, 1).unwrap());
        /// assert!(NaiveDate::try_from(fury::Date::from_days(1 << 40)).is_err());
        /// ```
        fn try_from(d: Date) -> Result<Self, Error> {
            d.days
                .checked_add(EPOCH_FROM_CE)
                .and_then(|ce| i32::try_from(ce).ok())
                .and_then(NaiveDate::from_num_days_from_ce_opt)
                .ok_or_else(|| out_of_range(format!("{} days", d.days), "chrono::NaiveDate"))
        }
    }

    impl From<TimeDelta> for Duration {
        /// The same length of time (chrono's range, ±`i64::MAX` milliseconds, always fits).
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let d = fury::Duration::from(chrono::Duration::microseconds(-1));
        /// assert_eq!((d.seconds(), d.nanos()), (-1, 999_999_000));
        /// ```
        fn from(d: TimeDelta) -> Self {
            // chrono splits like `Duration`: whole seconds toward negative infinity, then
            // nanoseconds in `0..1e9`.
            let (seconds, nanos) = (d.num_seconds(), d.subsec_nanos());
            if nanos < 0 {
                Duration {
                    seconds: seconds - 1,
                    nanos: (nanos + super::NANOS_PER_SEC as i32) as u32,
                }
            } else {
                Duration {
                    seconds,
                    nanos: nanos as u32,
                }
            }
        }
    }

    impl TryFrom<Duration> for TimeDelta {
        type Error = Error;
        /// The same length of time, if chrono's range (±`i64::MAX` milliseconds) holds it.
        ///
        /// ```
        /// // Needs fury's feature `chrono` and the crate `chrono`.
        /// let d = fury::Duration::new(-1, 999_999_000).unwrap();
        /// assert_eq!(chrono::Duration::try_from(d).unwrap(), chrono::Duration::microseconds(-1));
        /// ```
        fn try_from(d: Duration) -> Result<Self, Error> {
            TimeDelta::new(d.seconds, d.nanos)
                .ok_or_else(|| out_of_range(format!("{} s", d.seconds), "chrono::Duration"))
        }
    }
}
