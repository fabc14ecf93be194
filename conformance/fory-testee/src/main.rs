//! The official Rust crate `fory` 1.7.7 as a testee of `fury-conformance run`
//! (`conformance/PROTOCOL.md`), over the built-in vectors: each schema maps to the Rust type
//! a user of the crate would declare (`list<varint64>` is `Vec<i64>`, `set<T>` is
//! `BTreeSet<T>`, `map<K,V>` is `BTreeMap<K,V>` (sorted, so that the bytes do not depend on
//! a hash seed), `option<T>` is `Option<T>`), and the crate
//! reads and writes that type. Schemas with no such type (fixed-width and tagged integers,
//! `any`, sets or map keys of floats), and the struct groups (`any` among them), are answered
//! `skipped`. Its failure list
//! (`conformance/failures/fory.txt`) records where the crate and pyfory 1.7.7 differ.

use fory::{BFloat16, Date, Duration, Float16, Fory, Serializer, Timestamp};
use fury_conformance::node::Schema;
use fury_conformance::runner::{read_frame, write_frame};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};

type R<T> = Result<T, String>;

/// A Rust value as a node (the schema names the wire kind where the type alone does not)
/// and back.
trait Node: Sized {
    fn to_node(&self, s: &Schema) -> Json;
    fn from_node(n: &Json) -> R<Self>;
}

fn kind<'a>(s: &'a Schema, default: &'a str) -> &'a str {
    match s {
        Schema::Named(k) => k,
        _ => default,
    }
}

macro_rules! int_node {
    ($($t:ty => $k:literal),*) => {$(
        impl Node for $t {
            fn to_node(&self, s: &Schema) -> Json {
                json!({"type": kind(s, $k), "value": self.to_string()})
            }
            fn from_node(n: &Json) -> R<Self> {
                n["value"].as_str().and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("a {} node expected, got {n}", stringify!($t)))
            }
        }
    )*};
}
int_node!(i8 => "int8", i16 => "int16", i32 => "varint32", i64 => "varint64",
          u8 => "uint8", u16 => "uint16", u32 => "var_uint32", u64 => "var_uint64");

fn bits(n: &Json) -> R<u64> {
    n["bits"]
        .as_str()
        .and_then(|b| u64::from_str_radix(b, 16).ok())
        .ok_or_else(|| format!("a float node expected, got {n}"))
}

macro_rules! float_node {
    ($($t:ty => $k:literal, $w:literal, $to:expr, $from:expr),*) => {$(
        impl Node for $t {
            fn to_node(&self, _: &Schema) -> Json {
                let to: fn(&$t) -> u64 = $to;
                json!({"type": $k, "bits": format!("{:0w$x}", to(self), w = $w)})
            }
            fn from_node(n: &Json) -> R<Self> {
                let from: fn(u64) -> $t = $from;
                Ok(from(bits(n)?))
            }
        }
    )*};
}
float_node!(
    f32 => "float32", 8, |x| u64::from(x.to_bits()), |b| f32::from_bits(b as u32),
    f64 => "float64", 16, |x| x.to_bits(), f64::from_bits,
    Float16 => "float16", 4, |x| u64::from(x.to_bits()), |b| Float16::from_bits(b as u16),
    BFloat16 => "bfloat16", 4, |x| u64::from(x.to_bits()), |b| BFloat16::from_bits(b as u16)
);

impl Node for bool {
    fn to_node(&self, _: &Schema) -> Json {
        json!({"type": "bool", "value": self})
    }
    fn from_node(n: &Json) -> R<Self> {
        n["value"]
            .as_bool()
            .ok_or_else(|| format!("a bool node expected, got {n}"))
    }
}

impl Node for String {
    fn to_node(&self, _: &Schema) -> Json {
        json!({"type": "string", "value": self})
    }
    fn from_node(n: &Json) -> R<Self> {
        n["value"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| format!("a string node expected, got {n}"))
    }
}

fn int_of(n: &Json, key: &str) -> R<i64> {
    n[key]
        .as_str()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{key} of {n}"))
}

impl Node for Date {
    fn to_node(&self, _: &Schema) -> Json {
        json!({"type": "date", "days": self.epoch_days()})
    }
    fn from_node(n: &Json) -> R<Self> {
        n["days"]
            .as_i64()
            .map(Date::from_epoch_days)
            .ok_or_else(|| format!("a date node expected, got {n}"))
    }
}

