//! Every committed vector decodes (as `Value` and as its Rust type), compares equal to the
//! expected value, and re-encodes to pyfory's bytes where the writer choices agree.

use std::path::Path;

fn vectors() -> Vec<fury_conformance::Vector> {
    let dir = fury_conformance::groups::group("builtins").dir();
    fury_conformance::load_vectors(&dir).expect("vector files load")
}

#[test]
fn all_vectors_pass() {
    let vectors = vectors();
    let report = fury_conformance::run(&vectors);
    for (group, n) in &report.per_group {
        println!("{group:>14}: {n} vectors");
    }
    for d in &report.typed_kind_differs {
        println!("typed kind differs (round-trip checked): {d}");
    }
    assert!(
        report.failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        report.failures.len(),
        report.vectors,
        report.failures.join("\n")
    );
    assert!(report.vectors >= 150, "only {} vectors", report.vectors);
}

#[test]
fn every_schema_without_any_has_a_static_rust_type() {
    let vectors = vectors();
    let report = fury_conformance::run(&vectors);
    let missing: Vec<String> = report
        .produced
        .iter()
        .filter(|p| p.path == "typed")
        .filter_map(|p| match &p.outcome {
            Err(why) if why.starts_with("no static Rust type") && !why.contains(':') => {
                Some(format!("{}: {why}", p.name))
            }
            _ => None,
        })
        .collect();
    assert!(
        missing.is_empty(),
        "schemas without a typed mapping:\n{}",
        missing.join("\n")
    );
}

#[test]
fn names_are_unique() {
    let vectors = vectors();
    let mut seen = std::collections::HashSet::new();
    for v in &vectors {
        assert!(
            seen.insert(v.name.clone()),
            "duplicate vector name {}",
            v.name
        );
    }
}

/// The typed path checks a vector by round trip instead of byte equality when our Rust type
/// writes other wire kinds than pyfory (`Vec<i64>` is an INT64_ARRAY where pyfory wrote a
/// LIST). That fallback is allowed only for the vectors in
/// `conformance/failures/typed-kind-differs.txt`: a new one fails (a SET written as a LIST
/// would otherwise pass silently), and so does a listed one that no longer differs.
#[test]
fn typed_kind_fallbacks_are_the_listed_ones() {
    let report = fury_conformance::run(&vectors());
    let actual: std::collections::BTreeSet<String> = report
        .typed_kind_differs
        .iter()
        .map(|d| d.split(": ").next().unwrap_or("").to_string())
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("failures/typed-kind-differs.txt");
    let text = std::fs::read_to_string(&path).expect("list file");
    let listed: std::collections::BTreeSet<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    let new: Vec<_> = actual.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&actual).collect();
    assert!(
        new.is_empty() && stale.is_empty(),
        "typed-path fallbacks differ from {}:\n  not listed: {new:?}\n  listed, but byte-checked now: {stale:?}",
        path.display()
    );
}
