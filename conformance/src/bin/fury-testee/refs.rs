//! The reference-tracking vectors that hold structs (`conformance/vectors/refs/`) through
//! derived Rust types, as a Rust port would declare them: a value that can be shared is an
//! `Rc<T>`, one that can close a cycle an `Rc<RefCell<T>>`.
//!
//! Most types are the fuzz targets' (`fuzz/src/ref_types.rs`, included by `#[path]` in
//! `main.rs`). Three are declared here because their vectors need more sharing than the fuzz
//! types can hold: `tree/child_root` has a child as the root (its parent, reachable only
//! through the child, would die behind the fuzz types' `Weak` link, and a child held by value
//! in `children` cannot be the target of a back reference), and `fields/shelf` shares one
//! `Point` between a list and a map (`Vec<Point>` cannot hold a back reference).
//!
//! The testee answers with these types:
//!
//! * `decode`: reads the bytes as the root's Rust type, writes that graph in compatible mode
//!   and reads it back as a `Value` (which carries the field names) to make the node, as the
//!   struct mirrors do;
//! * `encode`: builds the Rust graph from the request's node ([`Mirror`]): a value with
//!   `"ref_id": N` and every `{"type": "ref", "id": N}` become one `Rc` allocation, created
//!   when the first of them is met in node order (a reference may come before its target);
//!   an `Rc<RefCell<T>>` is allocated with a placeholder before its content is built, so a
//!   reference from inside it (a cycle) names it;
//! * `roundtrip`: reads and writes the Rust type.
//!
//! A graph with a cycle is taken apart after use ([`Mirror::unlink`]), so no request leaks it.

use crate::ref_types as rt;
use crate::structs_mirror::{Color, Point};
use fury::{DeserializeOwned, Fury, FuryObject, List, Map, Serialize, Value};
use fury_conformance::node::{node_to_value, value_to_node, Schema, TypeDefs};
use fury_conformance::structs::{register, RegisterFn};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};
use std::any::Any;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

type R<T> = Result<T, String>;

/// `refs/*/tree/*`: the parent holds its children and each child its parent, both strongly
/// (the graph is taken apart by [`Mirror::unlink`]), so either can be the root.
#[derive(FuryObject)]
#[fury(id = 301)]
pub struct TreeParent {
    pub name: String,
    pub children: Vec<Rc<RefCell<TreeChild>>>,
}

#[derive(FuryObject)]
#[fury(id = 302)]
pub struct TreeChild {
    pub name: String,
    #[fury(ref)]
    pub parent: Rc<RefCell<TreeParent>>,
}

/// `refs/*/fields/shelf`: plain fields whose elements pyfory tracks; the vector shares one
/// `Point` between `points` and `by_name`, and one list within `nested`.
#[derive(FuryObject)]
#[fury(id = 308)]
pub struct Shelf {
    pub points: Vec<Rc<Point>>,
    pub by_name: Map<String, Rc<Point>>,
    pub nested: Vec<Rc<List<i64>>>,
}

// ---- node -> Rust graph ----

/// The shared values of one request node: the node of every `ref_id`, the ids some `ref`
/// names, and the allocations built so far.
pub struct Graph {
    targets: HashMap<u64, Json>,
    referenced: HashSet<u64>,
    built: HashMap<u64, Box<dyn Any>>,
    building: HashSet<u64>,
}

fn id_of(node: &Json, key: &str) -> R<Option<u64>> {
    match node.get(key) {
        None => Ok(None),
        Some(x) => x
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{key} {x} is not a non-negative integer")),
    }
}

impl Graph {
    pub fn new(root: &Json) -> R<Graph> {
        let mut g = Graph {
            targets: HashMap::new(),
            referenced: HashSet::new(),
            built: HashMap::new(),
            building: HashSet::new(),
        };
        g.index(root)?;
        if let Some(id) = g.referenced.iter().find(|id| !g.targets.contains_key(id)) {
            return Err(format!("a ref names id {id}, which no value carries"));
        }
        Ok(g)
    }

