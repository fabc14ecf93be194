//! Per-call state of one serialize or deserialize call.

use crate::buffer::{Reader, Writer};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::{EncodedMetaString, MetaStringReadState, MetaStringWriteState, WireMetaString};
use crate::resolver::Registry;
use crate::types::{RefFlag, TypeId};

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

/// Settings that generated code consults while writing or reading.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Default encoding of i32/u32/i64/u64 struct fields: varint (`true`) or fixed.
    pub compress_int: bool,
    /// Limit on nesting depth.
    pub max_depth: u32,
    /// Compatible (schema-evolution) mode for structs.
    pub compatible: bool,
}

/// State of one serialize call: the output, the registry and the nesting depth.
pub struct WriteContext<'a> {
    /// Output bytes.
    pub writer: Writer<'a>,
    registry: &'a Registry,
    options: Options,
    depth: Depth,
    meta_strings: MetaStringWriteState,
}

impl<'a> WriteContext<'a> {
    /// A context appending to `out`.
    pub fn new(out: &'a mut Vec<u8>, registry: &'a Registry, options: Options) -> Self {
        WriteContext {
            writer: Writer::new(out),
            registry,
            options,
            depth: Depth {
                depth: 0,
                max: options.max_depth,
            },
            meta_strings: MetaStringWriteState::new(),
        }
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'a Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.options.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.options.compatible
    }

    /// Enters one level of nesting (a container or struct body).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        self.depth.enter().map_err(Error::new)
    }

    /// Leaves one level of nesting.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Writes a meta string, as a back reference if this stream already holds it.
    pub fn write_meta_string(&mut self, s: &EncodedMetaString) {
        self.meta_strings.write(&mut self.writer, s);
    }

    /// Writes a reference/null flag.
    #[inline]
    pub fn ref_flag(&mut self, flag: RefFlag) {
        self.writer.u8(flag.byte());
    }

    /// Writes a length as varuint32, failing for lengths above `u32::MAX`.
    #[inline]
    pub fn length(&mut self, len: usize) -> Result<()> {
        let n = u32::try_from(len).map_err(|_| {
            Error::new(ErrorKind::LengthTooLarge {
                what: "collection or byte run",
                declared: len as u64,
                limit: u32::MAX as u64,
            })
        })?;
        self.writer.var_u32(n);
        Ok(())
    }
}

/// State of one deserialize call: the input, the registry and the nesting depth.
pub struct ReadContext<'a> {
    /// Input bytes.
    pub reader: Reader<'a>,
    registry: &'a Registry,
    options: Options,
    depth: Depth,
    meta_strings: MetaStringReadState<'a>,
}

impl<'a> ReadContext<'a> {
    /// A context reading `data`.
    pub fn new(data: &'a [u8], registry: &'a Registry, options: Options) -> Self {
        ReadContext {
            reader: Reader::new(data),
            registry,
            options,
            depth: Depth {
                depth: 0,
                max: options.max_depth,
            },
            meta_strings: MetaStringReadState::new(),
        }
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'a Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.options.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.options.compatible
    }

    /// An error of `kind` at the current input offset.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        self.reader.error(kind)
    }

    /// A type-mismatch error: `expected` names what the reader wanted.
    #[cold]
    pub fn mismatch(&self, expected: &str, found: TypeId) -> Error {
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

    /// Reads the namespace and type name meta strings of a named type.
    pub fn read_type_name_strings(&mut self) -> Result<(WireMetaString<'a>, WireMetaString<'a>)> {
        let ns = self.meta_strings.read(&mut self.reader)?;
        let ty = self.meta_strings.read(&mut self.reader)?;
        Ok((ns, ty))
    }

    /// Reads a one-byte type id of an internal type.
    #[inline]
    pub fn type_id(&mut self) -> Result<TypeId> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        TypeId::parse(b).map_err(|k| Error::at(k, at))
    }

    /// Reads a reference/null flag.
    #[inline]
    pub fn ref_flag(&mut self) -> Result<RefFlag> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        RefFlag::parse(b).map_err(|k| Error::at(k, at))
    }

    /// The error for a back reference, which needs reference tracking support.
    #[cold]
    pub fn unsupported_ref(&self) -> Error {
        self.error(ErrorKind::Unsupported {
            what: "back reference (REF flag) to a shared value".to_string(),
        })
    }
}
