//! The `borrowed` target: the decoders that borrow from the input (`&str`, `&[u8]`, `&[i8]`,
//! `Cow<str>`, `Cow<[u8]>`, `fury::ArrayView`, and derived structs holding them, nested).
//!
//! The first input byte picks an entry of [`table`] (modulo its length): every entry exists
//! twice, same-schema mode first, then compatible mode. Each struct entry is a borrowed mirror
//! of a type of `conformance/src/mirrors/structs_mirror.rs` (the same registration and
//! field wire types), so pyfory's struct vectors are its seeds; the roots are the scalar and
//! container vectors (`conformance/vectors/builtins/*.json`) read as borrowed types.
//!
//! Where a decode succeeds:
//! - **re-encode**: the value is written, read back, and must equal the first (`PartialEq`; a
//!   value with a NaN, which is not equal to itself, must instead write the same bytes again);
//!   for types without a `HashMap` the second write must also give the same bytes;
//! - **owned mirror**: the owned mirror (`String` for `&str`, `Vec` for views, `BTreeMap` for
//!   `HashMap`) must decode the same input too, and for types without a `HashMap` write the
//!   same bytes as the borrowed value: a borrowed decoder may refuse what it cannot borrow
//!   (LATIN1 or UTF-16 text as `&str`), never accept what the owned one refuses.
//!
//! Entries are only ever appended (regression inputs name their entry by index).

use fury::{ArrayView, Fury, FuryObject};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use super::structs_mirror as sm;
use super::{hex, unsupported, Entry, REENCODE_CHECK};

/// A borrowed decode succeeded where the owned mirror's decode of the same input failed, or
/// the two write different bytes.
pub const OWNED_CHECK: &str = "owned mirror check failed";

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
pub struct PersonRef<'a> {
    pub name: &'a str,
    pub nick: Option<&'a str>,
    pub home: sm::Point,
    pub tags: Vec<&'a str>,
    pub age: u8,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 113)]
pub struct ScalarsRef<'a> {
    pub text: &'a str,
    pub data: &'a [u8],
    pub day: fury::Date,
    pub at: fury::Timestamp,
    pub span: fury::Duration,
    pub opt_text: Option<&'a str>,
    pub opt_data: Option<&'a [u8]>,
    pub opt_day: Option<fury::Date>,
    pub opt_at: Option<fury::Timestamp>,
    pub opt_span: Option<fury::Duration>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 113)]
pub struct ScalarsCow<'a> {
    pub text: Cow<'a, str>,
    pub data: Cow<'a, [u8]>,
    pub day: fury::Date,
    pub at: fury::Timestamp,
    pub span: fury::Duration,
    pub opt_text: Option<Cow<'a, str>>,
    pub opt_data: Option<Cow<'a, [u8]>>,
    pub opt_day: Option<fury::Date>,
    pub opt_at: Option<fury::Timestamp>,
    pub opt_span: Option<fury::Duration>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 114)]
pub struct CollectionsRef<'a> {
    pub strings: Vec<&'a str>,
    pub ints: fury::List<i64>,
    pub fixed: fury::List<fury::Fixed<i32>>,
    pub maybe_ints: Vec<Option<i64>>,
    pub tags: BTreeSet<&'a str>,
    pub small: BTreeSet<i32>,
    pub counts: HashMap<&'a str, i64>,
    pub names: BTreeMap<i32, &'a str>,
    pub maybe: HashMap<&'a str, Option<&'a str>>,
    pub nested: Vec<fury::List<i64>>,
    pub groups: BTreeMap<&'a str, Vec<&'a str>>,
    pub opt_list: Option<Vec<&'a str>>,
    pub opt_map: Option<HashMap<&'a str, i64>>,
    pub floats: fury::List<f64>,
    pub singles: fury::List<f32>,
    pub flags: fury::List<bool>,
    pub blobs: Vec<&'a [u8]>,
    pub days: Vec<fury::Date>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 115)]
