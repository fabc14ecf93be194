//! The settings of a `Fury` instance, which every serialize and deserialize call reads.

use crate::meta::typedef::TypeDefLimits;

/// Settings of a [`Fury`](crate::Fury) instance, chosen with its builder.
///
/// ```
/// let fury = fury::Fury::builder().compatible(false).build();
/// assert!(!fury.config().compatible());
/// assert!(fury.config().compress_int());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub(crate) ref_tracking: bool,
    pub(crate) compatible: bool,
    pub(crate) compress_int: bool,
    pub(crate) max_depth: u32,
    pub(crate) typedef_limits: TypeDefLimits,
    pub(crate) typedef_cache_entries: usize,
    pub(crate) typedef_cache_bytes: usize,
    pub(crate) max_alloc: usize,
    pub(crate) strict: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ref_tracking: false,
            compatible: true,
            compress_int: true,
            max_depth: Config::DEFAULT_MAX_DEPTH,
            typedef_limits: TypeDefLimits::default(),
            typedef_cache_entries: 1024,
            typedef_cache_bytes: crate::registry::DEFAULT_TYPEDEF_CACHE_BYTES,
            max_alloc: usize::MAX,
            strict: false,
        }
    }
}

impl Config {
    /// Default limit on nesting depth (containers within containers) for reading and
    /// writing ([`FuryBuilder::max_depth`](crate::FuryBuilder::max_depth)).
    pub const DEFAULT_MAX_DEPTH: u32 = 256;

    /// Whether reference tracking is on.
    pub fn ref_tracking(&self) -> bool {
        self.ref_tracking
    }

    /// Whether compatible (schema-evolution) mode is on.
    pub fn compatible(&self) -> bool {
        self.compatible
    }

    /// Whether a field the peer's schema lacks is an error unless it has a
    /// `#[fury(default)]` ([`FuryBuilder::strict`](crate::FuryBuilder::strict)).
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    pub fn compress_int(&self) -> bool {
        self.compress_int
    }

    /// The nesting limit.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }
}
