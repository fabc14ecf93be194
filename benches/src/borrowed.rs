//! The borrowed-decoding section: fury-rs decoding into the borrowed mirrors of
//! [`crate::views`] against its owned decode, fory's owned decode and the borrowing peers
//! (postcard and bitcode into the same mirrors, rkyv's validated access), and the
//! out-of-band table (a large `Vec<u8>` in band and out of band).

use crate::data::*;
use crate::datasets::{visit_borrowed_datasets, VisitBorrowed};
use crate::measure::{measure_loops, measure_ops, Measured, Settings, Timing};
use crate::peers::{aligned, borrowed_case, Case, Dataset, Engines, Op, Peer, Runner};
use crate::views::*;
use std::fmt::Debug;
use std::hint::black_box;
use std::sync::Arc;

/// Records in the `LogList` dataset.
pub const LOG_RECORDS: i32 = 1_000;

/// A dataset with borrowed mirrors: `Fury` is what fury-rs decodes, `Ref` what postcard and
/// bitcode decode (the same type except for `Sample`). rkyv's archived form and its access
/// come with [`Dataset`] (`crate::peers::Rkyv`).
pub trait Borrowed: Dataset {
    /// fury-rs's borrowed mirror.
    type Fury<'a>: fury::Deserialize<'a> + fury::Serialize + Debug;
    /// The serde / bitcode borrowed mirror.
    type Ref<'a>: serde::Serialize
        + serde::Deserialize<'a>
        + bitcode::Encode
        + bitcode::Decode<'a>
        + PartialEq
        + Debug;
    /// The value seen through the serde / bitcode mirror.
    fn view(&self) -> Self::Ref<'_>;
}

macro_rules! borrowed {
    ($($t:ident: $fury:ident, $serde:ident;)*) => {$(
        impl Borrowed for $t {
            type Fury<'a> = $fury<'a>;
            type Ref<'a> = $serde<'a>;
            fn view(&self) -> $serde<'_> {
                $serde::from(self)
            }
        }
    )*};
}

borrowed! {
    User: UserRef, UserRef;
    CustomerList: CustomerListRef, CustomerListRef;
    MediaContent: MediaContentRef, MediaContentRef;
    SampleList: SampleListView, SampleListRef;
    LogList: LogListRef, LogListRef;
}

/// A fury-rs instance with the borrowed mirrors registered (under their owned types' ids).
pub fn fury_borrowed(compatible: bool) -> fury::Fury {
    let mut fury = fury::Fury::builder().compatible(compatible).build();
    macro_rules! reg {
        ($($t:ty),*) => { $( fury.register::<$t>().expect(stringify!($t)); )* };
    }
    reg!(
        Player,
        Size,
        GroupRef<'static>,
        UserRef<'static>,
        CustomerRef<'static>,
        CustomerListRef<'static>,
        MediaRef<'static>,
        ImageRef<'static>,
        MediaContentRef<'static>,
        SampleView<'static>,
        SampleListView<'static>,
        LogEntryRef<'static>,
        LogListRef<'static>
    );
    fury
}

/// The instances of the section: the owned ones of the main tables and two borrowing ones.
#[derive(Clone)]
pub struct BorrowedEngines {
    /// The main tables' instances (the owned rows, and the writers of fury-rs's input).
    pub owned: Engines,
    /// fury-rs same-schema with the borrowed mirrors.
    pub fury: Arc<fury::Fury>,
    /// fury-rs compatible with the borrowed mirrors.
    pub fury_compatible: Arc<fury::Fury>,
}

impl BorrowedEngines {
    /// Builds and registers every instance.
    pub fn new(owned: Engines) -> Self {
        BorrowedEngines {
            owned,
            fury: Arc::new(fury_borrowed(false)),
            fury_compatible: Arc::new(fury_borrowed(true)),
        }
    }
}