impl Node for Timestamp {
    fn to_node(&self, _: &Schema) -> Json {
        json!({"type": "timestamp", "seconds": self.seconds().to_string(), "nanos": self.subsec_nanos()})
    }
    fn from_node(n: &Json) -> R<Self> {
        let nanos = n["nanos"].as_u64().ok_or("timestamp nanos")? as u32;
        Timestamp::new(int_of(n, "seconds")?, nanos).map_err(|e| e.to_string())
    }
}

impl Node for Duration {
    fn to_node(&self, _: &Schema) -> Json {
        json!({"type": "duration", "seconds": self.seconds().to_string(), "nanos": self.subsec_nanos()})
    }
    fn from_node(n: &Json) -> R<Self> {
        let nanos = n["nanos"].as_u64().ok_or("duration nanos")? as u32;
        Duration::from_normalized(int_of(n, "seconds")?, nanos).map_err(|e| e.to_string())
    }
}

impl<T: Node> Node for Option<T> {
    fn to_node(&self, s: &Schema) -> Json {
        let inner = match s {
            Schema::Unary("option", t) => t.as_ref(),
            s => s,
        };
        match self {
            None => json!({"type": "null"}),
            Some(v) => v.to_node(inner),
        }
    }
    fn from_node(n: &Json) -> R<Self> {
        if n["type"] == "null" {
            Ok(None)
        } else {
            T::from_node(n).map(Some)
        }
    }
}

/// The element nodes of a list, set, dense array or binary node.
fn elements(n: &Json) -> R<Vec<Json>> {
    let ty = n["type"].as_str().unwrap_or("");
    if let Some(items) = n["items"].as_array() {
        return Ok(items.clone());
    }
    if ty == "binary" {
        let b = hex_decode(n["hex"].as_str().unwrap_or(""))?;
        return Ok(b
            .iter()
            .map(|x| json!({"type": "uint8", "value": x.to_string()}))
            .collect());
    }
    let elem = ty
        .strip_suffix("_array")
        .ok_or_else(|| format!("a list node expected, got {n}"))?;
    if let Some(values) = n["values"].as_array() {
        return Ok(values
            .iter()
            .map(|v| json!({"type": elem, "value": v}))
            .collect());
    }
    let bits = n["bits"]
        .as_array()
        .ok_or_else(|| format!("array node without values: {n}"))?;
    Ok(bits
        .iter()
        .map(|b| json!({"type": elem, "bits": b}))
        .collect())
}

impl<T: Node> Node for Vec<T> {
    fn to_node(&self, s: &Schema) -> Json {
        match s {
            Schema::Named(k) if k == "binary" => {
                let bytes: Vec<u8> = self
                    .iter()
                    .filter_map(|x| {
                        x.to_node(&Schema::Any)["value"]
                            .as_str()
                            .and_then(|v| v.parse().ok())
                    })
                    .collect();
                json!({"type": "binary", "hex": hex_encode(&bytes)})
            }
            Schema::Named(k) => {
                let elem = Schema::Named(k.trim_end_matches("_array").to_string());
                let nodes: Vec<Json> = self.iter().map(|x| x.to_node(&elem)).collect();
                let floats = ["float16", "bfloat16", "float32", "float64"];
                let key = if floats.iter().any(|f| k.starts_with(f)) {
                    "bits"
                } else {
                    "values"
                };
                let vals: Vec<Json> = nodes
                    .iter()
                    .map(|n| n[if key == "bits" { "bits" } else { "value" }].clone())
                    .collect();
                json!({"type": k, key: vals})
            }
            _ => {
                let elem = match s {
                    Schema::Unary(_, e) => e.as_ref().clone(),
                    _ => Schema::Any,
                };
                json!({"type": "list", "items": self.iter().map(|x| x.to_node(&elem)).collect::<Vec<_>>()})
            }
        }
    }
    fn from_node(n: &Json) -> R<Self> {
        elements(n)?.iter().map(T::from_node).collect()
    }
}

impl<T: Node + Ord> Node for BTreeSet<T> {
    fn to_node(&self, s: &Schema) -> Json {
        let elem = match s {
            Schema::Unary(_, e) => e.as_ref().clone(),
            _ => Schema::Any,
        };
        json!({"type": "set", "items": self.iter().map(|x| x.to_node(&elem)).collect::<Vec<_>>()})
    }
    fn from_node(n: &Json) -> R<Self> {
        elements(n)?.iter().map(T::from_node).collect()
    }
}

