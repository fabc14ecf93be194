//! The checks every fuzz target runs, shared with the stable-Rust corpus replay
//! (`conformance/tests/fuzz_replay.rs` includes this file with `#[path]`), so a corpus entry or
//! a regression input is checked the same way under libFuzzer and under `cargo test`.
//!
//! Every check panics on a finding, with a message that starts with one of the `*_CHECK`
//! prefixes below; a decode error is never a finding (hostile input is expected to fail).

use fury::{ErrorKind, Fury, Value};
use std::any::type_name;
use std::sync::OnceLock;

// The generated mirrors, compiled once in the conformance library.
pub use fury_conformance::mirrors::{compat_mirror, structs_mirror};

#[path = "ref_types.rs"]
pub mod ref_types;

#[path = "kinds.rs"]
pub mod kinds;

#[path = "borrowed.rs"]
pub mod borrowed;

use compat_mirror as cm;
use ref_types as rt;
use structs_mirror as sm;

/// A decoded value does not re-encode to bytes that decode to the same value.
pub const REENCODE_CHECK: &str = "re-encode check failed";
/// A second decode of the same input (TypeDef cache now filled) disagrees with the first.
pub const CACHE_CHECK: &str = "TypeDef cache check failed";
/// `deserialize_prefix` disagrees with `deserialize` of the bytes it says it used.
pub const PREFIX_CHECK: &str = "prefix check failed";
/// `fury::ValueRef` reads an input otherwise than `fury::Value`.
pub const VALUE_REF_CHECK: &str = "ValueRef check failed";

/// Added to a re-encode failure of a value that holds a back reference.
pub const REF_HINT: &str =
    "\n (the value holds a Value::Ref: see the ref-reencode defect in fuzz/README.md)";

// ---------------------------------------------------------------------------------------------
// Helpers

/// Hex of at most the first 256 bytes (enough to recognise an input in a message).
pub fn hex(b: &[u8]) -> String {
    let mut s: String = b.iter().take(256).map(|x| format!("{x:02x}")).collect();
    if b.len() > 256 {
        s.push_str(&format!("... ({} bytes)", b.len()));
    }
    s
}

fn short_debug<T: std::fmt::Debug>(v: &T) -> String {
    let s = format!("{v:?}");
    if s.len() <= 800 {
        return s;
    }
    let mut cut = 800;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}... ({} chars)", &s[..cut], s.len())
}

/// The values a reader produces that its writer cannot write back yet, each a known gap
/// (fuzz/README.md, "Re-encode"): a write that fails with one of these is not a finding.
/// Any other failure to write a decoded value is one, `Unsupported` or not.
pub const KNOWN_WRITE_GAPS: &[&str] = &[
    // A dynamic struct's declared map whose `any` side tracks references.
    "a declared map with reference-tracked values on a side of type `any`",
];

fn unsupported(e: &fury::Error) -> bool {
    matches!(e.kind(), ErrorKind::Unsupported { .. }) && {
        let text = e.to_string();
        KNOWN_WRITE_GAPS.iter().any(|gap| text.contains(gap))
    }
}

fn holds_ref(v: &Value) -> bool {
    match v {
        Value::Ref(_) => true,
        Value::List(items) | Value::Set(items) => items.iter().any(holds_ref),
        Value::Map(pairs) => pairs.iter().any(|(k, v)| holds_ref(k) || holds_ref(v)),
        Value::Struct(s) => s.fields.iter().any(|(_, v)| holds_ref(v)),
        _ => false,
    }
}

