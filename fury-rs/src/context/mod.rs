//! Per-call state of one serialize or deserialize call, one file per concern: writing
//! (`write`), reading (`read`), reference ids (`refs`), the type metadata shared in a stream
//! (`shared`) and the per-thread spare state (`pool`). The contexts are defined here, so
//! that each file can reach their fields.

use crate::buffer::{Reader, Writer};
use crate::config::Config;
use crate::error::ErrorKind;
use crate::meta::{MetaStringReadState, MetaStringWriteState};
use crate::registry::{Registry, RemoteTypeDef, TypeDefCache};
use crate::types::TypeId;
use std::sync::Arc;

mod connection;
mod meta_share;
mod read;
mod refs;
mod spare;
mod write;

pub use connection::{
    ReadMeta, WriteMeta, DEFAULT_CONNECTION_TYPEDEF_BYTES, MAX_CONNECTION_META_STRINGS,
    MAX_CONNECTION_TYPEDEFS,
};

/// How many elements beyond its length a stream may declare in runs of payloads that take no
/// bytes (lists of empty compatible structs); see `ReadContext::claim_zero_size_elements`.
pub(crate) const ZERO_SIZE_ALLOWANCE: usize = 256;

/// Counts nesting levels against a limit, so that deep input is an error and not a stack
/// overflow.
struct Depth {
    depth: u32,
    max: u32,
}

impl Depth {
    #[inline]
    fn enter(&mut self) -> std::result::Result<(), ErrorKind> {
        if self.depth >= self.max {
            return Err(ErrorKind::DepthLimit { limit: self.max });
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// State of one serialize call: the output, the registry and the nesting depth.
pub struct WriteContext<'a> {
    /// Output bytes.
    pub writer: Writer<'a>,
    registry: &'a Registry,
    /// The instance's settings, borrowed: nothing to copy per call.
    config: &'a Config,
    depth: Depth,
    /// Registry indices of the types shared so far in this stream (meta share), in order:
    /// the first `SHARED_INLINE` here, the others in the extra state.
    shared_types: [u32; SHARED_INLINE],
    shared_len: u32,
    next_ref: u32,
    extra: Option<Box<WriteExtra>>,
    /// Where BINARY payloads may go out of band (`Fury::serialize_with_buffers`); `None`
    /// for an in-band stream.
    pub(crate) oob: Option<&'a mut dyn OutOfBand>,
    /// The last struct type written on the direct path in compatible mode, with its kind
    /// byte and one-byte meta-share marker (stable for the rest of the stream), so that runs
    /// of one nested type skip the registry and the marker search.
    pub(crate) direct_memo: Option<(std::any::TypeId, u8, u8)>,
    /// Set around a `#[fury(untracked_elements)]` field: the next list or map written (the
    /// field's own) gives its elements no reference flags.
    pub(crate) untracked_elements: bool,
}

/// See `ReadContext::borrowed_copies`.
#[derive(Default)]
struct BorrowedCopies<'de>(Vec<crate::value::ValueRef<'de>>);

/// The writer's side of out-of-band buffers: asked for every BINARY payload of a stream
/// whose header announces them.
pub(crate) trait OutOfBand {
    /// Whether `bytes` go out of band (and were taken as the next buffer); false to write
    /// them in band.
    fn take(&mut self, bytes: &[u8]) -> bool;
}

/// State of one deserialize call: the input, the registry and the nesting depth.
pub struct ReadContext<'de, 'r> {
    /// Input bytes.
    pub reader: Reader<'de>,
    registry: &'r Registry,
    /// The instance's settings, borrowed: nothing to copy per call.
    config: &'r Config,
    depth: Depth,
    /// Meta strings borrow the input or, on a connection sharing metadata, the `ReadMeta`'s
    /// strings of earlier messages, which live for `'r` (shorter than `'de`).
    meta_strings: MetaStringReadState<'r>,
    typedef_cache: &'r TypeDefCache,
    /// The TypeDefs announced so far, while all are local ones (indices `0..inline_len`);
    /// moved into `extra` as soon as anything else is needed.
    inline_locals: [Option<InlineLocal>; INLINE_LOCALS],
    inline_len: u8,
    extra: Option<Box<ReadExtra>>,
    /// The out-of-band buffers of a stream whose header announces them, and how many of them
    /// were taken; `None` for an in-band stream.
    oob: Option<(&'r [&'de [u8]], usize)>,
    /// Elements (list, set and map entries) declared so far by the containers of this
    /// stream; see [`ReadContext::claim_elements`].
    claimed: usize,
    /// What the decoder may still allocate in this call (`Config::alloc_budget` of the
    /// input's length at the start); see [`ReadContext::charge`].
    alloc_left: usize,
    /// `alloc_left` at the start, for the error that reports it.
    alloc_budget: usize,
    /// The last (type, two-byte type info) that the direct path found to name the type's
    /// own TypeDef in this stream: a back reference keeps its meaning for the whole stream.
    direct_memo: std::cell::Cell<Option<(std::any::TypeId, u16)>>,
    /// The `Bytes` the input is a view of (`Fury::deserialize_bytes`), so that `Bytes`
    /// values can be slices of it.
    #[cfg(feature = "bytes")]
    source: Option<&'de bytes::Bytes>,
    /// The copies of borrowed dynamic values kept for back references (`RefSlot::Borrowed`):
    /// they borrow from the input, so they cannot live in the type-erased slots. Boxed, and
    /// made on first use; `Drop` empties it (out of line), so that a decode that made none
    /// pays one pointer to set and test.
    borrowed_copies: std::mem::ManuallyDrop<Option<Box<BorrowedCopies<'de>>>>,
}

