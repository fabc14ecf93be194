//! The RPC example's server loop, with the limits a service facing untrusted peers needs. It
//! reads frames itself (rather than through `Framed`) so that it can tell a connection that
//! sends nothing from one that is in the middle of a frame:
//!
//! - **connection limit**: at most `max_connections` connections are served; one more is
//!   answered with an error frame and closed at once;
//! - **idle timeout**: a connection that starts no frame for `idle` is closed;
//! - **frame deadline**: a frame must arrive whole within `frame_deadline` of its first byte
//!   (a slow writer, one byte at a time, cannot hold a connection and its buffer);
//! - **bytes buffered across connections**: before the body of a frame is read, its announced
//!   length is taken from one budget of `buffered_bytes` shared by all connections, and given
//!   back once the frame is decoded; a frame that cannot get its bytes within the frame
//!   deadline closes its connection. With the codec's `max_frame_len`, memory for frames in
//!   flight stays below `buffered_bytes` plus one read buffer per connection.

use super::{Request, Response};
use bytes::BytesMut;
use fury::frame::{CodecError, FuryCodec};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tokio_util::codec::{Decoder, Encoder};

/// The limits of [`run`].
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections served at once.
    pub max_connections: usize,
    /// How long a connection may send nothing between frames.
    pub idle: Duration,
    /// How long one frame may take to arrive, from its first byte.
    pub frame_deadline: Duration,
    /// Bytes of frame bodies held by all connections together.
    pub buffered_bytes: usize,
    /// The largest frame body (the codec's `max_frame_len`).
    pub max_frame_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 256,
            idle: Duration::from_secs(30),
            frame_deadline: Duration::from_secs(10),
            buffered_bytes: 64 << 20,
            max_frame_len: 8 << 20,
        }
    }
}

/// The answer to one request.
pub fn answer(req: Request, table: &HashMap<&str, &str>) -> Response {
    let mut resp = Response {
        id: req.id,
        ok: true,
        ..Response::default()
    };
    match req.method.as_str() {
        "echo" | "shutdown" => resp.body = req.body,
        "lookup" => match table.get(req.key.as_str()) {
            Some(v) => resp.value = Some(v.to_string()),
            None => {
                resp.ok = false;
                resp.value = Some(format!("no entry {:?}", req.key));
            }
        },
        other => {
            resp.ok = false;
            resp.value = Some(format!("unknown method {other:?}"));
        }
    }
    resp
}

fn error_response(what: String) -> Response {
    Response {
        id: -1,
        ok: false,
        value: Some(what),
        body: Vec::new(),
    }
}

/// Accepts connections on `listener` and serves each under `limits` until a "shutdown"
/// request arrives or `stop` is set.
pub async fn run(
    listener: TcpListener,
    fury: Arc<fury::Fury>,
    limits: Limits,
    stop: watch::Sender<bool>,
) -> std::io::Result<()> {
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    let budget = Arc::new(Semaphore::new(limits.buffered_bytes));
    let mut stopped = stop.subscribe();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (socket, _) = accepted?;
                match connections.clone().try_acquire_owned() {
                    Ok(permit) => {
                        let conn = Connection {
                            socket,
                            codec: FuryCodec::new(fury.clone()).max_frame_len(limits.max_frame_len),
                            limits: limits.clone(),
                            budget: budget.clone(),
                        };
                        let stop = stop.clone();
                        tokio::spawn(async move {
                            if let Err(why) = conn.serve(stop).await {
                                eprintln!("closing a connection: {why}");
                            }
                            drop(permit);
                        });
                    }
                    Err(_) => {
                        tokio::spawn(refuse(socket, fury.clone()));
                    }
                }
            }
            _ = stopped.changed() => return Ok(()),
        }
    }
}

/// A connection over the limit: one error frame, then the close.
async fn refuse(mut socket: TcpStream, fury: Arc<fury::Fury>) {
    let mut codec = FuryCodec::<Request>::new(fury);
    let mut out = BytesMut::new();
    let resp = error_response("the server is at its connection limit".to_string());
    if codec.encode(resp, &mut out).is_ok() {
        let _ = tokio::time::timeout(Duration::from_secs(1), socket.write_all(&out)).await;
    }
}

struct Connection {
    socket: TcpStream,
    codec: FuryCodec<Request>,
    limits: Limits,
    budget: Arc<Semaphore>,
}

