//! The RPC benchmark: an echo server over loopback TCP, N concurrent clients each sending M
//! requests and awaiting each reply, every codec with the same framing (a 4-byte
//! little-endian body length, then the body, written with one `write_all`; read through a
//! buffered reader). The server decodes each request into the Rust type and encodes it again
//! as the reply, so each call is two encodes and two decodes. Run by `src/bin/rpc.rs`.
//!
//! Every codec of one (N, payload) cell gets its own server and its N connections up front;
//! the M calls of each client are then made in rounds, the codecs taking turns round by round
//! (starting with a different one each round), so that a slow patch of a shared machine lands
//! on every codec rather than on one.

use crate::data::{CustomerList, UserModelList};
use crate::pb::Mirror;
use prost::Message;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};

/// The codecs compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// fury-rs, same-schema mode.
    FurySame,
    /// fury-rs, compatible mode, every message with its TypeDefs.
    FuryCompat,
    /// fury-rs, compatible mode, TypeDefs shared per connection (`WriteMeta` / `ReadMeta`).
    FuryShared,
    /// bincode 1.3.
    Bincode,
    /// serde_json.
    Json,
    /// prost (through the dataset's protobuf mirror).
    Prost,
    /// rmp-serde (MessagePack, structs as maps with field names).
    Rmp,
}

impl Codec {
    /// Every codec, in the report's order.
    pub const ALL: [Codec; 7] = [
        Codec::FurySame,
        Codec::FuryCompat,
        Codec::FuryShared,
        Codec::Bincode,
        Codec::Json,
        Codec::Prost,
        Codec::Rmp,
    ];

    /// The name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Codec::FurySame => "fury-rs same-schema",
            Codec::FuryCompat => "fury-rs compatible",
            Codec::FuryShared => "fury-rs compatible, shared meta",
            Codec::Bincode => "bincode",
            Codec::Json => "serde_json",
            Codec::Prost => "prost",
            Codec::Rmp => "rmp-serde",
        }
    }

    /// Bar color in the chart: the main report's color of the same peer (its row of
    /// the peer table).
    pub fn color(self) -> &'static str {
        use crate::peers::Peer;
        let peer = match self {
            Codec::FurySame => Peer::FuryRs,
            Codec::FuryCompat => Peer::FuryRsCompatible,
            // The shared-meta form has no main-report row; the darker red of the ref row.
            Codec::FuryShared => Peer::FuryRsRef,
            Codec::Bincode => Peer::Bincode,
            Codec::Json => Peer::Json,
            Codec::Prost => Peer::Prost,
            Codec::Rmp => Peer::MessagePack,
        };
        peer.color()
    }
}

/// What a payload type needs to go through every codec.
pub trait Payload:
    fury::Serialize
    + fury::DeserializeOwned
    + serde::Serialize
    + serde::de::DeserializeOwned
    + Mirror
    + Clone
    + PartialEq
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
}

impl Payload for UserModelList {}
impl Payload for CustomerList {}

/// The fury-rs instances of a run, with every dataset type registered.
#[derive(Clone)]
pub struct Furies {
    same: Arc<fury::Fury>,
    compat: Arc<fury::Fury>,
}

impl Default for Furies {
    fn default() -> Self {
        Furies {
            same: Arc::new(crate::peers::fury_rs(false, false)),
            compat: Arc::new(crate::peers::fury_rs(true, false)),
        }
    }
}

/// One end of a connection: encodes and decodes bodies, keeping per-connection state.
struct End {
    codec: Codec,
    furies: Furies,
    send: fury::connection::WriteMeta,
    recv: fury::connection::ReadMeta,
}

impl End {
    fn new(codec: Codec, furies: &Furies) -> Self {
        End {
            codec,
            furies: furies.clone(),
            send: fury::connection::WriteMeta::new(),
            recv: fury::connection::ReadMeta::new(),
        }
    }

