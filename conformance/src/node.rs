//! Typed JSON nodes (the vectors' expected values) to `fury::Value`.
//!
//! This conversion is written from the node grammar alone and does not use the crate's
//! decoder, so comparing its output with a decoded stream checks the decoder.

use fury::{Date, Duration, Timestamp, Value, BF16, F16};
use serde_json::Value as Json;

type R<T> = Result<T, String>;

fn int_str(node: &Json, key: &str) -> R<i128> {
    let s = node[key]
        .as_str()
        .ok_or_else(|| format!("node {node} has no decimal string {key:?}"))?;
    s.parse::<i128>().map_err(|e| format!("{s:?}: {e}"))
}

fn fit<T: TryFrom<i128>>(v: i128) -> R<T> {
    T::try_from(v).map_err(|_| format!("{v} out of range for {}", std::any::type_name::<T>()))
}

fn bits_of(s: &Json) -> R<u64> {
    let s = s
        .as_str()
        .ok_or_else(|| format!("float bits {s} is not a string"))?;
    u64::from_str_radix(s, 16).map_err(|e| format!("bits {s:?}: {e}"))
}

fn items(node: &Json, key: &str) -> R<Vec<Json>> {
    node[key]
        .as_array()
        .cloned()
        .ok_or_else(|| format!("node {node} has no array {key:?}"))
}

fn int_items<T: TryFrom<i128>>(node: &Json) -> R<Vec<T>> {
    items(node, "values")?
        .iter()
        .map(|x| {
            let s = x
                .as_str()
                .ok_or_else(|| format!("array value {x} is not a string"))?;
            fit(s.parse::<i128>().map_err(|e| format!("{s:?}: {e}"))?)
        })
        .collect()
}

fn bit_items(node: &Json) -> R<Vec<u64>> {
    items(node, "bits")?.iter().map(bits_of).collect()
}

