//! The meta-string streams of `vectors/meta/` (`meta/...` vectors): values of enums
//! `MetaProbe<i>` (variants FIRST = 0, SECOND = 1) and of the struct `StructProbe { x }`,
//! registered by name with the namespaces and type names the request gives.

use fury::{DeserializeOwned, Fury, FuryObject, Serialize};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};

macro_rules! probe {
    ($($t:ident),*) => {$(
        #[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
        pub enum $t {
            #[fury(id = 0)]
            First,
            #[fury(id = 1)]
            Second,
        }

        impl Probe for $t {
            const NAME: &'static str = stringify!($t);
            fn node(&self) -> Json {
                let (variant, id) = match self {
                    $t::First => ("FIRST", 0),
                    $t::Second => ("SECOND", 1),
                };
                json!({"type": "enum", "name": Self::NAME, "variant": variant, "id": id})
            }
            fn from_node(node: &Json) -> Result<Self, String> {
                if node["type"] != "enum" || node["name"] != Self::NAME {
                    return Err(format!("a {} node expected, got {node}", Self::NAME));
                }
                match node["variant"].as_str() {
                    Some("FIRST") => Ok($t::First),
                    Some("SECOND") => Ok($t::Second),
                    _ => Err(format!("{} has no variant {}", Self::NAME, node["variant"])),
                }
            }
        }
    )*};
}

trait Probe: Sized + Serialize + DeserializeOwned + FuryObject {
    const NAME: &'static str;
    fn node(&self) -> Json;
    fn from_node(node: &Json) -> Result<Self, String>;
}

probe!(MetaProbe0, MetaProbe1, MetaProbe2);

#[derive(FuryObject, Debug, Clone, PartialEq)]
pub struct StructProbe {
    x: i64,
}

impl Probe for StructProbe {
    const NAME: &'static str = "StructProbe";
    fn node(&self) -> Json {
        json!({"type": "struct", "name": "StructProbe",
               "fields": {"x": {"type": "varint64", "value": self.x.to_string()}}})
    }
    fn from_node(node: &Json) -> Result<Self, String> {
        let x = node["fields"]["x"]["value"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("a StructProbe node expected, got {node}"))?;
        Ok(StructProbe { x })
    }
}

/// The stream's Rust type: one probe, or a tuple of probes in the stream's order.
trait Root: Sized + Serialize + DeserializeOwned {
    fn node(&self) -> Json;
    fn from_node(node: &Json) -> Result<Self, String>;
}

impl<T: Probe> Root for T {
    fn node(&self) -> Json {
        Probe::node(self)
    }
    fn from_node(node: &Json) -> Result<Self, String> {
        <T as Probe>::from_node(node)
    }
}

macro_rules! tuple_root {
    ($(($($t:ident $i:tt),*)),*) => {$(
        impl Root for ($($t,)*) {
            fn node(&self) -> Json {
                json!({"type": "list", "items": [$(Probe::node(&self.$i)),*]})
            }
            fn from_node(node: &Json) -> Result<Self, String> {
                let items = node["items"].as_array().ok_or("a list node expected")?;
                Ok(($(<$t as Probe>::from_node(items.get($i).ok_or("too few items")?)?,)*))
            }
        }
    )*};
}

tuple_root!(
    (MetaProbe0 0, MetaProbe1 1),
    (MetaProbe0 0, MetaProbe1 1, MetaProbe0 2),
    (MetaProbe0 0, MetaProbe1 1, MetaProbe2 2, MetaProbe0 3)
);

fn run<T: Root>(fury: &Fury, req: &Json) -> Result<Json, String> {
    let bytes = || hex_decode(req["hex"].as_str().unwrap_or(""));
    let read = |b: &[u8]| fury.deserialize::<T>(b).map_err(|e| e.to_string());
    let write = |v: &T| {
        fury.serialize(v)
            .map(|b| hex_encode(&b))
            .map_err(|e| e.to_string())
    };
    match req["op"].as_str().unwrap_or("") {
        "decode" => Ok(json!({"value": read(&bytes()?)?.node()})),
        "roundtrip" => Ok(json!({"hex": write(&read(&bytes()?)?)?})),
        "encode" => Ok(json!({"hex": write(&T::from_node(&req["value"])?)?})),
        other => Err(format!("unknown op {other:?}")),
    }
}

fn register<T: FuryObject>(fury: &mut Fury, def: &Json) -> Result<(), String> {
    let reg = &def["register"];
    fury.register_by_name::<T>(
        reg["namespace"].as_str().unwrap_or(""),
        reg["typename"].as_str().unwrap_or(""),
    )
    .map(drop)
    .map_err(|e| e.to_string())
}

/// Answers a `meta/...` request.
pub fn handle(req: &Json) -> Result<Json, String> {
    let mut fury = Fury::builder().compatible(false).build();
    let defs = req["types"].as_array().cloned().unwrap_or_default();
    for d in &defs {
        match d["name"].as_str().unwrap_or("") {
            "MetaProbe0" => register::<MetaProbe0>(&mut fury, d)?,
            "MetaProbe1" => register::<MetaProbe1>(&mut fury, d)?,
            "MetaProbe2" => register::<MetaProbe2>(&mut fury, d)?,
            "StructProbe" => register::<StructProbe>(&mut fury, d)?,
            other => return Err(format!("no Rust type for {other}")),
        }
    }
    let schema = req["schema"].as_str().unwrap_or("");
    // the sequence of a multi-value stream, from the node (encode) or the types (read)
    let value = &req["value"];
    let sequence: Vec<String> = if value.is_object() {
        value["items"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|n| n["name"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    match schema {
        "MetaProbe0" => run::<MetaProbe0>(&fury, req),
        "StructProbe" => run::<StructProbe>(&fury, req),
        "list<any>" => {
            let n = if sequence.is_empty() {
                // reading: the pattern follows from how many types the stream registers
                match defs.len() {
                    2 => peek_len(req)?,
                    3 => 4,
                    k => return Err(format!("no tuple for {k} types")),
                }
            } else {
                sequence.len()
            };
            match n {
                2 => run::<(MetaProbe0, MetaProbe1)>(&fury, req),
                3 => run::<(MetaProbe0, MetaProbe1, MetaProbe0)>(&fury, req),
                4 => run::<(MetaProbe0, MetaProbe1, MetaProbe2, MetaProbe0)>(&fury, req),
                k => Err(format!("no tuple of {k} probes")),
            }
        }
        other => Err(format!("no Rust type for schema {other}")),
    }
}

/// The element count of a root list stream: `01 ff 16 <count>`.
fn peek_len(req: &Json) -> Result<usize, String> {
    let b = hex_decode(req["hex"].as_str().unwrap_or(""))?;
    b.get(3)
        .map(|&n| usize::from(n))
        .ok_or_else(|| "a stream too short for a list".to_string())
}
