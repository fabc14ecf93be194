//! Appending primitive encodings to a reusable `Vec<u8>`.

/// Appends little-endian fixed-width numbers, varints and byte runs to a `Vec<u8>`.
///
/// The writer never shrinks or clears the vector: it only appends, so a caller can reuse one
/// allocation for many messages.
///
/// ```
/// use fury::buffer::Writer;
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out);
/// w.var_u32(300);
/// w.i16(-2);
/// assert_eq!(out, [0xac, 0x02, 0xfe, 0xff]);
/// ```
pub struct Writer<'a> {
    buf: &'a mut Vec<u8>,
}

/// Largest encoded size of an unsigned varint64 (8 groups of 7 bits plus one full byte).
pub const MAX_VARINT64_LEN: usize = 9;
/// Largest encoded size of an unsigned varint32.
pub const MAX_VARINT32_LEN: usize = 5;

/// Maps a signed 32-bit value to unsigned so that small magnitudes stay small.
#[inline]
pub fn zigzag32(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

/// Maps a signed 64-bit value to unsigned so that small magnitudes stay small.
#[inline]
pub fn zigzag64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Bytes an unsigned varint32 takes (1 to 5).
#[inline]
pub fn var_u32_len(v: u32) -> u32 {
    // 7 payload bits per byte; a zero still takes one byte.
    let bits = 32 - (v | 1).leading_zeros();
    // ceil(bits / 7) for bits in 1..=32, without a division.
    (bits * 9 + 64) >> 6
}

/// Encodes `v` as an unsigned varint64 into `out`, returning the number of bytes used.
///
/// Groups of 7 bits, low first, with the high bit of each byte marking a continuation; the
/// ninth byte, if reached, carries the 8 remaining bits whole (so 9 bytes cover 64 bits).
#[inline]
pub fn encode_var_u64(mut v: u64, out: &mut [u8; MAX_VARINT64_LEN]) -> usize {
    let mut i = 0;
    while i < 8 {
        if v < 0x80 {
            out[i] = v as u8;
            return i + 1;
        }
        out[i] = (v as u8 & 0x7f) | 0x80;
        v >>= 7;
        i += 1;
    }
    out[8] = v as u8;
    MAX_VARINT64_LEN
}

impl<'a> Writer<'a> {
    /// Wraps `buf`; bytes are appended after its current content.
    #[inline]
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        Writer { buf }
    }

    /// Number of bytes in the underlying vector.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when the underlying vector holds no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Reserves room for at least `additional` more bytes.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// Overwrites the byte at `pos` (which must already be written).
    #[inline]
    pub fn patch_u8(&mut self, pos: usize, v: u8) {
        if let Some(b) = self.buf.get_mut(pos) {
            *b = v;
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Appends one signed byte.
    #[inline]
    pub fn i8(&mut self, v: i8) {
        self.buf.push(v as u8);
    }

    /// Appends `0` or `1`.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.buf.push(v as u8);
    }

    /// Appends a little-endian u16.
    #[inline]
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a little-endian i16.
    #[inline]
    pub fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a little-endian u32.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a little-endian i32.
    #[inline]
    pub fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a little-endian u64.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a little-endian i64.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends the IEEE-754 bits of `v`, little-endian.
    #[inline]
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// Appends the IEEE-754 bits of `v`, little-endian.
    #[inline]
    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }

    /// Appends an unsigned varint32 (1 to 5 bytes).
    #[inline]
    pub fn var_u32(&mut self, v: u32) {
        if v < 0x80 {
            self.buf.push(v as u8);
            return;
        }
        // Branch-free: spread the 7-bit groups over the bytes of a u64, mark the
        // continuation bit of all but the last used byte, append 8 bytes, keep `n`.
        let x = v as u64;
        let spread = (x & 0x7f)
            | ((x & 0x3f80) << 1)
            | ((x & 0x1f_c000) << 2)
            | ((x & 0x0fe0_0000) << 3)
            | ((x & 0xf000_0000) << 4);
        let n = var_u32_len(v);
        let cont = 0x80_8080_8080u64 & ((1u64 << (8 * (n - 1))) - 1);
        let len = self.buf.len();
        self.buf.extend_from_slice(&(spread | cont).to_le_bytes());
        self.buf.truncate(len + n as usize);
    }

    /// Appends a zigzag signed varint32.
    #[inline]
    pub fn var_i32(&mut self, v: i32) {
        self.var_u32(zigzag32(v));
    }

    /// Appends an unsigned varint64 (1 to 9 bytes).
    #[inline]
    pub fn var_u64(&mut self, v: u64) {
        if v < 0x80 {
            self.buf.push(v as u8);
            return;
        }
        if v < 1 << 56 {
            // Branch-free for up to 8 bytes, as in `var_u32`.
            let spread = (v & 0x7f)
                | ((v << 1) & 0x7f00)
                | ((v << 2) & 0x7f_0000)
                | ((v << 3) & 0x7f00_0000)
                | ((v << 4) & 0x7f_0000_0000)
                | ((v << 5) & 0x7f00_0000_0000)
                | ((v << 6) & 0x7f_0000_0000_0000)
                | ((v << 7) & 0x7f00_0000_0000_0000);
            let bits = 64 - v.leading_zeros();
            let n = (bits * 9 + 64) >> 6; // ceil(bits / 7) for bits in 8..=56
            let cont = 0x8080_8080_8080_8080u64 & ((1u64 << (8 * (n - 1))) - 1);
            let len = self.buf.len();
            self.buf.extend_from_slice(&(spread | cont).to_le_bytes());
            self.buf.truncate(len + n as usize);
            return;
        }
        let mut tmp = [0u8; MAX_VARINT64_LEN];
        let n = encode_var_u64(v, &mut tmp);
        // Appending the whole fixed-size array and cutting it back compiles to a few stores;
        // a variable-length slice would cost a call to memcpy.
        let len = self.buf.len();
        self.buf.extend_from_slice(&tmp);
        self.buf.truncate(len + n);
    }

    /// Appends a zigzag signed varint64.
    #[inline]
    pub fn var_i64(&mut self, v: i64) {
        self.var_u64(zigzag64(v));
    }

    /// Appends a TAGGED_INT64: 4 bytes `v << 1` when `v` is in `[-2^30, 2^30-1]`, otherwise the
    /// byte `0x01` followed by the 8-byte value.
    #[inline]
    pub fn tagged_i64(&mut self, v: i64) {
        if (-(1i64 << 30)..(1i64 << 30)).contains(&v) {
            self.i32((v as i32) << 1);
        } else {
            self.u8(1);
            self.i64(v);
        }
    }

    /// Appends a TAGGED_UINT64: 4 bytes `v << 1` when `v < 2^31`, otherwise `0x01` and 8 bytes.
    #[inline]
    pub fn tagged_u64(&mut self, v: u64) {
        if v < (1u64 << 31) {
            self.u32((v as u32) << 1);
        } else {
            self.u8(1);
            self.u64(v);
        }
    }

    /// The underlying vector, for bulk appends.
    #[inline]
    pub(crate) fn vec_mut(&mut self) -> &mut Vec<u8> {
        self.buf
    }

    /// Appends raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
}
