//! fury-rs as a testee of `fury-conformance run` (`conformance/PROTOCOL.md`).
//!
//! Built-in, decimal and most out-of-band vectors, and the reference-tracking vectors without
//! structs or enums, go through the dynamic `fury::Value`; unions, extension types and the
//! out-of-band struct through the hand-written mirrors of `kinds.rs`, rows through those of
//! `rows.rs`, the reference-tracking vectors with structs or enums through the derived types
//! of `refs.rs` (graphs of `Rc` / `Rc<RefCell<_>>`, built from the request's node), the
//! untyped-field vectors (group `any`) through the `Box` / `Rc<dyn AnyObject>` mirrors of
//! `fury_conformance::any` (`any.rs`). Struct and enum
//! vectors go through the derived Rust types that `generators/rust_mirrors.py` generates from the
//! vector files (`src/mirrors/*_mirror.rs`), as a Rust port would: `decode` reads the
//! bytes as the vector's Rust type, writes that value in compatible mode and reads it back as
//! a `Value` (which carries the field names) to make the node; `roundtrip` reads and writes
//! the Rust type; `encode` writes the mirror's compiled value after checking that the
//! request's node is that value (a mirror has no node -> Rust value conversion).
//!
//! `FURY_TESTEE_FAULT=MODE:OP:NAME` makes it misbehave on one request, for the runner's own
//! tests (`lax` on every request: it answers a null value to a decode it should refuse): `flip` (flips the last byte of the answer's hex, or answers a wrong value to a
//! decode), `drop` (never answers), `crash` (exits), `garbage` (answers a frame that is not
//! JSON), `nobuffers` (leaves the buffers out of an out-of-band answer), `flipbuffer` (flips
//! the last byte of the last out-of-band buffer), `answer` (answers the hex of
//! `FURY_TESTEE_ANSWER`), `badnode` (answers a node of no valid shape).

use fury::{Fury, Value};
use fury_conformance::node::{node_to_value, value_to_node, Schema, TypeDefs};
use fury_conformance::runner::{read_frame, write_frame};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};
use std::io::Write;

fn fury_for(req: &Json) -> Fury {
    let s = &req["settings"];
    Fury::builder()
        .ref_tracking(s["ref"].as_bool().unwrap_or(false))
        .compatible(s["compatible"].as_bool().unwrap_or(true))
        .build()
}

use fury_conformance::mirrors::{compat_mirror, structs_mirror};

// The reference-tracking types of the fuzz targets (most of the refs mirrors; see refs.rs).
#[allow(dead_code)]
#[path = "../../../../fuzz/src/ref_types.rs"]
mod ref_types;

mod any;
mod kinds;
mod meta;
mod refs;
mod rows;

use fury_conformance::structs::{Case, CompatCase};
use std::collections::HashMap;

struct Mirrors {
    structs: HashMap<&'static str, Case>,
    compat: HashMap<&'static str, CompatCase>,
    same: Fury,
    compat_same: Fury,
    dynamic: Fury,
    refs: refs::RefMirrors,
    any: any::AnyMirrors,
}

impl Mirrors {
    fn new() -> Mirrors {
        let mut same = Fury::builder().compatible(false).build();
        structs_mirror::register_all(&mut same);
        let mut compat_same = Fury::builder().compatible(true).build();
        structs_mirror::register_all(&mut compat_same);
        Mirrors {
            structs: structs_mirror::cases()
                .into_iter()
                .map(|c| (c.name, c))
                .collect(),
            compat: compat_mirror::cases()
                .into_iter()
                .map(|c| (c.name, c))
                .collect(),
            same,
            compat_same,
            dynamic: Fury::builder().compatible(true).build(),
            refs: refs::RefMirrors::new(),
            any: any::AnyMirrors::default(),
        }
    }
}

/// The node of a compatible-mode stream, read as a dynamic `Value`.
fn node_of(mirrors: &Mirrors, req: &Json, compat_bytes: &[u8]) -> Result<Json, String> {
    let value: Value = mirrors
        .dynamic
        .deserialize(compat_bytes)
        .map_err(|e| format!("reading our compatible-mode bytes back as a Value: {e}"))?;
    let schema = Schema::parse(req["schema"].as_str().unwrap_or("any"))?;
    let types = TypeDefs::new(&req["types"]);
    value_to_node(&value, &schema, &types, &registered(req), false)
}

