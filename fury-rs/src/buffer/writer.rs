//! Appending primitive encodings to a reusable `Vec<u8>`.
//!
//! This file holds `unsafe` code (as do `numbers.rs` and `text.rs` beside it; nothing else
//! in the crate does): every block says why it is sound.

#![allow(unsafe_code)]

/// Appends little-endian fixed-width numbers, varints and byte runs to a `Vec<u8>`.
///
/// The writer never shrinks or clears the vector: it only appends, so a caller can reuse one
/// allocation for many messages. While it is alive it keeps the vector's pointer, length and
/// capacity in its own fields (so a run of small writes compiles to stores and one capacity
/// compare each); the vector's length is brought up to date when the writer is dropped.
///
/// ```
/// use fury::wire::Writer;
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out);
/// w.var_u32(300);
/// w.i16(-2);
/// drop(w);
/// assert_eq!(out, [0xac, 0x02, 0xfe, 0xff]);
/// ```
pub struct Writer<'a> {
    // Invariant (checked by every method that touches memory):
    // `ptr == vec.as_mut_ptr()`, `cap == vec.capacity()`, `vec.len() <= len <= cap`, and the
    // bytes `ptr[..len]` are initialised. The vector is borrowed exclusively for `'a`, so
    // nothing else can move or resize its allocation while the writer lives.
    pub(super) ptr: *mut u8,
    pub(super) len: usize,
    pub(super) cap: usize,
    vec: &'a mut Vec<u8>,
}

/// Largest encoded size of an unsigned varint64 (8 groups of 7 bits plus one full byte).
pub const MAX_VARINT64_LEN: usize = 9;

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
#[cfg(test)]
#[inline]
pub fn var_u32_len(v: u32) -> u32 {
    // 7 payload bits per byte; a zero still takes one byte.
    let bits = 32 - (v | 1).leading_zeros();
    // ceil(bits / 7) for bits in 1..=32, without a division.
    (bits * 9 + 64) >> 6
}

/// The continuation bits of a varint of `n` bytes (n in 1..=8, stored as one word): the high
/// bit of every byte but the last. Sixteen entries so that an index masked with 15 needs no
/// bounds check.
const CONTINUATION: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut n = 2;
    while n <= 8 {
        t[n] = 0x8080_8080_8080_8080u64 & ((1u64 << (8 * (n - 1))) - 1);
        n += 1;
    }
    t
};

/// The 7-bit groups of the low 28 bits of `v` spread over the four bytes of a `u32`, with the
/// continuation bit set on the first three: the varint of a value in `2^21..2^28`.
#[inline(always)]
fn four_groups(v: u64) -> u32 {
    ((v & 0x7f) | ((v << 1) & 0x7f00) | ((v << 2) & 0x7f_0000) | ((v << 3) & 0x7f00_0000)) as u32
        | 0x0080_8080
}

/// The varint of a value in `2^14..2^21`, in the low three bytes of a `u32`.
#[inline(always)]
fn three_groups(v: u64) -> u32 {
    ((v & 0x7f) | ((v << 1) & 0x7f00) | ((v << 2) & 0x7f_0000)) as u32 | 0x8080
}

/// Stores `v` as a varint if it takes at most 4 bytes, returning its length; `None` (and
/// nothing stored) for larger values. Each length has its own branch with a constant
/// length, so the position that follows does not wait for a length computation.
///
/// # Safety
/// `dst` must be valid for writes of 4 bytes.
#[inline(always)]
unsafe fn store_short_varint(dst: *mut u8, v: u64) -> Option<usize> {
    // SAFETY (all stores): at most 4 bytes at `dst`, which the caller guarantees; unaligned.
    unsafe {
        if v < 0x80 {
            *dst = v as u8;
            Some(1)
        } else if v < 0x4000 {
            let two = (v & 0x7f) | 0x80 | ((v >> 7) << 8);
            std::ptr::write_unaligned(dst as *mut u16, (two as u16).to_le());
            Some(2)
        } else if v < 1 << 21 {
            std::ptr::write_unaligned(dst as *mut u32, three_groups(v).to_le());
            Some(3)
        } else if v < 1 << 28 {
            std::ptr::write_unaligned(dst as *mut u32, four_groups(v).to_le());
            Some(4)
        } else {
            None
        }
    }
}

