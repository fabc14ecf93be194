//! The RPC benchmark (see `fury_benches::rpc`): writes `benches/rpc-results.tsv`,
//! `benches/RPC.md`, `benches/rpc.svg` and the RPC section of `benches/REPORT.md`.
//!
//! `cargo run --release -p fury-benches --bin rpc` runs N = 6, 50 and 200 clients with
//! M = 10,000 calls each in 10 rounds (about an hour on 2 cores);
//! `-- --m 200` fewer calls per client; `-- --n 6,50` other client counts; `-- --rounds R`;
//! `-- --out DIR` writes there instead of `benches/`;
//! `-- --smoke` two clients, three calls each, every codec and payload, checks the echoes
//! and writes nothing; `-- --render` runs nothing and remakes the files from
//! `rpc-results.tsv`.

use fury_benches::data::{CustomerList, UserModelList};
use fury_benches::rpc::{self, Codec, Furies, Payload, Results, Row};
use fury_benches::values;
use std::path::PathBuf;
use std::time::Instant;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

struct Cell<'a> {
    furies: &'a Furies,
    clients: usize,
    calls: usize,
    rounds: usize,
}

impl Cell<'_> {
    async fn measure<T: Payload>(&self, rows: &mut Vec<Row>, name: &str, payload: &T) {
        let outcomes = rpc::run(
            &Codec::ALL,
            self.furies,
            payload,
            self.clients,
            self.calls,
            self.rounds,
        )
        .await;
        for (codec, o) in outcomes {
            let row = Row::new(self.clients, name, codec, &o);
            eprintln!(
                "N={:>3} {name:<16} {:<32} {:>9.0} calls/s (spread {:>5.1}%) {:>7.1} B/call {:>6.2} us CPU/call",
                self.clients,
                row.codec,
                row.rate(),
                row.spread() * 100.0,
                row.bytes as f64 / row.calls as f64,
                row.cpu_us()
            );
            rows.push(row);
        }
    }
}

fn customers(n: usize) -> CustomerList {
    let mut list = values::customer_list();
    list.customers.truncate(n);
    list
}

/// Writes `rpc-results.tsv`, `RPC.md`, `rpc.svg` and the RPC section of `REPORT.md` in `out`.
fn write(out: &std::path::Path, results: &Results) -> std::io::Result<()> {
    let report_path = out.join("REPORT.md");
    let report = std::fs::read_to_string(&report_path).unwrap_or_default();
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("rpc-results.tsv"), results.to_tsv())?;
    std::fs::write(out.join("RPC.md"), results.markdown())?;
    std::fs::write(out.join("rpc.svg"), results.svg())?;
    std::fs::write(
        &report_path,
        rpc::splice_report(&report, &results.report_section()),
    )
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let started = Instant::now();
    let out = arg("--out").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    if std::env::args().any(|a| a == "--render") {
        let tsv = std::fs::read_to_string(out.join("rpc-results.tsv")).unwrap_or_default();
        let Some(results) = Results::from_tsv(&tsv) else {
            eprintln!("no readable rpc-results.tsv in {}", out.display());
            std::process::exit(1);
        };
        if let Err(e) = write(&out, &results) {
            eprintln!("cannot write the RPC results to {}: {e}", out.display());
            std::process::exit(1);
        }
        return;
    }
    let smoke = std::env::args().any(|a| a == "--smoke");
    let calls: usize = match arg("--m") {
        Some(m) => m.parse().expect("--m takes a number"),
        None if smoke => 3,
        None => 10_000,
    };
    let rounds: usize = match arg("--rounds") {
        Some(r) => r.parse().expect("--rounds takes a number"),
        None if smoke => 1,
        None => 10,
    };
    let ns: Vec<usize> = match arg("--n") {
        Some(list) => list
            .split(',')
            .map(|n| n.parse().expect("--n takes numbers"))
            .collect(),
        None if smoke => vec![2],
        None => vec![6, 50, 200],
    };
    let mut load: Vec<f64> = fury_benches::measure::load_average().into_iter().collect();
    let furies = Furies::default();
    let mut rows = Vec::new();
    for &clients in &ns {
        let cell = Cell {
            furies: &furies,
            clients,
            calls,
            rounds,
        };
        for k in [0, 1, 10, 100] {
            let payload: UserModelList = values::user_model_list(k);
            cell.measure(&mut rows, &format!("UserModelList {k}"), &payload)
                .await;
        }
        for k in [3, 10, 20] {
            cell.measure(&mut rows, &format!("CustomerList {k}"), &customers(k))
                .await;
        }
    }
    if smoke {
        println!(
            "rpc smoke: {} runs, every codec echoed every payload",
            rows.len()
        );
        return;
    }
    load.extend(fury_benches::measure::load_average());
    let args: Vec<String> = std::env::args().skip(1).collect();
    let results = Results {
        calls,
        rounds,
        date: fury_benches::render::utc_date(),
        elapsed_s: started.elapsed().as_secs_f64(),
        load,
        command: if args.is_empty() {
            "cargo run --release -p fury-benches --bin rpc".to_string()
        } else {
            format!(
                "cargo run --release -p fury-benches --bin rpc -- {}",
                args.join(" ")
            )
        },
        rows,
    };
    let written = write(&out, &results);
    if let Err(e) = written {
        eprintln!("cannot write the RPC results to {}: {e}", out.display());
        std::process::exit(1);
    }
    println!("{}", results.summary_table());
    eprintln!(
        "wrote rpc-results.tsv, RPC.md, rpc.svg and REPORT.md's RPC section in {} ({:.0} s)",
        out.display(),
        started.elapsed().as_secs_f64()
    );
}
