//! The serializers measured ("peers"), behind one small trait, and the cases the report and
//! the criterion benches run: one per dataset and peer, each with a serialize and a
//! deserialize loop.

use crate::data::*;
use crate::pb::Mirror;
use crate::values;
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use std::fmt::Debug;
use std::hint::black_box;
use std::sync::Arc;

/// Every serializer in the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Peer {
    /// fury-rs, `compatible(false)`: same-schema structs (4-byte schema hash).
    FuryRs,
    /// fury-rs, `compatible(true)`: TypeDef metadata (schema evolution).
    FuryRsCompatible,
    /// fury-rs, `compatible(false).ref_tracking(true)`.
    FuryRsRef,
    /// The official `fory` crate 1.7.7, xlang, `compatible(false)`.
    Fory,
    /// The official `fory` crate 1.7.7, xlang, `compatible(true)`.
    ForyCompatible,
    /// Protobuf via prost (hand-written messages).
    Prost,
    /// MessagePack via rmp-serde, structs as maps (`to_vec_named`).
    MessagePack,
    /// bincode 1.3 with its default options.
    Bincode,
    /// serde_json.
    Json,
    /// postcard 1 into the owned types (`postcard::from_bytes`).
    PostcardOwned,
    /// bitcode 0.6 into the owned types, through a reused `bitcode::Buffer`.
    BitcodeOwned,
    /// rkyv 0.8 into the owned types: validated access, then `rkyv::deserialize`
    /// (`rkyv::from_bytes`).
    RkyvOwned,
    /// rkyv 0.8 validated access only (`rkyv::access`), an informative row of the main tables:
    /// it builds no owned value, so it is not compared with the decoders that do. The same
    /// operation as [`Peer::Rkyv`] of the borrowed-decoding section, on the main datasets.
    RkyvAccess,
    /// fury-rs same-schema, decoding into the borrowed mirrors (borrowed-decoding section).
    FuryRsBorrowed,
    /// fury-rs compatible, decoding into the borrowed mirrors (borrowed-decoding section).
    FuryRsCompatibleBorrowed,
    /// fury-rs compatible, decoding into a dynamic `fury::ValueRef` with no type registered
    /// (borrowed-decoding section).
    FuryRsValueRef,
    /// postcard 1 into the serde borrowed mirrors (borrowed-decoding section).
    Postcard,
    /// bitcode 0.6 into the borrowed mirrors (borrowed-decoding section).
    Bitcode,
    /// rkyv 0.8 validated access (`rkyv::access`; borrowed-decoding section).
    Rkyv,
}

impl Peer {
    /// All peers of the main tables, in table order (the informative rows last).
    pub const ALL: [Peer; 13] = [
        Peer::FuryRs,
        Peer::FuryRsCompatible,
        Peer::FuryRsRef,
        Peer::Fory,
        Peer::ForyCompatible,
        Peer::Prost,
        Peer::MessagePack,
        Peer::Bincode,
        Peer::PostcardOwned,
        Peer::BitcodeOwned,
        Peer::RkyvOwned,
        Peer::Json,
        Peer::RkyvAccess,
    ];

    /// The rows of the borrowed-decoding section, in table order.
    pub const BORROWED: [Peer; 9] = [
        Peer::FuryRs,
        Peer::FuryRsBorrowed,
        Peer::FuryRsCompatible,
        Peer::FuryRsCompatibleBorrowed,
        Peer::FuryRsValueRef,
        Peer::Fory,
        Peer::Postcard,
        Peer::Bitcode,
        Peer::Rkyv,
    ];

