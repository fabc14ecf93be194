//! The rejection vectors (group `reject`, `generators/reject.py`): each stream is read as its
//! schema, with the Rust type a program that declares that schema uses, and must fail.

use crate::mirrors::structs_mirror;
use fury::{DeserializeOwned, Fury};
use serde_json::Value as Json;
use std::collections::HashMap;

/// What reading a rejection vector gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The reader refused the stream, with this error.
    Refused(String),
    /// The reader read a value: the stream was not rejected.
    Accepted,
    /// The schema names no Rust type here (a vector this reader cannot try).
    NoType(String),
}

fn read<T: DeserializeOwned>(fury: &Fury, bytes: &[u8]) -> Outcome {
    match fury.deserialize::<T>(bytes) {
        Ok(_) => Outcome::Accepted,
        Err(e) => Outcome::Refused(e.to_string()),
    }
}

/// Reads `bytes` as `schema` with a `Fury` of `settings` (the vector's), the structs group's
/// Point and Color registered.
pub fn decode(settings: &Json, schema: &str, bytes: &[u8]) -> Outcome {
    let mut fury = Fury::builder()
        .ref_tracking(settings["ref"].as_bool().unwrap_or(false))
        .compatible(settings["compatible"].as_bool().unwrap_or(true))
        .build();
    structs_mirror::register_all(&mut fury);
    let f = &fury;
    match schema {
        "bool" => read::<bool>(f, bytes),
        "int32" => read::<fury::Fixed<i32>>(f, bytes),
        "varint32" => read::<i32>(f, bytes),
        "varint64" => read::<i64>(f, bytes),
        "tagged_int64" => read::<fury::Tagged<i64>>(f, bytes),
        "float64" => read::<f64>(f, bytes),
        "string" => read::<String>(f, bytes),
        "binary" => read::<Vec<u8>>(f, bytes),
        "int32_array" => read::<Vec<i32>>(f, bytes),
        "list<string>" => read::<Vec<String>>(f, bytes),
        "list<varint32>" => read::<fury::List<i32>>(f, bytes),
        "map<string,string>" => read::<HashMap<String, String>>(f, bytes),
        "duration" => read::<fury::Duration>(f, bytes),
        "timestamp" => read::<fury::Timestamp>(f, bytes),
        "any" => read::<fury::Value>(f, bytes),
        "Point" => read::<structs_mirror::Point>(f, bytes),
        "Color" => read::<structs_mirror::Color>(f, bytes),
        other => Outcome::NoType(format!("no Rust type for schema {other:?} in reject.rs")),
    }
}
