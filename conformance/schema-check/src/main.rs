//! Reads `Type hex` lines (values pyfory wrote with foryc's Python types) from stdin, decodes
//! each into the type fury-build generated, writes it back and prints `Type hex` (or
//! `Type ERROR message`): conformance/schema_check.py then has pyfory read those bytes.
//!
//! `schema-check --compatible true|false`

use fury::{DeserializeOwned, Fury, Serialize};
use fury_schema_check::*;
use std::io::BufRead;
use std::process::ExitCode;

fn round_trip<T: DeserializeOwned + Serialize>(fury: &Fury, bytes: &[u8]) -> fury::Result<Vec<u8>> {
    let value: T = fury.deserialize(bytes)?;
    fury.serialize(&value)
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let compatible = match args.as_slice() {
        [flag, v] if flag == "--compatible" && (v == "true" || v == "false") => v == "true",
        _ => {
            eprintln!("usage: schema-check --compatible true|false < lines of `Type hex`");
            return ExitCode::from(2);
        }
    };
    let mut fury = Fury::builder()
        .compatible(compatible)
        .ref_tracking(true)
        .build();
    let registered = check_common::register_types(&mut fury)
        .and_then(|()| check_all::register_types(&mut fury))
        .and_then(|()| check_orders::register_types(&mut fury))
        .and_then(|()| check_pcommon::register_types(&mut fury))
        .and_then(|()| check_shop::register_types(&mut fury))
        .and_then(|()| check_named::register_types(&mut fury));
    if let Err(e) = registered {
        eprintln!("registration failed: {e}");
        return ExitCode::FAILURE;
    }
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
            "check.all.Scalars" => round_trip::<check_all::Scalars>(&fury, &bytes),
            "check.all.Optionals" => round_trip::<check_all::Optionals>(&fury, &bytes),
            "check.all.Collections" => round_trip::<check_all::Collections>(&fury, &bytes),
            "check.all.Outer" => round_trip::<check_all::Outer>(&fury, &bytes),
            "check.all.Outer.Inner" => round_trip::<check_all::outer::Inner>(&fury, &bytes),
            "check.all.Node" => round_trip::<check_all::Node>(&fury, &bytes),
            "check.all.Holder" => round_trip::<check_all::Holder>(&fury, &bytes),
            "check.all.Shape" => round_trip::<check_all::Shape>(&fury, &bytes),
            "check.all.Color" => round_trip::<check_all::Color>(&fury, &bytes),
            "check.all.Point" => round_trip::<check_all::Point>(&fury, &bytes),
            "check.orders.Order" => round_trip::<check_orders::Order>(&fury, &bytes),
            "check.orders.Line" => round_trip::<check_orders::Line>(&fury, &bytes),
            "check.shop.Order" => round_trip::<check_shop::Order>(&fury, &bytes),
            "check.shop.Envelope" => round_trip::<check_shop::Envelope>(&fury, &bytes),
            "check.named.Outer" => round_trip::<check_named::Outer>(&fury, &bytes),
            other => {
                println!("{other} ERROR no such type in schema-check");
                continue;
            }
        };
        match out {
            Ok(b) => println!(
                "{ty} {}",
                b.iter().map(|b| format!("{b:02x}")).collect::<String>()
            ),
            Err(e) => println!("{ty} ERROR {}", e.to_string().replace('\n', " ")),
        }
    }
    ExitCode::SUCCESS
}
