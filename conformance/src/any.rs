//! The Rust mirrors of the untyped-field vectors (`conformance/vectors/any/`), declared as a
//! Rust port declares pyfory's `typing.Any` fields: `Box<dyn AnyObject>`, and
//! `Rc<dyn AnyObject>` where reference tracking may share the value. `tests/any.rs` and the
//! fury-rs testee (group `any` of `fury-conformance run`) use them.
//!
//! A vector's node becomes a Rust value with [`Root::from_node`] (an `any` position gets the
//! Rust type fury reads there: `i64` for a VARINT64, `Vec<Box<dyn AnyObject>>` for a list,
//! [`Point`] for a `Point` struct, ...), and a decoded value becomes a node again with
//! [`Root::to_node`], which fails for a Rust type the vectors do not expect there.
//!
//! ```
//! use fury_conformance::any::{fury_for, Root};
//! use serde_json::json;
//!
//! let node = json!({"type": "struct", "name": "Holder", "fields": {
//!     "name": {"type": "string", "value": "n"},
//!     "value": {"type": "varint64", "value": "5"}}});
//! let settings = json!({"xlang": true, "ref": false, "compatible": false});
//! let fury = fury_for(&settings);
//! let root = Root::from_node("Holder", false, &node)?;
//! let bytes = root.write(&fury)?;
//! // pyfory 1.7.7's bytes of Holder("n", 5) (vectors/any/any.json, any/same_schema/int)
//! assert_eq!(fury_conformance::hex_encode(&bytes), "01ff1bf5034b9e6b03046e070a");
//! let back = Root::read(&fury, "Holder", false, &bytes)?;
//! assert_eq!(back.to_node(false)?["fields"]["value"], node["fields"]["value"]);
//! # Ok::<(), String>(())
//! ```

use fury::{AnyObject, Fixed, Fury, FuryObject, Map, Tagged};
use serde_json::{json, Value as Json};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

type R<T> = Result<T, String>;

/// `Point` (id 500).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 500)]
pub struct Point {
    /// varint32
    pub x: i32,
    /// varint32
    pub y: i32,
}

/// `NamedPoint`: the fields of [`Point`], registered by name (`geo.Point`).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "geo", name = "Point")]
pub struct NamedPoint {
    /// varint32
    pub x: i32,
    /// varint32
    pub y: i32,
}

/// `Color` (id 503).
#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 503)]
pub enum Color {
    /// id 0
    Red,
    /// id 1
    Green,
}

/// `Holder` (id 501): `value: typing.Any`.
#[derive(FuryObject, Debug)]
#[fury(id = 501)]
pub struct Holder {
    /// string
    pub name: String,
    /// any
    pub value: Box<dyn AnyObject>,
}

/// `Bag` (id 504): `List[Any]`, `Dict[str, Any]`.
#[derive(FuryObject, Debug)]
#[fury(id = 504)]
pub struct Bag {
    /// list<any>
    pub items: Vec<Box<dyn AnyObject>>,
    /// map<string,any>, pairs in wire order
    pub props: Map<String, Box<dyn AnyObject>>,
}

/// `Bag` where its elements may be shared: registered instead of [`Bag`] on the
/// reference-tracking instances (the same fields, so the same schema).
#[derive(FuryObject, Debug)]
#[fury(id = 504)]
pub struct SharedBag {
    /// list<any>
    pub items: Vec<Rc<dyn AnyObject>>,
    /// map<string,any>, pairs in wire order
    pub props: Map<String, Rc<dyn AnyObject>>,
}

/// `Refs` (id 502): two `typing.Any = pyfory.field(ref=True)` fields.
#[derive(FuryObject, Debug)]
#[fury(id = 502)]
pub struct Refs {
    /// any, ref
    #[fury(ref)]
    pub first: Rc<dyn AnyObject>,
    /// any, ref
    #[fury(ref)]
    pub second: Rc<dyn AnyObject>,
}

/// A Fury with the settings of a vector (`ref`, `compatible`) and the mirrors registered:
/// [`SharedBag`] where reference tracking is on, [`Bag`] otherwise.
pub fn fury_for(settings: &Json) -> Fury {
    let refs = settings["ref"] == true;
    let mut fury = Fury::builder()
        .compatible(settings["compatible"] == true)
        .ref_tracking(refs)
        .build();
    let registered = (|| -> fury::Result<()> {
        fury.register::<Point>()?
            .register::<NamedPoint>()?
            .register::<Holder>()?
            .register::<Color>()?
            .register::<Refs>()?;
        if refs {
            fury.register::<SharedBag>()?;
        } else {
            fury.register::<Bag>()?;
        }
        Ok(())
    })();
    // the types and their registrations are fixed: a failure is a bug of this file
    if let Err(e) = registered {
        panic!("registering the vectors/any mirrors: {e}");
    }
    fury
}