    /// Appends a frame holding `v` to `out`.
    fn encode<T: Payload>(&mut self, v: &T, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0; 4]);
        match self.codec {
            Codec::FurySame => self.furies.same.serialize_into(v, out).expect("fury-rs"),
            Codec::FuryCompat => self.furies.compat.serialize_into(v, out).expect("fury-rs"),
            Codec::FuryShared => self
                .furies
                .compat
                .serialize_with_meta(v, out, &mut self.send)
                .expect("fury-rs"),
            Codec::Bincode => bincode::serialize_into(&mut *out, v).expect("bincode"),
            Codec::Json => serde_json::to_writer(&mut *out, v).expect("serde_json"),
            Codec::Prost => v.to_pb().encode(out).expect("prost"),
            Codec::Rmp => rmp_serde::encode::write_named(out, v).expect("rmp-serde"),
        }
        let len = (out.len() - start - 4) as u32;
        out[start..start + 4].copy_from_slice(&len.to_le_bytes());
    }

    fn decode<T: Payload>(&mut self, body: &[u8]) -> T {
        match self.codec {
            Codec::FurySame => self.furies.same.deserialize(body).expect("fury-rs"),
            Codec::FuryCompat => self.furies.compat.deserialize(body).expect("fury-rs"),
            Codec::FuryShared => self
                .furies
                .compat
                .deserialize_with_meta(body, &mut self.recv)
                .expect("fury-rs"),
            Codec::Bincode => bincode::deserialize(body).expect("bincode"),
            Codec::Json => serde_json::from_slice(body).expect("serde_json"),
            Codec::Prost => T::from_pb(T::Pb::decode(body).expect("prost")).expect("prost"),
            Codec::Rmp => rmp_serde::from_slice(body).expect("rmp-serde"),
        }
    }
}

/// Reads one frame's body into `body`; false at a clean end of the connection.
async fn read_frame<R: AsyncReadExt + Unpin>(r: &mut R, body: &mut Vec<u8>) -> bool {
    let mut header = [0u8; 4];
    if r.read_exact(&mut header).await.is_err() {
        return false;
    }
    body.resize(u32::from_le_bytes(header) as usize, 0);
    r.read_exact(body).await.is_ok()
}

async fn serve<T: Payload>(socket: TcpStream, codec: Codec, furies: Furies) {
    let _ = socket.set_nodelay(true);
    let (r, mut w) = socket.into_split();
    let mut r = BufReader::with_capacity(64 << 10, r);
    let mut end = End::new(codec, &furies);
    let (mut body, mut out) = (Vec::new(), Vec::new());
    while read_frame(&mut r, &mut body).await {
        let req: T = end.decode(&body);
        out.clear();
        end.encode(&req, &mut out);
        if w.write_all(&out).await.is_err() {
            return;
        }
    }
}

/// One round of one codec: its wall time, the process's CPU time and the calls made.
#[derive(Debug, Clone, Copy)]
pub struct Round {
    /// Wall time from the first request to the last reply of the round.
    pub wall: Duration,
    /// CPU time of the process (clients and server) during the round.
    pub cpu: Duration,
    /// Calls completed in the round.
    pub calls: u64,
}

/// A codec's measurements over all rounds of one cell.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Wall time of all rounds together.
    pub total: Duration,
    /// Calls completed.
    pub calls: u64,
    /// Request and reply frame bytes (headers included), over all calls.
    pub bytes: u64,
    /// CPU time of the process (clients and server) during the rounds.
    pub cpu: Duration,
    /// The rounds, in the order they ran.
    pub rounds: Vec<Round>,
}

impl Outcome {
    /// Calls per second over all rounds.
    pub fn calls_per_sec(&self) -> f64 {
        self.calls as f64 / self.total.as_secs_f64()
    }
    /// Frame bytes per call (request + reply).
    pub fn bytes_per_call(&self) -> f64 {
        self.bytes as f64 / self.calls as f64
    }
    /// CPU microseconds per call.
    pub fn cpu_us_per_call(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.calls as f64
    }
    /// The call rate of each round, in the order they ran.
    pub fn round_rates(&self) -> Vec<f64> {
        self.rounds
            .iter()
            .map(|r| r.calls as f64 / r.wall.as_secs_f64())
            .collect()
    }
}

