//! `fury compile [-I DIR]... [--grpc] --rust_out DIR FILE...`: compiles Fory IDL / proto3 schemas to
//! Rust modules (fury-build, the flags of foryc); exit status 1 for a schema error (printed
//! as file:line:col), 2 for a usage error.
//!
//! `fury inspect [FILE | - | --hex HEX] [--json] [--compatible | --same-schema]`: prints any
//! Fory xlang stream as an annotated tree (offset, bytes, meaning), without its types.
//! Input is a file of bytes, or hex text (a file, stdin or `--hex`). Exit status 0 when the
//! stream was read to its end (or to a same-schema struct, whose fields need the type), 1
//! when it is broken (the output points at the offset), 2 for a usage error.

use std::io::Read;
use std::process::ExitCode;

const USAGE: &str =
    "usage: fury inspect [FILE | - | --hex HEX] [--json] [--compatible | --same-schema]";

fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.is_empty()
        || !digits.len().is_multiple_of(2)
        || !digits.chars().all(|c| c.is_ascii_hexdigit())
    {
        return None;
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(digits.get(i..i + 2)?, 16).ok())
        .collect()
}

fn compile(args: &[String]) -> ExitCode {
    let parsed = match fury_cli::parse_compile_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{}", fury_cli::COMPILE_USAGE);
            return ExitCode::from(2);
        }
    };
    match fury_cli::run_compile(&parsed) {
        Ok(files) => {
            for f in files {
                println!("generated {}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("compile") {
        return compile(&args[1..]);
    }
    if args.first().map(String::as_str) != Some("inspect") {
        eprintln!("{USAGE}\n{}", fury_cli::COMPILE_USAGE);
        return ExitCode::from(2);
    }
    let (mut json, mut mode, mut input): (bool, Option<bool>, Option<Vec<u8>>) =
        (false, None, None);
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--compatible" => mode = Some(true),
            "--same-schema" => mode = Some(false),
            "--hex" => match it.next().and_then(|h| from_hex(h)) {
                Some(b) => input = Some(b),
                None => {
                    eprintln!("--hex needs an even number of hex digits\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            path => {
                let mut raw = Vec::new();
                let r = if path == "-" {
                    std::io::stdin().read_to_end(&mut raw).map(drop)
                } else {
                    std::fs::read(path).map(|b| raw = b)
                };
                if let Err(e) = r {
                    eprintln!("{path}: {e}");
                    return ExitCode::from(2);
                }
                // hex text is taken as hex; anything else as the bytes themselves
                input = Some(
                    std::str::from_utf8(&raw)
                        .ok()
                        .and_then(from_hex)
                        .unwrap_or(raw),
                );
            }
        }
    }
    let Some(bytes) = input else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let insp = match mode {
        Some(c) => fury_cli::inspect_mode(&bytes, c),
        None => fury_cli::inspect(&bytes),
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&insp.to_json()).unwrap_or_default()
        );
    } else {
        print!("{}", insp.render_text());
    }
    match insp.stop {
        Some(s) if !s.needs_type => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
