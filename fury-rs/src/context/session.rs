//! Type metadata shared across the messages of one connection (one direction each): the
//! meta-share numbering of a stream carried on into the next stream, so that each TypeDef
//! crosses the connection once.

use super::*;

/// The most TypeDefs a [`ReadMeta`] keeps: a peer announcing more is refused, so that a
/// hostile connection cannot grow it without bound.
pub const MAX_CONNECTION_TYPEDEFS: usize = 4096;

/// The sending side of a connection's shared type metadata: which registered types this
/// side has already announced (with their TypeDefs) in earlier messages.
///
/// Messages written with it ([`crate::Fury::serialize_with_meta`]) go on numbering the
/// TypeDefs where the previous message stopped: a type sent before is named by a one-byte
/// back reference instead of its TypeDef. Each message is a valid xlang stream for a reader
/// that holds the [`ReadMeta`] of the same connection and read every earlier message in
/// order; pyfory 1.7.7 and the official crate reset this state after every message, so
/// this is for fury-rs peers on both ends (compatible mode; same-schema streams carry no
/// TypeDefs). Use one per connection, with one `Fury` (the state holds its registry
/// indices).
#[derive(Debug, Default, Clone)]
pub struct WriteMeta {
    inline: [u32; SHARED_INLINE],
    len: u32,
    more: Vec<u32>,
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

    /// Forgets the announcements after the first `len` (those of a message that was
    /// written but then not sent).
    #[cfg(feature = "tokio")]
    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.len as usize {
            self.len = len as u32;
            self.more.truncate(len.saturating_sub(SHARED_INLINE));
        }
    }
}

/// The receiving side of a connection's shared type metadata: the TypeDefs the peer
/// announced in earlier messages, by their number (see [`WriteMeta`]).
#[derive(Default)]
pub struct ReadMeta {
    defs: Vec<SharedDef>,
}

impl std::fmt::Debug for ReadMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadMeta")
            .field("typedefs", &self.defs.len())
            .finish()
    }
}

impl ReadMeta {
    /// An empty state, for a new connection.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many TypeDefs the peer announced so far.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// True before the peer announced a TypeDef.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
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
    }
}

impl ReadContext<'_, '_> {
    /// Continues the numbering of `meta` in this stream.
    pub(crate) fn load_meta(&mut self, meta: &mut ReadMeta) {
        if !meta.defs.is_empty() {
            self.extra_mut().typedefs = std::mem::take(&mut meta.defs);
        }
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
        if meta.defs.len() > MAX_CONNECTION_TYPEDEFS {
            let n = meta.defs.len();
            meta.defs.truncate(MAX_CONNECTION_TYPEDEFS);
            return Err(Error::new(ErrorKind::LengthTooLarge {
                what: "TypeDefs announced on one connection",
                declared: n as u64,
                limit: MAX_CONNECTION_TYPEDEFS as u64,
            }));
        }
        Ok(())
    }
}