/// How far round rates spread: their interquartile range over their median (the range
/// for fewer than 4 rounds), as a fraction; 0 without rounds.
pub fn spread(rates: &[f64]) -> f64 {
    let mut sorted = rates.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let (lo, hi) = if n >= 4 {
        (sorted.get(n / 4), sorted.get(3 * n / 4))
    } else {
        (sorted.first(), sorted.last())
    };
    match (lo, hi, sorted.get(n / 2)) {
        (Some(lo), Some(hi), Some(mid)) if *mid > 0.0 => (hi - lo) / mid,
        _ => 0.0,
    }
}

/// This process's user + system CPU time (all threads), from `getrusage`.
pub fn process_cpu() -> Duration {
    // SAFETY: `getrusage` only writes the `rusage` it is given, which lives on this stack
    // frame and is zeroed first, so it is initialised whatever the call does.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A client connection, kept open across rounds.
struct Client {
    r: BufReader<OwnedReadHalf>,
    w: OwnedWriteHalf,
    end: End,
    body: Vec<u8>,
    out: Vec<u8>,
}

impl Client {
    /// One call: sends `payload`, awaits the reply and decodes it; returns the frame bytes.
    async fn call<T: Payload>(&mut self, payload: &T) -> (T, u64) {
        self.out.clear();
        self.end.encode(payload, &mut self.out);
        self.w.write_all(&self.out).await.expect("send");
        assert!(
            read_frame(&mut self.r, &mut self.body).await,
            "the server closed"
        );
        let reply: T = self.end.decode(&self.body);
        (reply, (self.out.len() + 4 + self.body.len()) as u64)
    }
}

/// One codec's server and its open client connections.
struct Lane<T> {
    codec: Codec,
    clients: Vec<Client>,
    server: tokio::task::JoinHandle<()>,
    outcome: Outcome,
    _payload: std::marker::PhantomData<T>,
}

impl<T: Payload> Lane<T> {
    /// A fresh server on 127.0.0.1 and `clients` connections to it; every connection makes one
    /// untimed call whose echo is checked against the payload.
    async fn open(codec: Codec, furies: &Furies, payload: &T, clients: usize) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server_furies = furies.clone();
        let server = tokio::spawn(async move {
            let mut conns = Vec::new();
            for _ in 0..clients {
                let (socket, _) = listener.accept().await.expect("accept");
                conns.push(tokio::spawn(serve::<T>(
                    socket,
                    codec,
                    server_furies.clone(),
                )));
            }
            for c in conns {
                let _ = c.await;
            }
        });
        let mut list = Vec::new();
        for _ in 0..clients {
            let s = TcpStream::connect(addr).await.expect("connect");
            s.set_nodelay(true).expect("nodelay");
            let (r, w) = s.into_split();
            let mut client = Client {
                r: BufReader::with_capacity(64 << 10, r),
                w,
                end: End::new(codec, furies),
                body: Vec::new(),
                out: Vec::new(),
            };
            let (reply, _) = client.call(payload).await;
            assert_eq!(&reply, payload, "{}: the echo differs", codec.name());
            list.push(client);
        }
        Lane {
            codec,
            clients: list,
            server,
            outcome: Outcome::default(),
            _payload: std::marker::PhantomData,
        }
    }

    /// One round: every client makes `calls` calls at once, each awaiting its reply; timed
    /// and counted unless it is the warm-up.
    async fn round(&mut self, payload: &T, calls: usize, timed: bool) {
        let cpu0 = process_cpu();
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for mut client in self.clients.drain(..) {
            let payload = payload.clone();
            tasks.push(tokio::spawn(async move {
                let mut bytes = 0u64;
                for _ in 0..calls {
                    bytes += client.call(&payload).await.1;
                }
                (client, bytes)
            }));
        }
        for t in tasks {
            let (client, bytes) = t.await.expect("client");
            if timed {
                self.outcome.bytes += bytes;
            }
            self.clients.push(client);
        }
        if !timed {
            return;
        }
        let round = Round {
            wall: t0.elapsed(),
            cpu: process_cpu().saturating_sub(cpu0),
            calls: (self.clients.len() * calls) as u64,
        };
        self.outcome.total += round.wall;
        self.outcome.cpu += round.cpu;
        self.outcome.calls += round.calls;
        self.outcome.rounds.push(round);
    }

    /// Closes the connections and waits for the server to finish.
    async fn close(mut self) -> Outcome {
        self.clients.clear();
        self.server.await.expect("server");
        self.outcome
    }
}

