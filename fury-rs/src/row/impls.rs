//! The row layout of the field types.

#![allow(unsafe_code)] // `view` trusts validated bytes; every block says why it is sound

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use super::array::{write_map, RowMap};
use super::hash::hash_step;
use super::list::RowElement;
use super::{Check, RowValue};
use crate::error::{Error, ErrorKind, Result};
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;

/// The first `N` bytes (zeros where there are fewer: never the case after validation).
#[inline(always)]
fn fixed<const N: usize>(bytes: &[u8]) -> [u8; N] {
    match bytes.first_chunk::<N>() {
        Some(b) => *b,
        None => [0; N],
    }
}

#[inline(always)]
fn put(out: &mut [u8], bytes: &[u8]) -> Result<()> {
    if let Some(o) = out.get_mut(..bytes.len()) {
        o.copy_from_slice(bytes);
    }
    Ok(())
}

macro_rules! number {
    ($($t:ty = $id:ident),*) => {$(
        // SAFETY: `view` reads any bytes, checked or not, without panicking.
        unsafe impl RowValue for $t {
            const WIDTH: usize = std::mem::size_of::<$t>();
            const VARIABLE: bool = false;
            type View<'a> = $t;
            #[inline(always)]
            fn hash_into(h: u64) -> u64 {
                hash_step(h, TypeId::$id as u8)
            }
            #[inline(always)]
            fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
                put(out, &self.to_le_bytes())
            }
            #[inline(always)]
            fn check(_: &[u8], _: &mut Check) -> Result<()> {
                Ok(())
            }
            #[inline(always)]
            unsafe fn view(_: bool, bytes: &[u8]) -> $t {
                <$t>::from_le_bytes(fixed(bytes))
            }
            #[inline(always)]
            fn from_view(v: $t) -> $t {
                v
            }
        }
    )*};
}

number!(
    i8 = Int8,
    i16 = Int16,
    i32 = Int32,
    i64 = Int64,
    f32 = Float32,
    f64 = Float64
);

/// Unsigned integers have no row type of their own (neither pyfory.format nor the official
/// crate has one): each is stored as the next wider signed type, which holds all its values,
/// so a peer reads the same number. Reading checks the value is in range.
macro_rules! widened {
    ($($t:ty => $w:ty = $id:ident),*) => {$(
        // SAFETY: `view` reads any bytes without panicking.
        unsafe impl RowValue for $t {
            const WIDTH: usize = std::mem::size_of::<$w>();
            const VARIABLE: bool = false;
            const CHECKS_FIXED: bool = true;
            type View<'a> = $t;
            #[inline(always)]
            fn hash_into(h: u64) -> u64 {
                hash_step(h, TypeId::$id as u8)
            }
            #[inline(always)]
            fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
                put(out, &<$w>::from(*self).to_le_bytes())
            }
            #[inline]
            fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
                let v = <$w>::from_le_bytes(fixed(bytes));
                match <$t>::try_from(v) {
                    Ok(_) => Ok(()),
                    Err(_) => Err(cx.error(
                        0,
                        format!("{v} is outside the range of {}", stringify!($t)),
                    )),
                }
            }
            #[inline(always)]
            unsafe fn view(_: bool, bytes: &[u8]) -> $t {
                // Exact after `check`; unchecked bytes only wrap.
                <$w>::from_le_bytes(fixed(bytes)) as $t
            }
            #[inline(always)]
            fn from_view(v: $t) -> $t {
                v
            }
        }
    )*};
}

widened!(u8 => i16 = Int16, u16 => i32 = Int32, u32 => i64 = Int64);

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for bool {
    const WIDTH: usize = 1;
    const VARIABLE: bool = false;
    const CHECKS_FIXED: bool = true;
    type View<'a> = bool;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Bool as u8)
    }
    #[inline(always)]
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        put(out, &[*self as u8])
    }
    #[inline]
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        match bytes.first() {
            Some(0 | 1) => Ok(()),
            b => Err(cx.error(0, format!("a bool is 0 or 1, found {b:?}"))),
        }
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> bool {
        bytes.first().is_some_and(|&b| b != 0)
    }
    fn from_view(v: bool) -> bool {
        v
    }
}

