//! Every committed vector decodes (as `Value` and as its Rust type), compares equal to the
//! expected value, and re-encodes to pyfory's bytes where the writer choices agree.

use std::path::Path;

fn vectors() -> Vec<fury_conformance::Vector> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
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
