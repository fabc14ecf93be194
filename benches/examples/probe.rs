//! Times the report's own loops for one dataset, alone or after all the others ran:
//! `probe <dataset> [all]`. Environment: `N` iterations per sample, `ONLY=ser|de|bde` (fury-rs
//! only, for profilers: serialize, owned deserialize, borrowed deserialize into the mirrors of
//! the borrowed-decoding section; with `THEIRS` set, the official crate only), `COMPAT` for the
//! compatible modes, `ALLPEERS` to build every peer's cases first, as the report does, `ROW`
//! the row of the borrowed-decoding section that `bde` runs instead of fury-rs borrowed (a
//! slug: `postcard`, `bitcode`, `rkyv`, `fury_rs_serde`, ...; `Peer::slug`).
//!
//! `PEER=slug` runs that peer's row (`bincode`, `prost`, ...) where fury-rs's would run, so
//! that its instructions are counted the same way.
//!
//! `SERDE` runs the serde row of the mode (`fury-rs serde`, with `COMPAT` `fury-rs serde
//! compat`) where fury-rs's would run: `ONLY=ser|de` then count the serde path.
//!
//! `ONLY=vde` decodes fury-rs's bytes of the dataset into a dynamic `fury::Value` (with
//! `COMPAT`, so that structs read from their TypeDefs), by a `Fury` that registers nothing;
//! `ONLY=vrde` into a `fury::ValueRef`, which borrows the strings.
//!
//! `probe --instruction-datasets` prints the datasets `benches/scripts/instructions.sh` counts
//! by default (the `instructions` rows of the dataset table), one per line.
//!
//! `probe Blob1MiB` / `probe Blob64MiB` runs the loops of the out-of-band table instead, as ops
//! `ibser` `oobser` `ibde` `ibbde` `oobbde` (`borrowed::OOB_LOOPS` order; `ONLY` picks one).
use fury_benches::borrowed::{borrowed_cases, oob_instances, oob_loops, BorrowedEngines};
use fury_benches::datasets::{BORROWED_DATASETS, INSTRUCTION_DATASETS};
use fury_benches::peers::{all_cases, Engines, Peer};
use std::time::Instant;

