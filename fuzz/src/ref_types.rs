//! The reference-tracking types of `conformance/vectors/refs/refs.json` (pyfory `ref=True`),
//! which the generated mirrors do not have: linked nodes that can close a cycle through
//! `Rc<RefCell<_>>` (or `Arc<Mutex<_>>`), a tree with `Weak` parent links, and `#[fury(ref)]`
//! fields of every kind. Ids and names are the vectors', so their bytes are useful seeds.
//!
//! No `Debug` on the node types: printing a cyclic graph would never end.

use super::structs_mirror::{Color, Point};
use fury::{FuryObject, List, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};
use std::sync::{Arc, Mutex};

/// `refs/*/node/*`: `n.next = n` closes a cycle on the same allocation.
#[derive(FuryObject)]
#[fury(id = 300)]
pub struct Node {
    pub value: i32,
    #[fury(ref)]
    pub next: Option<Rc<RefCell<Node>>>,
}

/// `refs/*/named_node/*`: the same shape registered by name.
#[derive(FuryObject)]
#[fury(namespace = "refs", name = "NamedNode")]
pub struct NamedNode {
    pub label: String,
    #[fury(ref)]
    pub next: Option<Rc<RefCell<NamedNode>>>,
}

/// `Node`'s wire shape through `Arc<Mutex<_>>` (registered as 300 on its own instance).
#[derive(FuryObject)]
#[fury(id = 300)]
pub struct ArcNode {
    pub value: i32,
    #[fury(ref)]
    pub next: Option<Arc<Mutex<ArcNode>>>,
}

/// `refs/*/tree/*`: children point back through `Weak`, so no strong cycle can form.
#[derive(FuryObject)]
#[fury(id = 301)]
pub struct TreeParent {
    pub name: String,
    pub children: Vec<TreeChild>,
}

#[derive(FuryObject)]
#[fury(id = 302)]
pub struct TreeChild {
    pub name: String,
    #[fury(ref)]
    pub parent: Weak<RefCell<TreeParent>>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 303)]
pub struct RefPair {
    #[fury(ref)]
    pub first: Rc<List<i64>>,
    #[fury(ref)]
    pub second: Rc<List<i64>>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 304)]
pub struct PlainPair {
    pub first: List<i64>,
    pub second: List<i64>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 305)]
pub struct PointRefs {
    #[fury(ref)]
    pub main: Rc<Point>,
    #[fury(ref)]
    pub extra: Option<Rc<Point>>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 306)]
pub struct ScalarRefs {
    #[fury(ref)]
    pub text: String,
    #[fury(ref)]
    pub count: i32,
    #[fury(ref)]
    pub color: Color,
    #[fury(ref)]
    pub day: Rc<fury::Date>,
    #[fury(ref)]
    pub blob: Rc<Vec<u8>>,
    #[fury(ref)]
    pub other_day: Rc<fury::Date>,
    #[fury(ref)]
    pub other_blob: Rc<Vec<u8>>,
}

/// `typing.Any` ref fields: dynamic values with reference flags.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 307)]
pub struct AnyRefs {
    #[fury(ref)]
    pub first: Value,
    #[fury(ref)]
    pub second: Value,
}

/// Plain fields whose elements pyfory tracks anyway (structs, lists).
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 308)]
pub struct Shelf {
    pub points: Vec<Point>,
    pub by_name: BTreeMap<String, Point>,
    pub nested: Vec<List<i64>>,
}

/// Registers every type above except `ArcNode` (which shares `Node`'s id), with the
/// `Point` and `Color` they use.
pub fn register(fury: &mut fury::Fury) {
    fury.register::<Point>().unwrap();
    fury.register::<Color>().unwrap();
    fury.register::<Node>().unwrap();
    fury.register::<NamedNode>().unwrap();
    fury.register::<TreeParent>().unwrap();
    fury.register::<TreeChild>().unwrap();
    fury.register::<RefPair>().unwrap();
    fury.register::<PlainPair>().unwrap();
    fury.register::<PointRefs>().unwrap();
    fury.register::<ScalarRefs>().unwrap();
    fury.register::<AnyRefs>().unwrap();
    fury.register::<Shelf>().unwrap();
}

// A decoded graph may hold a strong cycle; the harness must break it after a successful
// decode, or every such input would be reported as a leak of the harness's own making.

/// Takes every `next` along the chain; a cycle ends where a taken link was already `None`.
pub fn unlink_node(n: &Rc<RefCell<Node>>) {
    let mut cur = Some(n.clone());
    while let Some(c) = cur {
        cur = c.borrow_mut().next.take();
    }
}

pub fn unlink_named(n: &Rc<RefCell<NamedNode>>) {
    let mut cur = Some(n.clone());
    while let Some(c) = cur {
        cur = c.borrow_mut().next.take();
    }
}

pub fn unlink_arc(n: &Arc<Mutex<ArcNode>>) {
    let mut cur = Some(n.clone());
    while let Some(c) = cur {
        let mut guard = c.lock().unwrap_or_else(|p| p.into_inner());
        cur = guard.next.take();
    }
}

#[allow(clippy::ptr_arg)] // must be a fn(&T) for T = Vec<_>
pub fn unlink_nodes(ns: &Vec<Rc<RefCell<Node>>>) {
    ns.iter().for_each(unlink_node);
}
