//! `fury::ValueRef`: the dynamic value that borrows its strings, byte strings and arrays.
//! The vectors (conformance/tests/value_ref.rs) compare it with `Value` on pyfory's bytes;
//! these tests cover what they do not: back references read as copies (which a `ValueRef`
//! keeps in the read context), containers of `ValueRef`, the sizes `max_alloc` charges, and
//! hand-made values written.

use fury::{Fury, Value, ValueRef};
use std::borrow::Cow;

fn inside(part: &[u8], input: &[u8]) -> bool {
    let (p, i) = (part.as_ptr_range(), input.as_ptr_range());
    i.start <= p.start && p.end <= i.end
}

fn tracking() -> Fury {
    Fury::builder().compatible(false).ref_tracking(true).build()
}

/// A list (tracked elements of one type, STRING) whose first string is flagged REF_VALUE and
/// whose second element is a back reference to it: pyfory never tracks strings, so the
/// writer of a dynamic value gives the string no id, and the reference reads as a copy.
const STRING_THEN_REF: [u8; 11] = [
    0x01, 0x00, 0x16, 0x02, 0x09, 0x15, 0x00, 0x04, b'a', 0xfe, 0x01,
];

#[test]
fn a_back_reference_to_a_string_reads_as_a_copy_that_still_borrows() {
    let fury = tracking();
    let input = STRING_THEN_REF;
    let owned: Value = fury.deserialize(&input).unwrap();
    assert_eq!(
        owned,
        Value::List(vec![Value::String("a".into()), Value::String("a".into())])
    );
    let v: ValueRef = fury.deserialize(&input).unwrap();
    assert_eq!(v.to_owned(), owned);
    let ValueRef::List(items) = &v else {
        panic!("not a list: {v:?}")
    };
    for item in items {
        let ValueRef::String(Cow::Borrowed(s)) = item else {
            panic!("not a borrowed string: {item:?}")
        };
        // Both are the input's `a` (offset 8), the copy too.
        assert!(std::ptr::eq(s.as_ptr(), &input[8]));
    }
    assert_eq!(fury.serialize(&v).unwrap(), fury.serialize(&owned).unwrap());
}

#[test]
fn a_back_reference_to_a_list_stays_a_reference() {
    // pyfory 1.7.7, ref tracking, same-schema mode: `a = [1]; [a, a]`.
    let fury = tracking();
    let py = [
        0x01, 0x00, 0x16, 0x02, 0x09, 0x16, 0x00, 0x01, 0x08, 0x07, 0x02, 0xfe, 0x01,
    ];
    let owned: Value = fury.deserialize(&py).unwrap();
    let v: ValueRef = fury.deserialize(&py).unwrap();
    assert_eq!(v.to_owned(), owned);
    let ValueRef::List(items) = &v else {
        panic!("not a list: {v:?}")
    };
    assert_eq!(items.get(1), Some(&ValueRef::Ref(1)));
    assert_eq!(fury.serialize(&v).unwrap(), py);
}

#[test]
fn copies_beyond_the_allowance_fail_alike() {
    // One flagged 2,000-byte string, then 100 back references to it: 200 KB of copies from
    // 2 KB of input, past the copy allowance (8 bytes per input byte, plus 4 KiB).
    let text = vec![b'x'; 2000];
    let mut input = vec![0x01, 0x00, 0x16, 101, 0x09, 0x15, 0x00];
    let mut header = Vec::new();
    let mut h = (text.len() as u64) << 2;
    while h >= 0x80 {
        header.push((h as u8 & 0x7f) | 0x80);
        h >>= 7;
    }
    header.push(h as u8);
    input.extend(header);
    input.extend(&text);
    for _ in 0..100 {
        input.extend([0xfe, 0x01]);
    }
    let fury = tracking();
    let owned = fury.deserialize::<Value>(&input).unwrap_err();
    let borrowed = fury.deserialize::<ValueRef>(&input).unwrap_err();
    assert!(owned.to_string().contains("copied beyond"), "{owned}");
    assert_eq!(owned.to_string(), borrowed.to_string());
}

