//! Peak memory of decoding hostile input (issue 16): over every fuzz corpus entry, the most
//! bytes live at once during one decode, against the input's length. A counting allocator
//! tracks this thread's live and peak bytes.
//!
//! Bounds (issue 16's): `Value` decoding at most 32 x n + 64 KiB, with or without
//! reference tracking; typed decoding (the fuzz targets' derived types, measured over their
//! whole check: decode, re-encode and decode again) at most 16 x n + 64 KiB, and as `Value`
//! for the entries that hold `fury::Value`s (an `any` in the entry's name). What makes them
//! hold is the claim on declared counts: all containers of a stream together may declare
//! no more elements than it has bytes, a map's pair counting as two (see
//! `ReadContext::claim_pairs`). `FURY_MEMORY_REPORT=1` prints the worst inputs.

#[allow(dead_code)]
#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::path::Path;

#[path = "support/alloc.rs"]
mod alloc;

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

use alloc::peak_of;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in entries.flatten() {
            if let Ok(data) = std::fs::read(e.path()) {
                out.push((e.file_name().to_string_lossy().into_owned(), data));
            }
        }
    }
    out.sort();
    out
}

struct Worst {
    ratio: f64,
    name: String,
    len: usize,
    peak: i64,
}

/// The worst (peak - 64 KiB) / n over the target's corpus, and every input over `bound`.
fn measure(
    target: &str,
    bound_of: impl Fn(&[u8]) -> f64,
    run: impl Fn(&[u8]),
) -> (Worst, Vec<String>) {
    let inputs = corpus(target);
    assert!(
        !inputs.is_empty(),
        "no corpus for {target} (python3 fuzz/seed.py)"
    );
    let mut worst = Worst {
        ratio: 0.0,
        name: String::new(),
        len: 0,
        peak: 0,
    };
    let mut over = Vec::new();
    for (name, data) in &inputs {
        // A first run builds the lazily made instances and tables.
        run(data);
        let peak = peak_of(|| run(data));
        let n = data.len().max(1);
        let ratio = (peak - 64 * 1024).max(0) as f64 / n as f64;
        if ratio > worst.ratio {
            worst = Worst {
                ratio,
                name: name.clone(),
                len: data.len(),
                peak,
            };
        }
        if ratio > bound_of(data) {
            over.push(format!(
                "{target}/{name}: {peak} bytes at peak for {} input bytes ({ratio:.1} x n over 64 KiB)",
                data.len()
            ));
        }
    }
    (worst, over)
}

#[test]
fn decoding_allocates_in_proportion_to_the_input() {
    let report = std::env::var_os("FURY_MEMORY_REPORT").is_some();
    // The derived checks panic on the defects fuzz_replay.rs lists: keep their messages out.
    std::panic::set_hook(Box::new(|_| {}));
    let mut over = Vec::new();
    let value_targets = [
        ("value_plain", false, false),
        ("value_compat", true, false),
        ("value_ref", false, true),
        ("value_compat_ref", true, true),
    ];
    for (target, compatible, tracking) in value_targets {
        let bound = 32.0;
        let (w, o) = measure(
            target,
            |_| bound,
            |data| {
                let fury = fury::Fury::builder()
                    .compatible(compatible)
                    .ref_tracking(tracking)
                    .build();
                let _ = fury.deserialize::<fury::Value>(data);
            },
        );
        if report {
            println!(
                "{target:>20}: worst {:.1} x n ({} bytes for {} input bytes, {})",
                w.ratio, w.peak, w.len, w.name
            );
        }
        over.extend(o);
    }
    for target in ["derived_same_schema", "derived_compat"] {
        // An entry holding `fury::Value`s (`any` in its name) decodes them as `Value` does.
        let table = if target == "derived_compat" {
            checks::compat_table()
        } else {
            checks::same_schema()
        };
        let bound_of = |data: &[u8]| match data.first() {
            Some(&b) if table[b as usize % table.len()].name.contains("any") => 32.0,
            _ => 16.0,
        };
        let (w, o) = measure(target, bound_of, |data| {
            // The checks panic on the defects fuzz_replay.rs lists; only memory counts here.
            let _ = std::panic::catch_unwind(|| checks::run(target, data));
        });
        if report {
            println!(
                "{target:>20}: worst {:.1} x n ({} bytes for {} input bytes, {})",
                w.ratio, w.peak, w.len, w.name
            );
        }
        over.extend(o);
    }
    assert!(
        over.is_empty(),
        "{} inputs over the bound:\n{}",
        over.len(),
        over.join("\n")
    );
}

/// `max_alloc` holds: decoding under a cap of `CAP` bytes never has more live than the cap,
/// plus the copies of the input (text, bytes and dense arrays: at most 2 x n, LATIN1 text
/// re-encoded as UTF-8), plus one allocation past the cap (bounded by the input as well),
/// plus `SLACK`; and an input whose
/// decode fails under the cap fails with `AllocLimit` or an error it also has without it.
#[test]
fn max_alloc_caps_what_one_decode_allocates() {
    const CAP: usize = 4096;
    // What a decode holds besides what it charges: the context's state and the TypeDefs
    // it parses (bounded by `max_typedef_size`, not by the cap).
    const SLACK: usize = 16 * 1024;
    let report = std::env::var_os("FURY_MEMORY_REPORT").is_some();
    let mut over = Vec::new();
    let mut capped = 0;
    for (target, compatible, tracking) in [
        ("value_plain", false, false),
        ("value_compat", true, false),
        ("value_ref", false, true),
        ("value_compat_ref", true, true),
    ] {
        let build = |cap: usize| {
            fury::Fury::builder()
                .compatible(compatible)
                .ref_tracking(tracking)
                .max_alloc(cap)
                .build()
        };
        let mut worst = (0i64, String::new());
        for (name, data) in corpus(target) {
            // The instance is built outside the measurement: only the decode counts.
            let fury = build(CAP);
            let _ = fury.deserialize::<fury::Value>(&data);
            let peak = peak_of(|| {
                let _ = fury.deserialize::<fury::Value>(&data);
            });
            let excess = peak - (CAP + 4 * data.len() + SLACK) as i64;
            if excess > worst.0 || worst.1.is_empty() {
                worst = (excess, name.clone());
            }
            if excess > 0 {
                over.push(format!(
                    "{target}/{name}: {peak} bytes at peak under a cap of {CAP}, for {} input bytes",
                    data.len()
                ));
            }
        }
        if report {
            println!(
                "{target:>20} capped: worst peak - (cap + 4 x n + {SLACK}) = {} ({})",
                worst.0, worst.1
            );
        }
        for (name, data) in corpus(target) {
            let limited = build(CAP).deserialize::<fury::Value>(&data);
            let free = build(usize::MAX).deserialize::<fury::Value>(&data);
            match (&limited, &free) {
                (Err(e), _) if matches!(e.kind(), fury::ErrorKind::AllocLimit { .. }) => {
                    capped += 1;
                }
                (Ok(a), Ok(b)) if a.bitwise_eq(b) => {}
                (Err(a), Err(b)) if a == b => {}
                _ => over.push(format!(
                    "{target}/{name}: under the cap {limited:?}, without it {free:?}"
                )),
            }
        }
    }
    assert!(capped > 0, "no input reached the cap of {CAP} bytes");
    assert!(
        over.is_empty(),
        "{} inputs broke the cap:\n{}",
        over.len(),
        over.join("\n")
    );
}
