//! Type metadata shared across the messages of one connection (one direction each): the
//! meta-share numbering of a stream carried on into the next stream, so that each TypeDef
//! crosses the connection once.

use super::spare::take_write_extra;
use super::{ReadContext, SharedDef, WriteContext, SHARED_INLINE};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::{EncodedMetaString, MetaStringWriteState};

/// The most TypeDefs a [`ReadMeta`] keeps: a peer announcing more is refused, so that a
/// hostile connection cannot grow it without bound.
pub const MAX_CONNECTION_TYPEDEFS: usize = 4096;

/// The most heap bytes the TypeDefs a [`ReadMeta`] keeps may take, unless
/// [`ReadMeta::with_typedef_budget`] sets another budget: a message announcing more is
/// refused, and the connection keeps what it held before it.
pub const DEFAULT_CONNECTION_TYPEDEF_BYTES: usize = 4 << 20;

/// The most meta strings (names of named types) a [`ReadMeta`] keeps, and their most bytes
/// in all: a peer announcing more is refused.
pub const MAX_CONNECTION_META_STRINGS: usize = 4096;
const MAX_CONNECTION_META_STRING_BYTES: usize = 1 << 20;

/// The sending side of a connection's shared type metadata: which registered types this
/// side has already announced (with their TypeDefs) in earlier messages.
///
/// Messages written with it ([`crate::Fury::serialize_with_meta`]) go on numbering the
/// TypeDefs where the previous message stopped: a type sent before is named by a one-byte
/// back reference instead of its TypeDef. The meta strings of named types (their namespace
/// and name, in same-schema mode) are numbered on the same way, so each crosses the
/// connection once. Each message is a valid xlang stream for a reader that holds the
/// [`ReadMeta`] of the same connection and read every earlier message in order; pyfory
/// 1.7.7 and the official crate reset this state after every message, so this is for
/// fury-rs peers on both ends. Use one per connection, with one `Fury` (the state holds its
/// registry indices).
#[derive(Debug, Default, Clone)]
pub struct WriteMeta {
    inline: [u32; SHARED_INLINE],
    len: u32,
    more: Vec<u32>,
    strings: MetaStringWriteState,
    /// `strings.len()` when the current message started.
    strings_before: usize,
}

/// Where a [`WriteMeta`] stood before a message, to forget that message's announcements.
#[cfg(feature = "tokio")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct MetaMark {
    typedefs: usize,
    strings: usize,
}

impl WriteMeta {
    /// An empty state, for a new connection.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many TypeDefs were announced so far.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True before the first TypeDef was announced.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the numbering stands, for [`WriteMeta::rewind`].
    #[cfg(feature = "tokio")]
    pub(crate) fn mark(&self) -> MetaMark {
        MetaMark {
            typedefs: self.len as usize,
            strings: self.strings.len(),
        }
    }

    /// Forgets the announcements made after `mark` (those of a message that was written
    /// but then not sent).
    #[cfg(feature = "tokio")]
    pub(crate) fn rewind(&mut self, mark: MetaMark) {
        if mark.typedefs < self.len as usize {
            self.len = mark.typedefs as u32;
            self.more
                .truncate(mark.typedefs.saturating_sub(SHARED_INLINE));
        }
        self.strings.truncate(mark.strings);
    }
}

/// The receiving side of a connection's shared type metadata: the TypeDefs the peer
/// announced in earlier messages, by their number (see [`WriteMeta`]).
///
/// What it keeps is bounded: at most [`MAX_CONNECTION_TYPEDEFS`] TypeDefs taking at most
/// [`DEFAULT_CONNECTION_TYPEDEF_BYTES`] of heap (or the budget of
/// [`ReadMeta::with_typedef_budget`]), and [`MAX_CONNECTION_META_STRINGS`] meta strings of at
/// most 1 MiB. A message that would go past a bound is refused with an error naming it, and
/// the connection keeps what it held before that message.
pub struct ReadMeta {
    defs: Vec<SharedDef>,
    /// How many of `defs` earlier messages announced (those of a refused message are not
    /// kept).
    kept: usize,
    typedef_bytes: usize,
    typedef_budget: usize,
    /// The meta strings of earlier messages, by id; while a message is read, its context
    /// borrows them and this holds the ones the message announces.
    strings: Vec<EncodedMetaString>,
    string_bytes: usize,
}

impl std::fmt::Debug for ReadMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadMeta")
            .field("typedefs", &self.defs.len())
            .field("meta_strings", &self.strings.len())
            .finish()
    }
}

impl Default for ReadMeta {
    fn default() -> Self {
        ReadMeta {
            defs: Vec::new(),
            kept: 0,
            typedef_bytes: 0,
            typedef_budget: DEFAULT_CONNECTION_TYPEDEF_BYTES,
            strings: Vec::new(),
            string_bytes: 0,
        }
    }
}

impl ReadMeta {
    /// An empty state, for a new connection.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty state whose TypeDefs may take at most `bytes` of heap (default
    /// [`DEFAULT_CONNECTION_TYPEDEF_BYTES`]).
    ///
    /// ```
    /// use fury::connection::ReadMeta;
    /// let meta = ReadMeta::with_typedef_budget(256 * 1024);
    /// assert_eq!(meta.typedef_bytes(), 0);
    /// ```
    pub fn with_typedef_budget(bytes: usize) -> Self {
        ReadMeta {
            typedef_budget: bytes,
            ..Self::default()
        }
    }

    /// The heap bytes the TypeDefs kept so far take.
    pub fn typedef_bytes(&self) -> usize {
        self.typedef_bytes
    }

