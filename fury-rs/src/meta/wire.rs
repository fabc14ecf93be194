//! Meta strings inside type info with per-stream deduplication (format: see the `meta`
//! module documentation).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use super::meta_string::{MetaEncoding, MetaString, MetaStringEncoder};
use super::murmur3::{fmix64, le_u64, murmur3_x64_128};
use crate::buffer::{Reader, Writer};
use crate::error::{Error, ErrorKind, Result};

/// Meta strings of at most this many encoded bytes carry an encoding byte; longer ones carry
/// an 8-byte hash instead.
pub const SMALL_META_STRING_LEN: usize = 16;

/// Seed of the MurmurHash3 that identifies long meta strings.
pub const META_STRING_HASH_SEED: u64 = 47;

/// pyfory interns (deduplicates by content) meta strings up to this many bytes.
const MAX_INTERNED_LEN: usize = 2048;

/// The 64-bit hash pyfory keeps for a meta string (its `hashcode`), as an unsigned value.
///
/// For more than 16 bytes it is the hash written on the wire: MurmurHash3 x64_128 (seed 47)
/// first half with the low byte replaced by the encoding id. For 1 to 16 bytes it is pyfory's
/// small-string hash (the bytes as two little-endian words `v1`, `v2`,
/// `fmix64(v1 ^ v2 * 0x9e3779b97f4a7c15 ^ len << 56)`, low byte replaced by the encoding id);
/// it never appears on the wire but makes lookups cheap. The empty string hashes to 0.
///
/// (Example: `doc_examples::meta_string_hash_carries_the_encoding_in_its_low_byte` in the crate's unit tests.)
pub fn meta_string_hash(data: &[u8], encoding: MetaEncoding) -> u64 {
    let h = match data.len() {
        0 => return 0,
        n if n <= SMALL_META_STRING_LEN => {
            let (lo, hi) = data.split_at(n.min(8));
            let x =
                le_u64(lo) ^ le_u64(hi).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((n as u64) << 56);
            fmix64(x)
        }
        _ => murmur3_x64_128(data, META_STRING_HASH_SEED).0,
    };
    (h & !0xff) | u64::from(encoding.id())
}

#[derive(Debug)]
struct Inner {
    encoding: MetaEncoding,
    hash: u64,
    /// The first-occurrence form: header, encoding byte or hash, bytes.
    wire: Box<[u8]>,
    /// Where the encoded bytes start inside `wire`.
    data_start: usize,
}

/// A meta string prepared for writing: encoded once (typically when a type is registered),
/// then written with one copy of its precomputed bytes. Cloning is cheap (a reference count)
/// and a clone is the *same* meta string for deduplication.
///
/// (Example: `doc_examples::a_repeated_meta_string_is_written_as_its_id` in the crate's unit tests.)
#[derive(Debug, Clone)]
pub struct EncodedMetaString {
    inner: Arc<Inner>,
}

impl EncodedMetaString {
    /// Prepares `s` for writing.
    pub fn new(s: &MetaString) -> Self {
        Self::from_parts(s.encoding(), s.bytes())
    }

    /// Prepares a meta string read from a stream, e.g. to write it again unchanged (or to
    /// keep it past the input it was read from).
    pub fn from_wire(s: &WireMetaString<'_>) -> Self {
        Self::from_parts(s.encoding, s.bytes)
    }

    fn from_parts(encoding: MetaEncoding, data: &[u8]) -> Self {
        let hash = meta_string_hash(data, encoding);
        let mut wire = Vec::with_capacity(data.len() + 14);
        let mut w = Writer::new(&mut wire);
        // At most 4 * 32766 bytes from the encoder or 2^31 - 1 from a reader: fits varuint32.
        w.var_u64((data.len() as u64) << 1);
        if data.len() > SMALL_META_STRING_LEN {
            w.u64(hash);
        } else if !data.is_empty() {
            w.u8(encoding.id());
        }
        let data_start = w.len();
        w.bytes(data);
        drop(w);
        EncodedMetaString {
            inner: Arc::new(Inner {
                encoding,
                hash,
                wire: wire.into_boxed_slice(),
                data_start,
            }),
        }
    }

    /// The encoding of the bytes.
    pub fn encoding(&self) -> MetaEncoding {
        self.inner.encoding
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        self.inner
            .wire
            .get(self.inner.data_start..)
            .unwrap_or_default()
    }

