//! The statically typed path: schema expression -> Rust type.

use crate::Vector;
use fury::{
    Date, DeserializeOwned, Duration, Fixed, Fury, Serialize, Tagged, Timestamp, Value, BF16, F16,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

/// What the typed path produced.
pub enum Outcome {
    /// Our typed bytes decode to exactly the expected wire kinds (byte-checked when the
    /// vector says our writer agrees with pyfory).
    Exact(Vec<u8>),
    /// The Rust type writes other wire kinds or another order (e.g. `Vec<i64>` as
    /// INT64_ARRAY where pyfory wrote a LIST); checked by a round trip instead.
    KindDiffers(String),
    /// The schema has no static Rust type (e.g. `list<any>`, or a set of floats, which are
    /// neither `Ord` nor `Hash` in Rust); the reason says which.
    NoStaticType(String),
}

/// Builds the expected typed value from the expected `Value`, independently of the decoder.
pub trait FromExpected: Sized {
    /// `None` if `v` cannot be this type.
    fn from_expected(v: &Value) -> Option<Self>;
}

macro_rules! int_expected {
    ($($t:ty),*) => {$(
        impl FromExpected for $t {
            fn from_expected(v: &Value) -> Option<Self> {
                v.as_i128().and_then(|x| <$t>::try_from(x).ok())
            }
        }
    )*};
}
int_expected!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! variant_expected {
    ($($t:ty => $v:ident),*) => {$(
        impl FromExpected for $t {
            fn from_expected(v: &Value) -> Option<Self> {
                match v {
                    Value::$v(x) => Some(x.clone()),
                    _ => None,
                }
            }
        }
    )*};
}
variant_expected!(bool => Bool, f32 => Float32, f64 => Float64, F16 => Float16, BF16 => BFloat16,
    String => String, Duration => Duration, Timestamp => Timestamp, Date => Date);

impl<T: FromExpected> FromExpected for Fixed<T> {
    fn from_expected(v: &Value) -> Option<Self> {
        T::from_expected(v).map(Fixed)
    }
}

impl<T: FromExpected> FromExpected for Tagged<T> {
    fn from_expected(v: &Value) -> Option<Self> {
        T::from_expected(v).map(Tagged)
    }
}

impl<T: FromExpected> FromExpected for Option<T> {
    fn from_expected(v: &Value) -> Option<Self> {
        match v {
            Value::Null => Some(None),
            other => T::from_expected(other).map(Some),
        }
    }
}

/// The elements of any sequence-like value, as element values.
fn seq(v: &Value) -> Option<Vec<Value>> {
    fn map<T: Copy>(xs: &[T], f: impl Fn(T) -> Value) -> Option<Vec<Value>> {
        Some(xs.iter().map(|&x| f(x)).collect())
    }
    match v {
        Value::List(xs) | Value::Set(xs) => Some(xs.clone()),
        Value::Binary(xs) | Value::UInt8Array(xs) => map(xs, Value::UInt8),
        Value::BoolArray(xs) => map(xs, Value::Bool),
        Value::Int8Array(xs) => map(xs, Value::Int8),
        Value::Int16Array(xs) => map(xs, Value::Int16),
        Value::Int32Array(xs) => map(xs, Value::Int32),
        Value::Int64Array(xs) => map(xs, Value::Int64),
        Value::UInt16Array(xs) => map(xs, Value::UInt16),
        Value::UInt32Array(xs) => map(xs, Value::UInt32),
        Value::UInt64Array(xs) => map(xs, Value::UInt64),
        Value::Float16Array(xs) => map(xs, Value::Float16),
        Value::BFloat16Array(xs) => map(xs, Value::BFloat16),
        Value::Float32Array(xs) => map(xs, Value::Float32),
        Value::Float64Array(xs) => map(xs, Value::Float64),
        _ => None,
    }
}

impl<T: FromExpected> FromExpected for Vec<T> {
    fn from_expected(v: &Value) -> Option<Self> {
        seq(v)?.iter().map(T::from_expected).collect()
    }
}

impl<T: FromExpected + Ord> FromExpected for BTreeSet<T> {
    fn from_expected(v: &Value) -> Option<Self> {
        seq(v)?.iter().map(T::from_expected).collect()
    }
}

impl<K: FromExpected + Ord, V: FromExpected> FromExpected for BTreeMap<K, V> {
    fn from_expected(v: &Value) -> Option<Self> {
        match v {
            Value::Map(pairs) => pairs
                .iter()
                .map(|(k, v)| Some((K::from_expected(k)?, V::from_expected(v)?)))
                .collect(),
            _ => None,
        }
    }
}

fn same<T: Debug>(a: &T, b: &T) -> bool {
    // Debug output distinguishes -0.0 from 0.0 and prints every NaN alike, which is the
    // equality a decoded value needs; ordered collections print in a stable order.
    format!("{a:?}") == format!("{b:?}")
}

fn check_as<T>(fury: &Fury, v: &Vector, expected: &Value) -> Result<Outcome, String>
where
    T: Serialize + DeserializeOwned + FromExpected + Debug,
{
    let want = T::from_expected(expected)
        .ok_or_else(|| format!("expected value {expected:?} does not fit the Rust type"))?;
    let got: T = fury.deserialize(&v.bytes).map_err(|e| {
        format!(
            "decoding pyfory bytes as {}: {e}",
            std::any::type_name::<T>()
        )
    })?;
    if !same(&got, &want) {
        return Err(format!("decoded {got:?}, expected {want:?}"));
    }
    let ours = fury
        .serialize(&got)
        .map_err(|e| format!("re-encoding: {e}"))?;
    let as_value: Value = fury
        .deserialize(&ours)
        .map_err(|e| format!("our typed bytes do not decode as Value: {e}"))?;
    if as_value.bitwise_eq(expected) {
        if v.writer_same && ours != v.bytes {
            return Err(format!(
                "typed re-encoding differs:\n  ours   {}\n  pyfory {}",
                crate::hex_encode(&ours),
                crate::hex_encode(&v.bytes)
            ));
        }
        return Ok(Outcome::Exact(ours));
    }
    let back: T = fury
        .deserialize(&ours)
        .map_err(|e| format!("decoding our typed bytes: {e}"))?;
    if !same(&back, &got) {
        return Err(format!("typed round trip gave {back:?}, expected {got:?}"));
    }
    Ok(Outcome::KindDiffers(format!(
        "{} re-encodes with other wire kinds or entry order (root {}, pyfory root {})",
        std::any::type_name::<T>(),
        as_value.type_id(),
        expected.type_id()
    )))
}

macro_rules! schemas {
    ($fury:ident, $v:ident, $expected:ident; $($s:literal => $t:ty),* $(,)?) => {
        match $v.schema.as_str() {
            $($s => check_as::<$t>($fury, $v, $expected),)*
            s if s.contains("any") => Ok(Outcome::NoStaticType(format!("no static Rust type for {s}: mixed element types"))),
            s @ ("set<float64>" | "map<float64,string>") => Ok(Outcome::NoStaticType(format!("no static Rust type for {s}: f64 is neither Ord nor Hash"))),
            s => Ok(Outcome::NoStaticType(format!("no static Rust type for {s}"))),
        }
    };
}

/// Checks the typed path of one vector.
pub fn check(fury: &Fury, v: &Vector, expected: &Value) -> Result<Outcome, String> {
    schemas!(fury, v, expected;
        "none" => Option<String>,
        "bool" => bool,
        "int8" => i8,
        "int16" => i16,
        "int32" => Fixed<i32>,
        "varint32" => i32,
        "int64" => Fixed<i64>,
        "varint64" => i64,
        "tagged_int64" => Tagged<i64>,
        "uint8" => u8,
        "uint16" => u16,
        "uint32" => Fixed<u32>,
        "var_uint32" => u32,
        "uint64" => Fixed<u64>,
        "var_uint64" => u64,
        "tagged_uint64" => Tagged<u64>,
        "float16" => F16,
        "bfloat16" => BF16,
        "float32" => f32,
        "float64" => f64,
        "string" => String,
        "binary" => Vec<u8>,
        "duration" => Duration,
        "timestamp" => Timestamp,
        "date" => Date,
        "bool_array" => Vec<bool>,
        "int8_array" => Vec<i8>,
        "int16_array" => Vec<i16>,
        "int32_array" => Vec<i32>,
        "int64_array" => Vec<i64>,
        "uint8_array" => Vec<u8>,
        "uint16_array" => Vec<u16>,
        "uint32_array" => Vec<u32>,
        "uint64_array" => Vec<u64>,
        "float16_array" => Vec<F16>,
        "bfloat16_array" => Vec<BF16>,
        "float32_array" => Vec<f32>,
        "float64_array" => Vec<f64>,
        "list<varint64>" => Vec<i64>,
        "list<string>" => Vec<String>,
        "list<float64>" => Vec<f64>,
        "list<bool>" => Vec<bool>,
        "list<binary>" => Vec<Vec<u8>>,
        "list<option<varint64>>" => Vec<Option<i64>>,
        "list<option<string>>" => Vec<Option<String>>,
        "list<option<float64>>" => Vec<Option<f64>>,
        "list<option<bool>>" => Vec<Option<bool>>,
        "list<list<varint64>>" => Vec<Vec<i64>>,
        "list<list<string>>" => Vec<Vec<String>>,
        "list<list<list<varint64>>>" => Vec<Vec<Vec<i64>>>,
        "list<map<string,varint64>>" => Vec<BTreeMap<String, i64>>,
        "list<set<varint64>>" => Vec<BTreeSet<i64>>,
        "list<date>" => Vec<Date>,
        "list<duration>" => Vec<Duration>,
        "list<timestamp>" => Vec<Timestamp>,
        "set<varint64>" => BTreeSet<i64>,
        "set<string>" => BTreeSet<String>,
        "set<bool>" => BTreeSet<bool>,
        "set<option<varint64>>" => BTreeSet<Option<i64>>,
        "map<string,varint64>" => BTreeMap<String, i64>,
        "map<string,string>" => BTreeMap<String, String>,
        "map<varint64,string>" => BTreeMap<i64, String>,
        "map<varint64,varint64>" => BTreeMap<i64, i64>,
        "map<string,float64>" => BTreeMap<String, f64>,
        "map<string,bool>" => BTreeMap<String, bool>,
        "map<string,option<varint64>>" => BTreeMap<String, Option<i64>>,
        "map<string,option<string>>" => BTreeMap<String, Option<String>>,
        "map<option<string>,varint64>" => BTreeMap<Option<String>, i64>,
        "map<option<string>,option<varint64>>" => BTreeMap<Option<String>, Option<i64>>,
        "map<option<varint64>,option<varint64>>" => BTreeMap<Option<i64>, Option<i64>>,
        "map<string,list<varint64>>" => BTreeMap<String, Vec<i64>>,
        "map<string,list<string>>" => BTreeMap<String, Vec<String>>,
        "map<string,map<string,varint64>>" => BTreeMap<String, BTreeMap<String, i64>>,
        "map<string,set<varint64>>" => BTreeMap<String, BTreeSet<i64>>,
        "map<varint64,list<string>>" => BTreeMap<i64, Vec<String>>,
        "list<float64_array>" => Vec<Vec<f64>>,
        "list<int32_array>" => Vec<Vec<i32>>,
        "list<map<string,list<varint64>>>" => Vec<BTreeMap<String, Vec<i64>>>,
        "list<map<string,option<varint64>>>" => Vec<BTreeMap<String, Option<i64>>>,
        "list<map<varint64,list<bool>>>" => Vec<BTreeMap<i64, Vec<bool>>>,
        "list<map<varint64,set<varint64>>>" => Vec<BTreeMap<i64, BTreeSet<i64>>>,
        "list<list<list<list<varint64>>>>" => Vec<Vec<Vec<Vec<i64>>>>,
        "map<bool,varint64>" => BTreeMap<bool, i64>,
        "map<date,string>" => BTreeMap<Date, String>,
        "map<string,binary>" => BTreeMap<String, Vec<u8>>,
        "map<string,int32_array>" => BTreeMap<String, Vec<i32>>,
        "map<string,list<date>>" => BTreeMap<String, Vec<Date>>,
        "map<string,list<float64>>" => BTreeMap<String, Vec<f64>>,
        "map<string,list<list<varint64>>>" => BTreeMap<String, Vec<Vec<i64>>>,
        "map<string,list<map<string,list<string>>>>" => BTreeMap<String, Vec<BTreeMap<String, Vec<String>>>>,
        "map<string,list<option<varint64>>>" => BTreeMap<String, Vec<Option<i64>>>,
        "map<string,map<string,list<string>>>" => BTreeMap<String, BTreeMap<String, Vec<String>>>,
        "map<string,map<string,map<string,varint64>>>" => BTreeMap<String, BTreeMap<String, BTreeMap<String, i64>>>,
        "map<varint64,bool>" => BTreeMap<i64, bool>,
        "map<varint64,list<map<string,option<varint64>>>>" => BTreeMap<i64, Vec<BTreeMap<String, Option<i64>>>>,
        "map<varint64,set<varint64>>" => BTreeMap<i64, BTreeSet<i64>>,
        "set<date>" => BTreeSet<Date>,
    )
}
