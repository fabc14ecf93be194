//! Compatible mode (TypeDef metadata) against bytes written by pyfory 1.7.7 with
//! `Fory(xlang=True, ref=False, compatible=True)`; the Python definitions are in comments.

use fury::{Fury, FuryObject, Value};
use std::collections::HashMap;

fn unhex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

// @dataclass class Point: x: pyfory.Int32; y: pyfory.Int32      (type_id=100)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 100)]
struct Point {
    x: i32,
    y: i32,
}

// @dataclass class Person: name: str; nick: Optional[str]; home: Point; tags: List[str];
//     age: pyfory.UInt8                                           (name="demo.Person")
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
struct Person {
    name: String,
    nick: Option<String>,
    home: Point,
    tags: Vec<String>,
    age: u8,
}

// class Color(Enum): RED = 0; GREEN = 1                           (type_id=101)
#[derive(FuryObject, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[fury(id = 101)]
enum Color {
    Red,
    Green,
}

// class Shade(Enum): LIGHT = 0; DARK = 1                          (name="demo.Shade")
#[derive(FuryObject, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[fury(namespace = "demo", name = "Shade")]
enum Shade {
    Light,
    Dark,
}

// @dataclass class Holder: c: Color; s: Shade; p: Point; ps: List[Point];
//     m: Dict[str, Point]; op: Optional[Point]                    (type_id=102)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 102)]
struct Holder {
    c: Color,
    s: Shade,
    p: Point,
    ps: Vec<Point>,
    m: HashMap<String, Point>,
    op: Option<Point>,
}

const POINT: &str = "01 ff 1c 00 08 b0 cd 7c 24 8d af 6d c2 64 40 05 5c 40 05 60 02 04";
const PERSON: &str = "01 ff 1e 00 23 90 7d 35 9c af a0 67 e5 0d 0c 8c 70 13 3c 91 93 9a 44 09 00 c4 48 1c 1d cc 20 48 15 34 0c 20 4a 15 35 02 50 48 16 54 4c 06 90 24 1c 02 08 b0 cd 7c 24 8d af 6d c2 64 40 05 5c 40 05 60 06 08 0c 41 64 61 fd 01 0c 10 6d 61 74 68";
const SHADE_DARK: &str = "01 ff 1a 00 0a a0 f2 de da 13 00 0d 01 0d 0c 8c 70 13 c8 e0 19 00 01";
const HOLDER: &str = "01 ff 1c 00 19 e0 29 c2 7c 2c 8b 75 c6 66 40 19 08 40 18 54 70 30 46 1c b9 e0 40 1c 3c 44 16 70 be 40 40 19 48 01 01 04 01 1c 02 08 b0 cd 7c 24 8d af 6d c2 64 40 05 5c 40 05 60 04 6b 0a 0c fd 1c 03 02 04 01 08 1c 03 06 08 01";

fn fury() -> Fury {
    let mut f = Fury::builder().compatible(true).build();
    f.register::<Point>().unwrap();
    f.register::<Person>().unwrap();
    f.register::<Color>().unwrap();
    f.register::<Shade>().unwrap();
    f.register::<Holder>().unwrap();
    f
}

#[test]
fn struct_by_id_matches_pyfory() {
    let fury = fury();
    let p = Point { x: 1, y: 2 };
    assert_eq!(fury.deserialize::<Point>(&unhex(POINT)).unwrap(), p);
    assert_eq!(fury.serialize(&p).unwrap(), unhex(POINT));
}

#[test]
fn named_struct_with_nested_struct_matches_pyfory() {
    let fury = fury();
    let p = Person {
        name: "Ada".into(),
        nick: None,
        home: Point { x: 3, y: 4 },
        tags: vec!["math".into()],
        age: 36,
    };
    assert_eq!(fury.deserialize::<Person>(&unhex(PERSON)).unwrap(), p);
    assert_eq!(fury.serialize(&p).unwrap(), unhex(PERSON));
}

#[test]
fn named_enum_carries_a_typedef() {
    let fury = fury();
    assert_eq!(
        fury.deserialize::<Shade>(&unhex(SHADE_DARK)).unwrap(),
        Shade::Dark
    );
    assert_eq!(fury.serialize(&Shade::Dark).unwrap(), unhex(SHADE_DARK));
}