/// Converts an expected-value node into the `Value` the decoder should produce.
/// The decimal text of a little-endian magnitude, with a `-` when `negative` (and not zero).
pub fn decimal_text(negative: bool, magnitude_le: &[u8]) -> String {
    // repeated division by 10 of the big-endian base-256 digits
    let mut digits_be: Vec<u8> = magnitude_le.iter().rev().copied().collect();
    let mut out = Vec::new();
    while digits_be.iter().any(|&b| b != 0) {
        let mut rem = 0u32;
        for b in digits_be.iter_mut() {
            let cur = (rem << 8) | u32::from(*b);
            *b = (cur / 10) as u8;
            rem = cur % 10;
        }
        out.push(b'0' + rem as u8);
    }
    if out.is_empty() {
        return "0".into();
    }
    if negative {
        out.push(b'-');
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `(negative, little-endian magnitude without trailing zero bytes)` of decimal text.
pub fn decimal_parts(text: &str) -> R<(bool, Vec<u8>)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 4096 {
        return Err(format!("bad decimal integer {text:?}"));
    }
    let mut le: Vec<u8> = Vec::new();
    for d in digits.bytes() {
        let mut carry = u32::from(d - b'0');
        for b in le.iter_mut() {
            let cur = u32::from(*b) * 10 + carry;
            *b = cur as u8;
            carry = cur >> 8;
        }
        if carry > 0 {
            le.push(carry as u8);
        }
    }
    while le.last() == Some(&0) {
        le.pop();
    }
    Ok((negative && !le.is_empty(), le))
}

pub fn node_to_value(node: &Json) -> R<Value> {
    let ty = node["type"]
        .as_str()
        .ok_or_else(|| format!("node without type: {node}"))?;
    let i = || int_str(node, "value");
    Ok(match ty {
        "null" => Value::Null,
        "decimal" => {
            let (negative, magnitude) = decimal_parts(
                node["unscaled"]
                    .as_str()
                    .ok_or_else(|| format!("decimal node without unscaled text: {node}"))?,
            )?;
            let scale = node["scale"]
                .as_i64()
                .and_then(|s| i32::try_from(s).ok())
                .ok_or_else(|| format!("decimal node without an i32 scale: {node}"))?;
            Value::Decimal(fury::Decimal::from_parts(negative, magnitude, scale))
        }
        "ref" => Value::Ref(
            node["id"]
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| format!("ref node {node}"))?,
        ),
        "bool" => Value::Bool(
            node["value"]
                .as_bool()
                .ok_or_else(|| format!("bool node {node}"))?,
        ),
        "int8" => Value::Int8(fit(i()?)?),
        "int16" => Value::Int16(fit(i()?)?),
        "int32" => Value::Int32(fit(i()?)?),
        "varint32" => Value::VarInt32(fit(i()?)?),
        "int64" => Value::Int64(fit(i()?)?),
        "varint64" => Value::VarInt64(fit(i()?)?),
        "tagged_int64" => Value::TaggedInt64(fit(i()?)?),
        "uint8" => Value::UInt8(fit(i()?)?),
        "uint16" => Value::UInt16(fit(i()?)?),
        "uint32" => Value::UInt32(fit(i()?)?),
        "var_uint32" => Value::VarUInt32(fit(i()?)?),
        "uint64" => Value::UInt64(fit(i()?)?),
        "var_uint64" => Value::VarUInt64(fit(i()?)?),
        "tagged_uint64" => Value::TaggedUInt64(fit(i()?)?),
        "float16" => Value::Float16(F16(bits_of(&node["bits"])? as u16)),
        "bfloat16" => Value::BFloat16(BF16(bits_of(&node["bits"])? as u16)),
        "float32" => Value::Float32(f32::from_bits(bits_of(&node["bits"])? as u32)),
        "float64" => Value::Float64(f64::from_bits(bits_of(&node["bits"])?)),
        "string" => Value::String(
            node["value"]
                .as_str()
                .ok_or_else(|| format!("string node {node}"))?
                .to_string(),
        ),
        "binary" => {
            let h = node["hex"]
                .as_str()
                .ok_or_else(|| format!("binary node {node}"))?;
            Value::Binary(crate::hex_decode(h)?)
        }
        "duration" => {
            let nanos = node["nanos"].as_u64().ok_or("duration nanos")? as u32;
            Value::Duration(Duration::new(fit(int_str(node, "seconds")?)?, nanos).ok_or("nanos")?)
        }
        "timestamp" => {
            let nanos = node["nanos"].as_u64().ok_or("timestamp nanos")? as u32;
            Value::Timestamp(Timestamp::new(fit(int_str(node, "seconds")?)?, nanos).ok_or("nanos")?)
        }
        "date" => Value::Date(Date::from_days(node["days"].as_i64().ok_or("date days")?)),
        "list" => Value::List(
            items(node, "items")?
                .iter()
                .map(node_to_value)
                .collect::<R<_>>()?,
        ),
        "set" => Value::Set(
            items(node, "items")?
                .iter()
                .map(node_to_value)
                .collect::<R<_>>()?,
        ),
        "map" => Value::Map(
            items(node, "entries")?
                .iter()
                .map(|e| {
                    let pair = e.as_array().filter(|p| p.len() == 2).ok_or("map entry")?;
                    Ok((node_to_value(&pair[0])?, node_to_value(&pair[1])?))
                })
                .collect::<R<_>>()?,
        ),
        "bool_array" => Value::BoolArray(
            items(node, "values")?
                .iter()
                .map(|b| b.as_bool().ok_or_else(|| format!("bool item {b}")))
                .collect::<R<_>>()?,
        ),
        "int8_array" => Value::Int8Array(int_items(node)?),
        "int16_array" => Value::Int16Array(int_items(node)?),
        "int32_array" => Value::Int32Array(int_items(node)?),
        "int64_array" => Value::Int64Array(int_items(node)?),
        "uint8_array" => Value::UInt8Array(int_items(node)?),
        "uint16_array" => Value::UInt16Array(int_items(node)?),
        "uint32_array" => Value::UInt32Array(int_items(node)?),
        "uint64_array" => Value::UInt64Array(int_items(node)?),
        "float16_array" => Value::Float16Array(
            bit_items(node)?
                .into_iter()
                .map(|b| F16(b as u16))
                .collect(),
        ),
        "bfloat16_array" => Value::BFloat16Array(
            bit_items(node)?
                .into_iter()
                .map(|b| BF16(b as u16))
                .collect(),
        ),
        "float32_array" => Value::Float32Array(
            bit_items(node)?
                .into_iter()
                .map(|b| f32::from_bits(b as u32))
                .collect(),
        ),
        "float64_array" => {
            Value::Float64Array(bit_items(node)?.into_iter().map(f64::from_bits).collect())
        }
        other => return Err(format!("unknown node type {other:?}")),
    })
}

