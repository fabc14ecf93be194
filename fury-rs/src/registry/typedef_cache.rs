//! TypeDefs received from peers, parsed once per `Fury` instance and kept by identity.

use crate::meta::typedef::TypeDef;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, RwLock};

/// A TypeDef read from a stream, with the read plans built for it (per local type).
#[derive(Debug)]
pub struct RemoteTypeDef {
    /// The parsed definition.
    pub def: TypeDef,
    pub(crate) plans: Mutex<Vec<(std::any::TypeId, bool, Arc<crate::registry::plan::ReadPlan>)>>,
}

impl RemoteTypeDef {
    /// Wraps a parsed definition.
    pub fn new(def: TypeDef) -> Self {
        RemoteTypeDef {
            def,
            plans: Mutex::new(Vec::new()),
        }
    }
}

/// Parsed remote TypeDefs by their 8-byte header (52-bit hash, flags and size), so the
/// second message of a schema costs no parsing. Bounded in entries and in heap bytes: a new
/// TypeDef that does not fit evicts the oldest ones, so what a peer sends can neither grow
/// the cache without bound nor fill it for good (a peer sending many TypeDefs only makes
/// others' be parsed again).
#[derive(Debug)]
pub struct TypeDefCache {
    inner: RwLock<Inner>,
    max_entries: usize,
    max_bytes: usize,
}

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<u64, (Arc<RemoteTypeDef>, usize), BuildHasherDefault<HeaderHasher>>,
    /// Headers in the order they were kept, oldest first.
    order: VecDeque<u64>,
    bytes: usize,
}

/// The heap bytes a [`TypeDefCache`] keeps at most unless told otherwise.
pub const DEFAULT_TYPEDEF_CACHE_BYTES: usize = 16 << 20;

impl TypeDefCache {
    /// An empty cache keeping at most `max_entries` TypeDefs, of at most
    /// [`DEFAULT_TYPEDEF_CACHE_BYTES`] in all.
    pub fn new(max_entries: usize) -> Self {
        Self::with_limits(max_entries, DEFAULT_TYPEDEF_CACHE_BYTES)
    }

    /// An empty cache keeping at most `max_entries` TypeDefs taking at most `max_bytes` of
    /// heap.
    ///
    /// ```
    /// let cache = fury::registry::TypeDefCache::with_limits(64, 1 << 20);
    /// assert!(cache.is_empty());
    /// assert_eq!(cache.bytes(), 0);
    /// ```
    pub fn with_limits(max_entries: usize, max_bytes: usize) -> Self {
        TypeDefCache {
            inner: RwLock::new(Inner::default()),
            max_entries,
            max_bytes,
        }
    }

    /// The TypeDef with this header, if cached.
    pub(crate) fn get(&self, header: u64) -> Option<Arc<RemoteTypeDef>> {
        self.inner
            .read()
            .ok()?
            .map
            .get(&header)
            .map(|(d, _)| d.clone())
    }

    /// Keeps `def` under `header`, evicting the oldest TypeDefs until it fits; one larger
    /// than the whole budget is not kept.
    pub(crate) fn insert(&self, header: u64, def: Arc<RemoteTypeDef>) {
        let size = def.def.heap_bytes() + std::mem::size_of::<RemoteTypeDef>();
        if size > self.max_bytes || self.max_entries == 0 {
            return;
        }
        let Ok(mut m) = self.inner.write() else {
            return;
        };
        if m.map.contains_key(&header) {
            return;
        }
        while m.map.len() >= self.max_entries || m.bytes + size > self.max_bytes {
            let Some(old) = m.order.pop_front() else {
                break;
            };
            if let Some((_, b)) = m.map.remove(&old) {
                m.bytes -= b;
            }
        }
        m.map.insert(header, (def, size));
        m.order.push_back(header);
        m.bytes += size;
    }

    /// Number of cached TypeDefs.
    pub fn len(&self) -> usize {
        self.inner.read().map(|m| m.map.len()).unwrap_or(0)
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The heap bytes the cached TypeDefs take.
    pub fn bytes(&self) -> usize {
        self.inner.read().map(|m| m.bytes).unwrap_or(0)
    }
}

/// A TypeDef header is already a hash: use its bits as they are.
#[derive(Default)]
pub(crate) struct HeaderHasher(u64);

impl Hasher for HeaderHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        // The low 12 bits are size and flags; mix the hash bits down.
        self.0 ^= v ^ (v >> 32);
    }
}