#[test]
fn enums_structs_lists_and_maps_of_structs_match_pyfory() {
    let fury = fury();
    let h = Holder {
        c: Color::Green,
        s: Shade::Dark,
        p: Point { x: 1, y: 2 },
        ps: vec![Point { x: 3, y: 4 }],
        m: [("k".to_string(), Point { x: 5, y: 6 })].into(),
        op: None,
    };
    assert_eq!(fury.deserialize::<Holder>(&unhex(HOLDER)).unwrap(), h);
    assert_eq!(fury.serialize(&h).unwrap(), unhex(HOLDER));
}

#[test]
fn unregistered_structs_decode_as_values_with_field_names() {
    let fury = Fury::builder().compatible(true).build();
    let v: Value = fury.deserialize(&unhex(PERSON)).unwrap();
    let Value::Struct(s) = v else {
        panic!("expected a struct, got {v:?}")
    };
    assert_eq!(s.type_name, "demo.Person");
    assert_eq!(s.get("name"), Some(&Value::String("Ada".into())));
    assert_eq!(s.get("age"), Some(&Value::UInt8(36)));
    assert_eq!(s.get("nick"), Some(&Value::Null));
    let Some(Value::Struct(home)) = s.get("home") else {
        panic!("home is not a struct: {s:?}")
    };
    assert_eq!(home.type_name, "#100");
    assert_eq!(home.get("x"), Some(&Value::VarInt32(3)));
}

#[test]
fn the_second_message_of_a_schema_parses_no_typedef() {
    let fury = fury();
    assert_eq!(fury.typedef_cache().len(), 0);
    // pyfory's TypeDefs are byte for byte the local ones: recognised by comparison, so
    // nothing is parsed or cached.
    fury.deserialize::<Person>(&unhex(PERSON)).unwrap();
    assert_eq!(fury.typedef_cache().len(), 0);
    // Read as dynamic values they must be parsed: once, then taken from the cache.
    let first: Value = fury.deserialize(&unhex(PERSON)).unwrap();
    assert_eq!(fury.typedef_cache().len(), 2, "Person and Point");
    let second: Value = fury.deserialize(&unhex(PERSON)).unwrap();
    assert_eq!(fury.typedef_cache().len(), 2);
    assert_eq!(first, second);
}

/// Builds a stream `01 ff 1c 00 <typedef>` around a TypeDef body, with a correct header.
fn stream_with_body(body: &[u8]) -> Vec<u8> {
    // Reuse the library's encoder for the header by encoding a body-compatible TypeDef is not
    // possible for arbitrary bodies, so compute the header the way the format defines it.
    let low = (body.len() as u64).min(0xff);
    let mut input = body.to_vec();
    input.push(low as u8);
    input.push(0);
    let (h1, _) = fury::meta::murmur3_x64_128(&input, 47);
    let shifted = (h1 << 12) as i64;
    let positive = if shifted != i64::MIN && shifted < 0 {
        -shifted
    } else {
        shifted
    };
    let header = (positive as u64 & !((1u64 << 12) - 1)) | low;
    let mut out = vec![0x01, 0xff, 0x1c, 0x00];
    out.extend_from_slice(&header.to_le_bytes());
    if body.len() >= 0xff {
        let mut rest = Vec::new();
        fury::wire::Writer::new(&mut rest).var_u32((body.len() - 0xff) as u32);
        out.extend(rest);
    }
    out.extend_from_slice(body);
    out
}