#[cold]
fn out_of_range(value: String, target: &'static str) -> Error {
    Error::new(ErrorKind::OutOfRange { value, target })
}

/// Whole microseconds of `seconds + nanos / 1e9`, rounded toward negative infinity. In
/// 128 bits: near `i64::MIN` µs the whole seconds alone pass the range the sum is in.
fn micros(seconds: i64, nanos: u32, what: &'static str) -> Result<i64> {
    let us = i128::from(seconds) * 1_000_000 + i128::from(nanos / 1000);
    i64::try_from(us).map_err(|_| out_of_range(format!("{seconds} s"), what))
}

/// (seconds, nanos) of a microsecond count, nanos in `0..1e9`.
fn split_micros(us: i64) -> (i64, u32) {
    (
        us.div_euclid(1_000_000),
        (us.rem_euclid(1_000_000) * 1000) as u32,
    )
}

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for Date {
    const WIDTH: usize = 4;
    const VARIABLE: bool = false;
    type View<'a> = Date;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Date as u8)
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        let days = i32::try_from(self.days())
            .map_err(|_| out_of_range(self.days().to_string(), "a row date (int32 days)"))?;
        put(out, &days.to_le_bytes())
    }
    fn check(_: &[u8], _: &mut Check) -> Result<()> {
        Ok(())
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> Date {
        Date::from_days(i64::from(i32::from_le_bytes(fixed(bytes))))
    }
    fn from_view(v: Date) -> Date {
        v
    }
}

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for Timestamp {
    const WIDTH: usize = 8;
    const VARIABLE: bool = false;
    type View<'a> = Timestamp;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Timestamp as u8)
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        let us = micros(self.seconds(), self.nanos(), "a row timestamp (int64 µs)")?;
        put(out, &us.to_le_bytes())
    }
    fn check(_: &[u8], _: &mut Check) -> Result<()> {
        Ok(())
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> Timestamp {
        let (s, n) = split_micros(i64::from_le_bytes(fixed(bytes)));
        Timestamp::new(s, n).unwrap_or_default()
    }
    fn from_view(v: Timestamp) -> Timestamp {
        v
    }
}

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for Duration {
    const WIDTH: usize = 8;
    const VARIABLE: bool = false;
    type View<'a> = Duration;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Duration as u8)
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        let us = micros(self.seconds(), self.nanos(), "a row duration (int64 µs)")?;
        put(out, &us.to_le_bytes())
    }
    fn check(_: &[u8], _: &mut Check) -> Result<()> {
        Ok(())
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> Duration {
        let (s, n) = split_micros(i64::from_le_bytes(fixed(bytes)));
        Duration::new(s, n).unwrap_or_default()
    }
    fn from_view(v: Duration) -> Duration {
        v
    }
}

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for std::time::SystemTime {
    const WIDTH: usize = 8;
    const VARIABLE: bool = false;
    const CHECKS_FIXED: bool = true;
    type View<'a> = std::time::SystemTime;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Timestamp as u8)
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        Timestamp::from(*self).write_fixed(out)
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        // SAFETY: a timestamp's view reads any bytes.
        let t = unsafe { Timestamp::view(false, bytes) };
        match t.to_system_time() {
            Some(_) => Ok(()),
            None => Err(cx.error(
                0,
                format!("{} s is outside the range of SystemTime", t.seconds()),
            )),
        }
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> std::time::SystemTime {
        // SAFETY: a timestamp's view reads any bytes.
        let t = unsafe { Timestamp::view(false, bytes) };
        // In range after `check`.
        t.to_system_time().unwrap_or(std::time::UNIX_EPOCH)
    }
    fn from_view(v: std::time::SystemTime) -> std::time::SystemTime {
        v
    }
}

// SAFETY: `view` reads any bytes without panicking.
unsafe impl RowValue for std::time::Duration {
    const WIDTH: usize = 8;
    const VARIABLE: bool = false;
    const CHECKS_FIXED: bool = true;
    type View<'a> = std::time::Duration;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::Duration as u8)
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        Duration::from(*self).write_fixed(out)
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        let us = i64::from_le_bytes(fixed(bytes));
        if us < 0 {
            return Err(cx.error(0, format!("{us} µs: a std::time::Duration is not negative")));
        }
        Ok(())
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> std::time::Duration {
        // Not negative after `check`; unchecked bytes read as zero there.
        let us = i64::from_le_bytes(fixed(bytes));
        std::time::Duration::from_micros(u64::try_from(us).unwrap_or(0))
    }
    fn from_view(v: std::time::Duration) -> std::time::Duration {
        v
    }
}

