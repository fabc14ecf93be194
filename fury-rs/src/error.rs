//! The one error type of the crate.
//!
//! Every failure while reading says what was expected and, when the failure comes from the
//! input, the byte offset in the input where it was detected.

use std::fmt;

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// What went wrong: [`Error::kind`]. Match on it to tell bad input from unsupported
/// features and limits.
///
/// ```
/// use fury::{ErrorKind, Fury};
///
/// let fury = Fury::default();
/// // A 300-byte string announced in a 4-byte stream.
/// let e = fury.deserialize::<String>(&[0x01, 0xff, 0x15, 0xb0, 0x09]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. } | ErrorKind::UnexpectedEof { .. }));
///
/// // A string where an integer is expected.
/// let bytes = fury.serialize(&"seven").unwrap();
/// let e = fury.deserialize::<i32>(&bytes).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[allow(missing_docs)] // field names say what they hold
pub enum ErrorKind {
    /// The input ended while `needed` more bytes were expected.
    UnexpectedEof { needed: usize, remaining: usize },
    /// A varint used more bytes than its width allows, or more bytes than needed.
    BadVarint { what: &'static str },
    /// The stream header byte has bits this implementation does not understand.
    BadHeader { byte: u8 },
    /// A reference/null flag byte outside -3..=0.
    BadRefFlag { byte: u8 },
    /// A type id byte that names no known type.
    UnknownTypeId { id: u8 },
    /// The stream holds a value of another type than the one asked for.
    TypeMismatch { expected: String, found: String },
    /// A null where the target type cannot hold one.
    UnexpectedNull { expected: String },
    /// A declared length larger than the bytes left (or than a hard limit).
    LengthTooLarge {
        what: &'static str,
        declared: u64,
        limit: u64,
    },
    /// A string payload that is not valid in its declared encoding.
    BadString { encoding: &'static str },
    /// An integer that does not fit the target type.
    OutOfRange { value: String, target: &'static str },
    /// Nesting deeper than the configured maximum.
    DepthLimit { limit: u32 },
    /// The input has bytes after the root value.
    TrailingBytes { count: usize },
    /// The stream uses a feature this version does not support yet.
    Unsupported { what: String },
    /// Any other malformed input.
    Invalid { what: String },
    /// A row (row format) that is not valid for its type: `field` is the path to the field
    /// or element (`inner.tags[3]`), `what` what was wrong there.
    BadRow { field: String, what: String },
    /// Decoding would allocate more than one call may: `needed` bytes in all so far, of
    /// `limit` ([`FuryBuilder::max_alloc`](crate::FuryBuilder::max_alloc), or
    /// [`FuryBuilder::max_alloc_per_input_byte`](crate::FuryBuilder::max_alloc_per_input_byte)
    /// times the input's length plus 1 MiB, whichever is smaller).
    AllocLimit { needed: u64, limit: u64 },
    /// A field of the local struct `ty` that the peer's TypeDef lacks (compatible mode), and
    /// that cannot be filled: [`FuryBuilder::strict`](crate::FuryBuilder::strict) is on and
    /// the field has no `#[fury(default)]`, or its type has no default value.
    MissingField { ty: String, field: String },
    /// The stream's structs are in the other mode than this `Fury`'s: `stream` and `local`
    /// are `"compatible"` or `"same-schema"`.
    ModeMismatch {
        stream: &'static str,
        local: &'static str,
    },
    /// Reading from a `std::io::Read` or writing to a `std::io::Write` failed.
    Io {
        kind: std::io::ErrorKind,
        message: String,
    },
}

/// The error of every fallible operation in this crate: its [`kind`](Error::kind), and for
/// input that is wrong, the byte [`offset`](Error::offset) where it was detected. Its
/// `Display` says what was expected, and where.
///
/// ```
/// use fury::Fury;
///
/// let fury = Fury::default();
/// let mut bytes = fury.serialize(&vec![1i64, 2, 3]).unwrap();
/// bytes.truncate(bytes.len() - 1); // the stream ends inside the last element
/// let e = fury.deserialize::<Vec<i64>>(&bytes).unwrap_err();
/// // The array's byte length, at offset 3, promises more bytes than are left.
/// assert_eq!(e.offset(), Some(3));
/// assert!(e.to_string().contains("offset"), "{e}");
/// ```
///
/// It is one pointer wide (the details live on the heap), so a `Result` of a small value
/// travels in registers and the success path of every read and write stays cheap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Details {
    kind: ErrorKind,
    offset: Option<usize>,
    /// What the user may do about it, when the error has a likely cause on their side.
    hint: Option<&'static str>,
}

impl Error {
    /// Builds an error of `kind` detected at byte `offset` of the input.
    #[cold]
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(Details {
            kind,
            offset: Some(offset),
            hint: None,
        }))
    }

