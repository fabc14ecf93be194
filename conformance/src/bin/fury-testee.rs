//! fury-rs as a testee of `fury-conformance run` (`conformance/PROTOCOL.md`): decodes to,
//! and encodes from, the dynamic `fury::Value`.
//!
//! `FURY_TESTEE_FAULT=MODE:OP:NAME` makes it misbehave on one request, for the runner's own
//! tests: `flip` (flips the last byte of the answer's hex, or answers a wrong value to a
//! decode), `drop` (never answers), `crash` (exits), `garbage` (answers a frame that is not
//! JSON).

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

fn handle(req: &Json) -> Result<Json, String> {
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

fn main() {
    let fault = std::env::var("FURY_TESTEE_FAULT").unwrap_or_default();
    let mut parts = fault.splitn(3, ':');
    let (mode, fault_op, fault_name) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
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
        let mut answer = handle(&req).unwrap_or_else(|e| json!({ "error": e }));
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
