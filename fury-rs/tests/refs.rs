//! Reference tracking against bytes written by pyfory 1.7.7 with `Fory(xlang=True, ref=True)`
//! (the Python expressions are in the comments).

use fury::{ErrorKind, Fury, FuryObject, List, Value};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

fn unhex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

fn tracking() -> Fury {
    Fury::builder().ref_tracking(true).compatible(false).build()
}

#[test]
fn root_values_take_a_reference_id() {
    let fury = tracking();
    // 5 ; "x"
    assert_eq!(fury.serialize(&5i64).unwrap(), unhex("01 00 07 0a"));
    assert_eq!(fury.serialize("x").unwrap(), unhex("01 00 15 04 78"));
    assert_eq!(fury.deserialize::<i64>(&unhex("01 00 07 0a")).unwrap(), 5);
}

#[test]
fn a_list_holding_the_same_list_twice() {
    let fury = tracking();
    // a = [1, 2]; [a, a]
    let py = unhex("01 00 16 02 09 16 00 02 08 07 02 04 fe 01");
    let a = Rc::new(List(vec![1i64, 2]));
    let v = vec![a.clone(), a];
    assert_eq!(fury.serialize(&v).unwrap(), py);
    let back: Vec<Rc<List<i64>>> = fury.deserialize(&py).unwrap();
    assert_eq!(back.len(), 2);
    assert!(Rc::ptr_eq(&back[0], &back[1]), "sharing survives");
    assert_eq!(*back[0], List(vec![1, 2]));
    // Arc works the same way.
    let back: Vec<Arc<List<i64>>> = fury.deserialize(&py).unwrap();
    assert!(Arc::ptr_eq(&back[0], &back[1]));
    // As a dynamic Value the second element stays a reference (no copy).
    let v: Value = fury.deserialize(&py).unwrap();
    let Value::List(items) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(items[1], Value::Ref(1));
    assert_eq!(
        fury.serialize(&v).unwrap(),
        py,
        "the Value re-encodes byte for byte"
    );
}

#[test]
fn distinct_equal_lists_are_not_merged() {
    let fury = tracking();
    // [[1], [2]]
    let py = unhex("01 00 16 02 09 16 00 01 08 07 02 00 01 08 07 04");
    let v = vec![List(vec![1i64]), List(vec![2])];
    assert_eq!(fury.serialize(&v).unwrap(), py);
    assert_eq!(fury.deserialize::<Vec<List<i64>>>(&py).unwrap(), v);
}

#[test]
fn map_values_sharing_one_object() {
    let fury = tracking();
    // a = [1, 2]; {"x": a, "y": a}
    let py = unhex("01 00 18 02 08 02 15 16 04 78 00 02 08 07 02 04 04 79 fe 01");
    let a = Rc::new(List(vec![1i64, 2]));
    let m: BTreeMap<String, Rc<List<i64>>> =
        [("x".to_string(), a.clone()), ("y".to_string(), a)].into();
    assert_eq!(fury.serialize(&m).unwrap(), py);
    let back: BTreeMap<String, Rc<List<i64>>> = fury.deserialize(&py).unwrap();
    assert!(Rc::ptr_eq(&back["x"], &back["y"]));
}

// @dataclass class P: x: pyfory.Int32   (type_id=100)
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 100)]
struct P {
    x: i32,
}

#[test]
fn a_list_of_the_same_struct_twice() {
    let mut fury = tracking();
    fury.register::<P>().unwrap();
    // p = P(1); [p, p]
    let py = unhex("01 00 16 02 09 1b 64 00 3b b0 02 cb 02 fe 01");
    let p = Rc::new(P { x: 1 });
    assert_eq!(fury.serialize(&vec![p.clone(), p]).unwrap(), py);
    let back: Vec<Rc<P>> = fury.deserialize(&py).unwrap();
    assert!(Rc::ptr_eq(&back[0], &back[1]));
}