    fn index(&mut self, node: &Json) -> R<()> {
        match node {
            Json::Object(m) => {
                if m.contains_key("type") {
                    if let Some(id) = id_of(node, "ref_id")? {
                        if self.targets.insert(id, node.clone()).is_some() {
                            return Err(format!("ref_id {id} is given twice"));
                        }
                    }
                    if node["type"] == "ref" {
                        let id = id_of(node, "id")?.ok_or_else(|| format!("ref node {node}"))?;
                        self.referenced.insert(id);
                    }
                }
                m.values().try_for_each(|v| self.index(v))
            }
            Json::Array(a) => a.iter().try_for_each(|v| self.index(v)),
            _ => Ok(()),
        }
    }

    /// The id a node shares its value under: a ref's, or a target's that some ref names.
    fn shared_id(&self, node: &Json) -> R<Option<u64>> {
        if node["type"] == "ref" {
            return id_of(node, "id");
        }
        Ok(id_of(node, "ref_id")?.filter(|id| self.referenced.contains(id)))
    }
}

/// A Rust type the testee can build from a value node (and take apart again).
pub trait Mirror: Sized + 'static {
    /// The value of `node`, ignoring its `ref_id`.
    fn content(node: &Json, g: &mut Graph) -> R<Self>;

    /// The value in a position that holds `node`. Only shared pointers can stand for a
    /// shared value; every other type refuses a `ref` or a target of one.
    fn from_node(node: &Json, g: &mut Graph) -> R<Self> {
        if let Some(id) = g.shared_id(node)? {
            return Err(format!(
                "value {id} is shared, but {} cannot share it (an Rc can)",
                std::any::type_name::<Self>()
            ));
        }
        Self::content(node, g)
    }

    /// A new shared allocation for the target `node` of id `id`.
    fn shared(node: &Json, id: u64, g: &mut Graph) -> R<Rc<Self>> {
        if !g.building.insert(id) {
            return Err(format!(
                "value {id} refers to itself through {}, which cannot close a cycle (a RefCell can)",
                std::any::type_name::<Self>()
            ));
        }
        let v = Rc::new(Self::content(node, g)?);
        g.building.remove(&id);
        g.built.insert(id, Box::new(v.clone()));
        Ok(v)
    }

    /// Breaks the cycles this value closes (empties every `RefCell` it reaches).
    fn unlink(&self) {}
}

/// A value to allocate a cell with before its content is built.
pub trait Shell {
    fn shell() -> Self;
}

impl<T: Mirror> Mirror for Rc<T> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        T::content(node, g).map(Rc::new)
    }

    fn from_node(node: &Json, g: &mut Graph) -> R<Self> {
        let Some(id) = g.shared_id(node)? else {
            return Self::content(node, g);
        };
        if let Some(any) = g.built.get(&id) {
            return any.downcast_ref::<Rc<T>>().cloned().ok_or_else(|| {
                format!(
                    "value {id} is shared by a {} and another type",
                    std::any::type_name::<Self>()
                )
            });
        }
        let target = g
            .targets
            .get(&id)
            .cloned()
            .ok_or_else(|| format!("no value {id}"))?;
        T::shared(&target, id, g)
    }

    fn unlink(&self) {
        (**self).unlink()
    }
}

impl<T: Mirror + Shell> Mirror for RefCell<T> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        T::content(node, g).map(RefCell::new)
    }

    /// Allocated first, so the content can refer to it.
    fn shared(node: &Json, id: u64, g: &mut Graph) -> R<Rc<Self>> {
        let cell = Rc::new(RefCell::new(T::shell()));
        g.built.insert(id, Box::new(cell.clone()));
        let content = T::content(node, g)?;
        *cell.borrow_mut() = content;
        Ok(cell)
    }

    fn unlink(&self) {
        let Ok(mut slot) = self.try_borrow_mut() else {
            return;
        };
        let old = std::mem::replace(&mut *slot, T::shell());
        drop(slot);
        old.unlink();
    }
}