impl<K: Node + Ord, V: Node> Node for BTreeMap<K, V> {
    fn to_node(&self, s: &Schema) -> Json {
        let (ks, vs) = match s {
            Schema::Map(k, v) => (k.as_ref().clone(), v.as_ref().clone()),
            _ => (Schema::Any, Schema::Any),
        };
        let entries: Vec<Json> = self
            .iter()
            .map(|(k, v)| json!([k.to_node(&ks), v.to_node(&vs)]))
            .collect();
        json!({"type": "map", "entries": entries})
    }
    fn from_node(n: &Json) -> R<Self> {
        let entries = n["entries"]
            .as_array()
            .ok_or_else(|| format!("a map node expected, got {n}"))?;
        entries
            .iter()
            .map(|e| Ok((K::from_node(&e[0])?, V::from_node(&e[1])?)))
            .collect()
    }
}

fn run<T: Node + Serializer<Target = T>>(fory: &Fory, req: &Json) -> R<Json> {
    let schema = Schema::parse(req["schema"].as_str().unwrap_or(""))?;
    let bytes = || hex_decode(req["hex"].as_str().unwrap_or(""));
    let read = |b: &[u8]| fory.deserialize::<T>(b).map_err(|e| e.to_string());
    let write = |v: &T| {
        fory.serialize(v)
            .map(|b| hex_encode(&b))
            .map_err(|e| e.to_string())
    };
    match req["op"].as_str().unwrap_or("") {
        "decode" => Ok(json!({"value": read(&bytes()?)?.to_node(&schema)})),
        "roundtrip" => Ok(json!({"hex": write(&read(&bytes()?)?)?})),
        "encode" => Ok(json!({"hex": write(&T::from_node(&req["value"])?)?})),
        other => Err(format!("unknown op {other:?}")),
    }
}

macro_rules! schemas {
    ($fory:ident, $req:ident; $($s:literal => $t:ty),* $(,)?) => {
        match $req["schema"].as_str().unwrap_or("") {
            $($s => run::<$t>($fory, $req),)*
            s => Ok(json!({"skipped": format!(
                "no Rust type of the fory crate for {s} (fixed-width or tagged integers, `any`, \
                 float keys, or a UINT8_ARRAY, which Vec<u8> is not)"
            )})),
        }
    };
}

