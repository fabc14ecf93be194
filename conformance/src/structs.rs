//! Checks for the struct and enum vectors (`conformance/vectors/structs/`).
//!
//! `conformance/generators/rust_mirrors.py` writes `src/mirrors/structs_mirror.rs`: a Rust type
//! per struct/enum definition, the expected value of every vector, and one [`Case`] per
//! vector whose functions call the generic checks here with the vector's static Rust type.

use fury::{DeserializeOwned, Fury, Serialize};
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
    /// [`transcode`] as the Rust type.
    pub transcode: TranscodeFn,
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
    T: Serialize + DeserializeOwned + PartialEq + Debug,
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
    T: Serialize + DeserializeOwned + PartialEq + Debug,
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
    T: Serialize + DeserializeOwned + Debug,
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
pub fn decode<T: DeserializeOwned>(fury: &Fury, bytes: &[u8]) -> Result<(), String> {
    fury.deserialize::<T>(bytes)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// Decodes bytes as a `T` with one `Fury` and writes that value with another (for the
/// testee: `fury-testee` answers through these).
pub type TranscodeFn = fn(&Fury, &[u8], &Fury) -> Result<Vec<u8>, String>;

/// Decodes `bytes` as a `T` with `from` (every byte must be consumed) and serializes the
/// value with `to`, e.g. a same-schema stream to its compatible-mode form, which a dynamic
/// [`fury::Value`] can read without the type.
pub fn transcode<T: Serialize + DeserializeOwned>(
    from: &Fury,
    bytes: &[u8],
    to: &Fury,
) -> Result<Vec<u8>, String> {
    let value = from
        .deserialize::<T>(bytes)
        .map_err(|e| format!("decoding as {}: {e}", short_type_name::<T>()))?;
    to.serialize(&value)
        .map_err(|e| format!("writing the {} read: {e}", short_type_name::<T>()))
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

// ---- compatible mode (`conformance/vectors/compat/`) ----
//
// `generators/rust_mirrors.py` writes `src/mirrors/compat_mirror.rs` from `compat.json`: a Rust
// type per definition (the versions of an evolution type are distinct Rust types sharing one
// registration), the writer's value and the reader's expected value of every vector, and one
// [`CompatCase`] per vector that builds its own `Fury` instances.

/// Registers one type on a `Fury` (a generated case lists the ones each side needs).
pub type RegisterFn = fn(&mut Fury) -> Result<(), String>;

/// Registers `T` by the registration its `#[fury(..)]` attribute names.
pub fn register<T: fury::FuryObject>(fury: &mut Fury) -> Result<(), String> {
    fury.register::<T>()
        .map(drop)
        .map_err(|e| format!("registering {}: {e}", short_type_name::<T>()))
}

/// What kind of compatible-mode vector a [`CompatCase`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompatKind {
    /// One type, written and read with the same definitions (like the struct vectors).
    Plain,
    /// Written as `writer_type`, read as `reader_type`; pyfory's reader confirmed `expected`.
    Evolution,
    /// Written as `writer_type`; reading it as `reader_type` must fail.
    ExpectedError,
    /// As [`CompatKind::Evolution`], but pyfory's own reader fails on these bytes, so the
    /// expected value is the vector file's prediction, not confirmed by pyfory.
    PyforyReaderError,
}

/// Checks pyfory's bytes with the writer's and the reader's `Fury`; the flag asks for byte
/// equality of our encoding with pyfory's. Returns our encoding of the writer's value.
pub type CompatCheckFn = fn(&Fury, &Fury, &[u8], bool) -> Result<Vec<u8>, String>;

/// One compatible-mode vector, bound to its static Rust types by the generated mirror.
pub struct CompatCase {
    /// Vector name.
    pub name: &'static str,
    /// Plain, evolution, expected error, or unconfirmed by pyfory's reader.
    pub kind: CompatKind,
    /// The Rust type the writer's value has (the schema's type for a plain vector).
    pub writer_type: &'static str,
    /// The Rust type the reader decodes as (the same for a plain vector).
    pub reader_type: &'static str,
    /// A compatible-mode `Fury` with the plain types and the writer's evolution types.
    pub writer_fury: fn() -> Result<Fury, String>,
    /// A compatible-mode `Fury` with the plain types and the reader's evolution types.
    pub reader_fury: fn() -> Result<Fury, String>,
    /// [`check`] / [`check_bitwise`] (plain), [`check_evolution`] or
    /// [`check_expected_error`], called as `check(writer, reader, pyfory_bytes, byte_exact)`.
    pub check: CompatCheckFn,
    /// Decodes bytes as the reader type with the reader's `Fury`, dropping the value.
    pub decode: fn(&Fury, &[u8]) -> Result<(), String>,
    /// Encodes the writer's value with the writer's `Fury` (for the live check by pyfory).
    pub encode: fn(&Fury) -> Result<Vec<u8>, String>,
    /// [`transcode`] as the writer's type.
    pub transcode_writer: TranscodeFn,
    /// [`transcode`] as the reader's type.
    pub transcode_reader: TranscodeFn,
    /// A value holds a float NaN, so values are compared by their `Debug` text.
    pub has_nan: bool,
    /// A value holds a struct or enum in an `any` position, mirrored as `Value::Struct` /
    /// `Value::Enum` (what fury decodes there).
    pub dynamic_user_values: bool,
}

/// A type's TypeDef: pyfory's bytes and ours.
pub struct TypeDefCase {
    /// The type's name in the vector file (and in the mirror).
    pub type_name: &'static str,
    /// pyfory's TypeDef bytes, header included, in lowercase hex.
    pub typedef_hex: &'static str,
    /// Our TypeDef bytes for the type, from a `Fury` that registers it.
    pub local: fn() -> Result<Vec<u8>, String>,
}

/// The TypeDef `fury` writes for `T` in compatible mode (with its `compress_int` setting).
pub fn local_typedef<T: fury::FuryObject>(fury: &Fury) -> Result<Vec<u8>, String> {
    let registry = fury.registry();
    let entry = registry
        .get::<T>()
        .ok_or_else(|| format!("{} is not registered", short_type_name::<T>()))?;
    entry
        .local_typedef(registry, fury.config().compress_int())
        .map(|td| td.bytes.clone())
        .map_err(|e| format!("building the TypeDef of {}: {e}", short_type_name::<T>()))
}

/// Checks an evolution vector: data written as `W`, read as `R`.
///
/// * reader: pyfory's bytes decode with `reader` as `R` to `expected`, and that decoded value
///   encodes to the same bytes as `expected` (float bits, sign of zero);
/// * writer: pyfory's bytes decode with `writer` as `W` to `value` (likewise re-encoded);
///   `value` encodes with `writer` to exactly pyfory's bytes when `writer_same`, and otherwise
///   to bytes that `writer` decodes back to `value` and `reader` decodes to `expected`.
///
/// `bitwise` compares values by their `Debug` text (for NaNs). Returns our encoding of
/// `value`; the error lists every step that failed, each line starting `reader:` or `writer:`.
pub fn check_evolution<W, R>(
    writer: &Fury,
    reader: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    value: W,
    expected: R,
    bitwise: bool,
) -> Result<Vec<u8>, String>
where
    W: Serialize + DeserializeOwned + PartialEq + Debug,
    R: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let mut problems = Vec::new();
    check_read(
        reader,
        "reader",
        pyfory_bytes,
        "pyfory's bytes",
        &expected,
        bitwise,
        &mut problems,
    );
    let ours = check_write(
        writer,
        pyfory_bytes,
        writer_same,
        &value,
        bitwise,
        &mut problems,
    );
    if let Some(ours) = &ours {
        if ours.as_slice() != pyfory_bytes {
            check_read(
                reader,
                "reader",
                ours,
                "our bytes",
                &expected,
                bitwise,
                &mut problems,
            );
        }
    }
    finish(problems, ours)
}

