//! `fury::ValueRef`, the borrowing dynamic value, against `fury::Value` on every vector of
//! every group (pyfory's bytes; `Value` itself is checked against them in `vectors.rs` and
//! the group tests):
//!
//! * a vector decodes as `ValueRef` exactly when it decodes as `Value` (with the same error
//!   otherwise), `to_owned()` is that `Value`, and writing the `ValueRef` gives the bytes (or
//!   the error) writing the `Value` gives;
//! * every non-empty string, byte string and array of the `ValueRef` points into the input
//!   (or, for an out-of-band vector, into its buffers), but the strings the vector's nodes say
//!   pyfory wrote as non-ASCII LATIN1 or UTF-16: exactly those own their text;
//! * every strict prefix of every vector that decodes is an error, never a panic;
//! * single-byte mutations of every vector never panic, and `Value` and `ValueRef` agree on
//!   them as on the vectors.

use fury::{Fury, Value, ValueRef};
use fury_conformance::{fury_for, hex_decode, load_vectors, Vector};
use serde_json::Value as Json;
use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// A vector with its out-of-band buffers (none outside the group `oob`).
struct Case {
    v: Vector,
    oob: bool,
    buffers: Vec<Vec<u8>>,
}

/// The `buffers` of the out-of-band vectors, by vector name.
fn oob_buffers(dir: &Path) -> HashMap<String, Vec<Vec<u8>>> {
    let mut out = HashMap::new();
    for entry in std::fs::read_dir(dir).expect("vectors/oob") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let doc: Json =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        for v in doc["vectors"].as_array().expect("vectors") {
            let buffers = v["buffers"]
                .as_array()
                .expect("buffers")
                .iter()
                .map(|b| hex_decode(b.as_str().expect("hex")).expect("hex"))
                .collect();
            out.insert(v["name"].as_str().expect("name").to_string(), buffers);
        }
    }
    out
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let groups = fury_conformance::groups::value_groups();
    // the meta-string and row groups are not streams of values; every other group is
    assert!(groups.len() >= 9, "value groups: {groups:?}");
    for group in groups {
        let dir = group.dir();
        let group = group.name.as_str();
        let vectors = load_vectors(&dir).expect("vector files load");
        assert!(!vectors.is_empty(), "{group}: no vectors");
        let oob = group == "oob";
        let mut buffers = if oob {
            oob_buffers(&dir)
        } else {
            HashMap::new()
        };
        for v in vectors {
            let buffers = buffers.remove(&v.name).unwrap_or_default();
            out.push(Case { v, oob, buffers });
        }
    }
    out
}

fn decode<'de, T: fury::Deserialize<'de>>(
    fury: &Fury,
    bytes: &'de [u8],
    c: &'de Case,
) -> fury::Result<T> {
    if c.oob {
        let buffers: Vec<&[u8]> = c.buffers.iter().map(Vec::as_slice).collect();
        fury.deserialize_with_buffers(bytes, &buffers)
    } else {
        fury.deserialize(bytes)
    }
}

/// An error's text with the names of the dynamic types made alike.
fn normalized(e: &fury::Error) -> String {
    e.to_string()
        .replace("fury::value::borrowed::ValueRef", "fury::value::Value")
        .replace("ValueRef", "Value")
}

