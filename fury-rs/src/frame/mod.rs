//! Streams over `std::io` and length-prefixed frames.
//!
//! An xlang stream does not say how long it is, so a transport that carries several of them
//! needs framing. fury-rs uses the simplest one, also spoken by the tokio codec (feature
//! `tokio`, [`FuryCodec`]) and the Python client in `fury-rs/examples/`: each frame is
//! its body length as a 4-byte little-endian unsigned integer, then the body, one xlang
//! stream. Every frame is written with one `write_all` (or one `put_slice`), never a length
//! write followed by a body write.
//!
//! ```
//! let fury = fury::Fury::default();
//! let mut wire = Vec::new();
//! fury.write_frame(&"ping", &mut wire).unwrap();
//! fury.write_frame(&vec![1i64, 2], &mut wire).unwrap();
//! assert_eq!(wire[..4], [8, 0, 0, 0]); // the length of the first stream, pyfory's 01 ff 15 10 "ping"
//!
//! let mut input = &wire[..];
//! let max = fury::frame::DEFAULT_MAX_FRAME_LEN;
//! assert_eq!(fury.read_frame::<String, _>(&mut input, max).unwrap().as_deref(), Some("ping"));
//! assert_eq!(fury.read_frame::<Vec<i64>, _>(&mut input, max).unwrap(), Some(vec![1, 2]));
//! assert_eq!(fury.read_frame::<String, _>(&mut input, max).unwrap(), None); // clean end
//! ```

#[cfg(feature = "tokio")]
mod tokio_codec;

#[cfg(feature = "tokio")]
pub use self::tokio_codec::{CodecError, FrameError, FuryCodec};

use crate::error::{Error, ErrorKind, Result};
use crate::fury::{with_scratch, Fury};
use crate::serializer::{DeserializeOwned, Serialize};
use std::io::{Read, Write};

/// Bytes of the length prefix of a frame.
pub const HEADER_LEN: usize = 4;

/// The default largest frame body accepted by readers (16 MiB).
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

/// Appends a frame to `out`: a placeholder length, then `write_body` appends the body, then
/// the length is filled in. On error `out` is left as it was.
pub(crate) fn append_frame(
    out: &mut Vec<u8>,
    write_body: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; HEADER_LEN]);
    let result = write_body(out).and_then(|()| {
        let len = out.len() - start - HEADER_LEN;
        let len = u32::try_from(len).map_err(|_| {
            Error::new(ErrorKind::LengthTooLarge {
                what: "frame",
                declared: len as u64,
                limit: u32::MAX as u64,
            })
        })?;
        if let Some(prefix) = out.get_mut(start..start + HEADER_LEN) {
            prefix.copy_from_slice(&len.to_le_bytes());
        }
        Ok(())
    });
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// The body length a frame header announces, checked against `max_len`; `frame` numbers
/// the frame in errors.
pub(crate) fn body_len(header: [u8; HEADER_LEN], max_len: usize) -> Result<usize> {
    let len = u32::from_le_bytes(header) as usize;
    if len > max_len {
        return Err(Error::at(
            ErrorKind::LengthTooLarge {
                what: "frame",
                declared: len as u64,
                limit: max_len as u64,
            },
            0,
        ));
    }
    Ok(len)
}

