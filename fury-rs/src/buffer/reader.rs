//! Bounds-checked decoding of primitive encodings from a byte slice.

use crate::error::{Error, ErrorKind, Result};

/// Reads little-endian numbers, varints and byte runs from a slice.
///
/// Every read is bounds-checked and returns an [`Error`] carrying the offset of the failing
/// read instead of panicking.
///
/// ```
/// use fury::wire::Reader;
/// let mut r = Reader::new(&[0xac, 0x02, 0xfe, 0xff]);
/// assert_eq!(r.var_u32().unwrap(), 300);
/// assert_eq!(r.i16().unwrap(), -2);
/// assert!(r.u8().is_err());
/// ```
#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Starts reading `data` at offset 0.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }

    /// Offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    ///
    /// ```
    /// use fury::wire::Reader;
    /// let mut r = Reader::new(&[1, 2, 3]);
    /// r.u8().unwrap();
    /// assert_eq!(r.rest(), [2, 3]);
    /// ```
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// Length of the whole input.
    #[inline]
    pub fn input_len(&self) -> usize {
        self.data.len()
    }

    /// Bytes left to read.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// An error of `kind` at the current position.
    #[inline]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.pos)
    }

    #[cold]
    fn eof(&self, needed: usize) -> Error {
        self.error(ErrorKind::UnexpectedEof {
            needed,
            remaining: self.remaining(),
        })
    }

    /// Moves the read position back to `pos` (at most the current position).
    pub fn rewind_to(&mut self, pos: usize) -> Result<()> {
        if pos > self.pos {
            return Err(self.error(ErrorKind::Invalid {
                what: format!("cannot rewind forward to offset {pos}"),
            }));
        }
        self.pos = pos;
        Ok(())
    }

    /// Moves the read position to `pos`, back or forward, anywhere in the input.
    #[cfg(feature = "serde")]
    pub(crate) fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.error(ErrorKind::Invalid {
                what: format!("cannot seek to offset {pos}, past the input"),
            }));
        }
        self.pos = pos;
        Ok(())
    }

    /// The bytes from offset `start` up to the current position.
    pub fn consumed_since(&self, start: usize) -> Result<&'a [u8]> {
        self.data.get(start..self.pos).ok_or_else(|| {
            self.error(ErrorKind::Invalid {
                what: format!("offset {start} is past the read position"),
            })
        })
    }

    /// Takes the next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.data.get(self.pos..self.pos.wrapping_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => Err(self.eof(n)),
        }
    }

    #[inline(always)]
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.get(self.pos..).and_then(|s| s.first_chunk::<N>()) {
            Some(a) => {
                self.pos += N;
                Ok(*a)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Checks that a declared element count, read at offset `at`, could fit in what is left,
    /// assuming each element takes at least `min_size` bytes; returns the count as `usize`.
    pub fn check_count(
        &self,
        what: &'static str,
        count: u64,
        min_size: usize,
        at: usize,
    ) -> Result<usize> {
        let limit = (self.remaining() / min_size.max(1)) as u64;
        if count > limit {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what,
                    declared: count,
                    limit,
                },
                at,
            ));
        }
        Ok(count as usize)
    }

    /// Reads one byte.
    #[inline(always)]
    pub fn u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Looks at the next byte without consuming it.
    #[inline]
    pub fn peek_u8(&self) -> Result<u8> {
        self.data.get(self.pos).copied().ok_or_else(|| self.eof(1))
    }

    /// Consumes the next byte if it is `byte`, returning whether it did.
    ///
    /// ```
    /// let mut r = fury::wire::Reader::new(&[0xff, 0x01]);
    /// assert!(r.take_if(0xff));
    /// assert!(!r.take_if(0xff));
    /// assert_eq!(r.position(), 1);
    /// ```
    #[inline]
    pub fn take_if(&mut self, byte: u8) -> bool {
        let hit = self.data.get(self.pos) == Some(&byte);
        self.pos += usize::from(hit);
        hit
    }

    /// Consumes the next `n` bytes (at most 8) if they are the first `n` bytes of the
    /// little-endian `word`, returning whether it did.
    ///
    /// ```
    /// let mut r = fury::wire::Reader::new(&[0x1b, 0x64, 0x07]);
    /// assert!(!r.take_prefix(u64::from_le_bytes([0x1b, 0x65, 0, 0, 0, 0, 0, 0]), 2));
    /// assert!(r.take_prefix(u64::from_le_bytes([0x1b, 0x64, 0, 0, 0, 0, 0, 0]), 2));
    /// assert_eq!(r.position(), 2);
    /// ```
    #[inline]
    pub fn take_prefix(&mut self, word: u64, n: usize) -> bool {
        let n = n.min(8);
        let mask = if n == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * n)) - 1
        };
        let rest = self.rest();
        let hit = match rest.first_chunk::<8>() {
            Some(w) => (u64::from_le_bytes(*w) ^ word) & mask == 0,
            // Near the end of an input of 8 bytes or more, its last word holds the rest in its
            // top bytes: still one compare (a short message ends here), no `memcmp` call.
            None => match self.data.last_chunk::<8>() {
                Some(tail) => {
                    let top = u64::from_le_bytes(*tail)
                        .checked_shr(8 * (8 - rest.len() as u32))
                        .unwrap_or(0);
                    rest.len() >= n && (top ^ word) & mask == 0
                }
                None => rest.get(..n) == word.to_le_bytes().get(..n),
            },
        };
        self.pos += if hit { n } else { 0 };
        hit
    }

    /// Reads one signed byte.
    #[inline(always)]
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }

    /// Reads a bool; only `0` and `1` are accepted.
    #[inline(always)]
    pub fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(self.bad_bool(b)),
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_bool(&self, b: u8) -> Error {
        Error::at(
            ErrorKind::Invalid {
                what: format!("bool byte 0x{b:02x}, expected 0 or 1"),
            },
            self.pos.saturating_sub(1),
        )
    }

    /// Reads a little-endian u16.
    #[inline(always)]
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian i16.
    #[inline(always)]
    pub fn i16(&mut self) -> Result<i16> {
        Ok(i16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian u32.
    #[inline(always)]
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian i32.
    #[inline(always)]
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian u64.
    #[inline(always)]
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian i64.
    #[inline(always)]
    pub fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(self.array()?))
    }

    /// Reads an IEEE-754 single.
    #[inline(always)]
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_bits(self.u32()?))
    }

    /// Reads an IEEE-754 double.
    #[inline(always)]
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }

    /// Reads an unsigned varint64: at most 9 bytes, the ninth carrying 8 bits. Encodings that
    /// are longer than needed (a final zero group) are rejected.
    #[inline]
    pub fn var_u64(&mut self) -> Result<u64> {
        if let Some(&b) = self.data.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(b as u64);
            }
        }
        self.var_u64_multi()
    }

    /// The varuint64 cases of two bytes or more (and the errors).
    fn var_u64_multi(&mut self) -> Result<u64> {
        if let Some(b) = self.data.get(self.pos..).and_then(|s| s.first_chunk::<9>()) {
            let mut v: u64 = 0;
            for (i, &byte) in b.iter().enumerate().take(8) {
                v |= ((byte & 0x7f) as u64) << (7 * i);
                if byte < 0x80 {
                    if byte == 0 && i > 0 {
                        break; // overlong: reported below
                    }
                    self.pos += i + 1;
                    return Ok(v);
                }
            }
            if b[8] != 0 && b[..8].iter().all(|&x| x >= 0x80) {
                self.pos += 9;
                return Ok(v | ((b[8] as u64) << 56));
            }
        }
        self.var_u64_checked()
    }

    /// The byte-by-byte varint64 decoder, which also reports every malformed case.
    fn var_u64_checked(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut result: u64 = 0;
        let mut shift = 0u32;
        for i in 0..8usize {
            let b = self.u8().map_err(|_| self.truncated(start))?;
            result |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                if b == 0 && i > 0 {
                    return Err(self.overlong(start));
                }
                return Ok(result);
            }
            shift += 7;
        }
        let b = self.u8().map_err(|_| self.truncated(start))?;
        if b == 0 {
            return Err(self.overlong(start));
        }
        Ok(result | ((b as u64) << 56))
    }

    /// Reads an unsigned varint32: at most 5 bytes, value below 2^32, minimal length.
    #[inline(always)]
    pub fn var_u32(&mut self) -> Result<u32> {
        // Fast path: five bytes are available, so no byte needs its own bounds check.
        if let Some(b) = self.data.get(self.pos..).and_then(|s| s.first_chunk::<5>()) {
            let mut v = b[0] as u32;
            if v < 0x80 {
                self.pos += 1;
                return Ok(v);
            }
            v &= 0x7f;
            for (i, &byte) in b.iter().enumerate().skip(1) {
                let byte = byte as u32;
                if i == 4 && byte > 0x0f {
                    break; // too long or too large: the checked path reports it
                }
                v |= (byte & 0x7f) << (7 * i);
                if byte < 0x80 {
                    if byte == 0 {
                        break; // overlong: reported below
                    }
                    self.pos += i + 1;
                    return Ok(v);
                }
            }
        } else if let Some(&b) = self.data.get(self.pos) {
            // Near the end of the input: one byte still needs no loop.
            if b < 0x80 {
                self.pos += 1;
                return Ok(b as u32);
            }
        }
        self.var_u32_checked()
    }

    /// The byte-by-byte varint32 decoder, which also reports every malformed case.
    fn var_u32_checked(&mut self) -> Result<u32> {
        let first = self.peek_u8()?;
        if first < 0x80 {
            self.pos += 1;
            return Ok(first as u32);
        }
        let start = self.pos;
        let mut result: u32 = 0;
        let mut shift = 0u32;
        for i in 0..5usize {
            let b = self.u8().map_err(|_| self.truncated(start))?;
            if i == 4 && b > 0x0f {
                return Err(Error::at(
                    ErrorKind::BadVarint {
                        what: "varint32 longer than 5 bytes or above 2^32-1",
                    },
                    start,
                ));
            }
            result |= ((b & 0x7f) as u32) << shift;
            if b < 0x80 {
                if b == 0 && i > 0 {
                    return Err(self.overlong(start));
                }
                return Ok(result);
            }
            shift += 7;
        }
        // Unreachable in practice: the fifth byte is at most 0x0f, so the loop returns.
        Err(self.overlong(start))
    }

    /// Reads a zigzag signed varint32.
    #[inline(always)]
    pub fn var_i32(&mut self) -> Result<i32> {
        let v = self.var_u32()?;
        Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
    }

    /// Reads a zigzag signed varint64.
    #[inline]
    pub fn var_i64(&mut self) -> Result<i64> {
        let v = self.var_u64()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// Reads a TAGGED_INT64 (4 bytes with a clear low bit, or `0x01` then 8 bytes).
    #[inline]
    pub fn tagged_i64(&mut self) -> Result<i64> {
        let first = self.peek_u8()?;
        if first & 1 == 0 {
            Ok((self.i32()? >> 1) as i64)
        } else if first == 1 {
            self.pos += 1;
            self.i64()
        } else {
            Err(self.error(ErrorKind::Invalid {
                what: format!("tagged int64 tag byte 0x{first:02x}, expected an even byte or 0x01"),
            }))
        }
    }

    /// Reads a TAGGED_UINT64 (4 bytes with a clear low bit, or `0x01` then 8 bytes).
    #[inline]
    pub fn tagged_u64(&mut self) -> Result<u64> {
        let first = self.peek_u8()?;
        if first & 1 == 0 {
            Ok((self.u32()? >> 1) as u64)
        } else if first == 1 {
            self.pos += 1;
            self.u64()
        } else {
            Err(self.error(ErrorKind::Invalid {
                what: format!(
                    "tagged uint64 tag byte 0x{first:02x}, expected an even byte or 0x01"
                ),
            }))
        }
    }

    #[cold]
    fn truncated(&self, start: usize) -> Error {
        Error::at(
            ErrorKind::BadVarint {
                what: "input ends inside a varint",
            },
            start,
        )
    }

    #[cold]
    fn overlong(&self, start: usize) -> Error {
        Error::at(
            ErrorKind::BadVarint {
                what: "varint encoded with more bytes than needed",
            },
            start,
        )
    }
}
