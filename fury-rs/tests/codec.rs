//! fury::frame::FuryCodec (feature `tokio`): the codec alone, then over loopback TCP against a
//! small echo server that must survive split, oversized and garbage frames and abrupt
//! disconnects while serving other connections. Stream bytes expected are pyfory 1.7.7's
//! (`pyfory.Fory(xlang=True).serialize("ping")` = 01ff151070696e67).
#![cfg(feature = "tokio")]

use bytes::BytesMut;
use fury::frame::{CodecError, FuryCodec};
use fury::Fury;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_util::codec::{Decoder, Encoder, Framed, FramedRead};

const PING: &[u8] = &[0x01, 0xff, 0x15, 0x10, b'p', b'i', b'n', b'g'];

fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(body);
    f
}

fn codec() -> FuryCodec<String> {
    FuryCodec::new(Arc::new(Fury::default())).max_frame_len(1024)
}

#[test]
fn encoding_puts_header_and_pyfory_body_in_one_piece() {
    let mut c = codec();
    let mut dst = BytesMut::from(&b"xy"[..]);
    c.encode("ping".to_string(), &mut dst).unwrap();
    assert_eq!(dst[2..], frame(PING)[..]);
    assert_eq!(c.frames_encoded(), 1);

    let mut small = codec().max_frame_len(7);
    let mut dst = BytesMut::new();
    let err = small.encode("ping".to_string(), &mut dst).unwrap_err();
    assert!(
        matches!(
            err,
            CodecError::TooLarge {
                frame: 0,
                len: 8,
                max: 7
            }
        ),
        "{err}"
    );
    assert!(dst.is_empty(), "nothing written on error");
}

#[test]
fn a_frame_fed_byte_by_byte_decodes_once_complete() {
    let mut c = codec();
    let wire = [frame(PING), frame(PING)].concat();
    let mut buf = BytesMut::new();
    let mut got = Vec::new();
    for &b in &wire {
        buf.extend_from_slice(&[b]);
        if let Some(item) = c.decode(&mut buf).unwrap() {
            got.push(item.unwrap());
        }
    }
    assert_eq!(got, ["ping", "ping"]);
    assert!(buf.is_empty());
    assert_eq!(c.decode_eof(&mut buf).unwrap(), None);
}

#[test]
fn a_bad_body_is_an_item_error_naming_the_frame_and_the_next_frame_decodes() {
    let mut c = codec();
    let mut buf = BytesMut::new();
    buf.extend_from_slice(&frame(PING));
    buf.extend_from_slice(&frame(&[0x01, 0xff, 0x15, 0x7f])); // string longer than its body
    buf.extend_from_slice(&frame(&[PING, &[0]].concat())); // a trailing byte
    buf.extend_from_slice(&frame(PING));
    assert_eq!(c.decode(&mut buf).unwrap().unwrap().unwrap(), "ping");
    let bad = c.decode(&mut buf).unwrap().unwrap().unwrap_err();
    assert_eq!((bad.frame, bad.len), (1, 4));
    assert!(bad.to_string().starts_with("frame 1 (4 bytes): "), "{bad}");
    let bad = c.decode(&mut buf).unwrap().unwrap().unwrap_err();
    assert_eq!(bad.frame, 2);
    assert!(matches!(
        bad.error.kind(),
        fury::ErrorKind::TrailingBytes { count: 1 }
    ));
    assert_eq!(c.decode(&mut buf).unwrap().unwrap().unwrap(), "ping");
    assert_eq!(c.frames_decoded(), 4);
}

#[test]
fn garbage_between_frames_is_a_fatal_oversize_error_naming_the_frame() {
    let mut c = codec();
    let mut buf = BytesMut::new();
    buf.extend_from_slice(&frame(PING));
    buf.extend_from_slice(b"GARBAGE!");
    buf.extend_from_slice(&frame(PING));
    assert_eq!(c.decode(&mut buf).unwrap().unwrap().unwrap(), "ping");
    let err = c.decode(&mut buf).unwrap_err();
    // "GARB" read as a little-endian length.
    let len = u32::from_le_bytes(*b"GARB") as u64;
    assert!(matches!(err, CodecError::TooLarge { frame: 1, len: l, max: 1024 } if l == len));
    assert_eq!(
        err.to_string(),
        format!("frame 1 announces {len} bytes, more than the maximum of 1024")
    );
}

#[test]
fn the_end_of_input_inside_a_frame_is_a_truncation_error() {
    let wire = frame(PING);
    for cut in 1..wire.len() {
        let mut c = codec();
        let mut buf = BytesMut::from(&wire[..cut]);
        assert_eq!(c.decode(&mut buf).unwrap(), None);
        let err = c.decode_eof(&mut buf).unwrap_err();
        let needed = if cut < 4 { 4 } else { wire.len() };
        assert!(
            matches!(err, CodecError::Truncated { frame: 0, received, needed: n } if received == cut && n == needed),
            "cut {cut}: {err}"
        );
    }
}

#[tokio::test]
async fn framed_read_goes_on_after_a_bad_frame() {
    let wire = [
        frame(PING),
        frame(&[0x00]),
        frame(PING),
        frame(&PING[..5]), // truncated at the end of input
    ]
    .concat();
    let mut reader = FramedRead::new(&wire[..], codec());
    assert_eq!(reader.next().await.unwrap().unwrap().unwrap(), "ping");
    assert_eq!(reader.next().await.unwrap().unwrap().unwrap_err().frame, 1);
    assert_eq!(reader.next().await.unwrap().unwrap().unwrap(), "ping");
    let bad = reader.next().await.unwrap().unwrap().unwrap_err();
    assert_eq!(
        bad.frame, 3,
        "a short string body is a bad frame, not a short frame"
    );
    assert!(reader.next().await.is_none());
}