/// A case that cannot be built (a borrowed row asked of the main tables).
pub fn unsupported(dataset: &'static str, peer: Peer) -> Case {
    decode_case(
        dataset,
        peer,
        Vec::new(),
        Err(format!(
            "{} is a row of the borrowed-decoding section only",
            peer.name()
        )),
        Box::new(|_| {}),
    )
}

fn clip(s: String) -> String {
    match s.char_indices().nth(400) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s,
    }
}

/// A decode-only case: the section measures deserialize only, so there is no serialize loop.
fn decode_case(
    dataset: &'static str,
    peer: Peer,
    bytes: Vec<u8>,
    roundtrip: Result<(), String>,
    deserialize: Runner,
) -> Case {
    Case {
        dataset,
        peer,
        size: bytes.len(),
        bytes,
        roundtrip,
        unavailable: None,
        serialize: None,
        deserialize,
    }
}

/// fury-rs into the borrowed mirror: `writer` (owned types) writes the input, `reader`
/// (borrowed mirrors) reads it; the round trip holds when the mirror writes the input back.
pub(crate) fn fury_case<T: Borrowed>(
    dataset: &'static str,
    peer: Peer,
    writer: &fury::Fury,
    reader: Arc<fury::Fury>,
    value: &T,
) -> Case {
    let input = writer.serialize(value).map_err(|e| format!("encode: {e}"));
    let roundtrip = input.as_ref().map_err(Clone::clone).and_then(|input| {
        let view = reader
            .deserialize::<T::Fury<'_>>(input)
            .map_err(|e| format!("decode: {e}"))?;
        let again = reader
            .serialize(&view)
            .map_err(|e| format!("re-encode: {e}"))?;
        if again == *input {
            Ok(())
        } else {
            Err(clip(format!(
                "the mirror writes other bytes; decoded {view:?}"
            )))
        }
    });
    let input = input.unwrap_or_default();
    let de = {
        let input = input.clone();
        Box::new(move |n: u64| {
            for _ in 0..n {
                let r = reader.deserialize::<T::Fury<'_>>(black_box(input.as_slice()));
                black_box(&r);
            }
        }) as Runner
    };
    decode_case(dataset, peer, input, roundtrip, de)
}

fn same<R: PartialEq + Debug>(decoded: R, expected: R) -> Result<(), String> {
    if decoded == expected {
        Ok(())
    } else {
        Err(clip(format!("decoded {decoded:?}, expected {expected:?}")))
    }
}

/// fury-rs compatible into a dynamic `fury::ValueRef`, by an instance that registers nothing
/// (structs read from their TypeDefs); the round trip holds when the value is the `Value` the
/// same bytes decode to and writes the input back.
pub(crate) fn value_ref_case<T: Borrowed>(
    dataset: &'static str,
    writer: &fury::Fury,
    value: &T,
) -> Case {
    let reader = fury::Fury::builder().compatible(true).build();
    let input = writer.serialize(value).map_err(|e| format!("encode: {e}"));
    let roundtrip = input.as_ref().map_err(Clone::clone).and_then(|input| {
        let v = reader
            .deserialize::<fury::ValueRef<'_>>(input)
            .map_err(|e| format!("decode: {e}"))?;
        let owned = reader
            .deserialize::<fury::Value>(input)
            .map_err(|e| format!("decode as Value: {e}"))?;
        if !v.to_owned().bitwise_eq(&owned) {
            return Err(clip(format!("decoded {v:?}, as Value {owned:?}")));
        }
        let again = reader
            .serialize(&v)
            .map_err(|e| format!("re-encode: {e}"))?;
        if again == *input {
            Ok(())
        } else {
            Err("the ValueRef writes other bytes".to_string())
        }
    });
    let input = input.unwrap_or_default();
    let de = {
        let input = input.clone();
        Box::new(move |n: u64| {
            for _ in 0..n {
                let r = reader.deserialize::<fury::ValueRef<'_>>(black_box(input.as_slice()));
                black_box(&r);
            }
        }) as Runner
    };
    decode_case(dataset, Peer::FuryRsValueRef, input, roundtrip, de)
}