    /// Short display name.
    pub fn name(self) -> &'static str {
        match self {
            Peer::FuryRs => "fury-rs",
            Peer::FuryRsCompatible => "fury-rs compat",
            Peer::FuryRsRef => "fury-rs ref",
            Peer::Fory => "fory 1.7.7",
            Peer::ForyCompatible => "fory 1.7.7 compat",
            Peer::Prost => "prost",
            Peer::MessagePack => "rmp-serde",
            Peer::Bincode => "bincode",
            Peer::Json => "serde_json",
            Peer::PostcardOwned => "postcard",
            Peer::BitcodeOwned => "bitcode",
            Peer::RkyvOwned => "rkyv",
            Peer::RkyvAccess => "rkyv access",
            Peer::FuryRsBorrowed => "fury-rs borrowed",
            Peer::FuryRsCompatibleBorrowed => "fury-rs compat borrowed",
            Peer::FuryRsValueRef => "fury-rs ValueRef (borrowed dynamic)",
            Peer::Postcard => "postcard borrowed",
            Peer::Bitcode => "bitcode borrowed",
            Peer::Rkyv => "rkyv validated access",
        }
    }

    /// A name usable in criterion ids and file names. The borrowed-decoding section's
    /// postcard, bitcode and rkyv rows came first and keep the bare names; the main tables'
    /// rows of the same libraries are `*_owned` and `rkyv_access`.
    pub fn slug(self) -> &'static str {
        match self {
            Peer::FuryRs => "fury_rs",
            Peer::FuryRsCompatible => "fury_rs_compatible",
            Peer::FuryRsRef => "fury_rs_ref",
            Peer::Fory => "fory",
            Peer::ForyCompatible => "fory_compatible",
            Peer::Prost => "prost",
            Peer::MessagePack => "rmp_serde",
            Peer::Bincode => "bincode",
            Peer::Json => "serde_json",
            Peer::PostcardOwned => "postcard_owned",
            Peer::BitcodeOwned => "bitcode_owned",
            Peer::RkyvOwned => "rkyv_owned",
            Peer::RkyvAccess => "rkyv_access",
            Peer::FuryRsBorrowed => "fury_rs_borrowed",
            Peer::FuryRsCompatibleBorrowed => "fury_rs_compatible_borrowed",
            Peer::FuryRsValueRef => "fury_rs_value_ref",
            Peer::Postcard => "postcard",
            Peer::Bitcode => "bitcode",
            Peer::Rkyv => "rkyv",
        }
    }

    /// An informative row of the main tables: it does not build the owned value, so it is
    /// left out of the fastest-in-bold marks, the geometric means, the worst ratios and the
    /// chart.
    pub fn informative(self) -> bool {
        self == Peer::RkyvAccess
    }

    /// The fury-rs mode this peer is compared with in the `fury-rs/peer` column.
    pub fn fury_counterpart(self) -> Peer {
        match self {
            Peer::ForyCompatible | Peer::FuryRsCompatible => Peer::FuryRsCompatible,
            Peer::FuryRsCompatibleBorrowed => Peer::FuryRsCompatibleBorrowed,
            Peer::FuryRsValueRef => Peer::FuryRsValueRef,
            Peer::FuryRsBorrowed | Peer::Postcard | Peer::Bitcode | Peer::Rkyv => {
                Peer::FuryRsBorrowed
            }
            _ => Peer::FuryRs,
        }
    }
}

/// Serialize or deserialize.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Value to bytes (into a reused, cleared buffer).
    Serialize,
    /// Bytes to a new value (dropped inside the loop).
    Deserialize,
}

impl Op {
    /// Both.
    pub const ALL: [Op; 2] = [Op::Serialize, Op::Deserialize];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Serialize => "serialize",
            Op::Deserialize => "deserialize",
        }
    }
}

/// What every dataset type implements: the fury-rs, fory, serde, bitcode, rkyv and prost
/// traits.
pub trait Dataset:
    fury::FuryObject
    + fury::DeserializeOwned
    + fory::Serializer<Target = Self>
    + serde::Serialize
    + serde::de::DeserializeOwned
    + bitcode::Encode
    + bitcode::DecodeOwned
    + Rkyv
    + Mirror
    + Clone
    + PartialEq
    + Debug
    + Send
    + Sync
    + 'static
{
}

impl<T> Dataset for T where
    T: fury::FuryObject
        + fury::DeserializeOwned
        + fory::Serializer<Target = Self>
        + serde::Serialize
        + serde::de::DeserializeOwned
        + bitcode::Encode
        + bitcode::DecodeOwned
        + Rkyv
        + Mirror
        + Clone
        + PartialEq
        + Debug
        + Send
        + Sync
        + 'static
{
}

/// rkyv's high-level serializer writing into a borrowed `Vec<u8>` (the serializers'
/// scratch space in rkyv's thread-local arena, as `rkyv::to_bytes` has it).
pub type VecSerializer<'a, 'b> = HighSerializer<&'b mut Vec<u8>, ArenaHandle<'a>, rancor::Error>;