/// Stores `v` as an unsigned varint32 at `dst`, returning its length (1 to 5).
///
/// # Safety
/// `dst` must be valid for writes of 8 bytes (a whole word is stored; only the returned
/// length counts).
#[inline(always)]
pub(super) unsafe fn store_var_u32(dst: *mut u8, v: u32) -> usize {
    let x = u64::from(v);
    // SAFETY: 4 of the 8 writable bytes.
    if let Some(n) = unsafe { store_short_varint(dst, x) } {
        return n;
    }
    let five = u64::from(four_groups(x)) | 0x8000_0000 | ((x >> 28) << 32);
    // SAFETY: 8 writable bytes; unaligned store.
    unsafe { std::ptr::write_unaligned(dst as *mut u64, five.to_le()) };
    5
}

/// Stores `v` as an unsigned varint64 at `dst`, returning its length (1 to 9).
///
/// # Safety
/// `dst` must be valid for writes of 9 bytes (whole words may be stored past the length
/// returned, within those 9 bytes).
#[inline(always)]
pub(super) unsafe fn store_var_u64(dst: *mut u8, v: u64) -> usize {
    // SAFETY: 4 of the 9 writable bytes.
    if let Some(n) = unsafe { store_short_varint(dst, v) } {
        return n;
    }
    if v < 1 << 56 {
        // Branch-free for 5 to 8 bytes: spread the 7-bit groups over the bytes of a u64 and
        // mark the continuation bit of all but the last used byte.
        let spread = (v & 0x7f)
            | ((v << 1) & 0x7f00)
            | ((v << 2) & 0x7f_0000)
            | ((v << 3) & 0x7f00_0000)
            | ((v << 4) & 0x7f_0000_0000)
            | ((v << 5) & 0x7f00_0000_0000)
            | ((v << 6) & 0x7f_0000_0000_0000)
            | ((v << 7) & 0x7f00_0000_0000_0000);
        let bits = 64 - v.leading_zeros();
        let n = (bits * 9 + 64) >> 6; // ceil(bits / 7) for bits in 29..=56
        let cont = CONTINUATION[n as usize & 15];
        // SAFETY: 8 of the 9 writable bytes; unaligned store.
        unsafe { std::ptr::write_unaligned(dst as *mut u64, (spread | cont).to_le()) };
        return n as usize;
    }
    let mut tmp = [0u8; MAX_VARINT64_LEN];
    let n = encode_var_u64(v, &mut tmp);
    // SAFETY: exactly the 9 writable bytes; `tmp` is a separate local.
    unsafe { std::ptr::copy_nonoverlapping(tmp.as_ptr(), dst, MAX_VARINT64_LEN) };
    n
}

/// Stores a string-like run at `at`: the varuint64 header `bytes.len() << 2 | tag` (`tag` is
/// `ascii_tag` if every byte is below 0x80, else `other_tag`; both below 4) and the bytes.
/// Returns the number of bytes stored (header and payload).
///
/// # Safety
/// `at` must be valid for writes of `bytes.len() + 9` bytes that do not overlap `bytes`.
#[inline(always)]
pub(super) unsafe fn put_tagged_run(
    at: *mut u8,
    bytes: &[u8],
    ascii_tag: u8,
    other_tag: u8,
) -> usize {
    let n = bytes.len();
    let header = (n as u64) << 2;
    let tag = |words: Option<u64>| {
        let ascii = match words {
            Some(w) => w & 0x8080_8080_8080_8080 == 0,
            None => bytes.is_ascii(),
        };
        u64::from((if ascii { ascii_tag } else { other_tag }) & 3)
    };
    // The tag only touches the two low bits, so it never changes the header's length.
    let hlen = if header < 0x80 {
        1
    } else if header < 0x4000 {
        2
    } else {
        var_u64_len(header)
    };
    // SAFETY: the payload goes to the `n` bytes after the header's `hlen <= 9` bytes, inside
    // the `n + 9` writable bytes the caller guarantees, and does not overlap `bytes`. The
    // header is stored after the payload (its tag depends on it) with stores of exactly
    // `hlen` bytes.
    unsafe {
        let h = header | tag(copy_run(bytes, at.add(hlen)));
        if hlen == 1 {
            *at = h as u8;
        } else if hlen == 2 {
            let two = (h & 0x7f) | 0x80 | ((h >> 7) << 8);
            std::ptr::write_unaligned(at as *mut u16, (two as u16).to_le());
        } else {
            store_var_u64_exact(at, h);
        }
    }
    hlen + n
}

/// Stores `v` as an unsigned varint64 at `dst` with stores of exactly its length: for
/// headers written after the bytes that follow them. Out of line: only long runs need it.
///
/// # Safety
/// `dst` must be valid for writes of `var_u64_len(v)` bytes.
#[cold]
#[inline(never)]
unsafe fn store_var_u64_exact(dst: *mut u8, v: u64) {
    let mut tmp = [0u8; MAX_VARINT64_LEN];
    let n = encode_var_u64(v, &mut tmp);
    // SAFETY: the caller guarantees `n` writable bytes; `tmp` is a separate local.
    unsafe { std::ptr::copy_nonoverlapping(tmp.as_ptr(), dst, n) };
}

