//! The tokio-util codec of frames (feature `tokio`): [`FuryCodec`].

use super::HEADER_LEN;
use crate::context::{ReadMeta, WriteMeta};
use crate::error::Result;
use crate::fury::{with_scratch, Fury};
use crate::serializer::{DeserializeOwned, Serialize};
use bytes::{Buf, BufMut, BytesMut};
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// A tokio-util codec of fury frames (feature `tokio`): encodes any `Serialize` value and
/// decodes `T`.
///
/// [`FuryCodec<T>`] frames xlang streams as [`crate::frame`] describes: a 4-byte
/// little-endian body length, then one stream. Use it with `tokio_util::codec::Framed` (or
/// `FramedRead` / `FramedWrite`) on any `AsyncRead + AsyncWrite`:
///
/// ```
/// // Needs fury's feature `tokio` and the crates `bytes` and `tokio-util` (`codec`).
/// use bytes::BytesMut;
/// use fury::frame::FuryCodec;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let fury = std::sync::Arc::new(fury::Fury::default());
/// let mut codec = FuryCodec::<String>::new(fury);
/// let mut wire = BytesMut::new();
/// codec.encode("ping".to_string(), &mut wire).unwrap();
/// assert_eq!(wire[..4], [8, 0, 0, 0]);
///
/// let mut half = wire.split_to(6); // a frame split by the network
/// assert!(codec.decode(&mut half).unwrap().is_none());
/// half.unsplit(wire);
/// assert_eq!(codec.decode(&mut half).unwrap().unwrap().unwrap(), "ping");
/// ```
///
/// Decoding yields `Result<T, FrameError>` items: a frame that arrived whole but does not
/// hold a valid `T` is an item error naming the frame, and the codec is already at the next
/// frame, so the connection goes on (a server answers with an error and keeps reading).
/// Only what leaves the connection unusable is a [`CodecError`]: an I/O error, a frame
/// announced longer than the maximum (the stream can no longer be trusted to be framed), or
/// the connection ending inside a frame. `FramedRead` ends its stream after such an error.
///
/// # Serving untrusted peers
///
/// The codec bounds one frame ([`max_frame_len`](Self::max_frame_len)) and, with
/// [`share_meta`](Self::share_meta), the metadata one connection may hold. What it cannot
/// see is time and the other connections; a server adds four limits around it, as
/// `examples/rpc_server.rs` (`rpc_common/server.rs`) does and `tests/server_limits.rs`
/// checks on loopback:
///
/// - a **connection limit** (a semaphore taken at `accept`; one more connection gets an
///   error frame and is closed);
/// - an **idle timeout** while no frame has started (with `Framed`, a `timeout` around
///   `next()` only when `read_buffer()` is empty);
/// - a **frame deadline** from a frame's first byte to its last, so that a peer writing one
///   byte at a time cannot hold a connection and its buffer;
/// - a **cap on bytes buffered across connections**: before the body of a frame is read,
///   take its announced length (the first 4 bytes) from one budget shared by all
///   connections, and give it back once [`decode`](tokio_util::codec::Decoder::decode)
///   returned the frame.
pub struct FuryCodec<T> {
    fury: Arc<Fury>,
    max_frame_len: usize,
    /// Frames decoded so far (the number of the next one, for errors).
    decoded: u64,
    /// Frames encoded so far.
    encoded: u64,
    /// The connection's shared type metadata, when on (`share_meta`).
    meta: Option<Box<(WriteMeta, ReadMeta)>>,
    marker: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for FuryCodec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuryCodec")
            .field("max_frame_len", &self.max_frame_len)
            .field("decoded", &self.decoded)
            .field("encoded", &self.encoded)
            .field("share_meta", &self.meta.is_some())
            .finish_non_exhaustive()
    }
}

impl<T> Clone for FuryCodec<T> {
    /// A codec with the same settings, for another connection: fresh counters and, if
    /// metadata sharing is on, fresh shared metadata.
    fn clone(&self) -> Self {
        FuryCodec {
            fury: self.fury.clone(),
            max_frame_len: self.max_frame_len,
            decoded: 0,
            encoded: 0,
            meta: self.meta.as_ref().map(|_| Box::default()),
            marker: PhantomData,
        }
    }
}

impl<T> FuryCodec<T> {
    /// A codec using `fury` (its registrations and mode), with frames of at most
    /// [`super::DEFAULT_MAX_FRAME_LEN`] body bytes.
    pub fn new(fury: Arc<Fury>) -> Self {
        FuryCodec {
            fury,
            max_frame_len: super::DEFAULT_MAX_FRAME_LEN,
            decoded: 0,
            encoded: 0,
            meta: None,
            marker: PhantomData,
        }
    }

