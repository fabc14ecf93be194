//! The rejection vectors (group `reject`, `generators/reject.py`): each stream is read as its
//! schema, with the Rust type a program that declares that schema uses, and must fail.

use crate::mirrors::structs_mirror;
use crate::union_types::{Animal, Cat, Dog};
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
    /// The vector names no Rust type here (rows: `fury-testee` reads them with its row
    /// mirrors).
    NoType(String),
}

/// Reads a vector (or a testee request: both have `settings`, `schema`, `hex` and, out of
/// band, `buffers`) as its schema's Rust type, with the structs group's Point, Color and
/// Shade and the union group's Animal registered.
pub fn decode(v: &Json) -> Outcome {
    if v["format"] == "row" {
        return Outcome::NoType("a row: fury-testee reads it with its row mirrors".into());
    }
    let bytes = match crate::hex_decode(v["hex"].as_str().unwrap_or("")) {
        Ok(b) => b,
        Err(e) => return Outcome::NoType(format!("hex: {e}")),
    };
    let buffers: Option<Vec<Vec<u8>>> = v["buffers"].as_array().map(|b| {
        b.iter()
            .filter_map(|h| crate::hex_decode(h.as_str().unwrap_or("")).ok())
            .collect()
    });
    let settings = &v["settings"];
    let mut fury = Fury::builder()
        .ref_tracking(settings["ref"].as_bool().unwrap_or(false))
        .compatible(settings["compatible"].as_bool().unwrap_or(true))
        .build();
    structs_mirror::register_all(&mut fury);
    let registered = fury
        .register::<Dog>()
        .and_then(|f| f.register::<Cat>())
        .and_then(|f| f.register::<Animal>());
    if let Err(e) = registered {
        return Outcome::NoType(format!("registering Animal: {e}"));
    }
    let reader = Reader {
        fury: &fury,
        bytes: &bytes,
        buffers: buffers.as_deref(),
    };
    match v["schema"].as_str().unwrap_or("") {
        "bool" => reader.read::<bool>(),
        "int32" => reader.read::<fury::Fixed<i32>>(),
        "varint32" => reader.read::<i32>(),
        "varint64" => reader.read::<i64>(),
        "tagged_int64" => reader.read::<fury::Tagged<i64>>(),
        "float64" => reader.read::<f64>(),
        "string" => reader.read::<String>(),
        "binary" => reader.read::<Vec<u8>>(),
        "int32_array" => reader.read::<Vec<i32>>(),
        "list<string>" => reader.read::<Vec<String>>(),
        "list<binary>" => reader.read::<Vec<Vec<u8>>>(),
        "list<varint32>" => reader.read::<fury::List<i32>>(),
        "map<string,string>" => reader.read::<HashMap<String, String>>(),
        "duration" => reader.read::<fury::Duration>(),
        "timestamp" => reader.read::<fury::Timestamp>(),
        "any" => reader.read::<fury::Value>(),
        "Point" => reader.read::<structs_mirror::Point>(),
        "Color" => reader.read::<structs_mirror::Color>(),
        "Shade" => reader.read::<structs_mirror::Shade>(),
        "Animal" => reader.read::<Animal>(),
        other => Outcome::NoType(format!("no Rust type for schema {other:?} in reject.rs")),
    }
}

struct Reader<'a> {
    fury: &'a Fury,
    bytes: &'a [u8],
    buffers: Option<&'a [Vec<u8>]>,
}

impl Reader<'_> {
    fn read<T: DeserializeOwned>(&self) -> Outcome {
        let r = match self.buffers {
            Some(b) => {
                let slices: Vec<&[u8]> = b.iter().map(Vec::as_slice).collect();
                self.fury.deserialize_with_buffers::<T>(self.bytes, &slices)
            }
            None => self.fury.deserialize::<T>(self.bytes),
        };
        match r {
            Ok(_) => Outcome::Accepted,
            Err(e) => Outcome::Refused(e.to_string()),
        }
    }
}
