//! Streams over `std::io` and length-prefixed frames (fury::frame). The stream bytes expected
//! are pyfory 1.7.7's (`pyfory.Fory(xlang=True).serialize(..)`, printed by hand):
//! True = 01ff0101, "ping" = 01ff151070696e67, [1, 2] = 01ff160208070204.

use fury::frame::{read_frame_body, DEFAULT_MAX_FRAME_LEN, HEADER_LEN};
use fury::{ErrorKind, Fury};
use std::io::{self, Read, Write};

const TRUE: &[u8] = &[0x01, 0xff, 0x01, 0x01];
const PING: &[u8] = &[0x01, 0xff, 0x15, 0x10, b'p', b'i', b'n', b'g'];
const ONE_TWO: &[u8] = &[0x01, 0xff, 0x16, 0x02, 0x08, 0x07, 0x02, 0x04];

fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(body);
    f
}

/// A writer that records every `write` call (and accepts everything).
#[derive(Default)]
struct Recorder {
    calls: Vec<Vec<u8>>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.calls.push(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A reader that gives at most `step` bytes per call and is interrupted before each.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    interrupt: bool,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn writers_write_pyfory_bytes_in_one_call() {
    let fury = Fury::default();
    let mut w = Recorder::default();
    assert_eq!(
        fury.serialize_to_writer(&"ping", &mut w).unwrap(),
        PING.len()
    );
    assert_eq!(w.calls, [PING.to_vec()]);

    let mut w = Recorder::default();
    let n = fury
        .write_frame(&fury::List(vec![1i64, 2]), &mut w)
        .unwrap();
    assert_eq!(n, HEADER_LEN + ONE_TWO.len());
    assert_eq!(
        w.calls,
        [frame(ONE_TWO)],
        "one write: the header and the body together"
    );

    let mut out = vec![0xaa];
    fury.serialize_frame_into(&true, &mut out).unwrap();
    assert_eq!(out[1..], frame(TRUE)[..]);
}

#[test]
fn a_failed_serialization_writes_nothing() {
    let fury = Fury::default();
    #[derive(fury::FuryObject)]
    #[fury(id = 300)]
    struct NotRegistered {
        x: i32,
    }
    let mut w = Recorder::default();
    assert!(fury.write_frame(&NotRegistered { x: 1 }, &mut w).is_err());
    assert!(fury
        .serialize_to_writer(&NotRegistered { x: 1 }, &mut w)
        .is_err());
    assert!(w.calls.is_empty());
    let mut out = vec![7];
    assert!(fury
        .serialize_frame_into(&NotRegistered { x: 1 }, &mut out)
        .is_err());
    assert_eq!(out, [7]);
}

#[test]
fn frames_split_into_single_bytes_and_interrupted_reads_are_reassembled() {
    let fury = Fury::default();
    let mut wire = frame(PING);
    wire.extend(frame(ONE_TWO));
    wire.extend(frame(TRUE));
    let mut r = Trickle {
        data: &wire,
        step: 1,
        interrupt: false,
    };
    let max = DEFAULT_MAX_FRAME_LEN;
    assert_eq!(
        fury.read_frame::<String, _>(&mut r, max).unwrap().unwrap(),
        "ping"
    );
    assert_eq!(
        fury.read_frame::<fury::List<i64>, _>(&mut r, max).unwrap(),
        Some(fury::List(vec![1, 2]))
    );
    assert_eq!(fury.read_frame::<bool, _>(&mut r, max).unwrap(), Some(true));
    assert_eq!(fury.read_frame::<bool, _>(&mut r, max).unwrap(), None);
}

#[test]
fn truncated_frames_are_errors_with_the_offset() {
    let fury = Fury::default();
    let wire = frame(PING);
    for cut in 1..wire.len() {
        let err = fury
            .read_frame::<String, _>(&mut &wire[..cut], DEFAULT_MAX_FRAME_LEN)
            .unwrap_err();
        match err.kind() {
            ErrorKind::UnexpectedEof { needed, .. } => {
                let want = if cut < HEADER_LEN {
                    HEADER_LEN - cut
                } else {
                    wire.len() - cut
                };
                assert_eq!(*needed, want, "cut at {cut}");
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
        assert_eq!(err.offset(), Some(cut), "cut at {cut}");
    }
}

#[test]
fn oversized_frames_are_refused_before_reading_the_body() {
    let fury = Fury::default();
    let wire = frame(PING);
    let err = fury.read_frame::<String, _>(&mut &wire[..], 7).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::LengthTooLarge {
            what: "frame",
            declared: 8,
            limit: 7
        }
    );
    assert!(fury.read_frame::<String, _>(&mut &wire[..], 8).is_ok());
}

#[test]
fn a_huge_announced_length_allocates_only_what_arrives() {
    // 4 GiB - 1 announced, 10 bytes present: an end-of-input error, and the body buffer
    // grew with the bytes read, not with the announcement.
    let mut wire = u32::MAX.to_le_bytes().to_vec();
    wire.extend_from_slice(&[0u8; 10]);
    let mut body = Vec::new();
    let err = read_frame_body(&mut &wire[..], usize::MAX, &mut body).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
        "{err}"
    );
    assert!(body.capacity() < 1 << 16, "{}", body.capacity());
}

#[test]
fn a_bad_body_is_an_error_and_the_next_frame_still_reads() {
    let fury = Fury::default();
    let mut wire = frame(&[0x01, 0xff, 0x15, 0x7f]); // a string longer than its frame
    wire.extend(frame(&[0x00]));
    wire.extend(frame(PING));
    wire.extend(frame(&[PING, &[0]].concat())); // a trailing byte
    let mut r = &wire[..];
    let max = DEFAULT_MAX_FRAME_LEN;
    assert!(fury.read_frame::<String, _>(&mut r, max).is_err());
    assert!(fury.read_frame::<String, _>(&mut r, max).is_err());
    assert_eq!(
        fury.read_frame::<String, _>(&mut r, max).unwrap().unwrap(),
        "ping"
    );
    let err = fury.read_frame::<String, _>(&mut r, max).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TrailingBytes { count: 1 });
    assert_eq!(fury.read_frame::<String, _>(&mut r, max).unwrap(), None);
}

#[test]
fn a_failing_reader_is_an_io_error() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::ConnectionReset, "peer gone"))
        }
    }
    let fury = Fury::default();
    let err = fury.read_frame::<String, _>(&mut Broken, 64).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::Io {
            kind: io::ErrorKind::ConnectionReset,
            ..
        }
    ));
    assert!(err.to_string().contains("peer gone"), "{err}");
}

#[test]
fn whole_readers_hold_one_stream_within_the_limit() {
    let fury = Fury::default();
    assert_eq!(
        fury.deserialize_from_reader::<String, _>(&mut &PING[..], 8)
            .unwrap(),
        "ping"
    );
    let err = fury
        .deserialize_from_reader::<String, _>(&mut &PING[..], 7)
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::LengthTooLarge { limit: 7, .. }
    ));
    for cut in 0..PING.len() {
        assert!(fury
            .deserialize_from_reader::<String, _>(&mut &PING[..cut], 64)
            .is_err());
    }
    let two = [PING, PING].concat();
    assert!(fury
        .deserialize_from_reader::<String, _>(&mut &two[..], 64)
        .is_err());
}