/// The root value of a vector, by its schema.
#[derive(Debug)]
pub enum Root {
    /// `Holder`
    Holder(Holder),
    /// `Bag` without reference tracking
    Bag(Bag),
    /// `Bag` with reference tracking
    SharedBag(SharedBag),
    /// `Refs`
    Refs(Refs),
}

impl Root {
    /// Reads `bytes` as the Rust type of `schema` (`Holder`, `Bag` or `Refs`).
    pub fn read(fury: &Fury, schema: &str, refs: bool, bytes: &[u8]) -> R<Root> {
        let de = |e: fury::Error| format!("decoding as {schema}: {e}");
        Ok(match (schema, refs) {
            ("Holder", _) => Root::Holder(fury.deserialize(bytes).map_err(de)?),
            ("Bag", false) => Root::Bag(fury.deserialize(bytes).map_err(de)?),
            ("Bag", true) => Root::SharedBag(fury.deserialize(bytes).map_err(de)?),
            ("Refs", _) => Root::Refs(fury.deserialize(bytes).map_err(de)?),
            _ => return Err(format!("no Rust mirror for the root schema {schema:?}")),
        })
    }

    /// Writes the value.
    pub fn write(&self, fury: &Fury) -> R<Vec<u8>> {
        match self {
            Root::Holder(v) => fury.serialize(v),
            Root::Bag(v) => fury.serialize(v),
            Root::SharedBag(v) => fury.serialize(v),
            Root::Refs(v) => fury.serialize(v),
        }
        .map_err(|e| format!("encoding: {e}"))
    }

    /// The Rust value of a node of the root schema. With `refs`, a value with `"ref_id": N`
    /// and every `{"type": "ref", "id": N}` in an `Rc<dyn AnyObject>` position are one
    /// allocation; a `Box` position refuses a shared value.
    pub fn from_node(schema: &str, refs: bool, node: &Json) -> R<Root> {
        let mut g = Graph::new(node)?;
        let f = |name: &str| field(node, schema, name);
        Ok(match (schema, refs) {
            ("Holder", _) => Root::Holder(holder(node, &mut g)?),
            ("Bag", false) => Root::Bag(Bag {
                items: list_items(f("items")?)?
                    .iter()
                    .map(|x| g.boxed(x))
                    .collect::<R<_>>()?,
                props: string_map(f("props")?, |x| g.boxed(x))?,
            }),
            ("Bag", true) => {
                let items = list_items(f("items")?)?;
                let items = items.iter().map(|x| g.rc(x)).collect::<R<_>>()?;
                let props = string_map(f("props")?, |x| g.rc(x))?;
                Root::SharedBag(SharedBag { items, props })
            }
            ("Refs", _) => Root::Refs(Refs {
                first: g.rc(f("first")?)?,
                second: g.rc(f("second")?)?,
            }),
            _ => return Err(format!("no Rust mirror for the root schema {schema:?}")),
        })
    }

    /// The node of the value. With `refs` the root has ref id 0 and every `Rc` value the
    /// next id when it is first met; a later sighting of the same allocation is a `ref`
    /// node.
    pub fn to_node(&self, refs: bool) -> R<Json> {
        let mut ids = Ids {
            track: refs,
            next: u32::from(refs),
            seen: HashMap::new(),
        };
        let mut node = match self {
            Root::Holder(h) => holder_node(h, &mut ids)?,
            Root::Bag(b) => struct_node(
                "Bag",
                vec![
                    ("items", list_node(b.items.iter().map(|x| &**x), &mut ids)?),
                    (
                        "props",
                        props_node(b.props.0.iter().map(|(k, v)| (k, &**v)), &mut ids)?,
                    ),
                ],
            ),
            Root::SharedBag(b) => {
                let items = b.items.iter().map(|x| ids.rc(x)).collect::<R<Vec<_>>>()?;
                let mut props = Vec::new();
                for (k, v) in &b.props.0 {
                    props.push(json!([string_node(k), ids.rc(v)?]));
                }
                struct_node(
                    "Bag",
                    vec![
                        ("items", json!({"type": "list", "items": items})),
                        ("props", json!({"type": "map", "entries": props})),
                    ],
                )
            }
            Root::Refs(r) => {
                let first = ids.rc(&r.first)?;
                let second = ids.rc(&r.second)?;
                struct_node("Refs", vec![("first", first), ("second", second)])
            }
        };
        if refs {
            node["ref_id"] = json!(0);
        }
        Ok(node)
    }
}