/// One cell: for every codec of `codecs`, a server on 127.0.0.1 and `clients` connections,
/// each connection making `calls` timed calls of `payload` in `rounds` rounds (the codecs
/// taking turns, after one untimed warm-up round of each), every call awaited before the
/// next. The outcomes are in `codecs`' order.
pub async fn run<T: Payload>(
    codecs: &[Codec],
    furies: &Furies,
    payload: &T,
    clients: usize,
    calls: usize,
    rounds: usize,
) -> Vec<(Codec, Outcome)> {
    let mut lanes = Vec::new();
    for &codec in codecs {
        lanes.push(Lane::open(codec, furies, payload, clients).await);
    }
    let rounds = rounds.clamp(1, calls.max(1));
    for lane in &mut lanes {
        lane.round(payload, calls / rounds, false).await;
    }
    for r in 0..rounds {
        // Calls split as evenly as they go, the first rounds taking the remainder.
        let here = calls / rounds + usize::from(r < calls % rounds);
        for k in 0..lanes.len() {
            let i = (r + k) % lanes.len();
            if let Some(lane) = lanes.get_mut(i) {
                lane.round(payload, here, true).await;
            }
        }
    }
    let mut out = Vec::new();
    for lane in lanes {
        out.push((lane.codec, lane.close().await));
    }
    out
}

/// One measured cell of a run, as stored in `benches/rpc-results.tsv`.
#[derive(Debug, Clone)]
pub struct Row {
    /// Concurrent clients (N).
    pub clients: usize,
    /// The payload's name ("UserModelList 10").
    pub payload: String,
    /// The codec's report name.
    pub codec: String,
    /// Wall time of all rounds, in seconds.
    pub total_s: f64,
    /// Calls completed.
    pub calls: u64,
    /// Frame bytes over all calls.
    pub bytes: u64,
    /// Process CPU time over all rounds, in seconds.
    pub cpu_s: f64,
    /// Call rate of each round, in the order they ran (round `r` of every codec of a cell
    /// ran in the same pass).
    pub round_rates: Vec<f64>,
}

impl Row {
    /// The row of one codec's outcome.
    pub fn new(clients: usize, payload: &str, codec: Codec, o: &Outcome) -> Self {
        Row {
            clients,
            payload: payload.to_string(),
            codec: codec.name().to_string(),
            total_s: o.total.as_secs_f64(),
            calls: o.calls,
            bytes: o.bytes,
            cpu_s: o.cpu.as_secs_f64(),
            round_rates: o.round_rates(),
        }
    }
    /// The spread of the rounds' call rates (see [`spread`]).
    pub fn spread(&self) -> f64 {
        spread(&self.round_rates)
    }
    /// Calls per second.
    pub fn rate(&self) -> f64 {
        self.calls as f64 / self.total_s
    }
    /// CPU microseconds per call.
    pub fn cpu_us(&self) -> f64 {
        self.cpu_s * 1e6 / self.calls as f64
    }
    /// Whether the row is one of fury-rs's three forms.
    pub fn is_fury(&self) -> bool {
        self.codec.starts_with("fury-rs")
    }
}

/// A whole run: its settings and rows, written to and read from `benches/rpc-results.tsv`.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// Calls per client (M).
    pub calls: usize,
    /// Rounds the calls were split into.
    pub rounds: usize,
    /// UTC date of the run.
    pub date: String,
    /// Wall time of the whole run, in seconds.
    pub elapsed_s: f64,
    /// 1-minute load averages at the start and the end.
    pub load: Vec<f64>,
    /// The command line that made it.
    pub command: String,
    /// The cells, in the order they ran.
    pub rows: Vec<Row>,
}

