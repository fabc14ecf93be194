//! The read context's settings, nesting depth, type ids and errors.

use super::spare::take_read_extra;
use super::{Depth, ReadContext, ReadExtra, INLINE_LOCALS, ZERO_SIZE_ALLOWANCE};
use crate::buffer::Reader;
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::MetaStringReadState;
use crate::registry::{Registry, TypeDefCache};
use crate::types::TypeId;

impl<'de, 'r> ReadContext<'de, 'r> {
    /// A context reading `data`.
    pub(crate) fn new(
        data: &'de [u8],
        registry: &'r Registry,
        typedef_cache: &'r TypeDefCache,
        config: &'r Config,
    ) -> Self {
        let alloc_budget = config.alloc_budget(data.len());
        ReadContext {
            reader: Reader::new(data),
            registry,
            config,
            depth: Depth {
                depth: 0,
                max: config.max_depth,
            },
            meta_strings: MetaStringReadState::new(),
            typedef_cache,
            inline_locals: [None; INLINE_LOCALS],
            inline_len: 0,
            extra: None,
            oob: None,
            claimed: 0,
            alloc_left: alloc_budget,
            alloc_budget,
            direct_memo: std::cell::Cell::new(None),
            #[cfg(feature = "bytes")]
            source: None,
            borrowed_copies: std::mem::ManuallyDrop::new(None),
        }
    }

    /// Notes that the input is the content of `source`.
    #[cfg(feature = "bytes")]
    pub(crate) fn set_source(&mut self, source: &'de bytes::Bytes) {
        self.source = Some(source);
    }

    /// `part` (a slice of the input) as a slice of the input's `Bytes`, sharing it; a copy
    /// if the input is not a `Bytes` or `part` lies elsewhere (an out-of-band buffer).
    #[cfg(feature = "bytes")]
    pub(crate) fn bytes_of(&self, part: &[u8]) -> bytes::Bytes {
        match self.source {
            Some(src) if !part.is_empty() && contains(src, part) => src.slice_ref(part),
            _ => bytes::Bytes::copy_from_slice(part),
        }
    }

    /// Accounts for a container of `count` elements (declared at `at`). Every element of
    /// every container starts at a byte of its own (a flag, a type id, a length or a
    /// payload byte), so a valid stream declares at most as many elements in all its
    /// containers together as it has bytes. Holding decoders to that bounds what they
    /// reserve for declared counts by the input's length, however containers nest.
    #[inline]
    pub(crate) fn claim_elements(&mut self, count: usize, at: usize) -> Result<()> {
        self.claim(count, at, 0)
    }

    /// Accounts for a map of `count` pairs (declared at `at`) as `2 x count` elements: a
    /// pair holds two values, and reserving for it costs what two elements cost. Its two
    /// sides take a byte each but in a pair of nulls (one chunk header) or of payloads of
    /// no bytes (empty compatible structs), which valid streams repeat rarely; those get the
    /// slack of [`Self::claim_zero_size_elements`].
    #[inline]
    pub(crate) fn claim_pairs(&mut self, count: usize, at: usize) -> Result<()> {
        self.claim(count.saturating_mul(2), at, ZERO_SIZE_ALLOWANCE)
    }

    /// [`Self::claim_elements`] for a run of bare payloads (one type info, no flags) that
    /// declares more elements than bytes are left: its elements may take no bytes at all
    /// (empty compatible structs). The stream may then declare up to
    /// [`ZERO_SIZE_ALLOWANCE`] elements beyond its length in all, which keeps what a decoder
    /// reserves bounded by the input.
    #[cold]
    pub(crate) fn claim_zero_size_elements(&mut self, count: usize, at: usize) -> Result<()> {
        self.claim(count, at, ZERO_SIZE_ALLOWANCE)
    }