fn same_outcome(a: &fury::Result<Value>, b: &fury::Result<Value>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x.bitwise_eq(y),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Value

/// `fury::Value` in one mode: decode; in compatible mode decode again (the instance's TypeDef
/// cache now holds what the first decode parsed); decode as `fury::ValueRef`, which must agree;
/// on success re-encode and decode again.
///
/// A fresh instance per input: its TypeDef cache is keyed by the TypeDef header, so a
/// long-lived one would make an input's outcome depend on the inputs before it.
pub fn value(compatible: bool, ref_tracking: bool, data: &[u8]) {
    let fury = Fury::builder()
        .compatible(compatible)
        .ref_tracking(ref_tracking)
        .build();
    let first = fury.deserialize::<Value>(data);
    if compatible {
        let again = fury.deserialize::<Value>(data);
        if !same_outcome(&first, &again) {
            panic!(
                "{CACHE_CHECK}: the first decode gave {}, the second {}\n input: {}",
                short_debug(&first),
                short_debug(&again),
                hex(data)
            );
        }
    }
    value_ref_agrees(&fury, &first, data);
    if let Ok(v) = first {
        value_reencode(&fury, &v, data);
    }
}

/// `fury::ValueRef` reads `data` as `Value` did (`value`): the same error, or a value whose
/// `to_owned()` is the `Value` and which writes what it writes (the same bytes or error).
pub fn value_ref_agrees(fury: &Fury, value: &fury::Result<Value>, data: &[u8]) {
    // The same error but for the names of the two dynamic types.
    let text = |e: &fury::Error| {
        e.to_string()
            .replace("fury::value::borrowed::ValueRef", "fury::value::Value")
            .replace("ValueRef", "Value")
    };
    let borrowed = fury.deserialize::<fury::ValueRef>(data);
    let problem = match (value, &borrowed) {
        (Err(a), Err(b)) if text(a) == text(b) => None,
        (Ok(v), Ok(b)) if !b.to_owned().bitwise_eq(v) => Some(format!(
            "to_owned() gives {}, the Value is {}",
            short_debug(&b.to_owned()),
            short_debug(v)
        )),
        (Ok(v), Ok(b)) => match (fury.serialize(v), fury.serialize(b)) {
            (Ok(x), Ok(y)) if x == y => None,
            (Err(x), Err(y)) if text(&x) == text(&y) => None,
            (x, y) => Some(format!(
                "the Value writes {:?}, the ValueRef {:?}",
                x.map(|b| hex(&b)),
                y.map(|b| hex(&b))
            )),
        },
        (v, b) => Some(format!(
            "Value gives {}, ValueRef {}",
            short_debug(v),
            short_debug(b)
        )),
    };
    if let Some(p) = problem {
        panic!("{VALUE_REF_CHECK}: {p}\n input: {}", hex(data));
    }
}

/// Writes `v`, reads the bytes back, and checks the value is the same (floats by bits, as
/// `Value::bitwise_eq` compares; `PartialEq` would call a NaN different from itself) and that
/// writing it again gives the same bytes.
pub fn value_reencode(fury: &Fury, v: &Value, input: &[u8]) {
    let outcome = (|| {
        let bytes = match fury.serialize(v) {
            Ok(b) => b,
            Err(e) if unsupported(&e) => return Ok(()),
            Err(e) => return Err(format!("writing the decoded value failed: {e}")),
        };
        let back = fury.deserialize::<Value>(&bytes).map_err(|e| {
            format!(
                "the decoded value writes {}, which does not decode: {e}",
                hex(&bytes)
            )
        })?;
        if !back.bitwise_eq(v) {
            return Err(format!(
                "the decoded value writes {}, which decodes to another value: {}",
                hex(&bytes),
                short_debug(&back)
            ));
        }
        match fury.serialize(&back) {
            Ok(again) if again == bytes => Ok(()),
            Ok(again) => Err(format!(
                "not a fixpoint: {} decodes and writes {}",
                hex(&bytes),
                hex(&again)
            )),
            Err(e) => Err(format!("writing the re-decoded value failed: {e}")),
        }
    })();
    if let Err(msg) = outcome {
        let has_ref = holds_ref(v);
        let hint = if has_ref { REF_HINT } else { "" };
        panic!(
            "{REENCODE_CHECK} (Value): {msg}\n input: {}\n value: {}{hint}",
            hex(input),
            short_debug(v)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Derived types

/// `Some(a == b)`, or `None` when `a != a` (a NaN inside): then only the bytes are compared.
fn partial_eq<T: PartialEq>(a: &T, b: &T) -> Option<bool> {
    #[allow(clippy::eq_op)]
    if a != a {
        return None;
    }
    Some(a == b)
}

fn no_eq<T>(_: &T, _: &T) -> Option<bool> {
    None
}

fn no_unlink<T>(_: &T) {}

fn no_ref<T>(_: &T) -> bool {
    false
}

/// For the types with `fury::Value` inside (no cycles there, so `Debug` ends).
fn debug_holds_ref<T: std::fmt::Debug>(v: &T) -> bool {
    format!("{v:?}").contains("Ref(")
}

/// A derived type `T`: decode; on success write it, read it back, write that again, and
/// check the two writes are the same bytes and (where `eq` can tell) the two values equal.
/// `unlink` breaks the strong cycles a decoded graph may hold; `holds_ref` tells whether a
/// value holds a `Value::Ref` (where the known back-reference defect may show).
fn typed<T>(
    fury: &Fury,
    data: &[u8],
    eq: fn(&T, &T) -> Option<bool>,
    unlink: fn(&T),
    holds_ref: fn(&T) -> bool,
) where
    T: fury::Serialize + fury::DeserializeOwned,
{
    let Ok(first) = fury.deserialize::<T>(data) else {
        return;
    };
    let outcome = typed_reencode(fury, &first, eq, unlink);
    let has_ref = outcome.is_err() && holds_ref(&first);
    unlink(&first);
    if let Err(msg) = outcome {
        let hint = if has_ref { REF_HINT } else { "" };
        panic!(
            "{REENCODE_CHECK} ({}): {msg}\n input: {}{hint}",
            type_name::<T>(),
            hex(data)
        );
    }
}

fn typed_reencode<T>(
    fury: &Fury,
    first: &T,
    eq: fn(&T, &T) -> Option<bool>,
    unlink: fn(&T),
) -> Result<(), String>
where
    T: fury::Serialize + fury::DeserializeOwned,
{
    let bytes = match fury.serialize(first) {
        Ok(b) => b,
        Err(e) if unsupported(&e) => return Ok(()),
        Err(e) => return Err(format!("writing the decoded value failed: {e}")),
    };
    let second = fury.deserialize::<T>(&bytes).map_err(|e| {
        format!(
            "the decoded value writes {}, which does not decode: {e}",
            hex(&bytes)
        )
    })?;
    let again = fury.serialize(&second);
    let same = eq(first, &second);
    unlink(&second);
    match again {
        Ok(again) if again == bytes => {}
        Ok(again) => {
            return Err(format!(
                "not a fixpoint: {} decodes and writes {}",
                hex(&bytes),
                hex(&again)
            ))
        }
        Err(e) => return Err(format!("writing the re-decoded value failed: {e}")),
    }
    if same == Some(false) {
        return Err(format!(
            "{} decodes to a value that is not equal (PartialEq) to the first",
            hex(&bytes)
        ));
    }
    Ok(())
}

/// One derived type the first input byte can pick.
pub struct Entry {
    /// The vectors' schema name for it (seed.py matches vectors to entries by it).
    pub name: &'static str,
    pub run: fn(&[u8]),
}

// Instances built once per process. Their TypeDef cache is off: it is keyed by the TypeDef
// header, so with it on an input's outcome could depend on earlier inputs, and what it keeps
// would look like growth to the replay's allocation count. The cache itself is exercised by
// the Value targets, which build a fresh instance per input.

fn builder(compatible: bool, ref_tracking: bool) -> fury::FuryBuilder {
    Fury::builder()
        .compatible(compatible)
        .ref_tracking(ref_tracking)
        .typedef_cache_entries(0)
}

fn plain() -> &'static Fury {
    static F: OnceLock<Fury> = OnceLock::new();
    F.get_or_init(|| {
        let mut f = builder(false, false).build();
        sm::register_all(&mut f);
        f
    })
}

fn compat() -> &'static Fury {
    static F: OnceLock<Fury> = OnceLock::new();
    F.get_or_init(|| {
        let mut f = builder(true, false).build();
        cm::register_plain(&mut f).unwrap();
        f
    })
}

fn refs(compatible: bool) -> &'static Fury {
    static SAME: OnceLock<Fury> = OnceLock::new();
    static COMPAT: OnceLock<Fury> = OnceLock::new();
    let cell = if compatible { &COMPAT } else { &SAME };
    cell.get_or_init(|| {
        let mut f = builder(compatible, true).build();
        rt::register(&mut f);
        f
    })
}

fn arc_refs(compatible: bool) -> &'static Fury {
    static SAME: OnceLock<Fury> = OnceLock::new();
    static COMPAT: OnceLock<Fury> = OnceLock::new();
    let cell = if compatible { &COMPAT } else { &SAME };
    cell.get_or_init(|| {
        let mut f = builder(compatible, true).build();
        f.register::<rt::ArcNode>().unwrap();
        f
    })
}