#[test]
fn containers_of_value_ref_borrow_too() {
    let fury = Fury::default();
    let input = fury
        .serialize(&vec![
            Value::String("tea".into()),
            Value::Binary(vec![1, 2]),
            Value::Int32Array(vec![7, -7]),
        ])
        .unwrap();
    let items: Vec<ValueRef> = fury.deserialize(&input).unwrap();
    assert_eq!(items.len(), 3);
    assert!(inside(items[0].as_str().unwrap().as_bytes(), &input));
    assert!(inside(items[1].as_bytes().unwrap(), &input));
    let ValueRef::Int32Array(a) = &items[2] else {
        panic!("not an INT32_ARRAY: {:?}", items[2])
    };
    assert_eq!(a.to_vec(), [7, -7]);
    assert!(inside(a.as_bytes(), &input));
    assert_eq!(fury.serialize(&items).unwrap(), input);
}

#[test]
fn text_other_than_utf8_is_owned() {
    let fury = Fury::default();
    // pyfory 1.7.7's bytes for "é" (LATIN1: header 1 << 2 | 0) and "ā" (UTF-16: 2 << 2 | 1).
    let latin1 = [0x01, 0xff, 0x15, 0x04, 0xe9];
    let utf16 = [0x01, 0xff, 0x15, 0x09, 0x01, 0x01];
    for (input, text) in [(&latin1[..], "é"), (&utf16[..], "ā")] {
        let v: ValueRef = fury.deserialize(input).unwrap();
        assert_eq!(v, ValueRef::String(Cow::Owned(text.to_string())));
        assert!(matches!(v, ValueRef::String(Cow::Owned(_))));
        assert_eq!(v.to_owned(), fury.deserialize::<Value>(input).unwrap());
    }
}

#[test]
fn value_ref_is_charged_as_value() {
    // `max_alloc` charges containers per element by the element's size: the same for both
    // forms, so that a stream is within the budget or not whichever form reads it.
    assert_eq!(
        std::mem::size_of::<ValueRef>(),
        std::mem::size_of::<Value>()
    );
    let fury = Fury::builder().max_alloc(64).build();
    let input = Fury::default()
        .serialize(&vec![Value::Null, Value::Bool(true), Value::Int8(1)])
        .unwrap();
    let a = fury.deserialize::<Value>(&input).unwrap_err();
    let b = fury.deserialize::<ValueRef>(&input).unwrap_err();
    assert_eq!(a.to_string(), b.to_string());
}

#[test]
fn a_value_ref_built_by_hand_writes_what_its_value_writes() {
    let fury = Fury::default();
    let bytes = [9u8, 8, 7];
    let v = ValueRef::Map(vec![
        (
            ValueRef::String(Cow::Borrowed("k")),
            ValueRef::List(vec![ValueRef::Binary(&bytes), ValueRef::Null]),
        ),
        (ValueRef::VarInt32(-3), ValueRef::Float64(0.5)),
    ]);
    let written = fury.serialize(&v).unwrap();
    assert_eq!(written, fury.serialize(&v.to_owned()).unwrap());
    let back: ValueRef = fury.deserialize(&written).unwrap();
    assert_eq!(back, v);
}

/// A declared list of structs holding only nulls writes back although the `Value` did not
/// keep the struct's type info: in the declared form `0e`, which pyfory 1.7.7 reads as the
/// same `[None, None]` (checked by hand: `H(ps=[None, None])` in both modes).
#[test]
fn a_declared_list_of_null_structs_writes_back() {
    // pyfory 1.7.7: @dataclass H { ps: List[Optional[P]] }, P { x: Int32 }, ids 101 and 100,
    // compatible mode, H(ps=[None, None]): the list is `02 0a`, P's type info, `fd fd`.
    let py = "01ff1c000700128262796901c165441672be40020a1c020590260f3857130ac16440055cfdfd";
    let bytes: Vec<u8> = (0..py.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&py[i..i + 2], 16).unwrap())
        .collect();
    let fury = fury::Fury::builder().compatible(true).build();
    let v: fury::Value = fury.deserialize(&bytes).unwrap();
    let again = fury.serialize(&v).unwrap();
    // H's TypeDef as read, then the list in the declared form pyfory reads
    let list_at = bytes
        .windows(4)
        .position(|w| w == [0x02, 0x0a, 0x1c, 0x02])
        .unwrap();
    assert_eq!(again[..list_at], bytes[..list_at]);
    assert_eq!(again[list_at..], [0x02, 0x0e, 0xfd, 0xfd]);
    let back: fury::Value = fury.deserialize(&again).unwrap();
    assert_eq!(back, v);
}
