//! Strict schema evolution (`FuryBuilder::strict`), and the rule that a field whose type has
//! no default value is never filled with an invented one. Each test writes a value of an older
//! version of a struct (fewer fields) and reads it as the newer one, in compatible mode.

use fury::{ErrorKind, Fury, FuryObject};

/// The older versions, as a peer still has them.
mod old {
    #[derive(fury::FuryObject, Debug, PartialEq)]
    #[fury(id = 700)]
    pub struct Item {
        pub sku: String,
    }
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 701)]
struct Loc {
    warehouse: String,
    aisle: u32,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 702, default)]
struct Tags {
    names: Vec<String>,
}

#[derive(FuryObject, Debug, PartialEq, Clone, Copy)]
#[fury(id = 703)]
enum Kind {
    Bulk,
    Single,
}

#[derive(FuryObject, Debug, PartialEq, Clone, Copy, Default)]
#[fury(id = 704, default = "Priority::normal")]
enum Priority {
    #[default]
    Low,
    Normal,
}

impl Priority {
    fn normal() -> Self {
        Priority::Normal
    }
}

fn dock() -> Loc {
    Loc {
        warehouse: "dock".into(),
        aisle: 9,
    }
}

fn old_bytes() -> Vec<u8> {
    let mut fury = Fury::default();
    fury.register::<old::Item>().unwrap();
    fury.serialize(&old::Item { sku: "A-1".into() }).unwrap()
}

fn reader<T: FuryObject>(strict: bool) -> Fury {
    let mut fury = Fury::builder().strict(strict).build();
    fury.register::<T>().unwrap();
    fury
}

fn missing_field(e: &fury::Error) -> Option<(&str, &str)> {
    match e.kind() {
        ErrorKind::MissingField { ty, field } => Some((ty.as_str(), field.as_str())),
        _ => None,
    }
}

#[test]
fn a_scalar_field_the_peer_lacks_takes_its_default_unless_strict() {
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 700)]
    struct Item {
        sku: String,
        qty: u32,
        label: Option<String>,
    }
    let bytes = old_bytes();
    let lenient = reader::<Item>(false).deserialize::<Item>(&bytes).unwrap();
    assert_eq!(
        lenient,
        Item {
            sku: "A-1".into(),
            qty: 0,
            label: None
        }
    );
    let e = reader::<Item>(true)
        .deserialize::<Item>(&bytes)
        .unwrap_err();
    let (ty, field) = missing_field(&e).unwrap_or_else(|| panic!("{e}"));
    assert!(ty.ends_with("Item"), "{ty}");
    // The first local field the peer lacks, in wire order.
    assert!(field == "qty" || field == "label", "{field}");
    let text = e.to_string();
    assert!(
        text.contains("strict") && text.contains("#[fury(default)]"),
        "{text}"
    );
}

#[test]
fn strict_accepts_fields_with_a_default_attribute() {
    fn seven() -> u32 {
        7
    }
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 700)]
    struct Item {
        sku: String,
        #[fury(default = "seven")]
        qty: u32,
        #[fury(default)]
        label: Option<String>,
        #[fury(default = "dock")]
        at: Loc,
    }
    let mut fury = Fury::builder().strict(true).build();
    fury.register::<Item>().unwrap();
    let v = fury.deserialize::<Item>(&old_bytes()).unwrap();
    assert_eq!(
        v,
        Item {
            sku: "A-1".into(),
            qty: 7,
            label: None,
            at: dock()
        }
    );
}

#[test]
fn a_struct_field_is_never_invented_and_an_enum_takes_its_first_variant_as_in_pyfory() {
    #[derive(FuryObject, Debug)]
    #[fury(id = 700)]
    struct WithLoc {
        sku: String,
        at: Loc,
    }
    #[derive(FuryObject, Debug)]
    #[fury(id = 700)]
    struct WithKind {
        sku: String,
        kind: Kind,
    }
    let bytes = old_bytes();
    for strict in [false, true] {
        let e = reader::<WithLoc>(strict)
            .deserialize::<WithLoc>(&bytes)
            .unwrap_err();
        assert_eq!(missing_field(&e).map(|m| m.1), Some("at"), "{e}");
        if !strict {
            assert!(e.to_string().contains("no default value"), "{e}");
            let v = reader::<WithKind>(strict)
                .deserialize::<WithKind>(&bytes)
                .unwrap();
            assert_eq!(v.kind, Kind::Bulk);
        } else {
            let e = reader::<WithKind>(strict)
                .deserialize::<WithKind>(&bytes)
                .unwrap_err();
            assert_eq!(missing_field(&e).map(|m| m.1), Some("kind"), "{e}");
        }
    }
}

#[test]
fn a_type_level_default_fills_its_fields_when_not_strict() {
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 700)]
    struct Item {
        sku: String,
        tags: Tags,
        priority: Priority,
    }
    let bytes = old_bytes();
    let v = reader::<Item>(false).deserialize::<Item>(&bytes).unwrap();
    assert_eq!(v.tags, Tags::default());
    // The enum's own `default = "path"` wins over its `Default` impl.
    assert_eq!(v.priority, Priority::Normal);
    // Strict asks for the field's own attribute.
    let e = reader::<Item>(true)
        .deserialize::<Item>(&bytes)
        .unwrap_err();
    assert!(missing_field(&e).is_some(), "{e}");
}

#[test]
fn cycles_through_cells_still_read_with_a_stand_in() {
    use std::cell::RefCell;
    use std::rc::Rc;
    #[derive(FuryObject)]
    #[fury(id = 705)]
    struct Node {
        at: Loc,
        #[fury(ref)]
        next: Option<Rc<RefCell<Node>>>,
    }
    let mut fury = Fury::builder().ref_tracking(true).build();
    fury.register::<Loc>().unwrap().register::<Node>().unwrap();
    let a = Rc::new(RefCell::new(Node {
        at: dock(),
        next: None,
    }));
    a.borrow_mut().next = Some(a.clone());
    let bytes = fury.serialize(&a).unwrap();
    let back: Rc<RefCell<Node>> = fury.deserialize(&bytes).unwrap();
    let next = back.borrow().next.clone().unwrap();
    assert!(Rc::ptr_eq(&back, &next));
    assert_eq!(back.borrow().at, dock());
    // Break the cycles so the test does not leak.
    a.borrow_mut().next = None;
    back.borrow_mut().next = None;
}