/// A type compared with `PartialEq` and the bytes.
macro_rules! eq {
    ($name:expr, $t:ty, $fury:expr) => {
        Entry {
            name: $name,
            run: |d| typed::<$t>($fury, d, partial_eq::<$t>, no_unlink::<$t>, no_ref::<$t>),
        }
    };
    // `values`: the type holds `fury::Value`s.
    ($name:expr, $t:ty, $fury:expr, values) => {
        Entry {
            name: $name,
            run: |d| {
                typed::<$t>(
                    $fury,
                    d,
                    partial_eq::<$t>,
                    no_unlink::<$t>,
                    debug_holds_ref::<$t>,
                )
            },
        }
    };
}

/// A graph type: compared by its bytes only, its cycles broken by `$unlink`.
macro_rules! graph {
    ($name:expr, $t:ty, $fury:expr, $unlink:expr) => {
        Entry {
            name: $name,
            run: |d| typed::<$t>($fury, d, no_eq::<$t>, $unlink, no_ref::<$t>),
        }
    };
}

/// The reader of a schema-evolution vector: the plain compatible types and `$reg`, on an
/// instance of its own (versions of one type share a registration).
macro_rules! evo {
    ($name:expr, $t:ty $(, $reg:ty)*) => {
        Entry {
            name: $name,
            run: |d| {
                static F: OnceLock<Fury> = OnceLock::new();
                let f = F.get_or_init(|| {
                    let mut f = builder(true, false).build();
                    cm::register_plain(&mut f).unwrap();
                    $(f.register::<$reg>().unwrap();)*
                    f.register::<$t>().unwrap();
                    f
                });
                typed::<$t>(f, d, partial_eq::<$t>, no_unlink::<$t>, no_ref::<$t>)
            },
        }
    };
}

