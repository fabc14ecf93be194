//! A run of writes into capacity reserved up front, with the capacity accounting done on a
//! local budget that the compiler can see through.
//!
//! Generated struct writers know an upper bound of the bytes of their fixed-size fields. They
//! open a [`Room`] of that many bytes (one capacity check) and write each field into it. Each
//! write still checks the *budget*, but the budget is a local that starts at a constant and is
//! debited by constants, so after inlining the checks fold away; if a caller under-reserves,
//! the check grows the vector instead (correct, only slower). This file holds `unsafe` code;
//! every block says why it is sound.

#![allow(unsafe_code)]

use super::writer::{put_tagged_run, store_var_u32, store_var_u64, zigzag32, zigzag64};
use super::Writer;

/// Exclusive access to the end of a [`Writer`] with at least `left` bytes of spare capacity.
///
/// ```
/// use fury::wire::Writer;
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out);
/// let mut room = w.room(16);
/// room.var_i32(-2);
/// room.i16(7);
/// drop(room);
/// w.u8(9);
/// drop(w);
/// assert_eq!(out, [0x03, 0x07, 0x00, 0x09]);
/// ```
pub struct Room<'w, 'a> {
    // Invariant: `w.cap - len >= left`; `ptr == w.ptr`; `w.len <= len` and the bytes
    // `ptr[..len]` are initialised. `len` is written back to the writer on drop.
    w: &'w mut Writer<'a>,
    ptr: *mut u8,
    len: usize,
    left: usize,
}

impl<'a> Writer<'a> {
    /// Opens a [`Room`] of at least `n` bytes at the end of the output.
    #[inline(always)]
    pub fn room(&mut self, n: usize) -> Room<'_, 'a> {
        self.reserve(n);
        Room {
            ptr: self.ptr,
            len: self.len,
            left: n,
            w: self,
        }
    }
}

/// The slow path of a room whose budget ran out: syncs the writer to `len`, makes room for
/// `k` more bytes and returns the (possibly moved) buffer pointer.
#[cold]
#[inline(never)]
fn refill(w: &mut Writer<'_>, len: usize, k: usize) -> *mut u8 {
    w.len = len;
    w.reserve(k);
    w.ptr
}

impl Drop for Room<'_, '_> {
    #[inline(always)]
    fn drop(&mut self) {
        // `len <= cap` by the invariant, and the bytes up to it are initialised.
        self.w.len = self.len;
    }
}

impl Room<'_, '_> {
    /// Makes sure `k` bytes can be stored at the end.
    #[inline(always)]
    fn need(&mut self, k: usize) {
        if self.left < k {
            // The room itself is not handed to the slow path (its fields stay in registers).
            self.ptr = refill(self.w, self.len, k);
            self.left = k;
        }
    }

