//! Untyped fields (conformance/vectors/any, written by pyfory 1.7.7 for `typing.Any`
//! fields): `Box<dyn AnyObject>` and `Rc<dyn AnyObject>` fields (the mirrors of
//! `fury_conformance::any`) read each vector to the concrete types, a value built from the
//! vector's node writes pyfory's bytes, and the value read writes them back. The bytes built
//! from the nodes go to target/conformance/fury-rs-any.json for `check_peer.py --group
//! any`.

use fury::AnyObject;
use fury_conformance::any::{fury_for, Color, Holder, NamedPoint, Point, Root};
use serde_json::{json, Value as Json};
use std::collections::HashSet;

fn vectors() -> Vec<Json> {
    let path = fury_conformance::groups::file("any");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(doc["format"], "fury-conformance/1");
    doc["vectors"].as_array().unwrap().clone()
}

fn bytes_of(v: &Json) -> Vec<u8> {
    fury_conformance::hex_decode(v["hex"].as_str().unwrap()).unwrap()
}

fn refs(v: &Json) -> bool {
    v["settings"]["ref"].as_bool().unwrap()
}

/// A node without what the comparison ignores: string encodings, `approx`, and the ref ids
/// no `ref` names (which values take an id is the writer's business; which are shared is
/// not).
fn canon(node: &Json) -> Json {
    fn referenced(n: &Json, out: &mut HashSet<u64>) {
        match n {
            Json::Object(m) => {
                if m.get("type").and_then(Json::as_str) == Some("ref") {
                    out.insert(m["id"].as_u64().unwrap());
                }
                m.values().for_each(|x| referenced(x, out));
            }
            Json::Array(a) => a.iter().for_each(|x| referenced(x, out)),
            _ => {}
        }
    }
    fn strip(n: &Json, keep: &HashSet<u64>) -> Json {
        match n {
            Json::Object(m) => Json::Object(
                m.iter()
                    .filter(|(k, v)| match k.as_str() {
                        "encoding" | "approx" => false,
                        "ref_id" => keep.contains(&v.as_u64().unwrap()),
                        _ => true,
                    })
                    .map(|(k, v)| (k.clone(), strip(v, keep)))
                    .collect(),
            ),
            Json::Array(a) => Json::Array(a.iter().map(|x| strip(x, keep)).collect()),
            other => other.clone(),
        }
    }
    let mut keep = HashSet::new();
    referenced(node, &mut keep);
    strip(node, &keep)
}

/// Decodes the vector, checks the node of the concrete types read, and returns (the bytes
/// of the value built from the vector's node, the bytes of the value read).
fn check(v: &Json) -> Result<(Vec<u8>, Vec<u8>), String> {
    let fury = fury_for(&v["settings"]);
    let schema = v["schema"].as_str().unwrap();
    let got = Root::read(&fury, schema, refs(v), &bytes_of(v))?;
    let node = got.to_node(refs(v))?;
    if canon(&node) != canon(&v["value"]) {
        return Err(format!(
            "read\n    {node}\n  expected\n    {}",
            canon(&v["value"])
        ));
    }
    let built = Root::from_node(schema, refs(v), &v["value"])?;
    Ok((built.write(&fury)?, got.write(&fury)?))
}

#[test]
fn pyfory_untyped_field_vectors_read_to_concrete_types_and_write_back_byte_for_byte() {
    let mut failures = Vec::new();
    let mut written = Vec::new();
    let all = vectors();
    assert_eq!(all.len(), 36, "vectors in vectors/any/any.json");
    for v in &all {
        let name = v["name"].as_str().unwrap();
        let want = v["hex"].as_str().unwrap();
        match check(v) {
            Ok((built, again)) => {
                let hex = fury_conformance::hex_encode(&built);
                if hex != want {
                    failures.push(format!("{name}: wrote {hex}, pyfory wrote {want}"));
                }
                let again = fury_conformance::hex_encode(&again);
                if again != want {
                    failures.push(format!("{name}: the value read writes {again}"));
                }
                written.push(json!({"name": name, "hex": hex}));
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    let out = fury_conformance::groups::peer_bytes("any");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The concrete Rust types behind the `any` positions, asserted directly on a few vectors
/// (the node comparison above covers them all).
#[test]
fn any_positions_read_as_the_rust_types_fury_documents() {
    let all = vectors();
    let read = |name: &str| {
        let v = all.iter().find(|v| v["name"] == name).unwrap();
        let fury = fury_for(&v["settings"]);
        Root::read(&fury, v["schema"].as_str().unwrap(), refs(v), &bytes_of(v)).unwrap()
    };
    let value = |name: &str| match read(name) {
        Root::Holder(Holder { value, .. }) => value,
        other => panic!("{name}: {other:?}"),
    };
    for mode in ["same_schema", "compatible"] {
        let at = |what: &str| format!("any/{mode}/{what}");
        assert_eq!(value(&at("int")).downcast_ref::<i64>(), Some(&5));
        assert_eq!(
            value(&at("negative_big_int")).downcast_ref::<i64>(),
            Some(&-(1i64 << 40))
        );
        assert_eq!(value(&at("float")).downcast_ref::<f64>(), Some(&2.5));
        assert!(value(&at("none")).is_null());
        assert_eq!(
            value(&at("point")).downcast_ref::<Point>(),
            Some(&Point { x: 1, y: 2 })
        );
        assert_eq!(
            value(&at("named_point")).downcast_ref::<NamedPoint>(),
            Some(&NamedPoint { x: 1, y: 2 })
        );
        assert_eq!(
            value(&at("enum")).downcast_ref::<Color>(),
            Some(&Color::Green)
        );
        let list = value(&at("list"));
        let list = list.downcast_ref::<Vec<Box<dyn AnyObject>>>().unwrap();
        assert_eq!(list[2].downcast_ref::<Point>(), Some(&Point { x: 3, y: 4 }));
        assert!(list[3].is_null());
    }
    for mode in ["same_schema", "compatible"] {
        let Root::Refs(shared) = read(&format!("any/refs/{mode}/shared_point")) else {
            panic!()
        };
        assert!(std::rc::Rc::ptr_eq(&shared.first, &shared.second));
        let Root::Refs(two) = read(&format!("any/refs/{mode}/two_points")) else {
            panic!()
        };
        assert!(!std::rc::Rc::ptr_eq(&two.first, &two.second));
        assert_eq!(
            two.second.downcast_ref::<Point>(),
            Some(&Point { x: 3, y: 4 })
        );
    }
}

#[test]
fn every_prefix_of_every_vector_is_an_error_and_mutations_do_not_panic() {
    for v in vectors() {
        let bytes = bytes_of(&v);
        let fury = fury_for(&v["settings"]);
        let schema = v["schema"].as_str().unwrap();
        let read = |b: &[u8]| Root::read(&fury, schema, refs(&v), b).map(drop);
        assert!(read(&bytes).is_ok(), "{}", v["name"]);
        for n in 0..bytes.len() {
            assert!(read(&bytes[..n]).is_err(), "{}: prefix {n}", v["name"]);
        }
        for i in 0..bytes.len() {
            for b in [0x00, 0x02, 0x1c, 0x24, 0x80, 0xfe, 0xff] {
                let mut m = bytes.clone();
                m[i] = b;
                let _ = read(&m);
                let _ = fury.deserialize::<Box<dyn AnyObject>>(&m);
            }
        }
    }
}