type Rcn<T> = std::rc::Rc<std::cell::RefCell<T>>;
type Map<K, V> = std::collections::BTreeMap<K, V>;

/// The reference-tracking entries, in either mode.
macro_rules! ref_entries {
    ($c:expr) => {
        [
            graph!("Node", Rcn<rt::Node>, refs($c), rt::unlink_node),
            graph!("list<Node>", Vec<Rcn<rt::Node>>, refs($c), rt::unlink_nodes),
            graph!("NamedNode", Rcn<rt::NamedNode>, refs($c), rt::unlink_named),
            graph!(
                "arc:Node",
                std::sync::Arc<std::sync::Mutex<rt::ArcNode>>,
                arc_refs($c),
                rt::unlink_arc
            ),
            graph!("TreeParent", Rcn<rt::TreeParent>, refs($c), no_unlink),
            eq!("RefPair", rt::RefPair, refs($c)),
            eq!("PlainPair", rt::PlainPair, refs($c)),
            eq!("PointRefs", rt::PointRefs, refs($c)),
            eq!("ScalarRefs", rt::ScalarRefs, refs($c)),
            eq!("AnyRefs", rt::AnyRefs, refs($c), values),
            eq!("Shelf", rt::Shelf, refs($c)),
            eq!("rc:list<Point>", Vec<std::rc::Rc<sm::Point>>, refs($c)),
            eq!("rc:map<string,Point>", Map<String, std::rc::Rc<sm::Point>>, refs($c)),
            eq!("rc:list<any>", Vec<Value>, refs($c), values),
            eq!("rc:list<list<varint64>>", Vec<std::rc::Rc<fury::List<i64>>>, refs($c)),
        ]
    };
}

