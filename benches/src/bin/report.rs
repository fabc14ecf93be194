//! `cargo run --release -p fury-benches --bin report [-- --smoke] [--rounds N] [--target-ms M]
//! [--out DIR]`
//!
//! Measures every dataset with every peer (interleaved rounds, medians), prints the markdown
//! report and writes `benches/REPORT.md` and `benches/report.svg` (smoke mode writes them to
//! a temporary folder instead, unless `--out` is given).
//!
//! `--smoke` runs each loop a few times only and checks that every peer round-trips every
//! dataset it can do (decode(encode(x)) == x), also from two threads sharing one instance, that
//! the rows with a `same_bytes` row (fury-rs serde) write that row's bytes, and that every row
//! of the borrowed-decoding section and the out-of-band table checks out; any failure exits
//! with status 1. (The full run checks the same.)

use fury_benches::borrowed::borrowed_section;
use fury_benches::interop::interop_rows;
use fury_benches::measure::{measure, Settings};
use fury_benches::peers::{all_cases, byte_mismatches, expected_byte_difference, Engines, Peer};
use fury_benches::render::{fmt_ratio, Report};
use fury_benches::threads::thread_rows;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn usage() -> ! {
    eprintln!(
        "usage: report [--smoke] [--rounds N] [--target-ms M] [--no-threads] [--no-borrowed] \
         [--out DIR]"
    );
    std::process::exit(2);
}

