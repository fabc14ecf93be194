//! The compatible-mode vectors (`conformance/vectors/compat/`), through the Rust mirror that
//! `conformance/generators/rust_mirrors.py` generates (`src/mirrors/compat_mirror.rs`):
//!
//! * plain vectors decode as their derived Rust type to the expected value, which encodes to
//!   pyfory's bytes;
//! * evolution vectors decode with the reader's `Fury` as the reader's type to what pyfory's
//!   reader gives, and the writer's value encodes with the writer's `Fury` to pyfory's bytes;
//!   `expected_error` vectors must fail to decode; vectors pyfory's own reader cannot read
//!   (`pyfory_reader_error`) are reported apart and do not fail the run;
//! * every TypeDef fury builds equals pyfory's;
//! * truncated and mutated inputs give errors, never panics;
//! * `target/conformance/fury-rs-compat.json` receives our bytes for
//!   `check_peer.py --group compat`.

use fury_conformance::mirrors::compat_mirror as mirror;
use fury_conformance::structs::{CompatCase, CompatKind};
use fury_conformance::{hex_encode, load_vectors, write_peer_bytes, Produced, Report, Vector};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

fn vectors() -> Vec<Vector> {
    let dir = fury_conformance::groups::group("compat").dir();
    load_vectors(&dir).expect("compat vector file loads")
}

/// Every generated case with its vector; fails when the generated file does not match the
/// vector file (regenerate it with `python conformance/generate.py`).
fn paired() -> Vec<(CompatCase, Vector)> {
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
        "compat_mirror.rs is stale (run python conformance/generate.py): \
         cases without a vector {unknown:?}, vectors without a case {missing:?}"
    );
    out
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "non-string panic".to_string())
}

fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(panic_message)
}

fn types_of(case: &CompatCase) -> String {
    if case.kind == CompatKind::Plain {
        case.writer_type.to_string()
    } else {
        format!("{} -> {}", case.writer_type, case.reader_type)
    }
}

/// Runs one case's check; `Err` carries every problem.
fn run_case(case: &CompatCase, v: &Vector) -> Result<Vec<u8>, String> {
    let writer = guarded(case.writer_fury)
        .map_err(|p| format!("building the writer's Fury panics: {p}"))??;
    let reader = guarded(case.reader_fury)
        .map_err(|p| format!("building the reader's Fury panics: {p}"))??;
    guarded(|| (case.check)(&writer, &reader, &v.bytes, v.writer_same))
        .map_err(|p| format!("the check panics: {p}"))?
}

/// Where fury-rs deliberately or knowingly differs from pyfory: the vector, the text every
/// problem line of its check must contain, and why. A listed vector that fails in any other
/// way, or passes, is a failure (so the list cannot go stale silently).
const DIVERGENCES: &[(&str, &str, &str)] = &[
    (
        "compat/evolution/name_matching/camel_to_snake",
        "decode as EvoCaseV2 to another value",
        "optional behaviour (the vector says so): fury-rs matches remote userId with local \
         user_id by their snake_case forms; pyfory does not convert camelCase to snake_case",
    ),
    (
        "compat/evolution/name_matching/name_to_tag",
        "decode as EvoTagNameV2 to another value",
        "optional behaviour (the vector says so): fury-rs matches names only with names and tags \
         only with tags; pyfory also matches a remote name with a local tagged field",
    ),
    (
        "compat/evolution/incompatible/numeric_string_to_int",
        "no conversion",
        "pyfory parses the string \"12\" into an int field; fury-rs refuses string<->number \
         conversions (an error, never a guessed value)",
    ),
    (
        "compat/evolution/incompatible/int_to_string",
        "no conversion",
        "pyfory formats 7 into a string field; fury-rs refuses string<->number conversions",
    ),
    (
        "compat/evolution/incompatible/nested_element_type/v1_to_v2",
        "succeeds, but pyfory's reader fails",
        "optional behaviour (the vector says so): fury-rs reads list<list<uint16>> into \
         list<uint16_array>, the official crate's nested vectors; pyfory refuses the pair",
    ),
    (
        "compat/evolution/incompatible/nested_element_type/v2_to_v1",
        "succeeds, but pyfory's reader fails",
        "optional behaviour (the vector says so): fury-rs reads list<uint16_array> into \
         list<list<uint16>>; pyfory refuses the pair",
    ),
];