#[test]
fn without_tracking_only_null_flags_are_written() {
    let fury = Fury::builder().compatible(false).build();
    let a = Rc::new(List(vec![1i64, 2]));
    let bytes = fury.serialize(&vec![a.clone(), a]).unwrap();
    // the shared list is written twice, in full
    assert_eq!(
        bytes,
        unhex("01 ff 16 02 08 16 02 08 07 02 04 02 08 07 02 04")
    );
    let back: Vec<Rc<List<i64>>> = fury.deserialize(&bytes).unwrap();
    assert!(!Rc::ptr_eq(&back[0], &back[1]));
}

#[test]
fn bad_references_are_errors() {
    let fury = tracking();
    // a reference to id 7 that was never assigned
    let e = fury
        .deserialize::<Vec<Rc<List<i64>>>>(&unhex("01 00 16 01 09 16 fe 07"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert!(fury
        .deserialize::<Value>(&unhex("01 00 16 01 09 16 fe 07"))
        .is_err());
    // a reference to a value whose Rust type cannot be shared
    let e = fury
        .deserialize::<Vec<List<i64>>>(&unhex("01 00 16 02 09 16 00 02 08 07 02 04 fe 01"))
        .unwrap_err();
    assert!(e.to_string().contains("Rc or Arc"), "{e}");
    // a reference to the list still being read (a cycle) into a type that cannot hold one
    let e = fury
        .deserialize::<Vec<Rc<List<i64>>>>(&unhex("01 00 16 01 09 16 fe 00"))
        .unwrap_err();
    assert!(
        e.to_string().contains("cycle") || e.to_string().contains("another"),
        "{e}"
    );
    // ...while a dynamic Value represents it: [self]
    let v: Value = fury.deserialize(&unhex("01 00 16 01 09 16 fe 00")).unwrap();
    assert_eq!(v, Value::List(vec![Value::Ref(0)]));
}

#[test]
fn reference_bombs_stay_small() {
    // [a, a, a, ...] with 100 000 references to one 1000-element list: decoded as Values the
    // references stay references, so memory grows with the input, not with the expansion.
    let fury = tracking();
    let mut b = unhex("01 00 16");
    let n = 100_000u32;
    let mut w = Vec::new();
    fury::wire::Writer::new(&mut w).var_u32(n);
    b.extend(w);
    b.extend(unhex("09 16 00"));
    b.extend(unhex("e8 07 0c")); // 1000 elements, declared
    b.extend(std::iter::repeat_n(0x02u8, 1000));
    for _ in 1..n {
        b.extend(unhex("fe 01"));
    }
    // The inner list here has no element type info, which a LIST of Values cannot read:
    // that is an error, quickly.
    assert!(fury.deserialize::<Value>(&b).is_err());
    // With element type info (header 08 + VARINT64) it decodes, with references kept.
    let mut b2 = unhex("01 00 16");
    let mut w = Vec::new();
    fury::wire::Writer::new(&mut w).var_u32(n);
    b2.extend(w);
    b2.extend(unhex("09 16 00 e8 07 08 07"));
    b2.extend(std::iter::repeat_n(0x02u8, 1000));
    for _ in 1..n {
        b2.extend(unhex("fe 01"));
    }
    let v: Value = fury.deserialize(&b2).unwrap();
    let Value::List(items) = v else { panic!() };
    assert_eq!(items.len(), n as usize);
    assert!(items[1..].iter().all(|x| *x == Value::Ref(1)));
    // As Rc<List> the copies are one allocation.
    let typed: Vec<Rc<List<i64>>> = fury.deserialize(&b2).unwrap();
    assert!(Rc::ptr_eq(&typed[0], &typed[n as usize - 1]));
}

// @dataclass class Node: value: pyfory.Int32
//     next: Optional["Node"] = pyfory.field(ref=True, nullable=True)      (type_id=300)
#[derive(FuryObject, Debug)]
#[fury(id = 300)]
struct Node {
    value: i32,
    #[fury(ref)]
    next: Option<Rc<std::cell::RefCell<Node>>>,
}

#[test]
fn a_struct_pointing_to_itself_round_trips_as_a_cycle() {
    // n = Node(value=1, next=None); n.next = n      (vector refs/same_schema/node/self)
    let py = unhex("01 00 1b ac 02 49 f9 6b 19 02 fe 00");
    let mut fury = tracking();
    fury.register::<Node>().unwrap();
    let n = Rc::new(std::cell::RefCell::new(Node {
        value: 1,
        next: None,
    }));
    n.borrow_mut().next = Some(n.clone());
    assert_eq!(fury.serialize(&n).unwrap(), py);
    let back: Rc<std::cell::RefCell<Node>> = fury.deserialize(&py).unwrap();
    let next = back.borrow().next.clone().expect("next is set");
    assert!(
        Rc::ptr_eq(&back, &next),
        "the cycle closes on the same allocation"
    );
    assert_eq!(back.borrow().value, 1);
    // break the cycles so the test does not leak
    n.borrow_mut().next = None;
    back.borrow_mut().next = None;
    // compatible mode, same graph (vector refs/compatible/node/self)
    let py = unhex(
        "01 00 1c 00 0e f0 4f 7c 91 45 6e 7c c2 ac 02 4c 05 d4 0b a1 00 4b 1c 34 97 98 02 fe 00",
    );
    let mut compat = Fury::builder().ref_tracking(true).compatible(true).build();
    compat.register::<Node>().unwrap();
    let back: Rc<std::cell::RefCell<Node>> = compat.deserialize(&py).unwrap();
    let next = back.borrow().next.clone().expect("next is set");
    assert!(Rc::ptr_eq(&back, &next));
    assert_eq!(compat.serialize(&back).unwrap(), py);
    back.borrow_mut().next = None;
}

#[test]
fn a_chain_without_sharing() {
    // Node(value=2, next=Node(value=3, next=None))      (refs/same_schema/node/chain)
    let py = unhex("01 00 1b ac 02 49 f9 6b 19 04 00 49 f9 6b 19 06 fd");
    let mut fury = tracking();
    fury.register::<Node>().unwrap();
    let n = Rc::new(std::cell::RefCell::new(Node {
        value: 2,
        next: Some(Rc::new(std::cell::RefCell::new(Node {
            value: 3,
            next: None,
        }))),
    }));
    assert_eq!(fury.serialize(&n).unwrap(), py);
    let back: Rc<std::cell::RefCell<Node>> = fury.deserialize(&py).unwrap();
    assert_eq!(back.borrow().next.as_ref().unwrap().borrow().value, 3);
}

// @dataclass class TreeParent: name: str; children: List["TreeChild"]      (type_id=301)
// @dataclass class TreeChild: name: str; parent: TreeParent = pyfory.field(ref=True)  (302)
#[derive(FuryObject, Debug)]
#[fury(id = 301)]
struct TreeParent {
    name: String,
    children: Vec<TreeChild>,
}

#[derive(FuryObject, Debug)]
#[fury(id = 302)]
struct TreeChild {
    name: String,
    #[fury(ref)]
    parent: std::rc::Weak<std::cell::RefCell<TreeParent>>,
}

#[test]
fn children_point_back_to_their_parent_through_weak_links() {
    // p = TreeParent("p", []); p.children = [TreeChild("a", p), TreeChild("b", p)]
    // (vector refs/same_schema/tree/two_children)
    let py = unhex(
        "01 00 1b ad 02 b7 4f ab b9 02 09 1b ae 02 00 33 b5 4d 4f 04 61 fe 00 00 33 b5 4d 4f \
         04 62 fe 00 04 70",
    );
    let mut fury = tracking();
    fury.register::<TreeParent>().unwrap();
    fury.register::<TreeChild>().unwrap();
    let p = Rc::new(std::cell::RefCell::new(TreeParent {
        name: "p".into(),
        children: vec![],
    }));
    for name in ["a", "b"] {
        let child = TreeChild {
            name: name.into(),
            parent: Rc::downgrade(&p),
        };
        p.borrow_mut().children.push(child);
    }
    assert_eq!(fury.serialize(&p).unwrap(), py);
    let back: Rc<std::cell::RefCell<TreeParent>> = fury.deserialize(&py).unwrap();
    let b = back.borrow();
    assert_eq!(b.children.len(), 2);
    for c in &b.children {
        let parent = c.parent.upgrade().expect("parent alive");
        assert!(Rc::ptr_eq(&parent, &back));
    }
    assert_eq!(Rc::strong_count(&back), 1, "weak links keep no cycle alive");
}

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 101)]
enum Color {
    Red,
    Green,
    Blue,
}

