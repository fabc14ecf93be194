//! The serde path beyond the derive's bytes: schema evolution in compatible mode, borrowing
//! from the input, errors at registration, and hostile input.
#![cfg(feature = "serde")]

use fury::serde::Serde;
use fury::{ErrorKind, Fury};
use serde::{Deserialize, Serialize};

mod v1 {
    use serde::{Deserialize, Serialize};
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub struct Item {
        pub sku: String,
        pub count: i32,
        pub retired: String,
    }
}

mod v2 {
    use serde::{Deserialize, Serialize};
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub struct Item {
        pub sku: String,
        pub count: i32,
        pub note: Option<String>,
        #[serde(default = "seven")]
        pub shelf: u8,
    }
    fn seven() -> u8 {
        7
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub struct Strict {
        pub sku: String,
        pub count: i32,
        pub needed: u8,
    }
}

fn compatible() -> Fury {
    Fury::builder().compatible(true).build()
}

#[test]
fn a_newer_struct_reads_an_older_one_by_serdes_rules() {
    let mut old = compatible();
    old.register_serde_by_id::<v1::Item>(40).unwrap();
    let bytes = old
        .serialize(&Serde(v1::Item {
            sku: "A-1".into(),
            count: 3,
            retired: "gone".into(),
        }))
        .unwrap();
    let mut new = compatible();
    new.register_serde_by_id::<v2::Item>(40).unwrap();
    // The peer's `retired` is skipped; `note` (Option) is None; `shelf` takes its default.
    let item = new.deserialize::<Serde<v2::Item>>(&bytes).unwrap().0;
    assert_eq!(
        item,
        v2::Item {
            sku: "A-1".into(),
            count: 3,
            note: None,
            shelf: 7
        }
    );
    // Back the other way: the older type lacks `retired` in the newer bytes.
    let newer = new.serialize(&Serde(&item)).unwrap();
    let e = old.deserialize::<Serde<v1::Item>>(&newer).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::MissingField { field, .. } if field == "retired"),
        "{e}"
    );
    // A field without a default that the peer lacks is serde's missing field.
    let mut strict = compatible();
    strict.register_serde_by_id::<v2::Strict>(40).unwrap();
    let e = strict.deserialize::<Serde<v2::Strict>>(&bytes).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::MissingField { field, .. } if field == "needed"),
        "{e}"
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    raw: &'a [u8],
    #[serde(borrow)]
    label: std::borrow::Cow<'a, str>,
    tags: Vec<&'a str>,
}

#[test]
fn strings_borrow_from_the_input() {
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register_serde_by_id::<Borrowed<'static>>(41).unwrap();
        let v = Borrowed {
            name: "a name",
            raw: &[1, 2, 3],
            label: "a label ✓".into(),
            tags: vec!["x", "y"],
        };
        let bytes = fury.serialize(&Serde(&v)).unwrap();
        let back = fury.deserialize::<Serde<Borrowed<'_>>>(&bytes).unwrap().0;
        assert_eq!(back, v);
        let within = |s: &str| bytes.as_ptr_range().contains(&s.as_ptr());
        assert!(within(back.name) && within(back.tags[1]));
        assert!(bytes.as_ptr_range().contains(&back.raw.as_ptr()));
        // UTF-8 on the wire is borrowed too.
        assert!(matches!(back.label, std::borrow::Cow::Borrowed(_)));
    }
}

#[test]
fn what_has_no_xlang_form_is_refused_at_registration() {
    #[derive(Serialize, Deserialize)]
    enum Shape {
        Circle(f64),
        Square { side: f64 },
        Rect(String, f64),
    }
    #[derive(Serialize, Deserialize)]
    struct Drawing {
        shape: Shape,
    }
    #[derive(Serialize, Deserialize)]
    struct Pair {
        both: (i32, String),
    }
    type L = Vec<String>;
    #[derive(Serialize, Deserialize)]
    struct Wide(L, L, L, L, L, L, L, L, L, L, L);
    #[derive(Serialize, Deserialize)]
    struct Letter {
        c: char,
    }
    // A union by name has no compatible form (as for the derive).
    let e = Fury::default().register_serde::<Shape>().unwrap_err();
    assert!(e.to_string().contains("register it by id"), "{e}");
    let mut fury = Fury::builder().compatible(false).build();
    // The enum is reached before it was traced on its own.
    let e = fury.register_serde::<Drawing>().unwrap_err();
    assert!(e.to_string().contains("Shape"), "{e}");
    // serde reads a tuple's fields in order, and the wire has `_10` before `_2`: a list
    // cannot be read ahead of its place.
    let e = fury.register_serde::<Wide>().unwrap_err();
    assert!(e.to_string().contains("Wide"), "{e}");
    assert!(e.to_string().contains("named fields"), "{e}");
    let e = fury.register_serde::<Pair>().unwrap_err();
    assert!(e.to_string().contains("Pair.both"), "{e}");
    let e = fury.register_serde::<Letter>().unwrap_err();
    assert!(e.to_string().contains("char"), "{e}");
    // Nothing of a refused registration stays.
    assert_eq!(fury.registry().iter().count(), 0);
    // A tuple variant whose f64 goes first on the wire is read by taking it ahead.
    fury.register_serde::<Shape>().unwrap();
    fury.register_serde::<Drawing>().unwrap();
    let mut tracking = Fury::builder().ref_tracking(true).build();
    assert!(tracking.register_serde::<v1::Item>().is_err());
}

