//! Checks for the borrowed mirrors of the struct and compat vectors.
//!
//! `conformance/generators/rust_mirrors.py` writes, next to each owned mirror
//! (`src/mirrors/structs_mirror.rs`, `compat_mirror.rs`), a borrowed one
//! (`structs_borrowed.rs`, `compat_borrowed.rs`): every struct again, with the same fields and
//! registration, but with `&'a str` for strings (`Cow<'a, str>` where a vector holds text the
//! input cannot lend as UTF-8), `&'a [u8]` for bytes, [`fury::ArrayView`] for the numeric
//! dense arrays, and the borrowed mirrors of nested structs. Each borrowed type converts to its
//! owned mirror ([`OwnedMirror`]) and lists the slices it borrows ([`Borrows`]); one
//! [`BorrowedCase`] per vector calls the generic checks here with the vector's static types.

use crate::structs::{short_type_name, CompatKind};
use fury::{ArrayView, Deserialize, DeserializeOwned, Fury, Serialize};
use std::borrow::Cow;
use std::fmt::Debug;

/// The owned mirror `O` of a borrowed value: the same value with every borrowed part copied.
pub trait OwnedMirror<O> {
    /// The owned value.
    fn to_owned_mirror(&self) -> O;
}

/// What a borrowed value holds of its input.
#[derive(Debug, Default)]
pub struct Parts<'s> {
    /// Every `&str`, `&[u8]`, array view and borrowed `Cow`, as bytes.
    pub borrowed: Vec<&'s [u8]>,
    /// The text of every `Cow<str>` that owns its text (text the input holds as non-ASCII
    /// LATIN1 or as UTF-16).
    pub owned_texts: Vec<&'s str>,
}

/// A value that may borrow from its input: lists what it borrows.
pub trait Borrows {
    /// Pushes the borrowed parts of `self` onto `out`.
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        let _ = out;
    }
}

/// Types that are their own owned mirror and borrow nothing.
macro_rules! owned_as_is {
    ($($t:ty),* $(,)?) => {$(
        impl OwnedMirror<$t> for $t {
            fn to_owned_mirror(&self) -> $t {
                self.clone()
            }
        }
        impl Borrows for $t {}
    )*};
}

owned_as_is!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    fury::F16,
    fury::BF16,
    fury::Date,
    fury::Timestamp,
    fury::Duration,
    fury::UInt8Array,
    fury::Value,
);

impl<T: Clone> OwnedMirror<fury::Fixed<T>> for fury::Fixed<T> {
    fn to_owned_mirror(&self) -> fury::Fixed<T> {
        self.clone()
    }
}
impl<T> Borrows for fury::Fixed<T> {}

impl<T: Clone> OwnedMirror<fury::Tagged<T>> for fury::Tagged<T> {
    fn to_owned_mirror(&self) -> fury::Tagged<T> {
        self.clone()
    }
}
impl<T> Borrows for fury::Tagged<T> {}

impl OwnedMirror<String> for &str {
    fn to_owned_mirror(&self) -> String {
        (*self).to_string()
    }
}
impl Borrows for &str {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        out.borrowed.push(self.as_bytes());
    }
}

impl OwnedMirror<String> for Cow<'_, str> {
    fn to_owned_mirror(&self) -> String {
        self.to_string()
    }
}
impl Borrows for Cow<'_, str> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        match self {
            Cow::Borrowed(s) => out.borrowed.push(s.as_bytes()),
            Cow::Owned(s) => out.owned_texts.push(s),
        }
    }
}

impl OwnedMirror<Vec<u8>> for &[u8] {
    fn to_owned_mirror(&self) -> Vec<u8> {
        self.to_vec()
    }
}
impl<const N: usize> OwnedMirror<[u8; N]> for &[u8] {
    fn to_owned_mirror(&self) -> [u8; N] {
        (*self)
            .try_into()
            .unwrap_or_else(|_| panic!("{} bytes for a [u8; {N}]", self.len()))
    }
}
impl Borrows for &[u8] {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        out.borrowed.push(self);
    }
}

