//! A short side-by-side run for development: fury-rs (both modes) against fory (both modes)
//! and bincode, as ratios per dataset. `cargo run --release -p fury-benches --example quick
//! [-- ROUNDS]`. The full comparison is the `report` binary.
use fury_benches::measure::{measure, Settings};
use fury_benches::peers::{all_cases, Engines, Op, Peer};

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let mut settings = Settings::full();
    settings.rounds = rounds;
    settings.target = std::time::Duration::from_millis(8);
    let engines = Engines::new();
    let peers = [
        Peer::FuryRs,
        Peer::Fory,
        Peer::FuryRsCompatible,
        Peer::ForyCompatible,
        Peer::Bincode,
        Peer::Prost,
    ];
    let mut cases = all_cases(&engines, &peers);
    let m = measure(&mut cases, &settings, |_| {});
    let ns = |d: &str, p: Peer, op: Op| {
        m.iter()
            .find(|x| x.dataset == d && x.peer == p && x.op == op)
            .map_or(f64::NAN, |x| x.ns)
    };
    let mut names: Vec<&str> = m.iter().map(|x| x.dataset).collect();
    names.dedup();
    println!(
        "{:<18} {:<5} {:>8} {:>7} {:>7} {:>7} {:>7}",
        "dataset", "op", "fury ns", "/fory", "/compat", "/prost", "/bincod"
    );
    let mut logs = [0f64; 4 * 2];
    for d in &names {
        for (k, op) in Op::ALL.into_iter().enumerate() {
            let f = ns(d, Peer::FuryRs, op);
            let r = [
                ns(d, Peer::Fory, op) / f,
                ns(d, Peer::ForyCompatible, op) / ns(d, Peer::FuryRsCompatible, op),
                ns(d, Peer::Prost, op) / f,
                ns(d, Peer::Bincode, op) / f,
            ];
            for (j, x) in r.iter().enumerate() {
                logs[k * 4 + j] += x.ln();
            }
            println!(
                "{:<18} {:<5} {:>8.1} {:>7.2} {:>7.2} {:>7.2} {:>7.2}",
                d,
                &op.name()[..5],
                f,
                r[0],
                r[1],
                r[2],
                r[3]
            );
        }
    }
    for (k, op) in Op::ALL.into_iter().enumerate() {
        let g: Vec<String> = (0..4)
            .map(|j| format!("{:.2}", (logs[k * 4 + j] / names.len() as f64).exp()))
            .collect();
        println!(
            "geomean {:<5} /fory {} /compat {} /prost {} /bincode {}",
            op.name(),
            g[0],
            g[1],
            g[2],
            g[3]
        );
    }
}