#[test]
fn hostile_typedefs_are_errors() {
    let fury = fury();
    // A wrong hash.
    let mut bad = unhex(POINT);
    bad[6] ^= 0x10;
    assert!(fury.deserialize::<Point>(&bad).is_err());
    assert!(fury.deserialize::<Value>(&bad).is_err());
    // A size running past the input.
    let mut bad = unhex(POINT);
    bad[4] = 0x40;
    let e = fury.deserialize::<Value>(&bad).unwrap_err();
    assert!(e.to_string().contains("TypeDef"), "{e}");
    // 10 000 declared fields (meta header count 31 + varuint32 9969).
    let mut body = vec![0xdf, 0xf1, 0x4d, 0x64];
    body.extend(std::iter::repeat_n(0u8, 64));
    let e = fury
        .deserialize::<Value>(&stream_with_body(&body))
        .unwrap_err();
    assert!(e.to_string().contains("field count"), "{e}");
    // An unknown kind code.
    let e = fury
        .deserialize::<Value>(&stream_with_body(&[0x07, 0x64]))
        .unwrap_err();
    assert!(e.to_string().contains("kind code"), "{e}");
    // Deeply nested field types: list<list<list<...>>> beyond the limit.
    let mut body = vec![0xc1, 0x64, 0x40, 0x16];
    body.extend(std::iter::repeat_n(0x58u8, 40)); // nested LIST << 2
    body.push(0x14); // STRING << 2
    body.push(0x08); // name "c"
    let e = fury
        .deserialize::<Value>(&stream_with_body(&body))
        .unwrap_err();
    assert!(
        matches!(e.kind(), fury::ErrorKind::DepthLimit { .. }),
        "{e}"
    );
    // A back reference to a TypeDef never sent.
    let e = fury
        .deserialize::<Value>(&[0x01, 0xff, 0x1c, 0x03, 0x02, 0x04])
        .unwrap_err();
    assert!(e.to_string().contains("back reference"), "{e}");
    // Limits are configurable.
    let strict = Fury::builder().compatible(true).max_typedef_size(8).build();
    assert!(strict.deserialize::<Value>(&unhex(PERSON)).is_err());
}

#[test]
fn the_cache_stays_bounded() {
    let fury = Fury::builder()
        .compatible(true)
        .typedef_cache_entries(3)
        .build();
    for id in 0..20u8 {
        // distinct one-field TypeDefs registered by id `id`
        let body = [0xc1, id, 0x40, 0x05, 0x5c];
        let mut s = stream_with_body(&body);
        s.push(0x02);
        let v: Value = fury.deserialize(&s).unwrap();
        assert!(matches!(v, Value::Struct(_)));
    }
    assert_eq!(fury.typedef_cache().len(), 3);
    // The newest are kept: the cache is never full for good (issue 29 item 2). The last
    // TypeDef read is cached, so reading it again parses nothing new.
    let body = [0xc1, 19, 0x40, 0x05, 0x5c];
    let mut s = stream_with_body(&body);
    s.push(0x02);
    let _: Value = fury.deserialize(&s).unwrap();
    assert_eq!(fury.typedef_cache().len(), 3);
}

#[test]
fn the_cache_is_bounded_in_bytes_and_evicts_the_oldest() {
    let probe = Fury::builder().compatible(true).build();
    let one = {
        let mut s = stream_with_body(&[0xc1, 0, 0x40, 0x05, 0x5c]);
        s.push(0x02);
        let _: Value = probe.deserialize(&s).unwrap();
        probe.typedef_cache().bytes()
    };
    assert!(one > 0);
    let fury = Fury::builder()
        .compatible(true)
        .typedef_cache_bytes(one * 4)
        .build();
    for id in 0..50u8 {
        let mut s = stream_with_body(&[0xc1, id, 0x40, 0x05, 0x5c]);
        s.push(0x02);
        let _: Value = fury.deserialize(&s).unwrap();
        assert!(fury.typedef_cache().bytes() <= one * 4);
    }
    assert_eq!(fury.typedef_cache().len(), 4);
}

#[test]
fn mutated_compatible_streams_never_panic() {
    let fury = fury();
    for s in [POINT, PERSON, SHADE_DARK, HOLDER] {
        let bytes = unhex(s);
        for cut in 0..bytes.len() {
            assert!(fury.deserialize::<Value>(&bytes[..cut]).is_err());
            let _ = fury.deserialize::<Holder>(&bytes[..cut]);
        }
        for i in 0..bytes.len() {
            for m in [0x00u8, 0x01, 0x7f, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= m;
                let _ = fury.deserialize::<Value>(&b);
                let _ = fury.deserialize::<Person>(&b);
                let _ = fury.deserialize::<Holder>(&b);
                let _ = fury.deserialize::<Shade>(&b);
            }
        }
    }
}

mod local_then_dynamic {
    use super::*;

    #[derive(FuryObject, Debug, Clone, PartialEq)]
    #[fury(id = 200)]
    pub struct Pair {
        pub first: Point,
        pub second: Point,
    }

    #[derive(FuryObject, Debug, Clone, PartialEq)]
    #[fury(id = 200)]
    pub struct LoosePair {
        pub first: Point,
        pub second: Value,
    }

