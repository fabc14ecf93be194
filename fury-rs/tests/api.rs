//! The `Fury` facade and the built-in types, through their public API.

use fury::{Duration, ErrorKind, Fixed, Fury, Tagged, Timestamp, Value, F16};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};

#[test]
fn header_must_have_the_xlang_bit_and_no_reserved_bits() {
    let fury = Fury::default();
    assert_eq!(
        fury.deserialize::<i64>(&[0x01, 0xff, 0x07, 0x02]).unwrap(),
        1
    );
    for bad in [0x00u8, 0x04, 0x81, 0x09] {
        let e = fury
            .deserialize::<i64>(&[bad, 0xff, 0x07, 0x02])
            .unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadHeader { .. }),
            "{bad:#x}: {e}"
        );
    }
    // Out-of-band buffers announced, but read without them.
    let e = fury
        .deserialize::<i64>(&[0x03, 0xff, 0x07, 0x02])
        .unwrap_err();
    assert!(e.to_string().contains("deserialize_with_buffers"), "{e}");
}

#[test]
fn trailing_bytes_are_an_error_unless_asked_for_a_prefix() {
    let fury = Fury::default();
    let e = fury
        .deserialize::<i64>(&[0x01, 0xff, 0x07, 0x02, 0x00])
        .unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::TrailingBytes { count: 1 }),
        "{e}"
    );
    assert_eq!(
        fury.deserialize_prefix::<i64>(&[0x01, 0xff, 0x07, 0x02, 0x00])
            .unwrap(),
        (1, 4)
    );
}

#[test]
fn null_only_where_the_type_allows_it() {
    let fury = Fury::default();
    assert_eq!(
        fury.deserialize::<Option<String>>(&[0x01, 0xfd]).unwrap(),
        None
    );
    assert_eq!(
        fury.deserialize::<Value>(&[0x01, 0xfd]).unwrap(),
        Value::Null
    );
    let e = fury.deserialize::<String>(&[0x01, 0xfd]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedNull { .. }), "{e}");
    // [None, 1] from pyfory, into a type without nulls
    let e = fury
        .deserialize::<Vec<i64>>(&[0x01, 0xff, 0x16, 0x02, 0x0a, 0x07, 0xfd, 0xff, 0x02])
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedNull { .. }), "{e}");
}

#[test]
fn type_mismatch_names_both_sides_and_the_offset() {
    let fury = Fury::default();
    let e = fury
        .deserialize::<String>(&[0x01, 0xff, 0x07, 0x02])
        .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("String") && msg.contains("VARINT64"), "{msg}");
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn integers_read_from_any_encoding_that_fits() {
    let fury = Fury::default();
    // pyfory writes Python ints as VARINT64; a Rust i32 reader takes them when they fit.
    assert_eq!(
        fury.deserialize::<i32>(&[0x01, 0xff, 0x07, 0x02]).unwrap(),
        1
    );
    let big = fury.serialize(&(1i64 << 40)).unwrap();
    let e = fury.deserialize::<i32>(&big).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    let neg = fury.serialize(&-1i64).unwrap();
    assert!(fury.deserialize::<u64>(&neg).is_err());
    assert_eq!(fury.deserialize::<Fixed<i64>>(&neg).unwrap(), Fixed(-1));
    assert_eq!(fury.deserialize::<Tagged<i64>>(&neg).unwrap(), Tagged(-1));
}

#[test]
fn serialize_into_appends_and_leaves_the_buffer_on_error() {
    let fury = Fury::default();
    let mut out = vec![0xaa];
    fury.serialize_into(&true, &mut out).unwrap();
    assert_eq!(out, [0xaa, 0x01, 0xff, 0x01, 0x01]);
    let mut deep = Value::Null;
    for _ in 0..1000 {
        deep = Value::List(vec![deep]);
    }
    assert!(fury.serialize_into(&deep, &mut out).is_err());
    assert_eq!(out, [0xaa, 0x01, 0xff, 0x01, 0x01]);
}

#[test]
fn lists_and_arrays_interoperate() {
    let fury = Fury::default();
    // A LIST of VARINT64 (what pyfory writes for [1, 2]) reads into Vec<i64> ...
    let list = [0x01, 0xff, 0x16, 0x02, 0x08, 0x07, 0x02, 0x04];
    assert_eq!(fury.deserialize::<Vec<i64>>(&list).unwrap(), [1, 2]);
    // ... and Vec<i64> itself is written as the dense INT64_ARRAY.
    let dense = fury.serialize(&vec![1i64, 2]).unwrap();
    assert_eq!(dense[2], 47);
    assert_eq!(fury.deserialize::<Vec<i64>>(&dense).unwrap(), [1, 2]);
    // Vec<u8> is BINARY; it also reads UINT8_ARRAY.
    assert_eq!(
        fury.serialize(&vec![7u8]).unwrap(),
        [0x01, 0xff, 0x29, 0x01, 0x07]
    );
    assert_eq!(
        fury.deserialize::<Vec<u8>>(&[0x01, 0xff, 0x30, 0x01, 0x07])
            .unwrap(),
        [7]
    );
    // bool arrays must hold 0 or 1
    assert!(fury
        .deserialize::<Vec<bool>>(&[0x01, 0xff, 0x2b, 0x01, 0x02])
        .is_err());
    // odd byte lengths for wider elements are rejected
    assert!(fury
        .deserialize::<Vec<i32>>(&[0x01, 0xff, 0x2e, 0x03, 0, 0, 0])
        .is_err());
}