    /// Stores `N` bytes, taking `N` from the budget.
    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.need(N);
        // SAFETY: `need` made `left >= N`, so by the invariant `cap - len >= N`: the `N` bytes
        // at `ptr + len` are inside the allocation. `bytes` is a separate local.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), N) };
        self.len += N;
        self.left -= N;
    }

    /// Stores a string-like run as [`Writer::tagged_run`] does, taking `bytes.len() + 9` from
    /// the budget (a room for it is opened with that much).
    #[inline(always)]
    pub fn tagged_run(&mut self, bytes: &[u8], ascii_tag: u8, other_tag: u8) {
        let most = bytes.len().saturating_add(super::MAX_VARINT64_LEN);
        self.need(most);
        // SAFETY: `need` made `left >= n + 9`, so by the invariant `cap - len >= n + 9`: the
        // bytes at `ptr + len` are inside the allocation; `bytes` is borrowed shared and the
        // vector (through the writer) exclusively, so they do not overlap.
        let k = unsafe { put_tagged_run(self.ptr.add(self.len), bytes, ascii_tag, other_tag) };
        self.len += k;
        self.left -= most;
    }

    /// The length of the output, with what the room holds.
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Takes `k` bytes from the budget without writing (so that every branch of a
    /// conditional write leaves the same budget, and later checks still fold away).
    #[inline(always)]
    pub fn spend(&mut self, k: usize) {
        self.need(k);
        self.left -= k;
    }

    /// Appends one byte.
    #[inline(always)]
    pub fn u8(&mut self, v: u8) {
        self.put([v]);
    }

    /// Appends one signed byte.
    #[inline(always)]
    pub fn i8(&mut self, v: i8) {
        self.put([v as u8]);
    }

    /// Appends `0` or `1`.
    #[inline(always)]
    pub fn bool(&mut self, v: bool) {
        self.put([v as u8]);
    }

    /// Appends a little-endian i16.
    #[inline(always)]
    pub fn i16(&mut self, v: i16) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian u16.
    #[inline(always)]
    pub fn u16(&mut self, v: u16) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian i32.
    #[inline(always)]
    pub fn i32(&mut self, v: i32) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian u32.
    #[inline(always)]
    pub fn u32(&mut self, v: u32) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian i64.
    #[inline(always)]
    pub fn i64(&mut self, v: i64) {
        self.put(v.to_le_bytes());
    }

    /// Appends a little-endian u64.
    #[inline(always)]
    pub fn u64(&mut self, v: u64) {
        self.put(v.to_le_bytes());
    }

    /// Appends the IEEE-754 bits of `v`, little-endian.
    #[inline(always)]
    pub fn f32(&mut self, v: f32) {
        self.put(v.to_bits().to_le_bytes());
    }

    /// Appends the IEEE-754 bits of `v`, little-endian.
    #[inline(always)]
    pub fn f64(&mut self, v: f64) {
        self.put(v.to_bits().to_le_bytes());
    }

    /// Appends an unsigned varint32, taking 5 bytes from the budget (8 must be left: a whole
    /// word is stored).
    #[inline(always)]
    pub fn var_u32(&mut self, v: u32) {
        self.need(8);
        // SAFETY: `left >= 8`, so 8 bytes at `ptr + len` are inside the allocation.
        let n = unsafe { store_var_u32(self.ptr.add(self.len), v) };
        // n <= 5 <= 8 <= left.
        self.len += n;
        self.left -= 5;
    }

    /// Appends a zigzag signed varint32.
    #[inline(always)]
    pub fn var_i32(&mut self, v: i32) {
        self.var_u32(zigzag32(v));
    }

    /// Appends an unsigned varint64, taking 9 bytes from the budget.
    #[inline(always)]
    pub fn var_u64(&mut self, v: u64) {
        self.need(9);
        // SAFETY: `left >= 9`, so 9 bytes at `ptr + len` are inside the allocation.
        let n = unsafe { store_var_u64(self.ptr.add(self.len), v) };
        // n <= 9 <= left.
        self.len += n;
        self.left -= 9;
    }

    /// Appends a zigzag signed varint64.
    #[inline(always)]
    pub fn var_i64(&mut self, v: i64) {
        self.var_u64(zigzag64(v));
    }

    /// Appends a TAGGED_INT64 (see [`Writer::tagged_i64`]), taking 9 bytes from the budget.
    #[inline(always)]
    pub fn tagged_i64(&mut self, v: i64) {
        if (-(1i64 << 30)..(1i64 << 30)).contains(&v) {
            self.i32((v as i32) << 1);
            self.spend(5);
        } else {
            self.u8(1);
            self.i64(v);
        }
    }

    /// Appends a TAGGED_UINT64 (see [`Writer::tagged_u64`]), taking 9 bytes from the budget.
    #[inline(always)]
    pub fn tagged_u64(&mut self, v: u64) {
        if v < (1u64 << 31) {
            self.u32((v as u32) << 1);
            self.spend(5);
        } else {
            self.u8(1);
            self.u64(v);
        }
    }
}
