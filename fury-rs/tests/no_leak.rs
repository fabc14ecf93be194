//! A decode that fails after a cycle of shared cells has closed frees the cycle: nothing a
//! hostile message makes the decoder build outlives the call.

use fury::{Fury, FuryObject};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards to the system allocator and only counts the bytes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// @dataclass class Node: value: pyfory.Int32
//     next: Optional["Node"] = pyfory.field(ref=True, nullable=True)      (type_id=300)
#[derive(FuryObject, Debug)]
#[fury(id = 300)]
struct Node {
    value: i32,
    #[fury(ref)]
    next: Option<Rc<RefCell<Node>>>,
}

fn live_after(fury: &Fury, bytes: &[u8]) -> isize {
    let before = LIVE.load(Ordering::Relaxed);
    let r = fury.deserialize::<Rc<RefCell<Node>>>(bytes);
    assert!(r.is_err(), "the input is meant to fail");
    drop(r);
    LIVE.load(Ordering::Relaxed) - before
}

#[test]
fn failed_decodes_free_the_cycles_they_closed() {
    let mut fury = Fury::builder().ref_tracking(true).compatible(false).build();
    fury.register::<Node>().unwrap();
    // pyfory 1.7.7's vector refs/same_schema/node/self (n.next = n) with one trailing byte: the
    // cycle closes, then the decode fails (the smallest case the fuzzing issue reports).
    let trailing = [
        0x01, 0x00, 0x1b, 0xac, 0x02, 0x49, 0xf9, 0x6b, 0x19, 0x02, 0xfe, 0x00, 0x00,
    ];
    // The same vector cut after the back reference's flag: the cycle is pending, the id is
    // missing.
    let cut = &trailing[..11];
    // Warm the per-thread spare state, so what stays allocated is only what leaked.
    let _ = fury.deserialize::<Rc<RefCell<Node>>>(&trailing);
    assert_eq!(live_after(&fury, &trailing), 0, "trailing byte");
    assert_eq!(live_after(&fury, cut), 0, "cut input");
    // And the vector itself still decodes to the cycle.
    let n = fury
        .deserialize::<Rc<RefCell<Node>>>(&trailing[..12])
        .unwrap();
    let next = n.borrow().next.clone().unwrap();
    assert!(Rc::ptr_eq(&n, &next));
    n.borrow_mut().next = None;
}