/// A parsed schema expression (the grammar of `conformance/README.md`).
#[derive(Debug, Clone, PartialEq)]
pub enum Schema {
    /// `any`: the value carries its own wire type.
    Any,
    /// A scalar, array, `none`, or a struct/enum name.
    Named(String),
    /// `list<T>`, `set<T>`, `option<T>` (by the name).
    Unary(&'static str, Box<Schema>),
    /// `map<K,V>`.
    Map(Box<Schema>, Box<Schema>),
    /// `tuple<T1,...>`.
    Tuple(Vec<Schema>),
}

impl Schema {
    /// Parses a schema expression.
    ///
    /// ```
    /// use fury_conformance::node::Schema;
    /// let s = Schema::parse("map<string,list<Point>>").unwrap();
    /// assert!(matches!(s, Schema::Map(..)));
    /// assert!(Schema::parse("list<").is_err());
    /// ```
    pub fn parse(text: &str) -> R<Schema> {
        let (s, rest) = Self::parse_at(text)?;
        if !rest.is_empty() {
            return Err(format!("schema {text:?}: unexpected {rest:?}"));
        }
        Ok(s)
    }

    fn parse_at(text: &str) -> R<(Schema, &str)> {
        let end = text.find(['<', '>', ',']).unwrap_or(text.len());
        let (head, rest) = text.split_at(end);
        if head.is_empty() {
            return Err(format!("schema: a type expected at {text:?}"));
        }
        let Some(mut rest) = rest.strip_prefix('<') else {
            return Ok((
                if head == "any" {
                    Schema::Any
                } else {
                    Schema::Named(head.to_string())
                },
                rest,
            ));
        };
        let mut args = Vec::new();
        loop {
            let (a, r) = Self::parse_at(rest)?;
            args.push(a);
            if let Some(r) = r.strip_prefix(',') {
                rest = r;
            } else if let Some(r) = r.strip_prefix('>') {
                rest = r;
                break;
            } else {
                return Err(format!("schema: ',' or '>' expected at {r:?}"));
            }
        }
        let unary = |name: &'static str, mut args: Vec<Schema>| match args.pop() {
            Some(a) if args.is_empty() => Ok(Schema::Unary(name, Box::new(a))),
            _ => Err(format!("schema: {name}<..> takes one argument")),
        };
        let s = match head {
            "list" => unary("list", args)?,
            "set" => unary("set", args)?,
            "option" => unary("option", args)?,
            "map" if args.len() == 2 => {
                let v = args.pop().unwrap_or(Schema::Any);
                let k = args.pop().unwrap_or(Schema::Any);
                Schema::Map(Box::new(k), Box::new(v))
            }
            "tuple" => Schema::Tuple(args),
            other => return Err(format!("schema: unknown generic {other:?}")),
        };
        Ok((s, rest))
    }
}

/// Struct and enum definitions of a vector file (`"types"`), for [`value_to_node`].
#[derive(Debug, Default, Clone)]
pub struct TypeDefs {
    defs: Vec<Json>,
}

impl TypeDefs {
    /// The definitions of a request or file (`null` gives none).
    pub fn new(types: &Json) -> Self {
        TypeDefs {
            defs: types.as_array().cloned().unwrap_or_default(),
        }
    }

    fn get(&self, name: &str) -> Option<&Json> {
        self.defs.iter().find(|d| d["name"] == name)
    }

    /// The definition a `Value::Struct` type name (`#id`, `ns.name` or `name`) stands for,
    /// among the `registered` names.
    fn by_wire_name(&self, wire: &str, registered: &[String]) -> Option<&Json> {
        self.defs.iter().find(|d| {
            let reg = &d["register"];
            let hit = if let Some(id) = wire.strip_prefix('#') {
                reg["id"].as_u64().map(|i| i.to_string()).as_deref() == Some(id)
            } else {
                let ns = reg["namespace"].as_str().unwrap_or("");
                let tn = reg["typename"].as_str().unwrap_or("");
                let full = if ns.is_empty() {
                    tn.to_string()
                } else {
                    format!("{ns}.{tn}")
                };
                reg.get("typename").is_some() && full == wire
            };
            hit && (registered.is_empty()
                || registered
                    .iter()
                    .any(|r| d["name"].as_str() == Some(r.as_str())))
        })
    }
}