// SAFETY: `check` accepts only UTF-8, which is what `view` assumes.
unsafe impl RowValue for String {
    const WIDTH: usize = 8;
    const VARIABLE: bool = true;
    type View<'a> = &'a str;
    fn hash_into(h: u64) -> u64 {
        hash_step(h, TypeId::String as u8)
    }
    #[inline]
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        buf.extend_from_slice(self.as_bytes());
        Ok(())
    }
    #[inline(always)]
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        // Most strings are ASCII, which a few word tests settle.
        if crate::buffer::is_ascii(bytes) || crate::buffer::is_utf8(bytes) {
            Ok(())
        } else {
            Err(cx.error(0, "a string that is not UTF-8".into()))
        }
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> &str {
        // SAFETY: `bytes` passed `check`, which accepts only UTF-8 (the caller's promise).
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }
    fn from_view(v: &str) -> String {
        v.to_owned()
    }
}

// SAFETY: `check` and `view` are `T`'s, behind the null bit.
unsafe impl<T: RowValue> RowValue for Option<T> {
    const WIDTH: usize = T::WIDTH;
    const VARIABLE: bool = T::VARIABLE;
    const NULLABLE: bool = true;
    const CHECKS_FIXED: bool = T::CHECKS_FIXED;
    type View<'a> = Option<T::View<'a>>;
    fn hash_into(h: u64) -> u64 {
        T::hash_into(h)
    }
    #[inline(always)]
    fn is_null(&self) -> bool {
        self.is_none()
    }
    #[inline(always)]
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        match self {
            Some(v) => v.write_fixed(out),
            None => Ok(()),
        }
    }
    #[inline(always)]
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        match self {
            Some(v) => v.write_variable(buf),
            None => Ok(()),
        }
    }
    #[inline(always)]
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        T::check(bytes, cx)
    }
    #[inline(always)]
    unsafe fn view(null: bool, bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: a non-null cell passed `T::check` (the caller's promise).
        (!null).then(|| unsafe { T::view(false, bytes) })
    }
    fn from_view(v: Self::View<'_>) -> Self {
        v.map(T::from_view)
    }
}

// SAFETY: `check` and `view` are `T`'s.
unsafe impl<T: RowValue> RowValue for Box<T> {
    const WIDTH: usize = T::WIDTH;
    const VARIABLE: bool = T::VARIABLE;
    const NULLABLE: bool = T::NULLABLE;
    const CHECKS_FIXED: bool = T::CHECKS_FIXED;
    type View<'a> = T::View<'a>;
    fn hash_into(h: u64) -> u64 {
        T::hash_into(h)
    }
    fn is_null(&self) -> bool {
        (**self).is_null()
    }
    fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
        (**self).write_fixed(out)
    }
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        (**self).write_variable(buf)
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        T::check(bytes, cx)
    }
    unsafe fn view(null: bool, bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: the caller's promise, passed on.
        unsafe { T::view(null, bytes) }
    }
    fn from_view(v: Self::View<'_>) -> Self {
        Box::new(T::from_view(v))
    }
}

// SAFETY: `check` is `Check::map::<K, V>`, which `RowMap::new_unchecked` relies on.
unsafe impl<K: RowValue + Ord, V: RowValue> RowValue for BTreeMap<K, V> {
    const WIDTH: usize = 8;
    const VARIABLE: bool = true;
    type View<'a> = RowMap<'a, K, V>;
    fn hash_into(h: u64) -> u64 {
        V::hash_into(K::hash_into(hash_step(h, TypeId::Map as u8)))
    }
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        write_map(buf, self.keys(), self.values())
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        cx.map::<K, V>(bytes)
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> RowMap<'_, K, V> {
        // SAFETY: the caller's promise: `bytes` passed `Check::map::<K, V>`.
        unsafe { RowMap::new_unchecked(bytes) }
    }
    fn from_view(v: RowMap<'_, K, V>) -> Self {
        v.iter()
            .map(|(k, v)| (K::from_view(k), V::from_view(v)))
            .collect()
    }
}

