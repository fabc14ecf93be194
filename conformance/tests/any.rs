//! Untyped fields (conformance/vectors_any, written by pyfory 1.7.7 for `typing.Any`
//! fields): `Box<dyn AnyObject>` and `Rc<dyn AnyObject>` fields read each vector to the
//! concrete types, a value built from the vector's JSON writes pyfory's bytes, and the value
//! read writes them back. The bytes built from the JSON go to
//! target/conformance/fury-rs-any.json for `generate_any.py --check-peer`.

use fury::{AnyObject, Fury, FuryObject, Map};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 500)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 503)]
enum Color {
    Red,
    Green,
}

#[derive(FuryObject, Debug)]
#[fury(id = 501)]
struct Holder {
    name: String,
    value: Box<dyn AnyObject>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 504)]
struct Bag {
    items: Vec<Box<dyn AnyObject>>,
    props: BTreeMap<String, Box<dyn AnyObject>>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 502)]
struct Refs {
    #[fury(ref)]
    first: Rc<dyn AnyObject>,
    #[fury(ref)]
    second: Rc<dyn AnyObject>,
}

/// `Bag` with shared elements: registered under the same id on the reference-tracking
/// instances (the same fields, so the same schema).
#[derive(FuryObject, Debug)]
#[fury(id = 504)]
struct SharedBag {
    items: Vec<Rc<dyn AnyObject>>,
    props: BTreeMap<String, Rc<dyn AnyObject>>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn fury_for(v: &Json) -> Fury {
    let settings = &v["settings"];
    let refs = settings["ref"].as_bool().unwrap();
    let mut fury = Fury::builder()
        .compatible(settings["compatible"].as_bool().unwrap())
        .ref_tracking(refs)
        .build();
    if v["registered_by_name"].as_bool().unwrap() {
        fury.register_by_name::<Point>("geo", "Point").unwrap();
    } else {
        fury.register::<Point>().unwrap();
    }
    fury.register::<Holder>().unwrap();
    fury.register::<Color>().unwrap();
    if refs {
        fury.register::<Refs>().unwrap();
        fury.register::<SharedBag>().unwrap();
    } else {
        fury.register::<Bag>().unwrap();
    }
    fury
}

// ---- a value built from the vector's JSON, independently of the decoder ----

fn fields(v: &Json) -> &serde_json::Map<String, Json> {
    v.as_object().unwrap()
}

fn point(v: &Json) -> Point {
    let n = |k: &str| i32::try_from(v[k].as_i64().unwrap()).unwrap();
    Point {
        x: n("x"),
        y: n("y"),
    }
}

/// The Rust value pyfory's reader makes of a JSON node: a Python int is an `i64`
/// (pyfory writes it as VARINT64), a float an `f64`, a list a `Vec` of boxes.
fn build(v: &Json) -> Box<dyn AnyObject> {
    match v {
        Json::Null => Box::new(()),
        Json::Bool(b) => Box::new(*b),
        Json::Number(n) if n.is_i64() => Box::new(n.as_i64().unwrap()),
        Json::Number(n) => Box::new(n.as_f64().unwrap()),
        Json::String(s) => Box::new(s.clone()),
        Json::Array(items) => Box::new(items.iter().map(build).collect::<Vec<_>>()),
        Json::Object(o) => {
            let (kind, body) = o.iter().next().unwrap();
            match kind.as_str() {
                "bytes" => Box::new(unhex(body.as_str().unwrap())),
                "map" => Box::new(Map(body
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (build(&p[0]), build(&p[1])))
                    .collect::<Vec<_>>())),
                "Point" => Box::new(point(body)),
                "Color" => Box::new(match body.as_str().unwrap() {
                    "RED" => Color::Red,
                    _ => Color::Green,
                }),
                "Holder" => Box::new(holder(body)),
                other => panic!("no Rust type for {other}"),
            }
        }
    }
}

fn holder(v: &Json) -> Holder {
    Holder {
        name: v["name"].as_str().unwrap().to_string(),
        value: build(&v["value"]),
    }
}

fn bag(v: &Json) -> Bag {
    Bag {
        items: v["items"].as_array().unwrap().iter().map(build).collect(),
        props: v["props"]["map"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_str().unwrap().to_string(), build(&p[1])))
            .collect(),
    }
}