/// The numbers an [`ArrayView`] holds.
macro_rules! array_view {
    ($($t:ty),* $(,)?) => {$(
        impl OwnedMirror<Vec<$t>> for ArrayView<'_, $t> {
            fn to_owned_mirror(&self) -> Vec<$t> {
                self.to_vec()
            }
        }
        impl<const N: usize> OwnedMirror<[$t; N]> for ArrayView<'_, $t> {
            fn to_owned_mirror(&self) -> [$t; N] {
                self.to_vec()
                    .try_into()
                    .unwrap_or_else(|v: Vec<$t>| panic!("{} elements for a [T; {N}]", v.len()))
            }
        }
        impl Borrows for ArrayView<'_, $t> {
            fn parts<'s>(&'s self, out: &mut Parts<'s>) {
                out.borrowed.push(self.as_bytes());
            }
        }
    )*};
}

array_view!(
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    fury::F16,
    fury::BF16
);

impl OwnedMirror<fury::UInt8Array> for fury::UInt8Array<&[u8]> {
    fn to_owned_mirror(&self) -> fury::UInt8Array {
        fury::UInt8Array(self.0.to_vec())
    }
}
impl Borrows for fury::UInt8Array<&[u8]> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        out.borrowed.push(self.0);
    }
}

impl<A: OwnedMirror<B>, B> OwnedMirror<Option<B>> for Option<A> {
    fn to_owned_mirror(&self) -> Option<B> {
        self.as_ref().map(A::to_owned_mirror)
    }
}
impl<A: Borrows> Borrows for Option<A> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        if let Some(a) = self {
            a.parts(out);
        }
    }
}

impl<A: OwnedMirror<B>, B> OwnedMirror<Vec<B>> for Vec<A> {
    fn to_owned_mirror(&self) -> Vec<B> {
        self.iter().map(A::to_owned_mirror).collect()
    }
}
impl<A: Borrows> Borrows for Vec<A> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.iter().for_each(|a| a.parts(out));
    }
}

impl<A: OwnedMirror<B>, B, const N: usize> OwnedMirror<[B; N]> for [A; N] {
    fn to_owned_mirror(&self) -> [B; N] {
        self.each_ref().map(A::to_owned_mirror)
    }
}
impl<A: Borrows, const N: usize> Borrows for [A; N] {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.iter().for_each(|a| a.parts(out));
    }
}

impl<A: OwnedMirror<B>, B> OwnedMirror<fury::List<B>> for fury::List<A> {
    fn to_owned_mirror(&self) -> fury::List<B> {
        fury::List(self.0.to_owned_mirror())
    }
}
impl<A: Borrows> Borrows for fury::List<A> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.0.parts(out);
    }
}

impl<A: OwnedMirror<B>, B> OwnedMirror<fury::Set<B>> for fury::Set<A> {
    fn to_owned_mirror(&self) -> fury::Set<B> {
        fury::Set(self.0.to_owned_mirror())
    }
}
impl<A: Borrows> Borrows for fury::Set<A> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.0.parts(out);
    }
}

impl<K: OwnedMirror<K2>, V: OwnedMirror<V2>, K2, V2> OwnedMirror<fury::Map<K2, V2>>
    for fury::Map<K, V>
{
    fn to_owned_mirror(&self) -> fury::Map<K2, V2> {
        fury::Map(
            self.0
                .iter()
                .map(|(k, v)| (k.to_owned_mirror(), v.to_owned_mirror()))
                .collect(),
        )
    }
}
impl<K: Borrows, V: Borrows> Borrows for fury::Map<K, V> {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        for (k, v) in &self.0 {
            k.parts(out);
            v.parts(out);
        }
    }
}

impl<A: OwnedMirror<A2>, B: OwnedMirror<B2>, A2, B2> OwnedMirror<(A2, B2)> for (A, B) {
    fn to_owned_mirror(&self) -> (A2, B2) {
        (self.0.to_owned_mirror(), self.1.to_owned_mirror())
    }
}
impl<A: Borrows, B: Borrows> Borrows for (A, B) {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.0.parts(out);
        self.1.parts(out);
    }
}