/// rkyv's high-level API for a dataset type: serializing into a caller's `Vec<u8>`, validated
/// access to the archive, and deserializing it back.
///
/// A trait of its own because what rkyv needs of the archived type (`CheckBytes`,
/// `Deserialize`) is a bound on `Self::Archived`, and a where clause on an associated type is
/// not implied for users of a trait the way supertraits are: every generic function would have
/// to repeat it. The methods are rkyv's own functions, inlined.
pub trait Rkyv: rkyv::Archive + for<'a, 'b> rkyv::Serialize<VecSerializer<'a, 'b>> {
    /// `rkyv::api::high::to_bytes_in`: appends the archive of `self` to `out`.
    fn rkyv_write(&self, out: &mut Vec<u8>) -> Result<(), rancor::Error>;
    /// `rkyv::access`: the archived value, after bytecheck validated the whole archive. The
    /// archive must be aligned as when written (keep it in an [`AlignedVec`]).
    fn rkyv_access(bytes: &[u8]) -> Result<&Self::Archived, rancor::Error>;
    /// `rkyv::from_bytes`: validated access, then `rkyv::deserialize` into the owned type.
    fn rkyv_read(bytes: &[u8]) -> Result<Self, rancor::Error>
    where
        Self: Sized;
    /// `rkyv::deserialize`: an archived value back as the owned type.
    fn rkyv_unarchive(archived: &Self::Archived) -> Result<Self, rancor::Error>
    where
        Self: Sized;
}

impl<T> Rkyv for T
where
    T: rkyv::Archive + for<'a, 'b> rkyv::Serialize<VecSerializer<'a, 'b>>,
    T::Archived: for<'a> CheckBytes<HighValidator<'a, rancor::Error>>
        + rkyv::Deserialize<T, HighDeserializer<rancor::Error>>,
{
    #[inline]
    fn rkyv_write(&self, out: &mut Vec<u8>) -> Result<(), rancor::Error> {
        rkyv::api::high::to_bytes_in::<_, rancor::Error>(self, out).map(|_| ())
    }
    #[inline]
    fn rkyv_access(bytes: &[u8]) -> Result<&T::Archived, rancor::Error> {
        rkyv::access::<T::Archived, rancor::Error>(bytes)
    }
    #[inline]
    fn rkyv_read(bytes: &[u8]) -> Result<T, rancor::Error> {
        rkyv::from_bytes::<T, rancor::Error>(bytes)
    }
    #[inline]
    fn rkyv_unarchive(archived: &T::Archived) -> Result<T, rancor::Error> {
        rkyv::deserialize::<T, rancor::Error>(archived)
    }
}

/// `bytes` copied into a 16-byte aligned buffer. Every decode loop reads its input from one:
/// rkyv requires its archive aligned, and giving every peer the same kind of input keeps the
/// comparison even (an allocator's `Vec<u8>` of this size is usually 16-byte aligned too, but
/// nothing promises it).
pub fn aligned(bytes: &[u8]) -> AlignedVec {
    let mut v = AlignedVec::with_capacity(bytes.len());
    v.extend_from_slice(bytes);
    v
}

/// One serializer as the benchmarks see it. `Wire` is the in-memory type that is encoded:
/// the dataset type itself, or its prost mirror.
pub trait Codec<T: Dataset>: Send + Sync + 'static {
    /// The type encoded and decoded.
    type Wire: Send + Sync + 'static;
    /// Builds the encoded type from the dataset value (outside the timed loop).
    fn wire(&self, value: &T) -> Self::Wire;
    /// Turns a decoded value back into the dataset type (for the round-trip check).
    fn back(&self, wire: Self::Wire) -> Result<T, String>;
    /// Appends the encoding of `wire` to `out`.
    fn encode(&self, wire: &Self::Wire, out: &mut Vec<u8>) -> Result<(), String>;
    /// What the serialize loop times: the encoding of `wire` into a buffer reused from call to
    /// call. `encode` into `out` (which the loop clears) unless the library's fast API writes
    /// into a reused buffer of its own, as bitcode's does.
    #[inline]
    fn encode_timed(&self, wire: &Self::Wire, out: &mut Vec<u8>) -> Result<(), String> {
        self.encode(wire, out)
    }
    /// The library's own decode error. The timed loop keeps the library's `Result` as it
    /// is, so no peer pays for a conversion of its value into another `Result` layout.
    type Error: std::fmt::Display + std::fmt::Debug;
    /// Decodes `bytes`, which hold exactly one value.
    fn decode(&self, bytes: &[u8]) -> Result<Self::Wire, Self::Error>;
}

