//! gRPC over tonic (feature `tonic`): [`FuryCodec`], a `tonic::codec::Codec` whose message
//! bodies are xlang streams, as foryc's `--grpc` output for the other languages sends them
//! (the whole gRPC message is one `fory.serialize(message)`, content type
//! `application/grpc`).
//!
//! fury-build generates tonic clients and servers that use it for a schema's `service`
//! definitions; written by hand, a call looks like this:
//!
//! ```
//! // Needs fury's feature `tonic` and the crate `tonic` (feature `codegen`).
//! # #[derive(fury::FuryObject, Debug, Default)]
//! # #[fury(id = 100)]
//! # struct GetRequest { sku: String }
//! # #[derive(fury::FuryObject, Debug, Default)]
//! # #[fury(id = 101)]
//! # struct Item { sku: String, count: u32 }
//! use fury::tonic::FuryCodec;
//! use tonic::codegen::{http::uri::PathAndQuery, Body, Bytes, StdError};
//!
//! static FURY: std::sync::LazyLock<fury::Fury> = std::sync::LazyLock::new(|| {
//!     let mut fury = fury::Fury::builder().compatible(true).ref_tracking(true).build();
//!     fury.register::<GetRequest>().unwrap();
//!     fury.register::<Item>().unwrap();
//!     fury
//! });
//!
//! // `T` is a `tonic::transport::Channel` with tonic's feature `transport`.
//! async fn get<T>(channel: T, sku: &str) -> Result<Item, tonic::Status>
//! where
//!     T: tonic::client::GrpcService<tonic::body::Body>,
//!     T::Error: Into<StdError>,
//!     T::ResponseBody: Body<Data = Bytes> + Send + 'static,
//!     <T::ResponseBody as Body>::Error: Into<StdError> + Send,
//! {
//!     let mut grpc = tonic::client::Grpc::new(channel);
//!     grpc.ready().await.map_err(|e| tonic::Status::unavailable(e.into().to_string()))?;
//!     let codec = FuryCodec::<GetRequest, Item>::new(&FURY);
//!     let path = PathAndQuery::from_static("/demo.inv.Inventory/Get");
//!     let request = tonic::Request::new(GetRequest { sku: sku.into() });
//!     Ok(grpc.unary(request, path, codec).await?.into_inner())
//! }
//! ```

use crate::error::Error;
use crate::fury::Fury;
use crate::serializer::{DeserializeOwned, Serialize};
use ::tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use ::tonic::Status;
use bytes::Buf;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// The `Fury` a codec uses: a `&'static` one (what fury-build's per-module `fury()` returns,
/// so that a call costs no reference count) or a shared one.
#[derive(Clone)]
enum Shared {
    Static(&'static Fury),
    Arc(Arc<Fury>),
}

impl Shared {
    fn get(&self) -> &Fury {
        match self {
            Shared::Static(f) => f,
            Shared::Arc(f) => f,
        }
    }
}

/// A `tonic::codec::Codec` that encodes `Enc` and decodes `Dec` with a [`Fury`]: each gRPC
/// message is one xlang stream, as pyfory's `fory.serialize` writes it.
///
/// A client uses `FuryCodec<Request, Response>`, a server `FuryCodec<Response, Request>`.
/// Creating one costs nothing (a reference to the `Fury`), so generated code makes one per
/// call. Decoding reads the message straight from tonic's buffer when it is one contiguous
/// slice (it always is in tonic 0.14) and copies it once otherwise; a message that is not a
/// valid `Dec` is a `Status` with code `InvalidArgument` and the error's text, and a value
/// that cannot be encoded is `Internal`.
///
/// ```
/// // Needs fury's feature `tonic` and the crate `tonic`.
/// use tonic::codec::Codec;
/// static FURY: std::sync::LazyLock<fury::Fury> = std::sync::LazyLock::new(fury::Fury::default);
/// let mut codec = fury::tonic::FuryCodec::<String, Vec<i32>>::new(&FURY);
/// let (_encoder, _decoder) = (codec.encoder(), codec.decoder());
/// // or with a Fury shared by reference count:
/// let shared = std::sync::Arc::new(fury::Fury::default());
/// let _codec = fury::tonic::FuryCodec::<String, String>::with_arc(shared);
/// ```
pub struct FuryCodec<Enc, Dec> {
    fury: Shared,
    marker: PhantomData<fn(Enc) -> Dec>,
}

impl<Enc, Dec> FuryCodec<Enc, Dec> {
    /// A codec on a `Fury` that lives for the whole program (a `static`, or the `fury()` of a
    /// module fury-build generated).
    ///
    /// ```
    /// static FURY: std::sync::LazyLock<fury::Fury> = std::sync::LazyLock::new(fury::Fury::default);
    /// let codec = fury::tonic::FuryCodec::<String, String>::new(&FURY);
    /// # let _ = codec;
    /// ```
    pub fn new(fury: &'static Fury) -> Self {
        FuryCodec {
            fury: Shared::Static(fury),
            marker: PhantomData,
        }
    }

