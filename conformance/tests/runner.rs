//! `fury-conformance run` against deliberately broken testees: the fury-rs testee with
//! `FURY_TESTEE_FAULT` set flips a byte, drops a response, crashes, or answers garbage on one
//! request; each fault must be reported against that vector only, and the run must go on
//! (the testee is restarted). Also: the failure list's rules (a listed check that passes
//! fails the run; an unlisted failure fails it). Needs the Python of `FURY_VENV` (pyfory).

use fury_conformance::runner::{self, FailureList, Options, RunReport, Status};
use std::path::PathBuf;
use std::time::Duration;

const VICTIM: &str = "scalars/int32/-1";

fn opts(fault: Option<&str>, list: Option<PathBuf>) -> Options {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = env!("CARGO_BIN_EXE_fury-testee");
    let testee = match fault {
        Some(f) => format!("FURY_TESTEE_FAULT='{f}' {bin}"),
        None => bin.to_string(),
    };
    Options {
        testee,
        failure_list: list,
        groups: vec!["builtins".into()],
        json: None,
        timeout: Duration::from_millis(1500),
        python: runner::default_python(&root),
        root,
        verbose: false,
        write_failure_list: None,
    }
}

fn run(fault: Option<&str>) -> RunReport {
    runner::run(&opts(fault, None)).expect("the runner runs")
}

/// A run over the groups of protocol version 2.
fn run_v2(fault: Option<&str>) -> RunReport {
    let mut o = opts(fault, None);
    o.groups = ["oob", "union", "ext", "decimal", "rows"]
        .map(String::from)
        .to_vec();
    runner::run(&o).expect("the runner runs")
}

/// The non-passing checks, as (vector, check, message).
fn failures(r: &RunReport) -> Vec<(String, &'static str, String)> {
    r.results
        .iter()
        .filter_map(|c| match &c.status {
            Status::Pass => None,
            Status::Fail(m) | Status::Skip(m) => Some((c.name.clone(), c.check, m.clone())),
        })
        .collect()
}

#[test]
fn a_healthy_testee_passes_every_builtin_vector() {
    let r = run(None);
    assert!(r.ok(), "{:?}", failures(&r));
    // three required checks each, and two exact ones for the 339 writer_same vectors
    assert_eq!(
        r.results.len(),
        351 * 3 + 339 * 2,
        "every check of every built-in vector"
    );
    assert!(r.faults.is_empty());
}

#[test]
fn a_flipped_byte_fails_that_encode_only() {
    let r = run(Some(&format!("flip:encode:{VICTIM}")));
    let f = failures(&r);
    let names: Vec<_> = f.iter().map(|(n, c, _)| format!("{n} {c}")).collect();
    assert_eq!(
        names,
        [format!("{VICTIM} encode"), format!("{VICTIM} encode_exact")],
        "{f:?}"
    );
    assert!(
        f[0].2.contains("expected int32 -1, got -16777217"),
        "the reference says why: {}",
        f[0].2
    );
    assert!(!r.ok());
}

#[test]
fn a_wrong_decoded_value_is_reported() {
    let r = run(Some(&format!("flip:decode:{VICTIM}")));
    let f = failures(&r);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0.as_str(), f[0].1), (VICTIM, "decode"));
    assert!(f[0].2.contains("expected int32 -1"), "{}", f[0].2);
}

fn assert_one_fault(r: &RunReport, op: &'static str, what: &str) {
    let f = failures(r);
    assert!(
        f.iter().all(|(n, _, _)| n == VICTIM),
        "only the victim fails: {f:?}"
    );
    assert!(
        f.iter().any(|(_, c, m)| *c == op && m.contains(what)),
        "{op} reported with {what:?}: {f:?}"
    );
    assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
    assert!(
        r.faults[0].contains(VICTIM) && r.faults[0].contains("restarted"),
        "{:?}",
        r.faults
    );
    // the run went on after the restart
    assert_eq!(r.results.len(), 351 * 3 + 339 * 2);
}

#[test]
fn a_dropped_response_times_out_and_the_run_goes_on() {
    let r = run(Some(&format!("drop:roundtrip:{VICTIM}")));
    assert_one_fault(&r, "roundtrip", "did not answer in time");
}

#[test]
fn a_crash_is_reported_and_the_testee_restarted() {
    let r = run(Some(&format!("crash:decode:{VICTIM}")));
    assert_one_fault(&r, "decode", "crashed");
    assert!(r.faults[0].contains("exit status: 3"), "{:?}", r.faults);
}

#[test]
fn garbage_is_reported_and_the_testee_restarted() {
    let r = run(Some(&format!("garbage:encode:{VICTIM}")));
    assert_one_fault(&r, "encode", "garbage");
}

#[test]
fn a_testee_that_cannot_start_fails_every_check() {
    let mut o = opts(None, None);
    o.testee = "exec /nonexistent/testee".into();
    let r = runner::run(&o).expect("the runner runs");
    assert!(!r.ok());
    assert!(r.results.iter().all(|c| c.status != Status::Pass));
    assert!(
        r.faults.len() <= 6,
        "gives up instead of restarting forever: {}",
        r.faults.len()
    );
}

