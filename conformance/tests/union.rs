//! Tagged unions (conformance/vectors/union, written by pyfory 1.7.7 with `register_union`
//! and a `UnionSerializer`, the shape `foryc` generates): fury-rs reads each vector into its
//! Rust mirror, compares it with the vector's value, and writes pyfory's bytes back. The
//! bytes fury-rs writes go to target/conformance/fury-rs-union.json, which
//! `check_peer.py --group union` has pyfory read (scripts/test-all.sh).

use fury::{Fury, FuryObject};
use serde_json::{json, Value as Json};

use fury_conformance::union_types::{Animal, Cat, Dog};

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Animal")]
enum NamedAnimal {
    #[fury(id = 1)]
    Dog(Dog),
    #[fury(id = 3)]
    Label(String),
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 303)]
struct Zoo {
    #[fury(id = 1)]
    star: Animal,
    #[fury(id = 2)]
    animals: Vec<Animal>,
    #[fury(id = 3)]
    maybe: Option<Animal>,
}

/// A reader that knows only the first case and keeps the others.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 300)]
enum FewAnimals {
    #[fury(unknown)]
    Other(fury::UnknownCase),
    Dog(Dog),
}

/// A reader with no unknown variant.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 300)]
enum OnlyDogs {
    Dog(Dog),
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 311)]
struct Loc {
    warehouse: String,
    aisle: i32,
}

/// An enum with data of every shape: the variants with several fields carry case structs
/// (registered with ids derived from 310, as pyfory's classes are in the generator).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 310)]
enum Event {
    Received { sku: String, qty: i32, at: Loc },
    Moved { origin: Loc, dest: Loc },
    Adjusted(String, i32),
    Note(String),
    Audited,
}

/// The same enum registered by name (its case structs by name under `inventory.Event`).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "inventory", name = "Event")]
enum NamedEvent {
    Received { sku: String, qty: i32, at: Loc },
    Moved { origin: Loc, dest: Loc },
    Adjusted(String, i32),
    Note(String),
    Audited,
}

/// Generic over the two registrations of the event enum; registered by id 312.
#[derive(FuryObject, Debug, Clone, PartialEq)]
struct Ledger<E: fury::Serialize + fury::DeserializeOwned + 'static> {
    events: Vec<E>,
    last: Option<E>,
}

fn loc(v: &Json) -> Loc {
    Loc {
        warehouse: str_of(&v["warehouse"]),
        aisle: int_of(&v["aisle"]),
    }
}

fn event(v: &Json) -> Event {
    let x = &v["value"];
    match v["case"].as_u64().unwrap() {
        1 => Event::Received {
            sku: str_of(&x["sku"]),
            qty: int_of(&x["qty"]),
            at: loc(&x["at"]),
        },
        2 => Event::Moved {
            origin: loc(&x["origin"]),
            dest: loc(&x["dest"]),
        },
        3 => Event::Adjusted(str_of(&x["_0"]), int_of(&x["_1"])),
        4 => Event::Note(str_of(x)),
        5 => Event::Audited,
        c => panic!("case {c}"),
    }
}

fn named_event(e: Event) -> NamedEvent {
    match e {
        Event::Received { sku, qty, at } => NamedEvent::Received { sku, qty, at },
        Event::Moved { origin, dest } => NamedEvent::Moved { origin, dest },
        Event::Adjusted(s, n) => NamedEvent::Adjusted(s, n),
        Event::Note(s) => NamedEvent::Note(s),
        Event::Audited => NamedEvent::Audited,
    }
}

