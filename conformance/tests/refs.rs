//! The reference-tracking vectors (`conformance/vectors/refs/`, pyfory `ref=True`) through
//! the dynamic `Value`: every vector without structs decodes to the expected graph (back
//! references as `Value::Ref(id)`, ids in REF_VALUE order) and re-encodes to pyfory's exact
//! bytes. Struct vectors are covered by typed tests in `fury-rs/tests/refs.rs`.

use fury::{Fury, Value};
use fury_conformance::{
    hex_encode, load_vectors, node_to_value, write_peer_bytes, Produced, Report,
};

fn has_struct(node: &serde_json::Value) -> bool {
    match node {
        serde_json::Value::Object(m) => {
            m.get("type")
                .and_then(|t| t.as_str())
                .is_some_and(|t| t == "struct" || t == "enum")
                || m.values().any(has_struct)
        }
        serde_json::Value::Array(a) => a.iter().any(has_struct),
        _ => false,
    }
}

#[test]
fn ref_vectors_decode_and_reencode_byte_for_byte() {
    let dir = fury_conformance::groups::group("refs").dir();
    let vectors = load_vectors(&dir).expect("refs vectors load");
    let mut checked = 0;
    let mut with_structs = 0;
    let mut failures = Vec::new();
    let mut report = Report::default();
    for v in &vectors {
        if has_struct(&v.value) {
            with_structs += 1;
            report.produced.push(Produced {
                name: v.name.clone(),
                path: "value",
                outcome: Err(
                    "holds structs: covered by the typed tests in fury-rs/tests/refs.rs".into(),
                ),
            });
            continue;
        }
        let fury = Fury::builder()
            .ref_tracking(true)
            .compatible(v.settings["compatible"].as_bool().unwrap_or(true))
            .build();
        let expected = match node_to_value(&v.value) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: bad node: {e}", v.name));
                continue;
            }
        };
        let decoded: Value = match fury.deserialize(&v.bytes) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{}: decode: {e}", v.name));
                continue;
            }
        };
        if !decoded.bitwise_eq(&expected) {
            failures.push(format!(
                "{}: decoded {decoded:?}\n  expected {expected:?}",
                v.name
            ));
            continue;
        }
        let ours = fury.serialize(&decoded);
        if let Ok(b) = &ours {
            report.produced.push(Produced {
                name: v.name.clone(),
                path: "value",
                outcome: Ok(b.clone()),
            });
        }
        match ours {
            Ok(b) if b == v.bytes || !v.writer_same => checked += 1,
            Ok(b) => failures.push(format!(
                "{}: re-encoded\n  ours   {}\n  pyfory {}",
                v.name,
                hex_encode(&b),
                hex_encode(&v.bytes)
            )),
            Err(e) => failures.push(format!("{}: encode: {e}", v.name)),
        }
    }
    println!(
        "{checked} ref vectors checked through Value; {with_structs} hold structs (typed tests)"
    );
    let out = fury_conformance::groups::peer_bytes("refs");
    write_peer_bytes(&report, &out).expect("peer bytes written");
    assert!(checked >= 40, "only {checked} checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