    /// A codec on a `Fury` shared by reference count.
    ///
    /// ```
    /// let fury = std::sync::Arc::new(fury::Fury::default());
    /// let codec = fury::tonic::FuryCodec::<String, String>::with_arc(fury);
    /// # let _ = codec;
    /// ```
    pub fn with_arc(fury: Arc<Fury>) -> Self {
        FuryCodec {
            fury: Shared::Arc(fury),
            marker: PhantomData,
        }
    }

    /// The `Fury` the codec uses.
    ///
    /// ```
    /// static FURY: std::sync::LazyLock<fury::Fury> = std::sync::LazyLock::new(fury::Fury::default);
    /// let codec = fury::tonic::FuryCodec::<String, String>::new(&FURY);
    /// assert!(std::ptr::eq(codec.fury(), &*FURY));
    /// ```
    pub fn fury(&self) -> &Fury {
        self.fury.get()
    }
}

impl<Enc, Dec> Clone for FuryCodec<Enc, Dec> {
    fn clone(&self) -> Self {
        FuryCodec {
            fury: self.fury.clone(),
            marker: PhantomData,
        }
    }
}

impl<Enc, Dec> fmt::Debug for FuryCodec<Enc, Dec> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuryCodec")
            .field("fury", self.fury.get())
            .finish()
    }
}

impl<Enc, Dec> Codec for FuryCodec<Enc, Dec>
where
    Enc: Serialize + Send + 'static,
    Dec: DeserializeOwned + Send + 'static,
{
    type Encode = Enc;
    type Decode = Dec;
    type Encoder = FuryEncoder<Enc>;
    type Decoder = FuryDecoder<Dec>;

    fn encoder(&mut self) -> Self::Encoder {
        FuryEncoder {
            fury: self.fury.clone(),
            marker: PhantomData,
        }
    }

    fn decoder(&mut self) -> Self::Decoder {
        FuryDecoder {
            fury: self.fury.clone(),
            marker: PhantomData,
        }
    }
}

/// The encoding half of [`FuryCodec`]: writes each `T` as one xlang stream.
///
/// ```
/// use tonic::codec::Codec;
/// let mut codec = fury::tonic::FuryCodec::<String, String>::with_arc(Default::default());
/// let encoder: fury::tonic::FuryEncoder<String> = codec.encoder();
/// # let _ = encoder;
/// ```
pub struct FuryEncoder<T> {
    fury: Shared,
    marker: PhantomData<fn(T)>,
}

impl<T> fmt::Debug for FuryEncoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuryEncoder").finish_non_exhaustive()
    }
}

impl<T: Serialize> Encoder for FuryEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        // One put_slice after the whole stream is written: on error nothing reaches `dst`.
        self.fury
            .get()
            .serialize_to_buf(&item, dst)
            .map_err(encode_status)
    }
}

/// The decoding half of [`FuryCodec`]: reads each message as one xlang stream holding a `T`.
///
/// ```
/// use tonic::codec::Codec;
/// let mut codec = fury::tonic::FuryCodec::<String, String>::with_arc(Default::default());
/// let decoder: fury::tonic::FuryDecoder<String> = codec.decoder();
/// # let _ = decoder;
/// ```
pub struct FuryDecoder<T> {
    fury: Shared,
    marker: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for FuryDecoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuryDecoder").finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned> Decoder for FuryDecoder<T> {
    type Item = T;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<T>, Status> {
        // tonic hands over exactly one whole message; an empty one is an error from the
        // reader (a stream has at least its header byte), never "wait for more".
        decode_message(self.fury.get(), src).map(Some)
    }
}

/// Reads the `T` that fills `src` (all of it) and consumes it, also on error so that a
/// stream of messages stays in step.
fn decode_message<T: DeserializeOwned, B: Buf>(fury: &Fury, src: &mut B) -> Result<T, Status> {
    let len = src.remaining();
    let result = match src.chunk().get(..len) {
        // The usual case: the message is one slice of tonic's buffer, read in place.
        Some(whole) => {
            let value = fury.deserialize::<T>(whole);
            src.advance(len);
            value
        }
        // Spread over several chunks: gathered into one contiguous copy.
        None => {
            let whole = src.copy_to_bytes(len);
            fury.deserialize::<T>(&whole)
        }
    };
    result.map_err(decode_status)
}

