//! `fury-conformance run`: drives any implementation (the *testee*) through every vector
//! over stdin/stdout, as `conformance/PROTOCOL.md` specifies.
//!
//! The runner owns the processes, the timeouts, the failure list and the report. The
//! judgement (does a decoded node equal the expected value, do bytes decode to it with
//! pyfory 1.7.7 and the independent wire decoder) is made by `conformance/reference.py`,
//! which uses the same Python code as `check_peer.py`: one decoder, one comparison.

use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The newest protocol version; the requests of the groups with `"protocol": 2` in
/// `groups.json` carry it, every other request carries [`PROTOCOL_V1`] and is unchanged from
/// version 1.
pub const PROTOCOL: &str = "fury-testee/2";
/// The version of the requests that use nothing version 2 added.
pub const PROTOCOL_V1: &str = "fury-testee/1";
/// A frame longer than this is garbage.
pub const MAX_MESSAGE: usize = 64 << 20;

/// The names `--groups` takes: every group of `groups.json`, and the files of a group that
/// has several (`builtins`: `scalars`, `strings`, ...).
pub fn group_names() -> Vec<&'static str> {
    let mut out = Vec::new();
    for g in crate::groups::all() {
        out.push(g.name.as_str());
        if g.files.len() > 1 {
            out.extend(g.files.iter().map(String::as_str));
        }
    }
    out
}

/// Checks per vector; the last two are the recommended level (writer_same vectors only).
pub const CHECKS: &[&str] = &[
    "decode",
    "encode",
    "roundtrip",
    "encode_exact",
    "roundtrip_exact",
];

/// What `run` needs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The testee command line, run by `sh -c`.
    pub testee: String,
    /// Known failures of this testee.
    pub failure_list: Option<PathBuf>,
    /// Group names (see [`group_names`]); empty means all.
    pub groups: Vec<String>,
    /// Where to write the JSON report.
    pub json: Option<PathBuf>,
    /// Per-request timeout of the testee.
    pub timeout: Duration,
    /// The Python interpreter that runs `reference.py` (needs pyfory 1.7.7).
    pub python: PathBuf,
    /// The `conformance/` directory.
    pub root: PathBuf,
    /// Print every failing check, not only the unexpected ones.
    pub verbose: bool,
    /// Write the failing checks to this file as a failure list.
    pub write_failure_list: Option<PathBuf>,
}

/// A check's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The check passed.
    Pass,
    /// The check failed; the message says how.
    Fail(String),
    /// The testee answered `skipped` (not a pass).
    Skip(String),
}

/// One check of one vector.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// Vector name.
    pub name: String,
    /// Vector group (the `group` of its file).
    pub group: String,
    /// One of [`CHECKS`].
    pub check: &'static str,
    /// The outcome.
    pub status: Status,
    /// The failure list names this check.
    pub listed: bool,
    /// The vector shows one of the choices the spec leaves open (its `"optional"` says
    /// which): a failing decode of it is reported, but does not fail the run.
    pub optional: bool,
}