#[test]
fn failure_list_rules() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/conformance");
    std::fs::create_dir_all(&dir).expect("target dir");
    let path = dir.join("runner-test-list.txt");
    // the flipped encode is listed (expected); a passing check is listed too (stale)
    std::fs::write(
        &path,
        format!(
            "{VICTIM} encode  # flipped\n{VICTIM} encode_exact\nscalars/int32/0 decode  # stale\n"
        ),
    )
    .expect("write list");
    let r = runner::run(&opts(
        Some(&format!("flip:encode:{VICTIM}")),
        Some(path.clone()),
    ))
    .expect("the runner runs");
    let unexpected: Vec<_> = r
        .results
        .iter()
        .filter(|c| c.unexpected())
        .map(|c| format!("{} {}", c.name, c.check))
        .collect();
    assert_eq!(
        unexpected,
        ["scalars/int32/0 decode"],
        "only the stale entry"
    );
    assert!(!r.ok(), "a listed check that passes fails the run");

    std::fs::write(&path, format!("{VICTIM} *  # flipped\n")).expect("write list");
    let r = runner::run(&opts(
        Some(&format!("flip:encode:{VICTIM}")),
        Some(path.clone()),
    ))
    .expect("the runner runs");
    // `*` lists every check of the vector, and three of them pass
    assert_eq!(r.results.iter().filter(|c| c.unexpected()).count(), 3);

    let bad = FailureList::parse("a/b decode\nno-check-here\nx/y frobnicate\n");
    assert_eq!(bad.problems.len(), 2, "{:?}", bad.problems);
}

#[test]
fn optional_and_listed_results() {
    use fury_conformance::runner::CheckResult;
    let r = |status: Status, listed: bool, optional: bool| CheckResult {
        name: "v".into(),
        group: "g".into(),
        check: "decode",
        status,
        listed,
        optional,
    };
    let fail = || Status::Fail("x".into());
    assert!(r(fail(), false, false).unexpected(), "an unlisted failure");
    assert!(!r(fail(), true, false).unexpected(), "a listed failure");
    assert!(r(Status::Pass, true, false).unexpected(), "a listed pass");
    assert!(!r(Status::Pass, false, false).unexpected());
    assert!(
        !r(fail(), false, true).unexpected(),
        "an optional vector may fail"
    );
    assert!(
        r(Status::Pass, true, true).unexpected(),
        "a listed pass, optional or not"
    );
    assert!(
        r(Status::Skip("s".into()), false, false).unexpected(),
        "a skip is not a pass"
    );
}

#[test]
fn version_2_groups_pass_and_their_faults_are_caught() {
    let r = run_v2(None);
    assert!(r.ok(), "{:?}", failures(&r));
    assert_eq!(
        r.results.len(),
        79 * 5,
        "five checks of each oob, union, ext, decimal and row vector"
    );
    // a wrong out-of-band buffer: pyfory reads another value, and the exact check says so
    let r = run_v2(Some("flipbuffer:encode:oob/list/all_out"));
    let f = failures(&r);
    let names: Vec<_> = f.iter().map(|(n, c, _)| format!("{n} {c}")).collect();
    assert_eq!(
        names,
        ["oob/list/all_out encode", "oob/list/all_out encode_exact"],
        "{f:?}"
    );
    assert!(f[1].2.contains("buffers differ"), "{}", f[1].2);
    // an out-of-band answer without its buffers is garbage: a fault, the testee restarted
    let r = run_v2(Some("nobuffers:roundtrip:oob/root/out"));
    assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
    assert!(r.faults[0].contains("needs \"buffers\""), "{}", r.faults[0]);
    assert_eq!(failures(&r).len(), 2, "{:?}", failures(&r));
    // a flipped byte of a union, a decimal and a row (its last byte is padding: pyfory
    // still reads the value, and only the exact check sees it)
    for (victim, check) in [
        ("union/same_schema/zoo", "roundtrip"),
        ("decimal/big_40_digits", "roundtrip"),
        ("row/nested_deep", "roundtrip_exact"),
    ] {
        let r = run_v2(Some(&format!("flip:roundtrip:{victim}")));
        let f = failures(&r);
        assert!(
            f.iter().any(|(n, c, _)| n == victim && *c == check),
            "{victim}: {f:?}"
        );
        assert!(f.iter().all(|(n, _, _)| n == victim), "{f:?}");
    }
}

/// The group `any` (vectors/any: `typing.Any` fields, both modes, shared objects): the
/// fury-rs testee passes it, and a back reference to the wrong object is caught.
#[test]
fn the_any_group_passes_and_a_wrong_back_reference_is_caught() {
    let run_any = |fault: Option<&str>| {
        let mut o = opts(fault, None);
        o.groups = vec!["any".into()];
        runner::run(&o).expect("the runner runs")
    };
    let r = run_any(None);
    assert!(r.ok(), "{:?}", failures(&r));
    assert_eq!(
        r.results.len(),
        36 * 5,
        "five checks of each of the 36 vectors"
    );
    // `fe 01` (the first point) becomes `fe 00` (the enclosing Refs): pyfory reads another
    // graph, the wire check sees the other target, and the bytes differ
    let victim = "any/refs/same_schema/shared_point";
    let r = run_any(Some(&format!("flip:encode:{victim}")));
    let f = failures(&r);
    let names: Vec<_> = f.iter().map(|(n, c, _)| format!("{n} {c}")).collect();
    assert_eq!(
        names,
        [format!("{victim} encode"), format!("{victim} encode_exact")],
        "{f:?}"
    );
    assert!(f[0].2.contains("the same object as $.first"), "{}", f[0].2);
}

