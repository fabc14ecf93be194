//! `#[derive(FuryObject)]` against bytes written by pyfory 1.7.7 (same-schema mode).
//!
//! The byte strings were produced by pyfory with `Fory(xlang=True, ref=False,
//! compatible=False)`; the Python definitions are in the comments.

use fury::{ErrorKind, Fury, FuryObject};

// @dataclass class Point: x: pyfory.Int32; y: pyfory.Int32   (registered with type_id=100)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 100)]
struct Point {
    x: i32,
    y: i32,
}

// class Color(Enum): RED = 1; GREEN = 2; BLUE = 7   (registered with type_id=101)
#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(id = 101)]
enum Color {
    #[fury(id = 1)]
    Red,
    #[fury(id = 2)]
    Green,
    #[fury(id = 7)]
    Blue,
}

fn fury() -> Fury {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Point>().unwrap();
    fury.register::<Color>().unwrap();
    fury
}

const POINT_1_2: [u8; 10] = [0x01, 0xff, 0x1b, 0x64, 0x68, 0x60, 0x8b, 0x24, 0x02, 0x04];

#[test]
fn struct_by_id_matches_pyfory() {
    let fury = fury();
    let p = Point { x: 1, y: 2 };
    assert_eq!(fury.serialize(&p).unwrap(), POINT_1_2);
    assert_eq!(fury.deserialize::<Point>(&POINT_1_2).unwrap(), p);
}

#[test]
fn list_of_structs_matches_pyfory() {
    let fury = fury();
    let pts = vec![Point { x: 1, y: 2 }, Point { x: 3, y: 4 }];
    let py = [
        0x01, 0xff, 0x16, 0x02, 0x08, 0x1b, 0x64, 0x68, 0x60, 0x8b, 0x24, 0x02, 0x04, 0x68, 0x60,
        0x8b, 0x24, 0x06, 0x08,
    ];
    assert_eq!(fury.serialize(&pts).unwrap(), py);
    assert_eq!(fury.deserialize::<Vec<Point>>(&py).unwrap(), pts);
}

#[test]
fn enum_by_id_matches_pyfory() {
    let fury = fury();
    let py = [0x01, 0xff, 0x19, 0x65, 0x02];
    assert_eq!(fury.serialize(&Color::Green).unwrap(), py);
    assert_eq!(fury.deserialize::<Color>(&py).unwrap(), Color::Green);
    for c in [Color::Red, Color::Blue] {
        assert_eq!(
            fury.deserialize::<Color>(&fury.serialize(&c).unwrap())
                .unwrap(),
            c
        );
    }
}

#[test]
fn bad_input_names_the_type_and_offset() {
    let fury = fury();
    // unknown enum id 3
    let e = fury
        .deserialize::<Color>(&[0x01, 0xff, 0x19, 0x65, 0x03])
        .unwrap_err();
    assert!(
        e.to_string().contains("Color") && e.offset() == Some(4),
        "{e}"
    );
    // wrong user type id
    let mut bytes = POINT_1_2;
    bytes[3] = 0x65;
    let e = fury.deserialize::<Point>(&bytes).unwrap_err();
    assert!(
        e.to_string().contains("Point") && e.offset() == Some(3),
        "{e}"
    );
    // schema hash mismatch
    let mut bytes = POINT_1_2;
    bytes[5] ^= 1;
    let e = fury.deserialize::<Point>(&bytes).unwrap_err();
    assert!(
        e.to_string().contains("schema hash") && e.offset() == Some(4),
        "{e}"
    );
    // truncated body
    let e = fury.deserialize::<Point>(&POINT_1_2[..9]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof { .. }), "{e}");
    // wrong kind
    let e = fury
        .deserialize::<Point>(&[0x01, 0xff, 0x19, 0x65, 0x02])
        .unwrap_err();
    assert!(e.to_string().contains("Point"), "{e}");
}

#[test]
fn unregistered_types_are_an_error_naming_them() {
    let fury = Fury::builder().compatible(false).build();
    let e = fury.serialize(&Point { x: 1, y: 2 }).unwrap_err();
    assert!(e.to_string().contains("Point"), "{e}");
    let e = fury.deserialize::<Point>(&POINT_1_2).unwrap_err();
    assert!(e.to_string().contains("Point"), "{e}");
}

