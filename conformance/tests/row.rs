//! The row-format vectors (conformance/vectors/rows/rows.json, written by pyfory 1.7.7's
//! `pyfory.format`): for each, a Rust struct mirroring the vector's schema must write
//! pyfory's bytes exactly (and `encode()`'s schema hash where pyfory computes one), read
//! them back field by field to the vector's value, and survive every prefix and every
//! single-byte mutation of them without a panic. The rows fury-rs writes go to
//! target/conformance/fury-rs-rows.json for `check_peer.py --group rows` (pyfory reads
//! them back).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::time::SystemTime;

use fury::row::{FuryRow, RowValue};
use fury::{Date, ErrorKind, Timestamp};
use serde_json::{json, Value as Json};

// ---------------------------------------------------------------------------
// values from the vectors' JSON nodes (conformance/vectorlib/rows.py)
// ---------------------------------------------------------------------------

trait FromJson: Sized {
    fn from_json(v: &Json) -> Self;
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

macro_rules! json_int {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Json) -> Self {
                v.as_i64().expect("a number") as $t
            }
        }
    )*};
}
json_int!(i8, i16, i32);

/// The widened unsigned integers: int16 and int32 nodes are numbers, int64 ones strings.
macro_rules! json_uint {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Json) -> Self {
                match v.as_str() {
                    Some(s) => s.parse().unwrap(),
                    None => <$t>::try_from(v.as_u64().expect("a number")).unwrap(),
                }
            }
        }
    )*};
}
json_uint!(u8, u16, u32);

impl FromJson for i64 {
    fn from_json(v: &Json) -> Self {
        v.as_str().expect("int64 as a string").parse().unwrap()
    }
}
impl FromJson for f64 {
    fn from_json(v: &Json) -> Self {
        f64::from_bits(u64::from_str_radix(v.as_str().unwrap(), 16).unwrap())
    }
}
impl FromJson for f32 {
    fn from_json(v: &Json) -> Self {
        f32::from_bits(u32::from_str_radix(v.as_str().unwrap(), 16).unwrap())
    }
}
impl FromJson for bool {
    fn from_json(v: &Json) -> Self {
        v.as_bool().unwrap()
    }
}
impl FromJson for String {
    fn from_json(v: &Json) -> Self {
        v.as_str().unwrap().to_owned()
    }
}
/// How a list of this type is a node: an array of element nodes, or hex for `u8` (binary),
/// as `fury::row` lays a `Vec<u8>` out.
trait FromJsonList: FromJson {
    fn list_from_json(v: &Json) -> Vec<Self> {
        v.as_array().unwrap().iter().map(Self::from_json).collect()
    }
}
impl FromJsonList for u8 {
    fn list_from_json(v: &Json) -> Vec<u8> {
        hex(v.as_str().unwrap())
    }
}
macro_rules! json_elements {
    ($($t:ty),*) => {$(
        impl FromJsonList for $t {}
    )*};
}
json_elements!(i8, i16, i32, i64, u16, u32, f32, f64, bool, String, Date, Timestamp, SystemTime);
impl<T: FromJson> FromJsonList for Option<T> {}
impl<T: FromJsonList> FromJsonList for Vec<T> {}
impl<T: FromJsonList, const N: usize> FromJsonList for [T; N] {}
impl FromJson for Date {
    fn from_json(v: &Json) -> Self {
        Date::from_days(v.as_i64().unwrap())
    }
}
impl FromJson for Timestamp {
    fn from_json(v: &Json) -> Self {
        let us: i64 = v.as_str().unwrap().parse().unwrap();
        Timestamp::new(
            us.div_euclid(1_000_000),
            (us.rem_euclid(1_000_000) * 1000) as u32,
        )
        .unwrap()
    }
}
impl FromJson for SystemTime {
    fn from_json(v: &Json) -> Self {
        Timestamp::from_json(v).to_system_time().unwrap()
    }
}
impl<T: FromJsonList, const N: usize> FromJson for [T; N] {
    fn from_json(v: &Json) -> Self {
        Vec::<T>::from_json(v)
            .try_into()
            .unwrap_or_else(|_| panic!("{N} elements in {v}"))
    }
}
impl<T: FromJsonList> FromJson for (T, T) {
    fn from_json(v: &Json) -> Self {
        let [a, b] = <[T; 2]>::from_json(v);
        (a, b)
    }
}
impl<T: FromJsonList> FromJson for (T, T, T) {
    fn from_json(v: &Json) -> Self {
        let [a, b, c] = <[T; 3]>::from_json(v);
        (a, b, c)
    }
}
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Json) -> Self {
        (!v.is_null()).then(|| T::from_json(v))
    }
}
impl<T: FromJsonList> FromJson for Vec<T> {
    fn from_json(v: &Json) -> Self {
        T::list_from_json(v)
    }
}
impl<K: FromJson + Ord, V: FromJson> FromJson for BTreeMap<K, V> {
    fn from_json(v: &Json) -> Self {
        pairs(v).collect()
    }
}
impl<K: FromJson + Eq + std::hash::Hash, V: FromJson> FromJson for HashMap<K, V> {
    fn from_json(v: &Json) -> Self {
        pairs(v).collect()
    }
}
fn pairs<K: FromJson, V: FromJson>(v: &Json) -> impl Iterator<Item = (K, V)> + '_ {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (K::from_json(&p[0]), V::from_json(&p[1])))
}