impl Results {
    /// The tab-separated form: `#key\tvalue` settings lines, then a header and one line per row.
    pub fn to_tsv(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "#calls\t{}", self.calls);
        let _ = writeln!(s, "#rounds\t{}", self.rounds);
        let _ = writeln!(s, "#date\t{}", self.date);
        let _ = writeln!(s, "#elapsed_s\t{:.1}", self.elapsed_s);
        let loads: Vec<String> = self.load.iter().map(|l| format!("{l:.2}")).collect();
        let _ = writeln!(s, "#load\t{}", loads.join(","));
        let _ = writeln!(s, "#command\t{}", self.command);
        let _ = writeln!(
            s,
            "clients\tpayload\tcodec\ttotal_s\tcalls\tbytes\tcpu_s\tround_rates"
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{}\t{}\t{}\t{:.6}\t{}\t{}\t{:.6}\t{}",
                r.clients,
                r.payload,
                r.codec,
                r.total_s,
                r.calls,
                r.bytes,
                r.cpu_s,
                r.round_rates
                    .iter()
                    .map(|x| format!("{x:.0}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
        s
    }

    /// Reads what [`Results::to_tsv`] wrote; `None` if a line does not fit.
    pub fn from_tsv(text: &str) -> Option<Self> {
        let mut res = Results::default();
        for line in text.lines() {
            let cols: Vec<&str> = line.split('\t').collect();
            match cols.as_slice() {
                ["#calls", v] => res.calls = v.parse().ok()?,
                ["#rounds", v] => res.rounds = v.parse().ok()?,
                ["#date", v] => res.date = v.to_string(),
                ["#elapsed_s", v] => res.elapsed_s = v.parse().ok()?,
                ["#load", v] => {
                    res.load = v.split(',').filter_map(|l| l.parse().ok()).collect();
                }
                ["#command", v] => res.command = v.to_string(),
                ["clients", ..] => {}
                [n, payload, codec, total, calls, bytes, cpu, rates] => res.rows.push(Row {
                    clients: n.parse().ok()?,
                    payload: payload.to_string(),
                    codec: codec.to_string(),
                    total_s: total.parse().ok()?,
                    calls: calls.parse().ok()?,
                    bytes: bytes.parse().ok()?,
                    cpu_s: cpu.parse().ok()?,
                    round_rates: rates
                        .split(',')
                        .filter(|x| !x.is_empty())
                        .map(|x| x.parse().ok())
                        .collect::<Option<Vec<f64>>>()?,
                }),
                [""] => {}
                _ => return None,
            }
        }
        Some(res)
    }

    fn client_counts(&self) -> Vec<usize> {
        let mut ns: Vec<usize> = self.rows.iter().map(|r| r.clients).collect();
        ns.dedup();
        ns
    }

    fn payloads(&self, n: usize) -> Vec<String> {
        let mut ps: Vec<String> = Vec::new();
        for r in self.rows.iter().filter(|r| r.clients == n) {
            if !ps.contains(&r.payload) {
                ps.push(r.payload.clone());
            }
        }
        ps
    }

    fn cell(&self, n: usize, payload: &str) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|r| r.clients == n && r.payload == payload)
            .collect()
    }