// SAFETY: as for `BTreeMap`.
unsafe impl<K: RowValue + Eq + Hash, V: RowValue, S: BuildHasher + Default> RowValue
    for HashMap<K, V, S>
{
    const WIDTH: usize = 8;
    const VARIABLE: bool = true;
    type View<'a> = RowMap<'a, K, V>;
    fn hash_into(h: u64) -> u64 {
        V::hash_into(K::hash_into(hash_step(h, TypeId::Map as u8)))
    }
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        // One iteration for both arrays keeps keys and values paired.
        let (keys, values): (Vec<&K>, Vec<&V>) = self.iter().unzip();
        write_map(buf, keys.into_iter(), values.into_iter())
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        cx.map::<K, V>(bytes)
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> RowMap<'_, K, V> {
        // SAFETY: the caller's promise: `bytes` passed `Check::map::<K, V>`.
        unsafe { RowMap::new_unchecked(bytes) }
    }
    fn from_view(v: RowMap<'_, K, V>) -> Self {
        v.iter()
            .map(|(k, v)| (K::from_view(k), V::from_view(v)))
            .collect()
    }
}

// Lists of these are row arrays; `u8` is absent, its lists are binary (`list.rs`).
macro_rules! elements {
    ($($t:ty),*) => {$(
        impl RowElement for $t {}
    )*};
}

elements!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u16,
    u32,
    f32,
    f64,
    Date,
    Timestamp,
    Duration,
    std::time::SystemTime,
    std::time::Duration,
    String
);

impl<T: RowValue> RowElement for Option<T> {}
impl<T: RowValue> RowElement for Box<T> {}
impl<K: RowValue + Ord, V: RowValue> RowElement for BTreeMap<K, V> {}
impl<K: RowValue + Eq + Hash, V: RowValue, S: BuildHasher + Default> RowElement
    for HashMap<K, V, S>
{
}

/// `chrono`'s types (feature `chrono`) in a row: `DateTime<Utc>` and `NaiveDateTime` as
/// timestamp, `NaiveDate` as date32, `chrono::Duration` as duration, through fury's own
/// types (one conversion, in `temporal.rs`). Validation refuses a value chrono cannot hold.
#[cfg(feature = "chrono")]
macro_rules! chrono_row {
    ($($t:ty => $via:ty, $fallback:expr;)*) => {$(
        // SAFETY: `view` reads any bytes without panicking.
        unsafe impl RowValue for $t {
            const WIDTH: usize = <$via as RowValue>::WIDTH;
            const VARIABLE: bool = false;
            const CHECKS_FIXED: bool = true;
            type View<'a> = $t;
            fn hash_into(h: u64) -> u64 {
                <$via as RowValue>::hash_into(h)
            }
            fn write_fixed(&self, out: &mut [u8]) -> Result<()> {
                <$via>::from(*self).write_fixed(out)
            }
            fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
                // SAFETY: the view of `$via` reads any bytes.
                let v = unsafe { <$via as RowValue>::view(false, bytes) };
                match <$t>::try_from(v) {
                    Ok(_) => Ok(()),
                    Err(e) => Err(cx.error(0, e.to_string())),
                }
            }
            #[inline(always)]
            unsafe fn view(_: bool, bytes: &[u8]) -> $t {
                // SAFETY: the view of `$via` reads any bytes.
                let v = unsafe { <$via as RowValue>::view(false, bytes) };
                // In range after `check`.
                <$t>::try_from(v).unwrap_or($fallback)
            }
            fn from_view(v: $t) -> $t {
                v
            }
        }

        impl RowElement for $t {}
    )*};
}

#[cfg(feature = "chrono")]
chrono_row! {
    chrono::DateTime<chrono::Utc> => Timestamp, chrono::DateTime::UNIX_EPOCH;
    chrono::NaiveDateTime => Timestamp, chrono::DateTime::UNIX_EPOCH.naive_utc();
    chrono::NaiveDate => Date, chrono::DateTime::UNIX_EPOCH.date_naive();
    chrono::TimeDelta => Duration, chrono::TimeDelta::zero();
}
