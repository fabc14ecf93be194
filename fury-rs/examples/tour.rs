//! A short tour of the `fury` crate: `cargo run -q --release -p fury --example tour`.
//!
//! Every stream printed here is byte-for-byte what pyfory 1.7.7 writes for the same value
//! (checked by the conformance vectors in `conformance/`).

use fury::{Date, Duration, Fixed, Fury, FuryObject, Tagged, Timestamp, Value};
use std::collections::{BTreeMap, BTreeSet};

/// pyfory: `@dataclass class Point: x: pyfory.Int32; y: pyfory.Int32`, type_id=100
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 100)]
struct Point {
    x: i32,
    y: i32,
}

/// The same Person borrowing its text from the input: the same schema, so the same bytes.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
struct PersonRef<'a> {
    name: &'a str,
    nick: Option<&'a str>,
    home: Point,
    tags: Vec<&'a str>,
    age: u8,
}

/// pyfory: a dataclass registered with `name="demo.Person"`
#[derive(FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
struct Person {
    name: String,
    nick: Option<String>,
    home: Point,
    tags: Vec<String>,
    age: u8,
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show<T: fury::Serialize + ?Sized>(fury: &Fury, label: &str, v: &T) -> Vec<u8> {
    let bytes = fury.serialize(v).expect("serializable");
    println!("{label:<44} {}", hex(&bytes));
    bytes
}

fn main() -> Result<(), fury::Error> {
    let fury = Fury::builder().ref_tracking(false).compatible(true).build();

    println!("== Numbers: i32/i64 are varints by default; Fixed and Tagged pick other encodings");
    show(&fury, "300i32 (VARINT32, zigzag)", &300i32);
    show(&fury, "Fixed(300i32) (INT32)", &Fixed(300i32));
    show(&fury, "-1i64 (VARINT64)", &-1i64);
    show(&fury, "Tagged(1 << 40) (TAGGED_INT64)", &Tagged(1i64 << 40));
    show(&fury, "1.5f64 (FLOAT64)", &1.5f64);

    println!("\n== Strings: ASCII as LATIN1, anything else as UTF-8");
    show(&fury, "\"abc\"", "abc");
    show(&fury, "\"你好\"", "你好");

    println!("\n== Collections");
    show(
        &fury,
        "vec![\"a\", \"b\"] (LIST of STRING)",
        &vec!["a", "b"],
    );
    show(&fury, "vec![1i32, 2] (INT32_ARRAY, dense)", &vec![1i32, 2]);
    show(
        &fury,
        "vec![Some(1i64), None] (LIST, has-null)",
        &vec![Some(1i64), None],
    );
    let set: BTreeSet<i64> = [1, 2].into();
    show(&fury, "BTreeSet {1, 2} (SET)", &set);
    let mut map = BTreeMap::new();
    map.insert("a".to_string(), Some(1i64));
    map.insert("b".to_string(), None);
    let map_bytes = show(&fury, "{\"a\": 1, \"b\": None} (MAP, 2 chunks)", &map);
    let back: BTreeMap<String, Option<i64>> = fury.deserialize(&map_bytes)?;
    assert_eq!(back, map);

    println!("\n== Time");
    show(
        &fury,
        "Duration 1.000005 s",
        &Duration::new(1, 5_000).expect("valid"),
    );
    show(
        &fury,
        "Timestamp 2020-01-01T00:00:00Z",
        &Timestamp::new(1_577_836_800, 0).expect("valid"),
    );
    show(&fury, "Date 2020-01-01", &Date::from_days(18_262));

    println!("\n== Structs: #[derive(FuryObject)], fields in xlang order behind a schema hash");
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Point>()?.register::<Person>()?;
    show(
        &fury,
        "Point { x: 1, y: 2 } (STRUCT id 100)",
        &Point { x: 1, y: 2 },
    );
    let ada = Person {
        name: "Ada".into(),
        nick: None,
        home: Point { x: 3, y: 4 },
        tags: vec!["math".into()],
        age: 36,
    };
    let bytes = show(&fury, "Person (NAMED_STRUCT demo.Person)", &ada);
    assert_eq!(fury.deserialize::<Person>(&bytes)?, ada);

    println!("\n== Zero-copy: a struct with a lifetime reads its strings in place");
    let mut borrowing = Fury::builder().compatible(false).build();
    borrowing
        .register::<Point>()?
        .register::<PersonRef<'static>>()?;
    let view: PersonRef<'_> = borrowing.deserialize(&bytes)?;
    let inside = bytes.as_ptr_range().contains(&view.name.as_ptr());
    println!(
        "{:<44} name {:?} points into the input: {inside}",
        "PersonRef<'_> from the same bytes", view.name
    );
    assert!(inside);
    assert_eq!(
        borrowing.serialize(&view)?,
        bytes,
        "the same bytes as the owned Person"
    );

    println!("\n== Dynamic Value: decode any stream of built-in types without knowing its shape");
    // pyfory.Fory(xlang=True).serialize({"k": [1, "x", None]})
    let from_python = [
        0x01, 0xff, 0x18, 0x01, 0x00, 0x01, 0x15, 0x16, 0x04, 0x6b, 0x03, 0x02, 0xff, 0x07, 0x02,
        0xff, 0x15, 0x04, 0x78, 0xfd,
    ];
    let v: Value = fury.deserialize(&from_python)?;
    println!("{:<44} {v:?}", hex(&from_python));
    assert_eq!(fury.serialize(&v)?, from_python, "byte-exact round trip");

    println!("\n== Hostile input is an error, never a panic");
    for bad in [
        &[0x01, 0xff, 0x16, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08][..],
        &[0x05, 0xff],
        &[0x01, 0xff, 0x07, 0x80],
    ] {
        let err = fury.deserialize::<Value>(bad).unwrap_err();
        println!("{:<44} {err}", hex(bad));
    }
    Ok(())
}