fn main() {
    let mut settings = Settings::full();
    let mut out: Option<PathBuf> = None;
    let mut with_threads = true;
    let mut with_borrowed = true;
    let mut args = std::env::args().skip(1);
    let mut rounds = None;
    let mut target = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--smoke" => settings = Settings::smoke(),
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).or_else(|| usage()),
            "--target-ms" => target = args.next().and_then(|v| v.parse().ok()).or_else(|| usage()),
            "--no-threads" => with_threads = false,
            "--no-borrowed" => with_borrowed = false,
            "--out" => out = Some(args.next().unwrap_or_else(|| usage()).into()),
            "-h" | "--help" => usage(),
            _ => usage(),
        }
    }
    if let Some(r) = rounds {
        settings.rounds = usize::max(r, 1);
    }
    if let Some(t) = target {
        settings.target = Duration::from_millis(u64::max(t, 1));
    }
    let out = out.unwrap_or_else(|| {
        if settings.smoke {
            std::env::temp_dir().join("fury-benches-smoke")
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        }
    });
    if cfg!(debug_assertions) && !settings.smoke {
        eprintln!("warning: a debug build; run with --release for meaningful numbers");
    }

    let started = Instant::now();
    let mut load: Vec<f64> = fury_benches::measure::load_average().into_iter().collect();
    let engines = Engines::new();
    let mut cases = all_cases(&engines, &Peer::ALL);
    let unavailable: Vec<_> = cases
        .iter()
        .filter_map(|c| {
            c.unavailable
                .as_ref()
                .map(|why| (c.dataset, c.peer, why.clone()))
        })
        .collect();
    let mut failures: Vec<_> = cases
        .iter()
        .filter(|c| c.unavailable.is_none())
        .filter_map(|c| {
            c.roundtrip
                .as_ref()
                .err()
                .map(|e| (c.dataset, c.peer, e.clone()))
        })
        .collect();
    for (d, p, e) in &failures {
        eprintln!("ROUND TRIP FAILED: {d} / {}: {e}", p.name());
    }
    let (expected, mismatches): (Vec<_>, Vec<_>) = byte_mismatches(&cases)
        .into_iter()
        .partition(|(d, _, _)| expected_byte_difference(d).is_some());
    for (d, p, e) in &expected {
        let why = expected_byte_difference(d).unwrap_or_default();
        eprintln!("bytes differ, as expected ({why}): {d} / {}: {e}", p.name());
    }
    for (d, p, e) in &mismatches {
        eprintln!("BYTES DIFFER: {d} / {}: {e}", p.name());
    }
    failures.extend(mismatches);
    for (d, p, why) in &unavailable {
        eprintln!("not available: {d} / {}: {why}", p.name());
    }
    let sizes = cases
        .iter()
        .filter(|c| c.roundtrip.is_ok())
        .map(|c| (c.dataset, c.peer, c.size))
        .collect();
    eprintln!(
        "{} cases ({} peers, {} not available), {} round-trip or byte failure(s); measuring \
         ({})",
        cases.len(),
        Peer::ALL.len(),
        unavailable.len(),
        failures.len(),
        if settings.smoke { "smoke" } else { "full" }
    );
    let measured = measure(&mut cases, &settings, |line| eprintln!("  {line}"));
    drop(cases);
    let threads = if with_threads {
        eprintln!("threads: 1 vs 2 sharing one instance");
        thread_rows(&engines, &settings)
    } else {
        Vec::new()
    };
    let thread_failures = threads.iter().filter(|t| t.check.is_err()).count();
    for t in threads.iter().filter(|t| t.check.is_err()) {
        eprintln!(
            "THREAD CHECK FAILED: {} {} {}: {:?}",
            t.dataset,
            t.op.name(),
            t.peer.name(),
            t.check
        );
    }
    let borrowed = with_borrowed.then(|| {
        eprintln!("borrowed decoding and out-of-band buffers");
        borrowed_section(&engines, &settings, |line| eprintln!("  {line}"))
    });
    let borrowed_failures = borrowed.as_ref().map_or(0, |b| {
        for (d, p, e) in &b.failures {
            eprintln!("BORROWED ROUND TRIP FAILED: {d} / {}: {e}", p.name());
        }
        for r in b.oob.iter().filter(|r| r.check.is_err()) {
            eprintln!(
                "OUT-OF-BAND CHECK FAILED: {} bytes: {:?}",
                r.payload, r.check
            );
        }
        b.failures.len() + b.oob.iter().filter(|r| r.check.is_err()).count()
    });
    let mut interop = interop_rows(&engines);
    interop.extend(fury_benches::interop::type_rows());
    interop.extend(fury_benches::interop::kind_rows());

    let report = Report {
        settings: settings.clone(),
        measured,
        sizes,
        failures,
        unavailable,
        threads,
        interop,
        borrowed,
        load: {
            load.extend(fury_benches::measure::load_average());
            load
        },
        elapsed_secs: started.elapsed().as_secs_f64(),
    };
    let mut md = report.markdown();
    // The RPC section comes from the last RPC run (`--bin rpc`), which this binary does not
    // repeat.
    let rpc_results = concat!(env!("CARGO_MANIFEST_DIR"), "/rpc-results.tsv");
    if let Some(rpc) = std::fs::read_to_string(rpc_results)
        .ok()
        .and_then(|t| fury_benches::rpc::Results::from_tsv(&t))
    {
        md = fury_benches::rpc::splice_report(&md, &rpc.report_section());
    }
    println!("{md}");
    if let Err(e) = std::fs::create_dir_all(&out)
        .and_then(|()| std::fs::write(out.join("REPORT.md"), &md))
        .and_then(|()| std::fs::write(out.join("report.svg"), report.svg()))
    {
        eprintln!("cannot write the report to {}: {e}", out.display());
        std::process::exit(1);
    }
    eprintln!(
        "wrote {} and {} in {:.1}s",
        out.join("REPORT.md").display(),
        out.join("report.svg").display(),
        started.elapsed().as_secs_f64()
    );
    if let Some((d, op, p, r)) = report.worst_ratios(1).first() {
        eprintln!(
            "worst fury-rs/peer ratio: {d} {} vs {}: {}",
            op.name(),
            p.name(),
            fmt_ratio(*r)
        );
    }
    if !report.failures.is_empty() || thread_failures > 0 || borrowed_failures > 0 {
        eprintln!(
            "FAILED: {} round-trip or byte, {} thread check and {} borrowed/out-of-band \
             failure(s)",
            report.failures.len(),
            thread_failures,
            borrowed_failures
        );
        std::process::exit(1);
    }
    if settings.smoke {
        eprintln!(
            "smoke: {} passed, 0 failed",
            report.sizes.len()
                + report.threads.len()
                + report
                    .borrowed
                    .as_ref()
                    .map_or(0, |b| b.sizes.len() + b.oob.len())
        );
    }
}