    /// How many TypeDefs the peer announced so far.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// True before the peer announced a TypeDef.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// Takes the meta strings of earlier messages out, for a message's context to borrow;
    /// [`ReadMeta::keep_strings`] puts them back.
    pub(crate) fn take_strings(&mut self) -> Vec<EncodedMetaString> {
        std::mem::take(&mut self.strings)
    }

    /// Puts back the strings [`ReadMeta::take_strings`] took, followed by those the message
    /// announced (which `store_meta` left here); refuses a connection beyond the limits.
    pub(crate) fn keep_strings(&mut self, mut earlier: Vec<EncodedMetaString>) -> Result<()> {
        let announced = std::mem::take(&mut self.strings);
        let bytes: usize = announced.iter().map(|s| s.bytes().len()).sum();
        let count = earlier.len() + announced.len();
        let total = self.string_bytes.saturating_add(bytes);
        let over = if count > MAX_CONNECTION_META_STRINGS {
            Some((
                "meta strings announced on one connection",
                count,
                MAX_CONNECTION_META_STRINGS,
            ))
        } else if total > MAX_CONNECTION_META_STRING_BYTES {
            Some((
                "bytes of the meta strings announced on one connection",
                total,
                MAX_CONNECTION_META_STRING_BYTES,
            ))
        } else {
            None
        };
        if let Some((what, declared, limit)) = over {
            // The message is refused; what the connection held before it stays valid.
            self.strings = earlier;
            return Err(Error::new(ErrorKind::LengthTooLarge {
                what,
                declared: declared as u64,
                limit: limit as u64,
            }));
        }
        self.string_bytes = total;
        earlier.extend(announced);
        self.strings = earlier;
        Ok(())
    }
}

impl WriteContext<'_> {
    /// Continues the numbering of `meta` in this stream.
    pub(crate) fn load_meta(&mut self, meta: &mut WriteMeta) {
        self.shared_types = meta.inline;
        self.shared_len = meta.len;
        if !meta.more.is_empty() {
            self.extra.get_or_insert_with(take_write_extra).shared_more =
                std::mem::take(&mut meta.more);
        }
        meta.strings_before = meta.strings.len();
        if !meta.strings.is_empty() {
            meta.strings.continue_connection();
            let extra = self.extra.get_or_insert_with(take_write_extra);
            std::mem::swap(&mut extra.meta_strings, &mut meta.strings);
        }
    }

    /// Gives the numbering back to `meta`: with this stream's announcements if it was
    /// written (`sent`), as it was before otherwise.
    pub(crate) fn store_meta(&mut self, meta: &mut WriteMeta, sent: bool) {
        let mut more = self
            .extra
            .as_mut()
            .map(|e| std::mem::take(&mut e.shared_more))
            .unwrap_or_default();
        if sent {
            meta.inline = self.shared_types;
            meta.len = self.shared_len;
        } else {
            more.truncate((meta.len as usize).saturating_sub(SHARED_INLINE));
        }
        meta.more = more;
        // The strings were moved into the context if there were any; those this message
        // wrote are in it too. (No context state means neither happened.)
        if let Some(extra) = self.extra.as_mut() {
            std::mem::swap(&mut extra.meta_strings, &mut meta.strings);
            if !sent {
                meta.strings.truncate(meta.strings_before);
            }
        }
    }
}

impl<'r> ReadContext<'_, 'r> {
    /// Continues the numbering of `meta` in this stream, the meta strings after `strings`
    /// (the earlier messages', from [`ReadMeta::take_strings`]).
    pub(crate) fn load_meta(&mut self, meta: &mut ReadMeta, strings: &'r [EncodedMetaString]) {
        if !meta.defs.is_empty() {
            self.extra_mut().typedefs = std::mem::take(&mut meta.defs);
        }
        self.meta_strings.continue_after(strings);
    }

    /// Gives the TypeDefs read back to `meta`, with those this stream announced (also when
    /// the stream failed later on: they were whole, and the writer counts them as sent).
    pub(crate) fn store_meta(&mut self, meta: &mut ReadMeta) -> Result<()> {
        if self.inline_len > 0 {
            self.spill_inline();
        }
        if let Some(extra) = self.extra.as_mut() {
            meta.defs = std::mem::take(&mut extra.typedefs);
        }
        meta.strings = self
            .meta_strings
            .announced()
            .iter()
            .map(EncodedMetaString::from_wire)
            .collect();
        let added: usize = meta
            .defs
            .get(meta.kept..)
            .unwrap_or_default()
            .iter()
            .map(|d| match d {
                SharedDef::Local { .. } => 0,
                SharedDef::Remote(r) => r.def.heap_bytes(),
            })
            .sum();
        let bytes = meta.typedef_bytes.saturating_add(added);
        let over = if meta.defs.len() > MAX_CONNECTION_TYPEDEFS {
            Some((
                "TypeDefs announced on one connection",
                meta.defs.len(),
                MAX_CONNECTION_TYPEDEFS,
            ))
        } else if bytes > meta.typedef_budget {
            Some((
                "heap bytes of the TypeDefs announced on one connection",
                bytes,
                meta.typedef_budget,
            ))
        } else {
            None
        };
        if let Some((what, declared, limit)) = over {
            // The message is refused; the connection keeps what it held before it.
            meta.defs.truncate(meta.kept);
            return Err(Error::new(ErrorKind::LengthTooLarge {
                what,
                declared: declared as u64,
                limit: limit as u64,
            }));
        }
        meta.kept = meta.defs.len();
        meta.typedef_bytes = bytes;
        Ok(())
    }
}