fn handle(req: &Json) -> R<Json> {
    if req["group"] == "any" {
        return Ok(
            json!({"skipped": "the untyped-field vectors are not run: the crate's Box<dyn Any> \
            fields refuse pyfory's lists, dicts and None (spec/DISAGREEMENTS.md section 50); \
            fory-testee/tests/any_field.rs checks the values it accepts"}),
        );
    }
    if req["types"].is_array() {
        return Ok(json!({"skipped": "struct and enum vectors have no fory-derived mirrors yet"}));
    }
    let s = &req["settings"];
    let fory = Fory::builder()
        .xlang(true)
        .track_ref(s["ref"].as_bool().unwrap_or(false))
        .compatible(s["compatible"].as_bool().unwrap_or(true))
        .build();
    let fory = &fory;
    schemas!(fory, req;
        "none" => Option<String>,
        "bool" => bool, "int8" => i8, "int16" => i16, "varint32" => i32, "varint64" => i64,
        "uint8" => u8, "uint16" => u16, "var_uint32" => u32, "var_uint64" => u64,
        "float16" => Float16, "bfloat16" => BFloat16, "float32" => f32, "float64" => f64,
        "string" => String, "binary" => Vec<u8>,
        "date" => Date, "timestamp" => Timestamp, "duration" => Duration,
        "bool_array" => Vec<bool>, "int8_array" => Vec<i8>, "int16_array" => Vec<i16>,
        "int32_array" => Vec<i32>, "int64_array" => Vec<i64>, "uint16_array" => Vec<u16>,
        "uint32_array" => Vec<u32>, "uint64_array" => Vec<u64>, "float16_array" => Vec<Float16>,
        "bfloat16_array" => Vec<BFloat16>, "float32_array" => Vec<f32>, "float64_array" => Vec<f64>,
        "list<varint64>" => Vec<i64>, "list<string>" => Vec<String>, "list<float64>" => Vec<f64>,
        "list<bool>" => Vec<bool>, "list<binary>" => Vec<Vec<u8>>,
        "list<option<varint64>>" => Vec<Option<i64>>, "list<option<string>>" => Vec<Option<String>>,
        "list<option<bool>>" => Vec<Option<bool>>,
        "list<list<varint64>>" => Vec<Vec<i64>>, "list<list<string>>" => Vec<Vec<String>>,
        "list<list<list<varint64>>>" => Vec<Vec<Vec<i64>>>,
        "list<map<string,varint64>>" => Vec<BTreeMap<String, i64>>,
        "list<set<varint64>>" => Vec<BTreeSet<i64>>,
        "list<date>" => Vec<Date>, "list<duration>" => Vec<Duration>, "list<timestamp>" => Vec<Timestamp>,
        "set<varint64>" => BTreeSet<i64>, "set<string>" => BTreeSet<String>, "set<bool>" => BTreeSet<bool>,
        "set<option<varint64>>" => BTreeSet<Option<i64>>, "set<date>" => BTreeSet<Date>,
        "map<string,varint64>" => BTreeMap<String, i64>, "map<string,string>" => BTreeMap<String, String>,
        "map<varint64,string>" => BTreeMap<i64, String>, "map<varint64,varint64>" => BTreeMap<i64, i64>,
        "map<string,float64>" => BTreeMap<String, f64>, "map<string,bool>" => BTreeMap<String, bool>,
        "map<string,option<varint64>>" => BTreeMap<String, Option<i64>>,
        "map<option<string>,varint64>" => BTreeMap<Option<String>, i64>,
        "map<option<string>,option<varint64>>" => BTreeMap<Option<String>, Option<i64>>,
        "map<string,list<varint64>>" => BTreeMap<String, Vec<i64>>,
        "map<string,map<string,varint64>>" => BTreeMap<String, BTreeMap<String, i64>>,
        "map<varint64,set<varint64>>" => BTreeMap<i64, BTreeSet<i64>>,
        "map<bool,varint64>" => BTreeMap<bool, i64>, "map<date,string>" => BTreeMap<Date, String>,
        "map<string,binary>" => BTreeMap<String, Vec<u8>>, "map<string,int32_array>" => BTreeMap<String, Vec<i32>>,
        "map<varint64,bool>" => BTreeMap<i64, bool>,
        "list<float64_array>" => Vec<Vec<f64>>, "list<int32_array>" => Vec<Vec<i32>>,
        "list<list<list<list<varint64>>>>" => Vec<Vec<Vec<Vec<i64>>>>,
        "list<map<string,list<varint64>>>" => Vec<BTreeMap<String, Vec<i64>>>,
        "list<map<string,option<varint64>>>" => Vec<BTreeMap<String, Option<i64>>>,
        "list<map<varint64,list<bool>>>" => Vec<BTreeMap<i64, Vec<bool>>>,
        "list<map<varint64,set<varint64>>>" => Vec<BTreeMap<i64, BTreeSet<i64>>>,
        "map<string,list<date>>" => BTreeMap<String, Vec<Date>>,
        "map<string,list<float64>>" => BTreeMap<String, Vec<f64>>,
        "map<string,list<list<varint64>>>" => BTreeMap<String, Vec<Vec<i64>>>,
        "map<string,list<map<string,list<string>>>>" => BTreeMap<String, Vec<BTreeMap<String, Vec<String>>>>,
        "map<string,list<option<varint64>>>" => BTreeMap<String, Vec<Option<i64>>>,
        "map<string,map<string,list<string>>>" => BTreeMap<String, BTreeMap<String, Vec<String>>>,
        "map<string,map<string,map<string,varint64>>>" => BTreeMap<String, BTreeMap<String, BTreeMap<String, i64>>>,
        "map<varint64,list<map<string,option<varint64>>>>" => BTreeMap<i64, Vec<BTreeMap<String, Option<i64>>>>,
    )
}

fn main() {
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    while let Ok(Some(req)) = read_frame(&mut stdin) {
        if req["op"] == "shutdown" {
            return;
        }
        let answer = handle(&req).unwrap_or_else(|e| json!({ "error": e }));
        if write_frame(&mut stdout, &answer).is_err() {
            return;
        }
    }
}
