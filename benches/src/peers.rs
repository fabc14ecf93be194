//! The serializers measured ("peers"): one table, the `peer_table!` block below, and the
//! cases the report and the criterion benches run (one per dataset and peer, each with a
//! serialize and a deserialize loop).
//!
//! # How to add a peer
//!
//! 1. Its codec: a type implementing [`Codec`] for every [`Dataset`] (encode into the caller's
//!    buffer, decode from a byte slice), next to the others below. A codec that needs a
//!    registered instance takes it from [`Engines`] (add a field there if none fits); one that
//!    needs a derive the dataset types lack adds it to `dataset_type!` in `src/data.rs`.
//! 2. One row of the table, which makes the [`Peer`] variant: the name the report prints, the
//!    slug of criterion ids and of `probe`'s `ROW`, the chart color, the sections it is in
//!    (`main`: the main tables, the chart, the criterion `datasets` bench; `borrowed`: the
//!    borrowed-decoding section; `threads`: the thread table), whether it is informative (left
//!    out of bold marks, means, worst ratios and the chart), whether it is a fury-rs row (left
//!    out of the worst ratios), the fury-rs row it is compared with, the sentence of the
//!    report's list of peers about it (empty when another row's says it), how its cases are
//!    built, and, optionally, last, `same_bytes: Row` (the row whose bytes it must write,
//!    checked by [`byte_mismatches`]). The cases are built by `codec: |e| TheCodec(..)` for a
//!    [`Codec`], from the [`Engines`] `e`; or, for a row with loops of its own, by
//!    `owned: |e, d, p, v| ..` (a case of the main tables) or `borrowed: |e, d, p, v| ..` (one
//!    of the borrowed-decoding section), from the engines, the dataset name, the peer and the
//!    value.
//!
//! A codec whose peer cannot do some dataset type says so in [`Codec::available`]: the case is
//! then not available (n/a), not a failure. Every section shows its rows in table order. The
//! datasets are in [`crate::datasets`].

use crate::borrowed::{Borrowed, BorrowedEngines};
use crate::data::{visit_types, DatasetType, TypeVisitor};
use crate::table::{count, select};
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use std::hint::black_box;
use std::sync::Arc;

pub use crate::data::Dataset;

