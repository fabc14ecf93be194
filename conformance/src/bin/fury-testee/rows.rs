//! Row-format requests (`"format": "row"`, the `rows` group): a `#[derive(FuryRow)]` mirror
//! per row schema of `vectors/rows/rows.json` (the types of `conformance/tests/row.rs`),
//! found by the vector's name, and the conversion between a mirror and the row values of
//! `PROTOCOL.md` section 9.4 (plain JSON shaped by the schema).

use fury::row::FuryRow;
use fury::{Date, Timestamp};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::time::SystemTime;

type R<T> = Result<T, String>;

/// A row value's JSON form.
trait RowJson: Sized {
    fn from_json(v: &Json) -> R<Self>;
    fn to_json(&self) -> Json;
}

fn bad<T>(what: &str, v: &Json) -> R<T> {
    Err(format!("{what} expected, got {v:.100}"))
}

macro_rules! small_int {
    ($($t:ty),*) => {$(
        impl RowJson for $t {
            fn from_json(v: &Json) -> R<Self> {
                match v.as_i64().and_then(|n| <$t>::try_from(n).ok()) {
                    Some(n) => Ok(n),
                    None => bad(stringify!($t), v),
                }
            }
            fn to_json(&self) -> Json {
                json!(self)
            }
        }
    )*};
}
small_int!(i8, i16, i32, u16);