impl<T: Mirror> Mirror for Option<T> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        Self::from_node(node, g)
    }

    fn from_node(node: &Json, g: &mut Graph) -> R<Self> {
        if node["type"] == "null" {
            return Ok(None);
        }
        T::from_node(node, g).map(Some)
    }

    fn unlink(&self) {
        if let Some(x) = self {
            x.unlink()
        }
    }
}

fn expect<'a>(node: &'a Json, ty: &str) -> R<&'a Json> {
    if node["type"] == ty {
        Ok(node)
    } else {
        Err(format!("expected a {ty} node, got {node}"))
    }
}

fn items(node: &Json, ty: &str) -> R<Vec<Json>> {
    expect(node, ty)?["items"]
        .as_array()
        .cloned()
        .ok_or_else(|| format!("{ty} node without items: {node}"))
}

impl<T: Mirror> Mirror for Vec<T> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        items(node, "list")?
            .iter()
            .enumerate()
            .map(|(i, x)| T::from_node(x, g).map_err(|e| format!("[{i}]: {e}")))
            .collect()
    }

    fn unlink(&self) {
        self.iter().for_each(Mirror::unlink)
    }
}

impl<T: Mirror> Mirror for List<T> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        Vec::content(node, g).map(List)
    }

    fn unlink(&self) {
        self.0.unlink()
    }
}

/// Pairs in node order (a map keeps the order its writer gave it, as the generated mirrors'
/// `fury::Map` does).
impl<K: Mirror, V: Mirror> Mirror for Map<K, V> {
    fn content(node: &Json, g: &mut Graph) -> R<Self> {
        let entries = expect(node, "map")?["entries"]
            .as_array()
            .cloned()
            .ok_or_else(|| format!("map node without entries: {node}"))?;
        let mut out = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            let (Some(k), Some(v)) = (e.get(0), e.get(1)) else {
                return Err(format!("map entry {i} is not a [key, value] pair: {e}"));
            };
            let k = K::from_node(k, g).map_err(|e| format!("{{key {i}}}: {e}"))?;
            let v = V::from_node(v, g).map_err(|e| format!("{{value {i}}}: {e}"))?;
            out.push((k, v));
        }
        Ok(Map(out))
    }

    fn unlink(&self) {
        self.0.iter().for_each(|(k, v)| {
            k.unlink();
            v.unlink();
        })
    }
}

/// A tuple is a list node of that many items (a Rust port's type for a list of mixed types
/// with a fixed shape; fury writes it as pyfory writes such a list).
macro_rules! mirror_tuple {
    ($n:literal: $($t:ident $i:tt),*) => {
        impl<$($t: Mirror),*> Mirror for ($($t,)*) {
            fn content(node: &Json, g: &mut Graph) -> R<Self> {
                let items = items(node, "list")?;
                if items.len() != $n {
                    return Err(format!("expected a list of {} items, got {node}", $n));
                }
                Ok(($({
                    let x = items.get($i).ok_or_else(|| format!("no item {}", $i))?;
                    $t::from_node(x, g).map_err(|e| format!("[{}]: {e}", $i))?
                },)*))
            }

            fn unlink(&self) {
                $(self.$i.unlink();)*
            }
        }
    };
}

mirror_tuple!(2: A 0, B 1);
mirror_tuple!(3: A 0, B 1, C 2);

fn int<T: TryFrom<i128>>(node: &Json, kinds: &[&str]) -> R<T> {
    if !kinds.iter().any(|k| node["type"] == *k) {
        return Err(format!(
            "expected a {} node, got {node}",
            kinds.join(" or ")
        ));
    }
    let s = node["value"]
        .as_str()
        .ok_or_else(|| format!("integer node without a decimal string: {node}"))?;
    let v: i128 = s.parse().map_err(|e| format!("{s:?}: {e}"))?;
    T::try_from(v).map_err(|_| format!("{v} out of range for {}", std::any::type_name::<T>()))
}

