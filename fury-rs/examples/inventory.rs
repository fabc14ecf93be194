//! An event-sourced inventory model written as a serde user writes it: an enum whose
//! variants carry several values, a generic page and a generic outcome, tuples as map keys,
//! fixed arrays, `Arc<str>`, `SystemTime` and recursion through `Option<Box<_>>`. Only the
//! types that name themselves on the wire carry an attribute; registering the root registers
//! what it reaches (the generic instantiations, which name nothing, first). Every value
//! round-trips in compatible, same-schema and reference-tracking modes. Last, a newer `Loc`
//! reads an older one's bytes, leniently and with `strict(true)`.
//!
//! `cargo run -q -p fury --example inventory`

use fury::{Fury, FuryObject};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

type Qty = u32;

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 101)]
struct Sku(String);

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 102)]
struct Loc {
    warehouse: Arc<str>,
    aisle: u16,
    bin: u16,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 103)]
enum InventoryEvent {
    Received { sku: Sku, qty: Qty, at: Loc },
    Moved { from: Loc, to: Loc },
    Adjusted(Sku, i32),
    Note(String),
    Audited,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
enum Outcome<T, E> {
    Done(T),
    Failed(E),
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
struct Page<T: fury::Serialize + fury::DeserializeOwned + 'static> {
    items: Vec<T>,
    next: Option<u64>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 104)]
struct Stock {
    levels: HashMap<(String, u16), Qty>,
    dock: [Loc; 2],
    counted_at: SystemTime,
    previous: Option<Box<Stock>>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 105)]
struct Inventory {
    events: Page<InventoryEvent>,
    results: Vec<Outcome<InventoryEvent, String>>,
    stock: Stock,
}

fn loc(w: &str, aisle: u16, bin: u16) -> Loc {
    Loc {
        warehouse: Arc::from(w),
        aisle,
        bin,
    }
}

fn sample() -> Inventory {
    let events = vec![
        InventoryEvent::Received {
            sku: Sku("A-1".into()),
            qty: 12,
            at: loc("north", 3, 7),
        },
        InventoryEvent::Moved {
            from: loc("north", 3, 7),
            to: loc("south", 1, 2),
        },
        InventoryEvent::Adjusted(Sku("A-1".into()), -2),
        InventoryEvent::Note("recount after audit".into()),
        InventoryEvent::Audited,
    ];
    let counted_at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_000_000_123);
    let older = Stock {
        levels: HashMap::from([(("A-1".to_string(), 3), 14)]),
        dock: [loc("north", 0, 0), loc("south", 0, 0)],
        counted_at,
        previous: None,
    };
    Inventory {
        results: vec![
            Outcome::Done(events[0].clone()),
            Outcome::Failed("no such bin".into()),
        ],
        events: Page {
            items: events,
            next: Some(2),
        },
        stock: Stock {
            levels: HashMap::from([(("A-1".to_string(), 3), 10), (("B-2".to_string(), 1), 4)]),
            dock: [loc("north", 0, 1), loc("south", 0, 1)],
            counted_at: counted_at + Duration::from_secs(60),
            previous: Some(Box::new(older)),
        },
    }
}

fn main() -> fury::Result<()> {
    let inventory = sample();
    for (mode, compatible, refs) in [
        ("compatible", true, false),
        ("same-schema", false, false),
        ("reference tracking", false, true),
    ] {
        let mut fury = Fury::builder()
            .compatible(compatible)
            .ref_tracking(refs)
            .build();
        // The generic instantiations name nothing on the wire: they are registered by id.
        // Registering the root then registers Sku, Loc, InventoryEvent (and the case structs
        // of its variants with several fields) and Stock.
        fury.register_by_id::<Page<InventoryEvent>>(106)?;
        fury.register_by_id::<Outcome<InventoryEvent, String>>(107)?;
        fury.register::<Inventory>()?;
        let bytes = fury.serialize(&inventory)?;
        let back: Inventory = fury.deserialize(&bytes)?;
        assert_eq!(back, inventory, "{mode}");
        println!(
            "{mode}: {} bytes, {} registered types, round-trips",
            bytes.len(),
            fury.registry().iter().count()
        );
    }
    // Forgetting a generic instantiation is an error at register, naming the field.
    let mut fury = Fury::default();
    let e = fury.register::<Inventory>().unwrap_err();
    println!("without Page<InventoryEvent>: {e}");
    evolution()
}

/// A newer `Loc` with two more fields, reading an older peer's bytes: a field with its own
/// default takes it; one without is filled with its type's default unless the `Fury` is
/// strict, where it is an error naming it (serde's "missing field").
fn evolution() -> fury::Result<()> {
    mod v2 {
        #[derive(fury::FuryObject, Debug, PartialEq)]
        #[fury(id = 102)]
        pub struct Loc {
            pub warehouse: std::sync::Arc<str>,
            pub aisle: u16,
            pub bin: u16,
            #[fury(default = "level_one")]
            pub level: u8,
            pub zone: String,
        }
        pub fn level_one() -> u8 {
            1
        }
    }
    let mut old = Fury::default();
    old.register::<Loc>()?;
    let bytes = old.serialize(&loc("north", 3, 7))?;
    let mut lenient = Fury::default();
    lenient.register::<v2::Loc>()?;
    let read = lenient.deserialize::<v2::Loc>(&bytes)?;
    assert_eq!((read.level, read.zone.as_str()), (1, ""));
    println!(
        "an older Loc, read leniently: level {}, zone {:?}",
        read.level, read.zone
    );
    let mut strict = Fury::builder().strict(true).build();
    strict.register::<v2::Loc>()?;
    let e = strict.deserialize::<v2::Loc>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), fury::ErrorKind::MissingField { field, .. } if field == "zone"));
    println!("an older Loc, read strictly: {e}");
    Ok(())
}