// @dataclass class ScalarRefs: every field = pyfory.field(ref=True):
//     text: str; count: pyfory.Int32; color: Color; day: date; blob: bytes;
//     other_day: date; other_blob: bytes                                  (type_id=306)
#[derive(FuryObject, Debug)]
#[fury(id = 306)]
struct ScalarRefs {
    #[fury(ref)]
    text: String,
    #[fury(ref)]
    count: i32,
    #[fury(ref)]
    color: Color,
    #[fury(ref)]
    day: Rc<fury::Date>,
    #[fury(ref)]
    blob: Rc<Vec<u8>>,
    #[fury(ref)]
    other_day: Rc<fury::Date>,
    #[fury(ref)]
    other_blob: Rc<Vec<u8>>,
}

#[test]
fn ref_fields_of_every_kind_are_flagged_as_pyfory_flags_them() {
    // d = date(2024, 1, 2); b = b"ab"; ScalarRefs("t", 7, GREEN, d, b, d, b)
    // (vectors refs/same_schema/fields/scalar_refs and refs/compatible/fields/scalar_refs)
    let same =
        unhex("01 00 1b b2 02 3f 9a 7d 68 0e 00 02 61 62 ff 01 00 98 b4 02 fe 01 fe 02 04 74");
    let compat = unhex(
        "01 00 1c 00 2e 70 00 76 84 06 24 65 c7 b2 02 4d 05 89 d4 6c c0 49 29 05 6e 08 4d 19 89 \
         cb 74 40 45 27 0c 18 59 29 ba 67 24 76 15 b8 20 55 27 3a 67 24 76 30 60 49 15 4c 97 98 \
         0e 00 02 61 62 ff 01 00 98 b4 02 fe 01 fe 02 04 74",
    );
    let d = Rc::new(fury::Date::from_days(19724));
    let b = Rc::new(b"ab".to_vec());
    let v = ScalarRefs {
        text: "t".into(),
        count: 7,
        color: Color::Green,
        day: d.clone(),
        blob: b.clone(),
        other_day: d,
        other_blob: b,
    };
    for (compatible, py) in [(false, same), (true, compat)] {
        let mut fury = Fury::builder()
            .ref_tracking(true)
            .compatible(compatible)
            .build();
        fury.register::<ScalarRefs>().unwrap();
        fury.register::<Color>().unwrap();
        assert_eq!(fury.serialize(&v).unwrap(), py, "compatible={compatible}");
        let back: ScalarRefs = fury.deserialize(&py).unwrap();
        assert!(Rc::ptr_eq(&back.day, &back.other_day));
        assert!(Rc::ptr_eq(&back.blob, &back.other_blob));
        assert_eq!(
            (back.text.as_str(), back.count, back.color),
            ("t", 7, Color::Green)
        );
    }
}