    #[test]
    fn a_local_typedef_named_again_by_a_dynamic_field_is_parsed_then() {
        // The writer announces Point's TypeDef once and names it again by index; the reader
        // recognises the first as its local TypeDef, and must still be able to give the
        // dynamic `second` field the parsed definition behind the back reference.
        let mut writer = Fury::builder().compatible(true).build();
        writer.register::<Point>().unwrap();
        writer.register::<Pair>().unwrap();
        let p = Pair {
            first: Point { x: 1, y: 2 },
            second: Point { x: 3, y: 4 },
        };
        let bytes = writer.serialize(&p).unwrap();
        assert_eq!(writer.deserialize::<Pair>(&bytes).unwrap(), p);

        let mut reader = Fury::builder().compatible(true).build();
        reader.register::<Point>().unwrap();
        reader.register::<LoosePair>().unwrap();
        let loose: LoosePair = reader.deserialize(&bytes).unwrap();
        assert_eq!(loose.first, p.first);
        let Value::Struct(s) = &loose.second else {
            panic!("expected a struct value, got {:?}", loose.second)
        };
        assert_eq!(s.get("x"), Some(&Value::VarInt32(3)));
        assert_eq!(s.get("y"), Some(&Value::VarInt32(4)));
    }
}

mod many_local_typedefs {
    use super::*;

    macro_rules! leaf {
        ($($name:ident = $id:literal),*) => {$(
            #[derive(FuryObject, Debug, Clone, PartialEq, Default)]
            #[fury(id = $id)]
            pub struct $name {
                pub v: i32,
                pub s: String,
            }
        )*};
    }
    leaf!(L1 = 301, L2 = 302, L3 = 303, L4 = 304, L5 = 305, L6 = 306);

    #[derive(FuryObject, Debug, Clone, PartialEq, Default)]
    #[fury(id = 300)]
    pub struct Many {
        pub a: L1,
        pub b: L2,
        pub c: L3,
        pub d: L4,
        pub e: L5,
        pub f: Vec<L6>,
        pub again: Vec<L1>,
    }

    #[test]
    fn more_local_typedefs_than_kept_inline_and_back_references_to_them() {
        let mut fury = Fury::builder().compatible(true).build();
        fury.register::<L1>().unwrap();
        fury.register::<L2>().unwrap();
        fury.register::<L3>().unwrap();
        fury.register::<L4>().unwrap();
        fury.register::<L5>().unwrap();
        fury.register::<L6>().unwrap();
        fury.register::<Many>().unwrap();
        let leaf = |v: i32| (v, format!("s{v}"));
        let m = Many {
            a: L1 { v: 1, s: leaf(1).1 },
            b: L2 { v: 2, s: leaf(2).1 },
            c: L3 { v: 3, s: leaf(3).1 },
            d: L4 { v: 4, s: leaf(4).1 },
            e: L5 { v: 5, s: leaf(5).1 },
            f: vec![L6 { v: 6, s: leaf(6).1 }, L6 { v: 7, s: leaf(7).1 }],
            again: vec![L1 { v: 8, s: leaf(8).1 }, L1 { v: 9, s: leaf(9).1 }],
        };
        let bytes = fury.serialize(&m).unwrap();
        for _ in 0..3 {
            assert_eq!(fury.deserialize::<Many>(&bytes).unwrap(), m);
        }
        // Read dynamically too: every TypeDef then has to be parsed.
        let v: Value = fury.deserialize(&bytes).unwrap();
        let Value::Struct(s) = v else {
            panic!("expected a struct")
        };
        assert_eq!(s.fields.len(), 7);
    }
}

