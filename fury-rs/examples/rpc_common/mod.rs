//! The messages of the RPC examples (`rpc_server`, `rpc_client`, `rpc_client.py`), included by
//! both Rust examples. The Python client declares the same structs as dataclasses under the
//! same type ids; field names and types match pyfory's defaults (`int` is a varint64, `str` a
//! string, `List[str]` a list, `Optional[str]` a nullable string).

// Each example uses part of this module.
#![allow(dead_code)]
use fury::FuryObject;

pub mod server;

/// A call: `method` is "echo" (answer `body`), "lookup" (answer the entry for `key`) or
/// "shutdown" (stop the server).
#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(id = 600)]
pub struct Request {
    pub id: i64,
    pub method: String,
    pub key: String,
    pub body: Vec<String>,
}

/// The answer to the request with the same `id` (-1 for a frame that could not be read).
#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(id = 601)]
pub struct Response {
    pub id: i64,
    pub ok: bool,
    pub value: Option<String>,
    pub body: Vec<String>,
}

/// A `Fury` with both messages registered (compatible mode, as pyfory's default).
pub fn fury() -> fury::Result<fury::Fury> {
    let mut fury = fury::Fury::default();
    fury.register::<Request>()?.register::<Response>()?;
    Ok(fury)
}

/// `--name value` from the command line, or `default`.
pub fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

/// Whether `--name` is on the command line.
pub fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}