/// `derived_same_schema`: the struct mirror in same-schema mode, and the reference types.
// seed.py: SAME_SCHEMA begin
pub fn same_schema() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![
            eq!("Point", sm::Point, plain()),
            eq!("AllPrimitives", sm::AllPrimitives, plain()),
            eq!("HalfFloats", sm::HalfFloats, plain()),
            eq!("NullablePrimitives", sm::NullablePrimitives, plain()),
            eq!("Scalars", sm::Scalars, plain()),
            eq!("Collections", sm::Collections, plain()),
            eq!("Arrays", sm::Arrays, plain()),
            eq!("Outer", sm::Outer, plain()),
            eq!("Person", sm::Person, plain()),
            eq!("Server", sm::Server, plain()),
            eq!("Leaf", sm::Leaf, plain()),
            eq!("LowerName", sm::LowerName, plain()),
            eq!("Namae", sm::Namae, plain()),
            eq!("LongName", sm::LongName, plain()),
            eq!("OrderItem", sm::OrderItem, plain()),
            eq!("CNode", sm::CNode, plain()),
            eq!("Holder", sm::Holder, plain()),
            eq!("NamedHolder", sm::NamedHolder, plain()),
            eq!("StructCollections", sm::StructCollections, plain()),
            eq!("EnumFields", sm::EnumFields, plain()),
            eq!("Color", sm::Color, plain()),
            eq!("Sparse", sm::Sparse, plain()),
            eq!("Level", sm::Level, plain()),
            eq!("Sign", sm::Sign, plain()),
            eq!("Shade", sm::Shade, plain()),
            eq!("Mood", sm::Mood, plain()),
            eq!("Status", sm::Status, plain()),
            eq!("Optionals", sm::Optionals, plain()),
            eq!("Wide", sm::Wide, plain()),
            eq!("SortOrder", sm::SortOrder, plain()),
            eq!("Tagged", sm::Tagged, plain()),
            eq!("Empty", sm::Empty, plain()),
            eq!("EmptyNamed", sm::EmptyNamed, plain()),
            eq!("Dynamic", sm::Dynamic, plain(), values),
            eq!("Tuples", sm::Tuples, plain()),
            eq!("FixedArrays", sm::FixedArrays, plain()),
            eq!("PointPage", sm::PointPage, plain()),
            eq!("IntPage", sm::IntPage, plain()),
            eq!("Pages", sm::Pages, plain()),
            eq!("list<Point>", Vec<sm::Point>, plain()),
            eq!("list<Server>", Vec<sm::Server>, plain()),
            eq!("list<option<Point>>", Vec<Option<sm::Point>>, plain()),
            eq!("list<Color>", Vec<sm::Color>, plain()),
            eq!("map<string,Color>", Map<String, sm::Color>, plain()),
            eq!("map<string,Point>", Map<String, sm::Point>, plain()),
            eq!("set<Shade>", std::collections::BTreeSet<sm::Shade>, plain()),
            eq!("option<Outer>", Option<sm::Outer>, plain()),
            eq!("map<string,list<Person>>", Map<String, Vec<sm::Person>>, plain()),
        ];
        table.extend(ref_entries!(false));
        // Appended later: the plain nested structs (the direct read path).
        table.extend([
            eq!("Vec3", sm::Vec3, plain()),
            eq!("Vec2", sm::Vec2, plain()),
            eq!("Triangle", sm::Triangle, plain()),
            eq!("Sprite", sm::Sprite, plain()),
            eq!("Mesh", sm::Mesh, plain()),
            eq!("list<Triangle>", Vec<sm::Triangle>, plain()),
            eq!("list<Sprite>", Vec<sm::Sprite>, plain()),
        ]);
        table
    })
}
// seed.py: SAME_SCHEMA end