/// `Ok(true)` when both decode and agree (value, and what writing gives), `Ok(false)` when
/// both fail alike, `Err` describing how they differ.
fn agree(fury: &Fury, bytes: &[u8], c: &Case) -> Result<bool, String> {
    let owned = decode::<Value>(fury, bytes, c);
    let borrowed = decode::<ValueRef>(fury, bytes, c);
    let (owned, borrowed) = match (owned, borrowed) {
        (Ok(o), Ok(b)) => (o, b),
        (Err(eo), Err(eb)) if normalized(&eo) == normalized(&eb) => return Ok(false),
        (o, b) => {
            return Err(format!(
                "Value gives {:?}, ValueRef gives {:?}",
                o.map(drop),
                b.map(drop)
            ))
        }
    };
    if !borrowed.to_owned().bitwise_eq(&owned) {
        return Err(format!(
            "to_owned() differs:\n  ValueRef {borrowed:?}\n  Value    {owned:?}"
        ));
    }
    match (fury.serialize(&owned), fury.serialize(&borrowed)) {
        (Ok(a), Ok(b)) if a == b => {}
        (Err(ea), Err(eb)) if normalized(&ea) == normalized(&eb) => {}
        (a, b) => {
            return Err(format!(
                "writing differs: Value {:?}, ValueRef {:?}",
                a.map(|x| fury_conformance::hex_encode(&x)),
                b.map(|x| fury_conformance::hex_encode(&x))
            ))
        }
    }
    Ok(true)
}

/// What a `ValueRef` borrows (address ranges of the non-empty parts) and the strings it owns.
#[derive(Default)]
struct Parts {
    borrowed: Vec<Range<usize>>,
    owned_texts: Vec<String>,
}

fn range<T>(s: &[T]) -> Option<Range<usize>> {
    let r = s.as_ptr_range();
    (!s.is_empty()).then_some(r.start as usize..r.end as usize)
}

fn parts(v: &ValueRef, out: &mut Parts) {
    let part = match v {
        ValueRef::String(Cow::Borrowed(s)) => range(s.as_bytes()),
        ValueRef::String(Cow::Owned(s)) => {
            out.owned_texts.push(s.clone());
            None
        }
        ValueRef::Binary(b) | ValueRef::UInt8Array(b) => range(b),
        ValueRef::Int8Array(a) => range(a),
        ValueRef::Int16Array(a) => range(a.as_bytes()),
        ValueRef::Int32Array(a) => range(a.as_bytes()),
        ValueRef::Int64Array(a) => range(a.as_bytes()),
        ValueRef::UInt16Array(a) => range(a.as_bytes()),
        ValueRef::UInt32Array(a) => range(a.as_bytes()),
        ValueRef::UInt64Array(a) => range(a.as_bytes()),
        ValueRef::Float32Array(a) => range(a.as_bytes()),
        ValueRef::Float64Array(a) => range(a.as_bytes()),
        ValueRef::List(xs) | ValueRef::Set(xs) => {
            xs.iter().for_each(|x| parts(x, out));
            None
        }
        ValueRef::Map(ps) => {
            for (k, x) in ps {
                parts(k, out);
                parts(x, out);
            }
            None
        }
        ValueRef::Struct(s) => {
            s.fields.iter().for_each(|(_, x)| parts(x, out));
            None
        }
        ValueRef::Union(u) => {
            parts(&u.value, out);
            None
        }
        _ => None,
    };
    out.borrowed.extend(part);
}

/// The strings of a vector's value node that pyfory wrote in an encoding that is not UTF-8
/// (non-ASCII LATIN1, UTF-16): the ones a `ValueRef` must own.
fn unborrowable_texts(node: &Json, out: &mut Vec<String>) {
    match node {
        Json::Object(m) => {
            if m.get("type").and_then(Json::as_str) == Some("string") {
                let text = m.get("value").and_then(Json::as_str).unwrap_or("");
                match m.get("encoding").and_then(Json::as_str) {
                    Some("utf16") => out.push(text.to_string()),
                    Some("latin1") if !text.is_ascii() => out.push(text.to_string()),
                    _ => {}
                }
            }
            m.values().for_each(|x| unborrowable_texts(x, out));
        }
        Json::Array(xs) => xs.iter().for_each(|x| unborrowable_texts(x, out)),
        _ => {}
    }
}

fn inside(part: &Range<usize>, whole: &[u8]) -> bool {
    let w = whole.as_ptr_range();
    w.start as usize <= part.start && part.end <= w.end as usize
}