impl Mirror for i32 {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        int(node, &["varint32", "int32"])
    }
}

impl Mirror for i64 {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        int(node, &["varint64", "int64", "tagged_int64"])
    }
}

impl Mirror for String {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        expect(node, "string")?["value"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| format!("string node without a value: {node}"))
    }
}

impl Mirror for Vec<u8> {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        hex_decode(
            expect(node, "binary")?["hex"]
                .as_str()
                .ok_or_else(|| format!("binary node without hex: {node}"))?,
        )
    }
}

impl Mirror for fury::Date {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        expect(node, "date")?["days"]
            .as_i64()
            .map(fury::Date::from_days)
            .ok_or_else(|| format!("date node without days: {node}"))
    }
}

/// An `any` field: the dynamic value, back references as `Value::Ref(id)` with the node's ids
/// (the vectors number them in wire order, as the writer does).
impl Mirror for Value {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        node_to_value(node)
    }

    fn from_node(node: &Json, g: &mut Graph) -> R<Self> {
        Self::content(node, g)
    }
}

impl Mirror for Color {
    fn content(node: &Json, _: &mut Graph) -> R<Self> {
        let node = expect(node, "enum")?;
        if node["name"] != "Color" {
            return Err(format!("expected a Color, got {node}"));
        }
        match node["id"].as_u64() {
            Some(0) => Ok(Color::Red),
            Some(1) => Ok(Color::Green),
            Some(2) => Ok(Color::Blue),
            _ => Err(format!("Color has no variant {node}")),
        }
    }
}

fn struct_fields<'a>(node: &'a Json, name: &str) -> R<&'a serde_json::Map<String, Json>> {
    let node = expect(node, "struct")?;
    if node["name"] != name {
        return Err(format!("expected a struct {name}, got {node}"));
    }
    node["fields"]
        .as_object()
        .ok_or_else(|| format!("struct node without fields: {node}"))
}

/// `Mirror` for a struct whose node fields are named as its Rust fields.
macro_rules! mirror_struct {
    ($ty:ty, $name:literal, [$($field:ident),*]) => {
        impl Mirror for $ty {
            fn content(node: &Json, g: &mut Graph) -> R<Self> {
                let fields = struct_fields(node, $name)?;
                Ok(Self {
                    $($field: {
                        let f = stringify!($field);
                        let x = fields.get(f).ok_or_else(|| format!("{}: no field {f}", $name))?;
                        Mirror::from_node(x, g).map_err(|e| format!("{}.{f}: {e}", $name))?
                    },)*
                })
            }

            fn unlink(&self) {
                $(self.$field.unlink();)*
            }
        }
    };
}

mirror_struct!(Point, "Point", [x, y]);
mirror_struct!(rt::Node, "Node", [value, next]);
mirror_struct!(rt::NamedNode, "NamedNode", [label, next]);
mirror_struct!(TreeParent, "TreeParent", [name, children]);
mirror_struct!(TreeChild, "TreeChild", [name, parent]);
mirror_struct!(rt::RefPair, "RefPair", [first, second]);
mirror_struct!(rt::PlainPair, "PlainPair", [first, second]);
mirror_struct!(rt::PointRefs, "PointRefs", [main, extra]);
mirror_struct!(
    rt::ScalarRefs,
    "ScalarRefs",
    [text, count, color, day, blob, other_day, other_blob]
);
mirror_struct!(rt::AnyRefs, "AnyRefs", [first, second]);
mirror_struct!(Shelf, "Shelf", [points, by_name, nested]);

