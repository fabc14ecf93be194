//! `Box`/`Rc`/`Arc<dyn AnyObject>` fields, elements and roots: the API (downcasting,
//! sharing) and hostile input. The vectors from pyfory 1.7.7 (`typing.Any` fields) are
//! checked in conformance/tests/any.rs; the bytes below that come from pyfory say so.

use fury::{AnyObject, ErrorKind, Fury, FuryObject};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

#[derive(FuryObject, Debug, PartialEq, Clone)]
#[fury(id = 500)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(FuryObject, Debug)]
#[fury(id = 501)]
struct Holder {
    name: String,
    value: Box<dyn AnyObject>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 502)]
struct Refs {
    #[fury(ref)]
    first: Rc<dyn AnyObject>,
    #[fury(ref)]
    second: Rc<dyn AnyObject>,
}

/// Holder's fields with a box that cannot be shared in a `ref` field.
#[derive(FuryObject, Debug)]
#[fury(id = 502)]
struct BoxRefs {
    #[fury(ref)]
    first: Box<dyn AnyObject>,
    #[fury(ref)]
    second: Box<dyn AnyObject>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 505)]
struct Mixed {
    maybe: Option<Box<dyn AnyObject>>,
    shared: Arc<dyn AnyObject>,
    by_key: HashMap<String, Box<dyn AnyObject>>,
    list: Vec<Rc<dyn AnyObject>>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 506)]
struct Borrowing<'a> {
    name: &'a str,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn fury(compatible: bool, tracking: bool) -> Fury {
    let mut fury = Fury::builder()
        .compatible(compatible)
        .ref_tracking(tracking)
        .build();
    fury.register::<Point>().unwrap();
    fury.register::<Holder>().unwrap();
    fury.register::<Mixed>().unwrap();
    fury
}

// pyfory 1.7.7, same-schema mode: Holder("n", <value>) is this prefix, then the value's type
// info and payload (conformance/vectors/any/any.json).
const HOLDER_PREFIX: &str = "01ff1bf5034b9e6b03046e";

#[test]
fn downcasting_gives_back_the_concrete_values() {
    let fury = fury(false, false);
    let bytes = fury
        .serialize(&Holder {
            name: "n".into(),
            value: Box::new(Point { x: 1, y: 2 }),
        })
        .unwrap();
    // pyfory's bytes for Holder("n", Point(1, 2)).
    assert_eq!(bytes, unhex(&format!("{HOLDER_PREFIX}1bf40368608b240204")));
    let mut back: Holder = fury.deserialize(&bytes).unwrap();
    assert!(back.value.is::<Point>());
    assert!(!back.value.is_null());
    assert_eq!(back.value.downcast_ref::<String>(), None);
    back.value.downcast_mut::<Point>().unwrap().x = 10;
    let p: Box<Point> = back.value.downcast::<Point>().unwrap();
    assert_eq!(*p, Point { x: 10, y: 2 });
    assert_eq!(
        format!("{:?}", &*(Box::new(1u8) as Box<dyn AnyObject>)),
        "AnyObject(\"u8\")"
    );

    // A None in an Any field (the NONE type) reads as a null.
    let none: Holder = fury
        .deserialize(&unhex(&format!("{HOLDER_PREFIX}24")))
        .unwrap();
    assert!(none.value.is_null());
}

#[test]
fn a_root_dyn_value_is_written_as_the_value_itself() {
    let fury = fury(false, false);
    let b: Box<dyn AnyObject> = Box::new("hi".to_string());
    assert_eq!(fury.serialize(&b).unwrap(), fury.serialize("hi").unwrap());
    let back: Box<dyn AnyObject> = fury.deserialize(&fury.serialize(&7i32).unwrap()).unwrap();
    assert_eq!(back.downcast_ref::<i32>(), Some(&7));
    // Containers of boxes: a Python list of mixed values, and a dense array.
    let mixed: Vec<Box<dyn AnyObject>> = vec![Box::new(1i64), Box::new("a".to_string())];
    // pyfory 1.7.7's bytes for [1, "a"].
    let py = [0x01, 0xff, 0x16, 0x02, 0x00, 0x07, 0x02, 0x15, 0x04, 0x61];
    assert_eq!(fury.serialize(&mixed).unwrap(), py);
    let back: Box<dyn AnyObject> = fury.deserialize(&py).unwrap();
    let list = back.downcast_ref::<Vec<Box<dyn AnyObject>>>().unwrap();
    assert_eq!(list[0].downcast_ref::<i64>(), Some(&1));
    assert_eq!(list[1].downcast_ref::<String>().unwrap(), "a");
    let dense: Box<dyn AnyObject> = Box::new(vec![1i32, 2]);
    let back: Box<dyn AnyObject> = fury.deserialize(&fury.serialize(&dense).unwrap()).unwrap();
    assert_eq!(back.downcast_ref::<Vec<i32>>(), Some(&vec![1, 2]));
}