/// Rc values for the given JSON nodes, the ones at the paths of one `shared` group being
/// one allocation.
fn shared_rcs(nodes: &[(String, &Json)], shared: &Json) -> Vec<Rc<dyn AnyObject>> {
    let groups: Vec<Vec<&str>> = shared
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect()
        })
        .collect();
    let mut out: Vec<Rc<dyn AnyObject>> = Vec::new();
    for (i, (path, node)) in nodes.iter().enumerate() {
        let first_of_group = groups
            .iter()
            .find(|g| g.contains(&path.as_str()))
            .and_then(|g| nodes.iter().position(|(p, _)| p == g[0]))
            .filter(|&j| j < i);
        match first_of_group {
            Some(j) => out.push(out[j].clone()),
            None => out.push(Rc::from(build(node))),
        }
    }
    out
}

// ---- a decoded value against the vector's JSON ----

fn check_value(got: &dyn AnyObject, want: &Json, at: &str) -> Result<(), String> {
    let wrong = || format!("{at}: read a {}, expected {want}", got.type_name());
    let ok = match want {
        Json::Null => got.is_null(),
        Json::Bool(b) => got.downcast_ref::<bool>() == Some(b),
        Json::Number(n) if n.is_i64() => got.downcast_ref::<i64>() == n.as_i64().as_ref(),
        Json::Number(n) => got.downcast_ref::<f64>() == n.as_f64().as_ref(),
        Json::String(s) => got.downcast_ref::<String>() == Some(s),
        Json::Array(items) => {
            let list = got
                .downcast_ref::<Vec<Box<dyn AnyObject>>>()
                .ok_or_else(wrong)?;
            if list.len() != items.len() {
                return Err(wrong());
            }
            for (i, (g, w)) in list.iter().zip(items).enumerate() {
                check_value(&**g, w, &format!("{at}[{i}]"))?;
            }
            true
        }
        Json::Object(o) => {
            let (kind, body) = o.iter().next().unwrap();
            match kind.as_str() {
                "bytes" => got.downcast_ref::<Vec<u8>>() == Some(&unhex(body.as_str().unwrap())),
                "map" => {
                    let map = got
                        .downcast_ref::<Map<Box<dyn AnyObject>, Box<dyn AnyObject>>>()
                        .ok_or_else(wrong)?;
                    let pairs = body.as_array().unwrap();
                    if map.0.len() != pairs.len() {
                        return Err(wrong());
                    }
                    for (i, ((k, v), p)) in map.0.iter().zip(pairs).enumerate() {
                        check_value(&**k, &p[0], &format!("{at}.key{i}"))?;
                        check_value(&**v, &p[1], &format!("{at}.value{i}"))?;
                    }
                    true
                }
                "Point" => got.downcast_ref::<Point>() == Some(&point(body)),
                "Color" => {
                    let c = match body.as_str().unwrap() {
                        "RED" => Color::Red,
                        _ => Color::Green,
                    };
                    got.downcast_ref::<Color>() == Some(&c)
                }
                "Holder" => {
                    let h = got.downcast_ref::<Holder>().ok_or_else(wrong)?;
                    check_holder(h, body, at)?;
                    true
                }
                other => return Err(format!("{at}: no Rust type for {other}")),
            }
        }
    };
    if ok {
        Ok(())
    } else {
        Err(wrong())
    }
}

fn check_holder(h: &Holder, want: &Json, at: &str) -> Result<(), String> {
    if h.name != want["name"].as_str().unwrap() {
        return Err(format!(
            "{at}.name: read {:?}, expected {}",
            h.name, want["name"]
        ));
    }
    check_value(&*h.value, &want["value"], &format!("{at}.value"))
}

fn check_props<P: std::ops::Deref<Target = dyn AnyObject>>(
    props: &BTreeMap<String, P>,
    want: &Json,
) -> Result<(), String> {
    let pairs = want["map"].as_array().unwrap();
    if props.len() != pairs.len() {
        return Err(format!(
            "props: {} entries, expected {}",
            props.len(),
            pairs.len()
        ));
    }
    for p in pairs {
        let k = p[0].as_str().unwrap();
        let v = props.get(k).ok_or_else(|| format!("props: no key {k}"))?;
        check_value(&**v, &p[1], &format!("props.{k}"))?;
    }
    Ok(())
}

/// Checks that the Rc values at `paths` are shared exactly as the `shared` groups say.
fn check_sharing(rcs: &[(String, &Rc<dyn AnyObject>)], shared: &Json) -> Result<(), String> {
    for (i, (p, a)) in rcs.iter().enumerate() {
        for (q, b) in &rcs[i + 1..] {
            let together = shared.as_array().unwrap().iter().any(|g| {
                let g = g.as_array().unwrap();
                g.iter().any(|x| x == p.as_str()) && g.iter().any(|x| x == q.as_str())
            });
            if Rc::ptr_eq(a, b) != together {
                return Err(format!(
                    "{p} and {q}: shared {}, expected {together}",
                    Rc::ptr_eq(a, b)
                ));
            }
        }
    }
    Ok(())
}

