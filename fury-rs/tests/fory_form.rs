//! `#[fury(form = "fory")]` writes what the official crate `fory` 1.7.7 writes. Every
//! expected byte string below was written by that crate (`#[derive(ForyStruct)]`, registered
//! as id 126, `Fory::builder().xlang(true)`; `cargo run -p fury-benches --example
//! official_forms` prints them), for a one-field struct with the value given.

use fury::{Fury, FuryObject};

fn unhex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// Writes `v` in both modes, compares with the crate's bytes, and reads them back.
fn check<T>(v: T, same_schema: &str, compatible: &str)
where
    T: FuryObject + fury::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for (mode, expected) in [(false, same_schema), (true, compatible)] {
        let mut fury = Fury::builder().compatible(mode).build();
        fury.register::<T>().unwrap();
        let bytes = fury.serialize(&v).unwrap();
        assert_eq!(bytes, unhex(expected), "compatible={mode}: {v:?}");
        assert_eq!(fury.deserialize::<T>(&bytes).unwrap(), v);
        // a cut stream is an error, never a panic
        for cut in 0..bytes.len() {
            assert!(fury.deserialize::<T>(&bytes[..cut]).is_err());
        }
    }
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126)]
struct Data {
    #[fury(form = "fory")]
    data: Vec<u8>,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126)]
struct OptData {
    #[fury(form = "fory")]
    opt_data: Option<Vec<u8>>,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126)]
struct Chunks {
    #[fury(form = "fory")]
    chunks: Vec<Vec<u8>>,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126, form = "fory")]
struct Path {
    path: Vec<Vec<u16>>,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126, form = "fory")]
struct Pos3 {
    pos3: (f64, f64, f64),
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126, form = "fory")]
struct OptPair {
    opt_pair: Option<(i32, i32)>,
}

#[derive(FuryObject, Debug, PartialEq, Default)]
#[fury(id = 126, form = "fory")]
struct Uuid {
    uuid: [u8; 16],
}

#[test]
fn vec_u8_is_a_list_of_uint8() {
    check(
        Data {
            data: vec![1, 2, 255],
        },
        "01 ff 1b 7e 62 06 29 c7 03 0c 01 02 ff",
        "01 ff 1c 00 08 40 04 0d e8 a5 55 44 c1 7e 48 16 24 0c 13 00 03 0c 01 02 ff",
    );
    check(
        OptData {
            opt_data: Some(vec![9, 8]),
        },
        "01 ff 1b 7e df 3a eb c5 ff 02 0c 09 08",
        "01 ff 1c 00 0b 10 95 2c f2 aa 6c 00 c1 7e 56 16 24 b9 f3 d8 c1 30 00 ff 02 0c 09 08",
    );
}

#[test]
fn nested_vectors_are_lists_of_lists() {
    check(
        Chunks {
            chunks: vec![vec![1, 2], vec![3]],
        },
        "01 ff 1b 7e c3 b4 39 ab 02 0c 02 0c 01 02 01 0c 03",
        "01 ff 1c 00 0a 50 c9 08 40 16 9b 44 c1 7e 4c 16 58 24 08 f4 6a a4 02 0c 02 0c 01 02 01 0c 03",
    );
    check(
        Path {
            path: vec![vec![6, 7, 8]],
        },
        "01 ff 1b 7e 0d b1 4d a0 01 0c 03 0c 06 00 07 00 08 00",
        "01 ff 1c 00 09 e0 69 1f 29 97 a5 78 c1 7e 48 16 58 28 3c 13 38 01 0c 03 0c 06 00 07 00 08 00",
    );
}

