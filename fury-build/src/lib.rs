//! # fury-build
//!
//! Compiles Fory IDL (`.fdl`) and proto3 (`.proto`) schemas into Rust modules of
//! `#[derive(fury::FuryObject)]` types, from a build script as `prost-build` does, and with the
//! type ids, field tag ids and nullability that the schema compiler `foryc` 1.7.7 gives its
//! other languages: a value written by fury-rs with these types is read by pyfory with foryc's
//! Python types, and back (the test command checks it both ways, in both modes). No Python
//! is needed at build time.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     fury_build::compile(&["proto/inventory.fdl"], &["proto"])?;
//!     Ok(())
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs: one file per package in OUT_DIR (`package demo.inv;` → `demo_inv.rs`)
//! pub mod demo_inv {
//!     include!(concat!(env!("OUT_DIR"), "/demo_inv.rs"));
//! }
//!
//! let item = demo_inv::Item { sku: "A-1".into(), ..Default::default() };
//! let bytes = item.to_bytes()?;                 // the per-module Fury (compatible, ref tracking)
//! let back = demo_inv::Item::from_bytes(&bytes)?;
//! // or on a Fury of your own:
//! let mut fury = fury::Fury::builder().compatible(false).build();
//! demo_inv::register_types(&mut fury)?;
//! ```
//!
//! The same compiler is behind the command line: `fury compile [-I DIR]... --rust_out DIR
//! FILE...` (the flag names of foryc).
//!
//! ## The generated module
//!
//! For each package, one file `<package with _ for .>.rs` (`generated.rs` without a package)
//! holding:
//!
//! - every message as a `pub struct`, every enum as a `pub enum` of unit variants, every union
//!   as a `pub enum` with one variant per case and `Unknown(fury::UnknownCase)` for cases a
//!   newer schema added; names in Rust case (`UpperCamelCase` types and variants,
//!   `snake_case` fields, `r#` for keywords); the types nested in a message `Outer` are in a
//!   module `outer`; enum variants lose the enum's name as a prefix (`STATUS_PAID` → `Paid`);
//! - the schema's comments as rustdoc (a comment on the lines just above a declaration);
//! - `#[fury(id = N)]` on each type: the `[id=N]` of the schema, or the id foryc derives
//!   (murmur3 of the qualified name, `fury_types::ids::name_type_id`), or, with
//!   `option enable_auto_type_id = false;`, a registration by name (`package`, `Type` or
//!   `Outer.Inner`);
//! - `pub fn register_types(fury: &mut fury::Fury) -> fury::Result<()>`, which registers the
//!   package's types (the name is fixed: other tools call it);
//! - `pub fn fury() -> fury::Result<&'static fury::Fury>`: a `Fury` built once, in compatible
//!   mode with reference tracking (as foryc's generated code builds its own), with the types
//!   of the package and of the packages it imports; and `to_bytes(&self)` /
//!   `from_bytes(&[u8])` on every type, which use it.
//!
//! A type of another package is named `super::<its module>::Type`: the package modules are
//! siblings, as [`Config::include_file`] lays them out.
//!
//! ## The IDL subset and its Rust types
//!
//! Fory IDL as foryc 1.7.7 reads it: `package a.b [alias c];`, `import "x.fdl";`,
//! `option name = value;`, `enum`, `message` (nested messages, enums and unions),
//! `union`, `service` (a tonic client and server, below), `reserved`, type options
//! `[id=N, alias="..."]`, field options `[ref=true, nullable=true]`. proto3 as foryc maps it
//! (see below). `.fbs` is not read.
//!
//! | schema | Rust field type | wire type |
//! |---|---|---|
//! | `bool`, `int8`, `int16`, `uint8`, `uint16` | `bool`, `i8`, `i16`, `u8`, `u16` | BOOL, INT8, INT16, UINT8, UINT16 |
//! | `int32`, `int64`, `uint32`, `uint64` | `i32`, `i64`, `u32`, `u64` | varints |
//! | `fixed int32` ... `fixed uint64`, `tagged int64`/`uint64` | the same with `#[fury(encoding = "fixed"/"tagged")]` (`fury::Fixed<T>`/`fury::Tagged<T>` inside collections and unions) | INT32 ..., TAGGED_INT64 ... |
//! | `float16`, `bfloat16`, `float32`, `float64` | `fury::F16`, `fury::BF16`, `f32`, `f64` | FLOAT16 ... FLOAT64 |
//! | `string`, `bytes` | `String`, `Vec<u8>` (`bytes::Bytes` with [`Config::bytes`]) | STRING, BINARY |
//! | `date`, `timestamp`, `duration`, `decimal` | `fury::Date`, `fury::Timestamp`, `fury::Duration`, `fury::Decimal` | DATE, TIMESTAMP, DURATION, DECIMAL |
//! | `any` | `Option<Box<dyn fury::AnyObject>>` (always nullable) | the value's own type |
//! | `list<T>`, `repeated T` | `Vec<T>`; `fury::List<T>` for numbers (a LIST, as pyfory's `List[int32]`); `#[fury(untracked_elements)]` for messages and unions, as foryc's `Ref[T, False]` | LIST |
//! | `list<optional T>`, `list<ref T>` | `Vec<Option<T>>`, `Vec<Arc<T>>` | LIST |
//! | `array<T>` (numbers, bool) | `Vec<T>` (`fury::UInt8Array` for `uint8`) | the dense `*_ARRAY` |
//! | `map<K, V>` | `HashMap<K, V>` (`BTreeMap` with [`Config::btree_map`]) | MAP |
//! | a message | `Option<Message>` (message fields are always nullable, as in foryc); a `Box` where a value would contain itself | STRUCT |
//! | an enum, a union | the Rust enum (not nullable unless `optional`) | ENUM, UNION |
//! | `optional T` | `Option<T>` | nullable |
//! | `ref T` | `Option<Arc<T>>` with `#[fury(ref)]` | tracked reference |
//!
//! proto3 goes through foryc's translation: `int32`/`int64` are `uint32`/`uint64` (foryc's
//! choice; negative values do not fit), `sint32`/`sint64` are `int32`/`int64`,
//! `fixed32`/`fixed64` fixed `uint32`/`uint64`, `sfixed32`/`sfixed64` fixed `int32`/`int64`,
//! `float`/`double` `float32`/`float64`; `google.protobuf.Timestamp`/`Duration`/`Any` are
//! `timestamp`/`duration`/`any` (their imports are not read); a `oneof` is a union nested in
//! its message, named in UpperCamelCase, held by one nullable field numbered as its
//! smallest case; `option (fory).id = N;` gives a type id, `[(fory).ref = true]`,
//! `[(fory).nullable = true]` and `[(fory).type = "tagged int64"]` what their names say.
//! A message field whose type is written package-qualified (`common.Money`) stays
//! non-nullable, as foryc 1.7.7 leaves it (spec/DISAGREEMENTS.md).
//!
//! ## Services: gRPC over tonic
//!
//! For each `service` of a package, the package's module also holds (as tonic-build lays them
//! out for prost):
//!
//! - `<service>_client::<Service>Client<T>`: `connect(dst)`, `new(channel)`, the message size
//!   limits, and one `async fn` per rpc (`rpc GetItem` → `get_item`) taking
//!   `impl tonic::IntoRequest<Req>` (`impl tonic::IntoStreamingRequest<Message = Req>` for a
//!   `stream` request) and returning `tonic::Response<Resp>` (`tonic::Streaming<Resp>` for a
//!   `stream` response);
//! - `<service>_server::<Service>`, the trait to implement (with `#[tonic::async_trait]`; a
//!   `stream` response has an associated type `<Method>Stream`), and
//!   `<service>_server::<Service>Server<T>`, the `tower::Service` to serve
//!   (`tonic::transport::Server::builder().add_service(...)`, or `serve` it alone).
//!
//! Unary, server-streaming, client-streaming and bidirectional rpcs are all generated. The
//! method paths are foryc's (`/package.Service/Method`, `/Service/Method` without a package),
//! and each gRPC message is one xlang stream of the package's `fury()` (compatible mode,
//! reference tracking), as the `--grpc` output of foryc writes it: a fury-rs client calls a
//! Python `grpc.aio` server built from the same schema, and back (the test command runs
//! `examples/grpc_inventory` both ways). The codec is `fury::tonic::FuryCodec`.
//!
//! The generated code needs, in the crate that includes it, `fury` with its feature `tonic`
//! and `tonic` 0.14 with its features `codegen` and `transport` (`connect`, and serving; both
//! are defaults of tonic, as is `router`, which `Server::add_service` needs):
//!
//! ```toml
//! [dependencies]
//! fury = { version = "0.1", features = ["tonic"] }
//! tonic = "0.14"
//! ```
//!
//! ```ignore
//! use demo_inv::inventory_client::InventoryClient;
//! let mut client = InventoryClient::connect("http://127.0.0.1:50051").await?;
//! let item = client.get_item(demo_inv::ItemQuery { sku: "A-1".into() }).await?.into_inner();
//! ```
//!
//! [`Config::build_client`] and [`Config::build_server`] turn either side off (both off: no
//! tonic code, and no tonic dependency is needed); a schema without services gets none.
//! The request and response of an rpc must be messages or unions of the loaded schemas, as
//! foryc requires.
//!
//! ## Coming from prost-build
//!
//! In `build.rs`, `prost_build::compile_protos(&["a.proto"], &["proto"])` becomes
//! `fury_build::compile(&["a.proto"], &["proto"])`, and `prost_build::Config::new()` becomes
//! [`Config::new()`] with the same `out_dir`, `type_attribute`, `field_attribute`,
//! `btree_map`, `bytes`, `extern_path`, `include_file` and `emit_rerun_if_changed`; no
//! `protoc` is needed; tonic-build's `compile_protos` is the same call, with
//! [`Config::build_client`]/[`Config::build_server`] as its switches. In code,
//! `Message::encode_to_vec()`/`decode()` become `to_bytes()`/`from_bytes()` (or
//! `fury.serialize`/`deserialize` on a `Fury` you configure and `register_types` on), a
//! `oneof` is a field of a union enum instead of an `Option` of a `oneof` enum, enums are Rust enums (not `i32`), `int32` fields are `u32` (foryc's mapping),
//! and the bytes are Fory's xlang format, not protobuf's.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod codegen;
mod error;
mod fdl;
mod lexer;
pub mod model;
mod proto;
mod resolve;
mod services;