    /// pyfory's 64-bit hash of this meta string (see [`meta_string_hash`]).
    pub fn hash(&self) -> u64 {
        self.inner.hash
    }

    /// The bytes written for the first occurrence in a stream.
    pub fn wire_bytes(&self) -> &[u8] {
        &self.inner.wire
    }

    /// Whether pyfory would treat `self` and `other` as one meta string within a stream.
    fn same(&self, other: &EncodedMetaString) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.interned()
                && other.interned()
                && self.inner.hash == other.inner.hash
                && self.inner.encoding == other.inner.encoding
                && self.bytes() == other.bytes())
    }

    /// Deduplicated by content (as opposed to by identity only).
    fn interned(&self) -> bool {
        let n = self.inner.wire.len() - self.inner.data_start;
        n != 0 && n <= MAX_INTERNED_LEN
    }

    /// Key of the write state's index: the content hash, or the identity for strings that
    /// are not interned.
    fn dedup_key(&self) -> u64 {
        if self.interned() {
            self.inner.hash
        } else {
            Arc::as_ptr(&self.inner) as usize as u64
        }
    }
}

impl From<MetaString> for EncodedMetaString {
    fn from(s: MetaString) -> Self {
        EncodedMetaString::new(&s)
    }
}

impl PartialEq for EncodedMetaString {
    /// Equal encoding and bytes.
    fn eq(&self, other: &Self) -> bool {
        self.encoding() == other.encoding() && self.bytes() == other.bytes()
    }
}

impl Eq for EncodedMetaString {}

impl Hash for EncodedMetaString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.inner.hash);
    }
}

/// Hasher for keys that are already hashes.
#[derive(Default)]
struct U64Hasher(u64);

impl Hasher for U64Hasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Up to this many written strings are searched linearly; beyond it an index is kept.
const LINEAR_SEARCH_MAX: usize = 16;

/// Largest dynamic id whose back reference `((id + 1) << 1) | 1` fits a varuint32.
const MAX_DYNAMIC_ID: usize = (1 << 31) - 2;

/// Per-stream state for writing meta strings: which ones were written, under which id.
///
/// Creating one does not allocate; [`reset`](Self::reset) it between streams to reuse its
/// memory. See [`EncodedMetaString`] for an example.
#[derive(Default, Clone, Debug)]
pub struct MetaStringWriteState {
    written: Vec<EncodedMetaString>,
    index: HashMap<u64, u32, BuildHasherDefault<U64Hasher>>,
    /// Ids below this were written by earlier messages of a connection (see
    /// [`MetaStringWriteState::continue_connection`]).
    earlier: usize,
}

impl MetaStringWriteState {
    /// An empty state, for a new stream.
    #[cfg(test)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every written string, keeping the allocations.
    pub fn reset(&mut self) {
        self.written.clear();
        self.index.clear();
        self.earlier = 0;
    }

    /// Marks the strings written so far as those of a connection's earlier messages. Those
    /// are found by content, even the ones a stream dedupes only by identity (empty and very
    /// long strings): within one stream pyfory's rule decides the bytes, but only fury-rs
    /// reads the later messages of a connection, and without this a value that builds its
    /// names afresh (a `Value` of a type without namespace) would add an id per message.
    pub(crate) fn continue_connection(&mut self) {
        self.earlier = self.written.len();
    }

    /// Forgets the strings written after the first `len` (those of a message that was
    /// written but not sent, when the state is kept across the messages of a connection).
    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.written.len() {
            self.written.truncate(len);
            self.index.retain(|_, id| (*id as usize) < len);
        }
        self.earlier = self.earlier.min(len);
    }

    /// Number of ids handed out so far.
    pub fn len(&self) -> usize {
        self.written.len()
    }

    /// True when nothing was written since creation or the last reset.
    pub fn is_empty(&self) -> bool {
        self.written.is_empty()
    }

    fn find(&self, s: &EncodedMetaString) -> Option<usize> {
        let found = self.find_in_stream(s);
        if found.is_none() && self.earlier > 0 {
            return self
                .written
                .get(..self.earlier)?
                .iter()
                .position(|e| e == s);
        }
        found
    }

    fn find_in_stream(&self, s: &EncodedMetaString) -> Option<usize> {
        if self.written.len() <= LINEAR_SEARCH_MAX {
            return self.written.iter().position(|e| e.same(s));
        }
        match self.index.get(&s.dedup_key()) {
            Some(&id) if self.written.get(id as usize).is_some_and(|e| e.same(s)) => {
                Some(id as usize)
            }
            // Another string with the same key (a hash collision): search them all.
            Some(_) => self.written.iter().position(|e| e.same(s)),
            None => None,
        }
    }

    /// Writes `s`: in full the first time, as a back reference to its id afterwards.
    pub fn write(&mut self, w: &mut Writer<'_>, s: &EncodedMetaString) {
        if let Some(id) = self.find(s) {
            w.var_u64((((id as u64) + 1) << 1) | 1);
            return;
        }
        w.bytes(s.wire_bytes());
        let id = self.written.len();
        if id > MAX_DYNAMIC_ID {
            // No back reference could name it; writing it in full again stays correct.
            return;
        }
        self.written.push(s.clone());
        if self.written.len() > LINEAR_SEARCH_MAX {
            if self.index.is_empty() {
                for (i, e) in self.written.iter().enumerate() {
                    self.index.entry(e.dedup_key()).or_insert(i as u32);
                }
            } else {
                self.index.entry(s.dedup_key()).or_insert(id as u32);
            }
        }
    }
}