/// `derived_compat`: the compat mirror in compatible mode (with evolution readers), and the
/// reference types.
// seed.py: COMPAT begin
pub fn compat_table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![
            eq!("Point", cm::Point, compat()),
            eq!("AllPrimitives", cm::AllPrimitives, compat()),
            eq!("HalfFloats", cm::HalfFloats, compat()),
            eq!("NullablePrimitives", cm::NullablePrimitives, compat()),
            eq!("Scalars", cm::Scalars, compat()),
            eq!("Collections", cm::Collections, compat()),
            eq!("Arrays", cm::Arrays, compat()),
            eq!("Outer", cm::Outer, compat()),
            eq!("Person", cm::Person, compat()),
            eq!("Server", cm::Server, compat()),
            eq!("Leaf", cm::Leaf, compat()),
            eq!("LowerName", cm::LowerName, compat()),
            eq!("Namae", cm::Namae, compat()),
            eq!("LongName", cm::LongName, compat()),
            eq!("OrderItem", cm::OrderItem, compat()),
            eq!("CNode", cm::CNode, compat()),
            eq!("Holder", cm::Holder, compat()),
            eq!("NamedHolder", cm::NamedHolder, compat()),
            eq!("StructCollections", cm::StructCollections, compat()),
            eq!("EnumFields", cm::EnumFields, compat()),
            eq!("Color", cm::Color, compat()),
            eq!("Sparse", cm::Sparse, compat()),
            eq!("Level", cm::Level, compat()),
            eq!("Sign", cm::Sign, compat()),
            eq!("Shade", cm::Shade, compat()),
            eq!("Status", cm::Status, compat()),
            eq!("Optionals", cm::Optionals, compat()),
            eq!("Wide", cm::Wide, compat()),
            eq!("Tagged", cm::Tagged, compat()),
            eq!("Empty", cm::Empty, compat()),
            eq!("EmptyNamed", cm::EmptyNamed, compat()),
            eq!("Dynamic", cm::Dynamic, compat(), values),
            eq!("PointPair", cm::PointPair, compat()),
            eq!("FieldNames", cm::FieldNames, compat()),
            eq!("BigTypeDef", cm::BigTypeDef, compat()),
            eq!("LongTypeName", cm::LongTypeName, compat()),
            eq!("list<Point>", Vec<cm::Point>, compat()),
            eq!("list<Server>", Vec<cm::Server>, compat()),
            eq!("list<option<Point>>", Vec<Option<cm::Point>>, compat()),
            eq!("list<Color>", Vec<cm::Color>, compat()),
            eq!("map<string,Color>", Map<String, cm::Color>, compat()),
            eq!("map<string,Point>", Map<String, cm::Point>, compat()),
            eq!("map<string,Server>", Map<String, cm::Server>, compat()),
            eq!("map<Color,Point>", Map<cm::Color, cm::Point>, compat()),
            eq!(
                "set<Shade>",
                std::collections::BTreeSet<cm::Shade>,
                compat()
            ),
            eq!("list<any>", Vec<Value>, compat(), values),
            evo!("EvoPersonV1", cm::EvoPersonV1),
            evo!("EvoPersonV2", cm::EvoPersonV2),
            evo!("EvoDropBase", cm::EvoDropBase),
            evo!("EvoSkipV1", cm::EvoSkipV1, cm::Gadget),
            evo!("EvoSkipV2", cm::EvoSkipV2),
            evo!("EvoOrderV1", cm::EvoOrderV1),
            evo!("EvoTagV1", cm::EvoTagV1),
            evo!("EvoRenameV1", cm::EvoRenameV1),
            evo!("EvoOptV1", cm::EvoOptV1),
            evo!("EvoOptV2", cm::EvoOptV2),
            evo!("EvoNumV1", cm::EvoNumV1),
            evo!("EvoOuterV1", cm::EvoOuterV1, cm::EvoInnerV1),
            evo!("EvoOuterV2", cm::EvoOuterV2, cm::EvoInnerV2),
            evo!("EvoBadV1", cm::EvoBadV1),
            evo!("EvoBadListV1", cm::EvoBadListV1),
        ];
        table.extend(ref_entries!(true));
        // Appended later: the plain nested structs (the direct read path).
        table.extend([
            eq!("Vec3", cm::Vec3, compat()),
            eq!("Vec2", cm::Vec2, compat()),
            eq!("Triangle", cm::Triangle, compat()),
            eq!("Sprite", cm::Sprite, compat()),
            eq!("Mesh", cm::Mesh, compat()),
            eq!("list<Triangle>", Vec<cm::Triangle>, compat()),
            eq!("list<Sprite>", Vec<cm::Sprite>, compat()),
        ]);
        table
    })
}
// seed.py: COMPAT end

/// The first byte picks the entry (modulo the table's length); the rest is the stream.
pub fn derived(table: &[Entry], data: &[u8]) {
    if let Some((&pick, stream)) = data.split_first() {
        (table[pick as usize % table.len()].run)(stream);
    }
}

// ---------------------------------------------------------------------------------------------
// Concatenated messages

