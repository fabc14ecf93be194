//! The RPC benchmark (see `fury_benches::rpc`): writes `benches/RPC.md`.
//!
//! `cargo run --release -p fury-benches --bin rpc` runs N = 6, 50 and 200 clients with
//! M = 10,000 calls each (long: hours on 2 cores for every codec and payload);
//! `-- --m 200` fewer calls per client; `-- --n 6,50` other client counts;
//! `-- --smoke` two clients, three calls each, every codec and payload, checks the echoes
//! and writes nothing.

use fury_benches::data::{CustomerList, UserModelList};
use fury_benches::rpc::{self, Codec, Furies, Outcome, Payload};
use fury_benches::values;
use std::fmt::Write as _;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

struct Row {
    clients: usize,
    payload: String,
    codec: Codec,
    outcome: Outcome,
}

async fn measure<T: Payload>(
    rows: &mut Vec<Row>,
    furies: &Furies,
    name: &str,
    payload: &T,
    clients: usize,
    calls: usize,
) {
    for codec in Codec::ALL {
        let outcome = rpc::run(codec, furies, payload, clients, calls).await;
        eprintln!(
            "N={clients:>3} {name:<16} {:<32} {:>9.0} calls/s {:>7.1} B/call {:>6.1} us CPU/call",
            codec.name(),
            outcome.calls_per_sec(),
            outcome.bytes_per_call(),
            outcome.cpu_us_per_call()
        );
        rows.push(Row {
            clients,
            payload: name.to_string(),
            codec,
            outcome,
        });
    }
}

fn customers(n: usize) -> CustomerList {
    let mut list = values::customer_list();
    list.customers.truncate(n);
    list
}

fn render(rows: &[Row], calls: usize, full: bool) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# RPC benchmark\n");
    let _ =
        writeln!(
        md,
        "An echo server over loopback TCP (127.0.0.1) and N concurrent clients, each sending M \
         requests and awaiting each reply; the server decodes every request into the Rust type \
         and encodes it again as the reply (two encodes and two decodes per call). Every codec \
         has the same framing: a 4-byte little-endian length, then the body, written with one \
         `write_all`, read through a 64 KiB buffered reader; tokio, one multi-threaded runtime \
         (clients and server in one process). Bytes per call are the request and reply frames, \
         headers included. CPU time per call is the process's user + system time (clients and \
         server; /proc/self/stat, 10 ms ticks) over the calls. `cargo run --release -p \
         fury-benches --bin rpc{}` wrote this file.\n",
        if full { String::new() } else { format!(" -- --m {calls}") }
    );
    let _ = writeln!(
        md,
        "M = {calls} calls per client{}. The machine has 2 cores shared with other jobs, so \
         absolute numbers move from run to run; compare codecs within one table.\n",
        if full {
            ""
        } else {
            " (fewer than the issue's 10,000, for time)"
        }
    );
    let mut ns: Vec<usize> = rows.iter().map(|r| r.clients).collect();
    ns.dedup();
    for n in ns {
        let _ = writeln!(md, "## N = {n} clients\n");
        let _ = writeln!(
            md,
            "| payload | codec | total time (s) | calls/s | bytes/call | CPU µs/call |"
        );
        let _ = writeln!(md, "|---|---|---:|---:|---:|---:|");
        let here: Vec<&Row> = rows.iter().filter(|r| r.clients == n).collect();
        for r in &here {
            let group: Vec<&&Row> = here.iter().filter(|o| o.payload == r.payload).collect();
            let best_rate = group
                .iter()
                .map(|o| o.outcome.calls_per_sec())
                .fold(0.0, f64::max);
            let best_cpu = group
                .iter()
                .map(|o| o.outcome.cpu_us_per_call())
                .fold(f64::INFINITY, f64::min);
            let rate = r.outcome.calls_per_sec();
            let cpu = r.outcome.cpu_us_per_call();
            let bold = |s: String, on: bool| if on { format!("**{s}**") } else { s };
            let _ = writeln!(
                md,
                "| {} | {} | {:.2} | {} | {:.0} | {} |",
                r.payload,
                r.codec.name(),
                r.outcome.total.as_secs_f64(),
                bold(format!("{rate:.0}"), rate == best_rate),
                r.outcome.bytes_per_call(),
                bold(format!("{cpu:.1}"), cpu == best_cpu),
            );
        }
        let _ = writeln!(md);
    }
    md
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    let calls: usize = match arg("--m") {
        Some(m) => m.parse().expect("--m takes a number"),
        None if smoke => 3,
        None => 10_000,
    };
    let ns: Vec<usize> = match arg("--n") {
        Some(list) => list
            .split(',')
            .map(|n| n.parse().expect("--n takes numbers"))
            .collect(),
        None if smoke => vec![2],
        None => vec![6, 50, 200],
    };
    let furies = Furies::default();
    let mut rows = Vec::new();
    for &n in &ns {
        for k in [0, 1, 10, 100] {
            let payload: UserModelList = values::user_model_list(k);
            let name = format!("UserModelList {k}");
            measure(&mut rows, &furies, &name, &payload, n, calls).await;
        }
        for k in [3, 10, 20] {
            let name = format!("CustomerList {k}");
            measure(&mut rows, &furies, &name, &customers(k), n, calls).await;
        }
    }
    if smoke {
        println!(
            "rpc smoke: {} runs, every codec echoed every payload",
            rows.len()
        );
        return;
    }
    let md = render(&rows, calls, calls == 10_000 && arg("--n").is_none());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/RPC.md");
    std::fs::write(path, &md).expect("write RPC.md");
    println!("{md}");
}
