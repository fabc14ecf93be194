//! The report's smoke checks under `cargo test` (so `cargo test --workspace` runs them too):
//! every peer round-trips every dataset it can do (and fury-rs serde writes fury-rs's bytes),
//! the loops run, two threads sharing one instance get the same results, and the report
//! renders.

use fury_benches::datasets::{DATASETS, THREAD_DATASETS};
use fury_benches::interop::interop_rows;
use fury_benches::measure::{measure, Settings};
use fury_benches::peers::{
    all_cases, byte_mismatches, expected_byte_difference, Engines, Op, Peer,
};
use fury_benches::render::Report;
use fury_benches::threads::thread_rows;

#[test]
fn every_peer_round_trips_every_dataset_and_the_report_renders() {
    let engines = Engines::new();
    let mut cases = all_cases(&engines, &Peer::ALL);
    assert_eq!(cases.len(), DATASETS.len() * Peer::ALL.len());
    let unavailable: Vec<_> = cases
        .iter()
        .filter_map(|c| c.unavailable.clone().map(|why| (c.dataset, c.peer, why)))
        .collect();
    // Only the serde rows may lack a dataset (a type the serde path refuses).
    for (d, p, why) in &unavailable {
        assert!(
            matches!(p, Peer::FuryRsSerde | Peer::FuryRsSerdeCompatible),
            "{d} / {}: {why}",
            p.name()
        );
    }
    let failures: Vec<String> = cases
        .iter()
        .filter(|c| c.unavailable.is_none())
        .filter_map(|c| {
            c.roundtrip
                .as_ref()
                .err()
                .map(|e| format!("{} / {}: {e}", c.dataset, c.peer.name()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "round-trip failures:\n{}",
        failures.join("\n")
    );
    let mismatches: Vec<_> = byte_mismatches(&cases)
        .into_iter()
        .filter(|(d, _, _)| expected_byte_difference(d).is_none())
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");

    let settings = Settings::smoke();
    let measured = measure(&mut cases, &settings, |_| {});
    // Both ops of every available case, except the informative rkyv access row: deserialize
    // only.
    for c in cases.iter().filter(|c| c.unavailable.is_none()) {
        assert_eq!(c.serialize.is_none(), c.peer.informative(), "{:?}", c.peer);
    }
    let decode_only = cases
        .iter()
        .filter(|c| c.serialize.is_none() && c.unavailable.is_none())
        .count();
    assert_eq!(decode_only, DATASETS.len());
    assert_eq!(
        measured.len(),
        (cases.len() - unavailable.len()) * Op::ALL.len() - decode_only
    );

    let threads = thread_rows(&engines, &settings);
    assert_eq!(
        threads.len(),
        THREAD_DATASETS.len() * Peer::THREADS.len() * Op::ALL.len()
    );
    for t in &threads {
        assert!(
            t.check.is_ok(),
            "{} {} {}: {:?}",
            t.dataset,
            t.op.name(),
            t.peer.name(),
            t.check
        );
    }

    let report = Report {
        settings,
        sizes: cases
            .iter()
            .filter(|c| c.unavailable.is_none())
            .map(|c| (c.dataset, c.peer, c.size))
            .collect(),
        measured,
        failures: Vec::new(),
        unavailable,
        threads,
        interop: interop_rows(&engines),
        borrowed: None,
        load: Vec::new(),
        elapsed_secs: 0.0,
    };
    let md = report.markdown();
    for d in DATASETS {
        assert!(md.contains(&format!("| {d} | serialize |")), "{d} missing");
    }
    assert!(md.contains("| rkyv access (informative) |"));
    let svg = report.svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
}

#[test]
fn every_borrowed_row_round_trips_and_the_section_renders() {
    use fury_benches::borrowed::{borrowed_section, OOB_LOOPS, OOB_PAYLOADS};
    use fury_benches::datasets::BORROWED_DATASETS;
    let engines = Engines::new();
    let settings = Settings::smoke();
    let b = borrowed_section(&engines, &settings, |_| {});
    assert!(b.failures.is_empty(), "{:?}", b.failures);
    assert_eq!(
        b.measured.len(),
        BORROWED_DATASETS.len() * Peer::BORROWED.len()
    );
    assert!(b.measured.iter().all(|m| m.op == Op::Deserialize));
    // The borrowed mirrors read exactly the bytes their owned types write.
    let size = |d: &str, p: Peer| {
        b.sizes
            .iter()
            .find(|s| s.0 == d && s.1 == p)
            .map(|s| s.2)
            .expect("a size")
    };
    for d in BORROWED_DATASETS {
        assert_eq!(size(d, Peer::FuryRs), size(d, Peer::FuryRsBorrowed), "{d}");
        assert_eq!(
            size(d, Peer::FuryRsCompatible),
            size(d, Peer::FuryRsCompatibleBorrowed),
            "{d}"
        );
        // The dynamic row reads the compat bytes too.
        assert_eq!(
            size(d, Peer::FuryRsCompatible),
            size(d, Peer::FuryRsValueRef),
            "{d}"
        );
    }
    assert_eq!(b.oob.len(), OOB_PAYLOADS.len());
    for r in &b.oob {
        assert!(r.check.is_ok(), "{} bytes: {:?}", r.payload, r.check);
        assert_eq!(r.timings.len(), OOB_LOOPS.len());
        assert!(
            r.stream[0] > r.payload && r.stream[1] < 64,
            "{:?}",
            r.stream
        );
    }
    let report = Report {
        settings,
        measured: Vec::new(),
        sizes: Vec::new(),
        failures: Vec::new(),
        unavailable: Vec::new(),
        threads: Vec::new(),
        interop: Vec::new(),
        borrowed: Some(b),
        load: vec![150.0, 190.0],
        elapsed_secs: 0.0,
    };
    let md = report.markdown();
    assert!(md.contains("## Borrowed decoding") && md.contains("### Out-of-band buffers"));
    assert!(md.contains("**Shared machine:**"));
    for d in BORROWED_DATASETS {
        assert!(md.contains(&format!("| {d} |")), "{d} missing");
    }
    assert!(md.contains("| CustomerList: fury-rs borrowed at least 3× faster"));
}