fn ledger<E>(v: &Json, each: impl Fn(Event) -> E) -> Ledger<E>
where
    E: fury::Serialize + fury::DeserializeOwned + 'static,
{
    Ledger {
        events: v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| each(event(e)))
            .collect(),
        last: (!v["last"].is_null()).then(|| each(event(&v["last"]))),
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn str_of(v: &Json) -> String {
    v.as_str().unwrap().to_string()
}

fn int_of(v: &Json) -> i32 {
    i32::try_from(v.as_i64().unwrap()).unwrap()
}

fn animal(v: &Json) -> Animal {
    let x = &v["value"];
    match v["case"].as_u64().unwrap() {
        1 => Animal::Dog(Dog {
            name: str_of(&x["name"]),
            age: int_of(&x["age"]),
        }),
        2 => Animal::Cat(Cat {
            name: str_of(&x["name"]),
            lives: int_of(&x["lives"]),
        }),
        3 => Animal::Label(str_of(x)),
        4 => Animal::Nothing,
        c => panic!("case {c}"),
    }
}

fn zoo(v: &Json) -> Zoo {
    Zoo {
        star: animal(&v["star"]),
        animals: v["animals"]
            .as_array()
            .unwrap()
            .iter()
            .map(animal)
            .collect(),
        maybe: (!v["maybe"].is_null()).then(|| animal(&v["maybe"])),
    }
}

fn fury_for(settings: &Json) -> Fury {
    let mut fury = Fury::builder()
        .ref_tracking(settings["ref"].as_bool().unwrap())
        .compatible(settings["compatible"].as_bool().unwrap())
        .build();
    fury.register::<Dog>().unwrap();
    fury.register::<Cat>().unwrap();
    fury.register::<Zoo>().unwrap();
    fury.register::<Loc>().unwrap();
    fury
}

fn round_trip<T>(fury: &Fury, bytes: &[u8], want: &T) -> Result<Vec<u8>, String>
where
    T: fury::Serialize + fury::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let got: T = fury
        .deserialize(bytes)
        .map_err(|e| format!("decode: {e}"))?;
    if &got != want {
        return Err(format!("decoded {got:?}, expected {want:?}"));
    }
    fury.serialize(&got).map_err(|e| format!("encode: {e}"))
}

fn check(v: &Json) -> Result<Vec<u8>, String> {
    let bytes = unhex(v["hex"].as_str().unwrap());
    let mut fury = fury_for(&v["settings"]);
    let value = &v["value"];
    match v["schema"].as_str().unwrap() {
        "Animal" if v["registered_by_name"].as_bool().unwrap() => {
            fury.register::<NamedAnimal>().unwrap();
            let want = match animal(value) {
                Animal::Label(s) => NamedAnimal::Label(s),
                Animal::Dog(d) => NamedAnimal::Dog(d),
                other => panic!("{other:?}"),
            };
            round_trip(&fury, &bytes, &want)
        }
        "Animal" => {
            fury.register::<Animal>().unwrap();
            round_trip(&fury, &bytes, &animal(value))
        }
        "Zoo" => {
            fury.register::<Animal>().unwrap();
            round_trip(&fury, &bytes, &zoo(value))
        }
        "list<Animal>" => {
            fury.register::<Animal>().unwrap();
            let want: Vec<Animal> = value.as_array().unwrap().iter().map(animal).collect();
            round_trip(&fury, &bytes, &want)
        }
        "Event" if v["registered_by_name"].as_bool().unwrap() => {
            fury.register::<NamedEvent>().unwrap();
            round_trip(&fury, &bytes, &named_event(event(value)))
        }
        "Event" => {
            fury.register::<Event>().unwrap();
            round_trip(&fury, &bytes, &event(value))
        }
        "Ledger" if v["registered_by_name"].as_bool().unwrap() => {
            fury.register::<NamedEvent>().unwrap();
            fury.register_by_id::<Ledger<NamedEvent>>(312).unwrap();
            round_trip(&fury, &bytes, &ledger(value, named_event))
        }
        "Ledger" => {
            fury.register::<Event>().unwrap();
            fury.register_by_id::<Ledger<Event>>(312).unwrap();
            round_trip(&fury, &bytes, &ledger(value, |e| e))
        }
        other => Err(format!("no mirror for {other}")),
    }
}