#[test]
fn hostile_bytes_are_errors_not_panics() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Node {
        name: String,
        weights: Vec<f64>,
        children: Vec<Leaf>,
        index: std::collections::HashMap<String, Option<i64>>,
        data: Vec<u8>,
        next: Option<Leaf>,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Leaf {
        v: i32,
        s: Option<String>,
    }
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register_serde_by_id::<Leaf>(50).unwrap();
        fury.register_serde_by_id::<Node>(51).unwrap();
        let v = Node {
            name: "root".into(),
            weights: vec![1.0, 2.0],
            children: vec![
                Leaf { v: 1, s: None },
                Leaf {
                    v: -1,
                    s: Some("s".into()),
                },
            ],
            index: [("a".to_string(), Some(1)), ("b".to_string(), None)].into(),
            data: vec![1, 2, 3],
            next: Some(Leaf { v: 9, s: None }),
        };
        let bytes = fury.serialize(&Serde(&v)).unwrap();
        assert_eq!(fury.deserialize::<Serde<Node>>(&bytes).unwrap().0, v);
        let mut errors = 0;
        for n in 0..bytes.len() {
            errors += fury.deserialize::<Serde<Node>>(&bytes[..n]).is_err() as usize;
        }
        assert_eq!(errors, bytes.len(), "every truncation fails");
        for i in 0..bytes.len() {
            for b in [0x00, 0x7f, 0x80, 0xfd, 0xff] {
                let mut m = bytes.clone();
                m[i] = b;
                // Either a value or an error; never a panic, a hang or a huge allocation.
                let _ = fury.deserialize::<Serde<Node>>(&m);
            }
        }
    }
}

#[test]
fn flatten_and_untagged_enums_are_refused_at_registration() {
    #[derive(Serialize, Deserialize)]
    struct Base {
        id: u32,
    }
    #[derive(Serialize, Deserialize)]
    struct Flat {
        #[serde(flatten)]
        base: Base,
        extra: String,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Num(i64),
        Text(String),
    }
    #[derive(Serialize, Deserialize)]
    #[serde(tag = "type")]
    enum Tagged {
        A { x: i32 },
        B { y: String },
    }
    let mut fury = Fury::builder().compatible(false).build();
    for e in [
        fury.register_serde::<Flat>().unwrap_err(),
        fury.register_serde::<Loose>().unwrap_err(),
        fury.register_serde::<Tagged>().unwrap_err(),
    ] {
        assert!(e.to_string().contains("no xlang form"), "{e}");
    }
    assert_eq!(fury.registry().iter().count(), 0);
}

#[test]
fn fields_serde_skips_are_written_empty() {
    #[derive(Serialize, Deserialize, Debug, PartialEq, Default)]
    struct Sparse {
        id: u32,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        tags: Vec<String>,
        #[serde(skip_serializing_if = "String::is_empty", default)]
        owner: String,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq, Default)]
    struct Dense {
        id: u32,
        note: Option<String>,
        tags: Vec<String>,
        owner: String,
    }
    for compatible in [false, true] {
        let mut a = Fury::builder().compatible(compatible).build();
        a.register_serde_by_id::<Sparse>(60).unwrap();
        let mut b = Fury::builder().compatible(compatible).build();
        b.register_serde_by_id::<Dense>(60).unwrap();
        let sparse = Sparse {
            id: 4,
            ..Default::default()
        };
        let dense = Dense {
            id: 4,
            ..Default::default()
        };
        // The skipped fields are on the wire, empty: the bytes of the struct without skips.
        let bytes = a.serialize(&Serde(&sparse)).unwrap();
        assert_eq!(bytes, b.serialize(&Serde(&dense)).unwrap());
        assert_eq!(a.deserialize::<Serde<Sparse>>(&bytes).unwrap().0, sparse);
        let full = Sparse {
            id: 5,
            note: Some("n".into()),
            tags: vec!["t".into()],
            owner: "o".into(),
        };
        let bytes = a.serialize(&Serde(&full)).unwrap();
        assert_eq!(a.deserialize::<Serde<Sparse>>(&bytes).unwrap().0, full);
    }
}