#[test]
fn tuples_carry_a_type_info_per_element() {
    check(
        Pos3 {
            pos3: (1.5, -2.0, 64.25),
        },
        "01 ff 1b 7e 9e 31 ee aa 03 00 14 00 00 00 00 00 00 f8 3f 14 00 00 00 00 00 00 00 c0 14 00 00 00 00 00 10 50 40",
        "01 ff 1c 00 09 e0 6f 12 96 a5 2f 6e c1 7e 8c 16 02 9e 72 5b 80 03 00 14 00 00 00 00 00 00 f8 3f 14 00 00 00 00 00 00 00 c0 14 00 00 00 00 00 10 50 40",
    );
    check(
        OptPair {
            opt_pair: Some((1, 2)),
        },
        "01 ff 1b 7e 96 f6 92 27 ff 02 00 05 02 05 04",
        "01 ff 1c 00 0b 00 52 d7 19 79 f1 27 c1 7e 56 16 02 b9 f3 db c0 88 80 ff 02 00 05 02 05 04",
    );
}

#[test]
fn u8_arrays_keep_binary_with_the_crates_fingerprint() {
    check(
        Uuid { uuid: [7; 16] },
        "01 ff 1b 7e d8 f0 0c d2 10 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07",
        "01 ff 1c 00 07 20 20 22 9d a1 39 4b c1 7e 48 29 52 88 18 10 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07",
    );
}

/// In compatible mode a field in the official form reads pyfory's form (what fury-rs writes
/// by default), and the other way round.
#[test]
fn both_forms_read_in_compatible_mode() {
    #[derive(FuryObject, Debug, PartialEq, Default, Clone)]
    #[fury(id = 127)]
    struct Plain {
        data: Vec<u8>,
        path: Vec<Vec<u16>>,
        pos: (f64, f64),
        scores: Option<Vec<i32>>,
    }
    #[derive(FuryObject, Debug, PartialEq, Default, Clone)]
    #[fury(id = 127, form = "fory")]
    struct Official {
        data: Vec<u8>,
        path: Vec<Vec<u16>>,
        pos: (f64, f64),
        scores: Option<Vec<i32>>,
    }
    let mut a = Fury::builder().compatible(true).build();
    a.register::<Plain>().unwrap();
    let mut b = Fury::builder().compatible(true).build();
    b.register::<Official>().unwrap();
    let plain = Plain {
        data: vec![1, 2],
        path: vec![vec![3, 4], vec![]],
        pos: (0.5, -1.0),
        scores: Some(vec![-7, 70_000]),
    };
    let official = Official {
        data: plain.data.clone(),
        path: plain.path.clone(),
        pos: plain.pos,
        scores: plain.scores.clone(),
    };
    let from_plain = a.serialize(&plain).unwrap();
    let from_official = b.serialize(&official).unwrap();
    assert_ne!(from_plain, from_official);
    assert_eq!(b.deserialize::<Official>(&from_plain).unwrap(), official);
    assert_eq!(a.deserialize::<Plain>(&from_official).unwrap(), plain);
}

/// Roots, as the crate writes them (spec/DISAGREEMENTS.md, "Tuples, `()` and Rust-only
/// integers"): a tuple with an `Option` element type gets HAS_NULL and a flag per element.
#[test]
fn tuple_roots_match_the_crate() {
    let fury = Fury::default();
    let bytes = fury.serialize(&fury::ForyForm((1i64, Some(2i64)))).unwrap();
    assert_eq!(bytes, unhex("01 ff 16 02 02 ff 07 02 ff 07 04"));
    let back: fury::ForyForm<(i64, Option<i64>)> = fury.deserialize(&bytes).unwrap();
    assert_eq!(back.0, (1, Some(2)));
    let bytes = fury.serialize(&fury::ForyForm((1i64, 2i64))).unwrap();
    assert_eq!(bytes, unhex("01 ff 16 02 00 07 02 07 04"));
    let bytes = fury
        .serialize(&fury::ForyForm((1i64, None::<i64>)))
        .unwrap();
    assert_eq!(bytes, unhex("01 ff 16 02 02 ff 07 02 fd"));
    let back: fury::ForyForm<(i64, Option<i64>)> = fury.deserialize(&bytes).unwrap();
    assert_eq!(back.0, (1, None));
}