peer_table! {
    /// fury-rs, `compatible(false)`: same-schema structs (4-byte schema hash).
    FuryRs {
        name: "fury-rs", slug: "fury_rs", color: "#d62728",
        sections: [main, borrowed, threads], informative: false, fury_rs: true,
        counterpart: FuryRs,
        about: "**fury-rs** (this repository; same-schema `compatible(false)`, `compat` = \
                `compatible(true)`, `ref` = `compatible(false).ref_tracking(true)`)",
        codec: |e| FuryRsCodec(e.fury.clone()),
    }
    /// fury-rs same-schema, decoding into the borrowed mirrors (borrowed-decoding section).
    FuryRsBorrowed {
        name: "fury-rs borrowed", slug: "fury_rs_borrowed", color: "#ff7f0e",
        sections: [borrowed], informative: false, fury_rs: true,
        counterpart: FuryRsBorrowed,
        about: "",
        borrowed: |e, d, p, v| {
            crate::borrowed::fury_case(d, p, &e.owned.fury, e.fury.clone(), v)
        },
    }
    /// fury-rs, `compatible(true)`: TypeDef metadata (schema evolution).
    FuryRsCompatible {
        name: "fury-rs compat", slug: "fury_rs_compatible", color: "#ff9896",
        sections: [main, borrowed], informative: false, fury_rs: true,
        counterpart: FuryRsCompatible,
        about: "",
        codec: |e| FuryRsCodec(e.fury_compatible.clone()),
    }
    /// fury-rs compatible, decoding into the borrowed mirrors (borrowed-decoding section).
    FuryRsCompatibleBorrowed {
        name: "fury-rs compat borrowed", slug: "fury_rs_compatible_borrowed", color: "#ffbb78",
        sections: [borrowed], informative: false, fury_rs: true,
        counterpart: FuryRsCompatibleBorrowed,
        about: "",
        borrowed: |e, d, p, v| {
            crate::borrowed::fury_case(
                d,
                p,
                &e.owned.fury_compatible,
                e.fury_compatible.clone(),
                v,
            )
        },
    }
    /// fury-rs compatible, decoding into a dynamic `fury::ValueRef` with no type registered
    /// (borrowed-decoding section).
    FuryRsValueRef {
        name: "fury-rs ValueRef (borrowed dynamic)", slug: "fury_rs_value_ref", color: "#c49c94",
        sections: [borrowed], informative: false, fury_rs: true,
        counterpart: FuryRsValueRef,
        about: "",
        borrowed: |e, d, p, v| crate::borrowed::value_ref_case(d, &e.owned.fury_compatible, v),
    }
    /// fury-rs, `compatible(false).ref_tracking(true)`.
    FuryRsRef {
        name: "fury-rs ref", slug: "fury_rs_ref", color: "#8c564b",
        sections: [main], informative: false, fury_rs: true,
        counterpart: FuryRs,
        about: "",
        codec: |e| FuryRsCodec(e.fury_ref.clone()),
    }
    /// fury-rs same-schema through the types' serde derives (`fury::serde::Serde`).
    FuryRsSerde {
        name: "fury-rs serde", slug: "fury_rs_serde", color: "#e7969c",
        sections: [main], informative: false, fury_rs: true,
        counterpart: FuryRs,
        about: "**fury-rs serde** (the same types through their serde derives, \
                `fury::serde::Serde` on types registered by `register_serde_by_id`; same-schema \
                and `compat`; the same bytes as fury-rs in the same mode, but on SkillFire, where \
                a field is serde-renamed; n/a where the serde path refuses a type)",
        codec: |e| FuryRsSerdeCodec(e.fury_serde.clone()),
        same_bytes: FuryRs,
    }
    /// fury-rs compatible through the types' serde derives.
    FuryRsSerdeCompatible {
        name: "fury-rs serde compat", slug: "fury_rs_serde_compatible", color: "#ad494a",
        sections: [main], informative: false, fury_rs: true,
        counterpart: FuryRsCompatible,
        about: "",
        codec: |e| FuryRsSerdeCodec(e.fury_serde_compatible.clone()),
        same_bytes: FuryRsCompatible,
    }
    /// The official `fory` crate 1.7.7, xlang, `compatible(false)`.
    Fory {
        name: "fory 1.7.7", slug: "fory", color: "#1f77b4",
        sections: [main, borrowed, threads], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**fory 1.7.7** (the official crate, xlang, same-schema and compatible)",
        codec: |e| ForyCodec(e.fory.clone()),
    }
    /// The official `fory` crate 1.7.7, xlang, `compatible(true)`.
    ForyCompatible {
        name: "fory 1.7.7 compat", slug: "fory_compatible", color: "#9ecae1",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRsCompatible,
        about: "",
        codec: |e| ForyCodec(e.fory_compatible.clone()),
    }
    /// Protobuf via prost (hand-written messages).
    Prost {
        name: "prost", slug: "prost", color: "#2ca02c",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**prost** (protobuf)",
        codec: |e| ProstCodec,
    }
    /// MessagePack via rmp-serde, structs as maps (`to_vec_named`).
    MessagePack {
        name: "rmp-serde", slug: "rmp_serde", color: "#9467bd",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**rmp-serde** (MessagePack, structs as maps)",
        codec: |e| MsgPackCodec,
    }
    /// bincode 1.3 with its default options (the report's 1× line).
    Bincode {
        name: "bincode", slug: "bincode", color: "#7f7f7f",
        sections: [main, threads], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**bincode** 1.3",
        codec: |e| BincodeCodec,
    }
    /// postcard 1 into the owned types (`postcard::from_bytes`).
    PostcardOwned {
        name: "postcard", slug: "postcard_owned", color: "#17becf",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**postcard** 1 (serializing into the reused `Vec<u8>` through a flavor of its \
                own, `postcard::from_bytes`)",
        codec: |e| PostcardCodec,
    }
    /// bitcode 0.6 into the owned types, through a reused `bitcode::Buffer`.
    BitcodeOwned {
        name: "bitcode", slug: "bitcode_owned", color: "#e377c2",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**bitcode** 0.6 (derived `Encode`/`Decode`; `Buffer::encode` and \
                `Buffer::decode` on a reused `bitcode::Buffer`, one per thread, as bitcode \
                advises; its serialize ends with the bytes in that buffer, where its API puts \
                them, as the others' end in the reused `Vec<u8>`)",
        codec: |e| BitcodeCodec,
    }
    /// rkyv 0.8 into the owned types: validated access, then `rkyv::deserialize`
    /// (`rkyv::from_bytes`).
    RkyvOwned {
        name: "rkyv", slug: "rkyv_owned", color: "#393b79",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**rkyv** 0.8 (the archive written into the reused `Vec<u8>` by `to_bytes_in`; \
                deserialize is `rkyv::from_bytes`: bytecheck validation, then \
                `rkyv::deserialize` into the owned type)",
        codec: |e| RkyvCodec,
    }
    /// serde_json.
    Json {
        name: "serde_json", slug: "serde_json", color: "#bcbd22",
        sections: [main], informative: false, fury_rs: false,
        counterpart: FuryRs,
        about: "**serde_json**",
        codec: |e| JsonCodec,
    }
    /// rkyv 0.8 validated access only (`rkyv::access`), an informative row of the main tables:
    /// it builds no owned value, so it is not compared with the decoders that do. The same
    /// operation as [`Peer::Rkyv`] of the borrowed-decoding section, on the main datasets.
    RkyvAccess {
        name: "rkyv access", slug: "rkyv_access", color: "#9c9ede",
        sections: [main], informative: true, fury_rs: false,
        counterpart: FuryRs,
        about: "**rkyv access** (informative) is `rkyv::access` alone, the validated access to \
                the archive: it builds no owned value, so it is not set in bold, left out of the \
                geometric means, the worst ratios and the chart, and only deserialize is timed \
                (its serialize is rkyv's).",
        owned: |e, d, p, v| rkyv_access_case(d, v),
    }
    /// postcard 1 into the serde borrowed mirrors (borrowed-decoding section).
    Postcard {
        name: "postcard borrowed", slug: "postcard", color: "#17becf",
        sections: [borrowed], informative: false, fury_rs: false,
        counterpart: FuryRsBorrowed,
        about: "",
        borrowed: |e, d, p, v| crate::borrowed::postcard_case(d, v),
    }
    /// bitcode 0.6 into the borrowed mirrors (borrowed-decoding section).
    Bitcode {
        name: "bitcode borrowed", slug: "bitcode", color: "#e377c2",
        sections: [borrowed], informative: false, fury_rs: false,
        counterpart: FuryRsBorrowed,
        about: "",
        borrowed: |e, d, p, v| crate::borrowed::bitcode_case(d, v),
    }
    /// rkyv 0.8 validated access (`rkyv::access`; borrowed-decoding section).
    Rkyv {
        name: "rkyv validated access", slug: "rkyv", color: "#393b79",
        sections: [borrowed], informative: false, fury_rs: false,
        counterpart: FuryRsBorrowed,
        about: "",
        borrowed: |e, d, p, v| crate::borrowed::rkyv_case(d, v),
    }
}

/// One row of the peer table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerRow {
    /// The peer.
    pub peer: Peer,
    /// Short display name.
    pub name: &'static str,
    /// A name usable in criterion ids, file names and `probe`'s `ROW`. The borrowed-decoding
    /// section's postcard, bitcode and rkyv rows came first and keep the bare names; the main
    /// tables' rows of the same libraries are `*_owned` and `rkyv_access`.
    pub slug: &'static str,
    /// Bar color in the charts (the owned and borrowed rows of one library share theirs).
    pub color: &'static str,
    /// The sections the row is in.
    pub sections: Sections,
    /// An informative row of the main tables: it does not build the owned value, so it is left
    /// out of the fastest-in-bold marks, the geometric means, the worst ratios and the chart.
    pub informative: bool,
    /// A fury-rs row: left out of the worst fury-rs/peer ratios.
    pub fury_rs: bool,
    /// The fury-rs row this one is compared with in the `fury-rs/peer` columns (itself for the
    /// rows the others are compared with).
    pub counterpart: Peer,
    /// Its part of the report's list of peers (markdown; empty when another row's covers it;
    /// an informative row's is a sentence of its own, after the list).
    pub about: &'static str,
    /// The row whose bytes this one must equal on every dataset both do ([`byte_mismatches`]).
    pub same_bytes: Option<Peer>,
}