macro_rules! json_struct {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl FromJson for $name {
            fn from_json(v: &Json) -> Self {
                assert!(v.is_object(), "{} from {v}", stringify!($name));
                $name { $($field: FromJson::from_json(&v[stringify!($field)])),* }
            }
        }
        impl FromJsonList for $name {}
    };
}

// ---------------------------------------------------------------------------
// the mirrors: inferred schemas are pyfory's (fields by name), declared here in the
// dataclass's order; explicit schemas are declared in the schema's order
// ---------------------------------------------------------------------------

#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct Scalars {
    name: Option<String>,
    id: Option<i64>,
    score: Option<f64>,
    active: Option<bool>,
    payload: Option<Vec<u8>>,
    born: Option<Date>,
    seen: Option<Timestamp>,
    empty: Option<String>,
}
json_struct!(Scalars {
    name,
    id,
    score,
    active,
    payload,
    born,
    seen,
    empty
});

/// The same dataclass without nulls: a set null bit must fail validation.
#[derive(FuryRow, Debug, PartialEq)]
#[fury_row(field_order = "name")]
struct ScalarsStrict {
    name: String,
    id: i64,
    score: f64,
    active: bool,
    payload: Vec<u8>,
    born: Date,
    seen: Timestamp,
    empty: String,
}
json_struct!(ScalarsStrict {
    name,
    id,
    score,
    active,
    payload,
    born,
    seen,
    empty
});

/// Declaration order (the default): another schema, for pyfory to read with it.
#[derive(FuryRow, Debug, PartialEq)]
struct ScalarsDeclared {
    name: Option<String>,
    id: Option<i64>,
    score: Option<f64>,
    active: Option<bool>,
    payload: Option<Vec<u8>>,
    born: Option<Date>,
    seen: Option<Timestamp>,
    empty: Option<String>,
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct Point {
    y: i64,
    x: i64,
    label: Option<String>,
}
json_struct!(Point { y, x, label });

#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct Shape {
    name: String,
    origin: Option<Point>,
    points: Vec<Option<Point>>,
    tags: BTreeMap<String, i64>,
    weights: Vec<f64>,
    by_id: BTreeMap<i64, Option<Point>>,
    notes: Vec<Option<String>>,
}
json_struct!(Shape {
    name,
    origin,
    points,
    tags,
    weights,
    by_id,
    notes
});