/// Checks an `expected_error` vector: reading pyfory's bytes (and ours) with `reader` as `R`
/// must return an error, without panicking. The writer's side is checked as in
/// [`check_evolution`]. Returns our encoding of `value`.
pub fn check_expected_error<W, R>(
    writer: &Fury,
    reader: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    value: W,
    bitwise: bool,
) -> Result<Vec<u8>, String>
where
    W: Serialize + DeserializeOwned + PartialEq + Debug,
    R: DeserializeOwned + Debug,
{
    let mut problems = Vec::new();
    expect_read_error::<R>(reader, pyfory_bytes, "pyfory's bytes", &mut problems);
    let ours = check_write(
        writer,
        pyfory_bytes,
        writer_same,
        &value,
        bitwise,
        &mut problems,
    );
    if let Some(ours) = &ours {
        if ours.as_slice() != pyfory_bytes {
            expect_read_error::<R>(reader, ours, "our bytes", &mut problems);
        }
    }
    finish(problems, ours)
}

fn finish(problems: Vec<String>, ours: Option<Vec<u8>>) -> Result<Vec<u8>, String> {
    match (problems.is_empty(), ours) {
        (true, Some(ours)) => Ok(ours),
        _ => Err(problems.join("\n")),
    }
}

fn values_eq<T: PartialEq + Debug>(a: &T, b: &T, bitwise: bool) -> bool {
    if bitwise {
        format!("{a:?}") == format!("{b:?}")
    } else {
        a == b
    }
}

