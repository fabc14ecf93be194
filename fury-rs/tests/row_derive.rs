//! `#[derive(FuryRow)]` beyond the conformance vectors: generics, `Box`, `HashMap`, time
//! types, the attributes, raw identifiers, and the layout of small rows byte by byte (the
//! layouts are the ones pyfory 1.7.7 writes, see conformance/vectors/rows).

use std::collections::HashMap;

use fury::row::{FuryRow, RowArray};
use fury::{Date, Duration, ErrorKind, Timestamp};

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Pair<T> {
    left: T,
    right: Option<T>,
}

#[derive(FuryRow, Debug, PartialEq)]
#[fury_row(view = "EventView")]
struct Event {
    at: Timestamp,
    took: Duration,
    day: Date,
    r#type: String,
    attrs: HashMap<String, Vec<u8>>,
    next: Option<Box<Event>>,
}

#[test]
fn generic_struct() {
    let p = Pair::<i32> {
        left: 1,
        right: None,
    };
    let bytes = p.to_row();
    // bitmap (field 1 null), left = 1 at 4 bytes, right's slot zero
    assert_eq!(
        bytes,
        [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    let v = Pair::<i32>::view_row(&bytes).unwrap();
    assert_eq!((v.left(), v.right()), (1, None));
    let q = Pair::<String> {
        left: "ab".into(),
        right: Some("c".into()),
    };
    assert_eq!(Pair::<String>::from_row(&q.to_row()).unwrap(), q);
    // a Pair<String> needs an offset and size in `left`'s slot: 1 is no such pair
    assert!(Pair::<String>::view_row(&bytes).is_err());
}

#[test]
fn time_types_box_hashmap_raw_ident() {
    let e = Event {
        at: Timestamp::new(-1, 999_999_000).unwrap(),
        took: Duration::new(3, 500_000_000).unwrap(),
        day: Date::from_days(-1),
        r#type: "click".into(),
        attrs: HashMap::from([("k".to_string(), vec![1, 2])]),
        next: Some(Box::new(Event {
            at: Timestamp::new(0, 0).unwrap(),
            took: Duration::default(),
            day: Date::from_days(0),
            r#type: String::new(),
            attrs: HashMap::new(),
            next: None,
        })),
    };
    let bytes = e.to_row();
    // microseconds in the slots, days as int32
    assert_eq!(bytes[8..16], (-1i64).to_le_bytes());
    assert_eq!(bytes[16..24], 3_500_000i64.to_le_bytes());
    assert_eq!(bytes[24..32], [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    let v: EventView<'_> = Event::view_row(&bytes).unwrap();
    assert_eq!(v.r#type(), "click");
    assert_eq!(v.attrs().get(0), Some(("k", &[1u8, 2][..])));
    assert_eq!(v.next().map(|n| n.r#type()), Some(""));
    assert_eq!(Event::from_row(&bytes).unwrap(), e);
    // sub-microsecond parts are dropped toward negative infinity
    let t = Pair {
        left: Timestamp::new(0, 1_999).unwrap(),
        right: Some(Timestamp::new(-1, 999_999_999).unwrap()),
    };
    let back = Pair::<Timestamp>::from_row(&t.to_row()).unwrap();
    assert_eq!(back.left, Timestamp::new(0, 1_000).unwrap());
    assert_eq!(back.right, Some(Timestamp::new(-1, 999_999_000).unwrap()));
}

#[test]
fn out_of_range_values_are_errors() {
    let p = Pair {
        left: Date::from_days(i64::from(i32::MAX) + 1),
        right: None,
    };
    let e = p.try_to_row().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    let mut buf = vec![9];
    assert!(p.write_row(&mut buf).is_err());
    assert_eq!(buf, [9], "a failed write leaves the buffer as it was");
}

#[test]
fn errors_name_the_field_and_offset() {
    let q = Pair::<Vec<String>> {
        left: vec!["ok".into(), "\u{e9}".into()],
        right: None,
    };
    let mut bytes = q.to_row();
    let at = bytes.len() - 8; // "é" is the last value, padded to 8 bytes
    bytes[at + 1] = 0xff; // no longer UTF-8
    let e = Pair::<Vec<String>>::view_row(&bytes).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "left[1]"),
        "{e}"
    );
    assert_eq!(e.offset(), Some(at));
    assert_eq!(
        e.to_string(),
        format!("invalid row at `left[1]`: a string that is not UTF-8 (at byte offset {at})")
    );
}

#[test]
fn arrays_of_every_width() {
    #[derive(FuryRow, Debug, PartialEq)]
    struct All {
        b: Vec<bool>,
        i8: Vec<i8>,
        i16: Vec<i16>,
        f32: Vec<f32>,
        f64: Vec<Option<f64>>,
    }
    let a = All {
        b: vec![true, false, true],
        i8: vec![-1; 9],
        i16: vec![-2; 5],
        f32: vec![0.5; 3],
        f64: vec![None, Some(1.0)],
    };
    let bytes = a.to_row();
    let v = All::view_row(&bytes).unwrap();
    let b: RowArray<'_, bool> = v.b();
    // count, bitmap, 3 one-byte elements padded to 8
    assert_eq!(
        b.as_bytes(),
        [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    );
    assert_eq!(v.i16().as_bytes().len(), 16 + 16);
    assert_eq!(v.f64().get(0), Some(None));
    assert_eq!(All::from_row(&bytes).unwrap(), a);
    // a bool that is neither 0 nor 1
    let mut bad = bytes.clone();
    let pos = bytes.windows(24).position(|w| w == b.as_bytes()).unwrap();
    bad[pos + 17] = 2;
    let e = All::view_row(&bad).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "b[1]"),
        "{e}"
    );
}

/// The Rust types the row format has no type for (spec/11-row-format.md §11.8): unsigned
/// integers widened, `SystemTime` and `std::time::Duration` as timestamp and duration,
/// fixed arrays and tuples of one type as lists, `[u8; N]` as binary. pyfory's bytes for
/// them are conformance/vectors/rows (`row/rust_model`, `row/fixed_arrays`).
#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Model {
    level: u8,
    port: u16,
    count: u32,
    at: std::time::SystemTime,
    took: std::time::Duration,
    pos: (f32, f32),
    ids: [u32; 2],
    hash: [u8; 4],
    tags: Vec<u8>,
    levels: Vec<Option<u8>>,
}

fn model() -> Model {
    Model {
        level: 200,
        port: 65535,
        count: u32::MAX,
        at: std::time::UNIX_EPOCH - std::time::Duration::from_micros(1),
        took: std::time::Duration::new(2, 1_999),
        pos: (0.5, -1.0),
        ids: [1, u32::MAX],
        hash: [0xde, 0xad, 0xbe, 0xef],
        tags: vec![1, 2],
        levels: vec![Some(255), None],
    }
}

#[test]
fn unsigned_time_tuple_and_array_fields() {
    let m = model();
    let bytes = m.to_row();
    // The slots: u8 as int16, u16 as int32, u32 as int64; SystemTime and Duration in µs.
    assert_eq!(bytes[8..16], [200, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(bytes[16..24], [0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    assert_eq!(bytes[24..32], [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    assert_eq!(bytes[32..40], (-1i64).to_le_bytes());
    assert_eq!(bytes[40..48], 2_000_001i64.to_le_bytes());
    let v = Model::view_row(&bytes).unwrap();
    assert_eq!((v.level(), v.port(), v.count()), (200, 65535, u32::MAX));
    // a tuple is a list<float32> of 2, [u32; 2] a list<int64> of 2
    assert_eq!(
        v.pos().as_bytes(),
        [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0, 0, 0x80, 0xbf]
    );
    assert_eq!(v.ids().get(1), Some(u32::MAX));
    assert_eq!(v.ids().as_bytes().len(), 8 + 8 + 16);
    // [u8; N] and Vec<u8> are binary; Vec<Option<u8>> a list<int16>
    let hash: &[u8] = v.hash();
    assert_eq!(hash, [0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(v.tags(), [1, 2]);
    assert_eq!(v.levels().iter().collect::<Vec<_>>(), [Some(255), None]);
    assert_eq!(v.levels().as_bytes().len(), 8 + 8 + 8);
    let back = Model::from_row(&bytes).unwrap();
    // sub-microsecond parts are dropped
    assert_eq!(back.took, std::time::Duration::new(2, 1_000));
    assert_eq!(
        Model {
            took: m.took,
            ..back
        },
        m
    );
}

#[test]
fn out_of_range_unsigned_and_durations_are_refused() {
    let bytes = model().to_row();
    // `port` (int32 slot) = 65536 and -1; `took` = -1 µs
    for (at, value, field, what) in [
        (16, 65536i64, "port", "65536 is outside the range of u16"),
        (16, 0xffff_ffff, "port", "-1 is outside the range of u16"),
        (24, -1, "count", "-1 is outside the range of u32"),
        (8, 256, "level", "256 is outside the range of u8"),
        (
            40,
            -1,
            "took",
            "-1 µs: a std::time::Duration is not negative",
        ),
    ] {
        let mut bad = bytes.clone();
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let e = Model::view_row(&bad).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadRow { field: f, what: w } if f == field && w == what),
            "{e}"
        );
        assert_eq!(e.offset(), Some(at), "{e}");
    }
    // an element of a widened array: ids[0] = -1
    let v = Model::view_row(&bytes).unwrap();
    let ids = v.ids().as_bytes();
    let at = bytes.windows(ids.len()).position(|w| w == ids).unwrap() + 16;
    let mut bad = bytes.clone();
    bad[at..at + 8].copy_from_slice(&(-1i64).to_le_bytes());
    let e = Model::view_row(&bad).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "ids[0]"),
        "{e}"
    );
    assert_eq!(e.offset(), Some(at));
}

#[test]
fn fixed_lengths_are_checked() {
    #[derive(FuryRow, Debug, PartialEq)]
    struct Three {
        v: Vec<i16>,
        b: Vec<u8>,
    }
    #[derive(FuryRow, Debug, PartialEq)]
    struct Fixed {
        v: [i16; 3],
        b: [u8; 3],
    }
    #[derive(FuryRow, Debug, PartialEq)]
    struct Tuple {
        v: (i16, i16, i16),
        b: (u8, u8, u8),
    }
    let bytes = Three {
        v: vec![1, -2, 3],
        b: vec![4, 5, 6],
    }
    .to_row();
    let f = Fixed::from_row(&bytes).unwrap();
    assert_eq!(
        f,
        Fixed {
            v: [1, -2, 3],
            b: [4, 5, 6]
        }
    );
    assert_eq!(f.to_row(), bytes, "[T; N] is written as Vec<T>");
    let t = Tuple::from_row(&bytes).unwrap();
    assert_eq!(
        t,
        Tuple {
            v: (1, -2, 3),
            b: (4, 5, 6)
        }
    );
    assert_eq!(t.to_row(), bytes, "a tuple of one type too");
    assert_eq!(Fixed::schema_hash(), Three::schema_hash());
    assert_eq!(Tuple::schema_hash(), Three::schema_hash());
    for (v, b, field) in [
        (vec![1, 2], vec![4, 5, 6], "v"),
        (vec![1, 2, 3, 4], vec![4, 5, 6], "v"),
        (vec![1, 2, 3], vec![4, 5], "b"),
    ] {
        let other = Three { v, b }.to_row();
        let e = Fixed::view_row(&other).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadRow { field: f, .. } if f == field),
            "{e}"
        );
        let e = Tuple::view_row(&other).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadRow { field: f, .. } if f == field),
            "{e}"
        );
    }
}

#[test]
fn system_time_out_of_range_is_an_error() {
    #[derive(FuryRow, Debug)]
    struct At {
        at: std::time::SystemTime,
    }
    let far = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1 << 62);
    let e = At { at: far }.try_to_row().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    // The extremes of the int64 µs range read and write back (the 128-bit conversion).
    for us in [i64::MIN, i64::MAX] {
        let mut row = vec![0u8; 16];
        row[8..].copy_from_slice(&us.to_le_bytes());
        let at = At::from_row(&row).unwrap();
        assert_eq!(at.to_row(), row);
    }
}
