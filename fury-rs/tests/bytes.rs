//! `bytes::Bytes` fields (feature `bytes`, on in the workspace's test build): BINARY like a
//! `Vec<u8>`, and slices of the input when it is given as `Bytes`. Inputs are pyfory 1.7.7's
//! bytes (conformance/vectors/structs, structs/scalars/*).
#![cfg(feature = "bytes")]

use bytes::{Bytes, BytesMut};
use fury::Fury;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 113)]
struct Scalars {
    text: String,
    data: Bytes,
    day: fury::Date,
    at: fury::Timestamp,
    span: fury::Duration,
    opt_text: Option<String>,
    opt_data: Option<Bytes>,
    opt_day: Option<fury::Date>,
    opt_at: Option<fury::Timestamp>,
    opt_span: Option<fury::Duration>,
}

// structs/scalars/utf8 and structs/scalars/all_present
const UTF8: &str = "01ff1b71922afc1f7f41f4ff3a000000000000000179c082e602fdfdfdfdff2a61c3a9e4bda0f09f98808e80bbdd830500ca5b071ef09f9880206f6b";
const ALL_PRESENT: &str = "01ff1b71922afc1fffffffffffffffff0065cd1d0001ff000000000000000000000000ff0107ff00ff80c60a00000000ff0c6f70740118c69a3b00";

fn inside(outer: &[u8], part: &[u8]) -> bool {
    let r = outer.as_ptr_range();
    r.start <= part.as_ptr() && part.as_ptr_range().end <= r.end
}

#[test]
fn bytes_fields_are_slices_of_a_bytes_input() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Scalars>().unwrap();
    for hex in [UTF8, ALL_PRESENT] {
        let input = Bytes::from(unhex(hex));
        let s: Scalars = fury.deserialize_bytes(&input).unwrap();
        assert!(
            s.data.is_empty() || inside(&input, &s.data),
            "data is a slice of the input"
        );
        if let Some(d) = s.opt_data.as_ref().filter(|d| !d.is_empty()) {
            assert!(inside(&input, d));
        }
        // Read from a plain slice, the same value, copied; written back, pyfory's bytes.
        let copied: Scalars = fury.deserialize(&input).unwrap();
        assert_eq!(copied, s);
        assert!(!inside(&input, &copied.data));
        assert_eq!(fury.serialize(&s).unwrap(), input);
        let mut buf = BytesMut::new();
        fury.serialize_to_buf(&s, &mut buf).unwrap();
        assert_eq!(buf, input);
        assert_eq!(fury.serialize_bytes(&s).unwrap(), input);
    }
    // The input outlives its slices: drop it, the field keeps the buffer alive.
    let input = Bytes::from(unhex(UTF8));
    let s: Scalars = fury.deserialize_bytes(&input).unwrap();
    assert!(inside(&input, &s.data));
    drop(input);
    assert_eq!(s.data, [0x79][..]);
}

#[test]
fn bytes_go_out_of_band_and_errors_leave_the_buffer_alone() {
    let fury = Fury::default();
    let value = vec![Bytes::from(vec![9u8; 4096]), Bytes::from_static(b"ab")];
    let (stream, buffers) = fury
        .serialize_with_buffers(&value, |b| b.len() < 16)
        .unwrap();
    assert_eq!(buffers.len(), 1);
    assert!(std::ptr::eq(buffers[0], &value[0][..]));
    let back: Vec<Bytes> = fury.deserialize_with_buffers(&stream, &buffers).unwrap();
    assert_eq!(back, value);
    // A failed serialize_to_buf writes nothing.
    let deep = {
        let mut v = fury::Value::Null;
        for _ in 0..300 {
            v = fury::Value::List(vec![v]);
        }
        v
    };
    let mut buf = BytesMut::from(&b"keep"[..]);
    assert!(fury.serialize_to_buf(&deep, &mut buf).is_err());
    assert_eq!(&buf[..], b"keep");
    // Truncated input is an error.
    let input = Bytes::from(unhex(UTF8));
    let mut f = Fury::builder().compatible(false).build();
    f.register::<Scalars>().unwrap();
    for n in 0..input.len() {
        assert!(f.deserialize_bytes::<Scalars>(&input.slice(..n)).is_err());
    }
}

#[test]
fn a_vec_is_cleared_even_with_the_traits_in_scope() {
    // The hidden hooks of `Deserialize` must not shadow `Vec` methods for users who import
    // the traits (a hook once named `clear` did, and `serialize_to_buf` appended).
    #[allow(unused_imports)]
    use fury::{Deserialize, Serialize};
    let fury = Fury::default();
    let mut a = BytesMut::new();
    fury.serialize_to_buf(&1i32, &mut a).unwrap();
    let mut b = BytesMut::new();
    fury.serialize_to_buf(&2i32, &mut b).unwrap();
    assert_eq!(b.len(), a.len(), "{a:?} {b:?}");
    let mut v = vec![1u8, 2];
    v.clear();
    assert!(v.is_empty());
}
