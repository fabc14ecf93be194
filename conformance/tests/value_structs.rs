//! Structs held in the dynamic `Value` (issue 14), over pyfory's compatible-mode and
//! reference-tracking vectors:
//!
//! * decode -> encode -> decode is the identity for every vector that decodes as a `Value`,
//!   and writing again gives the same bytes; a value that cannot be written is refused
//!   with an `Unsupported` error, never written wrong;
//! * where the writer's choices are canonical (the vector is `writer_same`, not listed in
//!   `NOT_CANONICAL`), the re-encoded bytes are pyfory's, byte for byte;
//! * a struct value built by hand (`StructValue::new`, no TypeDef) writes, with the mirror
//!   types registered, the same bytes as the value decoded from pyfory's stream;
//! * every refusal is an error naming the struct and the field;
//! * an enum read where its type info is on the wire keeps its registration and writes back
//!   to pyfory's bytes, in both modes, by id and by name.

use fury::{ErrorKind, Fury, FuryObject, StructValue, Value};
use fury_conformance::mirrors::compat_mirror as mirror;
use fury_conformance::structs::CompatKind;
use fury_conformance::{hex_encode, load_vectors, Vector};

fn vectors(group: &str) -> Vec<Vector> {
    load_vectors(&fury_conformance::groups::group(group).dir()).expect("vectors load")
}

fn fury_for(v: &Vector) -> Fury {
    let flag = |k: &str, default: bool| v.settings[k].as_bool().unwrap_or(default);
    Fury::builder()
        .compatible(flag("compatible", true))
        .ref_tracking(flag("ref", false))
        .build()
}

/// Vectors whose bytes a `Value` writes back otherwise than pyfory, with the reason.
const NOT_CANONICAL: &[(&str, &str)] = &[
    (
        "compat/struct_collections/all_null_elements",
        NO_STRUCT_ELEMENT,
    ),
    ("refs/compatible/tree/child_root", NO_STRUCT_ELEMENT),
    ("refs/compatible/fields/shelf", NO_STRUCT_ELEMENT),
];

/// Why a list of structs without a struct element is written in another form than pyfory's.
const NO_STRUCT_ELEMENT: &str = "a declared list of structs without a struct element (only nulls or back references): the Value did not keep the element's type info, so it writes the declared header (0e / 0d) without it, which pyfory 1.7.7 reads to the same value (reference.py's check_bytes)";

fn holds_struct(v: &Value) -> bool {
    match v {
        Value::Struct(_) => true,
        Value::List(xs) | Value::Set(xs) => xs.iter().any(holds_struct),
        Value::Map(ps) => ps.iter().any(|(k, x)| holds_struct(k) || holds_struct(x)),
        Value::Union(u) => holds_struct(&u.value),
        _ => false,
    }
}

#[test]
fn every_vector_that_decodes_reencodes_to_itself_and_to_pyforys_bytes_where_canonical() {
    let mut identity = 0;
    let mut exact = 0;
    let mut structs = 0;
    let mut refused = Vec::new();
    let mut failures = Vec::new();
    let mut differ = Vec::new();
    for v in vectors("compat").into_iter().chain(vectors("refs")) {
        let fury = fury_for(&v);
        let Ok(decoded) = fury.deserialize::<Value>(&v.bytes) else {
            continue;
        };
        let bytes = match fury.serialize(&decoded) {
            Ok(b) => b,
            Err(e) if matches!(e.kind(), ErrorKind::Unsupported { .. }) => {
                refused.push(format!("{}: {e}", v.name));
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: decodes but does not write: {e}", v.name));
                continue;
            }
        };
        match fury.deserialize::<Value>(&bytes) {
            Ok(back) if back.bitwise_eq(&decoded) => identity += 1,
            Ok(back) => {
                failures.push(format!(
                    "{}: writes {} which decodes to another value:\n  {back:?}\n  {decoded:?}",
                    v.name,
                    hex_encode(&bytes)
                ));
                continue;
            }
            Err(e) => {
                failures.push(format!(
                    "{}: writes {} which does not decode: {e}",
                    v.name,
                    hex_encode(&bytes)
                ));
                continue;
            }
        }
        match fury.serialize(&fury.deserialize::<Value>(&bytes).unwrap()) {
            Ok(again) if again == bytes => {}
            other => failures.push(format!("{}: not a fixpoint: {other:?}", v.name)),
        }
        if holds_struct(&decoded) {
            structs += 1;
        }
        let listed = NOT_CANONICAL.iter().any(|(n, _)| *n == v.name);
        if bytes == v.bytes {
            exact += 1;
            if listed {
                failures.push(format!("{}: listed in NOT_CANONICAL but now exact", v.name));
            }
        } else if v.writer_same && !listed {
            differ.push(format!(
                "{}:\n  ours   {}\n  pyfory {}",
                v.name,
                hex_encode(&bytes),
                hex_encode(&v.bytes)
            ));
        }
    }
    println!(
        "{identity} vectors round-trip through Value ({structs} with structs), {exact} byte for \
         byte; refused: {}\n{}",
        refused.len(),
        refused.join("\n")
    );
    failures.extend(differ);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(identity >= 250, "only {identity} round trips");
    assert!(structs >= 200, "only {structs} with structs");
    // What the writer cannot do yet, each refused with an error.
    let known = [
        "a list of structs whose elements are all null",
        "a declared map with reference-tracked keys or values in a dynamic struct",
    ];
    for r in &refused {
        assert!(
            known.iter().any(|k| r.contains(k)),
            "an unexpected refusal: {r}"
        );
    }
    assert!(refused.len() <= 3, "{} refused", refused.len());
}