    /// Builds an error that is not tied to an input position (e.g. while writing).
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Details {
            kind,
            offset: None,
            hint: None,
        }))
    }

    /// The same error with a hint: what the caller may change to avoid it (shown after the
    /// message).
    #[cold]
    pub fn with_hint(mut self, hint: &'static str) -> Self {
        self.0.hint = Some(hint);
        self
    }

    /// The hint, if the error has one (see [`with_hint`](Self::with_hint)).
    pub fn hint(&self) -> Option<&'static str> {
        self.0.hint
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// A row error one level up: `name` (a field name or `[index]`) prefixed to its path.
    #[cold]
    pub(crate) fn in_row_field(mut self, name: &str) -> Self {
        if let ErrorKind::BadRow { field, .. } = &mut self.0.kind {
            let sep = if field.is_empty() || field.starts_with('[') {
                ""
            } else {
                "."
            };
            *field = format!("{name}{sep}{field}");
        }
        self
    }

    /// The same error with its offset moved by `by` bytes (the input had a prefix).
    #[cold]
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        self.0.offset = self.0.offset.map(|o| o.saturating_add(by));
        self
    }

    /// Byte offset in the input where the problem was detected, if the error came from input.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof { needed, remaining } => write!(
                f,
                "unexpected end of input: expected {needed} more byte(s), {remaining} left"
            ),
            ErrorKind::BadVarint { what } => write!(f, "malformed varint: {what}"),
            ErrorKind::BadHeader { byte } => write!(
                f,
                "bad stream header 0x{byte:02x}: expected the xlang bit (0x01) and no reserved bits"
            ),
            ErrorKind::BadRefFlag { byte } => write!(
                f,
                "bad reference flag 0x{byte:02x}: expected one of 0xfd, 0xfe, 0xff, 0x00"
            ),
            ErrorKind::UnknownTypeId { id } => write!(f, "unknown type id {id}"),
            ErrorKind::TypeMismatch { expected, found } => {
                write!(f, "type mismatch: expected {expected}, found {found}")
            }
            ErrorKind::UnexpectedNull { expected } => {
                write!(f, "unexpected null: expected a non-null {expected}")
            }
            ErrorKind::LengthTooLarge {
                what,
                declared,
                limit,
            } => write!(
                f,
                "{what} declares length {declared}, more than the {limit} possible"
            ),
            ErrorKind::BadString { encoding } => write!(f, "invalid {encoding} string data"),
            ErrorKind::OutOfRange { value, target } => {
                write!(f, "value {value} does not fit in {target}")
            }
            ErrorKind::DepthLimit { limit } => {
                write!(f, "nesting deeper than the limit of {limit} levels")
            }
            ErrorKind::TrailingBytes { count } => {
                write!(f, "{count} unexpected byte(s) after the root value")
            }
            ErrorKind::Unsupported { what } => write!(f, "unsupported: {what}"),
            ErrorKind::Invalid { what } => write!(f, "invalid input: {what}"),
            ErrorKind::BadRow { field, what } if field.is_empty() => {
                write!(f, "invalid row: {what}")
            }
            ErrorKind::BadRow { field, what } => write!(f, "invalid row at `{field}`: {what}"),
            ErrorKind::AllocLimit { needed, limit } => write!(
                f,
                "decoding needs at least {needed} bytes of memory, more than the {limit} bytes \
                 this input may allocate (FuryBuilder::max_alloc, or \
                 max_alloc_per_input_byte times the input's length plus 1 MiB)"
            ),
            ErrorKind::MissingField { ty, field } => write!(
                f,
                "field `{field}` of {ty} is missing from the peer's schema"
            ),
            ErrorKind::ModeMismatch { stream, local } => write!(
                f,
                "mode mismatch: the stream is in {stream} mode, this Fury is {local} \
                 (both sides must use the same `compatible` setting)"
            ),
            ErrorKind::Io { kind, message } => write!(f, "I/O error ({kind:?}): {message}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.offset {
            Some(off) => write!(f, "{} (at byte offset {off})", self.0.kind)?,
            None => write!(f, "{}", self.0.kind)?,
        }
        match self.0.hint {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io {
            kind: e.kind(),
            message: e.to_string(),
        })
    }
}