/// postcard into the serde mirror, from what postcard writes for the owned value.
pub(crate) fn postcard_case<T: Borrowed>(dataset: &'static str, value: &T) -> Case {
    let input = postcard::to_allocvec(value).map_err(|e| format!("encode: {e}"));
    let roundtrip = input.as_ref().map_err(Clone::clone).and_then(|input| {
        let view = postcard::from_bytes::<T::Ref<'_>>(input).map_err(|e| format!("decode: {e}"))?;
        same(view, value.view())
    });
    let input = input.unwrap_or_default();
    let de = {
        let input = input.clone();
        Box::new(move |n: u64| {
            for _ in 0..n {
                let r = postcard::from_bytes::<T::Ref<'_>>(black_box(input.as_slice()));
                black_box(&r);
            }
        }) as Runner
    };
    decode_case(dataset, Peer::Postcard, input, roundtrip, de)
}

/// bitcode into the borrowed mirror, from what bitcode writes for the mirror of the value.
pub(crate) fn bitcode_case<T: Borrowed>(dataset: &'static str, value: &T) -> Case {
    let input = bitcode::encode(&value.view());
    let roundtrip = bitcode::decode::<T::Ref<'_>>(&input)
        .map_err(|e| format!("decode: {e}"))
        .and_then(|view| same(view, value.view()));
    let de = {
        let input = input.clone();
        Box::new(move |n: u64| {
            for _ in 0..n {
                let r = bitcode::decode::<T::Ref<'_>>(black_box(input.as_slice()));
                black_box(&r);
            }
        }) as Runner
    };
    decode_case(dataset, Peer::Bitcode, input, roundtrip, de)
}

/// rkyv's validated access (`rkyv::access`, bytecheck) to the archived value; the round
/// trip deserializes the archive back.
pub(crate) fn rkyv_case<T: Borrowed>(dataset: &'static str, value: &T) -> Case {
    let mut bytes = Vec::new();
    let archived = value
        .rkyv_write(&mut bytes)
        .map(|()| aligned(&bytes))
        .map_err(|e| format!("encode: {e}"));
    let roundtrip = archived
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|archived| {
            let a = T::rkyv_access(archived).map_err(|e| format!("access: {e}"))?;
            same(
                T::rkyv_unarchive(a).map_err(|e| e.to_string())?,
                value.clone(),
            )
        });
    let archived = archived.unwrap_or_default();
    let de = Box::new(move |n: u64| {
        for _ in 0..n {
            let r = T::rkyv_access(black_box(archived.as_slice()));
            black_box(&r);
        }
    }) as Runner;
    decode_case(dataset, Peer::Rkyv, bytes, roundtrip, de)
}

/// Every case of the section: each dataset with each of `peers`.
pub fn borrowed_cases(engines: &BorrowedEngines, peers: &[Peer]) -> Vec<Case> {
    struct Collect<'a> {
        engines: &'a BorrowedEngines,
        peers: &'a [Peer],
        out: Vec<Case>,
    }
    impl VisitBorrowed for Collect<'_> {
        fn visit<T: Borrowed>(&mut self, name: &'static str, value: &T) {
            for &p in self.peers {
                self.out.push(borrowed_case(self.engines, name, p, value));
            }
        }
    }
    let mut c = Collect {
        engines,
        peers,
        out: Vec::new(),
    };
    visit_borrowed_datasets(&mut c);
    c.out
}

// ---------------------------------------------------------------------------------------------
// Out-of-band buffers
// ---------------------------------------------------------------------------------------------

/// Payload sizes of the out-of-band table.
pub const OOB_PAYLOADS: [usize; 2] = [1 << 20, 64 << 20];

/// The loops of one row of the out-of-band table, in column order.
pub const OOB_LOOPS: [&str; 5] = [
    "serialize in band",
    "serialize out of band",
    "deserialize in band, owned",
    "deserialize in band, borrowed",
    "deserialize out of band, borrowed",
];

