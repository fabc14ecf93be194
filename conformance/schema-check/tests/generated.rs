//! The types fury-build generated for conformance/schemas, used from Rust: the bytes pyfory
//! 1.7.7 writes for a few values with foryc 1.7.7's Python types (captured from
//! conformance/schema_check.py's run), the per-module helpers, and recursion through `Box`.

use fury::Fury;
use fury_schema_check::{check_all, check_common, check_orders};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn fury(compatible: bool) -> Fury {
    let mut f = Fury::builder()
        .compatible(compatible)
        .ref_tracking(true)
        .build();
    check_all::register_types(&mut f).unwrap();
    f
}

#[test]
fn writes_and_reads_pyforys_bytes() {
    let point = check_all::Point { x: -3, y: 4 };
    let inner = check_all::outer::Inner {
        name: "in".into(),
        kind: check_all::outer::inner::Kind::B,
    };
    let label = check_all::Shape::Label("round".into());
    let words = check_all::Shape::Words(vec!["a".into(), "b".into()]);
    // pyfory declares a list case's element type, as in a struct field (both modes)
    let words_bytes = hex("010022ef27040016020c04610462");
    // (compatible, value's bytes from pyfory 1.7.7)
    let cases = [
        (
            true,
            "01001c000710a0c34fca0620c2ee27c405c8050508",
            "010022ef2702ff1514726f756e64",
            "01001c000950975da0c7937cc281ceae09c415c81908696e01",
        ),
        (
            false,
            "01001bee273d372c490508",
            "010022ef2702ff1514726f756e64",
            "01001b81ceae09686780d308696e01",
        ),
    ];
    for (compatible, p, s, i) in cases {
        let f = fury(compatible);
        assert_eq!(
            f.serialize(&point).unwrap(),
            hex(p),
            "compatible={compatible}"
        );
        assert_eq!(f.deserialize::<check_all::Point>(&hex(p)).unwrap(), point);
        assert_eq!(f.serialize(&label).unwrap(), hex(s));
        assert_eq!(f.deserialize::<check_all::Shape>(&hex(s)).unwrap(), label);
        assert_eq!(f.serialize(&words).unwrap(), words_bytes);
        assert_eq!(
            f.deserialize::<check_all::Shape>(&words_bytes).unwrap(),
            words
        );
        assert_eq!(f.serialize(&inner).unwrap(), hex(i));
        assert_eq!(
            f.deserialize::<check_all::outer::Inner>(&hex(i)).unwrap(),
            inner
        );
    }
    // The per-module Fury is compatible with reference tracking, as foryc's Python one.
    assert_eq!(point.to_bytes().unwrap(), hex(cases[0].1));
    assert_eq!(
        check_all::outer::Inner::from_bytes(&hex(cases[0].3)).unwrap(),
        inner
    );
}

#[test]
fn recursion_unions_and_imports() {
    let leaf = std::sync::Arc::new(check_all::Node {
        name: "leaf".into(),
        ..Default::default()
    });
    let node = check_all::Node {
        name: "root".into(),
        next: Some(leaf.clone()),
        children: vec![leaf.clone(), leaf],
        plain: Some(Box::new(check_all::Node {
            name: "p".into(),
            ..Default::default()
        })),
    };
    let back = check_all::Node::from_bytes(&node.to_bytes().unwrap()).unwrap();
    assert_eq!(back, node);
    // The shared leaf comes back as one allocation.
    assert!(std::sync::Arc::ptr_eq(&back.children[0], &back.children[1]));

    // A union's default is its first case; a case this side does not know is kept and
    // written back.
    let unknown = check_all::Shape::Unknown(fury::UnknownCase {
        case_id: 9,
        value: fury::Value::String("from a newer schema".into()),
    });
    assert_eq!(
        check_all::Shape::from_bytes(&unknown.to_bytes().unwrap()).unwrap(),
        unknown
    );
    assert_eq!(
        check_all::Shape::default(),
        check_all::Shape::Point(Default::default())
    );

    // A package that imports another registers that one's types in its fury() too.
    let line = check_orders::Line {
        sku: "A".into(),
        price: Some(check_common::Money {
            units: -5,
            currency: "EUR".into(),
        }),
        unit: check_common::Unit::Kilo,
    };
    assert_eq!(
        check_orders::Line::from_bytes(&line.to_bytes().unwrap()).unwrap(),
        line
    );
    // register_types on a Fury of one's own, same-schema mode.
    let mut f = Fury::builder().compatible(false).build();
    check_common::register_types(&mut f).unwrap();
    check_orders::register_types(&mut f).unwrap();
    assert_eq!(
        f.deserialize::<check_orders::Line>(&f.serialize(&line).unwrap())
            .unwrap(),
        line
    );
}