/// fury-rs.
pub struct FuryRsCodec(pub Arc<fury::Fury>);
/// The official `fory` crate.
pub struct ForyCodec(pub Arc<fory::Fory>);
/// prost.
pub struct ProstCodec;
/// rmp-serde.
pub struct MsgPackCodec;
/// bincode 1.3.
pub struct BincodeCodec;
/// serde_json.
pub struct JsonCodec;
/// postcard 1, writing straight into the caller's buffer (see [`ReusedVec`]).
pub struct PostcardCodec;
/// bitcode 0.6 through a reused `bitcode::Buffer`, one per thread (see the `Codec` impl for
/// what its serialize times).
pub struct BitcodeCodec;
/// rkyv 0.8: the archive written into the caller's buffer; decoding is validated access and
/// deserializing into the owned type (`rkyv::from_bytes`).
pub struct RkyvCodec;

impl<T: Dataset> Codec<T> for FuryRsCodec {
    type Error = fury::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        self.0.serialize_into(wire, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        self.0.deserialize::<T>(bytes)
    }
}

impl<T: Dataset> Codec<T> for ForyCodec {
    type Error = fory::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        self.0
            .serialize_to(out, wire)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        self.0.deserialize::<T>(bytes)
    }
}

impl<T: Dataset> Codec<T> for ProstCodec {
    type Error = prost::DecodeError;
    type Wire = T::Pb;
    fn wire(&self, value: &T) -> T::Pb {
        value.to_pb()
    }
    fn back(&self, wire: T::Pb) -> Result<T, String> {
        T::from_pb(wire)
    }
    #[inline]
    fn encode(&self, wire: &T::Pb, out: &mut Vec<u8>) -> Result<(), String> {
        prost::Message::encode(wire, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T::Pb, Self::Error> {
        <T::Pb as prost::Message>::decode(bytes)
    }
}

impl<T: Dataset> Codec<T> for MsgPackCodec {
    type Error = rmp_serde::decode::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        rmp_serde::encode::write_named(out, wire).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        rmp_serde::from_slice(bytes)
    }
}

impl<T: Dataset> Codec<T> for BincodeCodec {
    type Error = bincode::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        bincode::serialize_into(out, wire).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        bincode::deserialize(bytes)
    }
}

impl<T: Dataset> Codec<T> for JsonCodec {
    type Error = serde_json::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        serde_json::to_writer(out, wire).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        serde_json::from_slice(bytes)
    }
}

/// A postcard flavor appending to a borrowed `Vec<u8>`: what `postcard::to_allocvec` does
/// with a new `Vec`, into the reused buffer every peer writes into. (`postcard::to_extend`
/// takes the buffer by value and appends through `Extend`, byte by byte.)
pub struct ReusedVec<'a>(pub &'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for ReusedVec<'_> {
    type Output = ();
    #[inline]
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.push(data);
        Ok(())
    }
    #[inline]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.0.extend_from_slice(data);
        Ok(())
    }
    #[inline]
    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

impl<T: Dataset> Codec<T> for PostcardCodec {
    type Error = postcard::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        postcard::serialize_with_flavor(wire, ReusedVec(out)).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        postcard::from_bytes(bytes)
    }
}

thread_local! {
    /// The `bitcode::Buffer` of this thread: bitcode keeps its per-type encoders and decoders
    /// (and their scratch vectors) in it, which is how its documentation says to avoid
    /// allocating on every call. One per thread rather than per codec since `Codec` methods
    /// take `&self` and may run on several threads.
    static BITCODE_BUFFER: std::cell::RefCell<bitcode::Buffer> =
        std::cell::RefCell::new(bitcode::Buffer::new());
}