/// Reads one frame's body from `r` into `body` (cleared first): `Ok(false)` if `r` ended
/// cleanly before the frame (no byte of it read), an error if it ended inside the frame, if
/// the frame is longer than `max_len`, or if reading failed.
///
/// Memory grows with the bytes that actually arrive, not with the announced length, so a
/// hostile length costs nothing until its bytes come.
///
/// ```
/// let wire = [3u8, 0, 0, 0, b'a', b'b'];
/// let mut body = Vec::new();
/// let err = fury::frame::read_frame_body(&mut &wire[..], 1024, &mut body).unwrap_err();
/// assert!(err.to_string().contains("1 more byte"), "{err}");
/// ```
pub fn read_frame_body<R: Read + ?Sized>(
    r: &mut R,
    max_len: usize,
    body: &mut Vec<u8>,
) -> Result<bool> {
    body.clear();
    let mut header = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        let rest = header.get_mut(got..).unwrap_or_default();
        match r.read(rest) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => {
                return Err(Error::at(
                    ErrorKind::UnexpectedEof {
                        needed: HEADER_LEN - got,
                        remaining: 0,
                    },
                    got,
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    let len = body_len(header, max_len)?;
    r.take(len as u64).read_to_end(body)?;
    if body.len() < len {
        return Err(Error::at(
            ErrorKind::UnexpectedEof {
                needed: len - body.len(),
                remaining: 0,
            },
            HEADER_LEN + body.len(),
        ));
    }
    Ok(true)
}

impl Fury {
    /// Serializes `value` into any `std::io::Write` with one `write_all`, returning the
    /// number of bytes written. On a serialization error nothing is written.
    ///
    /// ```
    /// let fury = fury::Fury::default();
    /// let mut file = std::io::Cursor::new(Vec::new());
    /// let n = fury.serialize_to_writer(&vec!["a".to_string()], &mut file).unwrap();
    /// assert_eq!(n, file.get_ref().len());
    /// ```
    pub fn serialize_to_writer<T: Serialize + ?Sized, W: Write + ?Sized>(
        &self,
        value: &T,
        w: &mut W,
    ) -> Result<usize> {
        with_scratch(|scratch| {
            self.serialize_into(value, scratch)?;
            w.write_all(scratch)?;
            Ok(scratch.len())
        })
    }

    /// Reads `r` to its end and deserializes the one stream it holds; more than `max_len`
    /// bytes is an error (read stops there), as is anything [`Fury::deserialize`] refuses.
    ///
    /// ```
    /// let fury = fury::Fury::default();
    /// let bytes = fury.serialize(&42i64).unwrap();
    /// assert_eq!(fury.deserialize_from_reader::<i64, _>(&mut &bytes[..], 1024).unwrap(), 42);
    /// assert!(fury.deserialize_from_reader::<i64, _>(&mut &bytes[..1], 1024).is_err());
    /// assert!(fury.deserialize_from_reader::<i64, _>(&mut &bytes[..], 2).is_err());
    /// ```
    pub fn deserialize_from_reader<T: DeserializeOwned, R: Read + ?Sized>(
        &self,
        r: &mut R,
        max_len: usize,
    ) -> Result<T> {
        with_scratch(|input| {
            let limit = (max_len as u64).saturating_add(1);
            r.take(limit).read_to_end(input)?;
            if input.len() > max_len {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "stream from a reader",
                        declared: input.len() as u64,
                        limit: max_len as u64,
                    },
                    max_len,
                ));
            }
            self.deserialize(input)
        })
    }

    /// Appends one frame holding `value` to `out`: the 4-byte little-endian body length,
    /// then the stream (see [the module](crate::frame)). On error `out` is left as it was.
    ///
    /// ```
    /// let fury = fury::Fury::default();
    /// let mut out = Vec::new();
    /// fury.serialize_frame_into(&true, &mut out).unwrap();
    /// assert_eq!(out, [4, 0, 0, 0, 0x01, 0xff, 0x01, 0x01]); // pyfory writes 01 ff 01 01 for True
    /// ```
    pub fn serialize_frame_into<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        append_frame(out, |out| self.serialize_into(value, out))
    }

    /// Writes one frame holding `value` to `w` with one `write_all`, returning the bytes
    /// written (header included). On a serialization error nothing is written.
    pub fn write_frame<T: Serialize + ?Sized, W: Write + ?Sized>(
        &self,
        value: &T,
        w: &mut W,
    ) -> Result<usize> {
        with_scratch(|scratch| {
            self.serialize_frame_into(value, scratch)?;
            w.write_all(scratch)?;
            Ok(scratch.len())
        })
    }

    /// Reads one frame from `r` and deserializes its body: `Ok(None)` when `r` ends cleanly
    /// between frames; an error when it ends inside a frame, when the frame is longer than
    /// `max_len`, or when the body is not exactly one valid stream (the frame is consumed
    /// whole in that case, so the next call starts at the next frame).
    pub fn read_frame<T: DeserializeOwned, R: Read + ?Sized>(
        &self,
        r: &mut R,
        max_len: usize,
    ) -> Result<Option<T>> {
        with_scratch(|body| {
            if !read_frame_body(r, max_len, body)? {
                return Ok(None);
            }
            self.deserialize(body).map(Some)
        })
    }
}