    /// The paragraph on how the numbers were made.
    fn method(&self) -> String {
        let loads: Vec<String> = self.load.iter().map(|l| format!("{l:.2}")).collect();
        format!(
            "An echo server over loopback TCP (127.0.0.1) and N concurrent clients, each sending \
             M = {m} requests and awaiting each reply; the server decodes every request into the \
             Rust type and encodes it again as the reply (two encodes and two decodes per call). \
             Every codec has the same framing: a 4-byte little-endian length, then the body, \
             written with one `write_all`, read through a 64 KiB buffered reader; tokio, one \
             multi-threaded runtime of 2 workers (clients and servers in one process). For each \
             (N, payload) every codec gets its own server and N open connections, and each \
             connection makes one untimed call whose echo is checked; the M calls are then made \
             in {r} rounds of M/{r}, the codecs taking turns round by round. Bytes per call are \
             the request and reply frames, headers included. CPU per call is the process's user \
             + system time (`getrusage`, all threads: clients, servers and the kernel's loopback \
             work done on their behalf) over the calls. Before the timed rounds every connection \
             makes one untimed warm-up round of M/{r} calls. `spread` is the interquartile range \
             of the rounds' call rates over their median. `rounds won` counts the rounds in \
             which the fury-rs form beat the other codec: round r of every codec ran in the same \
             pass, so this compares them under the same conditions. \
             Made by `{cmd}` on {date} in {el:.0} s (1-minute load {loads} at the start and the \
             end, on 2 CPUs).",
            m = self.calls,
            r = self.rounds,
            cmd = self.command,
            date = self.date,
            el = self.elapsed_s,
            loads = loads.join(" and "),
        )
    }