fn vectors() -> Vec<Json> {
    let path = fury_conformance::groups::file("union");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

#[test]
fn pyfory_union_vectors_read_and_write_back_byte_for_byte() {
    let vectors = vectors();
    assert!(vectors.len() >= 24);
    let mut failures = Vec::new();
    let mut written = Vec::new();
    for v in &vectors {
        let name = v["name"].as_str().unwrap();
        match check(v) {
            Ok(ours) => {
                let hex = fury_conformance::hex_encode(&ours);
                if hex != v["hex"].as_str().unwrap() {
                    failures.push(format!("{name}: wrote {hex}, pyfory wrote {}", v["hex"]));
                }
                written.push(json!({"name": name, "hex": hex}));
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    let out = fury_conformance::groups::peer_bytes("union");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn vector(name: &str) -> (Json, Vec<u8>) {
    let v = vectors().into_iter().find(|v| v["name"] == name).unwrap();
    let bytes = unhex(v["hex"].as_str().unwrap());
    (v, bytes)
}

#[test]
fn unknown_cases_are_kept_or_named_in_the_error() {
    let (v, label) = vector("union/same_schema/root/label");
    let mut fury = fury_for(&v["settings"]);
    fury.register::<FewAnimals>().unwrap();
    let few: FewAnimals = fury.deserialize(&label).unwrap();
    assert_eq!(
        few,
        FewAnimals::Other(fury::UnknownCase {
            case_id: 3,
            value: fury::Value::String("hi".into())
        })
    );
    // Kept as it came: written back, pyfory's bytes.
    assert_eq!(fury.serialize(&few).unwrap(), label);
    let (_, cat) = vector("union/same_schema/root/cat");
    let mut only = fury_for(&v["settings"]);
    only.register::<OnlyDogs>().unwrap();
    let e = only.deserialize::<OnlyDogs>(&cat).unwrap_err();
    assert!(e.to_string().contains("union case id 2"), "{e}");
    assert!(e.to_string().contains("offset 5"), "{e}");
}

#[test]
fn the_official_crates_00_flag_before_a_case_value_is_read() {
    // union/same_schema/root/dog with the case value's flag ff replaced by 00, as the
    // official crate writes it (DISAGREEMENTS.md).
    let (v, mut dog) = vector("union/same_schema/root/dog");
    assert_eq!(dog[6], 0xff);
    dog[6] = 0x00;
    let mut fury = fury_for(&v["settings"]);
    fury.register::<Animal>().unwrap();
    let a: Animal = fury.deserialize(&dog).unwrap();
    assert_eq!(a, animal(&v["value"]));
    // The official crate's own bytes for the same value (benches/examples/fory_union.rs;
    // it also writes "rex" with the UTF-8 flag, 0e), in both modes.
    for (compatible, hex) in [
        (false, "01ff22ac0201001bad0262326ffa060e726578"),
        (
            true,
            "01ff22ac0201001c0007307be6cb27c733c2ad02c805c415060e726578",
        ),
    ] {
        let mut fury = fury_for(&json!({"ref": false, "compatible": compatible}));
        fury.register::<Animal>().unwrap();
        let a: Animal = fury.deserialize(&unhex(hex)).unwrap();
        assert_eq!(a, animal(&v["value"]), "compatible={compatible}");
    }
}

#[test]
fn hostile_union_bytes_are_errors() {
    for v in vectors() {
        let bytes = unhex(v["hex"].as_str().unwrap());
        let mut fury = fury_for(&v["settings"]);
        let by_name = v["registered_by_name"].as_bool().unwrap();
        fury.register::<Animal>().unwrap();
        if by_name {
            fury.register::<NamedAnimal>().unwrap();
            fury.register::<NamedEvent>().unwrap();
            fury.register_by_id::<Ledger<NamedEvent>>(312).unwrap();
        } else {
            fury.register::<Event>().unwrap();
            fury.register_by_id::<Ledger<Event>>(312).unwrap();
        }
        let read = |b: &[u8]| match v["schema"].as_str().unwrap() {
            "Animal" if by_name => fury.deserialize::<NamedAnimal>(b).map(drop),
            "Animal" => fury.deserialize::<Animal>(b).map(drop),
            "Zoo" => fury.deserialize::<Zoo>(b).map(drop),
            "Event" if by_name => fury.deserialize::<NamedEvent>(b).map(drop),
            "Event" => fury.deserialize::<Event>(b).map(drop),
            "Ledger" if by_name => fury.deserialize::<Ledger<NamedEvent>>(b).map(drop),
            "Ledger" => fury.deserialize::<Ledger<Event>>(b).map(drop),
            _ => fury.deserialize::<Vec<Animal>>(b).map(drop),
        };
        assert!(read(&bytes).is_ok(), "{}", v["name"]);
        for n in 0..bytes.len() {
            assert!(read(&bytes[..n]).is_err(), "{}: prefix {n}", v["name"]);
        }
        for i in 0..bytes.len() {
            for b in [0x00, 0x05, 0x7f, 0xfd, 0xff] {
                let mut m = bytes.clone();
                m[i] = b;
                let _ = read(&m);
            }
        }
    }
    // Case ids past the declared cases; dynamic reading of a union as a Value.
    let fury = Fury::default();
    let mut with_animal = Fury::builder().compatible(false).build();
    with_animal.register::<Animal>().unwrap();
    let big_case = unhex("01ff22ac02ffffffff0ffd");
    assert!(with_animal.deserialize::<Animal>(&big_case).is_err());
    let v: fury::Value = fury.deserialize(&unhex("01ff22ac0203ff15086869")).unwrap();
    let case = fury::UnionValue::named("#300", 3, fury::Value::String("hi".into()));
    assert_eq!(v, fury::Value::Union(Box::new(case)));
    assert_eq!(fury.serialize(&v).unwrap(), unhex("01ff22ac0203ff15086869"));
}

/// A union read as a `Value` keeps its registration and writes back to pyfory's bytes, at the
/// root (by id and by name) and in a compatible struct's UNION field. Streams
/// holding a same-schema struct are refused (a `Value` can neither read nor write one).
#[test]
fn unions_read_as_values_write_back_to_pyforys_bytes() {
    let mut written = Vec::new();
    for v in vectors() {
        let name = str_of(&v["name"]);
        let settings = &v["settings"];
        let fury = Fury::builder()
            .compatible(settings["compatible"].as_bool().unwrap())
            .ref_tracking(settings["ref"].as_bool().unwrap())
            .build();
        let bytes = unhex(&str_of(&v["hex"]));
        // A same-schema struct (a case value or a field) reads only as its Rust type.
        let value: fury::Value = match fury.deserialize(&bytes) {
            Ok(v) => v,
            Err(e) if matches!(e.kind(), fury::ErrorKind::Unsupported { .. }) => {
                assert!(e.to_string().contains("STRUCT"), "{name}: {e}");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        match fury.serialize(&value) {
            Ok(out) => {
                assert_eq!(out, bytes, "{name}");
                assert_eq!(fury.deserialize::<fury::Value>(&out).unwrap(), value);
                written.push(name);
            }
            Err(e) => assert!(
                matches!(e.kind(), fury::ErrorKind::Unsupported { .. })
                    && e.to_string().contains("same-schema"),
                "{name}: {e}"
            ),
        }
    }
    for must in [
        "union/same_schema/root/label",
        "union/same_schema/root/empty",
        "union/same_schema/named_root",
        "union/compatible/root/dog",
        "union/compatible/root/label",
        "union/compatible/zoo",
        "union/compatible/event/received",
        "union/compatible/ledger",
    ] {
        assert!(written.iter().any(|w| w == must), "{must}: {written:?}");
    }
    // Built by hand, by id and by name (same-schema mode: the name's meta strings).
    let fury = Fury::builder().compatible(false).build();
    for (name, hand) in [
        (
            "union/same_schema/root/empty",
            fury::UnionValue::named("#300", 4, fury::Value::Null),
        ),
        (
            "union/same_schema/named_root",
            fury::UnionValue::named("demo.Animal", 3, fury::Value::String("hi".into())),
        ),
    ] {
        let v = vectors().into_iter().find(|v| v["name"] == name).unwrap();
        let out = fury.serialize(&fury::Value::Union(Box::new(hand))).unwrap();
        assert_eq!(out, unhex(&str_of(&v["hex"])), "{name}");
    }
    // Without its registration, a union has no type info to write at the root.
    let bare = fury::Value::Union(Box::new(fury::UnionValue::new(3, fury::Value::Null)));
    assert!(fury.serialize(&bare).is_err());
}