impl<A: OwnedMirror<A2>, B: OwnedMirror<B2>, C: OwnedMirror<C2>, A2, B2, C2>
    OwnedMirror<(A2, B2, C2)> for (A, B, C)
{
    fn to_owned_mirror(&self) -> (A2, B2, C2) {
        (
            self.0.to_owned_mirror(),
            self.1.to_owned_mirror(),
            self.2.to_owned_mirror(),
        )
    }
}
impl<A: Borrows, B: Borrows, C: Borrows> Borrows for (A, B, C) {
    fn parts<'s>(&'s self, out: &mut Parts<'s>) {
        self.0.parts(out);
        self.1.parts(out);
        self.2.parts(out);
    }
}

// ---- the checks ----

/// The `Fury` instances of one vector: the owned and the borrowed mirror's, for the writer's
/// and the reader's side (the same types on both sides but for evolution vectors).
pub struct Furies {
    /// The owned writer mirror's.
    pub owned_writer: Fury,
    /// The owned reader mirror's.
    pub owned_reader: Fury,
    /// The borrowed writer mirror's.
    pub borrowed_writer: Fury,
    /// The borrowed reader mirror's.
    pub borrowed_reader: Fury,
}

/// What one vector's check saw.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Borrowed parts checked to lie in the input (empty ones aside, which have no address).
    pub borrowed: usize,
    /// `Cow<str>` fields that own their text (as the vector's encodings require).
    pub owned_texts: usize,
    /// A step neither mirror can do (decoding the bytes, or encoding the value read), with
    /// the same error for both: the step and the owned mirror's error.
    pub neither: Option<String>,
}

/// Checks one vector: `check(furies, pyfory_bytes, writer_same)`.
pub type BorrowedCheckFn = fn(&Furies, &[u8], bool) -> Result<Outcome, String>;

/// One struct or compat vector, bound to its owned and borrowed static types by the
/// generated borrowed mirror.
pub struct BorrowedCase {
    /// Vector name.
    pub name: &'static str,
    /// Plain (every struct vector), or the compat vector's kind.
    pub kind: CompatKind,
    /// The borrowed writer type (for messages).
    pub writer_type: &'static str,
    /// The borrowed reader type (for messages).
    pub reader_type: &'static str,
    /// Builds the four `Fury` instances (with the vector's settings and registrations).
    pub furies: fn() -> Result<Furies, String>,
    /// [`check_plain`], [`check_evolution`] or [`check_expected_error`].
    pub check: BorrowedCheckFn,
    /// Decodes bytes as the borrowed writer type with the borrowed writer `Fury`.
    pub decode_writer: fn(&Fury, &[u8]) -> Result<(), String>,
    /// Decodes bytes as the borrowed reader type with the borrowed reader `Fury`.
    pub decode_reader: fn(&Fury, &[u8]) -> Result<(), String>,
}

/// Decodes `bytes` as a borrowed `B` and drops it.
pub fn decode_borrowed<'de, B: Deserialize<'de>>(
    fury: &Fury,
    bytes: &'de [u8],
) -> Result<(), String> {
    fury.deserialize::<B>(bytes)
        .map(drop)
        .map_err(|e| e.to_string())
}

fn inside(input: &[u8], part: &[u8]) -> bool {
    let range = input.as_ptr_range();
    range.start <= part.as_ptr() && part.as_ptr_range().end <= range.end
}

fn same<T: PartialEq + Debug>(a: &T, b: &T, bitwise: bool) -> bool {
    if bitwise {
        format!("{a:?}") == format!("{b:?}")
    } else {
        a == b
    }
}