/// A peer that declares a `Vec<i32>` field as LIST (as the official crate does) and one that
/// declares it as INT32_ARRAY (pyfory, fury-rs) read each other's streams in compatible mode.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Series")]
struct SeriesAsList {
    values: fury::List<i32>,
    flags: fury::List<bool>,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Series")]
struct SeriesAsArray {
    values: Vec<i64>,
    flags: Vec<bool>,
}

#[test]
fn a_list_field_and_a_dense_array_field_read_each_other() {
    let mut a = Fury::default();
    a.register::<SeriesAsList>().unwrap();
    let mut b = Fury::default();
    b.register::<SeriesAsArray>().unwrap();
    let list = SeriesAsList {
        values: fury::List(vec![1, -2, i32::MAX]),
        flags: fury::List(vec![true, false]),
    };
    let array: SeriesAsArray = b.deserialize(&a.serialize(&list).unwrap()).unwrap();
    assert_eq!(array.values, [1, -2, i32::MAX as i64]);
    assert_eq!(array.flags, [true, false]);
    // Back: the INT64_ARRAY field into a LIST of i64 (a dense array is read as the array of
    // the local element type; widening applies to LIST elements only).
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(namespace = "demo", name = "Series")]
    struct SeriesAsList64 {
        values: fury::List<i64>,
        flags: fury::List<bool>,
    }
    let mut c = Fury::default();
    c.register::<SeriesAsList64>().unwrap();
    let back: SeriesAsList64 = c.deserialize(&b.serialize(&array).unwrap()).unwrap();
    assert_eq!(back.values.0, [1, -2, i32::MAX as i64]);
    assert_eq!(back.flags.0, [true, false]);
}

/// A Vec<Vec<u16>> field (a LIST of UINT16_ARRAY, as pyfory declares `List[UInt16Array]`)
/// against a peer's LIST of LIST of UINT16 (the official crate's declaration of the same Rust
/// field): the element type differs below the field, so the TypeDef is refused before a value
/// is read, as pyfory refuses it. The inner lists are written with DECL_TYPE and would
/// otherwise be taken for dense arrays.
#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 232)]
struct NestedPath {
    path: Vec<Vec<u16>>,
    n: i32,
}

/// One level below the field, a LIST of a primitive and its dense array read as one another
/// (spec 08 8.7, a MAY row: pyfory refuses the pair; the official crate declares
/// `Vec<Vec<u16>>` as LIST<LIST<UINT16>>).
#[test]
fn a_list_of_lists_reads_into_a_list_of_dense_arrays() {
    let mut fury = Fury::default();
    fury.register::<NestedPath>().unwrap();
    // pyfory 1.7.7, vector compat/evolution/incompatible/nested_element_type/v1_to_v2:
    // {path: [[6, 7, 8], []], n: 1} with path: List[List[pyfory.UInt16]]
    let bytes = unhex("01 ff 1c 00 0d 90 ed 12 cb a1 9f 0e c2 e8 01 40 05 34 48 16 58 28 3c 13 38 02 02 0c 03 0c 06 00 07 00 08 00 00");
    let got = fury.deserialize::<NestedPath>(&bytes).unwrap();
    assert_eq!(
        got,
        NestedPath {
            path: vec![vec![6, 7, 8], vec![]],
            n: 1
        }
    );
    // an inner list one element short of its count is an error, not a panic
    let cut = &bytes[..bytes.len() - 3];
    assert!(fury.deserialize::<NestedPath>(cut).is_err());
}

/// Two levels down nothing converts: LIST<LIST<LIST<UINT16>>> is not LIST<LIST<UINT16_ARRAY>>.
#[test]
fn a_changed_element_type_two_levels_down_is_refused_by_the_typedef() {
    #[derive(FuryObject, Debug, PartialEq, Default)]
    #[fury(id = 234)]
    struct Deep {
        path: Vec<Vec<fury::List<u16>>>,
    }
    #[derive(FuryObject, Debug, PartialEq, Default)]
    #[fury(id = 234)]
    struct DeepArrays {
        path: Vec<Vec<Vec<u16>>>,
    }
    let mut w = Fury::builder().compatible(true).build();
    w.register::<Deep>().unwrap();
    let mut r = Fury::builder().compatible(true).build();
    r.register::<DeepArrays>().unwrap();
    let bytes = w
        .serialize(&Deep {
            path: vec![vec![fury::List(vec![1, 2])]],
        })
        .unwrap();
    let err = r.deserialize::<DeepArrays>(&bytes).unwrap_err().to_string();
    assert!(
        err.contains("LIST<LIST<UINT16_ARRAY>>") && err.contains("LIST<LIST<LIST<UINT16>>>"),
        "{err}"
    );
}

