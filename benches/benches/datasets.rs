//! The report's datasets and peers under criterion, to look closer at close calls.
//!
//! `cargo bench -p fury-benches --bench datasets` runs everything (about 15 minutes);
//! filter by id, e.g. `cargo bench -p fury-benches --bench datasets -- 'MediaContent/serialize'`
//! or `-- '/deserialize/(fury_rs|fory)$'`. Ids are `DATASET/OP/PEER`.
//!
//! The loops are the report's own (`fury_benches::peers::Case`): serialize into a reused,
//! cleared buffer, deserialize a new value from a byte slice.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fury_benches::peers::{all_cases, Engines, Op, Peer};
use std::time::{Duration, Instant};

fn datasets(c: &mut Criterion) {
    let engines = Engines::new();
    let mut cases = all_cases(&engines, &Peer::ALL);
    // A dataset a peer cannot do (n/a in the report) has no loops.
    cases.retain(|c| c.unavailable.is_none());
    for case in &cases {
        if let Err(e) = &case.roundtrip {
            panic!(
                "{} / {} does not round-trip: {e}",
                case.dataset,
                case.peer.name()
            );
        }
    }
    let mut i = 0;
    while i < cases.len() {
        let dataset = cases[i].dataset;
        let end = cases[i..]
            .iter()
            .position(|c| c.dataset != dataset)
            .map_or(cases.len(), |n| i + n);
        let mut group = c.benchmark_group(dataset);
        group.throughput(Throughput::Elements(1));
        for op in Op::ALL {
            for case in &mut cases[i..end] {
                let peer = case.peer.slug();
                // A decode-only row (rkyv access) has no serialize loop.
                let Some(run) = case.runner(op) else {
                    continue;
                };
                group.bench_function(BenchmarkId::new(op.name(), peer), |b| {
                    b.iter_custom(|iters| {
                        let t = Instant::now();
                        run(iters);
                        t.elapsed()
                    })
                });
            }
        }
        group.finish();
        i = end;
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = datasets
}
criterion_main!(benches);