/// Runs `f`, turning a panic into `Err(message)`.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "non-string panic".to_string())
    })
}

/// `std::any::type_name` without the module paths (`Vec<EvoPersonV1>`).
pub fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(""));
            word.clear();
            out.push(c);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(""));
    out
}

/// Decodes `bytes` with `fury` as `T` and compares with `expected` (and the bytes both
/// encode to); pushes a `side: ...` line per problem.
fn check_read<T>(
    fury: &Fury,
    side: &str,
    bytes: &[u8],
    what: &str,
    expected: &T,
    bitwise: bool,
    problems: &mut Vec<String>,
) where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let ty = short_type_name::<T>();
    match guarded(|| fury.deserialize::<T>(bytes)) {
        Err(p) => problems.push(format!("{side}: decoding {what} as {ty} panics: {p}")),
        Ok(Err(e)) => problems.push(format!("{side}: decoding {what} as {ty}: {e}")),
        Ok(Ok(d)) => {
            if !values_eq(&d, expected, bitwise) {
                problems.push(format!(
                    "{side}: {what} decode as {ty} to another value:\n  decoded  {d:?}\n  expected {expected:?}"
                ));
            } else if let (Ok(a), Ok(b)) = (fury.serialize(&d), fury.serialize(expected)) {
                if a != b {
                    problems.push(format!(
                        "{side}: the value decoded from {what} encodes to other bytes than the \
                         expected value (float bits or sign of zero?):\n  decoded  {}\n  expected {}",
                        crate::hex_encode(&a),
                        crate::hex_encode(&b)
                    ));
                }
            }
        }
    }
}

/// The writer's side: pyfory's bytes decode to `value`; `value` encodes to pyfory's bytes
/// (`writer_same`) or to bytes that decode back to it. Returns our bytes.
fn check_write<W>(
    writer: &Fury,
    pyfory_bytes: &[u8],
    writer_same: bool,
    value: &W,
    bitwise: bool,
    problems: &mut Vec<String>,
) -> Option<Vec<u8>>
where
    W: Serialize + DeserializeOwned + PartialEq + Debug,
{
    check_read(
        writer,
        "writer",
        pyfory_bytes,
        "pyfory's bytes",
        value,
        bitwise,
        problems,
    );
    let ours = match guarded(|| writer.serialize(value)) {
        Err(p) => {
            problems.push(format!("writer: serializing the value panics: {p}"));
            return None;
        }
        Ok(Err(e)) => {
            problems.push(format!("writer: serializing the value: {e}"));
            return None;
        }
        Ok(Ok(b)) => b,
    };
    if writer_same {
        if ours.as_slice() != pyfory_bytes {
            problems.push(format!(
                "writer: our bytes differ from pyfory's (first difference at byte {}):\n  ours   {}\n  pyfory {}",
                first_difference(&ours, pyfory_bytes),
                crate::hex_encode(&ours),
                crate::hex_encode(pyfory_bytes)
            ));
        }
    } else {
        check_read(
            writer,
            "writer",
            &ours,
            "our bytes",
            value,
            bitwise,
            problems,
        );
    }
    Some(ours)
}

/// Decoding `bytes` with `fury` as `T` must return an error (not a value, not a panic).
fn expect_read_error<T: DeserializeOwned + Debug>(
    fury: &Fury,
    bytes: &[u8],
    what: &str,
    problems: &mut Vec<String>,
) {
    let ty = short_type_name::<T>();
    match guarded(|| fury.deserialize::<T>(bytes)) {
        Ok(Err(_)) => {}
        Ok(Ok(d)) => problems.push(format!(
            "reader: decoding {what} as {ty} succeeds, but pyfory's reader fails:\n  decoded {d:?}"
        )),
        Err(p) => problems.push(format!("reader: decoding {what} as {ty} panics: {p}")),
    }
}
