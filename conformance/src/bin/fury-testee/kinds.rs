//! The groups of protocol version 2 that need Rust types: unions (`union/...`), extension
//! types (`ext/...`) and the struct of the out-of-band group (`oob/struct/...`). Each has a
//! hand-written mirror of the request's type definitions (the same types as
//! `conformance/tests/union.rs`, `ext.rs` and `oob.rs`) and a conversion between the mirror
//! and the value nodes of `PROTOCOL.md`. Decimals and the other out-of-band vectors go
//! through the dynamic `Value` (see `main.rs`).

use fury::wire::{ReadContext, WriteContext};
use fury::{DeserializeOwned, Ext, Fury, FuryObject, Serialize};
use fury_conformance::{hex_decode, hex_encode};
use serde_json::{json, Value as Json};

type R<T> = Result<T, String>;

fn field<'a>(node: &'a Json, name: &str) -> R<&'a Json> {
    node["fields"]
        .get(name)
        .ok_or_else(|| format!("node without field {name}: {node:.200}"))
}

fn int_of(node: &Json) -> R<i32> {
    node["value"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("an int32 node expected, got {node:.200}"))
}

fn string_of(node: &Json) -> R<String> {
    if node["type"] != "string" {
        return Err(format!("a string node expected, got {node:.200}"));
    }
    node["value"]
        .as_str()
        .map(String::from)
        .ok_or_else(|| format!("a string node expected, got {node:.200}"))
}

fn items(node: &Json) -> R<&Vec<Json>> {
    node["items"]
        .as_array()
        .filter(|_| node["type"] == "list")
        .ok_or_else(|| format!("a list node expected, got {node:.200}"))
}

fn is_null(node: &Json) -> bool {
    node["type"] == "null"
}

fn string_node(s: &str) -> Json {
    json!({"type": "string", "value": s})
}

fn varint32_node(v: i32) -> Json {
    json!({"type": "varint32", "value": v.to_string()})
}

fn struct_node(name: &str, fields: Json) -> Json {
    json!({"type": "struct", "name": name, "fields": fields})
}

/// A Rust mirror that converts to and from value nodes.
trait Mirror: Serialize + DeserializeOwned + Sized {
    fn to_node(&self) -> Json;
    fn from_node(node: &Json) -> R<Self>;
}

impl<T: Mirror> Mirror for Vec<T> {
    fn to_node(&self) -> Json {
        json!({"type": "list", "items": self.iter().map(Mirror::to_node).collect::<Vec<_>>()})
    }
    fn from_node(node: &Json) -> R<Self> {
        items(node)?.iter().map(T::from_node).collect()
    }
}

fn opt_node<T: Mirror>(v: &Option<T>) -> Json {
    v.as_ref()
        .map_or_else(|| json!({"type": "null"}), Mirror::to_node)
}

fn opt_from<T: Mirror>(node: &Json) -> R<Option<T>> {
    if is_null(node) {
        Ok(None)
    } else {
        T::from_node(node).map(Some)
    }
}

// ---- unions (vectors/union) ----

pub use fury_conformance::union_types::{Animal, Cat, Dog};