// ---- node -> Rust value ----

fn field<'a>(node: &'a Json, name: &str, f: &str) -> R<&'a Json> {
    if node["type"] != "struct" || node["name"] != name {
        return Err(format!("expected a struct {name} node, got {node:.200}"));
    }
    node["fields"]
        .get(f)
        .ok_or_else(|| format!("{name}: no field {f}"))
}

fn list_items(node: &Json) -> R<&Vec<Json>> {
    if node["type"] != "list" {
        return Err(format!("expected a list node, got {node:.200}"));
    }
    node["items"]
        .as_array()
        .ok_or_else(|| format!("list node without items: {node:.200}"))
}

fn map_entries(node: &Json) -> R<Vec<(&Json, &Json)>> {
    if node["type"] != "map" {
        return Err(format!("expected a map node, got {node:.200}"));
    }
    let entries = node["entries"]
        .as_array()
        .ok_or_else(|| format!("map node without entries: {node:.200}"))?;
    entries
        .iter()
        .map(|e| match (e.get(0), e.get(1), e.as_array().map(Vec::len)) {
            (Some(k), Some(v), Some(2)) => Ok((k, v)),
            _ => Err(format!("map entry is not a [key, value] pair: {e:.200}")),
        })
        .collect()
}

fn string_map<T>(node: &Json, mut value: impl FnMut(&Json) -> R<T>) -> R<Map<String, T>> {
    let mut out = Vec::new();
    for (k, v) in map_entries(node)? {
        out.push((string(k)?, value(v)?));
    }
    Ok(Map(out))
}

fn string(node: &Json) -> R<String> {
    match (&node["type"], node["value"].as_str()) {
        (t, Some(s)) if t == "string" => Ok(s.to_string()),
        _ => Err(format!("expected a string node, got {node:.200}")),
    }
}

fn int<T: TryFrom<i128>>(node: &Json) -> R<T> {
    let s = node["value"]
        .as_str()
        .ok_or_else(|| format!("integer node without a decimal string: {node:.200}"))?;
    let v: i128 = s.parse().map_err(|e| format!("{s:?}: {e}"))?;
    T::try_from(v).map_err(|_| format!("{v} out of range for {}", std::any::type_name::<T>()))
}

fn bits(node: &Json) -> R<u64> {
    let s = node["bits"]
        .as_str()
        .ok_or_else(|| format!("float node without bits: {node:.200}"))?;
    u64::from_str_radix(s, 16).map_err(|e| format!("bits {s:?}: {e}"))
}

fn point_fields(node: &Json, name: &str) -> R<(i32, i32)> {
    let coord = |f: &str| -> R<i32> {
        let x = field(node, name, f)?;
        if x["type"] != "varint32" {
            return Err(format!(
                "{name}.{f}: expected a varint32 node, got {x:.200}"
            ));
        }
        int(x)
    };
    Ok((coord("x")?, coord("y")?))
}

fn holder(node: &Json, g: &mut Graph) -> R<Holder> {
    Ok(Holder {
        name: string(field(node, "Holder", "name")?)?,
        value: g.boxed(field(node, "Holder", "value")?)?,
    })
}