/// Empties the placeholder cell a slot holds (see `ReadContext::break_cycles`).
type ClearCell = fn(&RefSlot);

/// What a reference id stands for while reading.
pub enum RefSlot {
    /// Reserved; the value is still being read.
    Pending,
    /// A value that cannot be shared in Rust (a back reference to it is an error).
    Plain,
    /// An `Rc` (type-erased).
    Rc(std::rc::Rc<dyn std::any::Any>),
    /// A node of a dynamic `Value` stream: its id in the numbering the writer gives such a
    /// value (see `Value`'s reader), which is what `Value::Ref` holds.
    Node(u32),
    /// An `Arc` (type-erased).
    Arc(Arc<dyn std::any::Any + Send + Sync>),
    /// A copy of a borrowed dynamic value (`ValueRef`) that the writer gives no id, kept for
    /// the back references to it: its index among the context's borrowed copies.
    Borrowed(usize),
}

/// Write state that only some streams need (named types, shared pointers, dynamic values).
#[derive(Default)]
struct WriteExtra {
    meta_strings: MetaStringWriteState,
    seen: std::collections::HashMap<usize, u32>,
    ref_types: Vec<u8>,
    /// Registry indices of the shared types after the first `SHARED_INLINE` of a stream.
    shared_more: Vec<u32>,
    /// Headers of the TypeDefs shared in this stream that no registry entry owns (those of
    /// `Value::Struct`s read from a peer), by their synthetic index `u32::MAX - position`.
    dynamic_defs: Vec<u64>,
}

/// Read state that only some streams need (TypeDefs, reference ids).
#[derive(Default)]
struct ReadExtra {
    typedefs: Vec<SharedDef>,
    current: Vec<CurrentDef>,
    refs: Vec<RefSlot>,
    /// Slots holding a placeholder cell, with the function that empties it (see
    /// `ReadContext::break_cycles`).
    placeholders: Vec<(usize, ClearCell)>,
    /// With tracking on, the back references of dynamic `Value`s are renumbered as the
    /// writer numbers them (`canon`: ids so far in that numbering; `slot_canon`: the id in it
    /// of each slot a static type's reader took, `u32::MAX` for the others; `canon_root`: the
    /// root is a `Value` not yet read; `count`: whether the writer gives the next value an
    /// id, when its position decides that rather than its kind -- the present side of a null
    /// map pair, a declared struct field).
    canon: u32,
    slot_canon: Vec<u32>,
    canon_root: bool,
    /// Bytes of `Value` copies made so far for back references to values the writer gives
    /// no id (see `ReadContext::copy_allowance`).
    copied: std::cell::Cell<usize>,
    count: Option<bool>,
    /// The user type the last dynamic type info named, for the payloads that follow it (one
    /// type info may serve a run of list elements): as a `Value` keeps it, or as the
    /// registered type a `dyn AnyObject` reads.
    last_user_type: LastUserType,
}

/// What [`ReadExtra::last_user_type`] holds.
#[derive(Default)]
enum LastUserType {
    #[default]
    None,
    Value(crate::value::DynType),
    Any(AnyTarget),
}

/// The registered type a `dyn AnyObject` type info named: its registry position, and for a
/// compatible struct the TypeDef its bodies follow.
#[derive(Clone)]
pub(crate) struct AnyTarget {
    /// The kind byte of the type info.
    pub(crate) kind: TypeId,
    /// The registry position of the type.
    pub(crate) entry: u32,
    /// The TypeDef of a compatible struct's bodies.
    pub(crate) def: Option<Arc<RemoteTypeDef>>,
}

/// The TypeDef that bodies of one local type currently follow, with the read plan resolved
/// for it (so a list of structs resolves its plan once, not per element).
struct CurrentDef {
    key: std::any::TypeId,
    /// `None`: the local TypeDef itself (the body is read as the local schema).
    def: Option<Arc<RemoteTypeDef>>,
    plan: Option<(bool, Option<Arc<crate::registry::plan::ReadPlan>>)>,
}

/// A local TypeDef announced by the stream, kept inline while every TypeDef announced so far
/// is a local one (the common case): no allocation and no per-thread state for it.
#[derive(Clone, Copy)]
struct InlineLocal {
    key: std::any::TypeId,
    entry: u32,
    compress_int: bool,
}

/// How many local TypeDefs are kept inline before moving to the general tables.
const INLINE_LOCALS: usize = 4;

/// A TypeDef announced in the stream (by its index of announcement).
enum SharedDef {
    /// Byte for byte the local TypeDef of registry entry `entry` under `compress_int`: found
    /// by comparing bytes, without parsing or a cache lookup.
    Local { entry: u32, compress_int: bool },
    /// Any other, parsed or taken from the instance's cache.
    Remote(Arc<RemoteTypeDef>),
}

/// Shared types (meta share) a write context tracks inline, before its extra state.
const SHARED_INLINE: usize = 8;