/// One side (writer or reader types) of a vector: `bytes` decode as the borrowed `B` with
/// `borrowed` and as the owned `O` with `owned`;
///
/// 1. the borrowed value converts to the owned one (`bitwise`: compared by `Debug` text);
/// 2. every non-empty borrowed part lies in `bytes`, and exactly `owned_texts` `Cow<str>`
///    fields own their text;
/// 3. the borrowed value encodes to the bytes the owned one encodes to, and to `bytes` when
///    `exact` (the vector is `writer_same` and this is the writer's side).
#[allow(clippy::too_many_arguments)]
fn check_side<'de, B, O>(
    side: &str,
    owned: &Fury,
    borrowed: &Fury,
    bytes: &'de [u8],
    exact: bool,
    owned_texts: usize,
    bitwise: bool,
    out: &mut Outcome,
    problems: &mut Vec<String>,
) where
    B: Deserialize<'de> + Serialize + OwnedMirror<O> + Borrows + Debug,
    O: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let (bt, ot) = (short_type_name::<B>(), short_type_name::<O>());
    // The same error but for the type names.
    let same_error = |eo: &fury::Error, eb: &fury::Error| {
        let eo = eo.to_string().replace(std::any::type_name::<O>(), "");
        eo == eb.to_string().replace(std::any::type_name::<B>(), "")
    };
    let o = owned.deserialize::<O>(bytes);
    let b = borrowed.deserialize::<B>(bytes);
    let (o, b) = match (o, b) {
        (Ok(o), Ok(b)) => (o, b),
        (Err(eo), Err(eb)) if same_error(&eo, &eb) => {
            out.neither = Some(format!("{side}: decoding: {eo}"));
            return;
        }
        (o, b) => {
            if let Err(e) = &o {
                problems.push(format!("{side}: the owned mirror {ot} cannot decode: {e}"));
            }
            if let Err(e) = &b {
                problems.push(format!(
                    "{side}: the borrowed mirror {bt} cannot decode: {e}"
                ));
            }
            return;
        }
    };
    let converted = b.to_owned_mirror();
    if !same(&converted, &o, bitwise) {
        problems.push(format!(
            "{side}: the borrowed value differs from the owned one:\n  borrowed {b:?}\n  as owned {converted:?}\n  owned    {o:?}"
        ));
    }
    let mut parts = Parts::default();
    b.parts(&mut parts);
    for p in parts.borrowed.iter().filter(|p| !p.is_empty()) {
        if inside(bytes, p) {
            out.borrowed += 1;
        } else {
            problems.push(format!(
                "{side}: a borrowed part ({} bytes, {:?}) does not point into the input",
                p.len(),
                String::from_utf8_lossy(p)
            ));
        }
    }
    out.owned_texts += parts.owned_texts.len();
    if parts.owned_texts.len() != owned_texts {
        problems.push(format!(
            "{side}: {} Cow<str> field(s) own their text ({:?}); the vector's encodings make {owned_texts} unborrowable",
            parts.owned_texts.len(),
            parts.owned_texts
        ));
    }
    match (owned.serialize(&o), borrowed.serialize(&b)) {
        (Ok(eo), Ok(eb)) => {
            if eb != eo {
                problems.push(format!(
                    "{side}: the borrowed value encodes to other bytes than the owned one:\n  borrowed {}\n  owned    {}",
                    crate::hex_encode(&eb),
                    crate::hex_encode(&eo)
                ));
            }
            if exact && eb != bytes {
                problems.push(format!(
                    "{side}: the borrowed value encodes to other bytes than pyfory's:\n  borrowed {}\n  pyfory   {}",
                    crate::hex_encode(&eb),
                    crate::hex_encode(bytes)
                ));
            }
        }
        (Err(eo), Err(eb)) if same_error(&eo, &eb) => {
            out.neither = Some(format!("{side}: encoding: {eo}"));
        }
        (Err(eo), Err(eb)) => problems.push(format!(
            "{side}: neither mirror encodes, with other errors:\n  owned    {eo}\n  borrowed {eb}"
        )),
        (Ok(_), Err(e)) => problems.push(format!(
            "{side}: the borrowed mirror {bt} cannot encode what the owned one can: {e}"
        )),
        (Err(e), Ok(_)) => problems.push(format!(
            "{side}: the owned mirror {ot} cannot encode what the borrowed one can: {e}"
        )),
    }
}

fn finish(out: Outcome, problems: Vec<String>) -> Result<Outcome, String> {
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("\n"))
    }
}

/// A vector with one type: [`check_side`] with the writer's `Fury` instances, byte-exact
/// against pyfory's bytes when `writer_same`.
pub fn check_plain<'de, B, O>(
    f: &Furies,
    bytes: &'de [u8],
    writer_same: bool,
    owned_texts: usize,
    bitwise: bool,
) -> Result<Outcome, String>
where
    B: Deserialize<'de> + Serialize + OwnedMirror<O> + Borrows + Debug,
    O: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let (mut out, mut problems) = (Outcome::default(), Vec::new());
    check_side::<B, O>(
        "writer",
        &f.owned_writer,
        &f.borrowed_writer,
        bytes,
        writer_same,
        owned_texts,
        bitwise,
        &mut out,
        &mut problems,
    );
    finish(out, problems)
}