fn main() {
    let which = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "NumericStruct".into());
    if which == "--instruction-datasets" {
        for d in INSTRUCTION_DATASETS {
            println!("{d}");
        }
        return;
    }
    let all = std::env::args().nth(2).is_some_and(|a| a == "all");
    if let Some(mib) = which
        .strip_prefix("Blob")
        .and_then(|s| s.strip_suffix("MiB"))
        .and_then(|s| s.parse::<usize>().ok())
    {
        return oob(mib << 20);
    }
    let engines = Engines::new();
    let compat = std::env::var_os("COMPAT").is_some();
    let serde = std::env::var_os("SERDE").is_some();
    let (ours, theirs, borrowed) = if std::env::var_os("REF").is_some() {
        (Peer::FuryRsRef, Peer::Fory, Peer::FuryRsBorrowed)
    } else if serde && compat {
        (
            Peer::FuryRsSerdeCompatible,
            Peer::ForyCompatible,
            Peer::FuryRsCompatibleBorrowed,
        )
    } else if serde {
        (Peer::FuryRsSerde, Peer::Fory, Peer::FuryRsBorrowed)
    } else if compat {
        (
            Peer::FuryRsCompatible,
            Peer::ForyCompatible,
            Peer::FuryRsCompatibleBorrowed,
        )
    } else {
        (Peer::FuryRs, Peer::Fory, Peer::FuryRsBorrowed)
    };
    // `PEER=slug` counts that peer's row (bincode, prost, ...) where fury-rs's would run.
    let ours = peer_from_env("PEER", &Peer::ALL, "a peer of the report").unwrap_or(ours);
    let borrowed = peer_from_env(
        "ROW",
        &Peer::BORROWED,
        "a row of the borrowed-decoding section",
    )
    .unwrap_or(borrowed);
    // `ALLPEERS`: build every peer's cases, as the report does (the heap then looks alike).
    let peers: Vec<Peer> = if std::env::var_os("ALLPEERS").is_some() {
        Peer::ALL.to_vec()
    } else {
        vec![ours, theirs]
    };
    let mut cases = all_cases(&engines, &peers);
    cases.retain(|c| c.peer == ours || c.peer == theirs);
    // The borrowed decode of the datasets of the borrowed-decoding section (LogList is only
    // there: its owned cases come from that section too).
    let mut borrowed_case = None;
    if BORROWED_DATASETS.contains(&which.as_str()) {
        let section = BorrowedEngines::new(engines.clone());
        if !cases.iter().any(|c| c.dataset == which) {
            cases.extend(
                borrowed_cases(&section, &[ours, theirs])
                    .into_iter()
                    .filter(|c| c.dataset == which),
            );
        }
        borrowed_case = borrowed_cases(&section, &[borrowed])
            .into_iter()
            .find(|c| c.dataset == which);
    }
    for c in cases.iter().filter(|c| c.dataset == which) {
        if let Some(why) = &c.unavailable {
            panic!("{} {}: not available: {why}", c.dataset, c.peer.name());
        }
        if let Err(e) = &c.roundtrip {
            eprintln!("{} {}: round trip failed: {e}", c.dataset, c.peer.name());
        }
    }
    if all {
        for c in cases.iter_mut() {
            if let Some(ser) = c.serialize.as_mut() {
                ser(20_000);
            }
            (c.deserialize)(2_000);
        }
    }
    let n: u64 = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let only = std::env::var("ONLY").unwrap_or_default();
    // The dynamic decode (`vde`) of the bytes fury-rs writes for the dataset.
    let dynamic = fury::Fury::builder().compatible(compat).build();
    let dynamic_input = cases
        .iter()
        .find(|c| c.dataset == which && c.peer == ours)
        .map(|c| c.bytes.clone())
        .unwrap_or_default();
    if only == "vde" || only == "vrde" {
        if let Err(e) = dynamic.deserialize::<fury::Value>(&dynamic_input) {
            panic!("{which}: the dynamic decode fails: {e}");
        }
    }
    let profiled = if std::env::var_os("THEIRS").is_some() {
        theirs
    } else {
        ours
    };
    for _ in 0..5 {
        for c in cases.iter_mut().filter(|c| c.dataset == which) {
            for (op, r) in [
                ("ser", c.serialize.as_mut()),
                ("de", Some(&mut c.deserialize)),
            ] {
                let Some(r) = r else { continue };
                if !only.is_empty() && (only != op || c.peer != profiled) {
                    continue;
                }
                let t = Instant::now();
                r(n);
                let who = if c.peer == ours { "FuryRs" } else { "Fory" };
                println!("{who} {op} {:.1}", t.elapsed().as_nanos() as f64 / n as f64);
            }
        }
        if only == "vde" {
            let t = Instant::now();
            for _ in 0..n {
                let r = dynamic.deserialize::<fury::Value>(std::hint::black_box(&dynamic_input));
                std::hint::black_box(&r);
            }
            println!("FuryRs vde {:.1}", t.elapsed().as_nanos() as f64 / n as f64);
        }
        if only == "vrde" {
            let t = Instant::now();
            for _ in 0..n {
                let r = dynamic.deserialize::<fury::ValueRef>(std::hint::black_box(&dynamic_input));
                std::hint::black_box(&r);
            }
            println!(
                "FuryRs vrde {:.1}",
                t.elapsed().as_nanos() as f64 / n as f64
            );
        }
        if let Some(c) = borrowed_case.as_mut() {
            if only.is_empty() || (only == "bde" && std::env::var_os("THEIRS").is_none()) {
                let t = Instant::now();
                (c.deserialize)(n);
                println!("FuryRs bde {:.1}", t.elapsed().as_nanos() as f64 / n as f64);
            }
        }
    }
}

/// The out-of-band table's loops for one payload size.
fn oob(len: usize) {
    let (owned, borrowed) = oob_instances();
    let (row, mut loops) = oob_loops(&owned, &borrowed, len);
    if let Err(e) = row.check {
        panic!("{len} bytes: {e}");
    }
    let n: u64 = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    let only = std::env::var("ONLY").unwrap_or_default();
    let ops = ["ibser", "oobser", "ibde", "ibbde", "oobbde"];
    for _ in 0..5 {
        for (op, run) in ops.iter().zip(loops.iter_mut()) {
            if only.is_empty() || only == *op {
                let t = Instant::now();
                run(n);
                println!(
                    "FuryRs {op} {:.1}",
                    t.elapsed().as_nanos() as f64 / n as f64
                );
            }
        }
    }
}

/// The peer of `among` whose slug the environment variable `var` names, if it is set (a
/// slug not among them stops the probe, saying what `var` must name).
fn peer_from_env(var: &str, among: &[Peer], what: &str) -> Option<Peer> {
    let slug = std::env::var(var).ok()?;
    let found = among.iter().find(|p| p.slug() == slug);
    Some(*found.unwrap_or_else(|| panic!("{var}={slug}: not {what}")))
}