    /// The full tables (`benches/RPC.md`).
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# RPC benchmark\n");
        let _ = writeln!(md, "{}\n", self.method());
        let _ = writeln!(md, "![calls per second](rpc.svg)\n");
        let _ = writeln!(md, "{}", self.summary_table());
        for n in self.client_counts() {
            let _ = writeln!(md, "## N = {n} clients\n");
            let _ = writeln!(
                md,
                "| payload | codec | total time (s) | calls/s | spread | bytes/call | CPU µs/call |"
            );
            let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|");
            for p in self.payloads(n) {
                let cell = self.cell(n, &p);
                let best_rate = cell.iter().map(|r| r.rate()).fold(0.0, f64::max);
                let best_cpu = cell
                    .iter()
                    .map(|r| r.cpu_us())
                    .fold(f64::INFINITY, f64::min);
                for r in &cell {
                    let bold = |s: String, on: bool| if on { format!("**{s}**") } else { s };
                    let _ = writeln!(
                        md,
                        "| {} | {} | {:.2} | {} | {:.1}% | {:.0} | {} |",
                        r.payload,
                        r.codec,
                        r.total_s,
                        bold(format!("{:.0}", r.rate()), r.rate() == best_rate),
                        r.spread() * 100.0,
                        r.bytes as f64 / r.calls as f64,
                        bold(format!("{:.2}", r.cpu_us()), r.cpu_us() == best_cpu),
                    );
                }
            }
            let _ = writeln!(md);
        }
        md
    }

    /// Per (N, payload): fury-rs's best form against the best other codec, in calls/s and
    /// CPU per call.
    pub fn summary_table(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "Per cell, the fastest fury-rs form against the fastest other codec (calls/s), and \
             the leanest of each (CPU µs per call); a ratio above 1 favours fury-rs. The \
             largest `spread` of the two rows is shown beside the rate ratio.\n"
        );
        let _ = writeln!(
            md,
            "| N | payload | fury-rs calls/s (form) | best other (codec) | ratio | spread | rounds won | fury-rs CPU µs/call | best other | ratio | vs serde_json calls/s |"
        );
        let _ = writeln!(
            md,
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for n in self.client_counts() {
            for p in self.payloads(n) {
                let cell = self.cell(n, &p);
                let best = |fury: bool, key: &dyn Fn(&Row) -> f64, max: bool| {
                    cell.iter()
                        .copied()
                        .filter(|r| r.is_fury() == fury)
                        .max_by(|a, b| {
                            let o = key(a).total_cmp(&key(b));
                            if max {
                                o
                            } else {
                                o.reverse()
                            }
                        })
                };
                let (Some(fr), Some(or), Some(fc), Some(oc)) = (
                    best(true, &Row::rate, true),
                    best(false, &Row::rate, true),
                    best(true, &Row::cpu_us, false),
                    best(false, &Row::cpu_us, false),
                ) else {
                    continue;
                };
                let spread = fr.spread().max(or.spread());
                let won = fr
                    .round_rates
                    .iter()
                    .zip(&or.round_rates)
                    .filter(|(f, o)| f > o)
                    .count();
                let rounds = fr.round_rates.len().min(or.round_rates.len());
                let json = cell
                    .iter()
                    .find(|r| r.codec == Codec::Json.name())
                    .map_or(String::from("—"), |j| {
                        format!("{:.2}x", fr.rate() / j.rate())
                    });
                let short = |c: &str| c.trim_start_matches("fury-rs ").to_string();
                let _ = writeln!(
                    md,
                    "| {n} | {p} | {:.0} ({}) | {:.0} ({}) | {:.2}x | {:.0}% | {won} of {rounds} | {:.2} ({}) | {:.2} ({}) | {:.2}x | {json} |",
                    fr.rate(),
                    short(&fr.codec),
                    or.rate(),
                    or.codec,
                    fr.rate() / or.rate(),
                    spread * 100.0,
                    fc.cpu_us(),
                    short(&fc.codec),
                    oc.cpu_us(),
                    oc.codec,
                    oc.cpu_us() / fc.cpu_us(),
                );
            }
        }
        md
    }

    /// The section of `benches/REPORT.md`: method, summary and a pointer to the full tables.
    pub fn report_section(&self) -> String {
        format!(
            "{REPORT_HEADING}\n\n{}\n\n![RPC calls per second](rpc.svg)\n\n{}\nThe full tables \
             (every codec, total time, bytes per call) are in [RPC.md](RPC.md); \
             `cargo run --release -p fury-benches --bin rpc` remakes both.\n",
            self.method(),
            self.summary_table()
        )
    }

    /// Grouped horizontal bars of calls/s, one panel per N, one group per payload.
    pub fn svg(&self) -> String {
        let codecs = Codec::ALL;
        let ns = self.client_counts();
        let bar = 5.0;
        let group_gap = 10.0;
        let label_w = 110.0;
        let plot_w = 260.0;
        let panel_w = label_w + plot_w + 20.0;
        let top = 70.0;
        let payloads = ns.first().map_or_else(Vec::new, |&n| self.payloads(n));
        let group_h = bar * codecs.len() as f64 + group_gap;
        let legend_h = 20.0 * codecs.len().div_ceil(4) as f64 + 16.0;
        let height = top + group_h * payloads.len() as f64 + legend_h;
        let width = 20.0 + panel_w * ns.len().max(1) as f64;
        let max_rate = self.rows.iter().map(Row::rate).fold(1.0, f64::max);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="20" y="22" font-size="15" font-weight="bold">RPC echo over loopback TCP: calls per second (longer = faster), M = {} calls per client</text>"#,
            self.calls
        );
        let _ = writeln!(
            s,
            r#"<text x="20" y="38" fill="rgb(85,85,85)">{}; {} rounds, codecs taking turns; hover a bar for calls/s, bytes and CPU per call</text>"#,
            self.date, self.rounds
        );
        for (k, &n) in ns.iter().enumerate() {
            let x0 = 20.0 + k as f64 * panel_w + label_w;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="58" font-size="13" font-weight="bold" text-anchor="middle">N = {n} clients</text>"#,
                x0 + plot_w / 2.0
            );
            for (g, p) in self.payloads(n).iter().enumerate() {
                let gy = top + g as f64 * group_h;
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    x0 - 6.0,
                    gy + bar * codecs.len() as f64 / 2.0 + 4.0,
                    p
                );
                for (i, c) in codecs.iter().enumerate() {
                    let Some(r) = self
                        .rows
                        .iter()
                        .find(|r| r.clients == n && &r.payload == p && r.codec == c.name())
                    else {
                        continue;
                    };
                    let w = r.rate() / max_rate * plot_w;
                    let _ = writeln!(
                        s,
                        r#"<rect x="{x0:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{}"><title>N={n} {p} {}: {:.0} calls/s, {:.0} B/call, {:.2} µs CPU/call</title></rect>"#,
                        gy + i as f64 * bar,
                        bar - 1.0,
                        c.color(),
                        c.name(),
                        r.rate(),
                        r.bytes as f64 / r.calls as f64,
                        r.cpu_us()
                    );
                }
            }
        }
        let ly = top + group_h * payloads.len() as f64 + 6.0;
        for (i, c) in codecs.iter().enumerate() {
            let x = 20.0 + label_w + (i % 4) as f64 * 240.0;
            let y = ly + (i / 4) as f64 * 20.0;
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="14" height="10" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                c.color(),
                x + 20.0,
                y + 9.0,
                c.name()
            );
        }
        let _ = writeln!(s, "</svg>");
        s
    }
}