impl CheckResult {
    /// A failure not in the list (unless optional), or a listed check that passes: either
    /// fails the run.
    pub fn unexpected(&self) -> bool {
        let pass = self.status == Status::Pass;
        if self.optional && !pass && !self.listed {
            return false;
        }
        pass == self.listed
    }
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct RunReport {
    /// Every check made.
    pub results: Vec<CheckResult>,
    /// Problems with the failure list (unknown names, bad lines).
    pub list_problems: Vec<String>,
    /// Testee faults: crashes, timeouts, garbage (each followed by a restart).
    pub faults: Vec<String>,
}

impl RunReport {
    /// The run passes: no unexpected result, a clean failure list, at least one check.
    pub fn ok(&self) -> bool {
        !self.results.is_empty()
            && self.list_problems.is_empty()
            && !self.results.iter().any(CheckResult::unexpected)
    }
}

/// A failure list: `NAME CHECK  # reason` per line (`CHECK` one of [`CHECKS`] or `*` for
/// every check of the vector); blank lines and `#` comments are ignored.
#[derive(Debug, Default)]
pub struct FailureList {
    entries: BTreeMap<(String, String), usize>,
    /// Lines that are not entries.
    pub problems: Vec<String>,
}

impl FailureList {
    /// Parses the text of a failure list.
    pub fn parse(text: &str) -> Self {
        let mut list = FailureList::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut parts = line.split_whitespace();
            match (parts.next(), parts.next(), parts.next()) {
                (Some(name), Some(check), None) if check == "*" || CHECKS.contains(&check) => {
                    list.entries
                        .insert((name.to_string(), check.to_string()), i + 1);
                }
                _ => list.problems.push(format!(
                    "failure list line {}: expected `NAME CHECK` with CHECK one of {CHECKS:?} or *, got {line:?}",
                    i + 1
                )),
            }
        }
        list
    }

    fn listed(&self, name: &str, check: &str) -> bool {
        self.entries
            .contains_key(&(name.to_string(), check.to_string()))
            || self
                .entries
                .contains_key(&(name.to_string(), "*".to_string()))
    }
}

/// Why a testee gave no usable answer.
#[derive(Debug)]
enum Fault {
    Crashed(String),
    Timeout,
    Garbage(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(why) => write!(f, "the testee crashed ({why})"),
            Fault::Timeout => write!(f, "the testee did not answer in time"),
            Fault::Garbage(why) => write!(f, "the testee answered garbage ({why})"),
        }
    }
}

/// Writes one frame: the 4-byte little-endian length, then the JSON text.
pub fn write_frame(w: &mut impl Write, msg: &Json) -> std::io::Result<()> {
    let body = serde_json::to_vec(msg)?;
    let len = u32::try_from(body.len())
        .map_err(|_| std::io::Error::other("message longer than 4 GiB"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(&body)?;
    w.flush()
}

/// Reads one frame; `Ok(None)` at a clean end of input, `Err` for a broken frame.
pub fn read_frame(r: &mut impl Read) -> Result<Option<Json>, String> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut head[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(format!(
                    "end of output inside a frame header ({got} of 4 bytes)"
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("reading: {e}")),
        }
    }
    let len = u32::from_le_bytes(head) as usize;
    if len > MAX_MESSAGE {
        // A testee that prints text on stdout shows up here: say so.
        if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            return Err(format!(
                "the testee printed {:?} on stdout, which holds only frames (a 4-byte \
                 little-endian length, then JSON); write logs to stderr",
                String::from_utf8_lossy(&head) + "..."
            ));
        }
        return Err(format!(
            "frame length {len} (bytes {}) exceeds {MAX_MESSAGE}",
            crate::hex_encode(&head)
        ));
    }
    let mut body = Vec::new();
    r.take(len as u64)
        .read_to_end(&mut body)
        .map_err(|e| format!("reading a frame: {e}"))?;
    if body.len() != len {
        return Err(format!(
            "end of output inside a frame: {} of {len} bytes",
            body.len()
        ));
    }
    let text = std::str::from_utf8(&body).map_err(|e| format!("frame is not UTF-8: {e}"))?;
    serde_json::from_str(text)
        .map(Some)
        .map_err(|e| format!("frame is not JSON ({e}): {:.80}", text))
}

/// A child process spoken to with frames.
struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Result<Option<Json>, String>>,
}