#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct Lists {
    ints: Vec<i64>,
    strs: Vec<String>,
    blobs: Vec<Vec<u8>>,
    flags: Vec<bool>,
    days: Vec<Date>,
    empty: Vec<i64>,
    maybe: Vec<Option<i64>>,
}
json_struct!(Lists {
    ints,
    strs,
    blobs,
    flags,
    days,
    empty,
    maybe
});

#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct Maps {
    counts: BTreeMap<String, i64>,
    names: BTreeMap<i64, String>,
    groups: BTreeMap<String, Vec<i64>>,
    empty: HashMap<String, String>,
}
json_struct!(Maps {
    counts,
    names,
    groups,
    empty
});

#[derive(FuryRow, Debug, PartialEq)]
struct MapsDeclared {
    counts: BTreeMap<String, i64>,
    names: BTreeMap<i64, String>,
    groups: BTreeMap<String, Vec<i64>>,
    empty: HashMap<String, String>,
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Widths {
    i8: i8,
    i16: i16,
    i32: i32,
    f32: f32,
    flag: bool,
    i8s: Vec<i8>,
    i16s: Vec<i16>,
    i32s: Vec<Option<i32>>,
    f32s: Vec<f32>,
    m32: BTreeMap<i32, f32>,
}
json_struct!(Widths {
    i8,
    i16,
    i32,
    f32,
    flag,
    i8s,
    i16s,
    i32s,
    f32s,
    m32
});

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct ListOfLists {
    grid: Vec<Option<Vec<i16>>>,
    words: Vec<Vec<String>>,
}
json_struct!(ListOfLists { grid, words });

macro_rules! wide {
    ($($f:ident),*) => {
        #[derive(FuryRow, Debug, PartialEq, Clone)]
        struct Wide { $($f: Option<i64>),* }
        json_struct!(Wide { $($f),* });
    };
}
wide!(
    f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18,
    f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37,
    f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56,
    f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69
);

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct LongArray {
    id: i32,
    values: Vec<i32>,
}
json_struct!(LongArray { id, values });

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Deep {
    a: DeepA,
}
#[derive(FuryRow, Debug, PartialEq, Clone)]
struct DeepA {
    b: DeepB,
    k: i32,
}
#[derive(FuryRow, Debug, PartialEq, Clone)]
struct DeepB {
    c: DeepC,
}
#[derive(FuryRow, Debug, PartialEq, Clone)]
struct DeepC {
    d: String,
    n: i64,
}
json_struct!(Deep { a });
json_struct!(DeepA { b, k });
json_struct!(DeepB { c });
json_struct!(DeepC { d, n });

/// A Rust model with the types that have no row type of their own: `u8`/`u16`/`u32`
/// (pyfory's `Int16`/`Int32`/`int` fields), a tuple, `SystemTime`.
#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct RustModel {
    small: u8,
    mid: u16,
    big: u32,
    maybe: Option<u32>,
    pair: (i64, i64),
    names: Vec<String>,
    when: SystemTime,
    day: Date,
    mids: Vec<u16>,
}
json_struct!(RustModel {
    small,
    mid,
    big,
    maybe,
    pair,
    names,
    when,
    day,
    mids
});

/// The same with `names` as a 3-tuple (pyfory's `Tuple[str, ...]` of three).
#[derive(FuryRow, Debug, PartialEq, Clone)]
#[fury_row(field_order = "name")]
struct RustModelTuple {
    small: u8,
    mid: u16,
    big: u32,
    maybe: Option<u32>,
    pair: (i64, i64),
    names: (String, String, String),
    when: SystemTime,
    day: Date,
    mids: Vec<u16>,
}
json_struct!(RustModelTuple {
    small,
    mid,
    big,
    maybe,
    pair,
    names,
    when,
    day,
    mids
});

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct FixedArrays {
    coords: [f64; 3],
    digest: [u8; 9],
    grid: [[i16; 2]; 3],
    bytes_opt: Vec<Option<u8>>,
    words: (String, String, String),
    stamps: [SystemTime; 2],
}
json_struct!(FixedArrays {
    coords,
    digest,
    grid,
    bytes_opt,
    words,
    stamps
});