pub struct ArraysView<'a> {
    pub bools: Vec<bool>,
    pub int8s: &'a [i8],
    pub int16s: ArrayView<'a, i16>,
    pub int32s: ArrayView<'a, i32>,
    pub int64s: ArrayView<'a, i64>,
    pub uint8s: fury::UInt8Array,
    pub uint16s: ArrayView<'a, u16>,
    pub uint32s: ArrayView<'a, u32>,
    pub uint64s: ArrayView<'a, u64>,
    pub float16s: Vec<fury::F16>,
    pub bfloat16s: Vec<fury::BF16>,
    pub float32s: ArrayView<'a, f32>,
    pub float64s: ArrayView<'a, f64>,
    pub opt_ints: Option<ArrayView<'a, i32>>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 121)]
pub struct MiddleRef<'a> {
    pub inner: sm::Inner,
    pub label: &'a str,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 122)]
pub struct OuterRef<'a> {
    pub middle: MiddleRef<'a>,
    pub opt_middle: Option<MiddleRef<'a>>,
    pub id: i64,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "a_b", name = "MyHTTPServer2")]
pub struct ServerRef<'a> {
    pub host: &'a str,
    pub port: u16,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "myCompany", name = "orderItemList")]
pub struct OrderItemRef<'a> {
    pub qty: u32,
    pub sku: Cow<'a, str>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "", name = "\u{540d}\u{524d}")]
pub struct NamaeCow<'a> {
    pub label: Cow<'a, str>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "c", name = "node")]
pub struct CNodeRef<'a> {
    pub leaf: sm::Leaf,
    pub name: &'a str,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 130)]
pub struct HolderRef<'a> {
    pub server: ServerRef<'a>,
    pub leaf: sm::Leaf,
    pub leaves: Vec<sm::Leaf>,
    pub other: sm::Leaf,
    pub person: PersonRef<'a>,
    pub long: sm::LongName,
    pub item: OrderItemRef<'a>,
    pub opt_server: Option<ServerRef<'a>>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 131)]
pub struct StructCollectionsRef<'a> {
    pub points: Vec<sm::Point>,
    pub servers: Vec<ServerRef<'a>>,
    pub by_key: HashMap<&'a str, sm::Point>,
    pub servers_by_key: BTreeMap<&'a str, ServerRef<'a>>,
    pub maybe_points: Vec<Option<sm::Point>>,
    pub maybe_servers: Vec<Option<ServerRef<'a>>>,
    pub opt_points: Option<Vec<sm::Point>>,
    pub maybe_by_key: BTreeMap<&'a str, Option<sm::Point>>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 133)]
pub struct OptionalsRef<'a> {
    pub opt_point: Option<sm::Point>,
    pub opt_server: Option<ServerRef<'a>>,
    pub opt_int: Option<i32>,
    pub opt_text: Option<&'a str>,
    pub opt_list: Option<fury::List<i32>>,
    pub opt_map: Option<HashMap<&'a str, &'a str>>,
    pub opt_color: Option<sm::Color>,
    pub opt_set: Option<BTreeSet<&'a str>>,
    pub opt_longs: Option<ArrayView<'a, i64>>,
}

/// The owned types the borrowed mirrors refer to, and the borrowed mirrors other mirrors
/// nest, on one instance per mode (entries whose type shares a registration with these, such
/// as `ScalarsCow`, have instances of their own: see [`borrowed_fury`]).
fn base(f: &mut Fury) {
    f.register::<sm::Color>().unwrap();
    f.register::<sm::Point>().unwrap();
    f.register::<sm::Inner>().unwrap();
    f.register::<sm::Leaf>().unwrap();
    f.register::<sm::LongName>().unwrap();
    f.register::<PersonRef<'static>>().unwrap();
    f.register::<ServerRef<'static>>().unwrap();
    f.register::<OrderItemRef<'static>>().unwrap();
    f.register::<MiddleRef<'static>>().unwrap();
}

fn builder(compatible: bool) -> fury::FuryBuilder {
    Fury::builder()
        .compatible(compatible)
        .ref_tracking(false)
        .typedef_cache_entries(0)
}

/// The owned mirrors: every struct mirror (`register_all`), in `mode`.
fn owned_fury(compatible: bool) -> &'static Fury {
    static SAME: OnceLock<Fury> = OnceLock::new();
    static COMPAT: OnceLock<Fury> = OnceLock::new();
    let cell = if compatible { &COMPAT } else { &SAME };
    cell.get_or_init(|| {
        let mut f = builder(compatible).build();
        sm::register_all(&mut f);
        f
    })
}