/// The sections a peer is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sections {
    /// The main tables, the chart and the criterion `datasets` bench ([`Peer::ALL`]).
    pub main: bool,
    /// The borrowed-decoding section ([`Peer::BORROWED`]).
    pub borrowed: bool,
    /// The thread table ([`Peer::THREADS`]; the row needs a `codec`).
    pub threads: bool,
}

impl Sections {
    /// In no section (what a row's list of sections starts from).
    const NONE: Sections = Sections {
        main: false,
        borrowed: false,
        threads: false,
    };
}

impl Peer {
    /// The peers of the main tables, in table order (the informative rows last).
    pub const ALL: [Peer; count(IN_MAIN)] = select(ORDER, IN_MAIN, Peer::FuryRs);

    /// The rows of the borrowed-decoding section, in table order.
    pub const BORROWED: [Peer; count(IN_BORROWED)] = select(ORDER, IN_BORROWED, Peer::FuryRs);

    /// The peers of the thread table: fury-rs, the official crate, and bincode (stateless) as
    /// the machine's own scaling baseline.
    pub const THREADS: [Peer; count(IN_THREADS)] = select(ORDER, IN_THREADS, Peer::FuryRs);

    /// The peer's row of the table.
    pub const fn row(self) -> &'static PeerRow {
        &PEERS[self as usize]
    }

    /// Short display name.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// A name usable in criterion ids and file names ([`PeerRow::slug`]).
    pub fn slug(self) -> &'static str {
        self.row().slug
    }

    /// Bar color in the charts.
    pub fn color(self) -> &'static str {
        self.row().color
    }

    /// An informative row of the main tables ([`PeerRow::informative`]).
    pub fn informative(self) -> bool {
        self.row().informative
    }

    /// The fury-rs mode this peer is compared with in the `fury-rs/peer` column.
    pub fn fury_counterpart(self) -> Peer {
        self.row().counterpart
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
    /// `Err(why)` when the peer cannot do `T` at all: the case is not available (n/a in the
    /// report), which is not a round-trip failure.
    fn available(&self) -> Result<(), String> {
        Ok(())
    }
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

/// What is done with a peer's codec, whichever it is ([`with_codec`]): the codec types differ,
/// so the work is a generic method.
pub trait WithCodec<T: Dataset> {
    /// What the work gives.
    type Out;
    /// Does the work with `codec`.
    fn with<C: Codec<T>>(self, codec: C) -> Self::Out;
}

/// fury-rs.
pub struct FuryRsCodec(pub Arc<fury::Fury>);
/// fury-rs through serde's traits: the value wrapped in `fury::serde::Serde`.
pub struct FuryRsSerdeCodec(pub Arc<SerdeFury>);
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

impl<T: Dataset> Codec<T> for FuryRsSerdeCodec {
    type Error = fury::Error;
    type Wire = T;
    fn available(&self) -> Result<(), String> {
        self.0.available::<T>()
    }
    fn wire(&self, value: &T) -> T {
        value.clone()
    }
    fn back(&self, wire: T) -> Result<T, String> {
        Ok(wire)
    }
    #[inline]
    fn encode(&self, wire: &T, out: &mut Vec<u8>) -> Result<(), String> {
        self.0
            .fury
            .serialize_into(&fury::serde::Serde(wire), out)
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, bytes: &[u8]) -> Result<T, Self::Error> {
        self.0
            .fury
            .deserialize::<fury::serde::Serde<T>>(bytes)
            .map(|v| v.0)
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

/// A fury-rs instance with every dataset type registered (by the ids of their attributes).
pub fn fury_rs(compatible: bool, ref_tracking: bool) -> fury::Fury {
    struct Register(fury::Fury);
    impl TypeVisitor for Register {
        fn visit<T: DatasetType>(&mut self) {
            self.0
                .register::<T>()
                .unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));
        }
    }
    let mut r = Register(
        fury::Fury::builder()
            .compatible(compatible)
            .ref_tracking(ref_tracking)
            .build(),
    );
    visit_types(&mut r);
    r.0
}

/// A fury-rs instance with the dataset types registered through their serde derives
/// (`register_serde_by_id`, the ids of their `#[fury(id = ..)]`), and the types the serde path
/// refused.
pub struct SerdeFury {
    /// The instance.
    pub fury: fury::Fury,
    /// Each refused type's name, with the registration's error.
    pub refused: Vec<(&'static str, String)>,
}

impl SerdeFury {
    /// Registers every dataset type it can, in declaration order (nested types first).
    pub fn new(compatible: bool) -> Self {
        let mut r = SerdeFury {
            fury: fury::Fury::builder().compatible(compatible).build(),
            refused: Vec::new(),
        };
        visit_types(&mut r);
        r
    }

    /// `Err(why)` when registering `T` failed.
    pub fn available<T: 'static>(&self) -> Result<(), String> {
        let name = std::any::type_name::<T>();
        match self.refused.iter().find(|(n, _)| *n == name) {
            Some((_, e)) => Err(format!("the serde path refuses it: {e}")),
            None => Ok(()),
        }
    }
}

impl TypeVisitor for SerdeFury {
    fn visit<T: DatasetType>(&mut self) {
        if let Err(e) = self.fury.register_serde_by_id::<T>(type_id_of::<T>()) {
            self.refused
                .push((std::any::type_name::<T>(), e.to_string()));
        }
    }
}

/// An official `fory` instance (xlang) with every dataset type registered under the same ids
/// as in fury-rs.
pub fn fory(compatible: bool) -> fory::Fory {
    struct Register(fory::Fory);
    impl TypeVisitor for Register {
        fn visit<T: DatasetType>(&mut self) {
            self.0
                .register::<T>(type_id_of::<T>())
                .unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));
        }
    }
    let mut r = Register(
        fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .build(),
    );
    visit_types(&mut r);
    r.0
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
    /// fury-rs through serde's traits, same-schema.
    pub fury_serde: Arc<SerdeFury>,
    /// fury-rs through serde's traits, compatible.
    pub fury_serde_compatible: Arc<SerdeFury>,
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
            fury_serde: Arc::new(SerdeFury::new(false)),
            fury_serde_compatible: Arc::new(SerdeFury::new(true)),
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
    /// `Some(why)` when the peer cannot do the dataset at all ([`Codec::available`]): no
    /// loops run, the report shows n/a, and `roundtrip` holds the same reason.
    pub unavailable: Option<String>,
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
    if let Err(why) = codec.available() {
        return Case {
            dataset,
            peer,
            size: 0,
            bytes: Vec::new(),
            roundtrip: Err(why.clone()),
            unavailable: Some(why),
            serialize: None,
            deserialize: Box::new(|_| {}),
        };
    }
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
        unavailable: None,
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
        unavailable: None,
        serialize: None,
        deserialize: de,
    }
}

