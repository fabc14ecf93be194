//! `fury-conformance [VECTOR_DIR] [OUT.json]`: checks every vector against the `fury` crate
//! and writes the bytes it produced to OUT.json (default
//! `target/conformance/fury-rs-bytes.json`) for `check_peer.py`.
//!
//! `fury-conformance run --testee "CMD ARGS" [--failure-list FILE] [--groups G,...]
//! [--json REPORT] [--write-failure-list FILE] [--timeout-ms N] [--python PATH] [-v]`: drives any implementation through
//! every vector group over the testee protocol (`conformance/PROTOCOL.md`).

use fury_conformance::runner;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: fury-conformance [VECTOR_DIR] [OUT.json]
  checks fury-rs against the vectors of VECTOR_DIR (default: the builtins group) and writes
  the bytes it produced to OUT.json (default: target/conformance/fury-rs-bytes.json)
usage: fury-conformance run --testee \"CMD ARGS\" [options]   (fury-conformance run --help)
  drives any implementation through the vector groups over the testee protocol
  (conformance/PROTOCOL.md)";

fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("run") {
        if wants_help(&args[1..]) {
            println!("{}", run_usage());
            return ExitCode::SUCCESS;
        }
        return run(&args[1..]);
    }
    if wants_help(&args) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        eprintln!("unknown option {flag:?}\n{USAGE}");
        return ExitCode::from(2);
    }
    check_fury(args)
}

fn run_usage() -> String {
    format!(
        "usage: fury-conformance run --testee \"CMD ARGS\" [--failure-list FILE] [--groups {}] \
         [--json REPORT] [--write-failure-list FILE] [--timeout-ms N] [--python PATH] [-v]",
        fury_conformance::runner::group_names().join(",")
    )
}

fn run(args: &[String]) -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut opts = runner::Options {
        testee: String::new(),
        failure_list: None,
        groups: Vec::new(),
        json: None,
        timeout: Duration::from_secs(10),
        python: runner::default_python(&root),
        root,
        verbose: false,
        write_failure_list: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}"))
        };
        let r = match a.as_str() {
            "--testee" => value("a command").map(|v| opts.testee = v),
            "--failure-list" => value("a file").map(|v| opts.failure_list = Some(v.into())),
            "--groups" => value("group names").map(|v| {
                opts.groups
                    .extend(v.split(',').filter(|g| !g.is_empty()).map(String::from))
            }),
            "--json" => value("a file").map(|v| opts.json = Some(v.into())),
            "--write-failure-list" => {
                value("a file").map(|v| opts.write_failure_list = Some(v.into()))
            }
            "--python" => value("a path").map(|v| opts.python = v.into()),
            "--timeout-ms" => value("milliseconds").and_then(|v| {
                v.parse::<u64>()
                    .map(|ms| opts.timeout = Duration::from_millis(ms))
                    .map_err(|e| format!("--timeout-ms {v}: {e}"))
            }),
            "-v" | "--verbose" => {
                opts.verbose = true;
                Ok(())
            }
            other => Err(format!("unknown argument {other:?}")),
        };
        if let Err(e) = r {
            eprintln!("{e}\n{}", run_usage());
            return ExitCode::from(2);
        }
    }
    if opts.testee.is_empty() {
        eprintln!("--testee is required\n{}", run_usage());
        return ExitCode::from(2);
    }
    match runner::run(&opts) {
        Ok(report) => {
            runner::print_report(&report, opts.verbose);
            if report.ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("fury-conformance run: {e}");
            ExitCode::from(2)
        }
    }
}

fn check_fury(args: Vec<String>) -> ExitCode {
    let mut args = args.into_iter();
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| fury_conformance::groups::group("builtins").dir());
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| fury_conformance::groups::peer_bytes("builtins"));
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