#[test]
fn pyforys_small_int_in_two_ref_any_fields_rewrites_byte_for_byte() {
    let v = vectors("refs")
        .into_iter()
        .find(|v| v.name == "refs/compatible/fields/any_refs_small_int")
        .expect("vector");
    let fury = fury_for(&v);
    let decoded: Value = fury.deserialize(&v.bytes).unwrap();
    let Value::Struct(s) = &decoded else {
        panic!("{decoded:?}")
    };
    assert_eq!(s.get("first"), Some(&Value::VarInt64(5)));
    assert_eq!(s.get("second"), Some(&Value::Ref(1)));
    assert_eq!(fury.serialize(&decoded).unwrap(), v.bytes);
}

/// `v` with every struct rebuilt by `StructValue::new` (no TypeDef).
fn by_hand(v: &Value) -> Value {
    match v {
        Value::Struct(s) => Value::Struct(Box::new(StructValue::new(
            s.type_name.clone(),
            s.fields
                .iter()
                .map(|(n, x)| (n.clone(), by_hand(x)))
                .collect(),
        ))),
        Value::List(xs) => Value::List(xs.iter().map(by_hand).collect()),
        Value::Set(xs) => Value::Set(xs.iter().map(by_hand).collect()),
        Value::Map(ps) => Value::Map(ps.iter().map(|(k, x)| (by_hand(k), by_hand(x))).collect()),
        Value::Union(u) => {
            let mut u = u.clone();
            u.value = by_hand(&u.value);
            Value::Union(u)
        }
        other => other.clone(),
    }
}

