//! `fury inspect` on every vector of every group: the leaves of the tree cover every byte
//! exactly once, in order; every stream is read to its end, except same-schema streams
//! holding a struct, whose fields need the type (the inspector stops at the first struct's
//! fields and says so, and only there); and a broken stream is pointed at where it breaks.

use fury_cli::{inspect, Inspection};

fn streams() -> Vec<(String, Vec<u8>, bool)> {
    let mut out = Vec::new();
    for group in ["builtins", "structs", "compat", "refs", "any"] {
        let dir = fury_conformance::groups::group(group).dir();
        for v in fury_conformance::load_vectors(&dir).expect("vectors load") {
            let compatible = v.settings["compatible"].as_bool().unwrap_or(true);
            out.push((v.name, v.bytes, compatible));
        }
    }
    let meta = std::fs::read_to_string(fury_conformance::groups::file("meta")).expect("meta");
    let doc: serde_json::Value = serde_json::from_str(&meta).expect("meta json");
    for s in doc["streams"].as_array().expect("streams") {
        let hex = s["bytes"].as_str().expect("bytes");
        let bytes = fury_conformance::hex_decode(hex).expect("hex");
        out.push((
            format!("meta/{}", s["name"].as_str().unwrap_or("?")),
            bytes,
            false,
        ));
    }
    out
}

fn coverage(insp: &Inspection) -> Result<(), String> {
    let mut at = 0;
    for leaf in insp.root.leaves() {
        if leaf.offset != at {
            return Err(format!(
                "leaf {:?} at {} where byte {at} is next",
                leaf.what, leaf.offset
            ));
        }
        if leaf.len == 0 {
            return Err(format!("empty leaf {:?} at {at}", leaf.what));
        }
        at += leaf.len;
    }
    if at != insp.bytes.len() {
        return Err(format!("leaves end at {at} of {}", insp.bytes.len()));
    }
    Ok(())
}

fn holds_struct(name: &str) -> bool {
    // what the struct groups name: every same-schema vector of these groups holds a struct or
    // named enum, checked against the inspector's own stop reason below
    name.starts_with("structs/")
        || name.starts_with("refs/same_schema/")
        || name.starts_with("any/same_schema/")
        || name.starts_with("any/refs/same_schema/")
        || name.starts_with("meta/")
}

#[test]
fn every_vector_is_covered_byte_for_byte() {
    let mut failures = Vec::new();
    let (mut full, mut typed_stop) = (0, 0);
    let all = streams();
    for (name, bytes, compatible) in &all {
        let insp = inspect(bytes);
        if let Err(e) = coverage(&insp) {
            failures.push(format!("{name}: {e}"));
        }
        match &insp.stop {
            None => full += 1,
            Some(s) if s.needs_type && !compatible && holds_struct(name) => typed_stop += 1,
            Some(s) => failures.push(format!(
                "{name}: stopped at {} ({}){}",
                s.offset,
                s.why,
                if s.needs_type {
                    ""
                } else {
                    " -- reported as broken"
                }
            )),
        }
        if *compatible && insp.typedefs > 0 && !insp.compatible {
            failures.push(format!(
                "{name}: a stream with TypeDefs inspected in same-schema mode"
            ));
        }
    }
    println!(
        "{} streams: {full} read to the end, {typed_stop} stopped at a same-schema struct",
        all.len()
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(full > 700, "most streams are read to their end ({full})");
}

#[test]
fn a_truncated_stream_points_at_the_break() {
    // compat/point/basic without its last byte
    let hex = "01ff1c0008f0df8f5085ab1cc26440046040055c02000000";
    let bytes = fury_conformance::hex_decode(hex).expect("hex");
    let insp = inspect(&bytes);
    let stop = insp.stop.clone().expect("stops");
    assert!(!stop.needs_type);
    assert_eq!(
        stop.offset,
        bytes.len(),
        "breaks where field x should start"
    );
    assert!(stop.why.contains("varint32"), "{}", stop.why);
    assert!(coverage(&insp).is_ok());
    assert!(
        insp.render_text().contains("!! broken at offset 24"),
        "{}",
        insp.render_text()
    );
}

#[test]
fn garbage_in_the_middle_is_reported_with_its_offset() {
    // a list of 3 varint64 whose second element header is a bad ref flag
    let bytes = [
        0x01, 0xff, 0x16, 0x03, 0x0a, 0x07, 0xff, 0x02, 0x42, 0x04, 0xff, 0x06,
    ];
    let insp = inspect(&bytes);
    let stop = insp.stop.clone().expect("stops");
    assert_eq!(stop.offset, 8);
    assert!(stop.why.contains("0x42"), "{}", stop.why);
    assert!(coverage(&insp).is_ok(), "the unread rest is one leaf");
    let last = insp
        .root
        .leaves()
        .last()
        .map(|l| l.what.clone())
        .unwrap_or_default();
    assert!(last.contains("4 bytes unread"), "{last}");
}

#[test]
fn annotations_name_what_the_bytes_mean() {
    // compat/named/person: TypeDef with field names, meta strings, nested TypeDef
    let all = streams();
    let (_, bytes, _) = all
        .iter()
        .find(|(n, _, _)| n == "compat/named/person")
        .expect("vector");
    let text = inspect(bytes).render_text();
    for want in [
        "NAMED_COMPATIBLE_STRUCT",
        "\"demo.Person\"",
        "field home",
        "TypeDef 1",
        "string \"Ada\"",
        "field nick",
        "ref flag NOT_NULL",
    ] {
        assert!(text.contains(want), "{want:?} missing from\n{text}");
    }
    // same-schema named struct: meta strings decoded with their encoding
    let (_, bytes, _) = all
        .iter()
        .find(|(n, _, _)| n == "structs/named/person")
        .expect("vector");
    let text = inspect(bytes).render_text();
    for want in [
        "LOWER_SPECIAL",
        "namespace \"demo\"",
        "type name \"Person\"",
        "struct schema hash",
    ] {
        assert!(text.contains(want), "{want:?} missing from\n{text}");
    }
    // reference tracking: ids given and referred to
    let (_, bytes, _) = all
        .iter()
        .find(|(n, _, _)| n == "refs/same_schema/lists/nested_shared")
        .expect("vector");
    let text = inspect(bytes).render_text();
    assert!(
        text.contains("takes reference id 2") && text.contains("back reference to id 2"),
        "{text}"
    );
}

#[test]
fn json_output_has_every_leaf_with_its_bytes() {
    let bytes = [0x01, 0xff, 0x15, 0x04, 0x61];
    let j = inspect(&bytes).to_json();
    assert_eq!(j["format"], "fury-inspect/1");
    let root = &j["root"]["children"];
    let s = serde_json::to_string(root).expect("json");
    assert!(
        s.contains("\"hex\":\"0461\"") || s.contains("\"hex\":\"04\""),
        "{s}"
    );
    assert!(s.contains("string \\\"a\\\""), "{s}");
}