/// One payload size of the out-of-band table.
#[derive(Clone, Debug)]
pub struct OobRow {
    /// Payload bytes.
    pub payload: usize,
    /// Stream bytes in band and out of band.
    pub stream: [usize; 2],
    /// `Ok` when every loop's result was checked (values, and that nothing was copied).
    pub check: Result<(), String>,
    /// One timing per [`OOB_LOOPS`] entry (empty when the check failed).
    pub timings: Vec<Timing>,
}

/// The blob of `len` payload bytes.
pub fn blob(len: usize) -> Blob {
    Blob {
        id: 7,
        name: "frame-0001.raw".to_string(),
        payload: (0..len).map(|i| (i % 251) as u8).collect(),
    }
}

fn inside(outer: &[u8], inner: &[u8]) -> bool {
    let o = outer.as_ptr_range();
    let i = inner.as_ptr_range();
    o.start <= i.start && i.end <= o.end
}

fn oob_check(owned: &fury::Fury, borrowed: &fury::Fury, value: &Blob) -> Result<(), String> {
    let in_band = owned
        .serialize(value)
        .map_err(|e| format!("in band: {e}"))?;
    let back: Blob = owned
        .deserialize(&in_band)
        .map_err(|e| format!("in band, owned: {e}"))?;
    if back != *value {
        return Err("in band, owned: another value".into());
    }
    let view: BlobRef<'_> = borrowed
        .deserialize(&in_band)
        .map_err(|e| format!("in band, borrowed: {e}"))?;
    if view.payload != value.payload.as_slice() || !inside(&in_band, view.payload) {
        return Err("in band, borrowed: the payload is not the stream's".into());
    }
    let (stream, buffers) = owned
        .serialize_with_buffers(value, |_| false)
        .map_err(|e| format!("out of band: {e}"))?;
    match buffers.as_slice() {
        [b] if b.as_ptr() == value.payload.as_ptr() && b.len() == value.payload.len() => {}
        _ => return Err("out of band: the buffer is not the value's payload".into()),
    }
    if stream.len() > 64 {
        return Err(format!("out of band: a stream of {} bytes", stream.len()));
    }
    let view: BlobRef<'_> = borrowed
        .deserialize_with_buffers(&stream, &buffers)
        .map_err(|e| format!("out of band, borrowed: {e}"))?;
    if view.payload.as_ptr() != value.payload.as_ptr() || view.name != value.name {
        return Err("out of band, borrowed: the payload is not the buffer".into());
    }
    Ok(())
}

/// The two instances of the out-of-band table: `Blob` registered, and `BlobRef`.
pub fn oob_instances() -> (Arc<fury::Fury>, Arc<fury::Fury>) {
    let mut owned = fury::Fury::builder().compatible(false).build();
    owned.register::<Blob>().expect("Blob");
    let mut borrowed = fury::Fury::builder().compatible(false).build();
    borrowed.register::<BlobRef<'static>>().expect("BlobRef");
    (Arc::new(owned), Arc::new(borrowed))
}