// u8 and u32 are widened (int16, int64): u8's node is a number, u32's decimal text.
impl RowJson for u8 {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_i64().and_then(|n| u8::try_from(n).ok()) {
            Some(n) => Ok(n),
            None => bad("u8", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(self)
    }
}

impl RowJson for u32 {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_str().and_then(|s| s.parse().ok()) {
            Some(n) => Ok(n),
            None => bad("u32 (int64) as decimal text", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(self.to_string())
    }
}

impl RowJson for i64 {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_str().and_then(|s| s.parse().ok()) {
            Some(n) => Ok(n),
            None => bad("int64 as decimal text", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(self.to_string())
    }
}

impl RowJson for f64 {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_str().and_then(|s| u64::from_str_radix(s, 16).ok()) {
            Some(b) => Ok(f64::from_bits(b)),
            None => bad("float64 bits as hex", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(format!("{:016x}", self.to_bits()))
    }
}

impl RowJson for f32 {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_str().and_then(|s| u32::from_str_radix(s, 16).ok()) {
            Some(b) => Ok(f32::from_bits(b)),
            None => bad("float32 bits as hex", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(format!("{:08x}", self.to_bits()))
    }
}

impl RowJson for bool {
    fn from_json(v: &Json) -> R<Self> {
        v.as_bool().map_or_else(|| bad("a bool", v), Ok)
    }
    fn to_json(&self) -> Json {
        json!(self)
    }
}

impl RowJson for String {
    fn from_json(v: &Json) -> R<Self> {
        v.as_str()
            .map_or_else(|| bad("a string", v), |s| Ok(s.into()))
    }
    fn to_json(&self) -> Json {
        json!(self)
    }
}

/// A list's JSON form: an array of element nodes, or hex for `u8` (a `Vec<u8>` and a
/// `[u8; N]` are binary in a row).
trait RowJsonList: RowJson {
    fn list_from_json(v: &Json) -> R<Vec<Self>> {
        v.as_array().map_or_else(
            || bad("a list", v),
            |a| a.iter().map(Self::from_json).collect(),
        )
    }
    fn list_to_json(items: &[Self]) -> Json {
        Json::Array(items.iter().map(Self::to_json).collect())
    }
}

impl RowJsonList for u8 {
    fn list_from_json(v: &Json) -> R<Vec<u8>> {
        v.as_str()
            .map_or_else(|| bad("binary as hex", v), hex_decode)
    }
    fn list_to_json(items: &[u8]) -> Json {
        json!(hex_encode(items))
    }
}

macro_rules! list_elements {
    ($($t:ty),*) => {$(
        impl RowJsonList for $t {}
    )*};
}
list_elements!(i8, i16, i32, i64, u16, u32, f32, f64, bool, String, Date, Timestamp, SystemTime);
impl<T: RowJson> RowJsonList for Option<T> {}
impl<T: RowJsonList> RowJsonList for Vec<T> {}
impl<T: RowJsonList, const N: usize> RowJsonList for [T; N] {}

impl RowJson for Date {
    fn from_json(v: &Json) -> R<Self> {
        match v.as_i64() {
            Some(d) if d.unsigned_abs() < 1 << 40 => Ok(Date::from_days(d)),
            _ => bad("date32 days", v),
        }
    }
    fn to_json(&self) -> Json {
        json!(self.days())
    }
}

impl RowJson for Timestamp {
    fn from_json(v: &Json) -> R<Self> {
        let us: i64 = match v.as_str().and_then(|s| s.parse().ok()) {
            Some(us) => us,
            None => return bad("timestamp microseconds as decimal text", v),
        };
        let nanos = u32::try_from(us.rem_euclid(1_000_000) * 1000).unwrap_or(0);
        Timestamp::new(us.div_euclid(1_000_000), nanos)
            .ok_or_else(|| format!("timestamp {us} out of range"))
    }
    fn to_json(&self) -> Json {
        let us = i128::from(self.seconds()) * 1_000_000 + i128::from(self.nanos() / 1000);
        json!(us.to_string())
    }
}

impl<T: RowJson> RowJson for Option<T> {
    fn from_json(v: &Json) -> R<Self> {
        if v.is_null() {
            Ok(None)
        } else {
            T::from_json(v).map(Some)
        }
    }
    fn to_json(&self) -> Json {
        self.as_ref().map_or(Json::Null, T::to_json)
    }
}

impl<T: RowJsonList> RowJson for Vec<T> {
    fn from_json(v: &Json) -> R<Self> {
        T::list_from_json(v)
    }
    fn to_json(&self) -> Json {
        T::list_to_json(self)
    }
}

impl<T: RowJsonList, const N: usize> RowJson for [T; N] {
    fn from_json(v: &Json) -> R<Self> {
        let items = T::list_from_json(v)?;
        let n = items.len();
        items
            .try_into()
            .map_err(|_| format!("{N} elements expected, got {n}"))
    }
    fn to_json(&self) -> Json {
        T::list_to_json(self)
    }
}

impl<T: RowJsonList + Clone> RowJson for (T, T) {
    fn from_json(v: &Json) -> R<Self> {
        let [a, b] = <[T; 2]>::from_json(v)?;
        Ok((a, b))
    }
    fn to_json(&self) -> Json {
        T::list_to_json(&[self.0.clone(), self.1.clone()])
    }
}

impl<T: RowJsonList + Clone> RowJson for (T, T, T) {
    fn from_json(v: &Json) -> R<Self> {
        let [a, b, c] = <[T; 3]>::from_json(v)?;
        Ok((a, b, c))
    }
    fn to_json(&self) -> Json {
        T::list_to_json(&[self.0.clone(), self.1.clone(), self.2.clone()])
    }
}

impl RowJson for SystemTime {
    fn from_json(v: &Json) -> R<Self> {
        Timestamp::from_json(v)?
            .to_system_time()
            .ok_or_else(|| format!("timestamp {v} out of SystemTime's range"))
    }
    fn to_json(&self) -> Json {
        Timestamp::from(*self).to_json()
    }
}

impl<K: RowJson + Ord, V: RowJson> RowJson for BTreeMap<K, V> {
    fn from_json(v: &Json) -> R<Self> {
        let Some(pairs) = v.as_array() else {
            return bad("a map as [key, value] pairs", v);
        };
        pairs
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([k, v]) => Ok((K::from_json(k)?, V::from_json(v)?)),
                _ => bad("a [key, value] pair", p),
            })
            .collect()
    }
    fn to_json(&self) -> Json {
        Json::Array(
            self.iter()
                .map(|(k, v)| json!([k.to_json(), v.to_json()]))
                .collect(),
        )
    }
}

macro_rules! row_struct {
    ($(#[$attr:meta])* $name:ident { $($field:ident: $t:ty),* $(,)? }) => {
        #[derive(FuryRow, Debug, PartialEq, Clone)]
        $(#[$attr])*
        struct $name { $($field: $t),* }

        impl RowJson for $name {
            fn from_json(v: &Json) -> R<Self> {
                let Some(obj) = v.as_object() else {
                    return bad(stringify!($name), v);
                };
                if let Some(k) = obj.keys().find(|k| ![$(stringify!($field)),*].contains(&k.as_str())) {
                    return Err(format!("{} has no field {k}", stringify!($name)));
                }
                Ok($name { $($field: RowJson::from_json(obj.get(stringify!($field)).unwrap_or(&Json::Null))?),* })
            }
            fn to_json(&self) -> Json {
                let mut m = serde_json::Map::new();
                $(m.insert(stringify!($field).to_string(), self.$field.to_json());)*
                Json::Object(m)
            }
        }

        impl RowJsonList for $name {}
    };
}

row_struct!(#[fury_row(field_order = "name")] Scalars {
    name: Option<String>, id: Option<i64>, score: Option<f64>, active: Option<bool>,
    payload: Option<Vec<u8>>, born: Option<Date>, seen: Option<Timestamp>, empty: Option<String>,
});
row_struct!(#[fury_row(field_order = "name")] Point { y: i64, x: i64, label: Option<String> });
row_struct!(#[fury_row(field_order = "name")] Shape {
    name: String, origin: Option<Point>, points: Vec<Option<Point>>, tags: BTreeMap<String, i64>,
    weights: Vec<f64>, by_id: BTreeMap<i64, Option<Point>>, notes: Vec<Option<String>>,
});
row_struct!(#[fury_row(field_order = "name")] Lists {
    ints: Vec<i64>, strs: Vec<String>, blobs: Vec<Vec<u8>>, flags: Vec<bool>, days: Vec<Date>,
    empty: Vec<i64>, maybe: Vec<Option<i64>>,
});
row_struct!(#[fury_row(field_order = "name")] Maps {
    counts: BTreeMap<String, i64>, names: BTreeMap<i64, String>,
    groups: BTreeMap<String, Vec<i64>>, empty: BTreeMap<String, String>,
});
row_struct!(Widths {
    i8: i8, i16: i16, i32: i32, f32: f32, flag: bool, i8s: Vec<i8>, i16s: Vec<i16>,
    i32s: Vec<Option<i32>>, f32s: Vec<f32>, m32: BTreeMap<i32, f32>,
});
row_struct!(ListOfLists { grid: Vec<Option<Vec<i16>>>, words: Vec<Vec<String>> });
row_struct!(LongArray { id: i32, values: Vec<i32> });
row_struct!(#[fury_row(field_order = "name")] RustModel {
    small: u8, mid: u16, big: u32, maybe: Option<u32>, pair: (i64, i64), names: Vec<String>,
    when: SystemTime, day: Date, mids: Vec<u16>,
});
row_struct!(FixedArrays {
    coords: [f64; 3], digest: [u8; 9], grid: [[i16; 2]; 3], bytes_opt: Vec<Option<u8>>,
    words: (String, String, String), stamps: [SystemTime; 2],
});
row_struct!(Deep { a: DeepA });
row_struct!(DeepA { b: DeepB, k: i32 });
row_struct!(DeepB { c: DeepC });
row_struct!(DeepC { d: String, n: i64 });

macro_rules! wide {
    ($($f:ident),*) => {
        row_struct!(Wide { $($f: Option<i64>),* });
    };
}
wide!(
    f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18,
    f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37,
    f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56,
    f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69
);

fn run<T: FuryRow + RowJson>(req: &Json) -> R<Json> {
    let read = || -> R<T> {
        let bytes = hex_decode(req["hex"].as_str().unwrap_or(""))?;
        T::from_row(&bytes).map_err(|e| e.to_string())
    };
    let value = match req["op"].as_str().unwrap_or("") {
        "decode" => return Ok(json!({"value": read()?.to_json()})),
        "roundtrip" => read()?,
        "encode" => T::from_json(&req["value"])?,
        other => return Err(format!("unknown op {other:?}")),
    };
    let bytes = value.try_to_row().map_err(|e| e.to_string())?;
    Ok(json!({"hex": hex_encode(&bytes)}))
}

/// The request's row, through the mirror of its vector's schema.
pub fn handle(req: &Json) -> R<Json> {
    match req["name"].as_str().unwrap_or("") {
        "row/scalars" | "row/scalars_nulls" => run::<Scalars>(req),
        "row/shape" | "row/shape_null_origin" => run::<Shape>(req),
        "row/lists" => run::<Lists>(req),
        "row/maps" => run::<Maps>(req),
        "row/widths" => run::<Widths>(req),
        "row/list_of_lists" => run::<ListOfLists>(req),
        "row/wide" => run::<Wide>(req),
        "row/long_array" => run::<LongArray>(req),
        "row/nested_deep" => run::<Deep>(req),
        "row/rust_model" | "row/rust_model_zeros" => run::<RustModel>(req),
        "row/fixed_arrays" => run::<FixedArrays>(req),
        other => Ok(json!({"skipped": format!("no row mirror for {other}")})),
    }
}
