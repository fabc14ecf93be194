//! The struct and enum vectors (`conformance/vectors/structs/`), through the Rust mirror that
//! `conformance/generators/rust_mirrors.py` generates (`fury_conformance::mirrors`): every vector decodes as its derived Rust type
//! to the expected value, and the expected value encodes to pyfory's bytes.

use fury_conformance::mirrors::structs_mirror as mirror;
use fury_conformance::structs::Case;
use fury_conformance::{load_vectors, write_peer_bytes, Produced, Report, Vector};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

fn fury() -> fury::Fury {
    let mut fury = fury::Fury::builder().compatible(false).build();
    mirror::register_all(&mut fury);
    fury
}

fn vectors() -> Vec<Vector> {
    let dir = fury_conformance::groups::group("structs").dir();
    load_vectors(&dir).expect("struct vector file loads")
}

/// Every generated case with its vector; fails when the generated file does not match the
/// vector file (regenerate it with `python conformance/generate.py`).
fn paired() -> Vec<(Case, Vector)> {
    let mut vectors: std::collections::BTreeMap<String, Vector> =
        vectors().into_iter().map(|v| (v.name.clone(), v)).collect();
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    for case in mirror::cases() {
        match vectors.remove(case.name) {
            Some(v) => out.push((case, v)),
            None => unknown.push(case.name),
        }
    }
    let missing: Vec<&String> = vectors.keys().collect();
    assert!(
        unknown.is_empty() && missing.is_empty(),
        "structs_mirror.rs is stale (run python conformance/generate.py): \
         cases without a vector {unknown:?}, vectors without a case {missing:?}"
    );
    out
}

#[test]
fn every_case_matches_pyfory() {
    let fury = fury();
    let cases = paired();
    let mut failures = Vec::new();
    for (case, v) in &cases {
        if case.has_nan {
            println!(
                "{}: holds a NaN; compared by Debug text and encoded bytes",
                case.name
            );
        }
        if let Err(e) = (case.check)(&fury, &v.bytes, v.writer_same) {
            failures.push(format!("{} [{}]:\n{e}", case.name, case.rust_type));
        }
    }
    println!(
        "{} of {} struct vectors pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} struct vectors failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn schema_hashes_agree_with_pyfory() {
    let mut failures = Vec::new();
    for &(name, order, fingerprint, hash) in mirror::STRUCT_HASHES {
        let ours = fury::__private::schema_hash(fingerprint);
        if ours != hash {
            failures.push(format!(
                "{name}: schema_hash({fingerprint:?}) = {ours}, pyfory {hash}"
            ));
        }
        if order.is_empty() != fingerprint.is_empty() {
            failures.push(format!(
                "{name}: field order {order:?} vs fingerprint {fingerprint:?}"
            ));
        }
    }
    // Where a vector's root is a struct registered by id, pyfory's hash follows the type info
    // `01 ff 1b <var_uint32 id>`.
    let by_id: std::collections::HashMap<&str, (u32, i32)> = mirror::STRUCT_HASHES
        .iter()
        .filter_map(|&(name, _, _, hash)| registered_id(name).map(|id| (name, (id, hash))))
        .collect();
    let mut seen = 0;
    for v in vectors() {
        let Some(&(id, hash)) = by_id.get(v.schema.as_str()) else {
            continue;
        };
        let mut prefix = vec![0x01, 0xff, 0x1b];
        let mut x = id;
        while x >= 0x80 {
            prefix.push((x as u8) | 0x80);
            x >>= 7;
        }
        prefix.push(x as u8);
        let want: Vec<u8> = prefix.iter().copied().chain(hash.to_le_bytes()).collect();
        if !v.bytes.starts_with(&want) {
            failures.push(format!(
                "{}: bytes do not start with {}",
                v.name,
                fury_conformance::hex_encode(&want)
            ));
        }
        seen += 1;
    }
    assert!(
        seen > 0,
        "no vector has a struct registered by id at its root"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The user type id of a type whose derive registers it by id.
fn registered_id(name: &str) -> Option<u32> {
    match mirror::registration_of(name) {
        Some(fury::registry::Registration::Id(id)) => Some(id),
        _ => None,
    }
}

fn peer_bytes_path() -> PathBuf {
    fury_conformance::groups::peer_bytes("structs")
}

/// Writes what we encode for every vector, for
/// `check_peer.py --group structs`.
#[test]
fn writes_peer_bytes() {
    let fury = fury();
    let mut report = Report::default();
    for (case, _) in paired() {
        report.vectors += 1;
        report.produced.push(Produced {
            name: case.name.to_string(),
            path: "typed",
            outcome: (case.encode)(&fury)
                .map_err(|e| format!("fury-rs could not encode {}: {e}", case.rust_type)),
        });
    }
    let out = peer_bytes_path();
    write_peer_bytes(&report, &out).expect("peer-bytes file written");
    println!("wrote {}", out.display());
}

fn decode_guarded(
    case: &Case,
    fury: &fury::Fury,
    bytes: &[u8],
) -> Result<Result<(), String>, String> {
    catch_unwind(AssertUnwindSafe(|| (case.decode)(fury, bytes))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "non-string panic".to_string())
    })
}

#[test]
fn truncated_inputs_are_errors() {
    let fury = fury();
    let mut failures = Vec::new();
    let mut tried = 0usize;
    for (case, v) in paired() {
        for len in 0..v.bytes.len() {
            tried += 1;
            match decode_guarded(&case, &fury, &v.bytes[..len]) {
                Ok(Err(_)) => {}
                Ok(Ok(())) => failures.push(format!(
                    "{}: the {len}-byte prefix decodes as {}",
                    case.name, case.rust_type
                )),
                Err(p) => {
                    failures.push(format!("{}: the {len}-byte prefix panics: {p}", case.name))
                }
            }
        }
    }
    println!("{tried} prefixes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mutated_inputs_never_panic() {
    let fury = fury();
    let mut failures = Vec::new();
    let mut tried = 0usize;
    let mut accepted = 0usize;
    for (case, v) in paired() {
        for pos in (0..v.bytes.len()).filter(|&p| p < 64 || p % 7 == 0) {
            let orig = v.bytes[pos];
            for b in [0x00, 0x7f, 0x80, 0xff, orig ^ 1] {
                if b == orig {
                    continue;
                }
                let mut bytes = v.bytes.clone();
                bytes[pos] = b;
                tried += 1;
                match decode_guarded(&case, &fury, &bytes) {
                    Ok(Ok(())) => accepted += 1,
                    Ok(Err(_)) => {}
                    Err(p) => failures.push(format!(
                        "{}: byte {pos} set to 0x{b:02x} panics: {p}",
                        case.name
                    )),
                }
            }
        }
    }
    println!("{tried} mutations, {accepted} decoded without error");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