/// Converts a decoded `Value` to a value node, using the schema (where it names a struct
/// or an enum) and the type definitions to name structs, fields and enum variants.
/// Back references become `{"type":"ref","id":N}` and their targets get `"ref_id"`, numbered
/// as the writer numbers them (the root and every list, set, map, struct, binary and time
/// value, in stream order).
pub fn value_to_node(
    v: &Value,
    schema: &Schema,
    types: &TypeDefs,
    registered: &[String],
    track_refs: bool,
) -> R<Json> {
    let mut cx = ToNode {
        types,
        registered,
        track_refs,
        next_id: 0,
    };
    cx.node(v, schema, Some(true))
}

struct ToNode<'a> {
    types: &'a TypeDefs,
    registered: &'a [String],
    track_refs: bool,
    next_id: u32,
}

/// Whether a writer sees the present elements of a list or set as of more than one type
/// (as fury's writer decides it: a back reference joins any type, structs and enums are of
/// one type when they name the same registration).
fn mixed_types(items: &[Value]) -> bool {
    let same = |a: &Value, b: &Value| match (a, b) {
        (_, Value::Ref(_)) => true,
        (Value::Ref(_), _) => false,
        (Value::Struct(x), Value::Struct(y)) => x.type_name == y.type_name,
        (Value::Enum(x), Value::Enum(y)) => x.type_name() == y.type_name(),
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    };
    let mut present = items.iter().filter(|x| !x.is_null());
    match present.next() {
        Some(first) => present.any(|x| !same(first, x)),
        None => false,
    }
}

/// The kinds written inline, with `ff` in a list of mixed types: bool, the integers,
/// float32, float64, string.
fn inline_value(v: &Value) -> bool {
    matches!(
        v,
        Value::Bool(_)
            | Value::Int8(_)
            | Value::Int16(_)
            | Value::Int32(_)
            | Value::VarInt32(_)
            | Value::Int64(_)
            | Value::VarInt64(_)
            | Value::TaggedInt64(_)
            | Value::UInt8(_)
            | Value::UInt16(_)
            | Value::UInt32(_)
            | Value::VarUInt32(_)
            | Value::UInt64(_)
            | Value::VarUInt64(_)
            | Value::TaggedUInt64(_)
            | Value::Float32(_)
            | Value::Float64(_)
            | Value::String(_)
    )
}

fn hex_bits(bits: u64, digits: usize) -> Json {
    Json::String(format!("{bits:0digits$x}"))
}

fn strs<T: ToString>(xs: &[T]) -> Json {
    Json::Array(xs.iter().map(|x| Json::String(x.to_string())).collect())
}

