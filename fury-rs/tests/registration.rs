//! Registration that follows the types: registering a root registers the derived types it
//! reaches (through fields, variants, containers and generic arguments) that name their own
//! registration; one that names none must be registered first, or the call fails with the
//! field path and registers nothing; two types under one identity are refused, naming both,
//! unless one is the other's borrowed mirror.

use fury::registry::Registration;
use fury::{Fury, FuryObject};
use std::collections::HashMap;

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 102)]
struct Loc {
    warehouse: String,
    aisle: u32,
}

/// The borrowed mirror of `Loc`: the same id, the same fields.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 102)]
struct LocRef<'a> {
    warehouse: &'a str,
    aisle: u32,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "inv", name = "Sku")]
struct Sku(String);

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 104)]
enum Zone {
    Cold,
    Dry,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
struct Page<T: fury::Serialize + fury::DeserializeOwned + 'static> {
    items: Vec<T>,
    next: Option<u32>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 105)]
enum Event {
    Received { sku: Sku, at: Loc },
    Zoned(HashMap<String, (Zone, [Loc; 2])>),
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 106)]
struct Node {
    label: String,
    next: Option<Box<Node>>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 107)]
struct Inventory {
    events: Vec<Event>,
    page: Page<Sku>,
    chain: Node,
}

fn registered(fury: &Fury) -> Vec<String> {
    fury.registry()
        .iter()
        .map(|e| e.rust_name.replace("registration::", ""))
        .collect()
}

#[test]
fn registering_a_root_registers_what_it_reaches() {
    let mut fury = Fury::default();
    fury.register_by_id::<Page<Sku>>(108).unwrap();
    fury.register::<Inventory>().unwrap();
    let names = registered(&fury);
    for t in ["Page<", "Sku", "Inventory", "Event", "Loc", "Zone", "Node"] {
        assert!(names.iter().any(|n| n.starts_with(t)), "{t}: {names:?}");
    }
    // Each type once, the case struct of Received among them.
    assert_eq!(names.len(), 8, "{names:?}");
    let inv = Inventory {
        events: vec![
            Event::Received {
                sku: Sku("A-1".into()),
                at: Loc {
                    warehouse: "n".into(),
                    aisle: 1,
                },
            },
            Event::Zoned(HashMap::from([(
                "z".to_string(),
                (
                    Zone::Cold,
                    [
                        Loc {
                            warehouse: "a".into(),
                            aisle: 2,
                        },
                        Loc {
                            warehouse: "b".into(),
                            aisle: 3,
                        },
                    ],
                ),
            )])),
        ],
        page: Page {
            items: vec![Sku("B".into())],
            next: Some(2),
        },
        chain: Node {
            label: "x".into(),
            next: Some(Box::new(Node {
                label: "y".into(),
                next: None,
            })),
        },
    };
    for compatible in [true, false] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register_by_id::<Page<Sku>>(108).unwrap();
        fury.register::<Inventory>().unwrap();
        let bytes = fury.serialize(&inv).unwrap();
        assert_eq!(fury.deserialize::<Inventory>(&bytes).unwrap(), inv);
    }
}

#[test]
fn a_reached_type_without_a_registration_is_an_error_naming_the_field_path() {
    let mut fury = Fury::default();
    let e = fury.register::<Inventory>().unwrap_err().to_string();
    assert!(e.contains("Inventory.page"), "{e}");
    assert!(e.contains("Page<") && e.contains("register_by_id"), "{e}");
    // Nothing was registered by the failed call.
    assert_eq!(fury.registry().iter().count(), 0);
}

#[test]
fn two_types_under_one_id_are_refused_naming_both() {
    #[derive(FuryObject)]
    #[fury(id = 102)]
    struct Other {
        x: i64,
    }
    let mut fury = Fury::default();
    fury.register::<Loc>().unwrap();
    let e = fury.register::<Other>().unwrap_err().to_string();
    assert!(
        e.contains("Other") && e.contains("Loc") && e.contains("id 102"),
        "{e}"
    );
}

#[test]
fn an_owned_type_and_its_borrowed_mirror_share_one_registration() {
    for compatible in [true, false] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register::<Loc>().unwrap();
        fury.register::<LocRef<'_>>().unwrap();
        let loc = Loc {
            warehouse: "north".into(),
            aisle: 7,
        };
        let bytes = fury.serialize(&loc).unwrap();
        let view: LocRef<'_> = fury.deserialize(&bytes).unwrap();
        assert_eq!(view.warehouse, "north");
        assert_eq!(fury.serialize(&view).unwrap(), bytes);
        if compatible {
            // The identity still names the owned type for values read without their type.
            let v: fury::Value = fury.deserialize(&bytes).unwrap();
            assert_eq!(fury.serialize(&v).unwrap(), bytes);
        }
    }
    let mut fury = Fury::default();
    assert!(fury.registry().get::<LocRef<'_>>().is_none());
    fury.register::<LocRef<'_>>().unwrap();
    let reg = &fury.registry().get::<LocRef<'_>>().unwrap().registration;
    assert_eq!(*reg, Registration::Id(102));
}