impl Mirror for Dog {
    fn to_node(&self) -> Json {
        struct_node(
            "Dog",
            json!({"name": string_node(&self.name), "age": varint32_node(self.age)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Dog {
            name: string_of(field(node, "name")?)?,
            age: int_of(field(node, "age")?)?,
        })
    }
}

impl Mirror for Cat {
    fn to_node(&self) -> Json {
        struct_node(
            "Cat",
            json!({"name": string_node(&self.name), "lives": varint32_node(self.lives)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Cat {
            name: string_of(field(node, "name")?)?,
            lives: int_of(field(node, "lives")?)?,
        })
    }
}

/// `Animal` registered by name (`union/same_schema/named_root`).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Animal")]
pub enum NamedAnimal {
    #[fury(id = 1)]
    Dog(Dog),
    #[fury(id = 2)]
    Cat(Cat),
    #[fury(id = 3)]
    Label(String),
    #[fury(id = 4)]
    Nothing,
}

fn union_node(case: u32, value: Json) -> Json {
    named_union_node("Animal", case, value)
}

fn named_union_node(name: &str, case: u32, value: Json) -> Json {
    json!({"type": "union", "name": name, "case": case, "value": value})
}

fn union_case(node: &Json) -> R<(u64, &Json)> {
    named_union_case(node, "Animal")
}

fn named_union_case<'a>(node: &'a Json, name: &str) -> R<(u64, &'a Json)> {
    if node["type"] != "union" || node["name"] != name {
        return Err(format!("a {name} union node expected, got {node:.200}"));
    }
    let case = node["case"]
        .as_u64()
        .ok_or_else(|| format!("union node without a case: {node:.200}"))?;
    Ok((case, &node["value"]))
}

impl Mirror for Animal {
    fn to_node(&self) -> Json {
        match self {
            Animal::Dog(d) => union_node(1, d.to_node()),
            Animal::Cat(c) => union_node(2, c.to_node()),
            Animal::Label(s) => union_node(3, string_node(s)),
            Animal::Nothing => union_node(4, json!({"type": "null"})),
        }
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(match union_case(node)? {
            (1, v) => Animal::Dog(Dog::from_node(v)?),
            (2, v) => Animal::Cat(Cat::from_node(v)?),
            (3, v) => Animal::Label(string_of(v)?),
            (4, v) if is_null(v) => Animal::Nothing,
            (c, v) => return Err(format!("Animal has no case {c} holding {v:.100}")),
        })
    }
}

impl Mirror for NamedAnimal {
    fn to_node(&self) -> Json {
        match self.clone() {
            NamedAnimal::Dog(d) => Animal::Dog(d),
            NamedAnimal::Cat(c) => Animal::Cat(c),
            NamedAnimal::Label(s) => Animal::Label(s),
            NamedAnimal::Nothing => Animal::Nothing,
        }
        .to_node()
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(match Animal::from_node(node)? {
            Animal::Dog(d) => NamedAnimal::Dog(d),
            Animal::Cat(c) => NamedAnimal::Cat(c),
            Animal::Label(s) => NamedAnimal::Label(s),
            Animal::Nothing => NamedAnimal::Nothing,
        })
    }
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 303)]
pub struct Zoo {
    #[fury(id = 1)]
    star: Animal,
    #[fury(id = 2)]
    animals: Vec<Animal>,
    #[fury(id = 3)]
    maybe: Option<Animal>,
}

impl Mirror for Zoo {
    fn to_node(&self) -> Json {
        struct_node(
            "Zoo",
            json!({"star": self.star.to_node(), "animals": self.animals.to_node(),
                   "maybe": opt_node(&self.maybe)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Zoo {
            star: Animal::from_node(field(node, "star")?)?,
            animals: Vec::from_node(field(node, "animals")?)?,
            maybe: opt_from(field(node, "maybe")?)?,
        })
    }
}

// ---- an enum with data of every shape (vectors/union, union/*/event, ledger) ----

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 311)]
pub struct Loc {
    warehouse: String,
    aisle: i32,
}

impl Mirror for Loc {
    fn to_node(&self) -> Json {
        struct_node(
            "Loc",
            json!({"warehouse": string_node(&self.warehouse), "aisle": varint32_node(self.aisle)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Loc {
            warehouse: string_of(field(node, "warehouse")?)?,
            aisle: int_of(field(node, "aisle")?)?,
        })
    }
}

/// The variants with several fields carry case structs (`EventReceived`, ... in the
/// request's types).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 310)]
pub enum Event {
    Received { sku: String, qty: i32, at: Loc },
    Moved { origin: Loc, dest: Loc },
    Adjusted(String, i32),
    Note(String),
    Audited,
}

/// `Event` registered by name (`union/same_schema/named_event/...`).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "inventory", name = "Event")]
pub enum NamedEvent {
    Received { sku: String, qty: i32, at: Loc },
    Moved { origin: Loc, dest: Loc },
    Adjusted(String, i32),
    Note(String),
    Audited,
}

impl Mirror for Event {
    fn to_node(&self) -> Json {
        let (case, value) = match self {
            Event::Received { sku, qty, at } => (
                1,
                struct_node(
                    "EventReceived",
                    json!({"sku": string_node(sku), "qty": varint32_node(*qty), "at": at.to_node()}),
                ),
            ),
            Event::Moved { origin, dest } => (
                2,
                struct_node(
                    "EventMoved",
                    json!({"origin": origin.to_node(), "dest": dest.to_node()}),
                ),
            ),
            Event::Adjusted(s, n) => (
                3,
                struct_node(
                    "EventAdjusted",
                    json!({"_0": string_node(s), "_1": varint32_node(*n)}),
                ),
            ),
            Event::Note(s) => (4, string_node(s)),
            Event::Audited => (5, json!({"type": "null"})),
        };
        named_union_node("Event", case, value)
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(match named_union_case(node, "Event")? {
            (1, v) => Event::Received {
                sku: string_of(field(v, "sku")?)?,
                qty: int_of(field(v, "qty")?)?,
                at: Loc::from_node(field(v, "at")?)?,
            },
            (2, v) => Event::Moved {
                origin: Loc::from_node(field(v, "origin")?)?,
                dest: Loc::from_node(field(v, "dest")?)?,
            },
            (3, v) => Event::Adjusted(string_of(field(v, "_0")?)?, int_of(field(v, "_1")?)?),
            (4, v) => Event::Note(string_of(v)?),
            (5, v) if is_null(v) => Event::Audited,
            (c, v) => return Err(format!("Event has no case {c} holding {v:.100}")),
        })
    }
}

impl From<NamedEvent> for Event {
    fn from(e: NamedEvent) -> Self {
        match e {
            NamedEvent::Received { sku, qty, at } => Event::Received { sku, qty, at },
            NamedEvent::Moved { origin, dest } => Event::Moved { origin, dest },
            NamedEvent::Adjusted(s, n) => Event::Adjusted(s, n),
            NamedEvent::Note(s) => Event::Note(s),
            NamedEvent::Audited => Event::Audited,
        }
    }
}

impl From<Event> for NamedEvent {
    fn from(e: Event) -> Self {
        match e {
            Event::Received { sku, qty, at } => NamedEvent::Received { sku, qty, at },
            Event::Moved { origin, dest } => NamedEvent::Moved { origin, dest },
            Event::Adjusted(s, n) => NamedEvent::Adjusted(s, n),
            Event::Note(s) => NamedEvent::Note(s),
            Event::Audited => NamedEvent::Audited,
        }
    }
}

impl Mirror for NamedEvent {
    fn to_node(&self) -> Json {
        Event::from(self.clone()).to_node()
    }
    fn from_node(node: &Json) -> R<Self> {
        Event::from_node(node).map(NamedEvent::from)
    }
}

/// Registered by id 312, over either registration of the event enum.
#[derive(FuryObject, Debug, Clone, PartialEq)]
struct Ledger<E: Mirror + 'static> {
    events: Vec<E>,
    last: Option<E>,
}

impl<E: Mirror + 'static> Mirror for Ledger<E> {
    fn to_node(&self) -> Json {
        struct_node(
            "Ledger",
            json!({"events": self.events.to_node(), "last": opt_node(&self.last)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Ledger {
            events: Vec::from_node(field(node, "events")?)?,
            last: opt_from(field(node, "last")?)?,
        })
    }
}

// ---- extension types (vectors/ext) ----

/// Two zigzag varint32s, as the vectors' pyfory serializer writes a Point.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(ext, id = 400)]
pub struct Point {
    x: i32,
    y: i32,
}

impl Ext for Point {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        ctx.writer.var_i32(self.x);
        ctx.writer.var_i32(self.y);
        Ok(())
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Ok(Point {
            x: ctx.reader.var_i32()?,
            y: ctx.reader.var_i32()?,
        })
    }
}

/// The same payload, registered by name (`ext/same_schema/named_root`).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(ext, namespace = "geo", name = "Point")]
pub struct NamedPoint(Point);

impl Ext for NamedPoint {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        self.0.write_ext(ctx)
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Point::read_ext(ctx).map(NamedPoint)
    }
}

impl Mirror for Point {
    fn to_node(&self) -> Json {
        json!({"type": "ext", "name": "Point",
               "fields": {"x": varint32_node(self.x), "y": varint32_node(self.y)}})
    }
    fn from_node(node: &Json) -> R<Self> {
        if node["type"] != "ext" || node["name"] != "Point" {
            return Err(format!("a Point ext node expected, got {node:.200}"));
        }
        Ok(Point {
            x: int_of(field(node, "x")?)?,
            y: int_of(field(node, "y")?)?,
        })
    }
}

impl Mirror for NamedPoint {
    fn to_node(&self) -> Json {
        self.0.to_node()
    }
    fn from_node(node: &Json) -> R<Self> {
        Point::from_node(node).map(NamedPoint)
    }
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 401)]
pub struct Shape {
    name: String,
    origin: Point,
    path: Vec<Point>,
    maybe: Option<Point>,
}

impl Mirror for Shape {
    fn to_node(&self) -> Json {
        struct_node(
            "Shape",
            json!({"name": string_node(&self.name), "origin": self.origin.to_node(),
                   "path": self.path.to_node(), "maybe": opt_node(&self.maybe)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        Ok(Shape {
            name: string_of(field(node, "name")?)?,
            origin: Point::from_node(field(node, "origin")?)?,
            path: Vec::from_node(field(node, "path")?)?,
            maybe: opt_from(field(node, "maybe")?)?,
        })
    }
}

// ---- the struct of the out-of-band group (vectors/oob) ----

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Blob")]
pub struct Blob {
    name: String,
    data: Vec<u8>,
    opt: Option<Vec<u8>>,
}

fn binary_of(node: &Json) -> R<Vec<u8>> {
    if node["type"] != "binary" {
        return Err(format!("a binary node expected, got {node:.200}"));
    }
    hex_decode(node["hex"].as_str().unwrap_or("?"))
}

impl Mirror for Blob {
    fn to_node(&self) -> Json {
        let bin = |b: &[u8]| json!({"type": "binary", "hex": hex_encode(b)});
        struct_node(
            "Blob",
            json!({"name": string_node(&self.name), "data": bin(&self.data),
                   "opt": self.opt.as_deref().map_or_else(|| json!({"type": "null"}), bin)}),
        )
    }
    fn from_node(node: &Json) -> R<Self> {
        let opt = field(node, "opt")?;
        Ok(Blob {
            name: string_of(field(node, "name")?)?,
            data: binary_of(field(node, "data")?)?,
            opt: if is_null(opt) {
                None
            } else {
                Some(binary_of(opt)?)
            },
        })
    }
}

// ---- requests ----

fn fury_for(req: &Json) -> Fury {
    let s = &req["settings"];
    Fury::builder()
        .ref_tracking(s["ref"].as_bool().unwrap_or(false))
        .compatible(s["compatible"].as_bool().unwrap_or(true))
        .build()
}

fn registered_by_name(req: &Json, name: &str) -> bool {
    req["types"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == name))
        .is_some_and(|t| t["register"].get("typename").is_some())
}

fn register<T: FuryObject>(fury: &mut Fury) -> R<()> {
    fury.register::<T>().map(drop).map_err(|e| e.to_string())
}

/// A union, extension-type or out-of-band struct request, if this testee has a mirror for
/// its schema.
pub fn handle(req: &Json) -> Option<R<Json>> {
    let schema = req["schema"].as_str().unwrap_or("");
    let group = req["group"].as_str().unwrap_or("");
    let mut fury = fury_for(req);
    let setup = |fury: &mut Fury| -> R<()> {
        match group {
            "union" => {
                register::<Dog>(fury)?;
                register::<Cat>(fury)?;
                register::<Zoo>(fury)?;
                register::<Loc>(fury)?;
                if registered_by_name(req, "Event") {
                    register::<NamedEvent>(fury)?;
                    fury.register_by_id::<Ledger<NamedEvent>>(312)
                        .map_err(|e| e.to_string())?;
                } else {
                    register::<Event>(fury)?;
                    fury.register_by_id::<Ledger<Event>>(312)
                        .map_err(|e| e.to_string())?;
                }
                if registered_by_name(req, "Animal") {
                    register::<NamedAnimal>(fury)
                } else {
                    register::<Animal>(fury)
                }
            }
            "ext" => {
                register::<Shape>(fury)?;
                if registered_by_name(req, "Point") {
                    register::<NamedPoint>(fury)
                } else {
                    register::<Point>(fury)
                }
            }
            _ => register::<Blob>(fury),
        }
    };
    if let Err(e) = setup(&mut fury) {
        return Some(Err(e));
    }
    let oob = req["settings"]["out_of_band"] == true;
    Some(match (group, schema) {
        ("union", "Animal") if registered_by_name(req, "Animal") => {
            run::<NamedAnimal>(&fury, req, oob)
        }
        ("union", "Animal") => run::<Animal>(&fury, req, oob),
        ("union", "Zoo") => run::<Zoo>(&fury, req, oob),
        ("union", "list<Animal>") => run::<Vec<Animal>>(&fury, req, oob),
        ("union", "Event") if registered_by_name(req, "Event") => {
            run::<NamedEvent>(&fury, req, oob)
        }
        ("union", "Event") => run::<Event>(&fury, req, oob),
        ("union", "Ledger") if registered_by_name(req, "Event") => {
            run::<Ledger<NamedEvent>>(&fury, req, oob)
        }
        ("union", "Ledger") => run::<Ledger<Event>>(&fury, req, oob),
        ("ext", "Point") if registered_by_name(req, "Point") => run::<NamedPoint>(&fury, req, oob),
        ("ext", "Point") => run::<Point>(&fury, req, oob),
        ("ext", "Shape") => run::<Shape>(&fury, req, oob),
        ("ext", "list<Point>") => run::<Vec<Point>>(&fury, req, oob),
        ("oob", "Blob") => run::<Blob>(&fury, req, oob),
        _ => return None,
    })
}

/// The answers the request's `in_band` list gives the writer's callback, in order; a
/// question past its end is answered "in band" and counted.
fn replay(req: &Json) -> (Vec<bool>, usize) {
    let answers = req["in_band"]
        .as_array()
        .map(|a| a.iter().map(|b| b.as_bool().unwrap_or(true)).collect())
        .unwrap_or_default();
    (answers, 0)
}

fn buffers_in(req: &Json) -> R<Vec<Vec<u8>>> {
    req["buffers"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|b| hex_decode(b.as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_else(|| Ok(Vec::new()))
}

fn read<T: Mirror>(fury: &Fury, req: &Json, oob: bool) -> R<T> {
    let bytes = hex_decode(req["hex"].as_str().unwrap_or(""))?;
    if oob {
        let buffers = buffers_in(req)?;
        let slices: Vec<&[u8]> = buffers.iter().map(Vec::as_slice).collect();
        fury.deserialize_with_buffers(&bytes, &slices)
            .map_err(|e| e.to_string())
    } else {
        fury.deserialize(&bytes).map_err(|e| e.to_string())
    }
}

fn write<T: Mirror>(fury: &Fury, req: &Json, value: &T, oob: bool) -> R<Json> {
    if !oob {
        let bytes = fury.serialize(value).map_err(|e| e.to_string())?;
        return Ok(json!({"hex": hex_encode(&bytes)}));
    }
    let (answers, mut asked) = replay(req);
    let (bytes, lent) = fury
        .serialize_with_buffers(value, |_| {
            asked += 1;
            answers.get(asked - 1).copied().unwrap_or(true)
        })
        .map_err(|e| e.to_string())?;
    if asked > answers.len() {
        return Err(format!(
            "the writer asked {asked} times where the request has {} answers",
            answers.len()
        ));
    }
    let buffers: Vec<String> = lent.iter().map(|b| hex_encode(b)).collect();
    Ok(json!({"hex": hex_encode(&bytes), "buffers": buffers}))
}

fn run<T: Mirror>(fury: &Fury, req: &Json, oob: bool) -> R<Json> {
    match req["op"].as_str().unwrap_or("") {
        "decode" => Ok(json!({"value": read::<T>(fury, req, oob)?.to_node()})),
        "roundtrip" => write(fury, req, &read::<T>(fury, req, oob)?, oob),
        "encode" => write(fury, req, &T::from_node(&req["value"])?, oob),
        other => Err(format!("unknown op {other:?}")),
    }
}

/// An out-of-band request through the dynamic `Value` (every oob vector but the struct ones).
pub fn handle_oob_value(req: &Json) -> R<Json> {
    use fury_conformance::node::{node_to_value, value_to_node, Schema, TypeDefs};
    let fury = fury_for(req);
    let track = req["settings"]["ref"].as_bool().unwrap_or(false);
    let value = match req["op"].as_str().unwrap_or("") {
        "encode" => node_to_value(&req["value"])?,
        "decode" | "roundtrip" => {
            let bytes = hex_decode(req["hex"].as_str().unwrap_or(""))?;
            let buffers = buffers_in(req)?;
            let slices: Vec<&[u8]> = buffers.iter().map(Vec::as_slice).collect();
            let v: fury::Value = fury
                .deserialize_with_buffers(&bytes, &slices)
                .map_err(|e| e.to_string())?;
            if req["op"] == "decode" {
                let schema = Schema::parse(req["schema"].as_str().unwrap_or("any"))?;
                let types = TypeDefs::new(&req["types"]);
                return Ok(json!({"value": value_to_node(&v, &schema, &types, &[], track)?}));
            }
            v
        }
        other => return Err(format!("unknown op {other:?}")),
    };
    let (answers, mut asked) = replay(req);
    let (bytes, lent) = fury
        .serialize_with_buffers(&value, |_| {
            asked += 1;
            answers.get(asked - 1).copied().unwrap_or(true)
        })
        .map_err(|e| e.to_string())?;
    if asked > answers.len() {
        return Err(format!(
            "the writer asked {asked} times where the request has {} answers",
            answers.len()
        ));
    }
    let buffers: Vec<String> = lent.iter().map(|b| hex_encode(b)).collect();
    Ok(json!({"hex": hex_encode(&bytes), "buffers": buffers}))
}