/// A dynamic value that decodes writes back to bytes that decode to it, whatever ids the
/// input assigned (the fuzzing issue's case re-encoded to bytes it rejected). Without
/// reference tracking a back reference is an error; with it, ids are renumbered as the
/// writer numbers values.
#[test]
fn back_references_need_tracking_and_re_encode_with_it() {
    // header, REF_VALUE list of 2, TRACK_REF elements: REF_VALUE FLOAT16 0x6b04, REF to id 1
    let input = unhex("01 00 16 02 01 00 11 04 6b fe 01");
    let plain = Fury::builder().ref_tracking(false).build();
    let err = plain.deserialize::<Value>(&input).unwrap_err();
    assert!(
        err.to_string().contains("without reference tracking"),
        "{err}"
    );
    assert!(plain.serialize(&Value::List(vec![Value::Ref(0)])).is_err());
    // With tracking the scalar's id is one the writer would not give: the reference reads
    // as a copy, and the value writes back to bytes that read to it.
    let tracking = Fury::builder().ref_tracking(true).build();
    let v: Value = tracking.deserialize(&input).unwrap();
    let again = tracking.serialize(&v).unwrap();
    assert_eq!(tracking.deserialize::<Value>(&again).unwrap(), v);
    // A stream that gives no id to a list the writer would track: later ids are renumbered.
    // [[1] (NOT_NULL), [2] (REF_VALUE, stream id 1), reference to stream id 1]
    let odd = unhex("01 00 16 03 01 ff 16 01 08 07 02 00 16 01 08 07 04 fe 01");
    let v: Value = tracking.deserialize(&odd).unwrap();
    assert_eq!(
        v,
        Value::List(vec![
            Value::List(vec![Value::VarInt64(1)]),
            Value::List(vec![Value::VarInt64(2)]),
            Value::Ref(2),
        ])
    );
    let again = tracking.serialize(&v).unwrap();
    assert_eq!(tracking.deserialize::<Value>(&again).unwrap(), v);
    // [[], the first element again]: the inner empty list took id 1.
    let fury = Fury::builder().ref_tracking(true).build();
    let shared = unhex("01 00 16 02 09 16 00 00 fe 01");
    let v: Value = fury.deserialize(&shared).unwrap();
    assert_eq!(v, Value::List(vec![Value::List(vec![]), Value::Ref(1)]));
    let again = fury.serialize(&v).unwrap();
    assert_eq!(fury.deserialize::<Value>(&again).unwrap(), v);
}

