//! The borrowed mirrors of the struct and compat vectors (`generated/structs_borrowed.rs`,
//! `src/mirrors/compat_borrowed.rs`, written by `conformance/generators/rust_mirrors.py` beside the
//! owned mirrors): every struct with `&str` / `Cow<str>` / `&[u8]` / `ArrayView` fields.
//!
//! * every vector of both groups, with the group's settings (same-schema mode for the struct
//!   vectors, compatible mode for the compat vectors; the writer's and the reader's types of
//!   an evolution vector): pyfory's bytes decode as the borrowed mirror to the value the
//!   owned mirror decodes (converted field by field), every borrowed string, byte string and
//!   array points into the input, exactly the `Cow<str>` fields whose text pyfory wrote as
//!   non-ASCII LATIN1 or UTF-16 own it, and the borrowed value encodes to the owned value's
//!   bytes (and to pyfory's where the vector is `writer_same`); reading an `expected_error`
//!   vector as the borrowed reader fails;
//! * the owned and the borrowed mirror of every struct have the same schema fingerprints
//!   (hence hash) and TypeDef, and those are pyfory's where the vector files record them;
//! * every strict prefix of every vector decodes as the borrowed mirror to an error, never a
//!   panic, and mutated vectors never panic.
//!
//! `cargo test --workspace` (scripts/test-all.sh) runs it; `generate.py --check` there
//! keeps the borrowed mirrors current.

use fury_conformance::borrowed::{BorrowedCase, Furies, MirrorTypeCase, Outcome};
use fury_conformance::mirrors::{compat_borrowed, structs_borrowed};
use fury_conformance::structs::CompatKind;
use fury_conformance::{hex_encode, load_vectors, Vector};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Vectors whose shape the borrowed mirror cannot read: (name, why). None so far: the
/// generator writes a case for every struct and compat vector (`paired` fails on a vector
/// without one), and every case is run. A listed vector is run too and must fail (so the
/// list cannot go stale); an unlisted failure fails the run.
const SKIPPED: &[(&str, &str)] = &[
    (
        "compat/evolution/incompatible/nested_element_type/v1_to_v2",
        "optional vector (spec 08 8.7, MAY): fury-rs reads list<list<uint16>> into \
         list<uint16_array> (the official crate's nested vectors), which pyfory refuses; the \
         check expects pyfory's refusal",
    ),
    (
        "compat/evolution/incompatible/nested_element_type/v2_to_v1",
        "optional vector (spec 08 8.7, MAY): fury-rs reads list<uint16_array> into \
         list<list<uint16>>, which pyfory refuses; the check expects pyfory's refusal",
    ),
];

/// Vectors where neither mirror can do a step, with the same error (the owned mirror's
/// checks list them as divergences from pyfory): (name, text the error contains, why). The
/// steps before it are still checked; an unlisted vector of this kind fails the run, and so
/// does a listed one that both mirrors get through.
const NEITHER: &[(&str, &str, &str)] = &[
    (
        "compat/evolution/incompatible/numeric_string_to_int",
        "reader: decoding: type mismatch",
        "fury-rs refuses string<->number conversions where pyfory parses \"12\" into an int field",
    ),
    (
        "compat/evolution/incompatible/int_to_string",
        "reader: decoding: type mismatch",
        "fury-rs refuses string<->number conversions where pyfory formats 7 into a string field",
    ),
];

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "non-string panic".to_string())
}

fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(panic_message)
}

/// The cases of one group with their vectors; fails when the generated file does not match
/// the vector file.
fn paired(group: &str, cases: Vec<BorrowedCase>) -> Vec<(BorrowedCase, Vector)> {
    let dir = fury_conformance::groups::group(group).dir();
    let mut vectors: BTreeMap<String, Vector> = load_vectors(&dir)
        .expect("vector file loads")
        .into_iter()
        .map(|v| (v.name.clone(), v))
        .collect();
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    for case in cases {
        match vectors.remove(case.name) {
            Some(v) => out.push((case, v)),
            None => unknown.push(case.name),
        }
    }
    let missing: Vec<&String> = vectors.keys().collect();
    assert!(
        unknown.is_empty() && missing.is_empty(),
        "the borrowed mirror of {dir:?} is stale (run python conformance/generate.py): \
         cases without a vector {unknown:?}, vectors without a case {missing:?}"
    );
    out
}

