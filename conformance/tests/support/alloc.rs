//! A counting allocator for the tests that measure allocation (fuzz_replay.rs: leaks;
//! memory_bounds.rs: peaks): this thread's live bytes and their peak. Each test crate
//! includes it with `#[path]` and installs `Counting` as its global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(delta: i64) {
    // try_with: the allocator also runs while thread-locals are being torn down.
    let _ = LIVE.try_with(|c| {
        let now = c.get() + delta;
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

/// Bytes this thread has allocated and not freed.
pub fn live() -> i64 {
    LIVE.with(Cell::get)
}

/// Bytes allocated at the peak of `f`, above what was live before it.
#[allow(dead_code)] // not every including test measures peaks
pub fn peak_of(f: impl FnOnce()) -> i64 {
    let base = live();
    PEAK.with(|p| p.set(base));
    f();
    PEAK.with(Cell::get) - base
}

// SAFETY: every call is forwarded to the system allocator unchanged; the bookkeeping only
// reads the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as i64 - layout.size() as i64);
        }
        p
    }
}