#[test]
fn optional_shared_and_keyed_fields_round_trip_in_both_modes() {
    for compatible in [false, true] {
        for tracking in [false, true] {
            let fury = fury(compatible, tracking);
            let p: Rc<dyn AnyObject> = Rc::new(Point { x: 1, y: 1 });
            let mut by_key: HashMap<String, Box<dyn AnyObject>> = HashMap::new();
            by_key.insert("n".into(), Box::new(3u16));
            let m = Mixed {
                maybe: None,
                shared: Arc::new(fury::Date::from_days(19_000)),
                by_key,
                list: vec![p.clone(), p, Rc::new(fury::Decimal::new(5, 0))],
            };
            let bytes = fury.serialize(&m).unwrap();
            let back: Mixed = fury.deserialize(&bytes).unwrap();
            assert!(back.maybe.is_none());
            assert_eq!(
                back.shared.downcast_ref::<fury::Date>(),
                Some(&fury::Date::from_days(19_000))
            );
            assert_eq!(back.by_key["n"].downcast_ref::<u16>(), Some(&3));
            assert_eq!(
                back.list[0].downcast_ref::<Point>(),
                Some(&Point { x: 1, y: 1 })
            );
            // The list tracks its elements only with tracking on.
            assert_eq!(Rc::ptr_eq(&back.list[0], &back.list[1]), tracking);
            assert_eq!(
                back.list[2].downcast_ref::<fury::Decimal>(),
                Some(&fury::Decimal::new(5, 0))
            );
            let some = Mixed {
                maybe: Some(Box::new(Point { x: 2, y: 2 })),
                ..back
            };
            let again: Mixed = fury.deserialize(&fury.serialize(&some).unwrap()).unwrap();
            let maybe = again.maybe.unwrap();
            assert_eq!(maybe.downcast_ref::<Point>(), Some(&Point { x: 2, y: 2 }));
            let arc = again.shared.downcast_arc::<fury::Date>().unwrap();
            assert_eq!(*arc, fury::Date::from_days(19_000));
        }
    }
}

#[test]
fn a_shared_rc_is_written_once_and_read_back_as_one_allocation() {
    let mut fury = fury(false, true);
    fury.register::<Refs>().unwrap();
    let p: Rc<dyn AnyObject> = Rc::new(Point { x: 3, y: 4 });
    let bytes = fury
        .serialize(&Refs {
            first: p.clone(),
            second: p,
        })
        .unwrap();
    // pyfory 1.7.7's bytes for `p = Point(3, 4); Refs(p, p)`: the second is `fe 01`.
    assert_eq!(bytes, unhex("01001bf60360702057001bf40368608b240608fe01"));
    let back: Refs = fury.deserialize(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.first, &back.second));
    let first = back.first.clone().downcast_rc::<Point>().unwrap();
    assert_eq!(*first, Point { x: 3, y: 4 });
    assert!(std::ptr::addr_eq(
        Rc::as_ptr(&first),
        Rc::as_ptr(&back.second)
    ));

    // A Box cannot share: the back reference is an error that says what to use.
    let mut boxed = self::fury(false, true);
    boxed.register::<BoxRefs>().unwrap();
    let e = boxed.deserialize::<BoxRefs>(&bytes).unwrap_err();
    assert!(e.to_string().contains("Rc"), "{e}");
    // Written from boxes, the values are two objects (each REF_VALUE), as pyfory writes two
    // distinct Points.
    let two = boxed
        .serialize(&BoxRefs {
            first: Box::new(Point { x: 3, y: 4 }),
            second: Box::new(Point { x: 3, y: 4 }),
        })
        .unwrap();
    assert_eq!(
        two,
        unhex("01001bf60360702057001bf40368608b240608001bf40368608b240608")
    );
}

#[test]
fn a_type_info_naming_an_unregistered_type_is_an_error_naming_it() {
    let fury = fury(false, false);
    // STRUCT with user type id 999 (e7 07).
    let e = fury
        .deserialize::<Holder>(&unhex(&format!("{HOLDER_PREFIX}1be70768608b240204")))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("STRUCT") && msg.contains("999"), "{msg}");
    // An ENUM id that only a struct has.
    let e = fury
        .deserialize::<Holder>(&unhex(&format!("{HOLDER_PREFIX}19f40301")))
        .unwrap_err();
    assert!(
        e.to_string().contains("ENUM") && e.to_string().contains("500"),
        "{e}"
    );
    // pyfory's Holder("n", Point(1, 2)) with Point registered as "geo.Point", read where it
    // is registered by id.
    let named = "01ff1bf5034b9e6b03046e1d0401188e0803bdc86cc068608b240204";
    let e = fury.deserialize::<Holder>(&unhex(named)).unwrap_err();
    assert!(e.to_string().contains("\"geo\".\"Point\""), "{e}");
    // Compatible mode: the TypeDef names id 500, which this instance does not know.
    let mut compat = Fury::builder().compatible(true).build();
    compat.register::<Holder>().unwrap();
    let py = "01ff1c000eb0595d1031a157c2f5034815340c204c00d40ba100046e1c020910153ce891691ac2f40340055c4005600204";
    let e = compat.deserialize::<Holder>(&unhex(py)).unwrap_err();
    assert!(e.to_string().contains("user type id 500"), "{e}");
    // A kind byte that is no type at all, and one without a Rust type here.
    for (tail, what) in [("3f", "63"), ("2a00", "ARRAY"), ("1000", "FLOAT8")] {
        let e = fury
            .deserialize::<Holder>(&unhex(&format!("{HOLDER_PREFIX}{tail}")))
            .unwrap_err();
        assert!(e.to_string().contains(what), "{tail}: {e}");
    }
}