pub use error::Error;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Compiles `files` (with their imports, searched in the importing file's folder and in
/// `includes`) into `OUT_DIR`, one file per package, with the default [`Config`].
///
/// ```no_run
/// // build.rs
/// fury_build::compile(&["proto/inventory.fdl"], &["proto"]).unwrap();
/// ```
pub fn compile(files: &[impl AsRef<Path>], includes: &[impl AsRef<Path>]) -> Result<(), Error> {
    Config::new().compile(files, includes).map(drop)
}

/// What to generate, and where: the options prost-build users know.
///
/// ```no_run
/// fury_build::Config::new()
///     .type_attribute(".demo.inv.Item", "#[derive(serde::Serialize)]")
///     .btree_map(["."])
///     .include_file("schemas.rs")
///     .compile(&["proto/inventory.fdl"], &["proto"])
///     .unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    pub(crate) type_attributes: Vec<(String, String)>,
    pub(crate) field_attributes: Vec<(String, String)>,
    pub(crate) btree_map: Vec<String>,
    pub(crate) bytes: Vec<String>,
    pub(crate) extern_paths: Vec<(String, String)>,
    include_file: Option<PathBuf>,
    emit_rerun_if_changed: bool,
    pub(crate) build_client: bool,
    pub(crate) build_server: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// The defaults: output into `OUT_DIR`, `HashMap`s, `Vec<u8>` for bytes, and
    /// `cargo:rerun-if-changed` lines for every schema read.
    ///
    /// ```
    /// let config = fury_build::Config::new();
    /// # let _ = config;
    /// ```
    pub fn new() -> Self {
        Config {
            out_dir: None,
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            btree_map: Vec::new(),
            bytes: Vec::new(),
            extern_paths: Vec::new(),
            include_file: None,
            emit_rerun_if_changed: true,
            build_client: true,
            build_server: true,
        }
    }

    /// Writes into `dir` instead of `OUT_DIR`.
    ///
    /// ```
    /// fury_build::Config::new().out_dir("generated");
    /// ```
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Adds `attribute` (e.g. `#[derive(serde::Serialize)]`) to the types matched by `path`:
    /// `.` for all, a full name `.package.Type` (and what is nested in it), or a name without
    /// the leading dot that matches the end of full names (`Type`, `Outer.Inner`).
    ///
    /// ```
    /// fury_build::Config::new().type_attribute(".", "#[derive(Hash)]");
    /// ```
    pub fn type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.type_attributes.push((path.into(), attribute.into()));
        self
    }

    /// Adds `attribute` to the fields (and union cases) matched by `path`
    /// (`.package.Type.field`, or the end of one: `Type.field`).
    ///
    /// ```
    /// fury_build::Config::new().field_attribute("Item.sku", "#[doc(alias = \"id\")]");
    /// ```
    pub fn field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.field_attributes.push((path.into(), attribute.into()));
        self
    }

    /// `BTreeMap` instead of `HashMap` for the map fields matched by the paths (`.` for all).
    ///
    /// ```
    /// fury_build::Config::new().btree_map(["."]);
    /// ```
    pub fn btree_map<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.btree_map
            .extend(paths.into_iter().map(|p| p.as_ref().to_string()));
        self
    }

    /// `bytes::Bytes` instead of `Vec<u8>` for the `bytes` fields matched by the paths (the
    /// crate using the output then needs the `bytes` crate and the `bytes` feature of `fury`).
    ///
    /// ```
    /// fury_build::Config::new().bytes([".demo.inv.Blob.data"]);
    /// ```
    pub fn bytes<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.bytes
            .extend(paths.into_iter().map(|p| p.as_ref().to_string()));
        self
    }

    /// Uses the Rust path `rust_path` for the schema types under `schema_path` (`.package` or
    /// `.package.Type`) instead of generating them: types compiled elsewhere. Their
    /// registration is then the other crate's business.
    ///
    /// ```
    /// fury_build::Config::new().extern_path(".demo.common", "::common_types::demo_common");
    /// ```
    pub fn extern_path(
        &mut self,
        schema_path: impl Into<String>,
        rust_path: impl Into<String>,
    ) -> &mut Self {
        let p: String = schema_path.into();
        let p = if p.starts_with('.') {
            p
        } else {
            format!(".{p}")
        };
        self.extern_paths.push((p, rust_path.into()));
        self
    }

    /// Also writes `name` into the output folder: one `pub mod <package module>` per
    /// package, each including its file, so one `include!` brings in everything.
    ///
    /// ```
    /// fury_build::Config::new().include_file("schemas.rs");
    /// // in the crate: include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
    /// ```
    pub fn include_file(&mut self, name: impl Into<PathBuf>) -> &mut Self {
        self.include_file = Some(name.into());
        self
    }

    /// Whether to print `cargo:rerun-if-changed=<file>` for every schema read (default true).
    ///
    /// ```
    /// fury_build::Config::new().emit_rerun_if_changed(false);
    /// ```
    pub fn emit_rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.emit_rerun_if_changed = on;
        self
    }

    /// Whether to generate a tonic client module (`<service>_client`) for each `service` of
    /// the schemas (default true; nothing is generated for a schema without services).
    ///
    /// ```
    /// // a server-only crate
    /// fury_build::Config::new().build_client(false);
    /// ```
    pub fn build_client(&mut self, on: bool) -> &mut Self {
        self.build_client = on;
        self
    }

    /// Whether to generate a tonic server module (`<service>_server`) for each `service` of
    /// the schemas (default true).
    ///
    /// ```
    /// // a client-only crate
    /// fury_build::Config::new().build_server(false);
    /// ```
    pub fn build_server(&mut self, on: bool) -> &mut Self {
        self.build_server = on;
        self
    }

    /// Compiles `files` and their imports into the output folder, one `.rs` file per package,
    /// and returns what it wrote (file names relative to the folder); an error names the file,
    /// line and column of the first problem.
    ///
    /// ```no_run
    /// fury_build::Config::new().out_dir("src/generated").compile(&["schema/a.proto"], &["schema"]).unwrap();
    /// ```
    pub fn compile(
        &self,
        files: &[impl AsRef<Path>],
        includes: &[impl AsRef<Path>],
    ) -> Result<Generated, Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::msg(
                        "OUT_DIR is not set (outside a build script): set Config::out_dir".into(),
                    )
                })?,
        };
        let generated = self.generate(files, includes)?;
        std::fs::create_dir_all(&out_dir)
            .map_err(|e| Error::in_file(&out_dir, format!("cannot be created: {e}")))?;
        for (name, text) in &generated.files {
            write_if_changed(&out_dir.join(name), text)?;
        }
        if let Some(inc) = &self.include_file {
            let mut text = String::from("// Generated by fury-build; do not edit.\n");
            for name in generated.files.keys() {
                let module = name.trim_end_matches(".rs");
                text.push_str(&format!(
                    "pub mod {module} {{\n    include!({name:?});\n}}\n"
                ));
            }
            write_if_changed(&out_dir.join(inc), &text)?;
        }
        if self.emit_rerun_if_changed {
            for f in &generated.inputs {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        Ok(generated)
    }

    /// The generated files (name → Rust source) without writing them.
    ///
    /// ```no_run
    /// let out = fury_build::Config::new().generate(&["a.fdl"], &["."]).unwrap();
    /// for (name, source) in &out.files {
    ///     println!("{name}: {} bytes", source.len());
    /// }
    /// ```
    pub fn generate(
        &self,
        files: &[impl AsRef<Path>],
        includes: &[impl AsRef<Path>],
    ) -> Result<Generated, Error> {
        let files: Vec<PathBuf> = files.iter().map(|f| f.as_ref().to_path_buf()).collect();
        let includes: Vec<PathBuf> = includes.iter().map(|f| f.as_ref().to_path_buf()).collect();
        let mut loaded = resolve::load(&files, &includes)?;
        loaded.apply_rules()?;
        check_services(&loaded)?;
        // Packages in registration order (a package after those it imports), with the
        // packages each one imports, transitively.
        let mut order: Vec<String> = Vec::new();
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (i, s) in loaded.schemas.iter().enumerate() {
            let p = s.package.clone().unwrap_or_default();
            if !order.contains(&p) {
                order.push(p.clone());
            }
            let mut stack: Vec<usize> = loaded.imports[i].clone();
            let mut seen = BTreeSet::new();
            while let Some(j) = stack.pop() {
                if seen.insert(j) {
                    stack.extend(loaded.imports[j].iter().copied());
                    let q = loaded.schemas[j].package.clone().unwrap_or_default();
                    if q != p {
                        deps.entry(p.clone()).or_default().insert(q);
                    }
                }
            }
        }
        let mut out = Generated {
            files: BTreeMap::new(),
            inputs: loaded.schemas.iter().map(|s| s.file.clone()).collect(),
        };
        for p in &order {
            let gen = codegen::Gen::new(&loaded, self, p);
            if gen.is_extern(p) && !p.is_empty() {
                continue;
            }
            let imported: Vec<String> = order
                .iter()
                .filter(|q| deps.get(p).is_some_and(|d| d.contains(*q)) && !gen.is_extern(q))
                .cloned()
                .collect();
            let text = gen.generate(&imported);
            out.files.insert(
                format!("{}.rs", codegen::module_name(p).trim_start_matches("r#")),
                text,
            );
        }
        Ok(out)
    }
}