/// The row of a `len`-byte payload (not yet timed) and its loops in [`OOB_LOOPS`] order
/// (none when the check failed).
pub fn oob_loops(
    owned: &Arc<fury::Fury>,
    borrowed: &Arc<fury::Fury>,
    len: usize,
) -> (OobRow, Vec<Runner>) {
    let value = Arc::new(blob(len));
    let check = oob_check(owned, borrowed, &value);
    let in_band = owned.serialize(&*value).unwrap_or_default();
    let oob_stream = owned
        .serialize_with_buffers(&*value, |_| false)
        .map(|(s, _)| s)
        .unwrap_or_default();
    let row = OobRow {
        payload: len,
        stream: [in_band.len(), oob_stream.len()],
        check: check.clone(),
        timings: Vec::new(),
    };
    if check.is_err() {
        return (row, Vec::new());
    }
    let mut loops: Vec<Runner> = Vec::new();
    let in_band = Arc::new(in_band);
    let (f, v) = (owned.clone(), value.clone());
    let mut out = Vec::with_capacity(in_band.len() + 64);
    loops.push(Box::new(move |n| {
        for _ in 0..n {
            out.clear();
            let r = f.serialize_into(black_box(&*v), &mut out);
            black_box((r.is_ok(), out.as_slice()));
        }
    }));
    let (f, v) = (owned.clone(), value.clone());
    loops.push(Box::new(move |n| {
        for _ in 0..n {
            let r = f.serialize_with_buffers(black_box(&*v), |_| false);
            black_box(&r);
        }
    }));
    let (f, s) = (owned.clone(), in_band.clone());
    loops.push(Box::new(move |n| {
        for _ in 0..n {
            let r = f.deserialize::<Blob>(black_box(s.as_slice()));
            black_box(&r);
        }
    }));
    let (f, s) = (borrowed.clone(), in_band.clone());
    loops.push(Box::new(move |n| {
        for _ in 0..n {
            let r = f.deserialize::<BlobRef<'_>>(black_box(s.as_slice()));
            black_box(&r);
        }
    }));
    let (f, v) = (borrowed.clone(), value.clone());
    loops.push(Box::new(move |n| {
        let buffers = [v.payload.as_slice()];
        for _ in 0..n {
            let r = f.deserialize_with_buffers::<BlobRef<'_>>(
                black_box(oob_stream.as_slice()),
                black_box(&buffers),
            );
            black_box(&r);
        }
    }));
    (row, loops)
}

/// Measures the out-of-band table: per payload size, both serializations and three
/// deserializations, interleaved like the other tables.
pub fn oob_rows(settings: &Settings, mut progress: impl FnMut(&str)) -> Vec<OobRow> {
    let (owned, borrowed) = oob_instances();
    let mut rows = Vec::new();
    let mut loops: Vec<Runner> = Vec::new();
    for len in OOB_PAYLOADS {
        let (row, l) = oob_loops(&owned, &borrowed, len);
        rows.push(row);
        loops.extend(l);
    }
    let mut refs: Vec<&mut Runner> = loops.iter_mut().collect();
    let mut timings = measure_loops(&mut refs, settings, &mut progress).into_iter();
    for row in rows.iter_mut().filter(|r| r.check.is_ok()) {
        row.timings = timings.by_ref().take(OOB_LOOPS.len()).collect();
    }
    rows
}

/// Everything the section measured.
#[derive(Clone, Debug, Default)]
pub struct BorrowedSection {
    /// Deserialize medians per dataset and row.
    pub measured: Vec<Measured>,
    /// Input size per dataset and row (successful round trips only).
    pub sizes: Vec<(&'static str, Peer, usize)>,
    /// Round-trip failures per dataset and row.
    pub failures: Vec<(&'static str, Peer, String)>,
    /// The out-of-band table.
    pub oob: Vec<OobRow>,
}

/// Builds, checks and measures the section.
pub fn borrowed_section(
    engines: &Engines,
    settings: &Settings,
    mut progress: impl FnMut(&str),
) -> BorrowedSection {
    let engines = BorrowedEngines::new(engines.clone());
    let mut cases = borrowed_cases(&engines, &Peer::BORROWED);
    let failures = cases
        .iter()
        .filter_map(|c| {
            c.roundtrip
                .as_ref()
                .err()
                .map(|e| (c.dataset, c.peer, e.clone()))
        })
        .collect();
    let sizes = cases
        .iter()
        .filter(|c| c.roundtrip.is_ok())
        .map(|c| (c.dataset, c.peer, c.size))
        .collect();
    let measured = measure_ops(&mut cases, &[Op::Deserialize], settings, &mut progress);
    drop(cases);
    let oob = oob_rows(settings, &mut progress);
    BorrowedSection {
        measured,
        sizes,
        failures,
        oob,
    }
}