impl Peer {
    fn start(mut cmd: Command) -> Result<Peer, String> {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
        let stdin = child.stdin.take();
        let mut stdout = child
            .stdout
            .take()
            .ok_or_else(|| "the child has no stdout".to_string())?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || loop {
            let msg = read_frame(&mut stdout);
            let stop = !matches!(msg, Ok(Some(_)));
            if tx.send(msg).is_err() || stop {
                break;
            }
        });
        Ok(Peer { child, stdin, rx })
    }

    fn ask(&mut self, msg: &Json, timeout: Duration) -> Result<Json, Fault> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Fault::Crashed("stdin closed".into()))?;
        if let Err(e) = write_frame(stdin, msg) {
            return Err(self.crashed(format!("writing the request: {e}")));
        }
        match self.rx.recv_timeout(timeout) {
            Ok(Ok(Some(answer))) => Ok(answer),
            Ok(Ok(None)) => Err(self.crashed("end of output".into())),
            Ok(Err(why)) => Err(Fault::Garbage(why)),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed("output closed".into())),
        }
    }

    fn crashed(&mut self, what: String) -> Fault {
        // give the process a moment to exit so the status can be reported
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Crashed(format!("{what}; {status}"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Fault::Crashed(what)
    }

    fn stop(mut self, polite: bool) {
        if polite {
            if let Some(stdin) = self.stdin.as_mut() {
                let _ = write_frame(stdin, &json!({"op": "shutdown"}));
            }
            drop(self.stdin.take());
            for _ in 0..100 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shell(cmd: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd);
    c
}

/// The reference checker (`reference.py`).
struct Reference {
    peer: Peer,
}

impl Reference {
    fn ask(&mut self, msg: &Json) -> Result<Json, String> {
        let answer = self.peer.ask(msg, Duration::from_secs(300)).map_err(|f| {
            format!(
                "reference.py: {}",
                f.to_string().replace("the testee", "the reference checker")
            )
        })?;
        if let Some(e) = answer.get("error") {
            return Err(format!("reference.py: {e}"));
        }
        Ok(answer)
    }

    fn problems(&mut self, msg: &Json) -> Result<Vec<String>, String> {
        let answer = self.ask(msg)?;
        answer["problems"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .ok_or_else(|| format!("reference.py: no problems list in {answer}"))
    }
}

/// The testee, restarted after each fault.
struct Testee {
    cmd: String,
    peer: Option<Peer>,
    timeout: Duration,
    /// Faults since the last good answer; a testee that never answers is given up on.
    consecutive: u32,
}

const GIVE_UP_AFTER: u32 = 5;

impl Testee {
    fn ask(&mut self, msg: &Json, faults: &mut Vec<String>) -> Result<Json, String> {
        let name = msg["name"].as_str().unwrap_or("?");
        let op = msg["op"].as_str().unwrap_or("?");
        if self.consecutive >= GIVE_UP_AFTER {
            return Err(format!(
                "not asked: the testee failed {GIVE_UP_AFTER} times in a row"
            ));
        }
        if self.peer.is_none() {
            match Peer::start(shell(&self.cmd)) {
                Ok(p) => self.peer = Some(p),
                Err(e) => {
                    self.consecutive = GIVE_UP_AFTER;
                    faults.push(e.clone());
                    return Err(e);
                }
            }
        }
        let Some(peer) = self.peer.as_mut() else {
            return Err("no testee".into());
        };
        let out_of_band = msg["settings"]["out_of_band"] == true && op != "decode";
        let fault = match peer.ask(msg, self.timeout) {
            Ok(answer) => match answer_shape(&answer, out_of_band) {
                Ok(()) => {
                    self.consecutive = 0;
                    return Ok(answer);
                }
                Err(why) => Fault::Garbage(why),
            },
            Err(f) => f,
        };
        let what = match fault {
            Fault::Timeout => format!("{fault} (more than {} ms)", self.timeout.as_millis()),
            _ => fault.to_string(),
        };
        faults.push(format!("{name} [{op}]: {what}; restarted"));
        self.consecutive += 1;
        if let Some(p) = self.peer.take() {
            p.stop(false);
        }
        Err(what)
    }
}

fn is_hex(h: &str) -> bool {
    h.len().is_multiple_of(2)
        && h.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A response is an object with exactly one of `hex`, `value`, `error`, `skipped`; with
/// `out_of_band` (the encode and roundtrip requests of an out-of-band vector) a `hex` answer
/// also carries `buffers`, a list of hex strings.
fn answer_shape(a: &Json, out_of_band: bool) -> Result<(), String> {
    let Some(obj) = a.as_object() else {
        return Err(format!("the response is not an object: {a:.80}"));
    };
    if let Some(b) = obj.get("buffers") {
        if !out_of_band || !obj.contains_key("hex") {
            return Err(
                "\"buffers\" belongs only beside \"hex\", in the answer to an out-of-band encode or roundtrip"
                    .into(),
            );
        }
        let ok = b
            .as_array()
            .is_some_and(|a| a.iter().all(|x| x.as_str().is_some_and(is_hex)));
        if !ok || obj.len() != 2 {
            return Err(
                "\"buffers\" must be a list of lower-case hex strings, beside \"hex\" alone".into(),
            );
        }
    } else if out_of_band && obj.contains_key("hex") {
        return Err(
            "the answer to an out-of-band encode or roundtrip needs \"buffers\" beside \"hex\""
                .into(),
        );
    }
    let keys: Vec<&str> = ["hex", "value", "error", "skipped"]
        .into_iter()
        .filter(|k| obj.contains_key(*k))
        .collect();
    if keys.len() != 1 {
        return Err(format!(
            "a response needs exactly one of hex, value, error, skipped; got keys {:?}",
            obj.keys().collect::<Vec<_>>()
        ));
    }
    match keys[0] {
        "hex" => {
            if !obj["hex"].as_str().is_some_and(is_hex) {
                return Err("\"hex\" must be lower-case hex digits, two per byte".into());
            }
        }
        "value" => {
            if !obj["value"].is_object() {
                return Err("\"value\" must be a node (an object)".into());
            }
        }
        k => {
            if !obj[k].is_string() {
                return Err(format!("\"{k}\" must be a string"));
            }
        }
    }
    Ok(())
}

/// The default Python for `reference.py`: `$FURY_PYTHON`, `$FURY_VENV/bin/python`,
/// `<repo>/.venv/bin/python`, else `python3`.
pub fn default_python(root: &Path) -> PathBuf {
    if let Some(p) = std::env::var_os("FURY_PYTHON") {
        return PathBuf::from(p);
    }
    if let Some(v) = std::env::var_os("FURY_VENV") {
        return PathBuf::from(v).join("bin/python");
    }
    let venv = root.join("../.venv/bin/python");
    if venv.exists() {
        return venv;
    }
    PathBuf::from("python3")
}

/// Runs every selected vector through the testee. `Err` is a problem of the runner or the
/// reference (not of the testee).
pub fn run(opts: &Options) -> Result<RunReport, String> {
    let names = group_names();
    for g in &opts.groups {
        if !names.contains(&g.as_str()) {
            return Err(format!(
                "unknown group {g:?}; groups are {names:?} (conformance/groups.json)"
            ));
        }
    }
    let wants = |g: &str| opts.groups.is_empty() || opts.groups.iter().any(|x| x == g);
    // a group is run when it or one of its files was asked for; a vector when its file's
    // group or the group holding that file was
    let mut dirs = Vec::new();
    for g in crate::groups::all() {
        if wants(&g.name) || g.files.iter().any(|f| wants(f)) {
            dirs.push(g.dir_in(&opts.root).display().to_string());
        }
    }
    let keep =
        |group: &str| wants(group) || crate::groups::holding(group).is_some_and(|g| wants(&g.name));
    let list = match &opts.failure_list {
        Some(p) => FailureList::parse(
            &std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
        ),
        None => FailureList::default(),
    };
    let mut cmd = Command::new(&opts.python);
    cmd.arg(opts.root.join("reference.py"));
    let mut reference = Reference {
        peer: Peer::start(cmd)?,
    };
    let listing = reference.ask(&json!({"op": "list", "dirs": dirs}))?;
    let types = listing["types"].as_object().cloned().unwrap_or_default();
    let vectors = listing["vectors"]
        .as_array()
        .ok_or("reference.py: no vector list")?;

    let mut report = RunReport {
        list_problems: list.problems.clone(),
        ..RunReport::default()
    };
    let mut testee = Testee {
        cmd: opts.testee.clone(),
        peer: None,
        timeout: opts.timeout,
        consecutive: 0,
    };
    let mut seen = BTreeSet::new();
    for v in vectors {
        let name = v["name"].as_str().unwrap_or("?").to_string();
        let group = v["group"].as_str().unwrap_or("?").to_string();
        if !keep(&group) {
            continue;
        }
        seen.insert(name.clone());
        let mut statuses: Vec<(&'static str, Status)> = Vec::new();
        let requests = v["requests"].as_array().cloned().unwrap_or_default();
        for mut req in requests {
            if let Some(key) = req.get("types_key").and_then(Json::as_str) {
                let defs = types.get(key).cloned().unwrap_or(Json::Null);
                req["types"] = defs;
            }
            let op = req["op"].as_str().unwrap_or("").to_string();
            let answer = testee.ask(&req, &mut report.faults);
            match op.as_str() {
                "decode" => {
                    statuses.push(("decode", judge_decode(&mut reference, v, &name, answer)?))
                }
                "encode" | "roundtrip" => {
                    let (required, exact) = judge_bytes(&mut reference, v, &name, &op, answer)?;
                    let (rc, ec) = if op == "encode" {
                        ("encode", "encode_exact")
                    } else {
                        ("roundtrip", "roundtrip_exact")
                    };
                    statuses.push((rc, required));
                    if let Some(e) = exact {
                        statuses.push((ec, e));
                    }
                }
                other => return Err(format!("reference.py: request with op {other:?}")),
            }
        }
        let optional = v["optional"].is_string();
        for (check, status) in statuses {
            let listed = list.listed(&name, check);
            report.results.push(CheckResult {
                name: name.clone(),
                group: group.clone(),
                check,
                status,
                listed,
                optional: optional && check == "decode",
            });
        }
    }
    for ((name, check), line) in &list.entries {
        let in_run = seen.contains(name);
        if !in_run && opts.groups.is_empty() {
            report.list_problems.push(format!(
                "failure list line {line}: no vector named {name:?}"
            ));
        } else if in_run
            && check != "*"
            && !report
                .results
                .iter()
                .any(|r| &r.name == name && r.check == check)
        {
            report.list_problems.push(format!(
                "failure list line {line}: vector {name} has no {check} check (exact checks exist only for writer_same vectors)"
            ));
        }
    }
    if let Some(p) = testee.peer.take() {
        p.stop(true);
    }
    let _ = reference.ask(&json!({"op": "shutdown"}));
    reference.peer.stop(true);
    if let Some(path) = &opts.json {
        write_json(&report, opts, path)?;
    }
    if let Some(path) = &opts.write_failure_list {
        write_failure_list(&report, path)?;
    }
    Ok(report)
}

fn judge_decode(
    reference: &mut Reference,
    v: &Json,
    name: &str,
    answer: Result<Json, String>,
) -> Result<Status, String> {
    let expects_error = v["decode_expects_error"].as_bool().unwrap_or(false);
    let answer = match answer {
        Ok(a) => a,
        Err(fault) => return Ok(Status::Fail(fault)),
    };
    if let Some(s) = answer.get("skipped") {
        return Ok(Status::Skip(s.as_str().unwrap_or("").to_string()));
    }
    if let Some(e) = answer.get("error") {
        return Ok(if expects_error {
            Status::Pass
        } else {
            Status::Fail(format!(
                "the testee could not decode: {}",
                e.as_str().unwrap_or("")
            ))
        });
    }
    let Some(node) = answer.get("value") else {
        return Ok(Status::Fail("answered hex to a decode request".into()));
    };
    let problems =
        reference.problems(&json!({"op": "check_decode", "name": name, "value": node}))?;
    Ok(if problems.is_empty() {
        Status::Pass
    } else {
        Status::Fail(problems.join("; "))
    })
}

fn judge_bytes(
    reference: &mut Reference,
    v: &Json,
    name: &str,
    op: &str,
    answer: Result<Json, String>,
) -> Result<(Status, Option<Status>), String> {
    let writer_same = v["writer_same"].as_bool().unwrap_or(false);
    let not_checked = |why: &str| Status::Fail(format!("not checked: {why}"));
    let answer = match answer {
        Ok(a) => a,
        Err(fault) => {
            let exact = writer_same.then(|| not_checked("no bytes"));
            return Ok((Status::Fail(fault), exact));
        }
    };
    if let Some(s) = answer.get("skipped") {
        let why = s.as_str().unwrap_or("").to_string();
        return Ok((
            Status::Skip(why.clone()),
            writer_same.then_some(Status::Skip(why)),
        ));
    }
    if let Some(e) = answer.get("error") {
        let msg = format!("the testee could not {op}: {}", e.as_str().unwrap_or(""));
        return Ok((
            Status::Fail(msg),
            writer_same.then(|| not_checked("no bytes")),
        ));
    }
    let Some(hex) = answer.get("hex").and_then(Json::as_str) else {
        return Ok((
            Status::Fail(format!("answered a value to an {op} request")),
            writer_same.then(|| not_checked("no bytes")),
        ));
    };
    let buffers = answer.get("buffers").cloned();
    let mut ask = json!({"op": "check_bytes", "name": name, "hex": hex});
    if let Some(b) = &buffers {
        ask["buffers"] = b.clone();
    }
    let problems = reference.problems(&ask)?;
    let required = if problems.is_empty() {
        Status::Pass
    } else {
        Status::Fail(format!("{} (testee hex {hex:.120})", problems.join("; ")))
    };
    let exact = writer_same.then(|| {
        let want = v["hex"].as_str().unwrap_or("");
        if hex == want {
            match (&buffers, v.get("buffers")) {
                (Some(got), Some(want)) if got != want => Status::Fail(format!(
                    "the stream is the vector's, but the buffers differ:\n    testee {got:.200}\n    vector {want:.200}"
                )),
                _ => Status::Pass,
            }
        } else {
            Status::Fail(format!(
                "bytes differ from the vector's at byte {}:\n    testee {hex:.200}\n    vector {want:.200}",
                first_difference(hex, want)
            ))
        }
    });
    Ok((required, exact))
}

fn first_difference(a: &str, b: &str) -> usize {
    a.as_bytes()
        .chunks(2)
        .zip(b.as_bytes().chunks(2))
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()) / 2)
}

fn status_json(s: &Status) -> Json {
    match s {
        Status::Pass => json!({"status": "pass"}),
        Status::Fail(m) => json!({"status": "fail", "message": m}),
        Status::Skip(m) => json!({"status": "skipped", "message": m}),
    }
}

fn write_json(report: &RunReport, opts: &Options, path: &Path) -> Result<(), String> {
    let mut by_vector: BTreeMap<&str, (String, serde_json::Map<String, Json>)> = BTreeMap::new();
    for r in &report.results {
        let entry = by_vector
            .entry(&r.name)
            .or_insert_with(|| (r.group.clone(), serde_json::Map::new()));
        let mut s = status_json(&r.status);
        s["listed"] = json!(r.listed);
        s["optional"] = json!(r.optional);
        s["unexpected"] = json!(r.unexpected());
        entry.1.insert(r.check.to_string(), s);
    }
    let vectors: Vec<Json> = by_vector
        .into_iter()
        .map(|(name, (group, checks))| json!({"name": name, "group": group, "checks": checks}))
        .collect();
    let (passed, failed) = counts(report);
    let doc = json!({
        "format": "fury-conformance-report/1",
        "protocol": PROTOCOL,
        "testee": opts.testee,
        "passed": passed,
        "failed": failed,
        "unexpected": report.results.iter().filter(|r| r.unexpected()).count(),
        "ok": report.ok(),
        "faults": report.faults,
        "failure_list_problems": report.list_problems,
        "groups": group_table(report).into_iter().map(|(g, c)| json!({
            "group": g, "passed": c[0], "failed": c[1], "listed": c[2], "unexpected": c[3]
        })).collect::<Vec<_>>(),
        "vectors": vectors,
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())? + "\n";
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes the failing checks as a failure list (`NAME CHECK  # message`), one line each, so
/// a new port can start from its present state and shrink the list.
pub fn write_failure_list(report: &RunReport, path: &Path) -> Result<(), String> {
    let mut text = String::from(
        "# Known failures, written by `fury-conformance run --write-failure-list`.\n\
         # Format: NAME CHECK  # reason (CHECK: decode encode roundtrip encode_exact roundtrip_exact, or *)\n",
    );
    for r in &report.results {
        if let Status::Fail(m) | Status::Skip(m) = &r.status {
            let first = m.lines().next().unwrap_or("").replace('#', "%23");
            let first: String = first.chars().take(160).collect();
            text.push_str(&format!("{} {}  # {first}\n", r.name, r.check));
        }
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks passed and failed (listed or not).
pub fn counts(report: &RunReport) -> (usize, usize) {
    let passed = report
        .results
        .iter()
        .filter(|r| r.status == Status::Pass)
        .count();
    (passed, report.results.len() - passed)
}

/// Per group: passed, failed, failed-and-listed, unexpected.
pub fn group_table(report: &RunReport) -> BTreeMap<String, [usize; 4]> {
    let mut t: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for r in &report.results {
        let row = t.entry(r.group.clone()).or_default();
        if r.status == Status::Pass {
            row[0] += 1;
        } else {
            row[1] += 1;
            if r.listed {
                row[2] += 1;
            }
        }
        if r.unexpected() {
            row[3] += 1;
        }
    }
    t
}

/// The text report: unexpected results (every failure with `verbose`), faults, the
/// per-group table and the `N passed, M failed` line.
pub fn print_report(report: &RunReport, verbose: bool) {
    for r in &report.results {
        let line = match &r.status {
            Status::Pass if r.listed => Some(format!(
                "PASS {} [{}]: listed in the failure list but passes; remove the entry",
                r.name, r.check
            )),
            Status::Pass => None,
            Status::Fail(m) | Status::Skip(m) if !r.listed || verbose => Some(format!(
                "{} {} [{}]{}: {m}",
                if r.optional {
                    "OPTIONAL"
                } else if matches!(r.status, Status::Skip(_)) {
                    "SKIP"
                } else {
                    "FAIL"
                },
                r.name,
                r.check,
                if r.listed { " (listed)" } else { "" }
            )),
            _ => None,
        };
        if let Some(l) = line {
            println!("{l}");
        }
    }
    for f in &report.faults {
        println!("FAULT {f}");
    }
    for p in &report.list_problems {
        println!("LIST {p}");
    }
    println!(
        "{:<14} {:>7} {:>7} {:>7} {:>10}",
        "group", "passed", "failed", "listed", "unexpected"
    );
    for (g, c) in group_table(report) {
        println!("{g:<14} {:>7} {:>7} {:>7} {:>10}", c[0], c[1], c[2], c[3]);
    }
    let unexpected = report.results.iter().filter(|r| r.unexpected()).count();
    let (passed, failed) = counts(report);
    println!(
        "{} vectors; {} of the failures are in the failure list; {unexpected} unexpected results; {} testee faults",
        report
            .results
            .iter()
            .map(|r| &r.name)
            .collect::<BTreeSet<_>>()
            .len(),
        report
            .results
            .iter()
            .filter(|r| r.listed && r.status != Status::Pass)
            .count(),
        report.faults.len()
    );
    println!("{passed} passed, {failed} failed");
}