/// The shared values of one request node: the node of every `ref_id`, the ids some `ref`
/// names, and the allocations made so far.
struct Graph {
    targets: HashMap<u64, Json>,
    referenced: HashSet<u64>,
    built: HashMap<u64, Rc<dyn AnyObject>>,
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
    fn new(root: &Json) -> R<Graph> {
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

    /// The value of an `Rc<dyn AnyObject>` position: one allocation per shared id, made
    /// when the first of its nodes is met (a reference may come before its target).
    fn rc(&mut self, node: &Json) -> R<Rc<dyn AnyObject>> {
        let Some(id) = self.shared_id(node)? else {
            return self.dynamic(node).map(Rc::from);
        };
        if let Some(v) = self.built.get(&id) {
            return Ok(v.clone());
        }
        if !self.building.insert(id) {
            return Err(format!(
                "value {id} contains itself, which an Rc<dyn AnyObject> cannot hold"
            ));
        }
        let target = self
            .targets
            .get(&id)
            .cloned()
            .ok_or_else(|| format!("no value {id}"))?;
        let v: Rc<dyn AnyObject> = Rc::from(self.dynamic(&target)?);
        self.building.remove(&id);
        self.built.insert(id, v.clone());
        Ok(v)
    }

    /// The value of a `Box<dyn AnyObject>` position, which cannot be shared.
    fn boxed(&mut self, node: &Json) -> R<Box<dyn AnyObject>> {
        if let Some(id) = self.shared_id(node)? {
            return Err(format!(
                "value {id} is shared, but a Box<dyn AnyObject> cannot share it (an Rc can)"
            ));
        }
        self.dynamic(node)
    }

    /// The Rust value fury reads in an `any` position for the node's wire type.
    fn dynamic(&mut self, node: &Json) -> R<Box<dyn AnyObject>> {
        let ty = node["type"].as_str().unwrap_or("");
        Ok(match ty {
            "null" => Box::new(()),
            "bool" => Box::new(
                node["value"]
                    .as_bool()
                    .ok_or_else(|| format!("bool node without a value: {node:.200}"))?,
            ),
            "int8" => Box::new(int::<i8>(node)?),
            "int16" => Box::new(int::<i16>(node)?),
            "varint32" => Box::new(int::<i32>(node)?),
            "int32" => Box::new(Fixed(int::<i32>(node)?)),
            "varint64" => Box::new(int::<i64>(node)?),
            "int64" => Box::new(Fixed(int::<i64>(node)?)),
            "tagged_int64" => Box::new(Tagged(int::<i64>(node)?)),
            "uint8" => Box::new(int::<u8>(node)?),
            "uint16" => Box::new(int::<u16>(node)?),
            "var_uint32" => Box::new(int::<u32>(node)?),
            "uint32" => Box::new(Fixed(int::<u32>(node)?)),
            "var_uint64" => Box::new(int::<u64>(node)?),
            "uint64" => Box::new(Fixed(int::<u64>(node)?)),
            "tagged_uint64" => Box::new(Tagged(int::<u64>(node)?)),
            "float64" => Box::new(f64::from_bits(bits(node)?)),
            "float32" => Box::new(f32::from_bits(
                u32::try_from(bits(node)?).map_err(|_| format!("float32 bits {node:.200}"))?,
            )),
            "string" => Box::new(string(node)?),
            "binary" => {
                Box::new(crate::hex_decode(node["hex"].as_str().ok_or_else(
                    || format!("binary node without hex: {node:.200}"),
                )?)?)
            }
            "list" => Box::new(
                list_items(node)?
                    .iter()
                    .map(|x| self.boxed(x))
                    .collect::<R<Vec<_>>>()?,
            ),
            "map" => {
                let mut pairs = Vec::new();
                for (k, v) in map_entries(node)? {
                    pairs.push((self.boxed(k)?, self.boxed(v)?));
                }
                Box::new(Map(pairs))
            }
            "enum" if node["name"] == "Color" => Box::new(match node["id"].as_u64() {
                Some(0) => Color::Red,
                Some(1) => Color::Green,
                _ => return Err(format!("Color has no variant {node:.200}")),
            }),
            "struct" => match node["name"].as_str().unwrap_or("") {
                "Point" => {
                    let (x, y) = point_fields(node, "Point")?;
                    Box::new(Point { x, y })
                }
                "NamedPoint" => {
                    let (x, y) = point_fields(node, "NamedPoint")?;
                    Box::new(NamedPoint { x, y })
                }
                "Holder" => Box::new(holder(node, self)?),
                other => {
                    return Err(format!(
                        "no Rust type for a struct {other:?} in an any position"
                    ))
                }
            },
            _ => {
                return Err(format!(
                    "no Rust type for a {ty:?} node in an any position here: {node:.200}"
                ))
            }
        })
    }
}

// ---- Rust value -> node ----

/// Reference ids of a node being made: the allocations of the `Rc` values met so far.
struct Ids {
    track: bool,
    next: u32,
    seen: HashMap<*const (), u32>,
}

impl Ids {
    fn rc(&mut self, v: &Rc<dyn AnyObject>) -> R<Json> {
        let key = Rc::as_ptr(v).cast::<()>();
        if !self.track || v.is_null() {
            return dynamic_node(&**v, self);
        }
        if let Some(id) = self.seen.get(&key) {
            return Ok(json!({"type": "ref", "id": id}));
        }
        let id = self.next;
        self.next += 1;
        self.seen.insert(key, id);
        let mut node = dynamic_node(&**v, self)?;
        node["ref_id"] = json!(id);
        Ok(node)
    }
}

fn struct_node(name: &str, fields: Vec<(&str, Json)>) -> Json {
    let fields: serde_json::Map<String, Json> = fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    json!({"type": "struct", "name": name, "fields": fields})
}

fn string_node(s: &str) -> Json {
    json!({"type": "string", "value": s})
}

fn varint32_node(x: i32) -> Json {
    json!({"type": "varint32", "value": x.to_string()})
}

fn holder_node(h: &Holder, ids: &mut Ids) -> R<Json> {
    Ok(struct_node(
        "Holder",
        vec![
            ("name", string_node(&h.name)),
            ("value", dynamic_node(&*h.value, ids)?),
        ],
    ))
}

fn list_node<'a>(items: impl Iterator<Item = &'a dyn AnyObject>, ids: &mut Ids) -> R<Json> {
    let items = items.map(|x| dynamic_node(x, ids)).collect::<R<Vec<_>>>()?;
    Ok(json!({"type": "list", "items": items}))
}