/// A meta string as read from a stream: its encoding and bytes, borrowed from the input.
///
/// Compare it with a registered name through [`matches`](Self::matches) or
/// [`hash`](Self::hash); turn it into text with [`decode`](Self::decode). Two values are
/// equal when encoding and bytes are equal, wherever they were read.
#[derive(Debug, Clone, Copy)]
pub struct WireMetaString<'a> {
    encoding: MetaEncoding,
    bytes: &'a [u8],
    hash: u64,
    offset: usize,
}

impl<'a> WireMetaString<'a> {
    /// pyfory's 64-bit hash of the meta string (see [`meta_string_hash`]).
    #[cfg(test)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// True when `registered` has the same encoding and bytes.
    ///
    /// Another writer may encode the same text differently (pyfory itself only compares
    /// decoded text when the bytes differ), so a `false` here is not final: compare
    /// [`decode`](Self::decode)d text to be sure.
    pub fn matches(&self, registered: &EncodedMetaString) -> bool {
        self.hash == registered.hash()
            && self.encoding == registered.encoding()
            && self.bytes == registered.bytes()
    }

    /// Decodes the text, with the special characters of `context` (a namespace or a type
    /// name encoder). Errors carry input offsets.
    pub fn decode(&self, context: &MetaStringEncoder) -> Result<String> {
        context.decode_at(self.bytes, self.encoding, self.offset)
    }
}

impl PartialEq for WireMetaString<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.encoding == other.encoding && self.bytes == other.bytes
    }
}

impl Eq for WireMetaString<'_> {}

impl Hash for WireMetaString<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq<EncodedMetaString> for WireMetaString<'_> {
    fn eq(&self, other: &EncodedMetaString) -> bool {
        self.matches(other)
    }
}

/// Per-stream state for reading meta strings: the strings read so far, by id.
///
/// The strings borrow the input, and every new one consumes at least one input byte, so the
/// state holds at most one small entry per input byte. Creating one does not allocate.
/// A stream of a connection that shares metadata (`ReadMeta`) starts with the strings of
/// the connection's earlier messages as ids `0..base.len()`.
///
/// (Example: `doc_examples::a_meta_string_id_reads_as_the_string_it_names` in the crate's unit tests.)
#[derive(Debug, Default)]
pub struct MetaStringReadState<'a> {
    base: &'a [EncodedMetaString],
    read: Vec<WireMetaString<'a>>,
}

impl<'a> MetaStringReadState<'a> {
    /// An empty state, for a new stream.
    pub fn new() -> Self {
        MetaStringReadState {
            base: &[],
            read: Vec::new(),
        }
    }

    /// Starts the numbering after `base`, the strings of a connection's earlier messages.
    pub(crate) fn continue_after(&mut self, base: &'a [EncodedMetaString]) {
        self.base = base;
    }

    /// The strings this stream announced itself (after the base).
    pub(crate) fn announced(&self) -> &[WireMetaString<'a>] {
        &self.read
    }

    /// Forgets every string read, keeping the allocation.
    #[cfg(test)]
    pub fn reset(&mut self) {
        self.read.clear();
    }