/// The same row with a wrong element count or a narrower type: validation refuses it.
#[derive(FuryRow, Debug)]
struct FixedArraysLonger {
    coords: [f64; 4],
    digest: [u8; 9],
    grid: [[i16; 2]; 3],
    bytes_opt: Vec<Option<u8>>,
    words: (String, String, String),
    stamps: [SystemTime; 2],
}
#[derive(FuryRow, Debug)]
struct FixedArraysShortDigest {
    coords: [f64; 3],
    digest: [u8; 8],
    grid: [[i16; 2]; 3],
    bytes_opt: Vec<Option<u8>>,
    words: (String, String, String),
    stamps: [SystemTime; 2],
}

// ---------------------------------------------------------------------------
// the checks
// ---------------------------------------------------------------------------

fn vectors() -> BTreeMap<String, Json> {
    let path = fury_conformance::groups::file("rows");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(doc["format"], "fury-row/1");
    assert_eq!(doc["peer"], "pyfory==1.7.7");
    doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["name"].as_str().unwrap().to_owned(), v.clone()))
        .collect()
}

/// Validation of every prefix and of every single-byte mutation (three flips a byte) must
/// return without a panic; a mutated row that validates must decode, and its value must
/// write a row that validates again.
fn mutations<T: FuryRow + Debug>(bytes: &[u8]) -> (usize, usize) {
    let (mut accepted, mut rejected) = (0, 0);
    let mut try_one = |b: &[u8]| match T::view_row(b) {
        Ok(view) => {
            accepted += 1;
            let value = T::from_view(view);
            let again = value.to_row();
            T::view_row(&again).unwrap_or_else(|e| panic!("{value:?} rewrites to {e}"));
        }
        Err(e) => {
            rejected += 1;
            assert!(
                e.offset().is_some_and(|o| o <= b.len()),
                "error without an offset in the input: {e}"
            );
        }
    };
    for k in 0..bytes.len() {
        try_one(&bytes[..k]);
    }
    let mut m = bytes.to_vec();
    for i in 0..bytes.len() {
        for x in [0x01u8, 0x80, 0xff] {
            m[i] ^= x;
            try_one(&m);
            m[i] ^= x;
        }
    }
    (accepted, rejected)
}

struct Out(Vec<Json>);