impl Shell for rt::Node {
    fn shell() -> Self {
        rt::Node {
            value: 0,
            next: None,
        }
    }
}

impl Shell for rt::NamedNode {
    fn shell() -> Self {
        rt::NamedNode {
            label: String::new(),
            next: None,
        }
    }
}

impl Shell for TreeParent {
    fn shell() -> Self {
        TreeParent {
            name: String::new(),
            children: Vec::new(),
        }
    }
}

impl Shell for TreeChild {
    fn shell() -> Self {
        TreeChild {
            name: String::new(),
            parent: Rc::new(RefCell::new(TreeParent::shell())),
        }
    }
}

// ---- the cases ----

/// What the testee does for one root type.
struct Case {
    /// Reads bytes as the root type with one Fury and writes them with another.
    transcode: fn(&Fury, &[u8], &Fury) -> R<Vec<u8>>,
    /// Builds the root type from a node and writes it.
    encode: fn(&Fury, &Json) -> R<Vec<u8>>,
    /// The schema the decoded `Value` is named with, where it says more than the vector's
    /// (`any` elements of a tuple).
    node_schema: Option<&'static str>,
}

fn transcode<T: Mirror + Serialize + DeserializeOwned>(
    from: &Fury,
    bytes: &[u8],
    to: &Fury,
) -> R<Vec<u8>> {
    let ty = std::any::type_name::<T>();
    let v: T = from
        .deserialize(bytes)
        .map_err(|e| format!("decoding as {ty}: {e}"))?;
    let out = to
        .serialize(&v)
        .map_err(|e| format!("writing the {ty} read: {e}"));
    v.unlink();
    out
}

fn encode<T: Mirror + Serialize>(fury: &Fury, node: &Json) -> R<Vec<u8>> {
    let mut g = Graph::new(node)?;
    let v = T::from_node(node, &mut g)?;
    drop(g);
    let out = fury.serialize(&v).map_err(|e| e.to_string());
    v.unlink();
    out
}

fn case<T: Mirror + Serialize + DeserializeOwned>() -> Case {
    Case {
        transcode: transcode::<T>,
        encode: encode::<T>,
        node_schema: None,
    }
}

type Cell<T> = Rc<RefCell<T>>;

/// The Rust type of a refs vector that holds a struct or an enum: by its root schema, or
/// for the two lists of mixed types (`list<any>`), a tuple by vector name.
fn case_for(schema: &str, name: &str) -> Option<Case> {
    let tuple = |c: Case, node_schema| Case {
        node_schema: Some(node_schema),
        ..c
    };
    let mode = name
        .strip_prefix("refs/same_schema/")
        .or(name.strip_prefix("refs/compatible/"));
    match (schema, mode) {
        // [Color.RED, 1, Color.RED]: the enum is shared (enums take ids in a mixed list)
        ("list<any>", Some("lists/mixed_enums")) => {
            return Some(tuple(
                case::<(Rc<Color>, i64, Rc<Color>)>(),
                "tuple<Color,varint64,Color>",
            ))
        }
        // v = [1]; [PlainPair(first=v, second=v), v]
        ("list<any>", Some("fields/plain_field_not_registered")) => {
            return Some(tuple(
                case::<(rt::PlainPair, Rc<List<i64>>)>(),
                "tuple<PlainPair,list<varint64>>",
            ))
        }
        _ => {}
    }
    Some(match schema {
        "list<Point>" => case::<Vec<Rc<Point>>>(),
        "map<string,Point>" => case::<Map<String, Rc<Point>>>(),
        "Node" => case::<Cell<rt::Node>>(),
        "list<Node>" => case::<Vec<Cell<rt::Node>>>(),
        "NamedNode" => case::<Cell<rt::NamedNode>>(),
        "TreeParent" => case::<Cell<TreeParent>>(),
        "TreeChild" => case::<Cell<TreeChild>>(),
        "RefPair" => case::<rt::RefPair>(),
        "PlainPair" => case::<rt::PlainPair>(),
        "PointRefs" => case::<rt::PointRefs>(),
        "ScalarRefs" => case::<rt::ScalarRefs>(),
        "AnyRefs" => case::<rt::AnyRefs>(),
        "Shelf" => case::<Shelf>(),
        _ => return None,
    })
}

