//! `Box<dyn AnyObject + Send + Sync>` and `Arc<dyn AnyObject + Send + Sync>`: polymorphic
//! fields of models that move between threads, with the bytes of `Box<dyn AnyObject>`.

use fury::{AnyObject, ErrorKind, Fury, FuryObject};
use std::rc::Rc;
use std::sync::Arc;

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 500)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(FuryObject, Debug)]
#[fury(id = 501)]
struct Holder {
    name: String,
    value: Box<dyn AnyObject + Send + Sync>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 502)]
struct Shared {
    a: Arc<dyn AnyObject + Send + Sync>,
    items: Vec<Box<dyn AnyObject + Send + Sync>>,
}

/// Not `Send`: it holds an `Rc`.
#[derive(FuryObject, Debug)]
#[fury(id = 503)]
struct Local {
    names: Rc<String>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 504)]
struct Pair<T> {
    a: T,
    b: T,
}

fn fury() -> Fury {
    let mut f = Fury::builder().compatible(false).build();
    f.register::<Point>()
        .unwrap()
        .register::<Holder>()
        .unwrap()
        .register::<Shared>()
        .unwrap()
        .register::<Local>()
        .unwrap()
        .register::<Pair<i32>>()
        .unwrap();
    f
}

fn assert_send<T: Send + Sync>(_: &T) {}

#[test]
fn reads_pyfory_bytes_into_a_send_box_and_moves_it_to_another_thread() {
    // pyfory 1.7.7's bytes for Holder("n", 5), as in `AnyObject`'s rustdoc (VARINT64 5).
    let py = [
        0x01, 0xff, 0x1b, 0xf5, 0x03, 0x4b, 0x9e, 0x6b, 0x03, 0x04, 0x6e, 0x07, 0x0a,
    ];
    let f = fury();
    let h: Holder = f.deserialize(&py).unwrap();
    assert_send(&h);
    let back = std::thread::spawn(move || {
        assert_eq!(h.value.downcast_ref::<i64>(), Some(&5));
        h
    })
    .join()
    .unwrap();
    assert_eq!(f.serialize(&back).unwrap(), py);
}

#[test]
fn user_types_and_containers_read_into_send_boxes() {
    let f = fury();
    let v = Shared {
        a: Arc::new(Point { x: 1, y: -2 }),
        items: vec![
            Box::new("s".to_string()),
            Box::new(vec![1i32, 2]),
            Box::new(Point { x: 3, y: 4 }),
        ],
    };
    let bytes = f.serialize(&v).unwrap();
    let back: Shared = std::thread::spawn({
        let f = fury();
        move || f.deserialize::<Shared>(&bytes).unwrap()
    })
    .join()
    .unwrap();
    assert_eq!(back.a.downcast_ref::<Point>(), Some(&Point { x: 1, y: -2 }));
    assert_eq!(back.items[0].downcast_ref::<String>().unwrap(), "s");
    assert_eq!(back.items[1].downcast_ref::<Vec<i32>>(), Some(&vec![1, 2]));
    assert_eq!(
        back.items[2].downcast_ref::<Point>(),
        Some(&Point { x: 3, y: 4 })
    );
    // A generic instantiation: its derive cannot prove it Send + Sync, so it is refused
    // there (with the offset of its value), and read into `Box<dyn AnyObject>` elsewhere.
    let only_pair = Shared {
        a: Arc::new(Pair { a: 1i32, b: 2 }),
        items: vec![],
    };
    let e = f
        .deserialize::<Shared>(&f.serialize(&only_pair).unwrap())
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("Send + Sync"), "{e}");
    assert!(e.offset().is_some(), "{e}");
}

#[test]
fn a_type_that_is_not_send_is_refused_in_a_send_position_and_read_elsewhere() {
    let f = fury();
    #[derive(FuryObject, Debug)]
    #[fury(id = 501)]
    struct LocalHolder {
        name: String,
        value: Box<dyn AnyObject>,
    }
    let mut g = Fury::builder().compatible(false).build();
    g.register::<Local>()
        .unwrap()
        .register::<LocalHolder>()
        .unwrap();
    let bytes = g
        .serialize(&LocalHolder {
            name: "n".into(),
            value: Box::new(Local {
                names: Rc::new("a".into()),
            }),
        })
        .unwrap();
    let back: LocalHolder = g.deserialize(&bytes).unwrap();
    assert_eq!(*back.value.downcast_ref::<Local>().unwrap().names, "a");
    let e = f.deserialize::<Holder>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("Local"), "{e}");
}
