//! The types of other crates, each behind the cargo feature named after its crate: `chrono`,
//! `uuid`, `smallvec`, `indexmap`.
//!
//! Expected bytes come from pyfory 1.7.7 only: its vectors (conformance/vectors/builtins and
//! conformance/vectors/rows), or `f = pyfory.Fory(xlang=True, ref=False)` and the call in the
//! comment, the hex being `f.serialize(value).hex()`.
#![cfg(all(
    feature = "chrono",
    feature = "uuid",
    feature = "smallvec",
    feature = "indexmap"
))]

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeDelta, Utc};
use fury::row::FuryRow;
use fury::{DeserializeOwned, ErrorKind, Fury, FuryObject, Serialize};
use indexmap::{IndexMap, IndexSet};
use serde_json::Value as Json;
use smallvec::SmallVec;
use uuid::Uuid;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The vectors of a group file under conformance/vectors, by name.
fn vectors(file: &str) -> Vec<Json> {
    let path = format!(
        "{}/../conformance/vectors/{file}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(doc["peer"], "pyfory==1.7.7");
    doc["vectors"].as_array().unwrap().clone()
}

fn vector(file: &str, name: &str) -> Vec<u8> {
    let v = vectors(file);
    let v = v.iter().find(|v| v["name"] == name).unwrap();
    hex(v["hex"].as_str().unwrap())
}

/// `v` writes `bytes` (a peer's) and `bytes` read back to `v`.
#[track_caller]
fn same<T>(v: &T, bytes: &[u8])
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let fury = Fury::default();
    assert_eq!(fury.serialize(v).unwrap(), bytes, "{v:?}");
    assert_eq!(&fury.deserialize::<T>(bytes).unwrap(), v);
}

// ---- chrono ----

fn seconds_nanos(v: &Json) -> (i64, u32) {
    let s = v["seconds"].as_str().unwrap().parse().unwrap();
    (s, v["nanos"].as_u64().unwrap() as u32)
}

/// chrono's own date for a day count (not through fury's conversion).
fn chrono_date(days: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1)
        .unwrap()
        .checked_add_signed(TimeDelta::try_days(days).unwrap())
        .unwrap()
}

#[test]
fn chrono_types_write_pyforys_temporal_vectors() {
    let (mut durations, mut timestamps, mut dates) = (0, 0, 0);
    for v in vectors("builtins/temporal") {
        let bytes = hex(v["hex"].as_str().unwrap());
        let value = &v["value"];
        match value["type"].as_str().unwrap() {
            "duration" => {
                let (s, n) = seconds_nanos(value);
                same(&TimeDelta::new(s, n).unwrap(), &bytes);
                durations += 1;
            }
            "timestamp" => {
                let (s, n) = seconds_nanos(value);
                let t = DateTime::<Utc>::from_timestamp(s, n).unwrap();
                same(&t, &bytes);
                same(&t.naive_utc(), &bytes);
                timestamps += 1;
            }
            "date" => {
                same(&chrono_date(value["days"].as_i64().unwrap()), &bytes);
                dates += 1;
            }
            other => panic!("{other}"),
        }
    }
    // 100 million days, year 1 and 9999-12-31 among them
    assert_eq!((durations, timestamps, dates), (13, 10, 8));
}

#[test]
fn chrono_lists_are_pyforys() {
    let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    same(
        &vec![d(2020, 1, 1), d(1969, 12, 31)],
        &vector("builtins/lists", "lists/of_dates"),
    );
    same(
        &vec![TimeDelta::seconds(1), TimeDelta::microseconds(-1)],
        &vector("builtins/lists", "lists/of_durations"),
    );
    let t = |s| DateTime::<Utc>::from_timestamp(s, 0).unwrap();
    same(
        &vec![t(1_577_836_800), t(0)],
        &vector("builtins/lists", "lists/of_timestamps"),
    );
}

#[test]
fn values_chrono_cannot_hold_are_errors_at_their_offset() {
    let fury = Fury::default();
    // TIMESTAMP of i64::MAX seconds (fury::Timestamp holds it; chrono does not)
    let mut ts = vec![0x01, 0xff, 0x26];
    ts.extend_from_slice(&i64::MAX.to_le_bytes());
    ts.extend_from_slice(&0u32.to_le_bytes());
    assert!(fury.deserialize::<fury::Timestamp>(&ts).is_ok());
    for e in [
        fury.deserialize::<DateTime<Utc>>(&ts).unwrap_err(),
        fury.deserialize::<NaiveDateTime>(&ts).unwrap_err(),
    ] {
        assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
        assert_eq!(e.offset(), Some(3));
    }
    // DATE of 2^40 days, DURATION of i64::MAX seconds
    let date = fury.serialize(&fury::Date::from_days(1 << 40)).unwrap();
    let e = fury.deserialize::<NaiveDate>(&date).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    assert_eq!(e.offset(), Some(3));
    let long = fury
        .serialize(&fury::Duration::new(i64::MAX, 0).unwrap())
        .unwrap();
    let e = fury.deserialize::<TimeDelta>(&long).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    // the extremes chrono has write and read back
    for t in [DateTime::<Utc>::MIN_UTC, DateTime::<Utc>::MAX_UTC] {
        let b = fury.serialize(&t).unwrap();
        assert_eq!(fury.deserialize::<DateTime<Utc>>(&b).unwrap(), t);
    }
    for d in [TimeDelta::MIN, TimeDelta::MAX] {
        let b = fury.serialize(&d).unwrap();
        assert_eq!(fury.deserialize::<TimeDelta>(&b).unwrap(), d);
    }
    for d in [NaiveDate::MIN, NaiveDate::MAX] {
        let b = fury.serialize(&d).unwrap();
        assert_eq!(fury.deserialize::<NaiveDate>(&b).unwrap(), d);
    }
}