/// Reference-tracking Fury instances with the types above registered.
pub struct RefMirrors {
    same: Fury,
    compat: Fury,
    /// Reads our compatible-mode bytes back as a `Value`.
    dynamic: Fury,
}

fn registered(compatible: bool) -> Fury {
    let mut f = Fury::builder()
        .ref_tracking(true)
        .compatible(compatible)
        .build();
    let all: [RegisterFn; 12] = [
        register::<Point>,
        register::<Color>,
        register::<rt::Node>,
        register::<rt::NamedNode>,
        register::<TreeParent>,
        register::<TreeChild>,
        register::<rt::RefPair>,
        register::<rt::PlainPair>,
        register::<rt::PointRefs>,
        register::<rt::ScalarRefs>,
        register::<rt::AnyRefs>,
        register::<Shelf>,
    ];
    for register in all {
        // the types are fixed, so a failure is a bug of this file
        if let Err(e) = register(&mut f) {
            panic!("registering the refs mirrors: {e}");
        }
    }
    f
}

impl RefMirrors {
    pub fn new() -> RefMirrors {
        RefMirrors {
            same: registered(false),
            compat: registered(true),
            dynamic: Fury::builder().ref_tracking(true).compatible(true).build(),
        }
    }

    /// The answer to a refs request whose root type holds a struct; `None` for the others.
    pub fn handle(&self, req: &Json) -> Option<R<Json>> {
        if req["group"] != "refs" || req["settings"]["ref"] != true {
            return None;
        }
        let case = case_for(req["schema"].as_str()?, req["name"].as_str()?)?;
        let fury = if req["settings"]["compatible"] == true {
            &self.compat
        } else {
            &self.same
        };
        Some(self.answer(&case, fury, req))
    }