impl Out {
    fn row(&mut self, label: &str, vector: &str, bytes: &[u8], schema: Option<Json>) {
        let mut e = json!({"label": label, "vector": vector, "hex": to_hex(bytes)});
        if let Some(s) = schema {
            e["schema"] = s;
        }
        self.0.push(e);
    }
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The vector's bytes are what `T` writes for its value, and read back to it.
fn check<T: FuryRow + FromJson + PartialEq + Debug>(
    vecs: &BTreeMap<String, Json>,
    name: &str,
    out: &mut Out,
) -> T {
    let vec = &vecs[name];
    let bytes = hex(vec["hex"].as_str().unwrap());
    let expected = T::from_json(&vec["value"]);
    assert_eq!(
        to_hex(&expected.to_row()),
        to_hex(&bytes),
        "{name}: fury-rs writes other bytes than pyfory"
    );
    let decoded = T::from_row(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(decoded, expected, "{name}");
    if let Some(h) = vec.get("schema_hash") {
        let h: i64 = h.as_str().unwrap().parse().unwrap();
        assert_eq!(T::schema_hash() as i64, h, "{name}: schema hash");
        let encoded = hex(vec["encoded_hex"].as_str().unwrap());
        assert_eq!(expected.to_row_with_hash(), encoded, "{name}: encode()");
        assert_eq!(T::from_row_with_hash(&encoded).unwrap(), expected);
        let mut wrong = encoded.clone();
        wrong[0] ^= 1;
        let e = T::view_row_with_hash(&wrong)
            .err()
            .expect("a wrong hash is refused");
        assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    }
    let (accepted, rejected) = mutations::<T>(&bytes);
    // Every strict prefix is refused but those cutting only the last value's padding.
    assert!(rejected >= bytes.len() - 7, "{name}: {rejected} refused");
    eprintln!(
        "{name}: {} bytes, mutations accepted {accepted}, rejected {rejected}",
        bytes.len()
    );
    out.row(name, name, &expected.to_row(), None);
    expected
}

fn reorder(schema: &Json, names: &[&str]) -> Json {
    let fields = schema.as_array().unwrap();
    Json::Array(
        names
            .iter()
            .map(|n| fields.iter().find(|f| f["name"] == *n).unwrap().clone())
            .collect(),
    )
}

#[test]
fn row_vectors() {
    let vecs = vectors();
    let mut out = Out(Vec::new());

    let s: Scalars = check(&vecs, "row/scalars", &mut out);
    let strict: ScalarsStrict = check(&vecs, "row/scalars", &mut Out(Vec::new()));
    let bytes = hex(vecs["row/scalars"]["hex"].as_str().unwrap());
    let view = ScalarsStrict::view_row(&bytes).unwrap();
    assert_eq!(view.name(), "héllo, wörld ✓");
    assert_eq!(view.id(), -(1 << 62) - 5);
    assert_eq!(view.payload(), &(0..11).collect::<Vec<u8>>()[..]);
    assert_eq!(view.empty(), "");
    assert_eq!(view.seen().seconds(), strict.seen.seconds());
    let nulls: Scalars = check(&vecs, "row/scalars_nulls", &mut out);
    assert_eq!(nulls.id, Some(7));
    let nb = hex(vecs["row/scalars_nulls"]["hex"].as_str().unwrap());
    let e = ScalarsStrict::view_row(&nb).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "active"),
        "{e}"
    );
    assert_eq!(e.offset(), Some(8), "{e}"); // the slot of `active`, field 0
    let v = Scalars::view_row(&nb).unwrap();
    assert_eq!(
        (v.name(), v.id(), v.empty()),
        (None, Some(7), Some("12345678"))
    );

    let declared = ScalarsDeclared {
        name: s.name.clone(),
        id: s.id,
        score: s.score,
        active: s.active,
        payload: s.payload.clone(),
        born: s.born,
        seen: s.seen,
        empty: s.empty.clone(),
    };
    let order = [
        "name", "id", "score", "active", "payload", "born", "seen", "empty",
    ];
    out.row(
        "row/scalars (declaration order)",
        "row/scalars",
        &declared.to_row(),
        Some(reorder(&vecs["row/scalars"]["schema"], &order)),
    );

    let shape: Shape = check(&vecs, "row/shape", &mut out);
    let sb = hex(vecs["row/shape"]["hex"].as_str().unwrap());
    let v = Shape::view_row(&sb).unwrap();
    assert_eq!(
        v.origin().map(|o| (o.x(), o.y(), o.label())),
        Some((2, -1, None))
    );
    assert_eq!(v.points().len(), 3);
    assert_eq!(
        v.points().get(1).flatten().map(|p| p.label()),
        Some(Some("bcdefghij"))
    );
    assert!(v.points().get(2).unwrap().is_none() && v.points().is_null(2));
    assert_eq!(v.tags().get(1), Some(("red", 1)));
    assert_eq!(
        v.by_id().get(1).map(|(k, p)| (k, p.map(|p| p.x()))),
        Some((3, Some(3)))
    );
    assert_eq!(
        v.weights().iter().map(f64::to_bits).collect::<Vec<_>>(),
        shape
            .weights
            .iter()
            .map(|w| w.to_bits())
            .collect::<Vec<_>>()
    );
    let empty: Shape = check(&vecs, "row/shape_null_origin", &mut out);
    assert!(empty.origin.is_none() && empty.points.is_empty());

