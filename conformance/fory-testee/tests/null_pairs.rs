//! fury-rs reads the null map pairs the official crate `fory` 1.7.7 writes (this crate's
//! dependency), whose present side has neither the track-ref bit nor a flag, as well as
//! pyfory's form, which has both (spec 04 §4.4; DISAGREEMENTS.md, D3).

use fury::{Fury, Value};
use std::collections::HashMap;

fn fory() -> fory::Fory {
    fory::Fory::builder().xlang(true).compatible(true).build()
}

#[test]
fn a_null_value_written_by_the_official_crate() {
    let m: HashMap<String, Option<i64>> = [("a".to_string(), None)].into();
    let bytes = fory().serialize(&m).expect("fory writes");
    assert_eq!(
        bytes,
        [0x01, 0xff, 0x18, 0x01, 0x10, 0x15, 0x06, 0x61],
        "the crate's layout"
    );
    let fury = Fury::builder().build();
    let back: std::collections::BTreeMap<String, Option<i64>> = fury
        .deserialize(&bytes)
        .expect("fury reads the crate's bytes");
    assert_eq!(back.get("a"), Some(&None));
    let v: Value = fury.deserialize(&bytes).expect("as a Value too");
    assert_eq!(
        v,
        Value::Map(vec![(Value::String("a".into()), Value::Null)])
    );
}

#[test]
fn a_null_key_written_by_the_official_crate() {
    let m: HashMap<Option<String>, i64> = [(None, 1)].into();
    let bytes = fory().serialize(&m).expect("fory writes");
    assert_eq!(bytes, [0x01, 0xff, 0x18, 0x01, 0x02, 0x07, 0x02]);
    let v: Value = Fury::builder()
        .build()
        .deserialize(&bytes)
        .expect("fury reads it");
    assert_eq!(v, Value::Map(vec![(Value::Null, Value::VarInt64(1))]));
}

#[test]
fn pyfory_form_still_reads() {
    // pyfory 1.7.7, {"a": None} and {None: 1} (vectors maps/null_value, maps/null_key)
    let fury = Fury::builder().build();
    let v: Value = fury
        .deserialize(&[0x01, 0xff, 0x18, 0x01, 0x11, 0xff, 0x15, 0x04, 0x61])
        .expect("pyfory's null value");
    assert_eq!(
        v,
        Value::Map(vec![(Value::String("a".into()), Value::Null)])
    );
    let v: Value = fury
        .deserialize(&[0x01, 0xff, 0x18, 0x01, 0x0a, 0xff, 0x07, 0x02])
        .expect("pyfory's null key");
    assert_eq!(v, Value::Map(vec![(Value::Null, Value::VarInt64(1))]));
}