    fn answer(&self, case: &Case, fury: &Fury, req: &Json) -> R<Json> {
        let bytes = || hex_decode(req["hex"].as_str().unwrap_or(""));
        match req["op"].as_str().unwrap_or("") {
            "decode" => {
                let c = (case.transcode)(fury, &bytes()?, &self.compat)?;
                let value: Value = self.dynamic.deserialize(&c).map_err(|e| {
                    format!("reading our compatible-mode bytes back as a Value: {e}")
                })?;
                let schema = Schema::parse(
                    case.node_schema
                        .unwrap_or(req["schema"].as_str().unwrap_or("any")),
                )?;
                let node = value_to_node(
                    &value,
                    &schema,
                    &TypeDefs::new(&req["types"]),
                    &crate::registered(req),
                    true,
                )?;
                Ok(json!({ "value": node }))
            }
            "roundtrip" => {
                Ok(json!({ "hex": hex_encode(&(case.transcode)(fury, &bytes()?, fury)?) }))
            }
            "encode" => Ok(json!({ "hex": hex_encode(&(case.encode)(fury, &req["value"])?) })),
            other => Err(format!("unknown op {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build<T: Mirror>(node: Json) -> R<T> {
        T::from_node(&node, &mut Graph::new(&node)?)
    }

    fn int(ty: &str, v: i64) -> Json {
        json!({"type": ty, "value": v.to_string()})
    }

    #[test]
    fn a_cycle_of_two_cells_is_one_ring_and_unlink_breaks_it() {
        // a = Node(4); b = Node(5, next=a); a.next = b
        let node = json!({"type": "struct", "ref_id": 0, "name": "Node", "fields": {
            "value": int("varint32", 4),
            "next": {"type": "struct", "ref_id": 1, "name": "Node", "fields": {
                "value": int("varint32", 5), "next": {"type": "ref", "id": 0}}}}});
        let a: Cell<rt::Node> = build(node).unwrap();
        let b = a.borrow().next.clone().unwrap();
        assert_eq!(b.borrow().value, 5);
        let back = b.borrow().next.clone().unwrap();
        assert!(Rc::ptr_eq(&a, &back));
        assert_eq!(a.borrow().value, 4);
        drop((b, back));
        assert_eq!(Rc::strong_count(&a), 2, "a is held by b");
        a.unlink();
        assert_eq!(Rc::strong_count(&a), 1, "unlink drops b and its link to a");
    }

    #[test]
    fn a_reference_before_its_target_shares_one_allocation() {
        // PointRefs: `main` (a ref) comes before `extra` (its target) in field order
        let point = json!({"type": "struct", "ref_id": 1, "name": "Point",
            "fields": {"x": int("varint32", 1), "y": int("int32", 2)}});
        let node = json!({"type": "struct", "ref_id": 0, "name": "PointRefs",
            "fields": {"main": {"type": "ref", "id": 1}, "extra": point}});
        let v: rt::PointRefs = build(node).unwrap();
        let extra = v.extra.unwrap();
        assert!(Rc::ptr_eq(&v.main, &extra));
        assert_eq!((extra.x, extra.y), (1, 2));
    }

    #[test]
    fn unshared_values_stay_distinct() {
        let list = || json!({"type": "list", "items": [int("varint64", 1)]});
        let node = json!({"type": "list", "items": [list(), list()]});
        let v: Vec<Rc<List<i64>>> = build(node).unwrap();
        assert!(!Rc::ptr_eq(&v[0], &v[1]));
        assert_eq!(v[0].0, vec![1]);
    }

    #[test]
    fn sharing_a_type_cannot_hold_is_refused() {
        // PlainPair's fields are List<i64> by value: a ref to one of them cannot be built
        let node = json!({"type": "struct", "name": "PlainPair", "fields": {
            "first": {"type": "list", "ref_id": 1, "items": []},
            "second": {"type": "ref", "id": 1}}});
        let err = build::<rt::PlainPair>(node).err().unwrap();
        assert!(
            err.contains("PlainPair.first") && err.contains("cannot share"),
            "{err}"
        );
    }

    #[test]
    fn bad_references_are_refused() {
        let dangling = json!({"type": "list", "items": [{"type": "ref", "id": 3}]});
        let err = build::<Vec<Rc<Point>>>(dangling).err().unwrap();
        assert!(err.contains("id 3"), "{err}");
        let twice = json!({"type": "list", "ref_id": 0, "items": [
            {"type": "list", "ref_id": 0, "items": []}]});
        let err = build::<Vec<Rc<List<i64>>>>(twice).err().unwrap();
        assert!(err.contains("ref_id 0 is given twice"), "{err}");
        // a ref whose target is of another type
        let mixed = json!({"type": "struct", "name": "Shelf", "fields": {
            "points": {"type": "list", "items": [{"type": "ref", "id": 1}]},
            "by_name": {"type": "map", "entries": []},
            "nested": {"type": "list", "items": [
                {"type": "list", "ref_id": 1, "items": []}]}}});
        assert!(build::<Shelf>(mixed).is_err());
    }

    #[test]
    fn a_graph_written_from_its_node_is_pyforys_bytes() {
        // refs/same_schema/node/self, n.next = n: pyfory's bytes (vectors/refs/refs.json)
        let node = json!({"type": "struct", "ref_id": 0, "name": "Node",
            "fields": {"value": int("varint32", 1), "next": {"type": "ref", "id": 0}}});
        let m = RefMirrors::new();
        let bytes = encode::<Cell<rt::Node>>(&m.same, &node).unwrap();
        assert_eq!(hex_encode(&bytes), "01001bac0249f96b1902fe00");
    }
}