    let lists: Lists = check(&vecs, "row/lists", &mut out);
    let lb = hex(vecs["row/lists"]["hex"].as_str().unwrap());
    let v = Lists::view_row(&lb).unwrap();
    assert_eq!(v.ints().get(3), Some(i64::MIN));
    assert_eq!(v.strs().get(3), Some("日本語"));
    assert_eq!(v.flags().to_vec(), lists.flags);
    assert_eq!(v.maybe().iter().collect::<Vec<_>>(), [None, Some(0), None]);

    let maps: Maps = check(&vecs, "row/maps", &mut out);
    let md = MapsDeclared {
        counts: maps.counts.clone(),
        names: maps.names.clone(),
        groups: maps.groups.clone(),
        empty: maps.empty.clone(),
    };
    out.row(
        "row/maps (declaration order)",
        "row/maps",
        &md.to_row(),
        Some(reorder(
            &vecs["row/maps"]["schema"],
            &["counts", "names", "groups", "empty"],
        )),
    );

    let w: Widths = check(&vecs, "row/widths", &mut out);
    assert_eq!((w.i8, w.i16, w.i32, w.f32), (-128, -300, -5, 2.5));
    check::<ListOfLists>(&vecs, "row/list_of_lists", &mut out);
    let wide: Wide = check(&vecs, "row/wide", &mut out);
    assert_eq!((wide.f63, wide.f64, wide.f65), (None, None, Some(30000)));
    let long: LongArray = check(&vecs, "row/long_array", &mut out);
    let lb = hex(vecs["row/long_array"]["hex"].as_str().unwrap());
    assert_eq!(
        LongArray::view_row(&lb).unwrap().values().get(999),
        Some(long.values[999])
    );
    let deep: Deep = check(&vecs, "row/nested_deep", &mut out);
    assert_eq!(deep.a.b.c.d, "deep");

    let m: RustModel = check(&vecs, "row/rust_model", &mut out);
    assert_eq!((m.small, m.mid, m.big), (u8::MAX, u16::MAX, u32::MAX));
    assert_eq!(m.pair, (7, -7));
    let mb = hex(vecs["row/rust_model"]["hex"].as_str().unwrap());
    let v = RustModel::view_row(&mb).unwrap();
    assert_eq!(
        (v.small(), v.mid(), v.big(), v.maybe()),
        (255, 65535, u32::MAX, None)
    );
    assert_eq!(v.pair().get(1), Some(-7));
    assert_eq!(v.mids().iter().collect::<Vec<_>>(), [0, 1, 65535]);
    let t: RustModelTuple = check(&vecs, "row/rust_model", &mut Out(Vec::new()));
    assert_eq!(t.names, ("a".into(), "bc".into(), String::new()));
    let z: RustModel = check(&vecs, "row/rust_model_zeros", &mut out);
    assert_eq!(z.maybe, Some(u32::MAX));
    // Three names are not a 3-tuple of them when there are none.
    let zb = hex(vecs["row/rust_model_zeros"]["hex"].as_str().unwrap());
    let e = RustModelTuple::view_row(&zb).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, what } if field == "names" && what.contains("expected 3 elements, found 0")),
        "{e}"
    );
    // A value past the unsigned range in a widened slot is refused: `small` (int16) = -1.
    let mut bad = mb.clone();
    let small = 8 + 7 * 8; // bitmap, then slot 7 (`small` in name order)
    bad[small..small + 2].copy_from_slice(&(-1i16).to_le_bytes());
    let e = RustModel::view_row(&bad).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, what } if field == "small" && what.contains("outside the range of u8")),
        "{e}"
    );
    assert_eq!(e.offset(), Some(small));

    let a: FixedArrays = check(&vecs, "row/fixed_arrays", &mut out);
    assert_eq!(a.digest, [0, 1, 0xfe, 0xff, 7, 8, 9, 10, 11]);
    assert_eq!(a.grid[2], [5, i16::MIN]);
    assert_eq!(a.bytes_opt, [Some(0), None, Some(255)]);
    let ab = hex(vecs["row/fixed_arrays"]["hex"].as_str().unwrap());
    let v = FixedArrays::view_row(&ab).unwrap();
    assert_eq!(v.digest(), &a.digest[..]);
    assert_eq!(v.grid().get(1).map(|r| r.to_vec()), Some(vec![-3, 4]));
    assert_eq!(v.words().get(2), Some("yz"));
    let e = FixedArraysLonger::view_row(&ab).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, what } if field == "coords" && what.contains("expected 4 elements, found 3")),
        "{e}"
    );
    let e = FixedArraysShortDigest::view_row(&ab).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, what } if field == "digest" && what.contains("expected 8 bytes, found 9")),
        "{e}"
    );

    assert_eq!(
        out.0.iter().filter(|e| e.get("schema").is_none()).count(),
        vecs.len(),
        "every vector checked"
    );
    let path = fury_conformance::groups::peer_bytes("rows");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let doc = json!({"format": "fury-row-bytes/1", "rows": out.0});
    std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}