fn decode_status(e: Error) -> Status {
    Status::invalid_argument(format!(
        "fury: the message is not a valid xlang stream: {e}"
    ))
}

fn encode_status(e: Error) -> Status {
    Status::internal(format!("fury: the message cannot be encoded: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::tonic::Code;

    fn fury() -> Fury {
        Fury::default()
    }

    #[test]
    fn one_chunk_and_split_chunks_decode_the_same() {
        let fury = fury();
        let value = vec!["alpha".to_string(), "beta".to_string(), "gamma".to_string()];
        let bytes = fury.serialize(&value).unwrap();
        let mut whole: &[u8] = &bytes;
        let read: Vec<String> = decode_message(&fury, &mut whole).unwrap();
        assert_eq!(read, value);
        assert!(whole.is_empty());
        for cut in 1..bytes.len() {
            let (a, b) = bytes.split_at(cut);
            let mut split = a.chain(b);
            assert!(split.chunk().len() < split.remaining());
            let read: Vec<String> = decode_message(&fury, &mut split).unwrap();
            assert_eq!(read, value, "split at {cut}");
            assert_eq!(split.remaining(), 0);
        }
    }

    #[test]
    fn pyfory_bytes_decode() {
        // pyfory 1.7.7: pyfory.Fory(xlang=True).serialize(["a", "b"]) (the crate root's
        // doc example checks the same bytes).
        let bytes = [0x01u8, 0xff, 0x16, 0x02, 0x08, 0x15, 0x04, b'a', 0x04, b'b'];
        let mut src: &[u8] = &bytes;
        let read: Vec<String> = decode_message(&fury(), &mut src).unwrap();
        assert_eq!(read, ["a", "b"]);
    }

    #[test]
    fn hostile_bytes_are_an_invalid_argument_status() {
        let fury = fury();
        let good = fury.serialize(&vec![1i64, 2, 3]).unwrap();
        let mut cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![0x00],
            vec![0xff; 9],
            vec![0x01, 0xff, 0x16, 0xff, 0xff, 0xff, 0xff, 0x0f],
        ];
        for n in 0..good.len() {
            cases.push(good[..n].to_vec());
        }
        let mut trailing = good.clone();
        trailing.push(0);
        cases.push(trailing);
        for case in &cases {
            for cut in 0..=case.len() {
                let (a, b) = case.split_at(cut);
                let mut src = a.chain(b);
                let err = decode_message::<Vec<i64>, _>(&fury, &mut src).unwrap_err();
                assert_eq!(err.code(), Code::InvalidArgument, "{case:?}");
                assert!(err.message().starts_with("fury: "), "{}", err.message());
                assert_eq!(src.remaining(), 0, "the message is consumed");
            }
        }
    }

    #[test]
    fn a_value_that_cannot_be_written_is_an_internal_status() {
        // A value whose writer fails, as an unregistered type or a too-deep value does.
        struct Unwritable;
        impl crate::WireType for Unwritable {
            const TYPE_ID: crate::types::TypeId = crate::types::TypeId::Int32;
        }
        impl Serialize for Unwritable {
            fn write_data(&self, _: &mut crate::context::WriteContext) -> crate::Result<()> {
                Err(Error::new(crate::ErrorKind::Invalid {
                    what: "unwritable".into(),
                }))
            }
        }
        let fury = fury();
        let mut out = bytes::BytesMut::new();
        let err = fury
            .serialize_to_buf(&Unwritable, &mut out)
            .map_err(encode_status)
            .unwrap_err();
        assert_eq!(err.code(), Code::Internal);
        assert!(err.message().starts_with("fury: "), "{}", err.message());
        assert!(out.is_empty());
    }

    #[test]
    fn codec_halves_share_the_fury() {
        static FURY: std::sync::LazyLock<Fury> = std::sync::LazyLock::new(Fury::default);
        let mut codec = FuryCodec::<String, String>::new(&FURY);
        assert!(std::ptr::eq(codec.fury(), &*FURY));
        let _ = (codec.encoder(), codec.decoder());
        let arc = Arc::new(Fury::default());
        let codec = FuryCodec::<String, String>::with_arc(arc.clone());
        assert!(std::ptr::eq(codec.clone().fury(), &*arc));
    }
}