/// Copies `src` to `dst`. Runs of 4 to 64 bytes are copied as words (the last one read at
/// offset `n - W`, `W <= n`, overlapping the one before; every read inside `src`), and the OR
/// of those words is returned (for an ASCII test); other lengths use `memcpy` and return
/// `None`.
///
/// # Safety
/// `dst` must be valid for writes of `src.len()` bytes and must not overlap `src`.
#[inline(always)]
pub(super) unsafe fn copy_run(src: &[u8], dst: *mut u8) -> Option<u64> {
    let n = src.len();
    let s = src.as_ptr();
    // SAFETY: every read is within `src` (see above) and every write within the `n` bytes at
    // `dst`, which the caller guarantees; unaligned accesses are used throughout.
    unsafe {
        if (8..=16).contains(&n) {
            let a = std::ptr::read_unaligned(s as *const u64);
            let z = std::ptr::read_unaligned(s.add(n - 8) as *const u64);
            std::ptr::write_unaligned(dst as *mut u64, a);
            std::ptr::write_unaligned(dst.add(n - 8) as *mut u64, z);
            Some(a | z)
        } else if (4..8).contains(&n) {
            let a = std::ptr::read_unaligned(s as *const u32);
            let z = std::ptr::read_unaligned(s.add(n - 4) as *const u32);
            std::ptr::write_unaligned(dst as *mut u32, a);
            std::ptr::write_unaligned(dst.add(n - 4) as *mut u32, z);
            Some(u64::from(a | z))
        } else if (17..=32).contains(&n) {
            // The first two words and the last two (overlapping the first ones).
            let a = std::ptr::read_unaligned(s as *const u64);
            let b = std::ptr::read_unaligned(s.add(8) as *const u64);
            let y = std::ptr::read_unaligned(s.add(n - 16) as *const u64);
            let z = std::ptr::read_unaligned(s.add(n - 8) as *const u64);
            std::ptr::write_unaligned(dst as *mut u64, a);
            std::ptr::write_unaligned(dst.add(8) as *mut u64, b);
            std::ptr::write_unaligned(dst.add(n - 16) as *mut u64, y);
            std::ptr::write_unaligned(dst.add(n - 8) as *mut u64, z);
            Some(a | b | y | z)
        } else if (33..=64).contains(&n) {
            // The first four words and the last four (overlapping the first ones).
            let mut acc = 0u64;
            for i in 0..4 {
                let w = std::ptr::read_unaligned(s.add(8 * i) as *const u64);
                let v = std::ptr::read_unaligned(s.add(n - 32 + 8 * i) as *const u64);
                std::ptr::write_unaligned(dst.add(8 * i) as *mut u64, w);
                std::ptr::write_unaligned(dst.add(n - 32 + 8 * i) as *mut u64, v);
                acc |= w | v;
            }
            Some(acc)
        } else {
            std::ptr::copy_nonoverlapping(s, dst, n);
            None
        }
    }
}

/// Bytes an unsigned varint64 takes (1 to 9).
#[inline]
pub fn var_u64_len(v: u64) -> usize {
    let bits = 64 - (v | 1).leading_zeros();
    if bits > 56 {
        MAX_VARINT64_LEN
    } else {
        ((bits * 9 + 64) >> 6) as usize
    }
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

impl Drop for Writer<'_> {
    #[inline]
    fn drop(&mut self) {
        self.sync();
    }
}

