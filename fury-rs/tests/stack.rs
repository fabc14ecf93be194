//! Stack safety: with the default depth limit, the deepest input each recursive reader
//! accepts decodes on a thread with a 256 KiB stack, and one level more is an error, not a
//! stack overflow. Covered: lists, maps, derived structs (same-schema and compatible),
//! unions, shared cells under reference tracking, and dynamic `Value`s.
//!
//! The 256 KiB holds for optimised builds (the test command runs this test with
//! `--release`). Unoptimised frames are much larger: a debug build needs between 1 and 2 MiB
//! at the default limit, so it is given 2 MiB here, the default stack of a spawned thread.

use fury::{Fury, FuryObject, Value};
use std::cell::RefCell;
use std::rc::Rc;

#[cfg(not(debug_assertions))]
const STACK: usize = 256 * 1024;
#[cfg(debug_assertions)]
const STACK: usize = 2048 * 1024;

/// Runs `f` on a thread with a small stack (an overflow aborts the test process).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(id = 500)]
struct Node {
    children: Vec<Node>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 501)]
enum Tree {
    Leaf(i32),
    Branch(Box<Tree>),
}

#[derive(FuryObject, Debug, Default)]
#[fury(id = 502)]
struct Cell {
    next: Option<Rc<RefCell<Cell>>>,
}

fn nested_node(depth: usize) -> Node {
    let mut n = Node::default();
    for _ in 0..depth {
        n = Node { children: vec![n] };
    }
    n
}

fn nested_value(depth: usize, map: bool) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = if map {
            Value::Map(vec![(Value::String("k".into()), v)])
        } else {
            Value::List(vec![v])
        };
    }
    v
}

/// The deepest nesting `write` can produce that `read` still accepts with the default
/// limit, found by trying: the readers count levels slightly differently (a struct body and
/// its list field are two), so the test looks for the boundary rather than assuming it.
fn boundary(write: impl Fn(usize) -> Option<Vec<u8>>, read: impl Fn(&[u8]) -> bool) -> usize {
    let mut ok = 0;
    for d in 1..600 {
        match write(d) {
            Some(bytes) if read(&bytes) => ok = d,
            _ => break,
        }
    }
    assert!(ok > 60, "only {ok} levels decode");
    ok
}

/// The deepest input of the case (found on the test's own thread, whose stack is large),
/// then decoded again on a 256 KiB stack; one level more must be an error there too.
fn check_case(
    name: &'static str,
    make: impl Fn() -> Fury,
    write: impl Fn(&Fury, usize) -> Option<Vec<u8>>,
    read: fn(&Fury, &[u8]) -> bool,
    make_small: fn() -> Fury,
) {
    let fury = make();
    let deepest = boundary(|d| write(&fury, d), |b| read(&fury, b));
    let at_limit = write(&fury, deepest).unwrap();
    let past = write(&fury, deepest + 1);
    on_small_stack(move || {
        let fury = make_small();
        assert!(
            read(&fury, &at_limit),
            "{name}: the deepest input fails on a small stack"
        );
        if let Some(past) = past {
            assert!(!read(&fury, &past), "{name}: one level more decodes");
        }
    });
}

fn node_fury(compatible: bool) -> Fury {
    let mut fury = Fury::builder().compatible(compatible).build();
    fury.register::<Node>().unwrap();
    fury
}

fn tree_fury() -> Fury {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Tree>().unwrap();
    fury
}

fn cell_fury() -> Fury {
    let mut fury = Fury::builder().ref_tracking(true).compatible(false).build();
    fury.register::<Cell>().unwrap();
    fury
}

fn tree(d: usize) -> Tree {
    let mut t = Tree::Leaf(1);
    for _ in 0..d {
        t = Tree::Branch(Box::new(t));
    }
    t
}

fn chain(d: usize) -> Cell {
    let mut c = Cell::default();
    for _ in 0..d {
        c = Cell {
            next: Some(Rc::new(RefCell::new(c))),
        };
    }
    c
}

#[test]
fn the_depth_limit_holds_on_a_256_kib_stack() {
    check_case(
        "struct, same-schema",
        || node_fury(false),
        |f, d| f.serialize(&nested_node(d)).ok(),
        |f, b| f.deserialize::<Node>(b).is_ok(),
        || node_fury(false),
    );
    check_case(
        "struct, compatible",
        || node_fury(true),
        |f, d| f.serialize(&nested_node(d)).ok(),
        |f, b| f.deserialize::<Node>(b).is_ok(),
        || node_fury(true),
    );
    for map in [false, true] {
        check_case(
            if map { "Value maps" } else { "Value lists" },
            Fury::default,
            move |f, d| f.serialize(&nested_value(d, map)).ok(),
            |f, b| f.deserialize::<Value>(b).is_ok(),
            Fury::default,
        );
    }
    check_case(
        "union",
        tree_fury,
        |f, d| f.serialize(&tree(d)).ok(),
        |f, b| f.deserialize::<Tree>(b).is_ok(),
        tree_fury,
    );
    check_case(
        "Rc<RefCell<_>> under tracking",
        cell_fury,
        |f, d| f.serialize(&chain(d)).ok(),
        |f, b| f.deserialize::<Cell>(b).is_ok(),
        cell_fury,
    );
}

#[test]
fn hand_made_nesting_past_the_limit_is_an_error_on_a_small_stack() {
    on_small_stack(|| {
        // A list of one list of one list ... 100,000 deep, as pyfory lays a list out
        // (`16 01 00` per level: count 1, elements header 0, then each element's type id),
        // ending in a null: far past the limit, and 300 KB of input.
        let mut bytes = vec![0x01, 0xff];
        for _ in 0..100_000 {
            bytes.extend_from_slice(&[0x16, 0x01, 0x00]);
        }
        bytes.push(0x00);
        let fury = Fury::default();
        let e = fury.deserialize::<Value>(&bytes).unwrap_err();
        assert!(e.to_string().contains("deeper than the limit"), "{e}");
        let mut fury = Fury::default();
        fury.register::<Node>().unwrap();
        assert!(fury.deserialize::<Node>(&bytes).is_err());
    });
}