/// bitcode, measured the way it is fast: `Buffer::encode` and `Buffer::decode` on the
/// thread's reused buffer (one for every type, as an application would keep; finding a type's
/// encoder in it is part of the time). `Buffer::encode` leaves the bytes in the buffer's own
/// storage and returns them: the timed serialize ([`Codec::encode_timed`]) stops there, as the
/// other peers' stops with the bytes in the reused `Vec<u8>`; `encode`, for the round-trip check
/// and the sizes, copies them into `out`, a copy no bitcode user needs and the loop does not
/// time.
impl<T: Dataset> Codec<T> for BitcodeCodec {
    type Error = bitcode::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        BITCODE_BUFFER.with(|b| {
            let mut b = b
                .try_borrow_mut()
                .map_err(|_| "the bitcode buffer is in use".to_string())?;
            out.extend_from_slice(b.encode(wire));
            Ok(())
        })
    }
    #[inline]
    fn encode_timed(&self, wire: &T, _out: &mut Vec<u8>) -> Result<(), String> {
        BITCODE_BUFFER.with(|b| {
            let mut b = b
                .try_borrow_mut()
                .map_err(|_| "the bitcode buffer is in use".to_string())?;
            black_box(b.encode(wire));
            Ok(())
        })
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        BITCODE_BUFFER.with(|b| match b.try_borrow_mut() {
            Ok(mut b) => b.decode(bytes),
            // Not reached (nothing decodes while decoding); a fresh decoder still works.
            Err(_) => bitcode::decode(bytes),
        })
    }
}

impl<T: Dataset> Codec<T> for RkyvCodec {
    type Error = rancor::Error;
    type Wire = T;
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    /// rkyv aligns what it writes relative to the start of `out`, so the archive is the whole
    /// of `out` only when `out` starts empty, as in every caller (the loops clear it).
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        wire.rkyv_write(out).map_err(|e| e.to_string())
    }
    /// `bytes` must be aligned: [`case`] decodes from an [`AlignedVec`].
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        T::rkyv_read(bytes)
    }
}

// ---------------------------------------------------------------------------------------------
// Registered instances
// ---------------------------------------------------------------------------------------------

/// The user type id a dataset type declares with `#[fury(id = ..)]`.
pub fn type_id_of<T: fury::FuryObject>() -> u32 {
    match T::registration() {
        Some(fury::registry::Registration::Id(id)) => id,
        other => panic!(
            "{} has no #[fury(id = ..)]: {other:?}",
            std::any::type_name::<T>()
        ),
    }
}

macro_rules! for_each_type {
    ($m:ident) => {
        $m!(
            NumericStruct,
            NumericStructList,
            Sample,
            SampleList,
            Player,
            Size,
            Media,
            Image,
            MediaContent,
            MediaContentList,
            SkillCategory,
            HarmDto,
            SkillFire,
            Group,
            User,
            Customer,
            CustomerList,
            UserModel,
            UserModelList,
            LogEntry,
            LogList,
            Vec3,
            Triangle,
            Mesh,
            EntityKind,
            Entity,
            GameState
        )
    };
}

/// A fury-rs instance with every dataset type registered (by the ids of their attributes).
pub fn fury_rs(compatible: bool, ref_tracking: bool) -> fury::Fury {
    let mut fury = fury::Fury::builder()
        .compatible(compatible)
        .ref_tracking(ref_tracking)
        .build();
    macro_rules! reg {
        ($($t:ty),*) => { $( fury.register::<$t>().expect(stringify!($t)); )* };
    }
    for_each_type!(reg);
    fury
}

/// An official `fory` instance (xlang) with every dataset type registered under the same ids
/// as in fury-rs.
pub fn fory(compatible: bool) -> fory::Fory {
    let mut fory = fory::Fory::builder()
        .xlang(true)
        .compatible(compatible)
        .build();
    macro_rules! reg {
        ($($t:ty),*) => { $( fory.register::<$t>(type_id_of::<$t>()).expect(stringify!($t)); )* };
    }
    for_each_type!(reg);
    fory
}

/// The registered instances shared by every case.
#[derive(Clone)]
pub struct Engines {
    /// fury-rs, same-schema.
    pub fury: Arc<fury::Fury>,
    /// fury-rs, compatible.
    pub fury_compatible: Arc<fury::Fury>,
    /// fury-rs, same-schema with ref tracking.
    pub fury_ref: Arc<fury::Fury>,
    /// fory, same-schema.
    pub fory: Arc<fory::Fory>,
    /// fory, compatible.
    pub fory_compatible: Arc<fory::Fory>,
}

impl Engines {
    /// Builds and registers every instance.
    pub fn new() -> Self {
        Engines {
            fury: Arc::new(fury_rs(false, false)),
            fury_compatible: Arc::new(fury_rs(true, false)),
            fury_ref: Arc::new(fury_rs(false, true)),
            fory: Arc::new(fory(false)),
            fory_compatible: Arc::new(fory(true)),
        }
    }
}

