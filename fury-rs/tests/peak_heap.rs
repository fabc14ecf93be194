//! The heap a decode holds, measured by a counting allocator: with default settings, any
//! input of `n` bytes peaks at no more than `16 * n + 1 MiB` while it is decoded, as a typed
//! value, a `Value` or a `ValueRef`, TypeDefs included (issue 29, the bound README's
//! "Hostile input" states). The inputs are the amplifying ones: millions of empty lists,
//! nulls, empty strings, and the largest TypeDefs a message may carry.
//!
//! One test function measures everything in turn, so that no other test's allocations run
//! in between (the counter is global to the process).

use fury::{Fury, FuryObject, Value, ValueRef};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator with the same arguments; the
// counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = CURRENT.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The peak heap above the level before `f`, while `f` runs.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

const BASE: usize = 1 << 20;

fn check(what: &str, input: &[u8], decode: impl FnOnce(&[u8]) -> Result<(), String>) -> f64 {
    let expect_decoded = what.ends_with("(decoded)");
    let n = input.len();
    let mut outcome = Ok(());
    let peak = peak_of(|| outcome = decode(input));
    let bound = 16 * n + BASE;
    assert!(
        peak <= bound,
        "{what}: {n} bytes of input held {peak} bytes at peak, more than 16 x n + 1 MiB = {bound} ({outcome:?})"
    );
    assert!(!expect_decoded || outcome.is_ok(), "{what}: {outcome:?}");
    let ratio = peak.saturating_sub(BASE) as f64 / n as f64;
    eprintln!(
        "{what}: n = {n}, peak {peak} bytes ({ratio:.1} x n above 1 MiB), {}",
        match &outcome {
            Ok(()) => "decoded".to_string(),
            Err(e) => format!("refused: {e}"),
        }
    );
    ratio
}

#[derive(FuryObject, Debug)]
#[fury(id = 900)]
struct Wide {
    f: Vec<Option<i64>>,
}

/// A message of `count` structs of distinct types (ids 1000, 1001, ...), each announced by
/// its own TypeDef of `fields` nullable string fields and holding only nulls: a list of
/// `any` values in compatible mode, the most metadata per input byte a message can carry.
/// The TypeDefs come from fury-rs's TypeDef encoder (`fury::meta::TypeDef`).
fn many_typedefs(count: u32, fields: usize) -> Vec<u8> {
    use fury::meta::{FieldId, FieldInfo, FieldType, TypeDef, TypeDefRegistration};
    let mut out = vec![0x01, 0xff, 0x16];
    push_var(&mut out, count);
    out.push(0x00); // elements header: each element carries its own type info
    for i in 0..count {
        let infos: Vec<FieldInfo> = (0..fields)
            .map(|f| FieldInfo {
                id: FieldId::Name(format!("field_number_{f}")),
                field_type: FieldType {
                    nullable: true,
                    ..FieldType::leaf(fury::wire::TypeId::String)
                },
            })
            .collect();
        let td = TypeDef::encode_struct(&TypeDefRegistration::Id(1000 + i), true, &infos)
            .expect("encode");
        out.push(0x1c); // COMPATIBLE_STRUCT
        push_var(&mut out, i << 1); // a new TypeDef, index i
        out.extend_from_slice(&td);
        out.extend(std::iter::repeat_n(0xfd, fields)); // every field null
    }
    out
}

fn push_var(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

#[test]
fn decoding_holds_at_most_16_times_the_input_plus_1_mib() {
    let fury = Fury::default();
    let mut worst: f64 = 0.0;

    // 1M empty lists in a list: the amplification the issue measured (32 x as Value).
    let lists: Vec<Vec<i32>> = vec![Vec::new(); 1 << 20];
    let bytes = fury.serialize(&lists).expect("serialize");
    worst = worst.max(check("empty lists as Vec<Vec<i32>>", &bytes, |b| {
        fury.deserialize::<Vec<Vec<i32>>>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));
    worst = worst.max(check("empty lists as Value", &bytes, |b| {
        fury.deserialize::<Value>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));
    worst = worst.max(check("empty lists as ValueRef", &bytes, |b| {
        fury.deserialize::<ValueRef>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));

    // 1M nulls: 1 byte each on the wire, 16 bytes as Option<i64>.
    let mut reg = Fury::default();
    reg.register::<Wide>().expect("register");
    let wide = Wide {
        f: vec![None; 1 << 20],
    };
    let bytes = reg.serialize(&wide).expect("serialize");
    worst = worst.max(check("nulls as Vec<Option<i64>>", &bytes, |b| {
        reg.deserialize::<Wide>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));
    worst = worst.max(check("nulls as Value", &bytes, |b| {
        reg.deserialize::<Value>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));

    // 1M empty strings: 24 bytes of String per input byte.
    let strings = vec![String::new(); 1 << 20];
    let bytes = fury.serialize(&strings).expect("serialize");
    worst = worst.max(check("empty strings as Vec<String>", &bytes, |b| {
        fury.deserialize::<Vec<String>>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));
    worst = worst.max(check("empty strings as Value", &bytes, |b| {
        fury.deserialize::<Value>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    }));

    // Half as many: within the budget, so decoded, and still within the bound.
    let bytes = reg
        .serialize(&Wide {
            f: vec![None; 1 << 19],
        })
        .expect("serialize");
    worst = worst.max(check(
        "half as many nulls as Vec<Option<i64>> (decoded)",
        &bytes,
        |b| {
            reg.deserialize::<Wide>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));
    let bytes = fury
        .serialize(&vec![Vec::<i32>::new(); 80_000])
        .expect("serialize");
    worst = worst.max(check(
        "80,000 empty lists as Vec<Vec<i32>> (decoded)",
        &bytes,
        |b| {
            fury.deserialize::<Vec<Vec<i32>>>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));
    let bytes = fury
        .serialize(&vec![Vec::<i32>::new(); 50_000])
        .expect("serialize");
    worst = worst.max(check(
        "50,000 empty lists as Value (decoded)",
        &bytes,
        |b| {
            fury.deserialize::<Value>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));

    // For the record, the same 1M empty lists without the relative cap (what the default
    // was before): not asserted, only printed.
    let uncapped = Fury::builder().max_alloc_per_input_byte(usize::MAX).build();
    let bytes = fury.serialize(&lists).expect("serialize");
    let n = bytes.len();
    let peak = peak_of(|| drop(uncapped.deserialize::<Value>(&bytes)));
    eprintln!(
        "without the relative cap, empty lists as Value: peak {} x n",
        peak / n
    );
    assert!(peak > 16 * n, "the measurement sees the amplification");

    // Small inputs stay under the 1 MiB floor.
    let bytes = fury.serialize(&vec![vec![1i64; 8]; 64]).expect("serialize");
    check("a small message as Value", &bytes, |b| {
        fury.deserialize::<Value>(b)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    // TypeDefs: 2,000 distinct structs of 200 fields each, all their values null.
    let bytes = many_typedefs(2000, 200);
    worst = worst.max(check(
        "2,000 TypeDefs of 200 fields as Value",
        &bytes,
        |b| {
            fury.deserialize::<Value>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));
    worst = worst.max(check(
        "2,000 TypeDefs of 200 fields as ValueRef",
        &bytes,
        |b| {
            fury.deserialize::<ValueRef>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    ));
    eprintln!("worst ratio above the 1 MiB floor: {worst:.1} x n");
}