    /// Number of ids seen so far.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.read.len()
    }

    /// Reads one meta string: a first occurrence (which gets the next id) or a back
    /// reference to an earlier one.
    ///
    /// Errors (with the input offset): truncated input, a declared length beyond the input,
    /// an encoding id above 4, a long string whose hash does not match its bytes, and a back
    /// reference to an id not read yet (or to id "0 - 1"). The bytes themselves are checked
    /// only when [decoded](WireMetaString::decode).
    pub fn read<'i: 'a>(&mut self, r: &mut Reader<'i>) -> Result<WireMetaString<'a>> {
        let at = r.position();
        let header = r.var_u32()?;
        let value = (header >> 1) as usize;
        if header & 1 == 1 {
            let id = value.checked_sub(1);
            if let Some(s) = id.and_then(|id| self.base.get(id)) {
                return Ok(WireMetaString {
                    encoding: s.encoding(),
                    bytes: s.bytes(),
                    hash: s.hash(),
                    offset: at,
                });
            }
            let local = id.and_then(|id| id.checked_sub(self.base.len()));
            return match local.and_then(|id| self.read.get(id)) {
                Some(s) => Ok(*s),
                None => Err(Error::at(
                    ErrorKind::Invalid {
                        what: format!(
                            "meta string back reference to id {} but only {} read",
                            value as i64 - 1,
                            self.base.len() + self.read.len()
                        ),
                    },
                    at,
                )),
            };
        }
        let len = value;
        let s = if len == 0 {
            WireMetaString {
                encoding: MetaEncoding::Utf8,
                bytes: &[],
                hash: 0,
                offset: r.position(),
            }
        } else {
            let extra = if len > SMALL_META_STRING_LEN { 8 } else { 1 };
            let limit = r.remaining().saturating_sub(extra);
            if len > limit {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "meta string",
                        declared: len as u64,
                        limit: limit as u64,
                    },
                    at,
                ));
            }
            if len <= SMALL_META_STRING_LEN {
                let enc_at = r.position();
                let encoding = read_encoding(r.u8()?, enc_at)?;
                let offset = r.position();
                let bytes = r.bytes(len)?;
                WireMetaString {
                    encoding,
                    bytes,
                    hash: meta_string_hash(bytes, encoding),
                    offset,
                }
            } else {
                let hash_at = r.position();
                let hash = r.u64()?;
                let encoding = read_encoding((hash & 0xff) as u8, hash_at)?;
                let offset = r.position();
                let bytes = r.bytes(len)?;
                if meta_string_hash(bytes, encoding) != hash {
                    return Err(Error::at(
                        ErrorKind::Invalid {
                            what: format!(
                                "meta string hash 0x{hash:016x} does not match its {len} bytes"
                            ),
                        },
                        hash_at,
                    ));
                }
                WireMetaString {
                    encoding,
                    bytes,
                    hash,
                    offset,
                }
            }
        };
        self.read.push(s);
        Ok(s)
    }
}

fn read_encoding(id: u8, at: usize) -> Result<MetaEncoding> {
    MetaEncoding::from_id(id).ok_or_else(|| {
        Error::at(
            ErrorKind::Invalid {
                what: format!("meta string encoding id {id}, expected 0 to 4"),
            },
            at,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(ns: &str) -> EncodedMetaString {
        EncodedMetaString::new(&MetaStringEncoder::namespace().encode(ns).unwrap())
    }

    #[test]
    fn empty_strings_repeat_only_by_identity() {
        let a = enc("");
        let b = enc("");
        let mut out = Vec::new();
        let mut st = MetaStringWriteState::new();
        let mut w = Writer::new(&mut out);
        st.write(&mut w, &a);
        st.write(&mut w, &b);
        st.write(&mut w, &a.clone());
        drop(w);
        assert_eq!(out, [0x00, 0x00, 0x03]);
    }

    #[test]
    fn index_is_used_beyond_the_linear_limit() {
        let strings: Vec<_> = (0..40).map(|i| enc(&format!("ns{i}"))).collect();
        let mut out = Vec::new();
        let mut st = MetaStringWriteState::new();
        let mut w = Writer::new(&mut out);
        for s in &strings {
            st.write(&mut w, s);
        }
        let mark = w.len();
        for (i, s) in strings.iter().enumerate() {
            // A fresh encoding of the same text is found by content.
            st.write(&mut w, &enc(&format!("ns{i}")));
            let _ = s;
        }
        let mut expected = Vec::new();
        let mut ew = Writer::new(&mut expected);
        for i in 0..40u64 {
            ew.var_u64(((i + 1) << 1) | 1);
        }
        drop((w, ew));
        assert_eq!(out.get(mark..), Some(&expected[..]));
    }
}