impl Connection {
    async fn serve(mut self, stop: watch::Sender<bool>) -> Result<(), String> {
        let _ = self.socket.set_nodelay(true);
        let table = HashMap::from([("ada", "Lovelace"), ("alan", "Turing"), ("grace", "Hopper")]);
        let mut buf = BytesMut::with_capacity(8 << 10);
        loop {
            let Some(item) = self.next_frame(&mut buf).await? else {
                return Ok(());
            };
            let (resp, shutdown) = match item {
                Ok(req) => {
                    let shutdown = req.method == "shutdown";
                    (answer(req, &table), shutdown)
                }
                Err(bad) => (error_response(bad.to_string()), false),
            };
            let mut out = BytesMut::new();
            self.codec
                .encode(resp, &mut out)
                .map_err(|e| e.to_string())?;
            self.socket
                .write_all(&out)
                .await
                .map_err(|e| e.to_string())?;
            if shutdown {
                let _ = stop.send(true);
                return Ok(());
            }
        }
    }

    /// The next frame, under the idle timeout and the frame deadline; `None` when the peer
    /// closed the connection between frames.
    async fn next_frame(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Request, fury::frame::FrameError>>, String> {
        // Bytes of the budget held for the frame being read.
        let mut held: Option<OwnedSemaphorePermit> = None;
        let mut started: Option<Instant> = (!buf.is_empty()).then(Instant::now);
        loop {
            if held.is_none() {
                if let Some(len) = announced(buf) {
                    if len > self.limits.buffered_bytes {
                        let why = format!(
                            "a frame of {len} bytes is more than the {} bytes the server \
                             buffers at once",
                            self.limits.buffered_bytes
                        );
                        self.send_error(why.clone()).await;
                        return Err(why);
                    }
                    if len > self.limits.max_frame_len {
                        // the codec reports it, naming the limit
                        let e = self.codec.decode(buf).err().map(|e| e.to_string());
                        let why = e.unwrap_or_else(|| format!("frame of {len} bytes"));
                        self.send_error(why.clone()).await;
                        return Err(why);
                    }
                    let start = started.unwrap_or_else(Instant::now);
                    let permit = tokio::time::timeout_at(
                        start + self.limits.frame_deadline,
                        self.budget.clone().acquire_many_owned(len as u32),
                    )
                    .await;
                    match permit {
                        Ok(Ok(p)) => held = Some(p),
                        _ => {
                            let why = format!(
                                "no room for a frame of {len} bytes within {:?} (the server \
                                 buffers at most {} bytes of frames at once)",
                                self.limits.frame_deadline, self.limits.buffered_bytes
                            );
                            self.send_error(why.clone()).await;
                            return Err(why);
                        }
                    }
                }
            }
            match self.codec.decode(buf) {
                Ok(Some(item)) => return Ok(Some(item)),
                Ok(None) => {}
                Err(e) => {
                    let why = e.to_string();
                    self.send_error(why.clone()).await;
                    return Err(why);
                }
            }
            let deadline = match started {
                Some(t) => t + self.limits.frame_deadline,
                None => Instant::now() + self.limits.idle,
            };
            let read = tokio::time::timeout_at(deadline, self.socket.read_buf(buf)).await;
            match read {
                Err(_) if started.is_none() => {
                    return Err(format!("idle for {:?}", self.limits.idle));
                }
                Err(_) => {
                    let why = format!(
                        "a frame took longer than {:?} to arrive",
                        self.limits.frame_deadline
                    );
                    self.send_error(why.clone()).await;
                    return Err(why);
                }
                Ok(Ok(0)) if started.is_none() => return Ok(None),
                Ok(Ok(0)) => {
                    let e = self.codec.decode_eof(buf).err();
                    return Err(
                        e.map_or("the peer closed inside a frame".into(), |e| e.to_string())
                    );
                }
                Ok(Ok(_)) => {
                    started.get_or_insert_with(Instant::now);
                }
                Ok(Err(e)) => return Err(CodecError::Io(e).to_string()),
            }
        }
    }

    /// Tells the peer why the connection closes (best effort, bounded in time).
    async fn send_error(&mut self, why: String) {
        let mut out = BytesMut::new();
        if self.codec.encode(error_response(why), &mut out).is_ok() {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.socket.write_all(&out)).await;
        }
    }
}

/// The body length a frame header at the start of `buf` announces, once it is there.
fn announced(buf: &BytesMut) -> Option<usize> {
    let header: [u8; 4] = buf.get(..4)?.try_into().ok()?;
    Some(u32::from_le_bytes(header) as usize)
}