fn all_cases() -> Vec<(BorrowedCase, Vector)> {
    let mut all = paired("structs", structs_borrowed::cases());
    all.extend(paired("compat", compat_borrowed::cases()));
    all
}

fn types_of(case: &BorrowedCase) -> String {
    if case.writer_type == case.reader_type {
        case.writer_type.to_string()
    } else {
        format!("{} -> {}", case.writer_type, case.reader_type)
    }
}

fn run(case: &BorrowedCase, v: &Vector) -> Result<Outcome, String> {
    let furies = guarded(case.furies).map_err(|p| format!("building the Furies panics: {p}"))??;
    guarded(|| (case.check)(&furies, &v.bytes, v.writer_same))
        .map_err(|p| format!("the check panics: {p}"))?
}

#[test]
fn every_vector_round_trips_through_its_borrowed_mirror() {
    let cases = all_cases();
    let mut failures = Vec::new();
    let mut checked = BTreeMap::<&str, usize>::new();
    let (mut borrowed, mut owned_texts, mut nothing_borrowed) = (0, 0, Vec::new());
    for (case, v) in &cases {
        if let Some((_, why)) = SKIPPED.iter().find(|s| s.0 == case.name) {
            match run(case, v) {
                Err(e) => println!("{}: skipped ({why}): {e}", case.name),
                Ok(_) => failures.push(format!(
                    "{}: listed in SKIPPED but passes: remove it",
                    case.name
                )),
            }
            continue;
        }
        let group = if case.name.starts_with("compat/") {
            "compat"
        } else {
            "structs"
        };
        match run(case, v) {
            Err(e) => failures.push(format!("{} [{}]:\n{e}", case.name, types_of(case))),
            Ok(out) => {
                let listed = NEITHER.iter().find(|u| u.0 == case.name);
                match (&out.neither, listed) {
                    (None, None) => {}
                    (Some(e), Some((_, needle, why))) if e.contains(needle) => {
                        println!("{}: neither mirror can, as listed ({why}): {e}", case.name)
                    }
                    (Some(e), _) => failures.push(format!(
                        "{}: neither mirror can (not listed in NEITHER, or another step): {e}",
                        case.name
                    )),
                    (None, Some(_)) => failures.push(format!(
                        "{}: listed in NEITHER but both mirrors get through: remove it",
                        case.name
                    )),
                }
                if out.borrowed == 0 && out.owned_texts == 0 {
                    nothing_borrowed.push(case.name);
                }
                borrowed += out.borrowed;
                owned_texts += out.owned_texts;
                *checked.entry(group).or_default() += 1;
            }
        }
    }
    println!(
        "{} vectors checked {checked:?}: {borrowed} borrowed parts in the input, {owned_texts} \
         Cow<str> fields owning their text; {} vectors hold nothing to borrow (numbers, enums, \
         empty strings, dynamic values)",
        checked.values().sum::<usize>(),
        nothing_borrowed.len()
    );
    for (name, _) in SKIPPED {
        if !cases.iter().any(|(c, _)| c.name == *name) {
            failures.push(format!(
                "{name}: listed in SKIPPED but there is no such vector"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    assert!(borrowed > 0 && owned_texts > 0);
}

fn check_type(case: &MirrorTypeCase, failures: &mut Vec<String>) {
    let name = case.type_name;
    let (owned, borrowed) = match guarded(case.fingerprints) {
        Ok(f) => f,
        Err(p) => return failures.push(format!("{name}: the fingerprints panic: {p}")),
    };
    if owned != borrowed {
        failures.push(format!(
            "{name}: fingerprints differ:\n  owned    {owned:?}\n  borrowed {borrowed:?}"
        ));
    }
    if let Some((fingerprint, hash)) = case.pyfory_hash {
        // the vectors' settings: compress_int on
        if borrowed[1] != fingerprint {
            failures.push(format!(
                "{name}: borrowed fingerprint {:?}, pyfory's {fingerprint:?}",
                borrowed[1]
            ));
        }
        let ours = fury::__private::schema_hash(&borrowed[1]);
        if ours != hash {
            failures.push(format!(
                "{name}: borrowed schema hash {ours}, pyfory's {hash}"
            ));
        }
    }
    match guarded(case.typedefs) {
        Err(p) => failures.push(format!("{name}: building the TypeDefs panics: {p}")),
        Ok(Err(e)) => failures.push(format!("{name}: {e}")),
        Ok(Ok((owned, borrowed))) => {
            if owned != borrowed {
                failures.push(format!(
                    "{name}: TypeDefs differ:\n  owned    {}\n  borrowed {}",
                    hex_encode(&owned),
                    hex_encode(&borrowed)
                ));
            }
            if let Some(hex) = case.pyfory_typedef_hex {
                if hex_encode(&borrowed) != hex {
                    failures.push(format!(
                        "{name}: borrowed TypeDef differs from pyfory's:\n  borrowed {}\n  pyfory   {hex}",
                        hex_encode(&borrowed)
                    ));
                }
            }
        }
    }
}

#[test]
fn owned_and_borrowed_mirrors_have_one_schema() {
    let mut failures = Vec::new();
    let structs = structs_borrowed::type_cases();
    let compat = compat_borrowed::type_cases();
    assert!(structs.iter().all(|c| c.pyfory_hash.is_some()));
    for case in structs.iter().chain(&compat) {
        check_type(case, &mut failures);
    }
    let with_typedef = compat
        .iter()
        .filter(|c| c.pyfory_typedef_hex.is_some())
        .count();
    println!(
        "{} struct types ({} struct group, {} compat group; {} with pyfory's hash, {with_typedef} \
         with pyfory's TypeDef)",
        structs.len() + compat.len(),
        structs.len(),
        compat.len(),
        structs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn prefix_failures(
    case: &BorrowedCase,
    fury: &fury::Fury,
    decode: fn(&fury::Fury, &[u8]) -> Result<(), String>,
    ty: &str,
    bytes: &[u8],
    failures: &mut Vec<String>,
) -> usize {
    for len in 0..bytes.len() {
        match guarded(|| decode(fury, &bytes[..len])) {
            Ok(Err(_)) => {}
            Ok(Ok(())) => failures.push(format!(
                "{}: the {len}-byte prefix decodes as {ty}",
                case.name
            )),
            Err(p) => failures.push(format!(
                "{}: the {len}-byte prefix panics as {ty}: {p}",
                case.name
            )),
        }
    }
    bytes.len()
}

#[test]
fn every_strict_prefix_is_an_error() {
    let mut failures = Vec::new();
    let mut tried = 0;
    for (case, v) in all_cases() {
        let furies: Furies = match guarded(case.furies) {
            Ok(Ok(f)) => f,
            Ok(Err(e)) => {
                failures.push(format!("{}: {e}", case.name));
                continue;
            }
            Err(p) => {
                failures.push(format!("{}: building the Furies panics: {p}", case.name));
                continue;
            }
        };
        tried += prefix_failures(
            &case,
            &furies.borrowed_reader,
            case.decode_reader,
            case.reader_type,
            &v.bytes,
            &mut failures,
        );
        if case.kind != CompatKind::Plain {
            tried += prefix_failures(
                &case,
                &furies.borrowed_writer,
                case.decode_writer,
                case.writer_type,
                &v.bytes,
                &mut failures,
            );
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
    let (mut tried, mut accepted) = (0usize, 0usize);
    for (case, v) in all_cases() {
        let Ok(Ok(furies)) = guarded(case.furies) else {
            continue; // reported by every_strict_prefix_is_an_error
        };
        for pos in (0..v.bytes.len()).filter(|&p| p < 64 || p % 7 == 0) {
            let orig = v.bytes[pos];
            for b in [0x00, 0x7f, 0x80, 0xff, orig ^ 1] {
                if b == orig {
                    continue;
                }
                let mut bytes = v.bytes.clone();
                bytes[pos] = b;
                tried += 1;
                match guarded(|| (case.decode_reader)(&furies.borrowed_reader, &bytes)) {
                    Ok(Ok(())) => accepted += 1,
                    Ok(Err(_)) => {}
                    Err(p) => failures.push(format!(
                        "{}: byte {pos} set to 0x{b:02x} panics as {}: {p}",
                        case.name, case.reader_type
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