/// The heading of the RPC section in `benches/REPORT.md`.
pub const REPORT_HEADING: &str = "## RPC over loopback TCP";

/// `report` with its RPC section replaced by `section` (or `section` put before "## Details"
/// when it has none yet).
pub fn splice_report(report: &str, section: &str) -> String {
    let section = section.trim_end();
    if let Some(start) = report.find(REPORT_HEADING) {
        let after = start + REPORT_HEADING.len();
        let end = report
            .get(after..)
            .and_then(|rest| rest.find("\n## "))
            .map_or(report.len(), |i| after + i + 1);
        format!(
            "{}{section}\n\n{}",
            report.get(..start).unwrap_or(""),
            report.get(end..).unwrap_or("")
        )
    } else if let Some(details) = report.find("\n## Details") {
        format!(
            "{}\n{section}\n{}",
            report.get(..details).unwrap_or(""),
            report.get(details..).unwrap_or("")
        )
    } else {
        format!("{}\n\n{section}\n", report.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results() -> Results {
        let row = |codec: Codec, total_s: f64, cpu_s: f64| Row {
            clients: 6,
            payload: "UserModelList 1".into(),
            codec: codec.name().into(),
            total_s,
            calls: 60_000,
            bytes: 60_000 * 66,
            cpu_s,
            round_rates: vec![100_000.0 * 0.6 / total_s, 200_000.0, 100_000.0, 80_000.0],
        };
        Results {
            calls: 10_000,
            rounds: 10,
            date: "2026-12-02".into(),
            elapsed_s: 12.5,
            load: vec![0.5, 1.25],
            command: "cargo run --release -p fury-benches --bin rpc".into(),
            rows: vec![
                row(Codec::FurySame, 0.5, 0.6),
                row(Codec::Bincode, 0.6, 0.75),
                row(Codec::Json, 1.0, 1.2),
            ],
        }
    }

    #[test]
    fn results_survive_the_tsv() {
        let r = results();
        let back = Results::from_tsv(&r.to_tsv()).expect("reads back");
        assert_eq!(back.to_tsv(), r.to_tsv());
        assert_eq!(back.rows.len(), 3);
        assert_eq!(back.load, vec![0.5, 1.25]);
        assert!(Results::from_tsv("6\tonly three\tcolumns").is_none());
    }

    #[test]
    fn the_summary_compares_fury_rs_with_the_best_other_codec() {
        let md = results().summary_table();
        // 120,000 against bincode's 100,000 calls/s; 10 against 12.5 us CPU per call.
        assert!(md.contains("| 6 | UserModelList 1 | 120000 (same-schema) | 100000 (bincode) | 1.20x | 100% | 1 of 4 | 10.00 (same-schema) | 12.50 (bincode) | 1.25x | 2.00x |"), "{md}");
    }

    #[test]
    fn the_report_section_is_replaced_or_put_before_the_details() {
        let section = results().report_section();
        let report = "# R\n\n## Borrowed\n\ntext\n\n## Details\n\nrows\n";
        let once = splice_report(report, &section);
        assert!(
            once.find(REPORT_HEADING) < once.find("## Details"),
            "{once}"
        );
        assert!(once.find("## Borrowed") < once.find(REPORT_HEADING));
        let twice = splice_report(&once, &section);
        assert_eq!(once, twice);
        assert_eq!(twice.matches(REPORT_HEADING).count(), 1);
        assert!(twice.ends_with("## Details\n\nrows\n"));
    }
}
