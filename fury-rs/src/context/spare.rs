//! The rarely needed part of a context's state, kept out of line and reused per thread.

use super::{BorrowedCopies, LastUserType, ReadContext, ReadExtra, WriteContext, WriteExtra};

/// Above this many entries a used state is dropped instead of kept for the next stream, so
/// that one huge message does not make every later `clear` slow.
pub(super) const SPARE_LIMIT: usize = 1024;

impl WriteExtra {
    /// Clears for reuse; false if it grew too large to keep.
    pub(super) fn reset(&mut self) -> bool {
        if self.seen.capacity() > SPARE_LIMIT
            || self.ref_types.capacity() > SPARE_LIMIT
            || self.shared_more.capacity() > SPARE_LIMIT
            || self.dynamic_defs.capacity() > SPARE_LIMIT
            || self.meta_strings.len() > SPARE_LIMIT
        {
            return false;
        }
        self.meta_strings.reset();
        self.seen.clear();
        self.ref_types.clear();
        self.shared_more.clear();
        self.dynamic_defs.clear();
        true
    }
}

impl ReadExtra {
    /// Clears for reuse; false if it grew too large to keep.
    pub(super) fn reset(&mut self) -> bool {
        if self.refs.capacity() > SPARE_LIMIT
            || self.slot_canon.capacity() > SPARE_LIMIT
            || self.typedefs.capacity() > SPARE_LIMIT
        {
            return false;
        }
        self.typedefs.clear();
        self.current.clear();
        self.refs.clear();
        self.placeholders.clear();
        self.canon = 0;
        self.slot_canon.clear();
        self.canon_root = false;
        self.copied.set(0);
        self.count = None;
        self.last_user_type = LastUserType::None;
        true
    }
}

thread_local! {
    // One spare of each per thread: a stream that needs the state takes it, and gives it back
    // cleared when its context is dropped, so steady traffic does not allocate it again.
    static SPARE_WRITE: std::cell::Cell<Option<Box<WriteExtra>>> = const { std::cell::Cell::new(None) };
    static SPARE_READ: std::cell::Cell<Option<Box<ReadExtra>>> = const { std::cell::Cell::new(None) };
}

pub(super) type Spare<T> = std::thread::LocalKey<std::cell::Cell<Option<Box<T>>>>;

/// This thread's spare of `key`, or a new one.
#[cold]
pub(super) fn take_spare<T: Default>(key: &'static Spare<T>) -> Box<T> {
    key.try_with(|c| c.take())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Gives a used state back as this thread's spare, cleared, unless it grew too large.
#[inline]
pub(super) fn give_spare<T>(
    key: &'static Spare<T>,
    mut extra: Box<T>,
    reset: impl FnOnce(&mut T) -> bool,
) {
    if reset(&mut extra) {
        let _ = key.try_with(|c| c.set(Some(extra)));
    }
}

#[inline]
pub(super) fn take_write_extra() -> Box<WriteExtra> {
    take_spare(&SPARE_WRITE)
}

#[inline]
pub(super) fn take_read_extra() -> Box<ReadExtra> {
    take_spare(&SPARE_READ)
}

// The drops test for the rarely used extra state inline and hand it back out of line, so
// that dropping a context that never needed it costs a compare.
impl Drop for WriteContext<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(e) = self.extra.take() {
            give_back_write_extra(e);
        }
    }
}

impl Drop for ReadContext<'_, '_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(e) = self.extra.take() {
            give_back_read_extra(e);
        }
        if let Some(c) = self.borrowed_copies.take() {
            drop_borrowed_copies(c);
        }
    }
}

#[cold]
#[inline(never)]
fn drop_borrowed_copies(c: Box<BorrowedCopies<'_>>) {
    drop(c);
}

#[cold]
#[inline(never)]
pub(super) fn give_back_write_extra(e: Box<WriteExtra>) {
    give_spare(&SPARE_WRITE, e, WriteExtra::reset);
}

#[cold]
#[inline(never)]
pub(super) fn give_back_read_extra(e: Box<ReadExtra>) {
    give_spare(&SPARE_READ, e, ReadExtra::reset);
}
