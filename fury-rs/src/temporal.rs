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