/// The group `reject`: fury-rs refuses every stream (one decode check each, required), and a
/// testee that accepts everything fails every check, with the rule it broke in the message.
#[test]
fn the_reject_group_passes_and_a_lax_testee_fails_it() {
    let run_reject = |fault: Option<&str>| {
        let mut o = opts(fault, None);
        o.groups = vec!["reject".into()];
        runner::run(&o).expect("the runner runs")
    };
    let r = run_reject(None);
    assert!(r.ok(), "{:?}", failures(&r));
    assert!(r.results.len() >= 40, "{} checks", r.results.len());
    assert!(r.results.iter().all(|c| c.check == "decode" && !c.optional));
    let r = run_reject(Some("lax::"));
    let f = failures(&r);
    assert!(!r.ok());
    assert_eq!(f.len(), r.results.len(), "every check fails: {f:?}");
    assert!(
        f.iter()
            .all(|(_, _, m)| m.contains("MUST refuse") && m.contains("spec/")),
        "{f:?}"
    );
}

/// A shared small int, string or enum written twice instead of as a back reference reads as
/// the same value (spec 09 §9.11: a port need not copy CPython's object identity): the
/// required encode check passes, and only the recommended exact-bytes check sees it.
#[test]
fn a_copied_shared_leaf_fails_only_the_exact_check() {
    for (name, back_ref, copy) in [
        (
            "refs/same_schema/fields/any_refs_small_int",
            "fe01",
            "00070a",
        ),
        (
            "refs/same_schema/fields/any_refs_string",
            "fe01",
            "001518736861726564",
        ),
        ("refs/same_schema/lists/mixed_enums", "fe01", "00196500"),
    ] {
        let vectors = std::fs::read_to_string(
            fury_conformance::groups::group("refs").file_paths()[0].clone(),
        )
        .expect("refs.json");
        let doc: serde_json::Value = serde_json::from_str(&vectors).expect("JSON");
        let hex = doc["vectors"]
            .as_array()
            .and_then(|v| v.iter().find(|v| v["name"] == name))
            .and_then(|v| v["hex"].as_str())
            .expect("the vector")
            .to_string();
        let copied = format!(
            "{}{copy}",
            hex.strip_suffix(back_ref).expect("ends in fe 01")
        );
        let mut o = opts(Some(&format!("answer:encode:{name}")), None);
        o.testee = format!("FURY_TESTEE_ANSWER={copied} {}", o.testee);
        o.groups = vec!["refs".into()];
        let r = runner::run(&o).expect("the runner runs");
        let f = failures(&r);
        let names: Vec<_> = f.iter().map(|(n, c, _)| format!("{n} {c}")).collect();
        assert_eq!(names, [format!("{name} encode_exact")], "{f:?}");
    }
}

/// A testee that logs to stdout is told so, with what it printed, rather than given a frame
/// length.
#[test]
fn text_on_stdout_is_named_as_text() {
    let e = runner::read_frame(&mut &b"debug: starting\n"[..]).unwrap_err();
    assert!(e.contains("printed \"debu...\""), "{e}");
    assert!(e.contains("stderr"), "{e}");
    let e = runner::read_frame(&mut &[0xff, 0xff, 0xff, 0x7f][..]).unwrap_err();
    assert!(e.contains("exceeds"), "{e}");
}

/// A node of no valid shape fails its decode check with the runner's words, not with the text
/// of an exception of the reference script.
#[test]
fn a_malformed_node_is_reported_without_foreign_exception_text() {
    let victim = "lists/ints";
    let r = run(Some(&format!("badnode:decode:{victim}")));
    let f = failures(&r);
    assert_eq!(f.len(), 1, "{f:?}");
    let message = &f[0].2;
    assert!(message.contains("shape of a value node"), "{message}");
    for foreign in ["TypeError", "KeyError", "AttributeError", "Traceback"] {
        assert!(!message.contains(foreign), "{message}");
    }
}

/// Both binaries answer `--help` with their usage (not as a file name or a request stream).
#[test]
fn both_binaries_answer_help() {
    for (bin, args) in [
        (env!("CARGO_BIN_EXE_fury-conformance"), vec!["--help"]),
        (
            env!("CARGO_BIN_EXE_fury-conformance"),
            vec!["run", "--help"],
        ),
        (env!("CARGO_BIN_EXE_fury-testee"), vec!["--help"]),
    ] {
        let out = std::process::Command::new(bin)
            .args(&args)
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{bin} {args:?}: {:?}", out.status);
        assert!(text.starts_with("usage: "), "{bin} {args:?}: {text}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fury-testee"))
        .arg("vectors.json")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}
