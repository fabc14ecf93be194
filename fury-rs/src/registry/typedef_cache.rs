//! TypeDefs received from peers, parsed once per `Fury` instance and kept by identity.

use crate::meta::typedef::TypeDef;
use std::collections::HashMap;
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
/// second message of a schema costs no parsing. Holds at most `max_entries`; once full, new
/// TypeDefs are parsed per message but not kept, so no input makes it grow without bound.
#[derive(Debug)]
pub struct TypeDefCache {
    map: RwLock<HashMap<u64, Arc<RemoteTypeDef>, BuildHasherDefault<HeaderHasher>>>,
    max_entries: usize,
}

impl TypeDefCache {
    /// An empty cache keeping at most `max_entries` TypeDefs.
    pub fn new(max_entries: usize) -> Self {
        TypeDefCache {
            map: RwLock::new(HashMap::default()),
            max_entries,
        }
    }

    /// The TypeDef with this header, if cached.
    pub(crate) fn get(&self, header: u64) -> Option<Arc<RemoteTypeDef>> {
        self.map.read().ok()?.get(&header).cloned()
    }

    /// Keeps `def` under `header` if there is room.
    pub(crate) fn insert(&self, header: u64, def: Arc<RemoteTypeDef>) {
        if let Ok(mut m) = self.map.write() {
            if m.len() < self.max_entries {
                m.entry(header).or_insert(def);
            }
        }
    }

    /// Number of cached TypeDefs.
    pub fn len(&self) -> usize {
        self.map.read().map(|m| m.len()).unwrap_or(0)
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