/// The listed divergence of `name`, if any.
fn divergence(name: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    DIVERGENCES.iter().find(|d| d.0 == name)
}

/// True when every problem line of `err` (after the case header) mentions `needle`.
fn only_problem(err: &str, needle: &str) -> bool {
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| {
            !l.trim().is_empty()
                && !l.trim_start().starts_with("ours")
                && !l.trim_start().starts_with("pyfory")
                // the detail lines under "... to another value:"
                && !l.trim_start().starts_with("decoded ")
                && !l.trim_start().starts_with("expected ")
        })
        .collect();
    !lines.is_empty() && lines.iter().all(|l| l.contains(needle))
}

#[test]
fn every_case_matches_pyfory() {
    let cases = paired();
    let mut failures = Vec::new();
    let mut unconfirmed = Vec::new();
    let mut per_kind: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (case, v) in &cases {
        if case.has_nan {
            println!(
                "{}: holds a NaN; compared by Debug text and encoded bytes",
                case.name
            );
        }
        if case.dynamic_user_values {
            println!(
                "{}: holds a struct or enum in an `any` position (Value::Struct / Value::Enum)",
                case.name
            );
        }
        let result = run_case(case, v);
        if case.kind == CompatKind::PyforyReaderError {
            println!(
                "{}: pyfory's own reader fails on these bytes; `expected` is a prediction \
                 (fury-rs: {})",
                case.name,
                if result.is_ok() {
                    "matches it"
                } else {
                    "differs, see below"
                }
            );
        }
        let entry = per_kind.entry(format!("{:?}", case.kind)).or_default();
        entry.0 += 1;
        if let Some((_, needle, why)) = divergence(case.name) {
            match &result {
                Err(e) if only_problem(e, needle) => {
                    println!("{}: known divergence, as listed: {why}", case.name);
                    entry.1 += 1;
                }
                Err(e) => failures.push(format!(
                    "{} [{}]: listed divergence ({needle:?}) but failed otherwise:\n{e}",
                    case.name,
                    types_of(case)
                )),
                Ok(_) => failures.push(format!(
                    "{}: listed as a divergence ({needle:?}) but passes: remove it from DIVERGENCES",
                    case.name
                )),
            }
            continue;
        }
        match result {
            Ok(_) => entry.1 += 1,
            Err(e) => {
                let msg = format!("{} [{}]:\n{e}", case.name, types_of(case));
                if case.kind == CompatKind::PyforyReaderError {
                    unconfirmed.push(msg);
                } else {
                    failures.push(msg);
                }
            }
        }
    }
    for (kind, (n, ok)) in &per_kind {
        println!("{kind}: {ok} of {n} pass");
    }
    if !unconfirmed.is_empty() {
        println!(
            "\n{} vector(s) that pyfory's own reader cannot read (expected value not confirmed \
             by pyfory; not counted as failures):\n\n{}\n",
            unconfirmed.len(),
            unconfirmed.join("\n\n")
        );
    }
    println!(
        "{} of {} compat vectors pass",
        cases.len() - failures.len() - unconfirmed.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} compat vectors failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The TypeDef the derive builds for every type equals the one pyfory writes.
#[test]
fn typedefs_match_pyfory() {
    let mut failures = Vec::new();
    let cases = mirror::typedef_cases();
    for case in &cases {
        match guarded(case.local) {
            Err(p) => failures.push(format!(
                "{}: building the TypeDef panics: {p}",
                case.type_name
            )),
            Ok(Err(e)) => failures.push(format!("{}: {e}", case.type_name)),
            Ok(Ok(ours)) => {
                let ours = hex_encode(&ours);
                if ours != case.typedef_hex {
                    failures.push(format!(
                        "{}: TypeDef differs:\n  ours   {ours}\n  pyfory {}",
                        case.type_name, case.typedef_hex
                    ));
                }
            }
        }
    }
    for (name, error) in mirror::TYPEDEF_ERRORS {
        println!("{name}: no TypeDef to compare (pyfory 1.7.7 fails: {error})");
    }
    println!(
        "{} of {} TypeDefs equal pyfory's",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} TypeDefs differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn peer_bytes_path() -> PathBuf {
    fury_conformance::groups::peer_bytes("compat")
}

/// Writes what we encode for every vector (the writer's value, with the writer's types), for
/// `check_peer.py --group compat`.
#[test]
fn writes_peer_bytes() {
    let mut report = Report::default();
    for (case, _) in paired() {
        report.vectors += 1;
        let outcome = guarded(|| {
            let writer = (case.writer_fury)()?;
            (case.encode)(&writer)
        })
        .unwrap_or_else(|p| Err(format!("panics: {p}")))
        .map_err(|e| format!("fury-rs could not encode {}: {e}", case.writer_type));
        report.produced.push(Produced {
            name: case.name.to_string(),
            path: "typed",
            outcome,
        });
    }
    let skipped: Vec<String> = report
        .produced
        .iter()
        .filter_map(|p| p.outcome.as_ref().err().map(|e| format!("{}: {e}", p.name)))
        .collect();
    let out = peer_bytes_path();
    write_peer_bytes(&report, &out).expect("peer-bytes file written");
    println!("wrote {}", out.display());
    if !skipped.is_empty() {
        println!(
            "{} vector(s) written as skipped:\n{}",
            skipped.len(),
            skipped.join("\n")
        );
    }
}

/// The cases with their reader's `Fury` (a case whose `Fury` cannot be built is reported by
/// `every_case_matches_pyfory`).
fn with_readers() -> Vec<(CompatCase, Vector, fury::Fury)> {
    paired()
        .into_iter()
        .filter_map(|(case, v)| {
            let reader = guarded(case.reader_fury).ok()?.ok()?;
            Some((case, v, reader))
        })
        .collect()
}

fn decode_guarded(
    case: &CompatCase,
    fury: &fury::Fury,
    bytes: &[u8],
) -> Result<Result<(), String>, String> {
    guarded(|| (case.decode)(fury, bytes))
}

#[test]
fn truncated_inputs_are_errors() {
    let mut failures = Vec::new();
    let mut tried = 0usize;
    for (case, v, reader) in with_readers() {
        for len in 0..v.bytes.len() {
            tried += 1;
            match decode_guarded(&case, &reader, &v.bytes[..len]) {
                Ok(Err(_)) => {}
                Ok(Ok(())) => failures.push(format!(
                    "{}: the {len}-byte prefix decodes as {}",
                    case.name, case.reader_type
                )),
                Err(p) => {
                    failures.push(format!("{}: the {len}-byte prefix panics: {p}", case.name))
                }
            }
        }
    }
    println!("{tried} prefixes");
    assert!(
        failures.is_empty(),
        "{} prefixes misbehave:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn mutated_inputs_never_panic() {
    let mut failures = Vec::new();
    let mut tried = 0usize;
    let mut accepted = 0usize;
    for (case, v, reader) in with_readers() {
        for pos in (0..v.bytes.len()).filter(|&p| p < 64 || p % 7 == 0) {
            let orig = v.bytes[pos];
            for b in [0x00, 0x7f, 0x80, 0xff, orig ^ 1] {
                if b == orig {
                    continue;
                }
                let mut bytes = v.bytes.clone();
                bytes[pos] = b;
                tried += 1;
                match decode_guarded(&case, &reader, &bytes) {
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
    assert!(
        failures.is_empty(),
        "{} mutations panic:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
