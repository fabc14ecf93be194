//! Models written the way Rust users write them: type aliases, generics, tuple and unit
//! structs, transparent newtypes, recursive types, `with` fields and defaults. Where a
//! pyfory 1.7.7 vector exists for the shape (conformance/vectors/structs/structs.json), the
//! bytes are pyfory's.

use fury::{Error, Fury, FuryObject};
use std::collections::BTreeMap;

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

// Point and Color as pyfory's vectors declare them (ids 100 and 101).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 100)]
struct Point {
    x: i32,
    #[fury(encoding = "fixed")]
    y: i32,
}

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 101)]
enum Color {
    Red,
    Green,
    Blue,
}

type Int = i32;
type Short = i16;
type Big = i64;
type Flag = bool;
type MaybeFlag = Option<bool>;
type Text = String;
type Tags = Vec<String>;

/// pyfory's `SortOrder` (vector structs/sort_order/basic), with every primitive behind an
/// alias and the nested struct a type parameter: the derive cannot tell from the spelling
/// which fields are primitives, so the order must come from the types.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 134)]
struct SortOrderAliased<B> {
    #[fury(encoding = "fixed")]
    zed: Option<Int>,
    #[fury(rename = "userTags")]
    user_tags: Tags,
    #[fury(rename = "Zeta")]
    zeta: Int,
    item2: Text,
    alpha: Int,
    #[fury(rename = "Beta")]
    beta: B,
    #[fury(rename = "aZ")]
    a_z: Int,
    #[fury(rename = "maybeFlag")]
    maybe_flag: MaybeFlag,
    a_b: Int,
    #[fury(rename = "HTTPCode")]
    http_code: Short,
    color: Color,
    #[fury(rename = "getHTTP2Code")]
    get_http2_code: Short,
    item10: Text,
    #[fury(rename = "userId")]
    user_id: Option<Big>,
    #[fury(rename = "Mid")]
    mid: Int,
    #[fury(rename = "flagOn")]
    flag_on: Flag,
    #[fury(rename = "alphaBeta")]
    alpha_beta: BTreeMap<Text, Int>,
    #[fury(rename = "bigB", encoding = "fixed")]
    big_b: Big,
    #[fury(rename = "userName")]
    user_name: Text,
    #[fury(rename = "maybeCount")]
    maybe_count: Option<Int>,
}

const SORT_ORDER_BASIC: &str =
    "01ff1b86013d7265bef8ffffffffffffff9401c800010a08040c02ffffffffffff01ff54\
    fd01240104780e51a199ed0300000006020c6931300869320475010c0474";

fn same_schema() -> Fury {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Point>().unwrap();
    fury.register::<Color>().unwrap();
    fury
}

#[test]
fn aliases_and_a_type_parameter_are_ordered_by_their_types() {
    let mut fury = same_schema();
    fury.register::<SortOrderAliased<Point>>().unwrap();
    let value = SortOrderAliased {
        zed: Some(-1),
        user_tags: vec!["t".into()],
        zeta: 1,
        item2: "i2".into(),
        alpha: 2,
        beta: Point { x: 3, y: 3 },
        a_z: 4,
        maybe_flag: Some(true),
        a_b: 5,
        http_code: 200,
        color: Color::Blue,
        get_http2_code: 404,
        item10: "i10".into(),
        user_id: Some(42),
        mid: 6,
        flag_on: true,
        alpha_beta: BTreeMap::from([("x".to_string(), 7)]),
        big_b: -8,
        user_name: "u".into(),
        maybe_count: None,
    };
    let py = unhex(SORT_ORDER_BASIC);
    assert_eq!(fury.serialize(&value).unwrap(), py);
    assert_eq!(
        fury.deserialize::<SortOrderAliased<Point>>(&py).unwrap(),
        value
    );
}

