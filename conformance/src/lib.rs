//! Runs the language-neutral conformance vectors against the `fury` crate.
//!
//! A vector (see `conformance/README.md`) holds a schema, an expected value as a typed JSON
//! node, and the exact bytes pyfory 1.7.7 wrote. For each vector this crate:
//!
//! 1. decodes the bytes as a dynamic [`Value`] and compares it with the expected node;
//! 2. re-encodes that `Value` and compares the bytes (when the vector says our writer makes
//!    the same choices as pyfory), or decodes them again otherwise;
//! 3. decodes the bytes as the static Rust type that the schema names, compares it with the
//!    expected value built from the node, re-encodes it, and checks the bytes the same way;
//! 4. records the bytes it produced, so `check_peer.py` can have pyfory decode them.
//!
//! [`runner`] is `fury-conformance run`, which drives any implementation through the
//! vectors over the testee protocol (`conformance/PROTOCOL.md`).

pub mod any;
pub mod borrowed;
pub mod groups;
pub mod mirrors;
pub mod node;
pub mod reject;
pub mod runner;
pub mod structs;
mod typed;
pub mod union_types;

use fury::{Fury, Value};
use serde_json::Value as Json;
use std::path::Path;

pub use node::node_to_value;

/// The `format` of a vector file of values (`README.md`, "Vector file format").
pub const VECTOR_FORMAT: &str = "fury-conformance/1";

/// One vector from a vector file.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Unique name, `group/what`.
    pub name: String,
    /// Declared type expression.
    pub schema: String,
    /// Expected value node.
    pub value: Json,
    /// Exact bytes pyfory wrote.
    pub bytes: Vec<u8>,
    /// Whether our writer is expected to produce exactly `bytes`.
    pub writer_same: bool,
    /// Settings the bytes were written with.
    pub settings: Json,
}

/// Bytes this implementation produced for one vector along one path.
#[derive(Debug, Clone)]
pub struct Produced {
    /// Vector name.
    pub name: String,
    /// `typed` or `value`.
    pub path: &'static str,
    /// The bytes, or the reason there are none.
    pub outcome: std::result::Result<Vec<u8>, String>,
}

/// Outcome of checking all vectors.
#[derive(Debug, Default)]
pub struct Report {
    /// Vectors checked.
    pub vectors: usize,
    /// Failures, one line each.
    pub failures: Vec<String>,
    /// Bytes produced for the live check.
    pub produced: Vec<Produced>,
    /// Vectors whose typed re-encoding differs in wire kind or order (checked by round trip).
    pub typed_kind_differs: Vec<String>,
    /// Vectors per group.
    pub per_group: std::collections::BTreeMap<String, usize>,
}

/// Bytes of lower-case or upper-case hex text.
pub fn hex_decode(s: &str) -> std::result::Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd hex length {}", s.len()));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// Lower-case hex of `b`.
pub fn hex_encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Loads every `*.json` vector file in `dir` (sorted by file name).
pub fn load_vectors(dir: &Path) -> std::result::Result<Vec<Vector>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let doc: Json = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        if doc["format"] != VECTOR_FORMAT {
            return Err(format!("{}: unknown format {}", f.display(), doc["format"]));
        }
        let vectors = doc["vectors"]
            .as_array()
            .ok_or_else(|| format!("{}: no vectors array", f.display()))?;
        for v in vectors {
            let field = |k: &str| {
                v[k].as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("{}: vector without string field {k}: {v}", f.display()))
            };
            out.push(Vector {
                name: field("name")?,
                schema: field("schema")?,
                value: v["value"].clone(),
                bytes: hex_decode(&field("hex")?)?,
                writer_same: v["writer_same"].as_bool().unwrap_or(false),
                settings: v["settings"].clone(),
            });
        }
    }
    Ok(out)
}

/// The `Fury` instance matching a vector's settings.
pub fn fury_for(v: &Vector) -> Fury {
    Fury::builder()
        .ref_tracking(v.settings["ref"].as_bool().unwrap_or(false))
        .compatible(v.settings["compatible"].as_bool().unwrap_or(true))
        .build()
}

/// Checks every vector; see the crate documentation for what is checked.
pub fn run(vectors: &[Vector]) -> Report {
    let mut report = Report::default();
    for v in vectors {
        report.vectors += 1;
        let group = v.name.split('/').next().unwrap_or("").to_string();
        *report.per_group.entry(group).or_default() += 1;
        let fury = fury_for(v);
        let expected = match node_to_value(&v.value) {
            Ok(e) => e,
            Err(e) => {
                report
                    .failures
                    .push(format!("{}: bad expected node: {e}", v.name));
                continue;
            }
        };
        match check_value_path(&fury, v, &expected) {
            Ok(bytes) => report.produced.push(Produced {
                name: v.name.clone(),
                path: "value",
                outcome: Ok(bytes),
            }),
            Err(e) => report.failures.push(format!("{} [value]: {e}", v.name)),
        }
        match typed::check(&fury, v, &expected) {
            Ok(typed::Outcome::Exact(bytes)) => report.produced.push(Produced {
                name: v.name.clone(),
                path: "typed",
                outcome: Ok(bytes),
            }),
            Ok(typed::Outcome::KindDiffers(why)) => {
                report.typed_kind_differs.push(format!("{}: {why}", v.name));
                report.produced.push(Produced {
                    name: v.name.clone(),
                    path: "typed",
                    outcome: Err(why),
                });
            }
            Ok(typed::Outcome::NoStaticType(why)) => report.produced.push(Produced {
                name: v.name.clone(),
                path: "typed",
                outcome: Err(why),
            }),
            Err(e) => report
                .failures
                .push(format!("{} [typed {}]: {e}", v.name, v.schema)),
        }
    }
    report
}

fn check_value_path(fury: &Fury, v: &Vector, expected: &Value) -> Result<Vec<u8>, String> {
    let decoded: Value = fury
        .deserialize(&v.bytes)
        .map_err(|e| format!("decoding pyfory bytes as Value: {e}"))?;
    if !decoded.bitwise_eq(expected) {
        return Err(format!("decoded {decoded:?}, expected {expected:?}"));
    }
    let again = fury
        .serialize(&decoded)
        .map_err(|e| format!("re-encoding: {e}"))?;
    if v.writer_same {
        if again != v.bytes {
            return Err(format!(
                "re-encoded bytes differ:\n  ours   {}\n  pyfory {}",
                hex_encode(&again),
                hex_encode(&v.bytes)
            ));
        }
    } else {
        let back: Value = fury
            .deserialize(&again)
            .map_err(|e| format!("decoding our re-encoding: {e}"))?;
        if !back.bitwise_eq(expected) {
            return Err(format!("our re-encoding decodes to {back:?}"));
        }
    }
    Ok(again)
}

/// Writes the peer-bytes file that `conformance/check_peer.py` reads.
pub fn write_peer_bytes(report: &Report, out: &Path) -> std::io::Result<()> {
    let results: Vec<Json> = report
        .produced
        .iter()
        .map(|p| match &p.outcome {
            Ok(b) => serde_json::json!({"name": p.name, "path": p.path, "hex": hex_encode(b)}),
            Err(why) => serde_json::json!({"name": p.name, "path": p.path, "skipped": why}),
        })
        .collect();
    let doc = serde_json::json!({
        "format": "fury-peer-bytes/1",
        "producer": concat!("fury-rs ", env!("CARGO_PKG_VERSION")),
        "results": results,
    });
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, serde_json::to_string_pretty(&doc)? + "\n")
}
