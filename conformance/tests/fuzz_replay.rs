//! The fuzz corpus replay, on stable Rust: every file under `fuzz/corpus/<target>/` and
//! `fuzz/regressions/<target>/` goes through the same checks as fuzz target `<target>`
//! (`fuzz/src/checks.rs`, included here by path), and must neither panic nor leak.
//!
//! A panic is caught per input and reported with its file name. Leaks are what libFuzzer's
//! LeakSanitizer finds in the campaign; here a counting allocator stands in for it: each
//! input runs twice, and the second run must give back every byte it allocated on this
//! thread (the first run initialises the lazily built `Fury` instances and tables).
//!
//! `KNOWN_DEFECTS` names the defects found by fuzzing (issue 16) that were still open when this
//! was written: an input that fails only in the way one of them describes is reported and does
//! not fail the test. Remove an entry once its fix lands (the test says when no input shows it
//! any more). `FUZZ_REPLAY_VERBOSE=1` prints each such input with its message. None is open
//! now: the last two (`ref-reencode`, `value-schema-mismatch`) were fixed, and their inputs
//! under `fuzz/regressions/` must pass like any other.

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::cell::RefCell;
use std::path::{Path, PathBuf};

// ---- allocation count (this thread's live bytes) ----

#[path = "support/alloc.rs"]
mod alloc;

thread_local! {
    static PANIC_MESSAGE: RefCell<String> = const { RefCell::new(String::new()) };
}

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

// ---- known defects ----

/// How one input failed.
enum Failure {
    Panic(String),
    /// Bytes still allocated after the second run.
    Leak(i64),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panic(m) => write!(f, "panicked: {m}"),
            Failure::Leak(n) => write!(f, "{n} bytes still allocated after the decode"),
        }
    }
}

/// A defect of issue 16 that was still open when this replay was written, and how to
/// recognise an input that shows it (and nothing else).
struct Known {
    name: &'static str,
    what: &'static str,
    matches: fn(failure: &Failure) -> bool,
}

const KNOWN_DEFECTS: &[Known] = &[];

/// The derived type a derived-target input picks, to name it in a report.
fn entry_of(target: &str, data: &[u8]) -> Option<&'static str> {
    let table = match target {
        "derived_same_schema" => checks::same_schema(),
        "derived_compat" => checks::compat_table(),
        "borrowed" => checks::borrowed::table(),
        _ => return None,
    };
    data.first().map(|&b| table[b as usize % table.len()].name)
}

// ---- the replay ----

fn inputs(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(targets) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for t in targets.flatten() {
            let target = t.file_name().to_string_lossy().into_owned();
            let Ok(files) = std::fs::read_dir(t.path()) else {
                continue;
            };
            for f in files.flatten() {
                if f.path().is_file() && !f.file_name().to_string_lossy().starts_with('.') {
                    out.push((target.clone(), f.path()));
                }
            }
        }
    }
    out.sort();
    out
}

/// Runs one input through its target's checks: a caught panic, or the bytes a second run
/// kept allocated.
fn check(target: &str, data: &[u8]) -> Option<Failure> {
    let once = || std::panic::catch_unwind(|| checks::run(target, data));
    if once().is_err() {
        return Some(Failure::Panic(PANIC_MESSAGE.with(|m| m.borrow().clone())));
    }
    let before = alloc::live();
    let second = once();
    let kept = alloc::live() - before;
    match second {
        Err(_) => Some(Failure::Panic(PANIC_MESSAGE.with(|m| m.borrow().clone()))),
        Ok(_) if kept != 0 => Some(Failure::Leak(kept)),
        Ok(_) => None,
    }
}

fn replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let all = inputs(&root);
    assert!(
        all.len() > checks::TARGETS.len(),
        "no corpus under {} (run python3 fuzz/seed.py)",
        root.display()
    );
    for (target, path) in &all {
        assert!(
            checks::TARGETS.contains(&target.as_str()),
            "{}: no fuzz target is named {target}",
            path.display()
        );
    }

    // Keep the panic messages for the report instead of printing each one.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = format!("{msg}{at}"));
    }));

    // FUZZ_REPLAY_VERBOSE=1 prints every input that shows a known defect, with its message.
    let verbose = std::env::var_os("FUZZ_REPLAY_VERBOSE").is_some();
    let mut failures = Vec::new();
    let mut known: Vec<Vec<String>> = vec![Vec::new(); KNOWN_DEFECTS.len()];
    let start = std::time::Instant::now();
    for (target, path) in &all {
        // A running campaign replaces corpus files as it reduces them: one listed a moment
        // ago may be gone. Any other read error is a real problem.
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                failures.push(format!("{}: cannot read: {e}", path.display()));
                continue;
            }
        };
        let Some(failure) = check(target, &data) else {
            continue;
        };
        let mut name = format!("{target}/{}", path.file_name().unwrap().to_string_lossy());
        if let Some(entry) = entry_of(target, &data) {
            name.push_str(&format!(" (entry {entry})"));
        }
        match KNOWN_DEFECTS.iter().position(|k| (k.matches)(&failure)) {
            Some(i) => {
                if verbose {
                    eprintln!(
                        "{name}: known defect '{}': {failure}",
                        KNOWN_DEFECTS[i].name
                    );
                }
                known[i].push(name)
            }
            None => failures.push(format!("{name}: {failure}")),
        }
    }
    std::panic::set_hook(default_hook);

    eprintln!(
        "fuzz replay: {} inputs in {:.1?}",
        all.len(),
        start.elapsed()
    );
    for (k, names) in KNOWN_DEFECTS.iter().zip(&known) {
        if names.is_empty() {
            eprintln!(
                "known defect '{}': no input shows it any more; remove it from KNOWN_DEFECTS",
                k.name
            );
        } else {
            eprintln!(
                "known defect '{}' ({}), tolerated: {} input(s), e.g. {}",
                k.name,
                k.what,
                names.len(),
                names.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} fuzz input(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_and_regression_input_passes_the_fuzz_checks() {
    // A big stack: debug builds use far more stack per nesting level than the release
    // builds the depth limit is tuned for, and corpus inputs nest up to that limit.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(replay)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