/// A tuple struct whose fields take pyfory's names reads and writes pyfory's `Point`
/// (vector structs/point/basic).
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 100)]
struct PointTuple(
    #[fury(rename = "x")] i32,
    #[fury(rename = "y", encoding = "fixed")] i32,
);

#[test]
fn tuple_structs_with_renamed_fields_match_pyfory() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<PointTuple>().unwrap();
    let py = unhex("01ff1b6451a199ed0200000002");
    assert_eq!(fury.serialize(&PointTuple(1, 2)).unwrap(), py);
    assert_eq!(
        fury.deserialize::<PointTuple>(&py).unwrap(),
        PointTuple(1, 2)
    );
}

/// Transparent newtypes are written as their field: pyfory's `Point` again.
#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(transparent)]
struct Coord(i32);

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(transparent)]
struct FixedCoord {
    value: fury::Fixed<i32>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 100)]
struct PointOfNewtypes {
    x: Coord,
    y: FixedCoord,
}

#[test]
fn transparent_newtypes_are_written_as_their_field() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<PointOfNewtypes>().unwrap();
    let value = PointOfNewtypes {
        x: Coord(1),
        y: FixedCoord {
            value: fury::Fixed(2),
        },
    };
    let py = unhex("01ff1b6451a199ed0200000002");
    assert_eq!(fury.serialize(&value).unwrap(), py);
    assert_eq!(fury.deserialize::<PointOfNewtypes>(&py).unwrap(), value);
    // And as a root value: a VARINT32.
    let root = fury.serialize(&Coord(-3)).unwrap();
    assert_eq!(root, fury.serialize(&-3i32).unwrap());
    assert_eq!(fury.deserialize::<Coord>(&root).unwrap(), Coord(-3));
}

/// A unit struct is a struct without fields: pyfory's `Empty` (vector structs/empty/by_id).
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 136)]
struct Empty;

#[test]
fn unit_structs_match_pyfory_empty_struct() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Empty>().unwrap();
    let py = unhex("01ff1b88012f000000");
    assert_eq!(fury.serialize(&Empty).unwrap(), py);
    assert_eq!(fury.deserialize::<Empty>(&py).unwrap(), Empty);
}

/// Generic structs: each instantiation is registered on its own.
#[derive(FuryObject, Debug, Clone, PartialEq)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

#[test]
fn each_instantiation_of_a_generic_struct_is_a_type_of_its_own() {
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register::<Point>().unwrap();
        fury.register_by_name::<Page<Point>>("shop", "PointPage")
            .unwrap();
        fury.register_by_name::<Page<i64>>("shop", "IntPage")
            .unwrap();
        let points = Page {
            items: vec![Point { x: 1, y: 2 }],
            next: Some("p2".into()),
        };
        let ints = Page {
            items: vec![5i64, -6],
            next: None,
        };
        let a = fury.serialize(&points).unwrap();
        let b = fury.serialize(&ints).unwrap();
        assert_eq!(fury.deserialize::<Page<Point>>(&a).unwrap(), points);
        assert_eq!(fury.deserialize::<Page<i64>>(&b).unwrap(), ints);
        // The two instantiations have other names and schemas: neither reads the other.
        assert!(fury.deserialize::<Page<i64>>(&a).is_err());
        assert!(fury.deserialize::<Page<Point>>(&b).is_err());
    }
}

/// Recursive types through `Option<Box<_>>`.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 700)]
struct Node {
    value: i32,
    next: Option<Box<Node>>,
}

#[test]
fn recursive_types_round_trip() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Node>().unwrap();
    let list = Node {
        value: 1,
        next: Some(Box::new(Node {
            value: 2,
            next: Some(Box::new(Node {
                value: 3,
                next: None,
            })),
        })),
    };
    let bytes = fury.serialize(&list).unwrap();
    assert_eq!(fury.deserialize::<Node>(&bytes).unwrap(), list);
}

/// `Option<Option<T>>` has one null on the wire: `Some(None)` cannot be written rather than
/// coming back as `None`.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 701)]
struct Patch {
    value: Option<Option<i32>>,
}

