//! DECIMAL (conformance/vectors/decimal, written by pyfory 1.7.7 for `decimal.Decimal`):
//! fury-rs reads each vector to the unscaled integer and scale it holds, as `fury::Decimal`
//! and as a dynamic `Value`, and writes pyfory's bytes back. The bytes go to
//! target/conformance/fury-rs-decimal.json for `check_peer.py --group decimal`.

use fury::{Decimal, Fury, Value};
use serde_json::{json, Value as Json};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn vectors() -> Vec<Json> {
    let path = fury_conformance::groups::file("decimal");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

/// The vector's value as a Decimal, parsed from its unscaled digits (text of any length).
fn expected(v: &Json) -> Decimal {
    let unscaled = v["value"]["unscaled"].as_str().unwrap();
    let scale = v["value"]["scale"].as_i64().unwrap();
    let text = format!("{unscaled}E{}", -scale);
    text.parse().unwrap()
}

#[test]
fn pyfory_decimals_read_and_write_back_byte_for_byte() {
    let fury = Fury::default();
    let mut written = Vec::new();
    let mut failures = Vec::new();
    for v in vectors() {
        let name = v["name"].as_str().unwrap();
        let bytes = unhex(v["hex"].as_str().unwrap());
        let want = expected(&v);
        match fury.deserialize::<Decimal>(&bytes) {
            Ok(d) if d == want => {}
            Ok(d) => failures.push(format!("{name}: read {d}, expected {want}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
        let dynamic: Value = fury.deserialize(&bytes).unwrap();
        assert_eq!(dynamic, Value::Decimal(want.clone()), "{name}");
        let ours = fury.serialize(&want).unwrap();
        if ours != bytes {
            failures.push(format!(
                "{name}: wrote {}, pyfory wrote {}",
                fury_conformance::hex_encode(&ours),
                v["hex"]
            ));
        }
        assert_eq!(fury.serialize(&dynamic).unwrap(), ours, "{name}");
        written.push(json!({"name": name, "hex": fury_conformance::hex_encode(&ours)}));
    }
    let out = fury_conformance::groups::peer_bytes("decimal");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn decimal_text_is_what_python_prints() {
    for v in vectors() {
        // `text` is Python's str() of the value.
        let text = v["text"].as_str().unwrap();
        assert_eq!(expected(&v).to_string(), text, "{}", v["name"]);
        assert_eq!(
            text.parse::<Decimal>().unwrap(),
            expected(&v),
            "{}",
            v["name"]
        );
    }
    // A hostile scale prints short.
    let d = Decimal::new(1, i32::MAX);
    assert!(d.to_string().len() < 20, "{d}");
}

#[test]
fn hostile_decimals_are_errors() {
    let fury = Fury::default();
    // A big-form magnitude longer than the input.
    assert!(fury
        .deserialize::<Decimal>(&unhex("01ff2800fd0f0102"))
        .is_err());
    let huge = unhex("01ff2800ffffffff0f");
    let e = fury.deserialize::<Decimal>(&huge).unwrap_err();
    assert!(e.to_string().contains("decimal"), "{e}");
    for v in vectors() {
        let bytes = unhex(v["hex"].as_str().unwrap());
        for n in 0..bytes.len() {
            assert!(fury.deserialize::<Decimal>(&bytes[..n]).is_err());
        }
    }
}