/// An evolution vector (written as `W`, read as `R`): [`check_side`] for the writer's types
/// (byte-exact against pyfory's bytes when `writer_same`) and for the reader's types.
#[allow(clippy::too_many_arguments)]
pub fn check_evolution<'de, BW, OW, BR, OR>(
    f: &Furies,
    bytes: &'de [u8],
    writer_same: bool,
    owned_texts_writer: usize,
    owned_texts_reader: usize,
    bitwise: bool,
) -> Result<Outcome, String>
where
    BW: Deserialize<'de> + Serialize + OwnedMirror<OW> + Borrows + Debug,
    OW: DeserializeOwned + Serialize + PartialEq + Debug,
    BR: Deserialize<'de> + Serialize + OwnedMirror<OR> + Borrows + Debug,
    OR: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let (mut out, mut problems) = (Outcome::default(), Vec::new());
    check_side::<BW, OW>(
        "writer",
        &f.owned_writer,
        &f.borrowed_writer,
        bytes,
        writer_same,
        owned_texts_writer,
        bitwise,
        &mut out,
        &mut problems,
    );
    check_side::<BR, OR>(
        "reader",
        &f.owned_reader,
        &f.borrowed_reader,
        bytes,
        false,
        owned_texts_reader,
        bitwise,
        &mut out,
        &mut problems,
    );
    finish(out, problems)
}

/// An `expected_error` vector: the writer's side as in [`check_evolution`]; reading the
/// bytes as the borrowed reader type `BR` fails, as it does for the owned reader type `OR`.
pub fn check_expected_error<'de, BW, OW, BR, OR>(
    f: &Furies,
    bytes: &'de [u8],
    writer_same: bool,
    owned_texts_writer: usize,
    bitwise: bool,
) -> Result<Outcome, String>
where
    BW: Deserialize<'de> + Serialize + OwnedMirror<OW> + Borrows + Debug,
    OW: DeserializeOwned + Serialize + PartialEq + Debug,
    BR: Deserialize<'de> + Debug,
    OR: DeserializeOwned + Debug,
{
    let (mut out, mut problems) = (Outcome::default(), Vec::new());
    check_side::<BW, OW>(
        "writer",
        &f.owned_writer,
        &f.borrowed_writer,
        bytes,
        writer_same,
        owned_texts_writer,
        bitwise,
        &mut out,
        &mut problems,
    );
    if let Ok(v) = f.owned_reader.deserialize::<OR>(bytes) {
        problems.push(format!(
            "reader: the owned mirror {} reads the bytes: {v:?}",
            short_type_name::<OR>()
        ));
    }
    if let Ok(v) = f.borrowed_reader.deserialize::<BR>(bytes) {
        problems.push(format!(
            "reader: the borrowed mirror {} reads the bytes: {v:?}",
            short_type_name::<BR>()
        ));
    }
    finish(out, problems)
}

/// Builds a struct's TypeDef in compatible mode from its owned and its borrowed mirror.
pub type TypeDefsFn = fn() -> Result<(Vec<u8>, Vec<u8>), String>;

/// A struct type's owned and borrowed mirror, for comparing what the derive makes of them.
pub struct MirrorTypeCase {
    /// The type's name in the vector file.
    pub type_name: &'static str,
    /// The schema fingerprints (`compress_int` false, then true): owned, then borrowed.
    pub fingerprints: fn() -> ([String; 2], [String; 2]),
    /// The TypeDefs in compatible mode: owned, then borrowed.
    pub typedefs: TypeDefsFn,
    /// pyfory's fingerprint and hash (the struct vectors list them), if known.
    pub pyfory_hash: Option<(&'static str, i32)>,
    /// pyfory's TypeDef bytes in hex (the compat vectors list them), if known.
    pub pyfory_typedef_hex: Option<&'static str>,
}

/// The schema fingerprints of a derived struct for `compress_int` false and true.
pub fn fingerprints<T: fury::__private::StructBody>() -> [String; 2] {
    [T::fingerprint(false), T::fingerprint(true)]
}
