//! Per-call state of one serialize or deserialize call, one file per concern: writing
//! (`write`), reading (`read`), reference ids (`refs`), the type metadata shared in a stream
//! (`shared`) and the per-thread spare state (`pool`). The contexts are defined here, so
//! that each file can reach their fields.

use crate::buffer::{Reader, Writer};
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::TypeDef;
use crate::meta::{EncodedMetaString, MetaStringReadState, MetaStringWriteState, WireMetaString};
use crate::registry::{Registry, RemoteTypeDef, TypeDefCache};
use crate::types::{RefFlag, TypeId};
use std::sync::Arc;

mod pool;
mod read;
mod refs;
mod session;
mod shared;
mod write;

pub(crate) use pool::AnyTarget;
use pool::*;
use refs::ClearCell;
pub use refs::RefSlot;
pub use session::{ReadMeta, WriteMeta, MAX_CONNECTION_META_STRINGS, MAX_CONNECTION_TYPEDEFS};
use shared::*;

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
    config: Config,
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
    config: Config,
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
    /// What the decoder may still allocate in this call (`Config::max_alloc` at the start);
    /// see [`ReadContext::charge`].
    alloc_left: usize,
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
