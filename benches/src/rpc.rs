//! The RPC benchmark: an echo server over loopback TCP, N concurrent clients each sending M
//! requests and awaiting each reply, every codec with the same framing (a 4-byte
//! little-endian body length, then the body, written with one `write_all`; read through a
//! buffered reader). The server decodes each request into the Rust type and encodes it again
//! as the reply, so each call is two encodes and two decodes. Run by `src/bin/rpc.rs`.

use crate::data::{CustomerList, UserModelList};
use crate::pb::Mirror;
use prost::Message;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
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
    send: fury::WriteMeta,
    recv: fury::ReadMeta,
}

impl End {
    fn new(codec: Codec, furies: &Furies) -> Self {
        End {
            codec,
            furies: furies.clone(),
            send: fury::WriteMeta::new(),
            recv: fury::ReadMeta::new(),
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

/// A run's measurements.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Wall time from the first request to the last reply.
    pub total: Duration,
    /// Calls completed.
    pub calls: u64,
    /// Request and reply frame bytes (headers included), over all calls.
    pub bytes: u64,
    /// CPU time of the process (clients and server) during the run.
    pub cpu: Duration,
}

impl Outcome {
    /// Calls per second.
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
}

/// This process's user + system CPU time, from /proc/self/stat (clock ticks of 10 ms).
pub fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// One run: a fresh server on 127.0.0.1, `clients` connections each making `calls` calls of
/// `payload`, awaited one by one; every reply is checked against the request.
pub async fn run<T: Payload>(
    codec: Codec,
    furies: &Furies,
    payload: &T,
    clients: usize,
    calls: usize,
) -> Outcome {
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
    let mut sockets = Vec::new();
    for _ in 0..clients {
        let s = TcpStream::connect(addr).await.expect("connect");
        s.set_nodelay(true).expect("nodelay");
        sockets.push(s);
    }
    let cpu0 = process_cpu();
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for socket in sockets {
        let payload = payload.clone();
        let furies = furies.clone();
        tasks.push(tokio::spawn(async move {
            let (r, mut w) = socket.into_split();
            let mut r = BufReader::with_capacity(64 << 10, r);
            let mut end = End::new(codec, &furies);
            let (mut body, mut out) = (Vec::new(), Vec::new());
            let mut bytes = 0u64;
            for i in 0..calls {
                out.clear();
                end.encode(&payload, &mut out);
                w.write_all(&out).await.expect("send");
                assert!(read_frame(&mut r, &mut body).await, "the server closed");
                let reply: T = end.decode(&body);
                if i == 0 {
                    assert_eq!(reply, payload, "{}: the echo differs", codec.name());
                }
                bytes += (out.len() + 4 + body.len()) as u64;
            }
            bytes
        }));
    }
    let mut bytes = 0;
    for t in tasks {
        bytes += t.await.expect("client");
    }
    let total = t0.elapsed();
    let cpu = process_cpu().saturating_sub(cpu0);
    server.await.expect("server");
    Outcome {
        total,
        calls: (clients * calls) as u64,
        bytes,
        cpu,
    }
}