/// Instance `slot` of the borrowed mirrors: the base set and `extra`.
fn borrowed_fury(
    cell: &'static OnceLock<Fury>,
    compatible: bool,
    extra: fn(&mut Fury),
) -> &'static Fury {
    cell.get_or_init(|| {
        let mut f = builder(compatible).build();
        base(&mut f);
        extra(&mut f);
        f
    })
}

fn nothing(_: &mut Fury) {}

/// One borrowed entry: `$t` (lifetimes `'_`) read on the borrowed instance with `$extra`
/// registered, `$owned` its owned mirror; `$ordered`: the type has no `HashMap`, so writes
/// are deterministic and byte comparisons apply.
macro_rules! bor {
    ($name:expr, $c:expr, $t:ty, $owned:ty, $ordered:expr) => {
        bor!($name, $c, $t, $owned, $ordered, nothing)
    };
    ($name:expr, $c:expr, $t:ty, $owned:ty, $ordered:expr, $extra:expr) => {
        Entry {
            name: $name,
            run: |d| {
                static CELL: OnceLock<Fury> = OnceLock::new();
                let f = borrowed_fury(&CELL, $c, $extra);
                let Ok(first) = f.deserialize::<$t>(d) else {
                    return;
                };
                let bytes = match f.serialize(&first) {
                    Ok(b) => b,
                    Err(e) if unsupported(&e) => return,
                    Err(e) => fail(
                        REENCODE_CHECK,
                        stringify!($t),
                        d,
                        format!("writing the decoded value failed: {e}"),
                    ),
                };
                let outcome = match f.deserialize::<$t>(&bytes) {
                    Err(e) => Err(format!(
                        "it writes {}, which does not decode: {e}",
                        hex(&bytes)
                    )),
                    Ok(second) => {
                        #[allow(clippy::eq_op)]
                        let nan = first != first;
                        let again = f.serialize(&second).map_err(|e| e.to_string());
                        compare(nan || first == second, $ordered, &bytes, again)
                    }
                };
                if let Err(msg) = outcome {
                    fail(
                        REENCODE_CHECK,
                        stringify!($t),
                        d,
                        format!("{msg}; value {first:?}"),
                    );
                }
                let of = owned_fury($c);
                match of.deserialize::<$owned>(d) {
                    Err(e) => fail(
                        OWNED_CHECK,
                        stringify!($t),
                        d,
                        format!(
                            "the borrowed decode gave {first:?}, the owned {} failed: {e}",
                            stringify!($owned)
                        ),
                    ),
                    Ok(o) if $ordered => match of.serialize(&o) {
                        Ok(ob) if ob == bytes => {}
                        other => fail(
                            OWNED_CHECK,
                            stringify!($t),
                            d,
                            format!(
                                "the borrowed value writes {}, the owned one {:?}",
                                hex(&bytes),
                                other.map(|b| hex(&b))
                            ),
                        ),
                    },
                    Ok(_) => {}
                }
            },
        }
    };
}

/// The checks of a re-decoded value: `same` (equal, or NaN inside), and where the writes are
/// deterministic, the second write's bytes equal the first's. A value with both a NaN and a
/// `HashMap` can be compared neither way: it only has to decode and write again.
fn compare(
    same: bool,
    ordered: bool,
    bytes: &[u8],
    again: Result<Vec<u8>, String>,
) -> Result<(), String> {
    if !same {
        return Err(format!(
            "it writes {}, which decodes to another value",
            hex(bytes)
        ));
    }
    match again {
        Err(e) => Err(format!("writing the re-decoded value failed: {e}")),
        Ok(a) if ordered && a != bytes => Err(format!(
            "not a fixpoint: {} decodes and writes {}",
            hex(bytes),
            hex(&a)
        )),
        Ok(_) => Ok(()),
    }
}

fn fail(check: &str, ty: &str, input: &[u8], msg: String) -> ! {
    panic!("{check} ({ty}): {msg}\n input: {}", hex(input));
}

