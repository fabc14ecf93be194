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
