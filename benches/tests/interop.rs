//! The interop table against the official crate `fory` 1.7.7 (the benchmark report's
//! "fury-rs vs fory" section), asserted: every dataset and mode must give exactly the
//! outcome `benches/interop-expected.txt` records, where each "no" is a known divergence
//! (spec/DISAGREEMENTS.md, "The official Rust crate `fory` 1.7.7"). A row that changes
//! either way fails, so an improvement updates the file and a regression is caught.

use fury_benches::interop::{interop_rows, kind_rows, type_rows, InteropRow};
use fury_benches::peers::Engines;

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn line(r: &InteropRow) -> String {
    format!(
        "{} {} identical={} fory_reads_fury={} fury_reads_fory={}",
        r.dataset,
        if r.compatible {
            "compatible"
        } else {
            "same-schema"
        },
        yes(r.identical),
        yes(r.fory_reads_fury.is_ok()),
        yes(r.fury_reads_fory.is_ok())
    )
}

#[test]
fn interop_with_the_official_crate_is_the_recorded_one() {
    let engines = Engines::new();
    let mut rows = interop_rows(&engines);
    rows.extend(type_rows());
    rows.extend(kind_rows());
    let actual: Vec<String> = rows.iter().map(line).collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/interop-expected.txt");
    let text = std::fs::read_to_string(path).expect("interop-expected.txt");
    let expected: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let missing: Vec<&String> = expected.iter().filter(|e| !actual.contains(e)).collect();
    let new: Vec<String> = rows
        .iter()
        .filter(|r| !expected.contains(&line(r)))
        .map(|r| {
            format!(
                "{} ({:?} / {:?})",
                line(r),
                r.fory_reads_fury,
                r.fury_reads_fory
            )
        })
        .collect();
    assert!(
        missing.is_empty() && new.is_empty() && actual.len() == expected.len(),
        "the interop table changed ({path}):\n  no longer: {missing:#?}\n  now: {new:#?}"
    );
}