#[test]
fn every_vector_reads_as_value_ref_as_it_reads_as_value() {
    let cases = cases();
    let (mut decoded, mut borrowed, mut owned) = (0, 0, 0);
    let mut problems = Vec::new();
    for c in &cases {
        let v = &c.v;
        let fury = fury_for(v);
        match agree(&fury, &v.bytes, c) {
            Ok(true) => decoded += 1,
            Ok(false) => continue,
            Err(e) => {
                problems.push(format!("{}: {e}", v.name));
                continue;
            }
        }
        let Ok(r) = decode::<ValueRef>(&fury, &v.bytes, c) else {
            continue;
        };
        let mut p = Parts::default();
        parts(&r, &mut p);
        for part in &p.borrowed {
            if inside(part, &v.bytes) || c.buffers.iter().any(|b| inside(part, b)) {
                borrowed += 1;
            } else {
                problems.push(format!(
                    "{}: a borrowed part of {} bytes lies outside the input",
                    v.name,
                    part.len()
                ));
            }
        }
        let mut want = Vec::new();
        unborrowable_texts(&v.value, &mut want);
        let mut got = p.owned_texts;
        want.sort();
        got.sort();
        if got != want {
            problems.push(format!(
                "{}: owns the texts {got:?}, the vector's encodings make {want:?} unborrowable",
                v.name
            ));
        }
        owned += got.len();
    }
    println!(
        "{} vectors, {decoded} decode; {borrowed} borrowed parts, {owned} owned texts",
        cases.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Most vectors are streams a dynamic reader takes (same-schema structs are not).
    assert!(decoded >= 600, "only {decoded} vectors decode");
    assert!(borrowed >= 1000, "only {borrowed} borrowed parts");
    // The LATIN1 and UTF-16 vectors of the builtin, struct and compat groups.
    assert!(owned >= 10, "only {owned} owned texts");
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "non-string panic".to_string())
}

#[test]
fn every_strict_prefix_is_an_error() {
    let mut prefixes = 0;
    let mut problems = Vec::new();
    for c in &cases() {
        let fury = fury_for(&c.v);
        if decode::<ValueRef>(&fury, &c.v.bytes, c).is_err() {
            continue;
        }
        for n in 0..c.v.bytes.len() {
            let prefix = &c.v.bytes[..n];
            prefixes += 1;
            match catch_unwind(AssertUnwindSafe(|| {
                decode::<ValueRef>(&fury, prefix, c).map(drop)
            })) {
                Ok(Err(_)) => {}
                Ok(Ok(())) => {
                    problems.push(format!("{}: the prefix of {n} bytes decodes", c.v.name))
                }
                Err(p) => problems.push(format!(
                    "{}: the prefix of {n} bytes panics: {}",
                    c.v.name,
                    panic_message(p)
                )),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(prefixes >= 10_000, "only {prefixes} prefixes");
}

#[test]
fn mutated_vectors_never_panic_and_both_forms_agree() {
    let mut mutants = 0;
    let mut problems = Vec::new();
    for c in &cases() {
        let fury = fury_for(&c.v);
        let bytes = &c.v.bytes;
        // Every position of a short vector; about 400 spread over a long one.
        let step = (bytes.len() / 400).max(1);
        for i in (0..bytes.len()).step_by(step) {
            let b = bytes[i];
            for m in [0x00, 0xff, b ^ 0x01, b ^ 0x80, b.wrapping_add(1)] {
                if m == b {
                    continue;
                }
                let mut mutant = bytes.clone();
                mutant[i] = m;
                mutants += 1;
                match catch_unwind(AssertUnwindSafe(|| agree(&fury, &mutant, c))) {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => {
                        problems.push(format!("{} with byte {i} = {m:#04x}: {e}", c.v.name))
                    }
                    Err(p) => problems.push(format!(
                        "{} with byte {i} = {m:#04x}: panics: {}",
                        c.v.name,
                        panic_message(p)
                    )),
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems, the first ones:\n{}",
        problems.len(),
        problems
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(mutants >= 100_000, "only {mutants} mutants");
}