#[test]
fn hand_built_struct_values_write_the_bytes_of_the_decoded_ones() {
    let vectors: std::collections::BTreeMap<String, Vector> = vectors("compat")
        .into_iter()
        .map(|v| (v.name.clone(), v))
        .collect();
    let mut compared = 0;
    let mut failures = Vec::new();
    for case in mirror::cases() {
        if case.kind != CompatKind::Plain {
            continue;
        }
        let v = &vectors[case.name];
        let reader = Fury::builder().compatible(true).build();
        let Ok(decoded) = reader.deserialize::<Value>(&v.bytes) else {
            continue;
        };
        if !holds_struct(&decoded) {
            continue;
        }
        let Ok(ours) = reader.serialize(&decoded) else {
            continue;
        };
        let writer = (case.writer_fury)().expect("mirror Fury");
        let built = by_hand(&decoded);
        assert!(
            built.bitwise_eq(&decoded),
            "{}: equality ignores the TypeDef",
            case.name
        );
        match writer.serialize(&built) {
            Ok(b) if b == ours => compared += 1,
            Ok(b) => failures.push(format!(
                "{}:\n  by hand {}\n  decoded {}",
                case.name,
                hex_encode(&b),
                hex_encode(&ours)
            )),
            Err(e) => failures.push(format!("{}: by hand: {e}", case.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 20, "only {compared} compared");
}

#[derive(FuryObject, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

fn point_fury(compatible: bool) -> Fury {
    let mut f = Fury::builder().compatible(compatible).build();
    f.register_by_id::<Point>(100).unwrap();
    f
}

fn point(fields: Vec<(&str, Value)>) -> Value {
    Value::Struct(Box::new(StructValue::new(
        "#100",
        fields
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect(),
    )))
}

fn refusal(fury: &Fury, v: &Value) -> String {
    match fury.serialize(v) {
        Ok(b) => panic!("{v:?} wrote {}", hex_encode(&b)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn refusals_are_errors_naming_the_struct_and_the_field() {
    let fury = point_fury(true);
    let good = point(vec![("x", Value::VarInt32(1)), ("y", Value::VarInt32(2))]);
    assert_eq!(
        fury.serialize(&good).unwrap(),
        fury.serialize(&Point { x: 1, y: 2 }).unwrap()
    );

    // same-schema mode: refused, naming the struct, also for a value read with a TypeDef
    let e = refusal(&point_fury(false), &good);
    assert!(e.contains("#100") && e.contains("same-schema"), "{e}");
    let decoded: Value = Fury::builder()
        .compatible(true)
        .build()
        .deserialize(&fury.serialize(&good).unwrap())
        .unwrap();
    let e = refusal(&point_fury(false), &decoded);
    assert!(e.contains("#100") && e.contains("same-schema"), "{e}");

    // no TypeDef and nothing registered under the name
    let unknown = Value::Struct(Box::new(StructValue::new(
        "shapes.Nowhere",
        vec![("x".into(), Value::VarInt32(1))],
    )));
    let e = refusal(&fury, &unknown);
    assert!(e.contains("shapes.Nowhere"), "{e}");
    let e = refusal(&Fury::builder().compatible(true).build(), &good);
    assert!(e.contains("#100"), "{e}");

    // a missing field
    let e = refusal(&fury, &point(vec![("x", Value::VarInt32(1))]));
    assert!(e.contains("#100") && e.contains(" y"), "{e}");
    // an extra field
    let e = refusal(
        &fury,
        &point(vec![
            ("x", Value::VarInt32(1)),
            ("y", Value::VarInt32(2)),
            ("z", Value::VarInt32(3)),
        ]),
    );
    assert!(e.contains("#100") && e.contains(": z;"), "{e}");
    // a field of another name in place of one of the schema's
    let e = refusal(
        &fury,
        &point(vec![("x", Value::VarInt32(1)), ("w", Value::VarInt32(2))]),
    );
    assert!(e.contains("#100") && e.contains("field y"), "{e}");
    // wrong wire types, a null where none is allowed, a struct where an int is declared
    for (bad, needle) in [
        (Value::Int32(2), "INT32"),
        (Value::String("2".into()), "STRING"),
        (Value::Null, "null"),
        (good.clone(), "STRUCT"),
        (Value::Enum(fury::EnumValue::new(1)), "ENUM"),
    ] {
        let e = refusal(&fury, &point(vec![("x", Value::VarInt32(1)), ("y", bad)]));
        assert!(
            e.contains("#100 field y") && e.contains(needle),
            "{needle}: {e}"
        );
    }
    // a nested struct's error names both
    #[derive(FuryObject, Debug, PartialEq)]
    struct Line {
        a: Point,
        b: Point,
    }
    let mut lines = point_fury(true);
    lines.register_by_id::<Line>(101).unwrap();
    let line = Value::Struct(Box::new(StructValue::new(
        "#101",
        vec![
            ("a".into(), good.clone()),
            ("b".into(), point(vec![("x", Value::VarInt32(1))])),
        ],
    )));
    let e = refusal(&lines, &line);
    assert!(
        e.contains("#101 field b") && e.contains("#100") && e.contains(" y"),
        "{e}"
    );
}

/// Every enum value of a vector in an `any` position or at the root, with its type name.
fn typed_enums(v: &Value, out: &mut Vec<(String, u32)>) {
    match v {
        Value::Enum(e) => {
            if let Some(name) = e.type_name() {
                out.push((name, e.variant));
            }
        }
        Value::List(xs) | Value::Set(xs) => xs.iter().for_each(|x| typed_enums(x, out)),
        Value::Map(ps) => ps.iter().for_each(|(k, x)| {
            typed_enums(k, out);
            typed_enums(x, out)
        }),
        Value::Struct(s) => s.fields.iter().for_each(|(_, x)| typed_enums(x, out)),
        _ => {}
    }
}

#[test]
fn enums_with_their_type_info_keep_their_registration_and_write_back_to_pyforys_bytes() {
    let vs: Vec<Vector> = ["structs", "compat", "refs"]
        .into_iter()
        .flat_map(vectors)
        .collect();
    // The type definitions of the vector files, by name.
    let mut types = std::collections::HashMap::new();
    for dir in ["structs", "compat", "refs"] {
        let dir = fury_conformance::groups::group(dir).dir();
        for f in std::fs::read_dir(dir).expect("dir").flatten() {
            let Ok(text) = std::fs::read_to_string(f.path()) else {
                continue;
            };
            let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            for t in doc["types"].as_array().into_iter().flatten() {
                types.insert(
                    t["name"].as_str().unwrap_or_default().to_string(),
                    t.clone(),
                );
            }
        }
    }
    let mut checked = Vec::new();
    for v in &vs {
        let root_enum = v.value["type"] == "enum";
        let fury = fury_for(v);
        let flag = |k: &str| v.settings[k].as_bool().unwrap_or(false);
        let fury = if v.settings.get("compatible").is_none() {
            Fury::builder().ref_tracking(flag("ref")).build()
        } else {
            fury
        };
        let Ok(decoded) = fury.deserialize::<Value>(&v.bytes) else {
            continue;
        };
        let mut enums = Vec::new();
        typed_enums(&decoded, &mut enums);
        if enums.is_empty() {
            assert!(!root_enum, "{}: a root enum without its type", v.name);
            continue;
        }
        if root_enum {
            // The registration read is the one the vector's type declares.
            let name = v.value["name"].as_str().unwrap_or_default();
            let def = &types[name];
            let reg = &def["register"];
            let want = match reg["id"].as_u64() {
                Some(id) => format!("#{id}"),
                None => match reg["namespace"].as_str().unwrap_or_default() {
                    "" => reg["typename"].as_str().unwrap_or_default().to_string(),
                    ns => format!("{ns}.{}", reg["typename"].as_str().unwrap_or_default()),
                },
            };
            let id = v.value["id"].as_u64().expect("variant id") as u32;
            assert_eq!(enums, vec![(want, id)], "{}", v.name);
        }
        let bytes = fury
            .serialize(&decoded)
            .unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert_eq!(hex_encode(&bytes), hex_encode(&v.bytes), "{}", v.name);
        checked.push(v.name.clone());
    }
    for must in [
        "structs/enums/color_red",
        "structs/enums/shade_dark",
        "compat/enums/shade_dark",
        "compat/roots/list_of_colors",
        "compat/roots/set_of_shades",
        "compat/roots/structs_and_enums",
        "refs/same_schema/lists/mixed_enums",
        "refs/compatible/lists/mixed_enums",
    ] {
        assert!(
            checked.iter().any(|c| c == must),
            "{must} not checked: {checked:?}"
        );
    }
    assert!(checked.len() >= 20, "only {} checked", checked.len());

    // Built by hand, a named enum writes pyfory's bytes too: by id, and by name in both
    // modes (compatible mode makes its TypeDef from the name).
    for name in [
        "structs/enums/color_red",
        "structs/enums/shade_dark",
        "compat/enums/color_red",
        "compat/enums/shade_dark",
    ] {
        let v = vs.iter().find(|v| v.name == name).expect("vector");
        let fury = fury_for(v);
        let decoded: Value = fury.deserialize(&v.bytes).expect("decodes");
        let Value::Enum(e) = &decoded else {
            panic!("{name}: not an enum")
        };
        let built = Value::Enum(fury::EnumValue::named(
            &e.type_name().expect("typed"),
            e.variant,
        ));
        assert_eq!(built, decoded, "{name}");
        let bytes = fury.serialize(&built).expect("writes");
        assert_eq!(hex_encode(&bytes), hex_encode(&v.bytes), "{name}");
    }
    // Without its type, an enum cannot be a root.
    let e = Fury::default()
        .serialize(&Value::Enum(fury::EnumValue::new(1)))
        .expect_err("refused");
    assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
}