/// What [`Config::generate`] produced.
#[derive(Debug, Clone)]
pub struct Generated {
    /// File name (`demo_inv.rs`) → Rust source.
    pub files: BTreeMap<String, String>,
    /// Every schema file read (the ones given and their imports).
    pub inputs: Vec<PathBuf>,
}

/// Every rpc's request and response names a type of the schema, and no service or method
/// name is given twice (the generated modules and functions would clash).
fn check_services(loaded: &resolve::Loaded) -> Result<(), Error> {
    let mut services = BTreeSet::new();
    for s in &loaded.schemas {
        let package = s.package.clone().unwrap_or_default();
        for svc in &s.services {
            let at = |pos: &model::Pos, what: String| Error::at(&s.file, pos.line, pos.col, what);
            let full = resolve::qualified(&package, &svc.name);
            if !services.insert(codegen::snake(&full)) {
                return Err(at(&svc.pos, format!("service `{full}` is defined twice")));
            }
            let mut methods = BTreeSet::new();
            for m in &svc.methods {
                let snake = codegen::snake(&m.name);
                // The generated client has these methods of its own.
                if matches!(
                    snake.as_str(),
                    "new" | "connect" | "max_decoding_message_size" | "max_encoding_message_size"
                ) {
                    return Err(at(
                        &m.pos,
                        format!(
                            "method `{}` of service `{full}` would be the client's `{snake}`: rename it",
                            m.name
                        ),
                    ));
                }
                if !methods.insert(snake) {
                    return Err(at(
                        &m.pos,
                        format!("method `{}` of service `{full}` is defined twice", m.name),
                    ));
                }
                for (what, name) in [("request", &m.request), ("response", &m.response)] {
                    let problem = match loaded.resolve(name, &package, &[]) {
                        None => "is not defined",
                        // foryc's rule: a gRPC message is a message or a union.
                        Some((_, t)) if t.kind == resolve::Kind::Enum => {
                            "must be a message or a union, not an enum"
                        }
                        Some(_) => continue,
                    };
                    return Err(at(
                        &m.pos,
                        format!("the {what} type `{name}` of `{full}.{}` {problem}", m.name),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), Error> {
    // Rewriting an unchanged file would make cargo rebuild what includes it.
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| Error::in_file(path, format!("cannot be written: {e}")))
}
