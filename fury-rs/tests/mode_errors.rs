//! Errors that say what happened: a stream read in the other mode, a cycle written without
//! reference tracking, and a `Value`'s `Debug`.

use fury::{ErrorKind, Fury, FuryObject, Value};

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 102)]
struct Loc {
    warehouse: String,
    aisle: u32,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "inv", name = "Bin")]
struct Bin {
    at: Loc,
    slots: Vec<u16>,
}

fn fury(compatible: bool) -> Fury {
    let mut f = Fury::builder().compatible(compatible).build();
    f.register::<Loc>().unwrap().register::<Bin>().unwrap();
    f
}

fn bin() -> Bin {
    Bin {
        at: Loc {
            warehouse: "north".into(),
            aisle: 4,
        },
        slots: vec![1, 2],
    }
}

fn assert_mode_mismatch(e: &fury::Error, stream: &str, local: &str) {
    match e.kind() {
        ErrorKind::ModeMismatch {
            stream: s,
            local: l,
        } => {
            assert_eq!((*s, *l), (stream, local), "{e}");
            assert!(e.to_string().contains("compatible"), "{e}");
        }
        _ => panic!("expected a mode mismatch, got: {e}"),
    }
}

#[test]
fn same_schema_bytes_read_by_a_compatible_fury() {
    for root in [false, true] {
        let bytes = if root {
            fury(false).serialize(&bin()).unwrap()
        } else {
            fury(false).serialize(&bin().at).unwrap()
        };
        let e = if root {
            fury(true).deserialize::<Bin>(&bytes).unwrap_err()
        } else {
            fury(true).deserialize::<Loc>(&bytes).unwrap_err()
        };
        assert_mode_mismatch(&e, "same-schema", "compatible");
        let e = fury(true).deserialize::<Value>(&bytes).unwrap_err();
        assert_mode_mismatch(&e, "same-schema", "compatible");
    }
}

#[test]
fn compatible_bytes_read_by_a_same_schema_fury() {
    let bytes = fury(true).serialize(&bin()).unwrap();
    let e = fury(false).deserialize::<Bin>(&bytes).unwrap_err();
    assert_mode_mismatch(&e, "compatible", "same-schema");
    let e = fury(false).deserialize::<Value>(&bytes).unwrap_err();
    assert_mode_mismatch(&e, "compatible", "same-schema");
    let bytes = fury(true).serialize(&bin().at).unwrap();
    let e = fury(false).deserialize::<Loc>(&bytes).unwrap_err();
    assert_mode_mismatch(&e, "compatible", "same-schema");
}

#[test]
fn a_value_reads_structs_of_compatible_mode_only() {
    let f = fury(true);
    let bytes = f.serialize(&bin()).unwrap();
    let v = f.deserialize::<Value>(&bytes).unwrap();
    assert_eq!(f.serialize(&v).unwrap(), bytes);
    let f = fury(false);
    let e = f
        .deserialize::<Value>(&f.serialize(&bin()).unwrap())
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("only compatible mode"), "{e}");
}

#[test]
fn a_cycle_without_reference_tracking_hints_at_it() {
    use std::cell::RefCell;
    use std::rc::Rc;
    #[derive(FuryObject)]
    #[fury(id = 300)]
    struct Node {
        value: i32,
        #[fury(ref)]
        next: Option<Rc<RefCell<Node>>>,
    }
    let mut f = Fury::default();
    f.register::<Node>().unwrap();
    let a = Rc::new(RefCell::new(Node {
        value: 1,
        next: None,
    }));
    a.borrow_mut().next = Some(a.clone());
    let e = f.serialize(&a).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
    assert!(e.to_string().contains("ref_tracking(true)"), "{e}");
    a.borrow_mut().next = None;

    // With tracking on, a value merely deep gets no such hint.
    let mut f = Fury::builder().ref_tracking(true).max_depth(4).build();
    f.register::<Node>().unwrap();
    let mut n = Rc::new(RefCell::new(Node {
        value: 0,
        next: None,
    }));
    for value in 1..10 {
        n = Rc::new(RefCell::new(Node {
            value,
            next: Some(n),
        }));
    }
    let e = f.serialize(&n).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
    assert!(e.hint().is_none(), "{e}");
}

#[test]
fn a_value_debug_shows_the_struct_by_name_and_fields() {
    {
        let f = fury(true);
        let v = f
            .deserialize::<Value>(&f.serialize(&bin()).unwrap())
            .unwrap();
        let text = format!("{v:?}");
        assert!(text.contains("inv.Bin"), "{text}");
        assert!(
            text.contains("warehouse") && text.contains("\"north\""),
            "{text}"
        );
        assert!(text.contains("id 102") || text.contains("#102"), "{text}");
        for internal in ["Mutex", "TypeDef", "field_type", "Arc"] {
            assert!(!text.contains(internal), "{internal} in {text}");
        }
    }
}