/// A LIST of VARINT64 read into a local INT32_ARRAY field: the two varints share their
/// encoding, so a value that fits converts and one that does not is an error.
#[test]
fn a_list_of_wider_varints_into_a_dense_array_is_range_checked() {
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 233)]
    struct Wide {
        items: fury::List<i64>,
    }
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 233)]
    struct Narrow {
        items: Vec<i32>,
    }
    let mut w = Fury::default();
    w.register::<Wide>().unwrap();
    let mut n = Fury::default();
    n.register::<Narrow>().unwrap();
    let fits = w
        .serialize(&Wide {
            items: fury::List(vec![-3, i32::MAX as i64]),
        })
        .unwrap();
    assert_eq!(
        n.deserialize::<Narrow>(&fits).unwrap().items,
        [-3, i32::MAX]
    );
    for big in [i32::MAX as i64 + 1, 1 << 33, i64::MIN] {
        let bytes = w
            .serialize(&Wide {
                items: fury::List(vec![big]),
            })
            .unwrap();
        assert!(n.deserialize::<Narrow>(&bytes).is_err(), "{big}");
    }
}

// @dataclass class Empty: pass                                    (type_id=136)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 136)]
struct Empty {}

/// pyfory writes a list of empty compatible structs as one type info and bare payloads of
/// no bytes: 40 elements in 18 bytes. The element count is more than the bytes left, which
/// the reader allows for such runs up to a fixed number per stream.
#[test]
fn a_list_of_empty_structs_holds_more_elements_than_bytes() {
    // pyfory: fory.serialize([Empty()] * 40)
    let bytes = unhex("01 ff 16 28 08 1c 00 03 a0 45 73 a6 22 89 71 c0 88 01");
    let mut fury = Fury::builder().compatible(true).build();
    fury.register::<Empty>().unwrap();
    let v: Vec<Empty> = fury.deserialize(&bytes).unwrap();
    assert_eq!(v.len(), 40);
    let dynamic: Value = fury.deserialize(&bytes).unwrap();
    assert!(
        matches!(&dynamic, Value::List(items) if items.len() == 40),
        "{dynamic:?}"
    );
    // Our bytes are pyfory's.
    assert_eq!(fury.serialize(&v).unwrap(), bytes);
    // The allowance is bounded: a count far beyond the bytes is refused before anything is
    // reserved for it.
    let mut huge = bytes.clone();
    huge.splice(3..4, [0xff, 0xff, 0xff, 0x0f]);
    let e = fury.deserialize::<Vec<Empty>>(&huge).unwrap_err();
    assert!(e.to_string().contains("elements"), "{e}");
}

// @dataclass class Inner: a: pyfory.Int32 = 0                      (type_id=200)
// @dataclass class Outer: inner: Inner = None; n: pyfory.Int32 = 0 (type_id=201)
#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(id = 200)]
struct Inner {
    a: i32,
}

#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(id = 201)]
struct Outer {
    inner: Option<Inner>,
    n: i32,
}

/// pyfory does not check a field's value against the field's type: `Outer(inner=5)` writes
/// the INT64 type info and payload of 5 where the TypeDef declares a struct, and pyfory reads
/// it back as `Outer(inner=5)`. fury-rs refuses it, typed and as a `Value`: a `Value` read
/// from it could not be written by the TypeDef it names.
#[test]
fn a_value_of_another_type_than_its_typedef_declares_is_refused() {
    // pyfory: fory.serialize(Outer(Inner(7), 3)), then fory.serialize(Outer(5, 3))
    let good = unhex(
        "01 ff 1c 00 0c f0 f4 d9 cf 74 f2 49 c2 c9 01 40 05 34 4c 1c a1 ad 24 40 06 1c 02 06 \
         70 78 da 1e 9c fc 48 c1 c8 01 40 05 00 0e",
    );
    let bad =
        unhex("01 ff 1c 00 0c f0 f4 d9 cf 74 f2 49 c2 c9 01 40 05 34 4c 1c a1 ad 24 40 06 07 0a");
    let mut fury = Fury::builder().compatible(true).build();
    fury.register::<Inner>().unwrap();
    fury.register::<Outer>().unwrap();
    let v: Outer = fury.deserialize(&good).unwrap();
    assert_eq!(
        v,
        Outer {
            inner: Some(Inner { a: 7 }),
            n: 3
        }
    );
    assert!(fury.deserialize::<Value>(&good).is_ok());
    assert!(fury.deserialize::<Outer>(&bad).is_err());
    let plain = Fury::builder().compatible(true).build();
    let e = plain.deserialize::<Value>(&bad).unwrap_err();
    assert!(
        e.to_string()
            .contains("INT64 value where the TypeDef declares"),
        "{e}"
    );
}
