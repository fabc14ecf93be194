//! The example RPC server's limits (`examples/rpc_common/server.rs`), each shown working on
//! 127.0.0.1 with short settings: the connection limit, the idle timeout, the frame deadline
//! against a slow writer, and the cap on bytes buffered across connections. Every wait is
//! bounded, so a limit that does not hold fails the test instead of hanging it.
#![cfg(feature = "tokio")]

#[path = "../examples/rpc_common/mod.rs"]
mod rpc_common;

use bytes::BytesMut;
use fury::frame::FuryCodec;
use rpc_common::server::{run, Limits};
use rpc_common::{Request, Response};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{timeout, Instant};
use tokio_util::codec::{Decoder, Encoder};

const BOUND: Duration = Duration::from_secs(10);

fn limits() -> Limits {
    Limits {
        max_connections: 4,
        idle: Duration::from_millis(300),
        frame_deadline: Duration::from_millis(400),
        buffered_bytes: 64 << 10,
        max_frame_len: 48 << 10,
    }
}

async fn start(limits: Limits) -> (std::net::SocketAddr, watch::Sender<bool>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let fury = Arc::new(rpc_common::fury().expect("fury"));
    let (stop, _) = watch::channel(false);
    tokio::spawn(run(listener, fury, limits, stop.clone()));
    (addr, stop)
}

fn codec() -> FuryCodec<Response> {
    FuryCodec::new(Arc::new(rpc_common::fury().expect("fury")))
}

fn request_frame(id: i64, body_len: usize) -> Vec<u8> {
    let req = Request {
        id,
        method: "echo".into(),
        key: String::new(),
        body: vec!["x".repeat(body_len)],
    };
    let mut out = BytesMut::new();
    codec().encode(req, &mut out).expect("encode");
    out.to_vec()
}

/// Reads one response, or `None` when the server closed the connection first.
async fn response(s: &mut TcpStream) -> Option<Response> {
    let mut c = codec();
    let mut buf = BytesMut::new();
    loop {
        if let Some(item) = c.decode(&mut buf).expect("a valid frame") {
            return Some(item.expect("a readable response"));
        }
        let n = timeout(BOUND, s.read_buf(&mut buf))
            .await
            .expect("the server answers or closes within the bound")
            .unwrap_or(0);
        if n == 0 {
            return None;
        }
    }
}

/// Reads until the server closes the connection; returns the error responses it sent first.
async fn closed(s: &mut TcpStream) -> Vec<String> {
    let mut said = Vec::new();
    while let Some(r) = response(s).await {
        assert!(!r.ok, "{r:?}");
        said.push(r.value.unwrap_or_default());
    }
    said
}

async fn echo(s: &mut TcpStream, id: i64) {
    s.write_all(&request_frame(id, 3)).await.expect("write");
    let r = response(s).await.expect("an answer");
    assert_eq!((r.id, r.ok), (id, true), "{r:?}");
}

#[tokio::test]
async fn a_connection_over_the_limit_is_told_and_closed() {
    let (addr, stop) = start(Limits {
        max_connections: 2,
        ..limits()
    })
    .await;
    let mut a = TcpStream::connect(addr).await.expect("a");
    let mut b = TcpStream::connect(addr).await.expect("b");
    echo(&mut a, 1).await;
    echo(&mut b, 2).await;
    let mut c = TcpStream::connect(addr).await.expect("c");
    let said = closed(&mut c).await;
    assert!(
        said.iter().any(|s| s.contains("connection limit")),
        "{said:?}"
    );
    // once one closes, a new connection is served
    drop(a);
    let started = Instant::now();
    loop {
        let mut d = TcpStream::connect(addr).await.expect("d");
        d.write_all(&request_frame(4, 3)).await.expect("write");
        match response(&mut d).await {
            Some(r) if r.ok => break,
            _ => assert!(started.elapsed() < BOUND, "no room after a close"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    echo(&mut b, 3).await;
    let _ = stop.send(true);
}

#[tokio::test]
async fn an_idle_connection_is_closed() {
    let (addr, stop) = start(limits()).await;
    let mut s = TcpStream::connect(addr).await.expect("connect");
    echo(&mut s, 1).await;
    let t = Instant::now();
    let said = closed(&mut s).await;
    let waited = t.elapsed();
    assert!(said.is_empty(), "closed without a word: {said:?}");
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    let _ = stop.send(true);
}

#[tokio::test]
async fn a_slow_frame_misses_its_deadline() {
    let (addr, stop) = start(limits()).await;
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let frame = request_frame(1, 100);
    // one byte every 50 ms: the whole frame would take over 5 s, the deadline is 400 ms
    let t = Instant::now();
    let writer = async {
        for b in &frame {
            if s.write_all(&[*b]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            if t.elapsed() > Duration::from_secs(2) {
                break;
            }
        }
        s
    };
    let mut s = writer.await;
    let said = closed(&mut s).await;
    assert!(said.iter().any(|m| m.contains("longer than")), "{said:?}");
    assert!(t.elapsed() < Duration::from_secs(5));
    // a prompt client is still served
    let mut ok = TcpStream::connect(addr).await.expect("connect");
    echo(&mut ok, 2).await;
    let _ = stop.send(true);
}

#[tokio::test]
async fn frames_in_flight_share_one_byte_budget() {
    let (addr, stop) = start(Limits {
        frame_deadline: Duration::from_secs(3),
        ..limits()
    })
    .await;
    // A announces a 40 KiB frame and sends half of it: it holds 40 of the 64 KiB.
    let big = request_frame(1, 40 << 10);
    let mut a = TcpStream::connect(addr).await.expect("a");
    a.write_all(&big[..big.len() / 2]).await.expect("write");
    tokio::time::sleep(Duration::from_millis(50)).await;
    // B's whole 30 KiB frame does not fit beside it: B is not read, so not answered.
    let mut b = TcpStream::connect(addr).await.expect("b");
    b.write_all(&request_frame(2, 30 << 10))
        .await
        .expect("write");
    let mut buf = [0u8; 16];
    let early = timeout(Duration::from_millis(300), b.read(&mut buf)).await;
    assert!(early.is_err(), "B was answered while A held the budget");
    // A finishes and is answered; its bytes are given back, and B's frame is read.
    a.write_all(&big[big.len() / 2..]).await.expect("write");
    let r = response(&mut a).await.expect("A is answered");
    assert!(r.ok && r.id == 1, "{r:?}");
    let r = response(&mut b).await.expect("B is answered");
    assert!(r.ok && r.id == 2, "{r:?}");
    // A frame larger than the whole budget is refused at its header, with the reason.
    let mut d = TcpStream::connect(addr).await.expect("d");
    d.write_all(&(100u32 << 10).to_le_bytes())
        .await
        .expect("write");
    let said = closed(&mut d).await;
    assert!(
        said.iter().any(|m| m.contains("buffers at once")),
        "{said:?}"
    );
    let _ = stop.send(true);
}
