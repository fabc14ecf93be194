//! `typing.Any`-style fields against the official crate `fory` 1.7.7 (this crate's
//! dependency): its `Box<dyn Any>` / `Rc<dyn Any>` fields and fury-rs's `Box<dyn AnyObject>` /
//! `Rc<dyn AnyObject>` fields write the same bytes (strings aside, D4 of
//! spec/DISAGREEMENTS.md) and read each other's.

use std::any::Any;
use std::rc::Rc;

mod theirs {
    use super::*;

    #[derive(fory::ForyStruct, Debug, PartialEq, Clone, Default)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(fory::ForyStruct)]
    pub struct Holder {
        pub name: String,
        pub value: Box<dyn Any>,
    }

    #[derive(fory::ForyStruct)]
    pub struct Refs {
        pub first: Rc<dyn Any>,
        pub second: Rc<dyn Any>,
    }

    pub fn fory(compatible: bool, tracking: bool) -> fory::Fory {
        let mut f = fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .track_ref(tracking)
            .build();
        f.register::<Point>(500).unwrap();
        f.register::<Holder>(501).unwrap();
        f.register::<Refs>(502).unwrap();
        f
    }
}

mod ours {
    use fury::{AnyObject, FuryObject};
    use std::rc::Rc;

    #[derive(FuryObject, Debug, PartialEq, Clone)]
    #[fury(id = 500)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(FuryObject, Debug)]
    #[fury(id = 501)]
    pub struct Holder {
        pub name: String,
        pub value: Box<dyn AnyObject>,
    }

    #[derive(FuryObject, Debug)]
    #[fury(id = 502)]
    pub struct Refs {
        #[fury(ref)]
        pub first: Rc<dyn AnyObject>,
        #[fury(ref)]
        pub second: Rc<dyn AnyObject>,
    }

    pub fn fury(compatible: bool, tracking: bool) -> fury::Fury {
        let mut f = fury::Fury::builder()
            .compatible(compatible)
            .ref_tracking(tracking)
            .build();
        f.register::<Point>().unwrap();
        f.register::<Holder>().unwrap();
        f.register::<Refs>().unwrap();
        f
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// A value on both sides: its name, the official crate's and ours.
type Case = (&'static str, Box<dyn Any>, Box<dyn fury::AnyObject>);

fn values() -> Vec<Case> {
    vec![
        (
            "point",
            Box::new(theirs::Point { x: 1, y: 2 }),
            Box::new(ours::Point { x: 1, y: 2 }),
        ),
        ("i64", Box::new(-5i64), Box::new(-5i64)),
        ("i32", Box::new(7i32), Box::new(7i32)),
        ("f64", Box::new(2.5f64), Box::new(2.5f64)),
        // Not ASCII, so that both write UTF-8 (D4: the crate writes ASCII as UTF-8 too).
        (
            "string",
            Box::new("né".to_string()),
            Box::new("né".to_string()),
        ),
    ]
}

fn same_value(a: &dyn Any, b: &dyn fury::AnyObject) -> bool {
    if let Some(p) = a.downcast_ref::<theirs::Point>() {
        return b.downcast_ref::<ours::Point>() == Some(&ours::Point { x: p.x, y: p.y });
    }
    a.downcast_ref::<i64>()
        .is_some_and(|v| b.downcast_ref::<i64>() == Some(v))
        || a.downcast_ref::<i32>()
            .is_some_and(|v| b.downcast_ref::<i32>() == Some(v))
        || a.downcast_ref::<f64>()
            .is_some_and(|v| b.downcast_ref::<f64>() == Some(v))
        || a.downcast_ref::<String>()
            .is_some_and(|v| b.downcast_ref::<String>() == Some(v))
}

#[test]
fn box_dyn_any_fields_write_the_same_bytes_and_read_each_other() {
    for compatible in [false, true] {
        let fory = theirs::fory(compatible, false);
        let fury = ours::fury(compatible, false);
        for (what, t, o) in values() {
            let t = theirs::Holder {
                name: "é".into(),
                value: t,
            };
            let o = ours::Holder {
                name: "é".into(),
                value: o,
            };
            let tb = fory.serialize(&t).unwrap();
            let ob = fury.serialize(&o).unwrap();
            assert_eq!(hex(&ob), hex(&tb), "{what}, compatible {compatible}");
            let read: ours::Holder = fury.deserialize(&tb).unwrap();
            assert!(
                same_value(&*t.value, &*read.value),
                "{what}: fury read {read:?}"
            );
            let read: theirs::Holder = fory.deserialize(&ob).unwrap();
            assert!(
                same_value(&*read.value, &*o.value),
                "{what}: fory read ours"
            );
        }
    }
}

#[test]
fn rc_dyn_any_fields_share_as_the_official_crate_shares() {
    for compatible in [false, true] {
        let fory = theirs::fory(compatible, true);
        let fury = ours::fury(compatible, true);
        let p: Rc<dyn Any> = Rc::new(theirs::Point { x: 3, y: 4 });
        let tb = fory
            .serialize(&theirs::Refs {
                first: p.clone(),
                second: p,
            })
            .unwrap();
        let p: Rc<dyn fury::AnyObject> = Rc::new(ours::Point { x: 3, y: 4 });
        let ob = fury
            .serialize(&ours::Refs {
                first: p.clone(),
                second: p,
            })
            .unwrap();
        // Also pyfory 1.7.7's bytes (conformance/vectors/any, any/refs/*/shared_point).
        assert_eq!(hex(&ob), hex(&tb), "compatible {compatible}");
        let read: ours::Refs = fury.deserialize(&tb).unwrap();
        assert!(Rc::ptr_eq(&read.first, &read.second));
        let read: theirs::Refs = fory.deserialize(&ob).unwrap();
        assert!(Rc::ptr_eq(&read.first, &read.second));
    }
}

/// What the official crate refuses in a `Box<dyn Any>` field and fury-rs reads (pyfory's
/// bytes, conformance/vectors/any): a list, a map, a None (spec/DISAGREEMENTS.md, §50).
#[test]
fn the_official_crate_refuses_containers_and_nulls_in_an_any_field() {
    let fory = theirs::fory(false, false);
    let fury = ours::fury(false, false);
    let prefix = "01ff1bf5034b9e6b03046e";
    for (what, tail) in [
        (
            "list [1, 'a', Point(3, 4), None]",
            "160402ff0702ff150461ff1bf40368608b240608fd",
        ),
        ("dict {'k': 1}", "180100011507046b02"),
        ("None", "24"),
    ] {
        let bytes = unhex(&format!("{prefix}{tail}"));
        // The crate says "ID harness not found".
        assert!(
            fory.deserialize::<theirs::Holder>(&bytes).is_err(),
            "{what}"
        );
        assert!(fury.deserialize::<ours::Holder>(&bytes).is_ok(), "{what}");
    }
    // And it does not write one: a `Vec` behind `Box<dyn Any>` is an error.
    let list = theirs::Holder {
        name: "n".into(),
        value: Box::new(vec![1i64, 2]),
    };
    // "built-in list, set, map, binary, and primitive-array values cannot be top-level
    // erased Any or application-trait payloads; ..."
    assert!(fory.serialize(&list).is_err());
}
