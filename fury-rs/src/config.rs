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
    pub(crate) alloc_per_input_byte: usize,
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
            alloc_per_input_byte: Config::DEFAULT_ALLOC_PER_INPUT_BYTE,
        }
    }
}

impl Config {
    /// Default limit on nesting depth (containers within containers) for reading and
    /// writing ([`FuryBuilder::max_depth`](crate::FuryBuilder::max_depth)).
    pub const DEFAULT_MAX_DEPTH: u32 = 256;

    /// Default of [`FuryBuilder::max_alloc_per_input_byte`](crate::FuryBuilder::max_alloc_per_input_byte):
    /// with the copies of the input (at most twice its length), a decode of `n` bytes holds
    /// at most `16 * n` bytes plus [`ALLOC_BASE`](Self::ALLOC_BASE).
    pub const DEFAULT_ALLOC_PER_INPUT_BYTE: usize = 14;

    /// What every decode may allocate whatever its input's length (1 MiB), on top of the
    /// per-input-byte allowance.
    pub const ALLOC_BASE: usize = 1 << 20;

    /// What one decode of `input_len` bytes may allocate beyond copies of its input: the
    /// smaller of `max_alloc` and `alloc_per_input_byte * input_len + ALLOC_BASE`.
    pub fn alloc_budget(&self, input_len: usize) -> usize {
        let relative = self
            .alloc_per_input_byte
            .saturating_mul(input_len)
            .saturating_add(Self::ALLOC_BASE);
        self.max_alloc.min(relative)
    }

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