    /// Shares type metadata across the frames of the connection (default: off): each
    /// TypeDef, and each name of a named type, is sent once, and later frames name it by a
    /// back reference (see [`WriteMeta`]). Both ends must turn it on, with a fresh codec per
    /// connection; the peer must be fury-rs (pyfory 1.7.7 resets the metadata after every
    /// message). Turning it on discards what was shared so far.
    ///
    /// ```
    /// // Needs fury's feature `tokio` and the crates `bytes` and `tokio-util` (`codec`).
    /// use tokio_util::codec::{Decoder, Encoder};
    /// # #[derive(fury::FuryObject, Debug, PartialEq)]
    /// # #[fury(id = 100)]
    /// # struct Point { x: i32, y: i32 }
    /// let mut fury = fury::Fury::default();
    /// fury.register::<Point>().unwrap();
    /// let fury = std::sync::Arc::new(fury);
    /// let mut client = fury::frame::FuryCodec::<Point>::new(fury.clone()).share_meta(true);
    /// let mut server = fury::frame::FuryCodec::<Point>::new(fury).share_meta(true);
    /// let mut wire = bytes::BytesMut::new();
    /// client.encode(Point { x: 1, y: 2 }, &mut wire).unwrap();
    /// let first = wire.len();
    /// client.encode(Point { x: 3, y: 4 }, &mut wire).unwrap();
    /// assert!(wire.len() - first < first); // the second frame names the TypeDef
    /// assert_eq!(server.decode(&mut wire).unwrap().unwrap().unwrap(), Point { x: 1, y: 2 });
    /// assert_eq!(server.decode(&mut wire).unwrap().unwrap().unwrap(), Point { x: 3, y: 4 });
    /// ```
    pub fn share_meta(mut self, on: bool) -> Self {
        self.meta = on.then(Box::default);
        self
    }

    /// Sets the largest frame body accepted or written (bytes).
    ///
    /// ```
    /// // Needs fury's feature `tokio` and the crates `bytes` and `tokio-util` (`codec`).
    /// use tokio_util::codec::Decoder;
    /// let fury = std::sync::Arc::new(fury::Fury::default());
    /// let mut codec = fury::frame::FuryCodec::<String>::new(fury).max_frame_len(4);
    /// let mut wire = bytes::BytesMut::from(&[8u8, 0, 0, 0][..]);
    /// let err = codec.decode(&mut wire).unwrap_err();
    /// assert_eq!(err.to_string(), "frame 0 announces 8 bytes, more than the maximum of 4");
    /// ```
    pub fn max_frame_len(mut self, bytes: usize) -> Self {
        self.max_frame_len = bytes;
        self
    }

    /// The `Fury` the codec uses.
    pub fn fury(&self) -> &Arc<Fury> {
        &self.fury
    }

    /// How many frames were decoded (including those whose body was an error).
    pub fn frames_decoded(&self) -> u64 {
        self.decoded
    }

    /// How many frames were encoded.
    pub fn frames_encoded(&self) -> u64 {
        self.encoded
    }

    fn too_large(&self, frame: u64, len: u64) -> CodecError {
        CodecError::TooLarge {
            frame,
            len,
            max: self.max_frame_len,
        }
    }
}

impl<T: DeserializeOwned> tokio_util::codec::Decoder for FuryCodec<T> {
    type Item = std::result::Result<T, FrameError>;
    type Error = CodecError;

    fn decode(
        &mut self,
        src: &mut BytesMut,
    ) -> std::result::Result<Option<Self::Item>, CodecError> {
        let Some(header) = src.get(..HEADER_LEN) else {
            return Ok(None);
        };
        let mut prefix = [0u8; HEADER_LEN];
        prefix.copy_from_slice(header);
        let len = u32::from_le_bytes(prefix) as usize;
        if len > self.max_frame_len {
            return Err(self.too_large(self.decoded, len as u64));
        }
        let whole = HEADER_LEN + len;
        if src.len() < whole {
            // Room for what is announced, in steps, so that a length alone costs little.
            src.reserve((whole - src.len()).min(64 << 10));
            return Ok(None);
        }
        src.advance(HEADER_LEN);
        let body = src.split_to(len).freeze();
        let frame = self.decoded;
        self.decoded += 1;
        let value = match self.meta.as_mut() {
            Some(meta) => self
                .fury
                .deserialize_bytes_with_meta::<T>(&body, &mut meta.1),
            None => self.fury.deserialize_bytes::<T>(&body),
        };
        Ok(Some(value.map_err(|error| FrameError {
            frame,
            len,
            error,
        })))
    }