/// `deserialize_prefix::<Value>` over back-to-back messages until the input is used up or a
/// message fails, on one fresh instance (so later messages can hit TypeDefs the earlier ones
/// cached). Each message must use between 1 and the remaining bytes, and
/// `deserialize` of exactly those bytes must give the same value.
pub fn prefix_stream(data: &[u8]) {
    for (compatible, ref_tracking) in [(true, true), (false, false)] {
        let fury = Fury::builder()
            .compatible(compatible)
            .ref_tracking(ref_tracking)
            .build();
        let mut rest = data;
        while !rest.is_empty() {
            let Ok((v, used)) = fury.deserialize_prefix::<Value>(rest) else {
                break;
            };
            if used == 0 || used > rest.len() {
                panic!(
                    "{PREFIX_CHECK}: a message used {used} of {} bytes\n input: {}",
                    rest.len(),
                    hex(data)
                );
            }
            let whole = fury.deserialize::<Value>(&rest[..used]);
            if !matches!(&whole, Ok(w) if w.bitwise_eq(&v)) {
                panic!(
                    "{PREFIX_CHECK}: the prefix gave {}, deserialize of its {used} bytes {}\n input: {}",
                    short_debug(&v),
                    short_debug(&whole),
                    hex(data)
                );
            }
            rest = &rest[used..];
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TypeDefs with a valid hash

/// Root type kinds whose type info carries a TypeDef in compatible mode.
const TYPEDEF_KINDS: [u8; 3] = [28, 30, 26]; // COMPATIBLE_STRUCT, NAMED_COMPATIBLE_STRUCT, NAMED_ENUM

/// The TypeDef parser and the meta-string decoder behind it, through the public API. A
/// TypeDef's 8-byte header holds a 52-bit hash of its body that the parser checks first, so
/// mutated TypeDefs in ordinary inputs almost never get past it. Here the input is
/// `| target | kind | body length (u16 LE) | body | rest |`, and the harness writes the
/// stream `01 ff <kind> 00 <header with the right hash> <body> <rest>`, then decodes it as
/// `Value` (target 0) or as `compat_table()[target - 1]` (modulo).
pub fn typedef(data: &[u8]) {
    let [target, kind, lo, hi, rest @ ..] = data else {
        return;
    };
    let len = (u16::from_le_bytes([*lo, *hi]) as usize).min(rest.len());
    let (body, tail) = rest.split_at(len);
    let mut stream = vec![0x01, 0xff, TYPEDEF_KINDS[*kind as usize % 3], 0x00];
    stream.extend_from_slice(&typedef_header(body));
    stream.extend_from_slice(body);
    stream.extend_from_slice(tail);
    match *target as usize % (compat_table().len() + 1) {
        0 => value(true, false, &stream),
        i => (compat_table()[i - 1].run)(&stream),
    }
}

/// The header (and size extension) the xlang spec gives a TypeDef body: MurmurHash3 x64_128
/// (seed 47) of the body and the two low header bytes, the first half shifted left by 12 and
/// made non-negative, with the size (255 = continued in a varuint32) in the low byte.
pub fn typedef_header(body: &[u8]) -> Vec<u8> {
    const HASH_MASK: u64 = !((1u64 << 12) - 1);
    let size = body.len() as u64;
    let low = size.min(0xff);
    let mut hashed = body.to_vec();
    hashed.extend_from_slice(&[(low & 0xff) as u8, ((low >> 8) & 0xff) as u8]);
    let (h1, _) = fury::meta::murmur3_x64_128(&hashed, 47);
    let shifted = (h1 << 12) as i64;
    let positive = if shifted != i64::MIN && shifted < 0 {
        -shifted
    } else {
        shifted
    };
    let header = (positive as u64 & HASH_MASK) | low;
    let mut out = header.to_le_bytes().to_vec();
    if size >= 0xff {
        let mut rest = (size - 0xff) as u32;
        while rest >= 0x80 {
            out.push((rest as u8 & 0x7f) | 0x80);
            rest >>= 7;
        }
        out.push(rest as u8);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Dispatch by target name (the replay maps a corpus directory to its target)

/// Every fuzz target, by the name of its file in `fuzz/fuzz_targets/` and its corpus folder.
pub const TARGETS: &[&str] = &[
    "value_plain",
    "value_compat",
    "value_ref",
    "value_compat_ref",
    "derived_same_schema",
    "derived_compat",
    "prefix_stream",
    "typedef",
    "kinds",
    "borrowed",
];

/// Runs target `name` on one input; false if there is no such target.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "value_plain" => value(false, false, data),
        "value_compat" => value(true, false, data),
        "value_ref" => value(false, true, data),
        "value_compat_ref" => value(true, true, data),
        "derived_same_schema" => derived(same_schema(), data),
        "derived_compat" => derived(compat_table(), data),
        "prefix_stream" => prefix_stream(data),
        "typedef" => typedef(data),
        "kinds" => kinds::kinds(data),
        "borrowed" => borrowed::borrowed(data),
        _ => return false,
    }
    true
}