#[test]
fn strings_in_every_encoding_decode() {
    let fury = Fury::default();
    // LATIN1 "é", UTF-16 "你", UTF-8 "😀" (pyfory's choices)
    assert_eq!(
        fury.deserialize::<String>(&[0x01, 0xff, 0x15, 0x04, 0xe9])
            .unwrap(),
        "é"
    );
    assert_eq!(
        fury.deserialize::<String>(&[0x01, 0xff, 0x15, 0x09, 0x60, 0x4f])
            .unwrap(),
        "你"
    );
    assert_eq!(
        fury.deserialize::<String>(&[0x01, 0xff, 0x15, 0x12, 0xf0, 0x9f, 0x98, 0x80])
            .unwrap(),
        "😀"
    );
    // unpaired surrogate, invalid UTF-8, odd UTF-16 length, reserved encoding
    for bad in [
        &[0x01, 0xff, 0x15, 0x09, 0x00, 0xd8][..],
        &[0x01, 0xff, 0x15, 0x06, 0xff],
        &[0x01, 0xff, 0x15, 0x05, 0x00],
        &[0x01, 0xff, 0x15, 0x07, 0x61],
    ] {
        assert!(fury.deserialize::<String>(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn time_values_check_their_nanoseconds() {
    let fury = Fury::default();
    let d = Duration::new(-1, 999_999_000).unwrap();
    assert_eq!(
        fury.deserialize::<Duration>(&fury.serialize(&d).unwrap())
            .unwrap(),
        d
    );
    // nanos = 1e9 is out of range
    let bad = [0x01, 0xff, 0x25, 0x00, 0x00, 0xca, 0x9a, 0x3b];
    assert!(fury.deserialize::<Duration>(&bad).is_err());
    // Extreme timestamps convert to SystemTime without panicking (Ok where the platform
    // can represent them, Err otherwise).
    for secs in [i64::MAX, i64::MIN, 0, -1] {
        let t = Timestamp::new(secs, 999_999_999).unwrap();
        let bytes = fury.serialize(&t).unwrap();
        if let Ok(st) = fury.deserialize::<std::time::SystemTime>(&bytes) {
            assert_eq!(Timestamp::from(st), t);
        }
    }
    let std_neg = fury.serialize(&d).unwrap();
    assert!(fury.deserialize::<std::time::Duration>(&std_neg).is_err());
}

#[test]
fn maps_with_null_keys_and_values_round_trip() {
    let fury = Fury::default();
    let mut m: BTreeMap<Option<String>, Option<i64>> = BTreeMap::new();
    m.insert(None, Some(1));
    m.insert(Some("a".into()), None);
    m.insert(Some("b".into()), Some(2));
    let bytes = fury.serialize(&m).unwrap();
    assert_eq!(
        fury.deserialize::<BTreeMap<Option<String>, Option<i64>>>(&bytes)
            .unwrap(),
        m
    );
    // a map chunk claiming more pairs than the map has
    let bad = [
        0x01, 0xff, 0x18, 0x01, 0x00, 0x02, 0x07, 0x07, 0x02, 0x02, 0x04, 0x04,
    ];
    assert!(fury.deserialize::<Value>(&bad).is_err());
}

proptest! {
    #[test]
    fn nested_containers_round_trip(m in proptest::collection::hash_map(".{0,12}", proptest::collection::vec(proptest::option::of(any::<i32>()), 0..6), 0..300)) {
        let fury = Fury::default();
        let bytes = fury.serialize(&m).unwrap();
        let back: HashMap<String, Vec<Option<i32>>> = fury.deserialize(&bytes).unwrap();
        prop_assert_eq!(&back, &m);
        // the dynamic reader sees the same stream and writes it back byte for byte
        let v: Value = fury.deserialize(&bytes).unwrap();
        prop_assert_eq!(fury.serialize(&v).unwrap(), bytes);
    }

    #[test]
    fn scalars_round_trip(a in any::<i8>(), b in any::<u16>(), c in any::<u32>(), d in any::<u64>(), s in any::<String>(), h in any::<u16>()) {
        let fury = Fury::default();
        let v = (a, b, c, d);
        prop_assert_eq!(fury.deserialize::<i8>(&fury.serialize(&v.0).unwrap()).unwrap(), a);
        prop_assert_eq!(fury.deserialize::<u16>(&fury.serialize(&v.1).unwrap()).unwrap(), b);
        prop_assert_eq!(fury.deserialize::<u32>(&fury.serialize(&v.2).unwrap()).unwrap(), c);
        prop_assert_eq!(fury.deserialize::<u64>(&fury.serialize(&v.3).unwrap()).unwrap(), d);
        prop_assert_eq!(fury.deserialize::<String>(&fury.serialize(&s).unwrap()).unwrap(), s.clone());
        prop_assert_eq!(fury.deserialize::<F16>(&fury.serialize(&F16(h)).unwrap()).unwrap(), F16(h));
        let set: HashSet<String> = [s].into();
        prop_assert_eq!(fury.deserialize::<HashSet<String>>(&fury.serialize(&set).unwrap()).unwrap(), set);
    }
}