/// Every case: each dataset with each of `peers`.
pub fn all_cases(engines: &Engines, peers: &[Peer]) -> Vec<Case> {
    struct Collect<'a> {
        engines: &'a Engines,
        peers: &'a [Peer],
        out: Vec<Case>,
    }
    impl crate::datasets::Visit for Collect<'_> {
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
    crate::datasets::visit_datasets(&mut c);
    c.out
}

/// The datasets on which a `same_bytes` row is known to write other bytes, and why: reported
/// by [`byte_mismatches`] like any other difference, but not a failure.
pub const EXPECTED_BYTE_DIFFERENCES: &[(&str, &str)] = &[(
    "SkillFire",
    "HarmDto's field `harm_type` is `#[serde(rename = \"type\")]`: the serde path writes \
     serde's name, `type`, the derive the Rust one (so another field order, schema hash and \
     TypeDef)",
)];

/// Why the bytes of `dataset` may differ from those of a `same_bytes` row
/// ([`EXPECTED_BYTE_DIFFERENCES`]).
pub fn expected_byte_difference(dataset: &str) -> Option<&'static str> {
    EXPECTED_BYTE_DIFFERENCES
        .iter()
        .find(|(d, _)| *d == dataset)
        .map(|(_, why)| *why)
}

/// The cases whose bytes differ from those of their row's [`PeerRow::same_bytes`] row on the
/// same dataset (both round-tripped), each with where: the first differing offset, both
/// lengths, and the bytes around it.
pub fn byte_mismatches(cases: &[Case]) -> Vec<(&'static str, Peer, String)> {
    let mut out = Vec::new();
    for c in cases.iter().filter(|c| c.roundtrip.is_ok()) {
        let Some(twin) = c.peer.row().same_bytes else {
            continue;
        };
        let Some(t) = cases
            .iter()
            .find(|t| t.dataset == c.dataset && t.peer == twin && t.roundtrip.is_ok())
        else {
            continue;
        };
        if let Some(at) = first_difference(&c.bytes, &t.bytes) {
            out.push((
                c.dataset,
                c.peer,
                format!(
                    "bytes differ from {}'s at offset {at} (lengths {} and {}): {} vs {}",
                    twin.name(),
                    c.bytes.len(),
                    t.bytes.len(),
                    hex_around(&c.bytes, at),
                    hex_around(&t.bytes, at),
                ),
            ));
        }
    }
    out
}