/// A model with fields of all four crates, as a pyfory dataclass
/// `Event(at: datetime, day: date, took: timedelta, id: bytes, tags: Dict[str, int])`
/// registered as 300.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 300)]
struct Event {
    at: DateTime<Utc>,
    day: NaiveDate,
    took: TimeDelta,
    id: Uuid,
    tags: IndexMap<String, i64>,
}

#[test]
fn a_model_with_these_types_is_pyforys_dataclass() {
    let e = Event {
        at: NaiveDate::from_ymd_opt(2024, 2, 29)
            .and_then(|d| d.and_hms_milli_opt(12, 0, 1, 250))
            .unwrap()
            .and_utc(),
        day: NaiveDate::from_ymd_opt(1969, 7, 20).unwrap(),
        took: TimeDelta::microseconds(-999_995),
        id: Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap(),
        tags: IndexMap::from([("z".to_string(), 1), ("a".to_string(), 2)]),
    };
    // pyfory: the Event above with at=datetime(2024, 2, 29, 12, 0, 1, 250000, UTC),
    // day=date(1969, 7, 20), took=timedelta(seconds=-1, microseconds=5), id=UUID(...).bytes,
    // tags={"z": 1, "a": 2}, with compatible=False and compatible=True
    let same_schema = "01ff1bac02d9db04adc171e0650000000080b2e60ec9021067e5504410b1426f9247bb680e5fe0c8022402047a020461040188130000";
    let compatible = "01ff1c001bc0c567003c2e14c5ac024426826044270c184429a0604818541c4c069048254dce50c171e0650000000080b2e60ec9021067e5504410b1426f9247bb680e5fe0c8022402047a020461040188130000";
    for (mode, expected) in [(false, same_schema), (true, compatible)] {
        let mut fury = Fury::builder().compatible(mode).build();
        fury.register::<Event>().unwrap();
        let bytes = fury.serialize(&e).unwrap();
        assert_eq!(bytes, hex(expected), "compatible = {mode}");
        let back: Event = fury.deserialize(&bytes).unwrap();
        assert_eq!(back, e);
        // IndexMap's equality ignores order: the order is pyfory's
        assert!(back.tags.keys().eq(["z", "a"]));
    }
}

/// pyfory's row vector `row/rust_model` read with chrono fields for `when` and `day`.
#[derive(FuryRow, Debug, PartialEq)]
#[fury_row(field_order = "name")]
struct RustModel {
    small: u8,
    mid: u16,
    big: u32,
    maybe: Option<u32>,
    pair: (i64, i64),
    names: Vec<String>,
    when: DateTime<Utc>,
    day: NaiveDate,
    mids: Vec<u16>,
}

#[test]
fn chrono_types_in_rows() {
    let v = vectors("rows/rows");
    let v = v.iter().find(|v| v["name"] == "row/rust_model").unwrap();
    let bytes = hex(v["hex"].as_str().unwrap());
    let m = RustModel {
        small: 255,
        mid: 65535,
        big: u32::MAX,
        maybe: None,
        pair: (7, -7),
        names: vec!["a".into(), "bc".into(), String::new()],
        when: NaiveDate::from_ymd_opt(1969, 7, 20)
            .and_then(|d| d.and_hms_micro_opt(20, 17, 40, 123_456))
            .unwrap()
            .and_utc(),
        day: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        mids: vec![0, 1, 65535],
    };
    assert_eq!(m.to_row(), bytes);
    assert_eq!(RustModel::from_row(&bytes).unwrap(), m);
    let h: i64 = v["schema_hash"].as_str().unwrap().parse().unwrap();
    assert_eq!(RustModel::schema_hash() as i64, h);
    let view = RustModel::view_row(&bytes).unwrap();
    assert_eq!(view.when(), m.when);

    // A timestamp chrono cannot hold fails validation, at its slot.
    #[derive(FuryRow, Debug)]
    struct At {
        at: NaiveDateTime,
        took: TimeDelta,
    }
    let mut row = vec![0u8; 24];
    row[8..16].copy_from_slice(&i64::MAX.to_le_bytes());
    let e = At::view_row(&row).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::BadRow { field, .. } if field == "at"),
        "{e}"
    );
    assert_eq!(e.offset(), Some(8));
    row[8..16].copy_from_slice(&(-1i64).to_le_bytes());
    row[16..24].copy_from_slice(&(-1i64).to_le_bytes());
    let at = At::from_row(&row).unwrap();
    assert_eq!(at.took, TimeDelta::microseconds(-1));
    assert_eq!(at.at.and_utc().timestamp_micros(), -1);
}

