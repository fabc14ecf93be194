//! Enums with data of every shape serde accepts: struct-like and tuple variants of several
//! fields (carried by generated case structs), newtype and unit variants, generic enums.
//! The bytes against pyfory 1.7.7 are checked by the union conformance vectors
//! (conformance/tests/union.rs); here: round trips in every mode, and the registrations the
//! case structs get.

use fury::registry::{case_struct_registration, Registration};
use fury::{Fury, FuryObject};

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 311)]
struct Loc {
    warehouse: String,
    aisle: i32,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 310)]
enum Event {
    Received { sku: String, qty: i32, at: Loc },
    Moved { from: Loc, to: Loc },
    Adjusted(String, i32),
    Note(String),
    Audited,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 312)]
struct Ledger {
    events: Vec<Event>,
    last: Option<Event>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
enum Outcome<T, E> {
    Done(T),
    Failed(E),
    Partial { got: T, left: u32 },
}

/// Variants of every other spelling: empty braces and parentheses, one named field, a
/// skipped field, attributes on a case struct's fields.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 330)]
enum Odd {
    Braces {},
    Parens(),
    Named {
        only: String,
    },
    WithSkip {
        kept: i64,
        #[fury(skip)]
        cache: u32,
        #[fury(encoding = "fixed")]
        fixed: u32,
    },
}

fn furies() -> Vec<(&'static str, Fury)> {
    [
        ("compatible", true, false),
        ("same-schema", false, false),
        ("ref-tracking", false, true),
        ("compatible ref-tracking", true, true),
    ]
    .into_iter()
    .map(|(name, compatible, refs)| {
        let mut fury = Fury::builder()
            .compatible(compatible)
            .ref_tracking(refs)
            .build();
        fury.register::<Loc>().unwrap();
        fury.register::<Event>().unwrap();
        fury.register::<Ledger>().unwrap();
        fury.register_by_id::<Outcome<String, i32>>(320).unwrap();
        fury.register::<Odd>().unwrap();
        (name, fury)
    })
    .collect()
}

fn loc(w: &str, a: i32) -> Loc {
    Loc {
        warehouse: w.into(),
        aisle: a,
    }
}

fn events() -> Vec<Event> {
    vec![
        Event::Received {
            sku: "A-1".into(),
            qty: 5,
            at: loc("north", 3),
        },
        Event::Moved {
            from: loc("north", 3),
            to: loc("south", -1),
        },
        Event::Adjusted("A-1".into(), -2),
        Event::Note("checked".into()),
        Event::Audited,
    ]
}

#[test]
fn every_variant_shape_round_trips_in_every_mode() {
    for (mode, fury) in furies() {
        for e in events() {
            let bytes = fury.serialize(&e).unwrap();
            assert_eq!(fury.deserialize::<Event>(&bytes).unwrap(), e, "{mode}");
        }
        let ledger = Ledger {
            events: events(),
            last: events().into_iter().next(),
        };
        let bytes = fury.serialize(&ledger).unwrap();
        assert_eq!(
            fury.deserialize::<Ledger>(&bytes).unwrap(),
            ledger,
            "{mode}"
        );
        for o in [
            Outcome::Done("ok".to_string()),
            Outcome::Failed(7),
            Outcome::Partial {
                got: "half".to_string(),
                left: 3,
            },
        ] {
            let bytes = fury.serialize(&o).unwrap();
            assert_eq!(
                fury.deserialize::<Outcome<String, i32>>(&bytes).unwrap(),
                o,
                "{mode}"
            );
        }
    }
}

#[test]
fn case_structs_are_registered_with_their_enum() {
    let mut fury = Fury::default();
    fury.register::<Event>().unwrap();
    let names: Vec<String> = fury
        .registry()
        .iter()
        .map(|e| format!("{:?}", e.registration))
        .collect();
    // The enum, one case struct per variant with several fields, and Loc, which they reach.
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"Id(311)".to_string()), "{names:?}");
    for v in ["Received", "Moved", "Adjusted"] {
        let want = case_struct_registration(&Registration::Id(310), v);
        assert!(names.contains(&format!("{want:?}")), "{v}: {names:?}");
    }
}

#[test]
fn a_skipped_field_of_a_variant_is_defaulted_on_read() {
    for (mode, fury) in furies() {
        let v = Odd::WithSkip {
            kept: -4,
            cache: 99,
            fixed: 7,
        };
        let bytes = fury.serialize(&v).unwrap();
        let back: Odd = fury.deserialize(&bytes).unwrap();
        let want = Odd::WithSkip {
            kept: -4,
            cache: 0,
            fixed: 7,
        };
        assert_eq!(back, want, "{mode}");
        for v in [
            Odd::Braces {},
            Odd::Parens(),
            Odd::Named { only: "x".into() },
        ] {
            let bytes = fury.serialize(&v).unwrap();
            assert_eq!(fury.deserialize::<Odd>(&bytes).unwrap(), v, "{mode}");
        }
    }
}

/// The enum of `Event` registered by name: its case structs are registered by name too.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "inventory", name = "Event")]
enum NamedEvent {
    Moved { from: Loc, to: Loc },
    Note(String),
}

#[test]
fn a_union_by_name_works_in_same_schema_mode_and_is_refused_at_register_in_compatible_mode() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Loc>().unwrap();
    fury.register::<NamedEvent>().unwrap();
    let want = Registration::Name {
        namespace: "inventory.Event".into(),
        type_name: "Moved".into(),
    };
    assert!(fury.registry().iter().any(|e| e.registration == want));
    let v = NamedEvent::Moved {
        from: loc("a", 1),
        to: loc("b", 2),
    };
    let bytes = fury.serialize(&v).unwrap();
    assert_eq!(fury.deserialize::<NamedEvent>(&bytes).unwrap(), v);

    let mut fury = Fury::default();
    let e = fury.register::<NamedEvent>().unwrap_err().to_string();
    assert!(
        e.contains("by name in compatible mode") && e.contains("register it by id"),
        "{e}"
    );
}
