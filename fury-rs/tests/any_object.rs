//! `Box`/`Rc`/`Arc<dyn AnyObject>` fields and elements (smoke; the pyfory vectors are in
//! conformance/tests/any.rs).

use fury::{AnyObject, Fury, FuryObject};
use std::rc::Rc;

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

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn smoke() {
    for compat in [false, true] {
        let mut fury = Fury::builder().compatible(compat).build();
        fury.register::<Point>()
            .unwrap()
            .register::<Holder>()
            .unwrap();
        let cases: Vec<(Box<dyn AnyObject>, &str, &str)> = vec![
            (Box::new(5i64), "01ff1bf5034b9e6b03046e070a", "01ff1c000eb0595d1031a157c2f5034815340c204c00d40ba100046e070a"),
            (Box::new("s".to_string()), "01ff1bf5034b9e6b03046e150473", "01ff1c000eb0595d1031a157c2f5034815340c204c00d40ba100046e150473"),
            (Box::new(Point { x: 1, y: 2 }), "01ff1bf5034b9e6b03046e1bf40368608b240204", "01ff1c000eb0595d1031a157c2f5034815340c204c00d40ba100046e1c020910153ce891691ac2f40340055c4005600204"),
            (Box::new(()), "01ff1bf5034b9e6b03046e24", "01ff1c000eb0595d1031a157c2f5034815340c204c00d40ba100046e24"),
        ];
        for (v, same, comp) in cases {
            let want = unhex(if compat { comp } else { same });
            let h = Holder {
                name: "n".into(),
                value: v,
            };
            let got = fury.serialize(&h).unwrap();
            assert_eq!(got, want, "compat {compat} {:?}", h.value);
            let back: Holder = fury.deserialize(&want).unwrap();
            assert_eq!(back.value.type_name(), h.value.type_name());
            assert_eq!(fury.serialize(&back).unwrap(), want);
        }
    }
}

#[test]
fn rc_sharing() {
    #[derive(FuryObject, Debug)]
    #[fury(id = 502)]
    struct Refs {
        #[fury(ref)]
        first: Rc<dyn AnyObject>,
        #[fury(ref)]
        second: Rc<dyn AnyObject>,
    }
    let mut fury = Fury::builder().compatible(false).ref_tracking(true).build();
    fury.register::<Point>()
        .unwrap()
        .register::<Refs>()
        .unwrap();
    let p: Rc<dyn AnyObject> = Rc::new(Point { x: 3, y: 4 });
    let r = Refs {
        first: p.clone(),
        second: p,
    };
    let bytes = fury.serialize(&r).unwrap();
    assert_eq!(bytes, unhex("01001bf60360702057001bf40368608b240608fe01"));
    let back: Refs = fury.deserialize(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.first, &back.second));
    assert_eq!(
        back.first.downcast_ref::<Point>(),
        Some(&Point { x: 3, y: 4 })
    );
}
