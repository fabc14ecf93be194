//! Checks for the struct and enum vectors (`conformance/vectors_structs/`).
//!
//! `conformance/gen_rust_mirrors.py` writes `tests/generated/structs_mirror.rs`: a Rust type
//! per struct/enum definition, the expected value of every vector, and one [`Case`] per
//! vector whose functions call the generic checks here with the vector's static Rust type.

use fury::{Deserialize, Fury, Serialize};
use std::fmt::Debug;

/// Checks pyfory's bytes; the flag asks for byte equality of our encoding with pyfory's.
pub type CheckFn = fn(&Fury, &[u8], bool) -> Result<Vec<u8>, String>;

/// One struct/enum vector, bound to its static Rust type by the generated mirror.
pub struct Case {
    /// Vector name.
    pub name: &'static str,
    /// The Rust type the vector's schema maps to (for messages).
    pub rust_type: &'static str,
    /// [`check`] (or [`check_bitwise`]) of pyfory's bytes against the expected value; the flag
    /// asks for byte equality of our encoding with pyfory's.
    pub check: CheckFn,
    /// Decodes bytes as the Rust type, discarding the value (for hostile inputs).
    pub decode: fn(&Fury, &[u8]) -> Result<(), String>,
    /// Encodes the expected value (for the live check by pyfory).
    pub encode: fn(&Fury) -> Result<Vec<u8>, String>,
    /// Paths of sets and maps that pyfory wrote in another order than the sorted order of
    /// the `BTreeSet`/`BTreeMap` that mirrors them. Where this is not empty our bytes cannot
    /// equal pyfory's, so the caller checks a round trip instead of byte equality.
    pub order_differs: &'static [&'static str],
    /// The expected value holds a float NaN, so it is compared with [`check_bitwise`].
    pub has_nan: bool,
}

/// Checks one vector:
///
/// 1. pyfory's bytes decode as `T` to a value `==` to `expected`;
/// 2. that decoded value re-encodes to the same bytes as `expected` does (catches what `==`
///    cannot see: the sign of a zero float);
/// 3. `expected` serializes to exactly pyfory's bytes when `writer_same`, and otherwise to
///    bytes that decode back to a value `==` to it.
///
/// Returns our encoding of `expected`; the error lists every step that failed.
pub fn check<T>(
    fury: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    expected: T,
) -> Result<Vec<u8>, String>
where
    T: Serialize + Deserialize + PartialEq + Debug,
{
    check_with(fury, pyfory_bytes, writer_same, &expected, |a, b| a == b)
}

/// As [`check`], for values holding a float NaN (which is not `==` to itself): values are
/// compared by their `Debug` text (deterministic: the collections are ordered) and, through
/// step 2 of [`check`], by the bytes they encode to, which carry the float bit patterns.
pub fn check_bitwise<T>(
    fury: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    expected: T,
) -> Result<Vec<u8>, String>
where
    T: Serialize + Deserialize + PartialEq + Debug,
{
    check_with(fury, pyfory_bytes, writer_same, &expected, |a, b| {
        format!("{a:?}") == format!("{b:?}")
    })
}

fn check_with<T>(
    fury: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    expected: &T,
    eq: fn(&T, &T) -> bool,
) -> Result<Vec<u8>, String>
where
    T: Serialize + Deserialize + Debug,
{
    let ty = std::any::type_name::<T>();
    let mut problems = Vec::new();

    let decoded = match fury.deserialize::<T>(pyfory_bytes) {
        Ok(d) => {
            if !eq(&d, expected) {
                problems.push(format!(
                    "pyfory's bytes decode to another value:\n  decoded  {d:?}\n  expected {expected:?}"
                ));
            }
            Some(d)
        }
        Err(e) => {
            problems.push(format!("decoding pyfory's bytes as {ty}: {e}"));
            None
        }
    };

    let ours = match fury.serialize(expected) {
        Ok(b) => Some(b),
        Err(e) => {
            problems.push(format!("serializing the expected value: {e}"));
            None
        }
    };

    if let Some(ours) = &ours {
        if writer_same {
            if ours.as_slice() != pyfory_bytes {
                problems.push(format!(
                    "our bytes differ from pyfory's (first difference at byte {}):\n  ours   {}\n  pyfory {}",
                    first_difference(ours, pyfory_bytes),
                    crate::hex_encode(ours),
                    crate::hex_encode(pyfory_bytes)
                ));
            }
        } else {
            match fury.deserialize::<T>(ours) {
                Ok(back) if eq(&back, expected) => {}
                Ok(back) => problems.push(format!(
                    "our bytes decode to another value:\n  decoded  {back:?}\n  expected {expected:?}\n  ours {}",
                    crate::hex_encode(ours)
                )),
                Err(e) => problems.push(format!(
                    "decoding our own bytes: {e}\n  ours {}",
                    crate::hex_encode(ours)
                )),
            }
        }
        if let Some(d) = &decoded {
            match fury.serialize(d) {
                Ok(again) if &again == ours => {}
                Ok(again) => problems.push(format!(
                    "the decoded value encodes to other bytes than the expected value \
                     (float bits or sign of zero?):\n  decoded  {}\n  expected {}",
                    crate::hex_encode(&again),
                    crate::hex_encode(ours)
                )),
                Err(e) => problems.push(format!("serializing the decoded value: {e}")),
            }
        }
    }

    match (problems.is_empty(), ours) {
        (true, Some(ours)) => Ok(ours),
        _ => Err(problems.join("\n")),
    }
}

/// Decodes `bytes` as a `T` and drops the value.
pub fn decode<T: Deserialize>(fury: &Fury, bytes: &[u8]) -> Result<(), String> {
    fury.deserialize::<T>(bytes)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// Serializes `value`.
pub fn encode<T: Serialize>(fury: &Fury, value: &T) -> Result<Vec<u8>, String> {
    fury.serialize(value).map_err(|e| e.to_string())
}

/// Index of the first byte where `a` and `b` differ (the shorter length if one is a prefix).
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}