impl ToNode<'_> {
    /// `count`: whether the position gives its value an id whatever its kind (`Some(true)`:
    /// the root, the present side of a map pair with a null, a ref `any` field) or none
    /// (`Some(false)`: a struct field not declared ref); `None`: as the kind says.
    fn node(&mut self, v: &Value, schema: &Schema, count: Option<bool>) -> R<Json> {
        let schema = match schema {
            Schema::Unary("option", inner) => inner.as_ref(),
            s => s,
        };
        // the kinds fury's type table marks tracked (as pyfory: containers, binary, time),
        // and structs
        let tracked = matches!(
            v,
            Value::List(_)
                | Value::Set(_)
                | Value::Map(_)
                | Value::Struct(_)
                | Value::Binary(_)
                | Value::Date(_)
                | Value::Timestamp(_)
                | Value::Duration(_)
        );
        let ref_id = if self.track_refs
            && count.unwrap_or(tracked)
            && !v.is_null()
            && !matches!(v, Value::Ref(_))
        {
            let id = self.next_id;
            self.next_id += 1;
            Some(id)
        } else {
            None
        };
        let int =
            |ty: &str, x: &dyn ToString| serde_json::json!({"type": ty, "value": x.to_string()});
        let elem = |s: &Schema| match s {
            Schema::Unary("list" | "set", e) => e.as_ref().clone(),
            _ => Schema::Any,
        };
        let mut node = match v {
            Value::Null => serde_json::json!({"type": "null"}),
            Value::Ref(id) => serde_json::json!({"type": "ref", "id": id}),
            Value::Bool(b) => serde_json::json!({"type": "bool", "value": b}),
            Value::Int8(x) => int("int8", x),
            Value::Int16(x) => int("int16", x),
            Value::Int32(x) => int("int32", x),
            Value::VarInt32(x) => int("varint32", x),
            Value::Int64(x) => int("int64", x),
            Value::VarInt64(x) => int("varint64", x),
            Value::TaggedInt64(x) => int("tagged_int64", x),
            Value::UInt8(x) => int("uint8", x),
            Value::UInt16(x) => int("uint16", x),
            Value::UInt32(x) => int("uint32", x),
            Value::VarUInt32(x) => int("var_uint32", x),
            Value::UInt64(x) => int("uint64", x),
            Value::VarUInt64(x) => int("var_uint64", x),
            Value::TaggedUInt64(x) => int("tagged_uint64", x),
            Value::Float16(x) => {
                serde_json::json!({"type": "float16", "bits": hex_bits(u64::from(x.0), 4)})
            }
            Value::BFloat16(x) => {
                serde_json::json!({"type": "bfloat16", "bits": hex_bits(u64::from(x.0), 4)})
            }
            Value::Float32(x) => {
                serde_json::json!({"type": "float32", "bits": hex_bits(u64::from(x.to_bits()), 8)})
            }
            Value::Float64(x) => {
                serde_json::json!({"type": "float64", "bits": hex_bits(x.to_bits(), 16)})
            }
            Value::String(s) => serde_json::json!({"type": "string", "value": s}),
            Value::Binary(b) => serde_json::json!({"type": "binary", "hex": crate::hex_encode(b)}),
            Value::Duration(d) => {
                serde_json::json!({"type": "duration", "seconds": d.seconds().to_string(), "nanos": d.nanos()})
            }
            Value::Timestamp(t) => {
                serde_json::json!({"type": "timestamp", "seconds": t.seconds().to_string(), "nanos": t.nanos()})
            }
            Value::Date(d) => serde_json::json!({"type": "date", "days": d.days()}),
            Value::List(items) | Value::Set(items) => {
                let kind = if matches!(v, Value::List(_)) {
                    "list"
                } else {
                    "set"
                };
                // In a list of mixed types a writer flags every element 00 but the inline
                // kinds (pyfory, spec 09 §9.5), so an enum there takes an id too.
                let mixed = self.track_refs && mixed_types(items);
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    let s = match schema {
                        Schema::Tuple(ts) => ts.get(i).cloned().unwrap_or(Schema::Any),
                        s => elem(s),
                    };
                    let count = mixed.then(|| !inline_value(x));
                    out.push(self.node(x, &s, count)?);
                }
                serde_json::json!({"type": kind, "items": out})
            }
            Value::Map(pairs) => {
                let (ks, vs) = match schema {
                    Schema::Map(k, v) => (k.as_ref().clone(), v.as_ref().clone()),
                    _ => (Schema::Any, Schema::Any),
                };
                let mut out = Vec::with_capacity(pairs.len());
                for (k, x) in pairs {
                    // the present side of a pair with a null carries its own flag, so an id
                    let lone = (k.is_null() || x.is_null()).then_some(true);
                    out.push(Json::Array(vec![
                        self.node(k, &ks, lone)?,
                        self.node(x, &vs, lone)?,
                    ]));
                }
                serde_json::json!({"type": "map", "entries": out})
            }
            Value::BoolArray(a) => serde_json::json!({"type": "bool_array", "values": a}),
            Value::Int8Array(a) => serde_json::json!({"type": "int8_array", "values": strs(a)}),
            Value::Int16Array(a) => serde_json::json!({"type": "int16_array", "values": strs(a)}),
            Value::Int32Array(a) => serde_json::json!({"type": "int32_array", "values": strs(a)}),
            Value::Int64Array(a) => serde_json::json!({"type": "int64_array", "values": strs(a)}),
            Value::UInt8Array(a) => serde_json::json!({"type": "uint8_array", "values": strs(a)}),
            Value::UInt16Array(a) => serde_json::json!({"type": "uint16_array", "values": strs(a)}),
            Value::UInt32Array(a) => serde_json::json!({"type": "uint32_array", "values": strs(a)}),
            Value::UInt64Array(a) => serde_json::json!({"type": "uint64_array", "values": strs(a)}),
            Value::Float16Array(a) => serde_json::json!({"type": "float16_array",
                "bits": a.iter().map(|x| hex_bits(u64::from(x.0), 4)).collect::<Vec<_>>()}),
            Value::BFloat16Array(a) => serde_json::json!({"type": "bfloat16_array",
                "bits": a.iter().map(|x| hex_bits(u64::from(x.0), 4)).collect::<Vec<_>>()}),
            Value::Float32Array(a) => serde_json::json!({"type": "float32_array",
                "bits": a.iter().map(|x| hex_bits(u64::from(x.to_bits()), 8)).collect::<Vec<_>>()}),
            Value::Float64Array(a) => serde_json::json!({"type": "float64_array",
                "bits": a.iter().map(|x| hex_bits(x.to_bits(), 16)).collect::<Vec<_>>()}),
            // The vector groups the testee protocol covers have neither (decimals and unions
            // have their own groups, checked by conformance/tests/decimal.rs and union.rs).
            Value::Decimal(d) => serde_json::json!({"type": "decimal",
                "unscaled": decimal_text(d.is_negative(), d.magnitude_le()), "scale": d.scale()}),
            Value::Union(u) => return Err(format!("union case {} has no node form yet", u.case)),
            Value::Enum(e) => {
                let id = &e.variant;
                // A declared position names the enum; an `any` one has it in the value.
                let def = match (schema, e.type_name()) {
                    (Schema::Named(name), _) => self.types.get(name),
                    (_, Some(wire)) => self.types.by_wire_name(&wire, self.registered),
                    _ => return Err(format!("enum id {id} where the schema names no enum")),
                }
                .ok_or_else(|| format!("no definition of the enum of variant {id}"))?;
                let name = def["name"].as_str().unwrap_or("?");
                let variant = def["variants"]
                    .as_array()
                    .and_then(|vs| vs.iter().find(|x| x["id"].as_u64() == Some(u64::from(*id))))
                    .and_then(|x| x["name"].as_str())
                    .ok_or_else(|| format!("enum {name} has no variant with id {id}"))?;
                serde_json::json!({"type": "enum", "name": name, "variant": variant, "id": id})
            }
            Value::Struct(sv) => self.struct_node(sv)?,
        };
        if let (Some(id), Some(obj)) = (ref_id, node.as_object_mut()) {
            obj.insert("ref_id".into(), Json::from(id));
        }
        Ok(node)
    }

    fn struct_node(&mut self, sv: &fury::StructValue) -> R<Json> {
        let def = self
            .types
            .by_wire_name(&sv.type_name, self.registered)
            .ok_or_else(|| format!("no registered definition for struct {}", sv.type_name))?
            .clone();
        let name = def["name"].as_str().unwrap_or("?").to_string();
        let decls = def["fields"].as_array().cloned().unwrap_or_default();
        let mut fields = serde_json::Map::new();
        for (wire, value) in &sv.fields {
            let decl = decls.iter().find(|f| {
                let fname = f["name"].as_str().unwrap_or("");
                match wire.strip_prefix('#') {
                    Some(tag) => {
                        f["tag_id"].as_u64().map(|t| t.to_string()).as_deref() == Some(tag)
                    }
                    None => fury_types::snake::snake_case(fname) == *wire || fname == wire,
                }
            });
            let Some(decl) = decl else {
                continue; // a field the local type does not declare: dropped, as a reader does
            };
            let schema = Schema::parse(decl["schema"].as_str().unwrap_or("any"))?;
            // As fury's writer numbers a struct's fields (spec 09 §9.8): a field declared
            // ref gives an id to every value if it is `any`, else to the tracked kinds; a
            // plain field to none.
            let declared_ref = decl["ref"].as_bool().unwrap_or(false);
            let count = if !declared_ref {
                Some(false)
            } else if matches!(&schema, Schema::Any)
                || matches!(&schema, Schema::Unary("option", inner) if matches!(**inner, Schema::Any))
            {
                Some(true)
            } else {
                None
            };
            let node = self.node(value, &schema, count)?;
            fields.insert(decl["name"].as_str().unwrap_or("?").to_string(), node);
        }
        Ok(serde_json::json!({"type": "struct", "name": name, "fields": fields}))
    }
}