// ---- uuid ----

#[test]
fn uuid_is_its_16_bytes_as_binary() {
    let u = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
    // pyfory: u = uuid.UUID("67e55044-10b1-426f-9247-bb680e5fe0c8"); f.serialize(u.bytes)
    same(&u, &hex("01ff291067e5504410b1426f9247bb680e5fe0c8"));
    // pyfory: f.serialize([u.bytes, uuid.UUID(int=0).bytes])
    same(
        &vec![u, Uuid::nil()],
        &hex("01ff160208291067e5504410b1426f9247bb680e5fe0c81000000000000000000000000000000000"),
    );
    // another length is not a UUID
    let fury = Fury::default();
    let e = fury.deserialize::<Uuid>(&hex("01ff29026162")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
}

// ---- smallvec ----

#[test]
fn smallvec_is_written_as_vec() {
    let int32s = vector(
        "builtins/binary_arrays",
        "binary_arrays/int32_array/boundaries",
    );
    let want = [i32::MIN, -1, 0, 1, i32::MAX];
    let spilled: SmallVec<[i32; 2]> = SmallVec::from_slice(&want);
    same(&spilled, &int32s);
    let inline: SmallVec<[i32; 8]> = Fury::default().deserialize(&int32s).unwrap();
    assert!(!inline.spilled(), "five elements read inline into eight");
    assert_eq!(inline.as_slice(), want);
    let u16s: SmallVec<[u16; 4]> = SmallVec::from_slice(&[0, 1, 32768, 65535]);
    same(
        &u16s,
        &vector(
            "builtins/binary_arrays",
            "binary_arrays/uint16_array/boundaries",
        ),
    );
    let bytes: SmallVec<[u8; 16]> = SmallVec::from_slice(b"ab");
    same(
        &bytes,
        &vector("builtins/binary_arrays", "binary_arrays/binary/small"),
    );
    let strings: SmallVec<[String; 2]> = ["a", "bc", "", "hello"]
        .into_iter()
        .map(String::from)
        .collect();
    same(&strings, &vector("builtins/lists", "lists/strings_ascii"));

    // As a field, the same declared type as `Vec` (so the same bytes in both modes).
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 301)]
    struct Small {
        ids: SmallVec<[i64; 2]>,
        names: SmallVec<[String; 1]>,
    }
    #[derive(FuryObject, Debug, PartialEq)]
    #[fury(id = 301)]
    struct Large {
        ids: Vec<i64>,
        names: Vec<String>,
    }
    for mode in [false, true] {
        let mut fury = Fury::builder().compatible(mode).build();
        fury.register::<Small>().unwrap();
        let mut other = Fury::builder().compatible(mode).build();
        other.register::<Large>().unwrap();
        let s = Small {
            ids: SmallVec::from_slice(&[1, -2, 3]),
            names: SmallVec::from_vec(vec!["x".into()]),
        };
        let l = Large {
            ids: vec![1, -2, 3],
            names: vec!["x".into()],
        };
        let bytes = fury.serialize(&s).unwrap();
        assert_eq!(bytes, other.serialize(&l).unwrap());
        assert_eq!(fury.deserialize::<Small>(&bytes).unwrap(), s);
    }
}

// ---- indexmap ----

#[test]
fn indexmap_and_indexset_keep_pyforys_order() {
    // pyfory: {"b": 1, "a": 2, "c": None}
    let dict = hex("01ff18030002150704620204610411ff150463");
    let m: IndexMap<String, Option<i64>> = Fury::default().deserialize(&dict).unwrap();
    assert!(m.keys().eq(["b", "a", "c"]));
    same(&m, &dict);
    // pyfory: {3: "c", 1: "a", 2: "b"}
    let m = IndexMap::from([(3i64, "c".to_string()), (1, "a".into()), (2, "b".into())]);
    same(&m, &hex("01ff180300030715060463020461040462"));
    // pyfory: {8, 1, 3}, which Python iterates as 8, 1, 3
    let set = hex("01ff17030807100206");
    let s: IndexSet<i64> = Fury::default().deserialize(&set).unwrap();
    assert!(s.iter().eq(&[8, 1, 3]));
    same(&s, &set);
    // A set sorted otherwise writes its own order: the same set, other bytes.
    let other: IndexSet<i64> = IndexSet::from([1, 3, 8]);
    let bytes = Fury::default().serialize(&other).unwrap();
    assert_ne!(bytes, set);
    assert_eq!(
        Fury::default()
            .deserialize::<IndexSet<i64>>(&bytes)
            .unwrap(),
        s
    );
}