fn props_node<'a>(
    pairs: impl Iterator<Item = (&'a String, &'a dyn AnyObject)>,
    ids: &mut Ids,
) -> R<Json> {
    let entries = pairs
        .map(|(k, v)| Ok(json!([string_node(k), dynamic_node(v, ids)?])))
        .collect::<R<Vec<_>>>()?;
    Ok(json!({"type": "map", "entries": entries}))
}

/// The node of a value fury read in an `any` position; an error names a Rust type the
/// vectors never hold there.
fn dynamic_node(v: &dyn AnyObject, ids: &mut Ids) -> R<Json> {
    macro_rules! ints {
        ($($t:ty => $kind:literal),*) => {$(
            if let Some(x) = v.downcast_ref::<$t>() {
                return Ok(json!({"type": $kind, "value": x.to_string()}));
            }
        )*};
    }
    macro_rules! wrapped_ints {
        ($($w:ident<$t:ty> => $kind:literal),*) => {$(
            if let Some($w(x)) = v.downcast_ref::<$w<$t>>() {
                return Ok(json!({"type": $kind, "value": x.to_string()}));
            }
        )*};
    }
    if v.is_null() {
        return Ok(json!({"type": "null"}));
    }
    if let Some(b) = v.downcast_ref::<bool>() {
        return Ok(json!({"type": "bool", "value": b}));
    }
    ints!(i8 => "int8", i16 => "int16", i32 => "varint32", i64 => "varint64",
          u8 => "uint8", u16 => "uint16", u32 => "var_uint32", u64 => "var_uint64");
    wrapped_ints!(Fixed<i32> => "int32", Fixed<i64> => "int64", Fixed<u32> => "uint32",
                  Fixed<u64> => "uint64", Tagged<i64> => "tagged_int64",
                  Tagged<u64> => "tagged_uint64");
    if let Some(x) = v.downcast_ref::<f64>() {
        return Ok(json!({"type": "float64", "bits": format!("{:016x}", x.to_bits())}));
    }
    if let Some(x) = v.downcast_ref::<f32>() {
        return Ok(json!({"type": "float32", "bits": format!("{:08x}", x.to_bits())}));
    }
    if let Some(s) = v.downcast_ref::<String>() {
        return Ok(string_node(s));
    }
    if let Some(b) = v.downcast_ref::<Vec<u8>>() {
        return Ok(json!({"type": "binary", "hex": crate::hex_encode(b)}));
    }
    if let Some(items) = v.downcast_ref::<Vec<Box<dyn AnyObject>>>() {
        return list_node(items.iter().map(|x| &**x), ids);
    }
    if let Some(map) = v.downcast_ref::<Map<Box<dyn AnyObject>, Box<dyn AnyObject>>>() {
        let mut entries = Vec::new();
        for (k, x) in &map.0 {
            entries.push(json!([dynamic_node(&**k, ids)?, dynamic_node(&**x, ids)?]));
        }
        return Ok(json!({"type": "map", "entries": entries}));
    }
    if let Some(p) = v.downcast_ref::<Point>() {
        return Ok(struct_node(
            "Point",
            vec![("x", varint32_node(p.x)), ("y", varint32_node(p.y))],
        ));
    }
    if let Some(p) = v.downcast_ref::<NamedPoint>() {
        return Ok(struct_node(
            "NamedPoint",
            vec![("x", varint32_node(p.x)), ("y", varint32_node(p.y))],
        ));
    }
    if let Some(h) = v.downcast_ref::<Holder>() {
        return holder_node(h, ids);
    }
    if let Some(c) = v.downcast_ref::<Color>() {
        let (variant, id) = match c {
            Color::Red => ("RED", 0),
            Color::Green => ("GREEN", 1),
        };
        return Ok(json!({"type": "enum", "name": "Color", "variant": variant, "id": id}));
    }
    Err(format!(
        "read a {} in an any position, which no vector of the group holds",
        v.type_name()
    ))
}