/// A hostile row can nest as deep as it likes through a recursive type: validation stops
/// at the depth limit with an error, not a stack overflow.
#[derive(FuryRow, Debug, PartialEq)]
struct Node {
    children: Vec<Node>,
}

#[test]
fn depth_limit() {
    let mut n = Node { children: vec![] };
    for _ in 0..100 {
        n = Node { children: vec![n] };
    }
    let bytes = n.to_row();
    assert!(
        Node::view_row(&bytes).is_ok(),
        "202 levels (a struct and an array each) pass"
    );
    for _ in 0..100 {
        n = Node { children: vec![n] };
    }
    let bytes = n.to_row();
    let e = Node::view_row(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
}

/// Offsets that point two slots at the same bytes are refused (values out of line must come
/// in slot order without overlapping), so validation stays linear in the input.
#[test]
fn shared_offsets_are_refused() {
    let row = Lists {
        ints: vec![],
        strs: vec!["abc".into(), "abc".into()],
        blobs: vec![],
        flags: vec![],
        days: vec![],
        empty: vec![],
        maybe: vec![],
    }
    .to_row();
    let view = Lists::view_row(&row).unwrap();
    let strs = view.strs().as_bytes();
    let at = row.len() - strs.len(); // `strs` is the last field written
    let mut bad = row.clone();
    // Point element 1's slot at element 0's bytes.
    let slot0 = at + 16;
    let first: [u8; 8] = bad[slot0..slot0 + 8].try_into().unwrap();
    bad[slot0 + 8..slot0 + 16].copy_from_slice(&first);
    let e = Lists::view_row(&bad).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "strs[1]"),
        "{e}"
    );
    let _ = <Lists as RowValue>::WIDTH;
}

/// The unchecked view never reads out of bounds or panics, whatever the bytes (types
/// without strings, whose unchecked view of bad bytes would not be UTF-8).
#[test]
fn unchecked_views_do_not_panic() {
    fn all<T: FuryRow + Debug>(bytes: &[u8]) {
        let mut m = bytes.to_vec();
        for i in 0..m.len() {
            for x in [0x01u8, 0x80, 0xff] {
                m[i] ^= x;
                // SAFETY: `T` holds no strings, so any bytes give a well-formed (if wrong) view.
                let v = unsafe { T::view_row_unchecked(&m) };
                let _ = format!("{:?}", T::from_view(v));
                m[i] ^= x;
            }
        }
        for k in 0..bytes.len() {
            // SAFETY: as above.
            let v = unsafe { T::view_row_unchecked(&bytes[..k]) };
            let _ = format!("{:?}", T::from_view(v));
        }
    }
    let vecs = vectors();
    all::<LongArray>(&hex(vecs["row/long_array"]["hex"].as_str().unwrap())[..512]);
    all::<Wide>(&hex(vecs["row/wide"]["hex"].as_str().unwrap()));
    all::<Widths>(&hex(vecs["row/widths"]["hex"].as_str().unwrap()));
    let mut n = Node { children: vec![] };
    for _ in 0..5 {
        n = Node {
            children: vec![n, Node { children: vec![] }],
        };
    }
    all::<Node>(&n.to_row());
}