/// Decodes the vector, checks the value, and returns (the bytes of the value built from the
/// JSON, the bytes of the value read).
fn check(v: &Json) -> Result<(Vec<u8>, Vec<u8>), String> {
    let bytes = unhex(v["hex"].as_str().unwrap());
    let fury = fury_for(v);
    let (root, value) = fields(&v["value"]).iter().next().unwrap();
    let shared = &v["shared"];
    let ser = |r: fury::Result<Vec<u8>>| r.map_err(|e| format!("encode: {e}"));
    let de = |e: fury::Error| format!("decode: {e}");
    match (root.as_str(), v["settings"]["ref"].as_bool().unwrap()) {
        ("Holder", _) => {
            let got: Holder = fury.deserialize(&bytes).map_err(de)?;
            check_holder(&got, value, "Holder")?;
            Ok((
                ser(fury.serialize(&holder(value)))?,
                ser(fury.serialize(&got))?,
            ))
        }
        ("Bag", false) => {
            let got: Bag = fury.deserialize(&bytes).map_err(de)?;
            let items = value["items"].as_array().unwrap();
            if got.items.len() != items.len() {
                return Err(format!("items: {} elements", got.items.len()));
            }
            for (i, (g, w)) in got.items.iter().zip(items).enumerate() {
                check_value(&**g, w, &format!("items[{i}]"))?;
            }
            check_props(&got.props, &value["props"])?;
            Ok((
                ser(fury.serialize(&bag(value)))?,
                ser(fury.serialize(&got))?,
            ))
        }
        ("Bag", true) => {
            let got: SharedBag = fury.deserialize(&bytes).map_err(de)?;
            let items = value["items"].as_array().unwrap();
            if got.items.len() != items.len() {
                return Err(format!("items: {} elements", got.items.len()));
            }
            for (i, (g, w)) in got.items.iter().zip(items).enumerate() {
                check_value(&**g, w, &format!("items[{i}]"))?;
            }
            check_props(&got.props, &value["props"])?;
            let paths: Vec<_> = (0..items.len()).map(|i| format!("items.{i}")).collect();
            let rcs: Vec<_> = paths.iter().cloned().zip(&got.items).collect();
            check_sharing(&rcs, shared)?;
            let nodes: Vec<_> = paths.iter().cloned().zip(items).collect();
            let built = SharedBag {
                items: shared_rcs(&nodes, shared),
                props: BTreeMap::new(),
            };
            assert!(value["props"]["map"].as_array().unwrap().is_empty());
            Ok((ser(fury.serialize(&built))?, ser(fury.serialize(&got))?))
        }
        ("Refs", _) => {
            let got: Refs = fury.deserialize(&bytes).map_err(de)?;
            check_value(&*got.first, &value["first"], "first")?;
            check_value(&*got.second, &value["second"], "second")?;
            let rcs = [
                ("first".to_string(), &got.first),
                ("second".to_string(), &got.second),
            ];
            check_sharing(&rcs, shared)?;
            let nodes = [
                ("first".to_string(), &value["first"]),
                ("second".to_string(), &value["second"]),
            ];
            let mut built = shared_rcs(&nodes, shared).into_iter();
            let built = Refs {
                first: built.next().unwrap(),
                second: built.next().unwrap(),
            };
            Ok((ser(fury.serialize(&built))?, ser(fury.serialize(&got))?))
        }
        (other, _) => Err(format!("no mirror for {other}")),
    }
}

fn vectors() -> Vec<Json> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors_any/any.json");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

#[test]
fn pyfory_untyped_field_vectors_read_to_concrete_types_and_write_back_byte_for_byte() {
    let mut failures = Vec::new();
    let mut written = Vec::new();
    let all = vectors();
    assert!(all.len() >= 30, "{} vectors", all.len());
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
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/conformance/fury-rs-any.json");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_prefix_of_every_vector_is_an_error_and_mutations_do_not_panic() {
    for v in vectors() {
        let bytes = unhex(v["hex"].as_str().unwrap());
        let fury = fury_for(&v);
        let refs = v["settings"]["ref"].as_bool().unwrap();
        let read = |b: &[u8]| match (v["schema"].as_str().unwrap(), refs) {
            ("Holder", _) => fury.deserialize::<Holder>(b).map(drop),
            ("Bag", false) => fury.deserialize::<Bag>(b).map(drop),
            ("Bag", true) => fury.deserialize::<SharedBag>(b).map(drop),
            _ => fury.deserialize::<Refs>(b).map(drop),
        };
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