    /// Adds `count` to the elements claimed, failing past the input's length plus `slack`.
    #[inline]
    fn claim(&mut self, count: usize, at: usize, slack: usize) -> Result<()> {
        let claimed = self.claimed.saturating_add(count);
        let limit = self.reader.input_len().saturating_add(slack);
        if claimed > limit {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what: "elements declared by the stream's containers together",
                    declared: claimed as u64,
                    limit: limit as u64,
                },
                at,
            ));
        }
        self.claimed = claimed;
        Ok(())
    }

    /// Counts `bytes` that the decoder is about to reserve against the allocation budget of
    /// this call (`max_alloc`, and the cap relative to the input's length): containers their element count times the element size, boxes, shared
    /// pointers, reference slots and dynamic structs their size. What is only copied out of
    /// the input (text, bytes, dense arrays) is not counted: it is at most twice the input's
    /// length in all, so counting it would cost every string read for nothing a caller
    /// cannot bound by the input's length (`Config::max_alloc`'s contract).
    #[inline]
    pub(crate) fn charge(&mut self, bytes: usize) -> Result<()> {
        match self.alloc_left.checked_sub(bytes) {
            Some(left) => {
                self.alloc_left = left;
                Ok(())
            }
            None => Err(self.alloc_limit(bytes)),
        }
    }

    #[cold]
    #[inline(never)]
    fn alloc_limit(&self, bytes: usize) -> Error {
        let limit = self.alloc_budget;
        let used = limit.saturating_sub(self.alloc_left);
        Error::at(
            ErrorKind::AllocLimit {
                needed: used.saturating_add(bytes) as u64,
                limit: limit as u64,
            },
            self.reader.position(),
        )
    }

    /// Hands the reader the out-of-band buffers of a stream whose header announces them.
    pub(crate) fn set_buffers(&mut self, buffers: &'r [&'de [u8]]) {
        self.oob = Some((buffers, 0));
    }

    /// Whether the stream's header announced out-of-band buffers.
    #[inline]
    pub(crate) fn has_buffers(&self) -> bool {
        self.oob.is_some()
    }

    /// The number of out-of-band buffers given but not taken by the stream.
    pub(crate) fn buffers_left(&self) -> usize {
        self.oob
            .map_or(0, |(list, used)| list.len().saturating_sub(used))
    }

    /// Reads the payload of a BINARY, borrowed from the input or, for one written out of
    /// band, the next out-of-band buffer.
    #[inline]
    pub(crate) fn binary(&mut self) -> Result<&'de [u8]> {
        if let Some((list, used)) = self.oob.as_mut() {
            let at = self.reader.position();
            match self.reader.u8()? {
                1 => {}
                0 => {
                    let Some(&buf) = list.get(*used) else {
                        let given = list.len();
                        return Err(Error::at(
                            ErrorKind::Invalid {
                                what: format!(
                                    "the stream takes out-of-band buffer {} but {given} were given",
                                    *used + 1
                                ),
                            },
                            at,
                        ));
                    };
                    *used += 1;
                    return Ok(buf);
                }
                b => {
                    return Err(Error::at(
                        ErrorKind::Invalid {
                            what: format!(
                                "out-of-band flag of a binary is {b:#04x}, expected 00 or 01"
                            ),
                        },
                        at,
                    ))
                }
            }
        }
        let at = self.reader.position();
        let len = self.reader.var_u32()?;
        let len = self.reader.check_count("binary", u64::from(len), 1, at)?;
        self.reader.bytes(len)
    }

    /// Whether reference tracking is on.
    #[inline]
    pub fn ref_tracking(&self) -> bool {
        self.config.ref_tracking
    }

    /// The general tables, with any inline local TypeDefs moved into them first.
    #[inline]
    pub(super) fn extra_mut(&mut self) -> &mut ReadExtra {
        if self.inline_len > 0 {
            self.spill_inline();
        }
        self.extra.get_or_insert_with(take_read_extra)
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.config.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.config.compatible
    }

    /// Whether a field the peer's schema lacks needs a `#[fury(default)]`.
    #[inline]
    pub fn strict(&self) -> bool {
        self.config.strict
    }

    /// An error of `kind` at the current input offset.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        self.reader.error(kind)
    }

    /// A type-mismatch error: `expected` names what the reader wanted.
    #[cold]
    pub(crate) fn mismatch(&self, expected: &str, found: TypeId) -> Error {
        self.error(ErrorKind::TypeMismatch {
            expected: expected.to_string(),
            found: found.name().to_string(),
        })
    }

    /// Enters one level of nesting (a container or struct body).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        let at = self.reader.position();
        self.depth.enter().map_err(|k| Error::at(k, at))
    }

    /// Leaves one level of nesting.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Reads a one-byte type id of an internal type.
    #[inline]
    pub fn type_id(&mut self) -> Result<TypeId> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        TypeId::parse(b).map_err(|k| Error::at(k, at))
    }
}

/// Whether `part` lies inside `whole`'s memory.
#[cfg(feature = "bytes")]
fn contains(whole: &[u8], part: &[u8]) -> bool {
    let w = whole.as_ptr_range();
    let p = part.as_ptr_range();
    w.start <= p.start && p.end <= w.end
}
