//! The serde half of the live check against pyfory 1.7.7 (conformance/serde_check.py): a
//! model that derives only serde's traits reads each `Type hex` line pyfory wrote from stdin,
//! through `fury::serde::Serde`, and prints `Type hex json`: its own bytes, and the value it
//! read as serde_json sees it, which the script checks apart from pyfory (or `Type ERROR ...`).
//!
//! `serde_check --compatible true|false < lines of "Type hex"`

use fury::serde::Serde;
use fury::Fury;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::process::ExitCode;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
enum Status {
    Draft,
    Active,
    Archived,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Item {
    sku: String,
    qty: i32,
    price: f64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
struct Page<T> {
    page_no: i32,
    items: Vec<T>,
    next_cursor: Option<String>,
}

// a newtype struct and a tuple struct: structs with fields _0, _1
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct UserId(u64);

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Point(i32, i32);

// an enum with data: a tagged union, case id = variant position + 1
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Event {
    Shipped(Item),
    Note(String),
    Moved {
        origin: String,
        dest: String,
        hops: i32,
    },
    At(i32, i32),
    Closed,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Model {
    name: String,
    #[serde(rename = "ident")]
    id: i64,
    // not on the wire: pyfory's mirror has no such field
    #[serde(skip)]
    cache: u32,
    active: bool,
    counts: HashMap<String, i64>,
    sorted: BTreeMap<i32, String>,
    tags: Vec<String>,
    numbers: Vec<i32>,
    data: Vec<u8>,
    best: Option<Item>,
    total: Option<i64>,
    items: Vec<Item>,
    status: Status,
    page: Page<Item>,
    event: Event,
    events: Vec<Event>,
    maybe_event: Option<Event>,
    user: UserId,
    at: Point,
}

fn round_trip<T: Serialize + DeserializeOwned>(fury: &Fury, bytes: &[u8]) -> fury::Result<String> {
    let value: Serde<T> = fury.deserialize(bytes)?;
    let out = fury.serialize(&Serde(&value.0))?;
    let json = serde_json::to_string(&value.0).expect("the model serializes to JSON");
    Ok(format!(
        "{} {json}",
        out.iter().map(|b| format!("{b:02x}")).collect::<String>()
    ))
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
        .collect()
}

fn build(compatible: bool) -> fury::Result<Fury> {
    let mut fury = Fury::builder().compatible(compatible).build();
    // ids and names as conformance/serde_check.py registers its mirrors; nested types first
    fury.register_serde_by_id::<Status>(301)?;
    fury.register_serde_by_id::<Item>(302)?;
    fury.register_serde_by_name::<Page<Item>>("check.serde", "Page")?;
    fury.register_serde_by_id::<UserId>(304)?;
    fury.register_serde_by_id::<Point>(305)?;
    // its case structs Moved and At by the ids case_struct_registration derives from 306
    fury.register_serde_by_id::<Event>(306)?;
    fury.register_serde_by_id::<Model>(303)?;
    Ok(fury)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let compatible = match args.as_slice() {
        [flag, v] if flag == "--compatible" && (v == "true" || v == "false") => v == "true",
        _ => {
            eprintln!("usage: serde_check --compatible true|false < lines of `Type hex`");
            return ExitCode::from(2);
        }
    };
    let fury = match build(compatible) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("registration failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Some((ty, hex)) = line.split_once(' ') else {
            continue;
        };
        let Some(bytes) = from_hex(hex.trim()) else {
            println!("{ty} ERROR not hex");
            continue;
        };
        let out = match ty {
            "Model" => round_trip::<Model>(&fury, &bytes),
            "Page" => round_trip::<Page<Item>>(&fury, &bytes),
            "Item" => round_trip::<Item>(&fury, &bytes),
            "Event" => round_trip::<Event>(&fury, &bytes),
            "UserId" => round_trip::<UserId>(&fury, &bytes),
            "Point" => round_trip::<Point>(&fury, &bytes),
            other => {
                println!("{other} ERROR no such type in serde_check");
                continue;
            }
        };
        match out {
            Ok(answer) => println!("{ty} {answer}"),
            Err(e) => println!("{ty} ERROR {}", e.to_string().replace('\n', " ")),
        }
    }
    ExitCode::SUCCESS
}