#[test]
fn some_none_is_an_error_not_a_silent_none() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Patch>().unwrap();
    for v in [None, Some(Some(4))] {
        let bytes = fury.serialize(&Patch { value: v }).unwrap();
        assert_eq!(fury.deserialize::<Patch>(&bytes).unwrap().value, v);
    }
    let err = fury.serialize(&Patch { value: Some(None) }).unwrap_err();
    assert!(err.to_string().contains("Some(None)"), "{err}");
    let err = fury.serialize(&Some(None::<i32>)).unwrap_err();
    assert!(err.to_string().contains("Some(None)"), "{err}");
    let bytes = fury.serialize(&Some(Some(3i32))).unwrap();
    assert_eq!(
        fury.deserialize::<Option<Option<i32>>>(&bytes).unwrap(),
        Some(Some(3))
    );
}

/// A field of a type the user does not own, written through a conversion module.
mod ipv4_as_u32 {
    use std::net::Ipv4Addr;
    pub type Wire = u32;
    pub fn to_wire(a: &Ipv4Addr) -> u32 {
        u32::from(*a)
    }
    pub fn from_wire(w: u32) -> fury::Result<Ipv4Addr> {
        Ok(Ipv4Addr::from(w))
    }
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 702)]
struct Host {
    name: String,
    #[fury(with = "ipv4_as_u32")]
    addr: std::net::Ipv4Addr,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 702)]
struct HostAsInt {
    name: String,
    addr: u32,
}

#[test]
fn with_fields_are_written_as_their_wire_type() {
    for compatible in [false, true] {
        let mut a = Fury::builder().compatible(compatible).build();
        a.register::<Host>().unwrap();
        let mut b = Fury::builder().compatible(compatible).build();
        b.register::<HostAsInt>().unwrap();
        let host = Host {
            name: "db".into(),
            addr: std::net::Ipv4Addr::new(10, 0, 0, 7),
        };
        let bytes = a.serialize(&host).unwrap();
        assert_eq!(
            bytes,
            b.serialize(&HostAsInt {
                name: "db".into(),
                addr: 0x0a00_0007
            })
            .unwrap()
        );
        assert_eq!(a.deserialize::<Host>(&bytes).unwrap(), host);
    }
}

/// Fields a peer's TypeDef lacks take `#[fury(default)]` values in compatible mode.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Account")]
struct AccountV1 {
    id: i64,
}

fn seven() -> i32 {
    7
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Account")]
struct AccountV2 {
    id: i64,
    #[fury(default = "seven")]
    level: i32,
    #[fury(default)]
    note: String,
    tags: Vec<String>,
}

#[test]
fn defaults_fill_fields_the_peer_lacks() {
    let mut old = Fury::default();
    old.register::<AccountV1>().unwrap();
    let mut new = Fury::default();
    new.register::<AccountV2>().unwrap();
    let bytes = old.serialize(&AccountV1 { id: 9 }).unwrap();
    let v2: AccountV2 = new.deserialize(&bytes).unwrap();
    assert_eq!(
        v2,
        AccountV2 {
            id: 9,
            level: 7,
            note: String::new(),
            tags: vec![]
        }
    );
}

#[test]
fn errors_are_values_not_panics() {
    let fury = same_schema();
    let r: Result<Point, Error> = fury.deserialize(&[0x01, 0xff, 0x1b]);
    assert!(r.is_err());
}

/// The order model of a service, written the way a serde user writes it (aliases, a generic
/// page, a tuple struct, tuples, a fixed array, `usize`, `VecDeque`, `Arc<str>`, a `with`
/// field): the `orders` example, which round-trips it in both modes and asserts equality.
#[path = "../examples/orders.rs"]
#[allow(dead_code)]
mod orders;

#[test]
fn the_order_model_round_trips_in_both_modes() {
    orders::main().unwrap();
}