/// A "reference bomb": a large value the writer gives no id (a string, in a list of mixed
/// types), flagged `00` anyway, then thousands of `fe` back references to it. A `Value` reads
/// such a reference as a copy (the writer would not number the string), so the copies
/// together are bounded by the bytes read: a few bytes of `fe` cannot multiply the string
/// (spec 09 §9.11).
#[test]
fn back_references_to_an_untracked_value_cannot_multiply_it() {
    let fury = Fury::builder().ref_tracking(true).build();
    // The element: `00`, then the type id and payload as the root writes them.
    let root = fury
        .serialize(&fury::Value::String("x".repeat(8000)))
        .unwrap();
    let mut element = vec![0x00];
    element.extend_from_slice(&root[2..]);
    let build = |refs: usize| {
        let mut b = vec![0x01, 0x00, 0x16];
        let mut n = refs as u32 + 1;
        while n >= 0x80 {
            b.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        b.push(n as u8);
        b.push(0x01); // elements header: tracked, of mixed types
        b.extend_from_slice(&element);
        for _ in 0..refs {
            b.extend_from_slice(&[0xfe, 0x01]);
        }
        b
    };
    // A few references are copies, as before.
    let few: fury::Value = fury.deserialize(&build(2)).unwrap();
    assert!(matches!(&few, fury::Value::List(xs) if xs.len() == 3 && xs[1] == xs[0]));
    // 5,000 of them would copy 40 MB out of 18 KB: refused.
    let e = fury.deserialize::<fury::Value>(&build(5000)).unwrap_err();
    assert!(
        e.to_string().contains("copied beyond the input's size"),
        "{e}"
    );
}

/// The fuzzer's graph that the reader built and the writer refused (issue 29): with tracking
/// off, a root flagged REF_VALUE (`00`) took a reference slot and the field's back reference
/// (`fe 00`) made the node its own `next`, a cycle this side could not write back (depth
/// limit) and that leaked. Without tracking a value takes no slot now, so the back reference
/// is an error; with tracking the same bytes are the cycle, and write back as they came.
#[test]
fn without_tracking_a_ref_value_flag_takes_no_reference_slot() {
    use std::cell::RefCell;
    use std::rc::Rc;
    #[derive(fury::FuryObject, Debug)]
    #[fury(id = 300)]
    struct Node {
        value: i32,
        #[fury(ref)]
        next: Option<Rc<RefCell<Node>>>,
    }
    let input = unhex("01 00 1b ac 02 49 f9 6b 19 02 fe 00");
    let mut plain = Fury::builder()
        .ref_tracking(false)
        .compatible(false)
        .build();
    plain.register::<Node>().unwrap();
    let e = plain.deserialize::<Rc<RefCell<Node>>>(&input).unwrap_err();
    assert!(e.to_string().contains("reference"), "{e}");
    let mut tracking = Fury::builder().ref_tracking(true).compatible(false).build();
    tracking.register::<Node>().unwrap();
    let node: Rc<RefCell<Node>> = tracking.deserialize(&input).unwrap();
    assert_eq!(node.borrow().value, 1);
    assert!(Rc::ptr_eq(node.borrow().next.as_ref().unwrap(), &node));
    assert_eq!(tracking.serialize(&node).unwrap(), input);
    // Break the cycle so the test does not leak.
    node.borrow_mut().next = None;
}

/// A `Value` read from a struct with a declared map whose values are tracked (issue 29 item
/// 6: `Dict[str, List[Optional[int]]]`, reference tracking on) writes back to bytes that
/// decode to it (it failed to write at all). The streams are pyfory 1.7.7's (`S` registered
/// as 900, compatible mode): `S({"a": [1, None], "b": []})`, written back byte for byte, and,
/// with one list shared, `S({"x": s, "y": s})`, whose back reference a `Value` keeps as a
/// copy (so it writes the list twice).
#[test]
fn a_value_with_a_tracked_declared_map_writes_back() {
    let fury = Fury::builder().ref_tracking(true).compatible(true).build();
    let plain = unhex(
        "01 00 1c 00 09 f0 d8 c4 6b 59 2c 1c c1 84 07 40 18 54 58 1e 30 02 2c 02 04 61 00 02 0e \
         ff 02 fd 04 62 00 00",
    );
    let shared = unhex(
        "01 00 1c 00 09 f0 d8 c4 6b 59 2c 1c c1 84 07 40 18 54 58 1e 30 02 2c 02 04 78 00 01 0c \
         0e 04 79 fe 01",
    );
    let v: Value = fury.deserialize(&plain).unwrap();
    assert_eq!(fury.serialize(&v).unwrap(), plain);
    let r: fury::ValueRef<'_> = fury.deserialize(&plain).unwrap();
    assert_eq!(fury.serialize(&r).unwrap(), plain);
    let v: Value = fury.deserialize(&shared).unwrap();
    let again = fury.serialize(&v).unwrap();
    assert_eq!(fury.deserialize::<Value>(&again).unwrap(), v);
}

/// `#[fury(untracked_elements)]`: pyfory's `List[Ref[P, False]]` and `Dict[str, Ref[P, False]]`
/// (what foryc generates for lists and maps of messages) carry no reference flags under
/// `ref=True`, where a plain `List[P]` does (elements header 0x08 against 0x09, map chunk
/// 0x24 against 0x2c).
#[test]
fn untracked_elements_as_pyforys_ref_false() {
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    #[fury(id = 7001)]
    struct P {
        x: i32,
    }
    #[derive(fury::FuryObject, Debug, PartialEq)]
    #[fury(id = 7002)]
    struct Bag {
        #[fury(untracked_elements)]
        items: Vec<P>,
        #[fury(untracked_elements)]
        m: std::collections::BTreeMap<String, P>,
        tracked: Vec<P>,
    }
    let bag = Bag {
        items: vec![P { x: 1 }, P { x: 2 }],
        m: [("k".to_string(), P { x: 3 })].into(),
        tracked: vec![P { x: 4 }],
    };
    // pyfory 1.7.7: Bag(items=[P(1), P(2)], m={'k': P(3)}, tracked=[P(4)]) with
    // Fory(xlang=True, ref=True, compatible=...), P as id 7001 and Bag as 7002.
    let cases = [
        (false, "01001bda36d61318b902081bd9363bb002cb023bb002cb04012401046b3bb002cb0601091bd936003bb002cb08"),
        (true, "01001c0017f026f310db3246c3da364c1670a264648040185470305016704e2012883002081c020680ef0f5f22264ec1d93640055c02040104011c03046b0601091c030008"),
    ];
    for (compatible, hex) in cases {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let mut fury = Fury::builder()
            .compatible(compatible)
            .ref_tracking(true)
            .build();
        fury.register::<P>().unwrap().register::<Bag>().unwrap();
        assert_eq!(
            fury.serialize(&bag).unwrap(),
            bytes,
            "compatible={compatible}"
        );
        assert_eq!(fury.deserialize::<Bag>(&bytes).unwrap(), bag);
    }
}