#[test]
fn a_sequence_that_hands_over_another_count_than_it_announced_is_an_error() {
    // Number arrays are written element by element after their byte length, which comes
    // from the count serde announces; a Serialize that then hands over fewer or more
    // elements must fail the call and leave the output as it was.
    #[derive(Deserialize, Debug)]
    struct Samples {
        values: Vec<i32>,
        bytes: Vec<u8>,
        /// The counts the Serialize below announces (the true ones when `None`).
        #[serde(skip)]
        announce: Option<(usize, usize)>,
    }
    struct Seq<'a, T>(usize, &'a [T]);
    impl<T: Serialize> Serialize for Seq<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(Some(self.0))?;
            for v in self.1 {
                seq.serialize_element(v)?;
            }
            seq.end()
        }
    }
    impl Serialize for Samples {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let (a, b) = self
                .announce
                .unwrap_or((self.values.len(), self.bytes.len()));
            let mut st = s.serialize_struct("Samples", 2)?;
            st.serialize_field("values", &Seq(a, &self.values))?;
            st.serialize_field("bytes", &Seq(b, &self.bytes))?;
            st.end()
        }
    }
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register_serde_by_id::<Samples>(45).unwrap();
        let mut value = Samples {
            values: vec![7, -7],
            bytes: vec![1, 2, 3],
            announce: None,
        };
        let bytes = fury.serialize(&Serde(&value)).unwrap();
        let back = fury.deserialize::<Serde<Samples>>(&bytes).unwrap().0;
        assert_eq!((back.values, back.bytes), (vec![7, -7], vec![1, 2, 3]));
        for announce in [(3, 3), (1, 3), (2, 4), (2, 2)] {
            value.announce = Some(announce);
            let mut out = vec![9u8];
            assert!(fury.serialize_into(&Serde(&value), &mut out).is_err());
            assert_eq!(out, [9], "announced {announce:?}");
        }
    }
}

/// A serde struct whose bytes field precedes, on the wire, the field serde reads first.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Blobbed {
    zeta: String,
    data: Vec<u8>,
}

/// Its twin through the derive, which lends `data` out of band.
#[derive(fury::FuryObject, Debug, PartialEq)]
struct BlobbedTwin {
    zeta: String,
    data: Vec<u8>,
}

#[test]
fn bytes_out_of_band_are_taken_once_when_read_out_of_wire_order() {
    for compatible in [false, true] {
        let build = || Fury::builder().compatible(compatible).build();
        let mut d = build();
        d.register_by_id::<BlobbedTwin>(60).unwrap();
        let mut s = build();
        s.register_serde_by_id::<Blobbed>(60).unwrap();
        let twin = BlobbedTwin {
            zeta: "first declared, last on the wire".into(),
            data: vec![9; 4096],
        };
        let (stream, buffers) = d.serialize_with_buffers(&twin, |_| false).unwrap();
        assert_eq!(buffers.len(), 1);
        let back = s
            .deserialize_with_buffers::<Serde<Blobbed>>(&stream, &buffers)
            .unwrap()
            .0;
        assert_eq!(back.zeta, twin.zeta);
        assert_eq!(back.data, twin.data);
    }
}

#[test]
fn a_value_is_found_through_any_reference_and_an_unregistered_type_is_named() {
    let mut fury = compatible();
    fury.register_serde::<v1::Item>().unwrap();
    let make = || v1::Item {
        sku: "A-1".into(),
        count: 3,
        retired: "no".into(),
    };
    let mut item = make();
    // Registration records the type and its one-reference forms; deeper references are
    // found without their references. Every form writes the same bytes.
    let owned = fury.serialize(&Serde(make())).unwrap();
    assert_eq!(fury.serialize(&Serde(&item)).unwrap(), owned);
    assert_eq!(fury.serialize(&Serde(&&item)).unwrap(), owned);
    assert_eq!(fury.serialize(&Serde(&&&item)).unwrap(), owned);
    assert_eq!(fury.serialize(&Serde(&mut item)).unwrap(), owned);
    assert_eq!(fury.deserialize::<Serde<v1::Item>>(&owned).unwrap().0, item);

    let e = fury.serialize(&Serde(&v2::Item {
        sku: "B".into(),
        count: 1,
        note: None,
        shelf: 2,
    }));
    let message = e.unwrap_err().to_string();
    assert!(
        message.contains("v2::Item") && message.contains("not registered"),
        "{message}"
    );
}
