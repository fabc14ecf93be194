//! A field the local struct lacks is skipped without building it: reading a peer's struct
//! with a thousand strings in fields we do not have allocates about as much as reading it
//! without them.

use fury::{Fury, FuryObject};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator and only counts calls.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Doc")]
struct DocV2 {
    id: i64,
    words: Vec<String>,
    index: std::collections::HashMap<String, Vec<String>>,
    title: String,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Doc")]
struct DocV1 {
    id: i64,
}

fn allocations_reading(fury: &Fury, bytes: &[u8]) -> usize {
    // Once to warm the TypeDef cache, then counted.
    let _: DocV1 = fury.deserialize(bytes).unwrap();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let v: DocV1 = fury.deserialize(bytes).unwrap();
    let n = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(v.id, 7);
    n
}

#[test]
fn unknown_fields_are_skipped_without_allocating_their_values() {
    let mut writer = Fury::default();
    writer.register::<DocV2>().unwrap();
    let mut reader = Fury::default();
    reader.register::<DocV1>().unwrap();
    let small = DocV2 {
        id: 7,
        words: vec![],
        index: Default::default(),
        title: String::new(),
    };
    let words: Vec<String> = (0..1000).map(|i| format!("word{i}")).collect();
    let big = DocV2 {
        id: 7,
        index: words
            .iter()
            .take(100)
            .map(|w| (w.clone(), vec![w.clone(); 3]))
            .collect(),
        words,
        title: "x".repeat(10_000),
    };
    let a = allocations_reading(&reader, &writer.serialize(&small).unwrap());
    let b = allocations_reading(&reader, &writer.serialize(&big).unwrap());
    assert!(
        b <= a + 2,
        "skipping allocated {b} times, the empty message {a}"
    );
}
