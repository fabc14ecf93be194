//! STRING: `varuint64 header = byte length << 2 | encoding`, then the bytes.
//!
//! Writer choice: an all-ASCII string is written with the LATIN1 flag (the same bytes as
//! UTF-8, and what Java and Python write); any other string as UTF-8. The reader accepts
//! LATIN1, UTF-16LE and UTF-8.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{string_encoding, TypeId};
use std::borrow::Cow;

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

fn reserved_encoding(at: usize) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: "string header uses the reserved encoding 3".to_string(),
        },
        at,
    )
}

/// A string payload: its encoding and bytes, borrowed from the input, and the offsets of
/// its header and of its bytes.
struct Payload<'de> {
    enc: u64,
    bytes: &'de [u8],
    at: usize,
    body_at: usize,
}

#[inline(always)]
fn payload<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<Payload<'de>> {
    let at = ctx.reader.position();
    let header = ctx.reader.var_u64()?;
    let len = ctx.reader.check_count("string", header >> 2, 1, at)?;
    let body_at = ctx.reader.position();
    Ok(Payload {
        enc: header & 3,
        bytes: ctx.reader.bytes(len)?,
        at,
        body_at,
    })
}

impl<'de> Payload<'de> {
    /// The text as the input holds it, if it holds it as UTF-8 (a UTF-8 payload, or LATIN1
    /// that is all ASCII); `Ok(None)` for text in another encoding. Inlined into each string
    /// reader that borrows (`read_str`, `read_str_cow`).
    #[inline(always)]
    fn as_str(&self) -> Result<Option<&'de str>> {
        match self.enc {
            // LATIN1 beyond ASCII is other text than the same bytes as UTF-8.
            string_encoding::LATIN1 => Ok(crate::buffer::ascii_str(self.bytes)),
            string_encoding::UTF16 => Ok(None),
            string_encoding::UTF8 => crate::buffer::utf8_str(self.bytes)
                .map(Some)
                .ok_or_else(|| self.bad("utf-8")),
            _ => Err(reserved_encoding(self.at)),
        }
    }

    fn bad(&self, encoding: &'static str) -> Error {
        Error::at(ErrorKind::BadString { encoding }, self.body_at)
    }

    /// The text, decoded into a new `String`.
    #[inline]
    fn to_string(&self) -> Result<String> {
        let bytes = self.bytes;
        match self.enc {
            // All-ASCII LATIN1 is valid UTF-8: one check, one copy.
            string_encoding::LATIN1 => {
                Ok(crate::buffer::ascii_to_string(bytes).unwrap_or_else(|| latin1_text(bytes)))
            }
            string_encoding::UTF16 => utf16_text(bytes, self.body_at),
            string_encoding::UTF8 => {
                crate::buffer::utf8_to_string(bytes).ok_or_else(|| self.bad("utf-8"))
            }
            _ => Err(reserved_encoding(self.at)),
        }
    }
}

/// The text of a UTF-16 payload whose bytes start at `body_at`. (Its arguments are the
/// payload's parts, not the payload: the string readers then keep theirs in registers.)
#[inline]
fn utf16_text(bytes: &[u8], body_at: usize) -> Result<String> {
    let bad = |encoding| Error::at(ErrorKind::BadString { encoding }, body_at);
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

/// The text of a LATIN1 payload (every byte a character).
#[inline]
fn latin1_text(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// Reads the payload of a string.
pub(crate) fn read_string<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<String> {
    payload(ctx)?.to_string()
}

/// Reads the payload of a string as a `&str` borrowed from the input: a LATIN1 payload that
/// is all ASCII, or a valid UTF-8 one. Other text (LATIN1 with bytes >= 0x80, UTF-16, which
/// Java writes for non-Latin text) has no `&str` in the input: an error naming the encoding
/// and the offset.
pub(crate) fn read_str<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<&'de str> {
    let p = payload(ctx)?;
    p.as_str()?.ok_or_else(|| {
        let what = match p.enc {
            string_encoding::UTF16 => "UTF-16",
            _ => "LATIN1 (non-ASCII)",
        };
        Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "a {what} string cannot be borrowed as &str (read a String, or a Cow<str>)"
                ),
            },
            p.body_at,
        )
    })
}

/// Reads the payload of a string, borrowed where the input holds it as UTF-8 (see
/// [`read_str`]) and decoded into a new `String` otherwise.
pub(crate) fn read_str_cow<'de>(ctx: &mut ReadContext<'de, '_>) -> Result<Cow<'de, str>> {
    let p = payload(ctx)?;
    match p.as_str()? {
        Some(s) => Ok(Cow::Borrowed(s)),
        None => not_utf8(p.enc, p.bytes, p.body_at).map(Cow::Owned),
    }
}

/// The text of a payload that `Payload::as_str` found in another encoding than UTF-8
/// (non-ASCII LATIN1, UTF-16), out of line: a reader that borrows its strings rarely needs
/// it, and `read_string` keeps `to_string` and the UTF-8 copy inlined.
#[inline(never)]
fn not_utf8(enc: u64, bytes: &[u8], body_at: usize) -> Result<String> {
    match enc {
        string_encoding::UTF16 => utf16_text(bytes, body_at),
        _ => Ok(latin1_text(bytes)),
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