fn registered(req: &Json) -> Vec<String> {
    req["register"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A node without what a comparison ignores: string encodings, `approx`, set and map order.
fn canon(node: &Json) -> Json {
    match node {
        Json::Object(m) => {
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                if k == "encoding" || k == "approx" {
                    continue;
                }
                out.insert(k.clone(), canon(v));
            }
            let key = |x: &Json| x.to_string();
            if out.get("type").and_then(Json::as_str) == Some("set") {
                if let Some(Json::Array(items)) = out.get_mut("items") {
                    items.sort_by_key(key);
                }
            }
            if out.get("type").and_then(Json::as_str) == Some("map") {
                if let Some(Json::Array(entries)) = out.get_mut("entries") {
                    entries.sort_by_key(key);
                }
            }
            Json::Object(out)
        }
        Json::Array(a) => Json::Array(a.iter().map(canon).collect()),
        other => other.clone(),
    }
}

/// `encode` through a mirror: the compiled value, if the request asks for exactly it.
fn encode_compiled(
    mirrors: &Mirrors,
    req: &Json,
    bytes: Vec<u8>,
    node: Json,
) -> Result<Json, String> {
    let _ = mirrors;
    if canon(&node) != canon(&req["value"]) {
        return Err(format!(
            "the request's value is not the value the Rust mirror was generated with:\n  mirror  {node}\n  request {}",
            req["value"]
        ));
    }
    Ok(json!({ "hex": hex_encode(&bytes) }))
}

fn handle_struct(mirrors: &Mirrors, case: &Case, req: &Json) -> Result<Json, String> {
    let bytes = || hex_decode(req["hex"].as_str().unwrap_or(""));
    match req["op"].as_str().unwrap_or("") {
        "decode" => {
            let c = (case.transcode)(&mirrors.same, &bytes()?, &mirrors.compat_same)?;
            Ok(json!({ "value": node_of(mirrors, req, &c)? }))
        }
        "roundtrip" => {
            let out = (case.transcode)(&mirrors.same, &bytes()?, &mirrors.same)?;
            Ok(json!({ "hex": hex_encode(&out) }))
        }
        "encode" => {
            let out = (case.encode)(&mirrors.same)?;
            let c = (case.transcode)(&mirrors.same, &out, &mirrors.compat_same)?;
            encode_compiled(mirrors, req, out, node_of(mirrors, req, &c)?)
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

fn handle_compat(mirrors: &Mirrors, case: &CompatCase, req: &Json) -> Result<Json, String> {
    let bytes = || hex_decode(req["hex"].as_str().unwrap_or(""));
    match req["op"].as_str().unwrap_or("") {
        "decode" => {
            let reader = (case.reader_fury)()?;
            let c = (case.transcode_reader)(&reader, &bytes()?, &reader)?;
            Ok(json!({ "value": node_of(mirrors, req, &c)? }))
        }
        "roundtrip" => {
            let writer = (case.writer_fury)()?;
            let out = (case.transcode_writer)(&writer, &bytes()?, &writer)?;
            Ok(json!({ "hex": hex_encode(&out) }))
        }
        "encode" => {
            let writer = (case.writer_fury)()?;
            let out = (case.encode)(&writer)?;
            let c = (case.transcode_writer)(&writer, &out, &writer)?;
            encode_compiled(mirrors, req, out, node_of(mirrors, req, &c)?)
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

/// A rejection vector: read as its schema's Rust type (`fury_conformance::reject`).
fn handle_reject(req: &Json) -> Result<Json, String> {
    use fury_conformance::reject::{decode, Outcome};
    if req["op"] != "decode" {
        return Err(format!(
            "a rejection vector is only decoded, not {}",
            req["op"]
        ));
    }
    if req["format"] == "row" {
        return reject_row(req);
    }
    match decode(req) {
        Outcome::Refused(e) => Err(e),
        // The value itself is not needed: any value fails the check.
        Outcome::Accepted => Ok(json!({ "value": null })),
        Outcome::NoType(why) => Ok(json!({ "skipped": why })),
    }
}

/// A row to refuse: read with the row mirror of the rows group's vector of the same schema.
fn reject_row(req: &Json) -> Result<Json, String> {
    let path = fury_conformance::groups::group("rows").file_paths()[0].clone();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Json = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let base = doc["vectors"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["schema"] == req["row_schema"]))
        .and_then(|v| v["name"].as_str())
        .ok_or("no row mirror for this row schema")?;
    let mut r = req.clone();
    r["name"] = json!(base);
    rows::handle(&r)
}

fn handle(mirrors: &Mirrors, req: &Json) -> Result<Json, String> {
    let name = req["name"].as_str().unwrap_or("");
    if req["group"] == "meta" {
        return meta::handle(req);
    }
    if req["group"] == "reject" {
        return handle_reject(req);
    }
    if req["format"] == "row" {
        return rows::handle(req);
    }
    if !req["format"].is_null() && req["format"] != "xlang" {
        return Err(format!("unknown format {}", req["format"]));
    }
    if matches!(req["group"].as_str(), Some("union" | "ext" | "oob")) {
        if let Some(answer) = kinds::handle(req) {
            return answer;
        }
    }
    if req["settings"]["out_of_band"] == true {
        return kinds::handle_oob_value(req);
    }
    if let Some(answer) = mirrors.refs.handle(req) {
        return answer;
    }
    if let Some(answer) = mirrors.any.handle(req) {
        return answer;
    }
    if let Some(case) = mirrors.structs.get(name) {
        return handle_struct(mirrors, case, req);
    }
    if let Some(case) = mirrors.compat.get(name) {
        return handle_compat(mirrors, case, req);
    }
    let fury = fury_for(req);
    let hex_in = || hex_decode(req["hex"].as_str().unwrap_or(""));
    match req["op"].as_str().unwrap_or("") {
        "decode" => {
            let value: Value = fury.deserialize(&hex_in()?).map_err(|e| e.to_string())?;
            let schema = Schema::parse(req["schema"].as_str().unwrap_or("any"))?;
            let registered: Vec<String> = req["register"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let types = TypeDefs::new(&req["types"]);
            let track = req["settings"]["ref"].as_bool().unwrap_or(false);
            let node = value_to_node(&value, &schema, &types, &registered, track)?;
            Ok(json!({ "value": node }))
        }
        "encode" => {
            let value = node_to_value(&req["value"])?;
            let bytes = fury.serialize(&value).map_err(|e| e.to_string())?;
            Ok(json!({ "hex": hex_encode(&bytes) }))
        }
        "roundtrip" => {
            let value: Value = fury.deserialize(&hex_in()?).map_err(|e| e.to_string())?;
            let bytes = fury.serialize(&value).map_err(|e| e.to_string())?;
            Ok(json!({ "hex": hex_encode(&bytes) }))
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

const USAGE: &str = "usage: fury-testee
  fury-rs as a testee of `fury-conformance run`: reads request frames on stdin and writes
  response frames on stdout (conformance/PROTOCOL.md); it takes no arguments.
  Run it through the runner: fury-conformance run --testee target/debug/fury-testee";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    if let Some(a) = args.first() {
        eprintln!("fury-testee: unexpected argument {a:?}\n{USAGE}");
        std::process::exit(2);
    }
    let fault = std::env::var("FURY_TESTEE_FAULT").unwrap_or_default();
    let mut parts = fault.splitn(3, ':');
    let (mode, fault_op, fault_name) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let mirrors = Mirrors::new();
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    loop {
        let req = match read_frame(&mut stdin) {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(e) => {
                eprintln!("fury-testee: {e}");
                std::process::exit(2);
            }
        };
        if req["op"] == "shutdown" {
            return;
        }
        let hit = !mode.is_empty() && req["op"] == fault_op && req["name"] == fault_name;
        let mut answer = handle(&mirrors, &req).unwrap_or_else(|e| json!({ "error": e }));
        if mode == "lax" && req["op"] == "decode" && answer.get("error").is_some() {
            // A reader that accepts everything: a null where it should have refused.
            answer = json!({ "value": { "type": "null" } });
        }
        if hit {
            match mode {
                "crash" => std::process::exit(3),
                "drop" => continue,
                "garbage" => {
                    let _ = stdout.write_all(&5u32.to_le_bytes());
                    let _ = stdout.write_all(b"{oops");
                    let _ = stdout.flush();
                    continue;
                }
                "nobuffers" => {
                    if let Some(m) = answer.as_object_mut() {
                        m.remove("buffers");
                    }
                }
                "flipbuffer" => {
                    let last = answer["buffers"].as_array().and_then(|b| b.last()).cloned();
                    if let Some(h) = last.as_ref().and_then(Json::as_str) {
                        let mut b = hex_decode(h).unwrap_or_default();
                        if let Some(x) = b.last_mut() {
                            *x ^= 0x01;
                        }
                        if let Some(slot) =
                            answer["buffers"].as_array_mut().and_then(|a| a.last_mut())
                        {
                            *slot = json!(hex_encode(&b));
                        }
                    }
                }
                "badnode" => {
                    answer = json!({ "value": { "type": "list", "items": 5 } });
                }
                "answer" => {
                    // the bytes another writer would have answered (FURY_TESTEE_ANSWER)
                    let hex = std::env::var("FURY_TESTEE_ANSWER").unwrap_or_default();
                    answer = json!({ "hex": hex });
                }
                "flip" => {
                    if let Some(h) = answer["hex"].as_str() {
                        let mut b = hex_decode(h).unwrap_or_default();
                        if let Some(last) = b.last_mut() {
                            *last ^= 0x01;
                        }
                        answer = json!({ "hex": hex_encode(&b) });
                    } else if answer.get("value").is_some() {
                        answer = json!({ "value": {"type": "string", "value": "flipped"} });
                    }
                }
                _ => {}
            }
        }
        if write_frame(&mut stdout, &answer).is_err() {
            return;
        }
    }
}
