//! A struct that derives only serde's traits writes the bytes its `FuryObject` twin writes,
//! in both modes and both integer encodings, and each reads the other's bytes. (The twins'
//! own bytes are checked against pyfory's by the conformance vectors; this test checks that
//! the serde path is the derive's.)
#![cfg(feature = "serde")]

use fury::serde::Serde;
use fury::Fury;

/// The models as serde types.
mod plain {
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
    pub enum Color {
        Red,
        Green,
        Blue,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Inner {
        pub label: String,
        pub weight: f64,
        pub tags: Vec<String>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Scalars {
        pub b: bool,
        pub i8_: i8,
        pub i16_: i16,
        pub i32_: i32,
        pub i64_: i64,
        pub u8_: u8,
        pub u16_: u16,
        pub u32_: u32,
        pub u64_: u64,
        pub f32_: f32,
        pub f64_: f64,
        pub text: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Everything {
        pub name: String,
        pub id: u64,
        pub count: i32,
        pub maybe_int: Option<i64>,
        pub maybe_text: Option<String>,
        pub inner: Inner,
        pub maybe_inner: Option<Inner>,
        pub inners: Vec<Inner>,
        pub numbers: Vec<i32>,
        pub flags: Vec<bool>,
        pub doubles: Vec<f64>,
        pub data: Vec<u8>,
        pub words: Vec<String>,
        pub holes: Vec<Option<String>>,
        pub grid: Vec<Vec<i32>>,
        pub scores: BTreeMap<String, i64>,
        pub by_name: BTreeMap<String, Inner>,
        pub sparse: BTreeMap<i32, Option<String>>,
        pub color: Color,
        pub maybe_color: Option<Color>,
        pub palette: Vec<Color>,
        #[serde(rename = "renamedField")]
        pub renamed: u16,
        #[serde(skip)]
        pub skipped: u32,
    }
}

/// The same models deriving `FuryObject`.
mod derived {
    use std::collections::BTreeMap;

    #[derive(fury::FuryObject, Debug, PartialEq, Clone, Copy)]
    pub enum Color {
        Red,
        Green,
        Blue,
    }

    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Inner {
        pub label: String,
        pub weight: f64,
        pub tags: Vec<String>,
    }

    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Scalars {
        pub b: bool,
        pub i8_: i8,
        pub i16_: i16,
        pub i32_: i32,
        pub i64_: i64,
        pub u8_: u8,
        pub u16_: u16,
        pub u32_: u32,
        pub u64_: u64,
        pub f32_: f32,
        pub f64_: f64,
        pub text: String,
    }

    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Everything {
        pub name: String,
        pub id: u64,
        pub count: i32,
        pub maybe_int: Option<i64>,
        pub maybe_text: Option<String>,
        pub inner: Inner,
        pub maybe_inner: Option<Inner>,
        pub inners: Vec<Inner>,
        pub numbers: Vec<i32>,
        pub flags: Vec<bool>,
        pub doubles: Vec<f64>,
        pub data: Vec<u8>,
        pub words: Vec<String>,
        pub holes: Vec<Option<String>>,
        pub grid: Vec<Vec<i32>>,
        pub scores: BTreeMap<String, i64>,
        pub by_name: BTreeMap<String, Inner>,
        pub sparse: BTreeMap<i32, Option<String>>,
        pub color: Color,
        pub maybe_color: Option<Color>,
        pub palette: Vec<Color>,
        #[fury(rename = "renamedField")]
        pub renamed: u16,
        #[fury(skip)]
        pub skipped: u32,
    }
}

fn inner(label: &str) -> plain::Inner {
    plain::Inner {
        label: label.into(),
        weight: 2.5,
        tags: vec!["a".into(), "bé".into()],
    }
}

fn everything(full: bool) -> plain::Everything {
    use plain::Color;
    plain::Everything {
        name: "inventory ✓".into(),
        id: u64::MAX - 3,
        count: -70_000,
        maybe_int: full.then_some(i64::MIN),
        maybe_text: full.then(|| "note".to_string()),
        inner: inner("one"),
        maybe_inner: full.then(|| inner("two")),
        inners: if full {
            vec![inner("x"), inner("y")]
        } else {
            Vec::new()
        },
        numbers: vec![1, -2, 300_000],
        flags: vec![true, false],
        doubles: vec![0.5, -1e300],
        data: vec![0, 1, 255],
        words: vec!["alpha".into(), String::new()],
        holes: if full {
            vec![Some("p".into()), None, Some("q".into())]
        } else {
            vec![Some("only".into())]
        },
        grid: vec![vec![1, 2], vec![], vec![3]],
        scores: [("a".to_string(), 1), ("b".to_string(), -1)].into(),
        by_name: if full {
            [("k".to_string(), inner("v"))].into()
        } else {
            Default::default()
        },
        sparse: [
            (1, Some("s".to_string())),
            (2, None),
            (3, Some("t".to_string())),
        ]
        .into(),
        color: Color::Blue,
        maybe_color: full.then_some(Color::Green),
        palette: vec![Color::Red, Color::Blue],
        renamed: 65_535,
        skipped: 0,
    }
}

/// The derived twin of a serde value, field by field.
fn twin(v: &plain::Everything) -> derived::Everything {
    let color = |c: &plain::Color| match c {
        plain::Color::Red => derived::Color::Red,
        plain::Color::Green => derived::Color::Green,
        plain::Color::Blue => derived::Color::Blue,
    };
    let inner = |i: &plain::Inner| derived::Inner {
        label: i.label.clone(),
        weight: i.weight,
        tags: i.tags.clone(),
    };
    derived::Everything {
        name: v.name.clone(),
        id: v.id,
        count: v.count,
        maybe_int: v.maybe_int,
        maybe_text: v.maybe_text.clone(),
        inner: inner(&v.inner),
        maybe_inner: v.maybe_inner.as_ref().map(inner),
        inners: v.inners.iter().map(inner).collect(),
        numbers: v.numbers.clone(),
        flags: v.flags.clone(),
        doubles: v.doubles.clone(),
        data: v.data.clone(),
        words: v.words.clone(),
        holes: v.holes.clone(),
        grid: v.grid.clone(),
        scores: v.scores.clone(),
        by_name: v
            .by_name
            .iter()
            .map(|(k, x)| (k.clone(), inner(x)))
            .collect(),
        sparse: v.sparse.clone(),
        color: color(&v.color),
        maybe_color: v.maybe_color.as_ref().map(color),
        palette: v.palette.iter().map(color).collect(),
        renamed: v.renamed,
        skipped: v.skipped,
    }
}

/// Four configurations: both modes, both integer encodings.
fn configs() -> Vec<(bool, bool)> {
    vec![(false, true), (false, false), (true, true), (true, false)]
}

fn serde_fury(compatible: bool, compress: bool, by_id: bool) -> Fury {
    let mut f = Fury::builder()
        .compatible(compatible)
        .compress_int(compress)
        .build();
    if by_id {
        f.register_serde_by_id::<plain::Color>(30).unwrap();
        f.register_serde_by_id::<plain::Inner>(31).unwrap();
        f.register_serde_by_id::<plain::Scalars>(32).unwrap();
        f.register_serde_by_id::<plain::Everything>(33).unwrap();
    } else {
        f.register_serde::<plain::Color>().unwrap();
        f.register_serde::<plain::Inner>().unwrap();
        f.register_serde::<plain::Scalars>().unwrap();
        f.register_serde::<plain::Everything>().unwrap();
    }
    f
}

/// A `Fury` with serde type `S` and one with derived type `D`, both under `id`.
fn twins<S, D>(compatible: bool, compress: bool, id: u32) -> (Fury, Fury)
where
    S: serde::Serialize + serde::de::DeserializeOwned + 'static,
    D: fury::FuryObject,
{
    let build = || {
        Fury::builder()
            .compatible(compatible)
            .compress_int(compress)
            .build()
    };
    let mut s = build();
    s.register_serde_by_id::<S>(id).unwrap();
    let mut d = build();
    d.register_by_id::<D>(id).unwrap();
    (s, d)
}

fn derived_fury(compatible: bool, compress: bool, by_id: bool) -> Fury {
    let mut f = Fury::builder()
        .compatible(compatible)
        .compress_int(compress)
        .build();
    if by_id {
        f.register_by_id::<derived::Color>(30).unwrap();
        f.register_by_id::<derived::Inner>(31).unwrap();
        f.register_by_id::<derived::Scalars>(32).unwrap();
        f.register_by_id::<derived::Everything>(33).unwrap();
    } else {
        f.register_by_name::<derived::Color>("", "Color").unwrap();
        f.register_by_name::<derived::Inner>("", "Inner").unwrap();
        f.register_by_name::<derived::Scalars>("", "Scalars")
            .unwrap();
        f.register_by_name::<derived::Everything>("", "Everything")
            .unwrap();
    }
    f
}

#[test]
fn scalars_write_the_derives_bytes() {
    for (compatible, compress) in configs() {
        for by_id in [true, false] {
            let s = serde_fury(compatible, compress, by_id);
            let d = derived_fury(compatible, compress, by_id);
            let v = plain::Scalars {
                b: true,
                i8_: -8,
                i16_: -1600,
                i32_: -320_000,
                i64_: i64::MIN + 1,
                u8_: 200,
                u16_: 60_000,
                u32_: 4_000_000_000,
                u64_: u64::MAX,
                f32_: 1.5,
                f64_: -0.25,
                text: "latin1 é and ✓".into(),
            };
            let t = derived::Scalars {
                b: v.b,
                i8_: v.i8_,
                i16_: v.i16_,
                i32_: v.i32_,
                i64_: v.i64_,
                u8_: v.u8_,
                u16_: v.u16_,
                u32_: v.u32_,
                u64_: v.u64_,
                f32_: v.f32_,
                f64_: v.f64_,
                text: v.text.clone(),
            };
            let mine = s.serialize(&Serde(&v)).unwrap();
            let theirs = d.serialize(&t).unwrap();
            assert_eq!(
                mine, theirs,
                "compatible={compatible} compress={compress} by_id={by_id}"
            );
            assert_eq!(
                s.deserialize::<Serde<plain::Scalars>>(&theirs).unwrap().0,
                v
            );
        }
    }
}

#[test]
fn every_shape_writes_the_derives_bytes_and_reads_them() {
    for (compatible, compress) in configs() {
        for by_id in [true, false] {
            let s = serde_fury(compatible, compress, by_id);
            let d = derived_fury(compatible, compress, by_id);
            for full in [true, false] {
                let v = everything(full);
                let t = twin(&v);
                let mine = s.serialize(&Serde(&v)).unwrap();
                let theirs = d.serialize(&t).unwrap();
                assert_eq!(
                    mine, theirs,
                    "compatible={compatible} compress={compress} by_id={by_id} full={full}"
                );
                let back: Serde<plain::Everything> = s.deserialize(&theirs).unwrap();
                assert_eq!(back.0, v);
                let forth: derived::Everything = d.deserialize(&mine).unwrap();
                assert_eq!(forth, t);
            }
        }
    }
}

mod plain_union {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Item {
        pub sku: String,
        pub count: i32,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub enum Event {
        Created(Item),
        Renamed(String),
        Counted(i64),
        Moved {
            to: String,
            from: String,
            count: i32,
            done: bool,
        },
        Tagged(Vec<String>),
        Closed,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Log {
        pub last: Event,
        pub events: Vec<Event>,
        pub maybe: Option<Event>,
    }
}

mod derived_union {
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Item {
        pub sku: String,
        pub count: i32,
    }

    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub enum Event {
        Created(Item),
        Renamed(String),
        Counted(i64),
        Moved {
            to: String,
            from: String,
            count: i32,
            done: bool,
        },
        Tagged(Vec<String>),
        Closed,
    }

    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Log {
        pub last: Event,
        pub events: Vec<Event>,
        pub maybe: Option<Event>,
    }
}

fn events() -> Vec<(plain_union::Event, derived_union::Event)> {
    use derived_union as d;
    use plain_union as p;
    vec![
        (
            p::Event::Created(p::Item {
                sku: "A".into(),
                count: 2,
            }),
            d::Event::Created(d::Item {
                sku: "A".into(),
                count: 2,
            }),
        ),
        (p::Event::Renamed("B".into()), d::Event::Renamed("B".into())),
        (p::Event::Counted(-5), d::Event::Counted(-5)),
        (
            p::Event::Moved {
                to: "x".into(),
                from: "y".into(),
                count: 3,
                done: true,
            },
            d::Event::Moved {
                to: "x".into(),
                from: "y".into(),
                count: 3,
                done: true,
            },
        ),
        (
            p::Event::Tagged(vec!["t".into()]),
            d::Event::Tagged(vec!["t".into()]),
        ),
        (p::Event::Closed, d::Event::Closed),
    ]
}

#[test]
fn enums_with_data_write_the_derives_union_bytes() {
    for (compatible, compress) in configs() {
        // A union registered by name has no compatible form (refused on both sides).
        for by_id in [true, false] {
            if compatible && !by_id {
                continue;
            }
            let mut s = Fury::builder()
                .compatible(compatible)
                .compress_int(compress)
                .build();
            let mut d = Fury::builder()
                .compatible(compatible)
                .compress_int(compress)
                .build();
            if by_id {
                s.register_serde_by_id::<plain_union::Item>(70).unwrap();
                s.register_serde_by_id::<plain_union::Event>(71).unwrap();
                s.register_serde_by_id::<plain_union::Log>(72).unwrap();
                d.register_by_id::<derived_union::Item>(70).unwrap();
                d.register_by_id::<derived_union::Event>(71).unwrap();
                d.register_by_id::<derived_union::Log>(72).unwrap();
            } else {
                s.register_serde::<plain_union::Item>().unwrap();
                s.register_serde::<plain_union::Event>().unwrap();
                s.register_serde::<plain_union::Log>().unwrap();
                d.register_by_name::<derived_union::Item>("", "Item")
                    .unwrap();
                d.register_by_name::<derived_union::Event>("", "Event")
                    .unwrap();
                d.register_by_name::<derived_union::Log>("", "Log").unwrap();
            }
            let all = events();
            for (p, t) in &all {
                let ctx =
                    format!("compatible={compatible} compress={compress} by_id={by_id} {p:?}");
                let mine = s.serialize(&Serde(p)).unwrap();
                assert_eq!(mine, d.serialize(t).unwrap(), "{ctx}");
                assert_eq!(
                    &s.deserialize::<Serde<plain_union::Event>>(&mine).unwrap().0,
                    p
                );
            }
            let log = plain_union::Log {
                last: all[3].0.clone(),
                events: all.iter().map(|(p, _)| p.clone()).collect(),
                maybe: Some(all[0].0.clone()),
            };
            let twin = derived_union::Log {
                last: all[3].1.clone(),
                events: all.iter().map(|(_, t)| t.clone()).collect(),
                maybe: Some(all[0].1.clone()),
            };
            let mine = s.serialize(&Serde(&log)).unwrap();
            let theirs = d.serialize(&twin).unwrap();
            assert_eq!(
                mine, theirs,
                "compatible={compatible} compress={compress} by_id={by_id}"
            );
            assert_eq!(
                s.deserialize::<Serde<plain_union::Log>>(&theirs).unwrap().0,
                log
            );
            assert_eq!(d.deserialize::<derived_union::Log>(&mine).unwrap(), twin);
        }
    }
}

mod generated {
    //! Property test: random values of the twins write identical bytes in every
    //! configuration, and each side reads the other's.
    use super::*;
    use proptest::collection::{btree_map, vec};
    use proptest::option;
    use proptest::prelude::*;

    fn color() -> impl Strategy<Value = plain::Color> {
        prop_oneof![
            Just(plain::Color::Red),
            Just(plain::Color::Green),
            Just(plain::Color::Blue)
        ]
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![".{0,12}", "[a-z]{0,40}", "\\PC{0,8}"]
    }

    prop_compose! {
        fn inner()(label in text(), weight in any::<f64>(), tags in vec(text(), 0..4)) -> plain::Inner {
            plain::Inner { label, weight, tags }
        }
    }

    prop_compose! {
        fn everything()(
            (name, id, count, maybe_int, maybe_text) in (
                text(), any::<u64>(), any::<i32>(), option::of(any::<i64>()), option::of(text())
            ),
            (inner, maybe_inner, inners) in (inner(), option::of(inner()), vec(inner(), 0..3)),
            (numbers, flags, doubles, data) in (
                vec(any::<i32>(), 0..6), vec(any::<bool>(), 0..6), vec(any::<f64>(), 0..4),
                vec(any::<u8>(), 0..9)
            ),
            (words, holes, grid) in (
                vec(text(), 0..4), vec(option::of(text()), 0..5),
                vec(vec(any::<i32>(), 0..3), 0..3)
            ),
            (scores, by_name, sparse) in (
                btree_map(text(), any::<i64>(), 0..4), btree_map(text(), inner(), 0..2),
                btree_map(any::<i32>(), option::of(text()), 0..4)
            ),
            (color, maybe_color, palette, renamed) in (
                color(), option::of(color()), vec(color(), 0..4), any::<u16>()
            ),
        ) -> plain::Everything {
            plain::Everything {
                name, id, count, maybe_int, maybe_text, inner, maybe_inner, inners, numbers,
                flags, doubles, data, words, holes, grid, scores, by_name, sparse, color,
                maybe_color, palette, renamed, skipped: 0,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_values_write_the_derives_bytes(v in everything()) {
            let t = twin(&v);
            for (compatible, compress) in configs() {
                let s = serde_fury(compatible, compress, true);
                let d = derived_fury(compatible, compress, true);
                let mine = s.serialize(&Serde(&v)).unwrap();
                let theirs = d.serialize(&t).unwrap();
                prop_assert_eq!(&mine, &theirs);
                let back = s.deserialize::<Serde<plain::Everything>>(&theirs).unwrap().0;
                // NaN != NaN: compare the bytes each side writes of what it read.
                prop_assert_eq!(s.serialize(&Serde(&back)).unwrap(), theirs);
                let forth: derived::Everything = d.deserialize(&mine).unwrap();
                prop_assert_eq!(d.serialize(&forth).unwrap(), mine);
            }
        }
    }
}

mod plain_tuple {
    use serde::{Deserialize, Serialize};
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct UserId(pub u64);
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Point(pub i32, pub i32);
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// On the wire the `u32` comes first: serde's first field is read after it.
    pub struct Line(pub String, pub u32);
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub enum Mark {
        At(i32, i32),
        Named(String),
        Gone,
        /// On the wire the `i64` comes first.
        Span(String, i64),
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    pub struct Ids {
        pub user: UserId,
        pub at: Point,
        pub path: Vec<Point>,
        pub mark: Mark,
        pub line: Line,
    }
}

mod derived_tuple {
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct UserId(pub u64);
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Point(pub i32, pub i32);
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    /// On the wire the `u32` comes first: serde's first field is read after it.
    pub struct Line(pub String, pub u32);
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub enum Mark {
        At(i32, i32),
        Named(String),
        Gone,
        /// On the wire the `i64` comes first.
        Span(String, i64),
    }
    #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
    pub struct Ids {
        pub user: UserId,
        pub at: Point,
        pub path: Vec<Point>,
        pub mark: Mark,
        pub line: Line,
    }
}

#[test]
fn tuple_structs_and_tuple_variants_write_the_derives_bytes() {
    use derived_tuple as d;
    use plain_tuple as p;
    for (compatible, compress) in configs() {
        let mut s = Fury::builder()
            .compatible(compatible)
            .compress_int(compress)
            .build();
        let mut f = Fury::builder()
            .compatible(compatible)
            .compress_int(compress)
            .build();
        s.register_serde_by_id::<p::UserId>(80).unwrap();
        s.register_serde_by_id::<p::Point>(81).unwrap();
        s.register_serde_by_id::<p::Mark>(82).unwrap();
        s.register_serde_by_id::<p::Line>(84).unwrap();
        s.register_serde_by_id::<p::Ids>(83).unwrap();
        f.register_by_id::<d::UserId>(80).unwrap();
        f.register_by_id::<d::Point>(81).unwrap();
        f.register_by_id::<d::Mark>(82).unwrap();
        f.register_by_id::<d::Line>(84).unwrap();
        f.register_by_id::<d::Ids>(83).unwrap();
        for (pm, dm) in [
            (p::Mark::At(3, -4), d::Mark::At(3, -4)),
            (p::Mark::Named("n".into()), d::Mark::Named("n".into())),
            (p::Mark::Gone, d::Mark::Gone),
            (p::Mark::Span("s".into(), -9), d::Mark::Span("s".into(), -9)),
        ] {
            let v = p::Ids {
                user: p::UserId(u64::MAX),
                at: p::Point(1, -1),
                path: vec![p::Point(0, 0), p::Point(7, 8)],
                mark: pm,
                line: p::Line("from here".into(), 7),
            };
            let t = d::Ids {
                user: d::UserId(u64::MAX),
                at: d::Point(1, -1),
                path: vec![d::Point(0, 0), d::Point(7, 8)],
                mark: dm,
                line: d::Line("from here".into(), 7),
            };
            let mine = s.serialize(&Serde(&v)).unwrap();
            let theirs = f.serialize(&t).unwrap();
            assert_eq!(
                mine, theirs,
                "compatible={compatible} compress={compress} {v:?}"
            );
            assert_eq!(s.deserialize::<Serde<p::Ids>>(&theirs).unwrap().0, v);
            assert_eq!(f.deserialize::<d::Ids>(&mine).unwrap(), t);
        }
        // A newtype as the root.
        let mine = s.serialize(&Serde(p::UserId(5))).unwrap();
        assert_eq!(mine, f.serialize(&d::UserId(5)).unwrap());
        assert_eq!(
            s.deserialize::<Serde<p::UserId>>(&mine).unwrap().0,
            p::UserId(5)
        );
    }
}

/// A struct whose first declared field comes last on the wire: serde reads it first, so the
/// strings and arrays before it on the wire are taken ahead by their offset and read there
/// when serde asks for them (nullable ones too, `None` and `Some`).
mod taken {
    pub mod plain {
        use serde::{Deserialize, Serialize};
        #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
        pub struct Taken {
            pub zeta: String,
            pub maybe: Option<String>,
            pub halves: Option<Vec<i16>>,
            pub blob: Vec<u8>,
            pub numbers: Vec<i32>,
            pub count: i32,
            pub tail: Option<i64>,
        }
    }
    pub mod derived {
        #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
        pub struct Taken {
            pub zeta: String,
            pub maybe: Option<String>,
            pub halves: Option<Vec<i16>>,
            pub blob: Vec<u8>,
            pub numbers: Vec<i32>,
            pub count: i32,
            pub tail: Option<i64>,
        }
    }
}

#[test]
fn fields_taken_ahead_by_offset_read_back_in_declaration_order() {
    use taken::{derived, plain};
    let values = [
        plain::Taken {
            zeta: "last on the wire".into(),
            maybe: Some("maybe ✓".into()),
            halves: Some(vec![-2, 0, 30_000]),
            blob: vec![0, 255, 7],
            numbers: vec![i32::MIN, -1, 1, i32::MAX],
            count: -5,
            tail: Some(i64::MAX),
        },
        plain::Taken {
            zeta: String::new(),
            maybe: None,
            halves: None,
            blob: Vec::new(),
            numbers: Vec::new(),
            count: 0,
            tail: None,
        },
    ];
    for (compatible, compress) in configs() {
        let (s, d) = twins::<plain::Taken, derived::Taken>(compatible, compress, 50);
        for v in &values {
            let t = derived::Taken {
                zeta: v.zeta.clone(),
                maybe: v.maybe.clone(),
                halves: v.halves.clone(),
                blob: v.blob.clone(),
                numbers: v.numbers.clone(),
                count: v.count,
                tail: v.tail,
            };
            let theirs = d.serialize(&t).unwrap();
            let mine = s.serialize(&Serde(v)).unwrap();
            assert_eq!(mine, theirs, "compatible={compatible} compress={compress}");
            let back = s.deserialize::<Serde<plain::Taken>>(&theirs).unwrap().0;
            assert_eq!(&back, v, "compatible={compatible} compress={compress}");
        }
    }
}

/// Fixed-size arrays and tuples of strings, which serde hands over alike and the derive
/// writes alike (a LIST of STRING); arrays and tuples of numbers, which the derive writes
/// differently (a dense array, a LIST) and serde cannot tell apart, are refused.
mod fixed {
    pub mod plain {
        use serde::{Deserialize, Serialize};
        #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
        pub struct Named {
            pub id: u64,
            pub names: (String, String, String),
            pub pair: [String; 2],
            pub maybe: Option<[String; 2]>,
            pub rows: Vec<(String, String)>,
        }
        /// `Named` with a `Vec` where it has an array: the same declared types.
        #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
        pub struct Loose {
            pub id: u64,
            pub names: (String, String, String),
            pub pair: Vec<String>,
            pub maybe: Option<Vec<String>>,
            pub rows: Vec<(String, String)>,
        }
        #[derive(Serialize, Deserialize)]
        pub struct Numbers {
            pub position: (f32, f32),
        }
        #[derive(Serialize, Deserialize)]
        pub struct Ids {
            pub ids: [u32; 4],
        }
        #[derive(Serialize, Deserialize)]
        pub struct Mixed {
            pub both: (i32, String),
        }
    }
    pub mod derived {
        #[derive(fury::FuryObject, Debug, PartialEq, Clone)]
        pub struct Named {
            pub id: u64,
            pub names: (String, String, String),
            pub pair: [String; 2],
            pub maybe: Option<[String; 2]>,
            pub rows: Vec<(String, String)>,
        }
    }
}

#[test]
fn arrays_and_tuples_of_strings_write_the_derives_bytes() {
    use fixed::{derived, plain};
    let s2 = |a: &str, b: &str| [a.to_string(), b.to_string()];
    for (compatible, compress) in configs() {
        let (mut s, d) = twins::<plain::Named, derived::Named>(compatible, compress, 70);
        for maybe in [Some(s2("x", "y")), None] {
            let v = plain::Named {
                id: 9,
                names: ("a".into(), "bé".into(), String::new()),
                pair: s2("left", "right ✓"),
                maybe,
                rows: vec![("k".into(), "v".into())],
            };
            let t = derived::Named {
                id: v.id,
                names: v.names.clone(),
                pair: v.pair.clone(),
                maybe: v.maybe.clone(),
                rows: v.rows.clone(),
            };
            let ctx = format!("compatible={compatible} compress={compress}");
            let theirs = d.serialize(&t).unwrap();
            let mine = s.serialize(&Serde(&v)).unwrap();
            assert_eq!(mine, theirs, "{ctx}");
            let back = s.deserialize::<Serde<plain::Named>>(&theirs).unwrap().0;
            assert_eq!(back, v, "{ctx}");
            assert_eq!(d.deserialize::<derived::Named>(&mine).unwrap(), t, "{ctx}");
        }
        // An array reads exactly its length: a longer list is an error, not a truncated
        // value.
        let (loose, _) = twins::<plain::Loose, derived::Named>(compatible, compress, 70);
        for (pair, says) in [
            (vec!["a".to_string(); 3], "1 more"),
            (vec!["a".to_string()], "length 1"),
        ] {
            let l = plain::Loose {
                id: 1,
                names: (String::new(), String::new(), String::new()),
                pair,
                maybe: None,
                rows: Vec::new(),
            };
            let bytes = loose.serialize(&Serde(&l)).unwrap();
            let e = s.deserialize::<Serde<plain::Named>>(&bytes).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
        // What serde cannot tell apart, or the serde path does not write, is refused with
        // the field's path.
        let e = s.register_serde::<plain::Numbers>().unwrap_err();
        assert!(e.to_string().contains("Numbers.position"), "{e}");
        let e = s.register_serde::<plain::Ids>().unwrap_err();
        assert!(e.to_string().contains("Ids.ids"), "{e}");
        let e = s.register_serde::<plain::Mixed>().unwrap_err();
        assert!(e.to_string().contains("Mixed.both"), "{e}");
    }
}