// @dataclass class Foo: a: int; b: str; c: Optional[str]; d: List[int]; e: Dict[str, int];
//     f: Point          (registered with name="demo.Foo")
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Foo")]
struct Foo {
    a: i64,
    b: String,
    c: Option<String>,
    d: fury::List<i64>,
    e: std::collections::HashMap<String, i64>,
    f: Point,
}

#[test]
fn named_struct_with_mixed_fields_matches_pyfory() {
    let mut fury = fury();
    fury.register::<Foo>().unwrap();
    let foo = Foo {
        a: 1,
        b: "x".into(),
        c: None,
        d: fury::List(vec![1, 2]),
        e: [("k".to_string(), 3)].into(),
        f: Point { x: 3, y: 4 },
    };
    let py = [
        0x01, 0xff, 0x1d, 0x06, 0x01, 0x0c, 0x8c, 0x70, 0x04, 0x03, 0x15, 0xce, 0x75, 0xbe, 0xe1,
        0x9f, 0x02, 0x04, 0x78, 0xfd, 0x02, 0x0c, 0x02, 0x04, 0x01, 0x24, 0x01, 0x04, 0x6b, 0x06,
        0x68, 0x60, 0x8b, 0x24, 0x06, 0x08,
    ];
    assert_eq!(fury.deserialize::<Foo>(&py).unwrap(), foo);
    assert_eq!(fury.serialize(&foo).unwrap(), py);
}

#[test]
fn a_bad_hash_inside_a_list_of_structs_is_found_at_its_offset() {
    // Lists of structs are read as a run (set-up once); each element's hash is still
    // checked, and an element cut short is still an error.
    let fury = fury();
    let points: Vec<Point> = (0..4).map(|i| Point { x: i, y: -i }).collect();
    let bytes = fury.serialize(&points).unwrap();
    assert_eq!(fury.deserialize::<Vec<Point>>(&bytes).unwrap(), points);
    let first_hash = bytes
        .windows(4)
        .position(|w| w == &bytes[bytes.len() - 6..bytes.len() - 2])
        .unwrap();
    // Every element is 4 hash bytes and two one-byte varints.
    let third = first_hash + 2 * 6;
    let mut bad = bytes.clone();
    bad[third] ^= 0x55;
    let e = fury.deserialize::<Vec<Point>>(&bad).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    assert_eq!(e.offset(), Some(third));
    for cut in 1..bytes.len() {
        assert!(
            fury.deserialize::<Vec<Point>>(&bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
}

// The root of a derived struct has its own read path for the NOT_NULL flag (0xff); every
// other flag takes the general one. pyfory with ref=True writes the root of POINT_1_2 with
// REF_VALUE (0x00) instead.
#[test]
fn every_root_flag_of_a_struct_is_read_or_rejected() {
    let fury = fury();
    let p = Point { x: 1, y: 2 };
    let mut tracked = POINT_1_2;
    tracked[1] = 0x00;
    assert_eq!(fury.deserialize::<Point>(&tracked).unwrap(), p);
    // NULL: a Point cannot be null.
    let e = fury.deserialize::<Point>(&[0x01, 0xfd]).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::UnexpectedNull { .. }) && e.to_string().contains("Point"),
        "{e}"
    );
    // REF to a value never read.
    let e = fury.deserialize::<Point>(&[0x01, 0xfe, 0x00]).unwrap_err();
    assert_eq!(e.offset(), Some(2), "{e}");
    // Not a flag at all.
    let e = fury.deserialize::<Point>(&[0x01, 0x05]).unwrap_err();
    assert_eq!(e.offset(), Some(1), "{e}");
    // Cut right after the header, and after the flag.
    for cut in [1, 2] {
        let e = fury.deserialize::<Point>(&POINT_1_2[..cut]).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::UnexpectedEof { .. }),
            "{cut}: {e}"
        );
    }
    // As a field of Option (nullable root), NULL is None.
    assert_eq!(
        fury.deserialize::<Option<Point>>(&[0x01, 0xfd]).unwrap(),
        None
    );
}