    fn decode_eof(
        &mut self,
        buf: &mut BytesMut,
    ) -> std::result::Result<Option<Self::Item>, CodecError> {
        match self.decode(buf)? {
            Some(item) => Ok(Some(item)),
            None if buf.is_empty() => Ok(None),
            None => {
                let needed = match buf.get(..HEADER_LEN) {
                    Some(h) => {
                        let mut prefix = [0u8; HEADER_LEN];
                        prefix.copy_from_slice(h);
                        HEADER_LEN + u32::from_le_bytes(prefix) as usize
                    }
                    None => HEADER_LEN,
                };
                let err = CodecError::Truncated {
                    frame: self.decoded,
                    received: buf.len(),
                    needed,
                };
                buf.clear();
                Err(err)
            }
        }
    }
}

impl<T, E: Serialize> tokio_util::codec::Encoder<E> for FuryCodec<T> {
    type Error = CodecError;

    /// Appends the frame to `dst` in one `put_slice` (header and body together); on error
    /// nothing is appended.
    fn encode(&mut self, item: E, dst: &mut BytesMut) -> std::result::Result<(), CodecError> {
        let frame = self.encoded;
        let (fury, max) = (&self.fury, self.max_frame_len);
        let meta = self.meta.as_mut().map(|m| &mut m.0);
        let before = meta.as_ref().map(|m| m.mark());
        let written: Result<std::result::Result<(), CodecError>> = with_scratch(|scratch| {
            let mut meta = meta;
            match meta.as_deref_mut() {
                Some(meta) => {
                    super::append_frame(scratch, |out| fury.serialize_with_meta(&item, out, meta))?
                }
                None => fury.serialize_frame_into(&item, scratch)?,
            }
            let len = scratch.len() - HEADER_LEN;
            if len > max {
                if let (Some(meta), Some(before)) = (meta, before) {
                    meta.rewind(before); // not sent
                }
                return Ok(Err(CodecError::TooLarge {
                    frame,
                    len: len as u64,
                    max,
                }));
            }
            dst.put_slice(scratch);
            Ok(Ok(()))
        });
        written.map_err(|error| CodecError::Encode { frame, error })??;
        self.encoded += 1;
        Ok(())
    }
}

/// A frame that arrived whole but whose body is not a valid stream of the expected type;
/// the connection is still in sync (the next frame decodes normally).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError {
    /// The frame's number on this codec, from 0.
    pub frame: u64,
    /// The frame's body length.
    pub len: usize,
    /// What is wrong with the body (offsets are within the body).
    pub error: crate::Error,
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frame {} ({} bytes): {}",
            self.frame, self.len, self.error
        )
    }
}

impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// An error after which the connection cannot go on (decoding), or a value that could not be
/// encoded (nothing was written; the connection can go on).
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// Reading or writing the transport failed.
    Io(std::io::Error),
    /// Frame `frame` announces (or would have) `len` body bytes, more than `max`.
    TooLarge {
        /// The frame's number on this codec, from 0.
        frame: u64,
        /// The announced or encoded body length.
        len: u64,
        /// The codec's maximum.
        max: usize,
    },
    /// The connection ended `received` bytes into frame `frame`, which needs `needed`
    /// (header included; 4 while the header itself is incomplete).
    Truncated {
        /// The frame's number on this codec, from 0.
        frame: u64,
        /// Bytes of the frame that arrived.
        received: usize,
        /// Bytes the frame needs.
        needed: usize,
    },
    /// Serializing frame `frame` failed; nothing was written.
    Encode {
        /// The frame's number on this codec, from 0.
        frame: u64,
        /// Why.
        error: crate::Error,
    },
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Io(e) => write!(f, "frame transport failed: {e}"),
            CodecError::TooLarge { frame, len, max } => {
                write!(
                    f,
                    "frame {frame} announces {len} bytes, more than the maximum of {max}"
                )
            }
            CodecError::Truncated {
                frame,
                received,
                needed,
            } => write!(
                f,
                "the connection ended inside frame {frame}: {received} of its {needed} bytes arrived"
            ),
            CodecError::Encode { frame, error } => {
                write!(f, "frame {frame} could not be encoded: {error}")
            }
        }
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CodecError::Io(e) => Some(e),
            CodecError::Encode { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<std::io::Error> for CodecError {
    fn from(e: std::io::Error) -> Self {
        CodecError::Io(e)
    }
}