macro_rules! entries {
    ($c:expr) => {
        [
            bor!("Person", $c, PersonRef<'_>, sm::Person, true),
            bor!("Scalars", $c, ScalarsRef<'_>, sm::Scalars, true, |f| {
                f.register::<ScalarsRef<'static>>().unwrap();
            }),
            bor!("Scalars", $c, ScalarsCow<'_>, sm::Scalars, true, |f| {
                f.register::<ScalarsCow<'static>>().unwrap();
            }),
            bor!("Collections", $c, CollectionsRef<'_>, sm::Collections, false, |f| {
                f.register::<CollectionsRef<'static>>().unwrap();
            }),
            bor!("Arrays", $c, ArraysView<'_>, sm::Arrays, true, |f| {
                f.register::<ArraysView<'static>>().unwrap();
            }),
            bor!("Outer", $c, OuterRef<'_>, sm::Outer, true, |f| {
                f.register::<OuterRef<'static>>().unwrap();
            }),
            bor!("Server", $c, ServerRef<'_>, sm::Server, true),
            bor!("OrderItem", $c, OrderItemRef<'_>, sm::OrderItem, true),
            bor!("Namae", $c, NamaeCow<'_>, sm::Namae, true, |f| {
                f.register::<NamaeCow<'static>>().unwrap();
            }),
            bor!("CNode", $c, CNodeRef<'_>, sm::CNode, true, |f| {
                f.register::<CNodeRef<'static>>().unwrap();
            }),
            bor!("Holder", $c, HolderRef<'_>, sm::Holder, true, |f| {
                f.register::<HolderRef<'static>>().unwrap();
            }),
            bor!("StructCollections", $c, StructCollectionsRef<'_>, sm::StructCollections, false, |f| {
                f.register::<StructCollectionsRef<'static>>().unwrap();
            }),
            bor!("Optionals", $c, OptionalsRef<'_>, sm::Optionals, false, |f| {
                f.register::<OptionalsRef<'static>>().unwrap();
            }),
            bor!("string", $c, &str, String, true),
            bor!("binary", $c, &[u8], Vec<u8>, true),
            bor!("int8_array", $c, &[i8], Vec<i8>, true),
            bor!("int32_array", $c, ArrayView<'_, i32>, Vec<i32>, true),
            bor!("int64_array", $c, ArrayView<'_, i64>, Vec<i64>, true),
            bor!("float64_array", $c, ArrayView<'_, f64>, Vec<f64>, true),
            bor!("uint16_array", $c, ArrayView<'_, u16>, Vec<u16>, true),
            bor!("list<string>", $c, Vec<&str>, Vec<String>, true),
            bor!("list<option<string>>", $c, Vec<Option<&str>>, Vec<Option<String>>, true),
            bor!("list<binary>", $c, Vec<&[u8]>, Vec<Vec<u8>>, true),
            bor!("list<int32_array>", $c, Vec<ArrayView<'_, i32>>, Vec<Vec<i32>>, true),
            bor!("set<string>", $c, BTreeSet<&str>, BTreeSet<String>, true),
            bor!("map<string,binary>", $c, HashMap<&str, &[u8]>, BTreeMap<String, Vec<u8>>, false),
            bor!("map<varint64,string>", $c, BTreeMap<i64, &str>, BTreeMap<i64, String>, true),
            bor!("map<string,int32_array>", $c, BTreeMap<&str, ArrayView<'_, i32>>, BTreeMap<String, Vec<i32>>, true),
            bor!("map<string,string>", $c, HashMap<&str, &str>, BTreeMap<String, String>, false),
            bor!("list<Person>", $c, Vec<PersonRef<'_>>, Vec<sm::Person>, true),
        ]
    };
}

/// The `borrowed` table: every entry in same-schema mode, then every entry in compatible mode.
// seed.py: BORROWED begin
pub fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: Vec<Entry> = entries!(false).into_iter().collect();
        t.extend(entries!(true));
        t
    })
}
// seed.py: BORROWED end

/// The `borrowed` target: the first byte picks the entry, the rest is the stream.
pub fn borrowed(data: &[u8]) {
    super::derived(table(), data)
}
