//! The report's smoke checks under `cargo test` (so `cargo test --workspace` runs them too):
//! every peer round-trips every dataset, the loops run, two threads sharing one instance get
//! the same results, and the report renders.

use fury_benches::interop::interop_rows;
use fury_benches::measure::{measure, Settings};
use fury_benches::peers::{all_cases, Engines, Op, Peer, DATASETS};
use fury_benches::render::Report;
use fury_benches::threads::{thread_rows, THREAD_DATASETS, THREAD_PEERS};

#[test]
fn every_peer_round_trips_every_dataset_and_the_report_renders() {
    let engines = Engines::new();
    let mut cases = all_cases(&engines, &Peer::ALL);
    assert_eq!(cases.len(), DATASETS.len() * Peer::ALL.len());
    let failures: Vec<String> = cases
        .iter()
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

    let settings = Settings::smoke();
    let measured = measure(&mut cases, &settings, |_| {});
    assert_eq!(measured.len(), cases.len() * Op::ALL.len());

    let threads = thread_rows(&engines, &settings);
    assert_eq!(
        threads.len(),
        THREAD_DATASETS.len() * THREAD_PEERS.len() * Op::ALL.len()
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
        sizes: cases.iter().map(|c| (c.dataset, c.peer, c.size)).collect(),
        measured,
        failures: Vec::new(),
        threads,
        interop: interop_rows(&engines),
        elapsed_secs: 0.0,
    };
    let md = report.markdown();
    for d in DATASETS {
        assert!(md.contains(&format!("| {d} | serialize |")), "{d} missing");
    }
    let svg = report.svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
}