// ---- over TCP -------------------------------------------------------------------------

/// How a connection handled by the test server ended.
#[derive(Debug)]
enum Ended {
    Clean,
    Error(String),
    Panicked,
}

/// An echo server on 127.0.0.1: each string comes back; a bad frame is answered with its
/// error text and the connection goes on; a fatal error closes the connection. Reports how
/// each connection ended.
async fn start_server() -> (std::net::SocketAddr, mpsc::UnboundedReceiver<Ended>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = mpsc::unbounded_channel();
    let fury = Arc::new(Fury::default());
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let codec = FuryCodec::<String>::new(fury.clone()).max_frame_len(1024);
            let tx = tx.clone();
            let task = tokio::spawn(async move {
                let mut conn = Framed::new(socket, codec);
                while let Some(item) = conn.next().await {
                    let reply = match item {
                        Ok(Ok(s)) => s,
                        Ok(Err(bad)) => format!("error: {bad}"),
                        Err(fatal) => return Ended::Error(fatal.to_string()),
                    };
                    if let Err(e) = conn.send(reply).await {
                        return Ended::Error(e.to_string());
                    }
                }
                Ended::Clean
            });
            tokio::spawn(async move {
                let ended = task.await.unwrap_or(Ended::Panicked);
                let _ = tx.send(ended);
            });
        }
    });
    (addr, rx)
}

async fn client(addr: std::net::SocketAddr) -> Framed<TcpStream, FuryCodec<String>> {
    let socket = TcpStream::connect(addr).await.unwrap();
    socket.set_nodelay(true).unwrap();
    Framed::new(socket, codec())
}

async fn echo(conn: &mut Framed<TcpStream, FuryCodec<String>>, s: &str) -> String {
    conn.send(s.to_string()).await.unwrap();
    conn.next().await.unwrap().unwrap().unwrap()
}

async fn ended(rx: &mut mpsc::UnboundedReceiver<Ended>) -> Ended {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("the connection's end was reported")
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_survives_hostile_connections_and_keeps_serving() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let (addr, mut rx) = start_server().await;
        let mut steady = client(addr).await;
        assert_eq!(echo(&mut steady, "hello").await, "hello");

        // A frame written one byte at a time, with pauses: reassembled.
        let mut raw = TcpStream::connect(addr).await.unwrap();
        raw.set_nodelay(true).unwrap();
        for b in frame(PING) {
            raw.write_all(&[b]).await.unwrap();
            raw.flush().await.unwrap();
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let mut reply = [0u8; 12];
        raw.read_exact(&mut reply).await.unwrap();
        assert_eq!(reply[..], frame(PING)[..]);

        // A bad body: answered with an error naming frame 1; the connection stays in sync.
        raw.write_all(&[frame(&[0x01, 0xff, 0x15, 0x7f]), frame(PING)].concat())
            .await
            .unwrap();
        let mut framed = Framed::new(raw, codec());
        let err = framed.next().await.unwrap().unwrap().unwrap();
        assert!(err.starts_with("error: frame 1 (4 bytes): "), "{err}");
        assert_eq!(framed.next().await.unwrap().unwrap().unwrap(), "ping");
        drop(framed);
        assert!(matches!(ended(&mut rx).await, Ended::Clean));

        // Garbage between frames: the frame before it is answered, then the server closes
        // the connection with an error naming frame 1.
        let mut raw = TcpStream::connect(addr).await.unwrap();
        raw.write_all(&[frame(PING), b"GARBAGE!".to_vec(), frame(PING)].concat())
            .await
            .unwrap();
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), raw.read_to_end(&mut got))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got, frame(PING), "one answer, then the server closed");
        match ended(&mut rx).await {
            Ended::Error(e) => assert!(e.starts_with("frame 1 announces"), "{e}"),
            other => panic!("{other:?}"),
        }

        // An oversized frame (announced only): closed with an error, nothing allocated for it.
        let mut raw = TcpStream::connect(addr).await.unwrap();
        raw.write_all(&(1u32 << 30).to_le_bytes()).await.unwrap();
        let mut got = Vec::new();
        let _ = raw.read_to_end(&mut got).await;
        assert!(got.is_empty());
        match ended(&mut rx).await {
            Ended::Error(e) => assert_eq!(
                e,
                "frame 0 announces 1073741824 bytes, more than the maximum of 1024"
            ),
            other => panic!("{other:?}"),
        }

        // Abrupt disconnects: inside a header, inside a body, and with a reset.
        for cut in [2usize, 7] {
            let mut raw = TcpStream::connect(addr).await.unwrap();
            raw.write_all(&frame(PING)[..cut]).await.unwrap();
            raw.flush().await.unwrap();
            drop(raw);
            match ended(&mut rx).await {
                Ended::Error(e) => assert!(
                    e.starts_with(&format!("the connection ended inside frame 0: {cut} of")),
                    "{e}"
                ),
                other => panic!("{other:?}"),
            }
        }
        let mut raw = TcpStream::connect(addr).await.unwrap();
        // A zero linger closes with a reset; with a zero timeout the drop does not block.
        #[allow(deprecated)]
        raw.set_linger(Some(Duration::ZERO)).unwrap();
        raw.write_all(&frame(PING)[..6]).await.unwrap();
        drop(raw);
        assert!(!matches!(ended(&mut rx).await, Ended::Panicked));

        // The first connection was served all along, and new ones are too.
        for i in 0..100 {
            let s = format!("message {i}");
            assert_eq!(echo(&mut steady, &s).await, s);
        }
        let mut fresh = client(addr).await;
        assert_eq!(echo(&mut fresh, "still here").await, "still here");
    })
    .await
    .expect("bounded: the test finishes within 30 s");
}
