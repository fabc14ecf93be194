//! The decoders that came after the first campaign: out-of-band buffers, unions, extension
//! types, decimals and rows. One target (`kinds`); the first input byte picks the decoder,
//! the rest is its input. Each decode that succeeds must re-encode to bytes that decode to the
//! same value (`REENCODE_CHECK`). The types are those of the conformance vectors of each kind
//! (conformance/tests/union.rs, ext.rs, row.rs), so the seeds are pyfory's bytes.

use fury::row::FuryRow;
use fury::wire::{ReadContext, WriteContext};
use fury::{Ext, Fury, FuryObject, Value};

use super::{hex, REENCODE_CHECK};

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 301)]
pub struct Dog {
    #[fury(id = 1)]
    name: String,
    #[fury(id = 2)]
    age: i32,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 302)]
pub struct Cat {
    #[fury(id = 1)]
    name: String,
    #[fury(id = 2)]
    lives: i32,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 300)]
pub enum Animal {
    Dog(Dog),
    Cat(Cat),
    Label(String),
    Nothing,
    #[fury(unknown)]
    Other(fury::UnknownCase),
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 303)]
pub struct Zoo {
    #[fury(id = 1)]
    star: Animal,
    #[fury(id = 2)]
    animals: Vec<Animal>,
    #[fury(id = 3)]
    maybe: Option<Animal>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(ext, id = 400)]
pub struct Point {
    x: i32,
    y: i32,
}

impl Ext for Point {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        ctx.writer.var_i32(self.x);
        ctx.writer.var_i32(self.y);
        Ok(())
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Ok(Point {
            x: ctx.reader.var_i32()?,
            y: ctx.reader.var_i32()?,
        })
    }
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 401)]
pub struct Shape {
    name: String,
    origin: Point,
    path: Vec<Point>,
    maybe: Option<Point>,
}

/// A row of the usual field kinds (scalars, a string, bytes, an optional, a list, a map, a
/// nested row).
#[derive(FuryRow, Debug, Clone, PartialEq)]
pub struct Inner {
    id: i64,
    label: Option<String>,
}

#[derive(FuryRow, Debug, Clone, PartialEq)]
pub struct Record {
    flag: bool,
    small: i16,
    ratio: f64,
    name: String,
    data: Vec<u8>,
    tags: Vec<Option<String>>,
    counts: std::collections::BTreeMap<String, i32>,
    inner: Inner,
    maybe: Option<Inner>,
}

fn fury(compatible: bool, tracking: bool) -> Fury {
    let mut f = Fury::builder()
        .compatible(compatible)
        .ref_tracking(tracking)
        .build();
    for r in [
        f.register::<Dog>().map(drop),
        f.register::<Cat>().map(drop),
        f.register::<Animal>().map(drop),
        f.register::<Zoo>().map(drop),
        f.register::<Point>().map(drop),
        f.register::<Shape>().map(drop),
    ] {
        r.expect("the kinds' types register");
    }
    f
}

fn typed<T>(f: &Fury, data: &[u8])
where
    T: fury::Serialize + fury::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let Ok(v) = f.deserialize::<T>(data) else {
        return;
    };
    let bytes = match f.serialize(&v) {
        Ok(b) => b,
        // A value can decode and still not be writable (an unknown case holding a struct
        // known only dynamically): not a finding.
        Err(_) => return,
    };
    match f.deserialize::<T>(&bytes) {
        Ok(back) if back == v => {}
        // `PartialEq` calls a NaN (say, in an unknown case's dynamic value) different from
        // itself: then the value must at least write the same bytes again.
        Ok(back) if f.serialize(&back).ok().as_deref() == Some(&bytes[..]) => {}
        other => panic!(
            "{REENCODE_CHECK}: {} {v:?} wrote {} which reads as {other:?}\n input: {}",
            std::any::type_name::<T>(),
            hex(&bytes),
            hex(data)
        ),
    }
}

/// Out-of-band input layout: a buffer count byte, then each buffer as a 2-byte little-endian
/// length and its bytes, then the stream.
fn oob(data: &[u8]) {
    let Some((&n, mut rest)) = data.split_first() else {
        return;
    };
    let mut buffers = Vec::new();
    for _ in 0..n {
        let Some((len, tail)) = rest.split_first_chunk::<2>() else {
            return;
        };
        let len = usize::from(u16::from_le_bytes(*len));
        if tail.len() < len {
            return;
        }
        let (b, tail) = tail.split_at(len);
        buffers.push(b);
        rest = tail;
    }
    for (compatible, tracking) in [(false, false), (true, true)] {
        let f = fury(compatible, tracking);
        let Ok(v) = f.deserialize_with_buffers::<Value>(rest, &buffers) else {
            continue;
        };
        let Ok((stream, lent)) = f.serialize_with_buffers(&v, |b| b.len() < 4) else {
            continue;
        };
        match f.deserialize_with_buffers::<Value>(&stream, &lent) {
            Ok(back) if back.bitwise_eq(&v) => {}
            other => panic!(
                "{REENCODE_CHECK}: out-of-band {v:?} wrote {} which reads as {other:?}\n input: {}",
                hex(&stream),
                hex(data)
            ),
        }
    }
}

fn row(data: &[u8]) {
    let Ok(view) = Record::view_row(data) else {
        return;
    };
    let _ = (view.name(), view.tags().len(), view.counts().len());
    let Ok(r) = Record::from_row(data) else {
        panic!(
            "{REENCODE_CHECK}: a row that validates does not decode\n input: {}",
            hex(data)
        );
    };
    let again = r.to_row();
    match Record::from_row(&again) {
        Ok(back) if back == r => {}
        other => panic!(
            "{REENCODE_CHECK}: row {r:?} wrote {} which reads as {other:?}\n input: {}",
            hex(&again),
            hex(data)
        ),
    }
}

/// The selector byte's decoders, in order (fuzz/seed.py writes seeds with these selectors).
pub const KINDS: &[&str] = &[
    "oob",
    "union_same_schema",
    "union_compatible",
    "union_refs",
    "ext_same_schema",
    "ext_compatible",
    "decimal",
    "row",
];

/// The `kinds` target: the first byte picks one of [`KINDS`].
pub fn kinds(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    match KINDS.get(usize::from(pick) % KINDS.len()).copied() {
        Some("oob") => oob(rest),
        Some("union_same_schema") => {
            let f = fury(false, false);
            typed::<Animal>(&f, rest);
            typed::<Zoo>(&f, rest);
            typed::<Vec<Animal>>(&f, rest);
        }
        Some("union_compatible") => {
            let f = fury(true, false);
            typed::<Animal>(&f, rest);
            typed::<Zoo>(&f, rest);
        }
        Some("union_refs") => typed::<Zoo>(&fury(false, true), rest),
        Some("ext_same_schema") => {
            let f = fury(false, false);
            typed::<Shape>(&f, rest);
            typed::<Vec<Point>>(&f, rest);
        }
        Some("ext_compatible") => typed::<Shape>(&fury(true, false), rest),
        Some("decimal") => {
            let f = fury(true, false);
            typed::<fury::Decimal>(&f, rest);
            if let Ok(d) = f.deserialize::<fury::Decimal>(rest) {
                let _ = d.to_string().parse::<fury::Decimal>();
            }
        }
        Some("row") => row(rest),
        _ => {}
    }
}