#[test]
fn a_type_that_borrows_cannot_be_read_as_a_dyn_value() {
    let mut fury = fury(false, false);
    fury.register::<Borrowing<'static>>().unwrap();
    let inner = fury.serialize(&Borrowing { name: "x" }).unwrap();
    // The Holder prefix, then the struct as written at the root (without header and flag).
    let bytes = [unhex(HOLDER_PREFIX), inner[2..].to_vec()].concat();
    let e = fury.deserialize::<Holder>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("Borrowing"), "{e}");
}

#[test]
fn hostile_input_is_an_error_not_a_panic_a_hang_or_a_large_allocation() {
    let fury = fury(false, false);
    // Lists nested in lists far beyond the depth limit.
    let deep = format!("{HOLDER_PREFIX}{}24", "160100".repeat(100_000));
    let e = fury.deserialize::<Holder>(&unhex(&deep)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
    // A list that declares 2^32 - 1 elements in a few bytes.
    let long = format!("{HOLDER_PREFIX}16ffffffff0f00");
    let e = fury.deserialize::<Holder>(&unhex(&long)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. }), "{e}");
    // Memory stays within the allocation cap.
    let capped = {
        let mut f = Fury::builder().compatible(false).max_alloc(4096).build();
        f.register::<Point>().unwrap();
        f.register::<Holder>().unwrap();
        f
    };
    // 4,000 Points after one type info (SAME_TYPE), 6 bytes each in the input.
    let many = format!(
        "{HOLDER_PREFIX}16a01f081bf403{}",
        "68608b240204".repeat(4000)
    );
    let e = capped.deserialize::<Holder>(&unhex(&many)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::AllocLimit { .. }), "{e}");
    assert!(fury.deserialize::<Holder>(&unhex(&many)).is_ok());
    // Every prefix of a stream with a struct, a list and a map in Any positions is an error.
    let full = format!("{HOLDER_PREFIX}160402ff0702ff150461ff1bf40368608b240608fd");
    let full = unhex(&full);
    assert!(fury.deserialize::<Holder>(&full).is_ok());
    for n in 0..full.len() {
        assert!(
            fury.deserialize::<Holder>(&full[..n]).is_err(),
            "prefix {n}"
        );
    }
    for i in 0..full.len() {
        for b in [0x00, 0x01, 0x16, 0x18, 0x1b, 0x24, 0x7f, 0xfe, 0xff] {
            let mut m = full.clone();
            m[i] = b;
            let _ = fury.deserialize::<Holder>(&m);
            let _ = fury.deserialize::<Box<dyn AnyObject>>(&m);
        }
    }
}

#[test]
fn a_peer_enum_field_read_into_a_dyn_field_is_an_error_not_an_earlier_type() {
    #[derive(FuryObject, Debug, PartialEq, Clone, Copy)]
    #[fury(id = 503)]
    enum Color {
        Red,
        Green,
    }
    #[derive(FuryObject, Debug)]
    #[fury(id = 510)]
    struct Writer {
        first: Box<dyn AnyObject>,
        value: Color,
    }
    #[derive(FuryObject, Debug)]
    #[fury(id = 510)]
    struct Reader {
        first: Box<dyn AnyObject>,
        value: Box<dyn AnyObject>,
    }
    let mut w = Fury::builder().compatible(true).build();
    w.register::<Color>().unwrap().register::<Writer>().unwrap();
    let mut r = Fury::builder().compatible(true).build();
    r.register::<Color>().unwrap().register::<Reader>().unwrap();
    let bytes = w
        .serialize(&Writer {
            first: Box::new(Color::Red),
            value: Color::Green,
        })
        .unwrap();
    // The declared enum carries no type info: which enum it is, only the peer knows.
    let e = r.deserialize::<Reader>(&bytes).unwrap_err();
    assert!(e.to_string().contains("without its type info"), "{e}");
}
