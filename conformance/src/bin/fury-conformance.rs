//! `fury-conformance [VECTOR_DIR] [OUT.json]`: checks every vector against the `fury` crate
//! and writes the bytes it produced to OUT.json (default
//! `target/conformance/fury-rs-bytes.json`) for `check_peer.py`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("vectors"));
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../target/conformance/fury-rs-bytes.json"));
    let vectors = match fury_conformance::load_vectors(&dir) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("cannot load vectors: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = fury_conformance::run(&vectors);
    for f in &report.failures {
        println!("FAIL {f}");
    }
    if let Err(e) = fury_conformance::write_peer_bytes(&report, &out) {
        eprintln!("cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!(
        "fury-conformance: {} vectors, {} produced byte strings written to {}",
        report.vectors,
        report.produced.iter().filter(|p| p.outcome.is_ok()).count(),
        out.display()
    );
    println!(
        "{} passed, {} failed",
        report.vectors.saturating_sub(report.failures.len()),
        report.failures.len()
    );
    if report.failures.is_empty() && report.vectors > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