impl<'a> Writer<'a> {
    /// Wraps `buf`; bytes are appended after its current content.
    #[inline]
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        Writer {
            ptr: buf.as_mut_ptr(),
            len: buf.len(),
            cap: buf.capacity(),
            vec: buf,
        }
    }

    /// Brings the vector's length up to the bytes written.
    #[inline]
    fn sync(&mut self) {
        debug_assert!(self.len <= self.cap);
        // SAFETY: by the invariant, `len <= cap == vec.capacity()` and `ptr[..len]`, which is
        // the vector's own buffer, is initialised.
        unsafe { self.vec.set_len(self.len) }
    }

    /// Number of bytes in the underlying vector.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the underlying vector holds no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Makes room for at least `additional` more bytes.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow(additional);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        self.sync();
        self.vec.reserve(additional);
        self.ptr = self.vec.as_mut_ptr();
        self.cap = self.vec.capacity();
    }

    /// Stores `N` bytes at the end, after making room for `room >= N` bytes (a caller that
    /// then keeps fewer bytes can store a whole word and advance by less).
    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.reserve(N);
        // SAFETY: `reserve` made `cap - len >= N`, so `ptr + len .. ptr + len + N` lies inside
        // the allocation; `bytes` is a separate local, so the ranges do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), N) };
        self.len += N;
    }

    /// Appends the first `n` bytes (at most 8) of the little-endian `word`: a short run of
    /// prepared bytes in one store.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut w = fury::wire::Writer::new(&mut out);
    /// w.word_prefix(u64::from_le_bytes([0x1b, 0x64, 9, 9, 9, 9, 9, 9]), 2);
    /// drop(w);
    /// assert_eq!(out, [0x1b, 0x64]);
    /// ```
    #[inline]
    pub fn word_prefix(&mut self, word: u64, n: usize) {
        let n = n.min(8);
        self.reserve(8);
        // SAFETY: `reserve` made `cap - len >= 8`, so the whole word at `ptr + len` lies inside
        // the allocation; only `n <= 8` of its bytes are counted as written.
        unsafe { std::ptr::write_unaligned(self.ptr.add(self.len) as *mut u64, word.to_le()) };
        self.len += n;
    }

    /// Overwrites the byte at `pos` (which must already be written).
    #[inline]
    pub fn patch_u8(&mut self, pos: usize, v: u8) {
        if pos < self.len {
            // SAFETY: `pos < len <= cap`, inside the allocation and initialised.
            unsafe { *self.ptr.add(pos) = v };
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.put([v]);
    }

    /// Appends one signed byte.
    #[inline]
    pub fn i8(&mut self, v: i8) {
        self.put([v as u8]);
    }

    /// Appends `0` or `1`.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.put([v as u8]);
    }

    /// Appends a little-endian u16.
    #[inline]
    pub fn u16(&mut self, v: u16) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian i16.
    #[inline]
    pub fn i16(&mut self, v: i16) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian u32.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian i32.
    #[inline]
    pub fn i32(&mut self, v: i32) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian u64.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian i64.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.put(v.to_le_bytes());
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
        self.reserve(8);
        // SAFETY: `reserve` made room for the 8 bytes `store_var_u32` may write.
        let n = unsafe { store_var_u32(self.ptr.add(self.len), v) };
        self.len += n;
    }

    /// Appends a zigzag signed varint32.
    #[inline]
    pub fn var_i32(&mut self, v: i32) {
        self.var_u32(zigzag32(v));
    }

    /// Appends an unsigned varint64 (1 to 9 bytes).
    #[inline]
    pub fn var_u64(&mut self, v: u64) {
        self.reserve(MAX_VARINT64_LEN);
        // SAFETY: `reserve` made room for the at most 9 bytes `store_var_u64` writes.
        let n = unsafe { store_var_u64(self.ptr.add(self.len), v) };
        self.len += n;
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

    /// Appends a string-like run: the varuint64 header `bytes.len() << 2 | tag`, where `tag` is
    /// `ascii_tag` if every byte is below 0x80 and `other_tag` otherwise (both below 4), then
    /// the bytes. One capacity check; the ASCII test runs over the words being copied.
    ///
    /// ```
    /// use fury::wire::Writer;
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out);
    /// w.tagged_run("hi".as_bytes(), 0, 2);
    /// w.tagged_run("é".as_bytes(), 0, 2);
    /// drop(w);
    /// assert_eq!(out, [0x08, b'h', b'i', 0x0a, 0xc3, 0xa9]);
    /// ```
    #[inline(always)]
    pub fn tagged_run(&mut self, bytes: &[u8], ascii_tag: u8, other_tag: u8) {
        self.reserve(bytes.len().saturating_add(MAX_VARINT64_LEN));
        // SAFETY: `reserve` made `cap - len >= n + 9`, so the `n + 9` bytes at `ptr + len`
        // are inside the allocation; `bytes` is borrowed shared and the vector exclusively,
        // so they do not overlap.
        let k = unsafe { put_tagged_run(self.ptr.add(self.len), bytes, ascii_tag, other_tag) };
        self.len += k;
    }

    /// Appends raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        let n = b.len();
        self.reserve(n);
        // SAFETY: `reserve` made `cap - len >= n`, so the `n` bytes at `ptr + len` are inside
        // the allocation; `b` is borrowed shared and the vector exclusively, so they do not
        // overlap.
        unsafe { copy_run(b, self.ptr.add(self.len)) };
        self.len += n;
    }
}