/// The first offset where `a` and `b` differ (the shorter length when one is a prefix).
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

/// The bytes from 8 before `at` to 8 after, in hex, `at`'s in brackets.
fn hex_around(bytes: &[u8], at: usize) -> String {
    let lo = at.saturating_sub(8);
    let hi = (at + 9).min(bytes.len());
    let mut s = format!("@{lo}:");
    for (i, b) in bytes[lo..hi].iter().enumerate() {
        if lo + i == at {
            s.push_str(&format!(" [{b:02x}]"));
        } else {
            s.push_str(&format!(" {b:02x}"));
        }
    }
    if at >= bytes.len() {
        s.push_str(" [end]");
    }
    s
}

// ---------------------------------------------------------------------------------------------
// The table's macro
// ---------------------------------------------------------------------------------------------

/// The peer table: makes [`Peer`] (one variant per row, in table order), [`PEERS`] (the rows),
/// [`case_for`] and [`borrowed_case`] (each row's cases) and [`with_codec`] (each `codec` row's
/// codec).
macro_rules! peer_table {
    ($(
        $(#[$doc:meta])*
        $peer:ident {
            name: $name:literal,
            slug: $slug:literal,
            color: $color:literal,
            sections: [$($section:ident),* $(,)?],
            informative: $informative:literal,
            fury_rs: $fury_rs:literal,
            counterpart: $counterpart:ident,
            about: $about:literal,
            $kind:ident: |$($arg:ident),*| $build:expr,
            $(same_bytes: $same:ident,)?
        }
    )*) => {
        /// Every serializer in the comparison: the rows of [`PEERS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Peer {
            $($(#[$doc])* $peer,)*
        }

        /// The peer table, one row per [`Peer`], in the same order.
        pub const PEERS: &[PeerRow] = &[$(
            PeerRow {
                peer: Peer::$peer,
                name: $name,
                slug: $slug,
                color: $color,
                sections: peer_sections!($($section),*),
                informative: $informative,
                fury_rs: $fury_rs,
                counterpart: Peer::$counterpart,
                about: $about,
                same_bytes: peer_same_bytes!($($same)?),
            },
        )*];

        /// The peers, in table order.
        const ORDER: &[Peer] = &[$(Peer::$peer),*];

        /// Which rows are in each section.
        const IN_MAIN: &[bool] = &[$(peer_sections!($($section),*).main),*];
        const IN_BORROWED: &[bool] = &[$(peer_sections!($($section),*).borrowed),*];
        const IN_THREADS: &[bool] = &[$(peer_sections!($($section),*).threads),*];

        /// The case of the main tables for one dataset value and one peer (a row of the
        /// borrowed-decoding section only gives a case that fails its round trip).
        pub fn case_for<T: Dataset>(
            engines: &Engines,
            dataset: &'static str,
            peer: Peer,
            value: &T,
        ) -> Case {
            match peer {
                $(Peer::$peer => {
                    peer_build!(main $kind |$($arg),*| $build; engines, dataset, peer, value)
                })*
            }
        }

        /// The case of the borrowed-decoding section for one dataset value and one row (the
        /// main tables' case for a row that is not one of the section's own).
        pub fn borrowed_case<T: Borrowed>(
            engines: &BorrowedEngines,
            dataset: &'static str,
            peer: Peer,
            value: &T,
        ) -> Case {
            match peer {
                $(Peer::$peer => {
                    peer_build!(borrowed $kind |$($arg),*| $build; engines, dataset, peer, value)
                })*
            }
        }

        /// Hands `w` the codec of `peer` (`Err(w)` for a row without one).
        pub fn with_codec<T: Dataset, W: WithCodec<T>>(
            engines: &Engines,
            peer: Peer,
            w: W,
        ) -> Result<W::Out, W> {
            match peer {
                $(Peer::$peer => peer_build!(codec $kind |$($arg),*| $build; engines, w),)*
            }
        }
    };
}
use peer_table;

/// The sections of a row.
macro_rules! peer_sections {
    ($($section:ident),*) => {{
        let mut sections = Sections::NONE;
        $(sections.$section = true;)*
        sections
    }};
}
use peer_sections;

/// A row's `same_bytes`, `None` when it gives none.
macro_rules! peer_same_bytes {
    () => {
        None
    };
    ($same:ident) => {
        Some(Peer::$same)
    };
}
use peer_same_bytes;

/// One row's builder in one of the functions `peer_table!` makes.
macro_rules! peer_build {
    // `case_for`.
    (main codec |$e:ident| $make:expr; $en:ident, $d:ident, $p:ident, $v:ident) => {{
        #[allow(unused_variables)]
        let $e: &Engines = $en;
        case($d, $p, $make, $v)
    }};
    (main owned |$e:ident, $dd:ident, $pp:ident, $vv:ident| $body:expr;
     $en:ident, $d:ident, $p:ident, $v:ident) => {{
        #[allow(unused_variables)]
        let ($e, $dd, $pp, $vv): (&Engines, &'static str, Peer, &T) = ($en, $d, $p, $v);
        $body
    }};
    (main borrowed |$($a:ident),*| $body:expr; $en:ident, $d:ident, $p:ident, $v:ident) => {
        crate::borrowed::unsupported($d, $p)
    };
    // `borrowed_case`.
    (borrowed borrowed |$e:ident, $dd:ident, $pp:ident, $vv:ident| $body:expr;
     $en:ident, $d:ident, $p:ident, $v:ident) => {{
        #[allow(unused_variables)]
        let ($e, $dd, $pp, $vv): (&BorrowedEngines, &'static str, Peer, &T) = ($en, $d, $p, $v);
        $body
    }};
    (borrowed $kind:ident |$($a:ident),*| $body:expr; $en:ident, $d:ident, $p:ident, $v:ident) => {
        case_for(&$en.owned, $d, $p, $v)
    };
    // `with_codec`.
    (codec codec |$e:ident| $make:expr; $en:ident, $w:ident) => {{
        #[allow(unused_variables)]
        let $e: &Engines = $en;
        Ok($w.with($make))
    }};
    (codec $kind:ident |$($a:ident),*| $body:expr; $en:ident, $w:ident) => {
        Err($w)
    };
}
use peer_build;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_variant_order() {
        for (i, row) in PEERS.iter().enumerate() {
            assert_eq!(row.peer as usize, i, "{:?}", row.peer);
            assert_eq!(row.peer.row(), row);
        }
    }

    #[test]
    fn the_sections_follow_the_table() {
        assert_eq!(Peer::ALL.len(), 15);
        assert_eq!(Peer::ALL[0], Peer::FuryRs);
        assert_eq!(Peer::ALL[14], Peer::RkyvAccess);
        assert!(Peer::ALL.iter().all(|p| p.row().sections.main));
        assert_eq!(
            Peer::BORROWED,
            [
                Peer::FuryRs,
                Peer::FuryRsBorrowed,
                Peer::FuryRsCompatible,
                Peer::FuryRsCompatibleBorrowed,
                Peer::FuryRsValueRef,
                Peer::Fory,
                Peer::Postcard,
                Peer::Bitcode,
                Peer::Rkyv,
            ]
        );
        assert_eq!(Peer::THREADS, [Peer::FuryRs, Peer::Fory, Peer::Bincode]);
    }

    #[test]
    fn names_and_slugs_are_unique() {
        for (i, a) in PEERS.iter().enumerate() {
            for b in &PEERS[..i] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.slug, b.slug);
            }
        }
    }

    #[test]
    fn every_thread_peer_has_a_codec() {
        struct Name;
        impl<T: Dataset> WithCodec<T> for Name {
            type Out = ();
            fn with<C: Codec<T>>(self, _: C) {}
        }
        let engines = Engines::new();
        for p in Peer::THREADS {
            assert!(
                with_codec::<crate::data::User, _>(&engines, p, Name).is_ok(),
                "{p:?}"
            );
        }
        assert!(with_codec::<crate::data::User, _>(&engines, Peer::RkyvAccess, Name).is_err());
    }
}
