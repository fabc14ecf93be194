//! The read context's settings, nesting depth, type ids and errors.

use super::*;

impl<'de, 'r> ReadContext<'de, 'r> {
    /// A context reading `data`.
    pub(crate) fn new(
        data: &'de [u8],
        registry: &'r Registry,
        typedef_cache: &'r TypeDefCache,
        config: Config,
    ) -> Self {
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
        }
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
