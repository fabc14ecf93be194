//! STRING: `varuint64 header = byte length << 2 | encoding`, then the bytes.
//!
//! Writer choice: an all-ASCII string is written with the LATIN1 flag (the same bytes as
//! UTF-8, and what Java and Python write); any other string as UTF-8. The reader accepts
//! LATIN1, UTF-16LE and UTF-8.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{string_encoding, TypeId};

/// Writes the payload of a string.
#[inline(always)]
pub(crate) fn write_str(s: &str, ctx: &mut WriteContext) {
    ctx.writer.tagged_run(
        s.as_bytes(),
        string_encoding::LATIN1 as u8,
        string_encoding::UTF8 as u8,
    );
}

/// Writes the payload of a string into a room opened with `s.len() + 9` bytes for it.
#[inline(always)]
pub fn room_str(room: &mut crate::buffer::Room<'_, '_>, s: &str) {
    room.tagged_run(
        s.as_bytes(),
        string_encoding::LATIN1 as u8,
        string_encoding::UTF8 as u8,
    );
}

/// The header of a string payload and its bytes, borrowed from the input: the encoding, the
/// bytes, and the offsets of the header and of the bytes.
#[inline(always)]
fn string_payload<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<(u64, &'de [u8], usize, usize)> {
    let at = ctx.reader.position();
    let header = ctx.reader.var_u64()?;
    let len = header >> 2;
    let enc = header & 3;
    let len = ctx.reader.check_count("string", len, 1, at)?;
    let body_at = ctx.reader.position();
    let bytes = ctx.reader.bytes(len)?;
    Ok((enc, bytes, at, body_at))
}

fn reserved_encoding(at: usize) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: "string header uses the reserved encoding 3".to_string(),
        },
        at,
    )
}

/// Reads the payload of a string.
pub(crate) fn read_string<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<String> {
    let (enc, bytes, at, body_at) = string_payload(ctx)?;
    let bad = |encoding| Error::at(ErrorKind::BadString { encoding }, body_at);
    match enc {
        // All-ASCII LATIN1 is valid UTF-8: one check, one copy.
        string_encoding::LATIN1 => Ok(crate::buffer::ascii_to_string(bytes)
            .unwrap_or_else(|| bytes.iter().map(|&b| b as char).collect())),
        string_encoding::UTF16 => {
            if !bytes.len().is_multiple_of(2) {
                return Err(bad("utf-16 (odd byte length)"));
            }
            let units = bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]));
            char::decode_utf16(units)
                .collect::<std::result::Result<String, _>>()
                .map_err(|_| bad("utf-16"))
        }
        string_encoding::UTF8 => crate::buffer::utf8_to_string(bytes).ok_or_else(|| bad("utf-8")),
        _ => Err(reserved_encoding(at)),
    }
}

/// Reads the payload of a string as a `&str` borrowed from the input: a LATIN1 payload that
/// is all ASCII, or a valid UTF-8 one. Other text (LATIN1 with bytes >= 0x80, UTF-16, which
/// Java writes for non-Latin text) has no `&str` in the input: an error naming the encoding
/// and the offset.
pub(crate) fn read_str<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<&'de str> {
    let (enc, bytes, at, body_at) = string_payload(ctx)?;
    let not_borrowable = |what: &str| {
        Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "a {what} string cannot be borrowed as &str (read a String, or a Cow<str>)"
                ),
            },
            body_at,
        )
    };
    match enc {
        string_encoding::LATIN1 if bytes.is_ascii() => {
            std::str::from_utf8(bytes).map_err(|_| not_borrowable("LATIN1"))
        }
        string_encoding::LATIN1 => Err(not_borrowable("LATIN1 (non-ASCII)")),
        string_encoding::UTF16 => Err(not_borrowable("UTF-16")),
        string_encoding::UTF8 => std::str::from_utf8(bytes)
            .map_err(|_| Error::at(ErrorKind::BadString { encoding: "utf-8" }, body_at)),
        _ => Err(reserved_encoding(at)),
    }
}

/// A string borrowed from the input (see `read_str` for the encodings that can be).
///
/// ```
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&vec!["tea", "milk"]).unwrap();
/// let words: Vec<&str> = fury.deserialize(&bytes).unwrap();
/// assert_eq!(words, ["tea", "milk"]);
/// ```
impl<'de: 'a, 'a> Deserialize<'de> for &'a str {
    #[inline]
    fn missing() -> Option<Self> {
        Some("")
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_str(ctx)
    }
}

impl WireType for str {
    const TYPE_ID: TypeId = TypeId::String;
}

impl Serialize for str {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_str(self, ctx);
        Ok(())
    }
}

impl WireType for String {
    const TYPE_ID: TypeId = TypeId::String;
}

impl Serialize for String {
    #[inline(always)]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_str(self, ctx);
        Ok(())
    }
}

impl<'de> Deserialize<'de> for String {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::default())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_string(ctx)
    }
}
