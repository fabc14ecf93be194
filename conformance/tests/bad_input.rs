//! Hostile input: truncated and mutated copies of every vector, huge declared lengths and
//! deep nesting. Each must give `Ok` or `Err`, never a panic, a hang or a huge allocation.

use fury::{ErrorKind, Fury, Value};
use std::collections::{BTreeMap, BTreeSet};

fn vectors() -> Vec<fury_conformance::Vector> {
    let dir = fury_conformance::groups::group("builtins").dir();
    fury_conformance::load_vectors(&dir).expect("vector files load")
}

/// Decodes `bytes` as `Value` and as several static types; returns whether `Value` succeeded.
fn decode_all_ways(fury: &Fury, bytes: &[u8]) -> bool {
    let ok = fury.deserialize::<Value>(bytes).is_ok();
    let _ = fury.deserialize::<i64>(bytes);
    let _ = fury.deserialize::<String>(bytes);
    let _ = fury.deserialize::<Vec<i64>>(bytes);
    let _ = fury.deserialize::<Vec<Option<String>>>(bytes);
    let _ = fury.deserialize::<Vec<Vec<i64>>>(bytes);
    let _ = fury.deserialize::<BTreeMap<String, Option<i64>>>(bytes);
    let _ = fury.deserialize::<BTreeMap<Option<String>, Vec<String>>>(bytes);
    let _ = fury.deserialize::<BTreeSet<i64>>(bytes);
    let _ = fury.deserialize::<Vec<f64>>(bytes);
    let _ = fury.deserialize::<Vec<bool>>(bytes);
    let _ = fury.deserialize::<Vec<u8>>(bytes);
    let _ = fury.deserialize::<fury::Timestamp>(bytes);
    let _ = fury.deserialize::<std::time::SystemTime>(bytes);
    let _ = fury.deserialize::<std::time::Duration>(bytes);
    ok
}

#[test]
fn every_strict_prefix_of_every_vector_is_an_error() {
    let fury = Fury::default();
    for v in vectors() {
        for cut in 0..v.bytes.len() {
            let prefix = &v.bytes[..cut];
            assert!(
                !decode_all_ways(&fury, prefix),
                "{}: prefix of {cut} bytes decoded as a Value",
                v.name
            );
        }
    }
}

#[test]
fn single_byte_mutations_never_panic() {
    let fury = Fury::default();
    let mut decoded = 0usize;
    let mut rejected = 0usize;
    for v in vectors() {
        // Long vectors: mutate the first 64 bytes and a sample of the rest.
        let positions: Vec<usize> = (0..v.bytes.len())
            .filter(|&i| i < 64 || i % 17 == 0)
            .collect();
        for i in positions {
            for m in [0x00u8, 0x01, 0x7f, 0x80, 0xfe, 0xff] {
                let mut bytes = v.bytes.clone();
                bytes[i] = if m == 0x01 || m == 0x80 {
                    bytes[i] ^ m
                } else {
                    m
                };
                if decode_all_ways(&fury, &bytes) {
                    decoded += 1;
                } else {
                    rejected += 1;
                }
            }
        }
    }
    // Both outcomes occur; the point is that none panicked.
    assert!(
        decoded > 0 && rejected > 0,
        "decoded {decoded}, rejected {rejected}"
    );
}

fn expect_length_error(bytes: &[u8]) {
    let fury = Fury::default();
    let err = fury
        .deserialize::<Value>(bytes)
        .expect_err("huge declared length must fail");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::LengthTooLarge { .. } | ErrorKind::UnexpectedEof { .. }
        ),
        "{err}"
    );
}

#[test]
fn huge_declared_lengths_are_rejected_before_allocating() {
    // list of 2^32-1 varint64 elements
    expect_length_error(&[
        0x01, 0xff, 0x16, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08, 0x07, 0x02,
    ]);
    // set of 2^31 elements
    expect_length_error(&[
        0x01, 0xff, 0x17, 0x80, 0x80, 0x80, 0x80, 0x08, 0x08, 0x07, 0x02,
    ]);
    // map of 2^32-1 pairs
    expect_length_error(&[
        0x01, 0xff, 0x18, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x01, 0x07, 0x07,
    ]);
    // string of 2^60 bytes
    expect_length_error(&[
        0x01, 0xff, 0x15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x61,
    ]);
    // binary and int64 array of 2^32-1 bytes
    expect_length_error(&[0x01, 0xff, 0x29, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]);
    let err = Fury::default()
        .deserialize::<Value>(&[0x01, 0xff, 0x2f, 0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00])
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthTooLarge { .. }),
        "{err}"
    );
    assert_eq!(err.offset(), Some(3), "the offset names the length field");
    // typed readers check the same way
    let err = Fury::default()
        .deserialize::<Vec<String>>(&[0x01, 0xff, 0x16, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08, 0x15])
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthTooLarge { .. }),
        "{err}"
    );
}

fn nested_lists(depth: usize) -> Vec<u8> {
    let mut b = vec![0x01, 0xff, 0x16];
    for _ in 0..depth {
        b.extend_from_slice(&[0x01, 0x08, 0x16]); // one element, same type, LIST
    }
    b.push(0x00); // innermost: empty list
    b
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let fury = Fury::default();
    let err = fury
        .deserialize::<Value>(&nested_lists(100_000))
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::DepthLimit { .. }), "{err}");
    // Within the limit it decodes.
    let v: Value = fury.deserialize(&nested_lists(100)).unwrap();
    let mut depth = 0;
    let mut cur = &v;
    while let Value::List(items) = cur {
        depth += 1;
        match items.first() {
            Some(next) => cur = next,
            None => break,
        }
    }
    assert_eq!(depth, 101);
    // The limit is configurable.
    let strict = Fury::builder().max_depth(10).build();
    assert!(strict.deserialize::<Value>(&nested_lists(100)).is_err());
    // Writing a too-deep value fails too, instead of overflowing the stack.
    let mut deep = Value::List(vec![]);
    for _ in 0..300 {
        deep = Value::List(vec![deep]);
    }
    let err = fury.serialize(&deep).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::DepthLimit { .. }), "{err}");
}

#[test]
fn zero_size_elements_cannot_inflate() {
    // A list claiming 1000 NONE elements without null flags would decode from no bytes.
    let mut b = vec![0x01, 0xff, 0x16, 0xe8, 0x07, 0x08, 0x24];
    b.extend(std::iter::repeat_n(0u8, 1000));
    assert!(Fury::default().deserialize::<Value>(&b).is_err());
}