impl Default for Engines {
    fn default() -> Self {
        Self::new()
    }
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

/// A loop that runs an operation `n` times.
pub type Runner = Box<dyn FnMut(u64) + Send>;

/// One dataset with one peer.
pub struct Case {
    /// Dataset name.
    pub dataset: &'static str,
    /// The serializer.
    pub peer: Peer,
    /// Encoded size in bytes (0 when encoding failed).
    pub size: usize,
    /// The encoded bytes.
    pub bytes: Vec<u8>,
    /// `Ok` when decode(encode(x)) == x.
    pub roundtrip: Result<(), String>,
    /// Serializes `n` times into a reused buffer; `None` for a decode-only row (the rkyv
    /// access row, whose serialize is rkyv's, and the borrowed-decoding section's rows).
    pub serialize: Option<Runner>,
    /// Deserializes `n` times.
    pub deserialize: Runner,
}

impl Case {
    /// The loop for `op` (`None`: the case does not time it).
    pub fn runner(&mut self, op: Op) -> Option<&mut Runner> {
        match op {
            Op::Serialize => self.serialize.as_mut(),
            Op::Deserialize => Some(&mut self.deserialize),
        }
    }
}

fn clip(s: String) -> String {
    if s.len() <= 400 {
        return s;
    }
    let mut end = 400;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Encodes `value` once with `codec`, checks the round trip, and builds the timed loops. The
/// round trip and the deserialize loop read the bytes from an [`aligned`] copy.
pub fn case<T: Dataset, C: Codec<T>>(
    dataset: &'static str,
    peer: Peer,
    codec: C,
    value: &T,
) -> Case {
    let codec = Arc::new(codec);
    let wire = Arc::new(codec.wire(value));
    let mut bytes = Vec::new();
    let roundtrip = codec
        .encode(&wire, &mut bytes)
        .map_err(|e| format!("encode: {e}"))
        .and_then(|()| {
            codec
                .decode(&aligned(&bytes))
                .map_err(|e| format!("decode: {e}"))
        })
        .and_then(|w| codec.back(w))
        .and_then(|back| {
            if back == *value {
                Ok(())
            } else {
                Err(clip(format!("decoded {back:?}, expected {value:?}")))
            }
        });
    if roundtrip.is_err() && bytes.is_empty() {
        // Nothing to decode: the deserialize loop measures a failing call, never reported.
    }
    let size = if roundtrip.is_ok() || !bytes.is_empty() {
        bytes.len()
    } else {
        0
    };
    let ser = {
        let codec = codec.clone();
        let wire = wire.clone();
        let mut out = Vec::with_capacity(bytes.len().max(64) * 2);
        Box::new(move |n: u64| {
            for _ in 0..n {
                out.clear();
                let r = codec.encode_timed(black_box(&*wire), &mut out);
                black_box(r.is_ok());
                black_box(out.as_slice());
            }
        }) as Runner
    };
    let de = {
        let codec = codec.clone();
        let input = aligned(&bytes);
        Box::new(move |n: u64| {
            for _ in 0..n {
                let r = codec.decode(black_box(input.as_slice()));
                black_box(&r);
            }
        }) as Runner
    };
    Case {
        dataset,
        peer,
        size,
        bytes,
        roundtrip,
        serialize: Some(ser),
        deserialize: de,
    }
}

/// rkyv's validated access alone (the informative [`Peer::RkyvAccess`] row): the deserialize
/// loop is `rkyv::access` of the archive [`RkyvCodec`] writes, and builds no value; the
/// round trip deserializes the accessed archive back. Decode only: its serialize would be
/// [`Peer::RkyvOwned`]'s.
fn rkyv_access_case<T: Dataset>(dataset: &'static str, value: &T) -> Case {
    let mut bytes = Vec::new();
    let roundtrip = value
        .rkyv_write(&mut bytes)
        .map_err(|e| format!("encode: {e}"))
        .map(|()| aligned(&bytes))
        .and_then(|input| {
            let archived = T::rkyv_access(&input).map_err(|e| format!("access: {e}"))?;
            let back = T::rkyv_unarchive(archived).map_err(|e| format!("deserialize: {e}"))?;
            if back == *value {
                Ok(())
            } else {
                Err(clip(format!("decoded {back:?}, expected {value:?}")))
            }
        });
    let input = aligned(&bytes);
    let de = Box::new(move |n: u64| {
        for _ in 0..n {
            let r = T::rkyv_access(black_box(input.as_slice()));
            black_box(&r);
        }
    }) as Runner;
    Case {
        dataset,
        peer: Peer::RkyvAccess,
        size: bytes.len(),
        bytes,
        roundtrip,
        serialize: None,
        deserialize: de,
    }
}

/// The case for one dataset value and one peer.
pub fn case_for<T: Dataset>(
    engines: &Engines,
    dataset: &'static str,
    peer: Peer,
    value: &T,
) -> Case {
    match peer {
        Peer::FuryRs => case(dataset, peer, FuryRsCodec(engines.fury.clone()), value),
        Peer::FuryRsCompatible => case(
            dataset,
            peer,
            FuryRsCodec(engines.fury_compatible.clone()),
            value,
        ),
        Peer::FuryRsRef => case(dataset, peer, FuryRsCodec(engines.fury_ref.clone()), value),
        Peer::Fory => case(dataset, peer, ForyCodec(engines.fory.clone()), value),
        Peer::ForyCompatible => case(
            dataset,
            peer,
            ForyCodec(engines.fory_compatible.clone()),
            value,
        ),
        Peer::Prost => case(dataset, peer, ProstCodec, value),
        Peer::MessagePack => case(dataset, peer, MsgPackCodec, value),
        Peer::Bincode => case(dataset, peer, BincodeCodec, value),
        Peer::Json => case(dataset, peer, JsonCodec, value),
        Peer::PostcardOwned => case(dataset, peer, PostcardCodec, value),
        Peer::BitcodeOwned => case(dataset, peer, BitcodeCodec, value),
        Peer::RkyvOwned => case(dataset, peer, RkyvCodec, value),
        Peer::RkyvAccess => rkyv_access_case(dataset, value),
        Peer::FuryRsBorrowed
        | Peer::FuryRsCompatibleBorrowed
        | Peer::FuryRsValueRef
        | Peer::Postcard
        | Peer::Bitcode
        | Peer::Rkyv => crate::borrowed::unsupported(dataset, peer),
    }
}

/// Dataset names, in table order.
pub const DATASETS: [&str; 15] = [
    "NumericStruct",
    "Sample",
    "MediaContent",
    "NumericStructList",
    "SampleList",
    "MediaContentList",
    "SkillFire",
    "User",
    "CustomerList",
    "UserModelList0",
    "UserModelList1",
    "UserModelList10",
    "UserModelList100",
    "Geometry",
    "GameState",
];

/// Calls `f` with each dataset's name and value (a generic visitor, since the types differ).
pub trait Visit {
    /// Called once per dataset.
    fn visit<T: Dataset>(&mut self, name: &'static str, value: &T);
}

/// Runs `v` over every dataset, in [`DATASETS`] order.
pub fn visit_datasets(v: &mut impl Visit) {
    v.visit(DATASETS[0], &values::numeric_struct(0));
    v.visit(DATASETS[1], &values::sample(0));
    v.visit(DATASETS[2], &values::media_content(0));
    v.visit(DATASETS[3], &values::numeric_struct_list());
    v.visit(DATASETS[4], &values::sample_list());
    v.visit(DATASETS[5], &values::media_content_list());
    v.visit(DATASETS[6], &values::skill_fire());
    v.visit(DATASETS[7], &values::user());
    v.visit(DATASETS[8], &values::customer_list());
    v.visit(DATASETS[9], &values::user_model_list(0));
    v.visit(DATASETS[10], &values::user_model_list(1));
    v.visit(DATASETS[11], &values::user_model_list(10));
    v.visit(DATASETS[12], &values::user_model_list(100));
    v.visit(DATASETS[13], &values::mesh(values::TRIANGLES));
    v.visit(DATASETS[14], &values::game_state(values::ENTITIES));
}

/// Every case: each dataset with each of `peers`.
pub fn all_cases(engines: &Engines, peers: &[Peer]) -> Vec<Case> {
    struct Collect<'a> {
        engines: &'a Engines,
        peers: &'a [Peer],
        out: Vec<Case>,
    }
    impl Visit for Collect<'_> {
        fn visit<T: Dataset>(&mut self, name: &'static str, value: &T) {
            for &p in self.peers {
                self.out.push(case_for(self.engines, name, p, value));
            }
        }
    }
    let mut c = Collect {
        engines,
        peers,
        out: Vec::new(),
    };
    visit_datasets(&mut c);
    c.out
}
