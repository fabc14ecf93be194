//! `fury compile [-I DIR]... [--grpc] --rust_out DIR FILE...`: the schema compiler of
//! fury-build on the command line, with foryc's flag names.

use std::path::PathBuf;

/// The usage line of `fury compile`.
pub const COMPILE_USAGE: &str =
    "usage: fury compile [-I DIR | --proto_path DIR | --import_path DIR]... [--grpc] --rust_out DIR FILE...";

/// What `fury compile` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileArgs {
    /// Import folders, in the order given.
    pub includes: Vec<PathBuf>,
    /// The output folder.
    pub rust_out: PathBuf,
    /// The schema files.
    pub files: Vec<PathBuf>,
    /// `--grpc`: tonic clients and servers for the services too (as foryc generates its gRPC
    /// code only with this flag).
    pub grpc: bool,
}

/// Parses the arguments after `compile`: `-I DIR`, `-IDIR`, `--proto_path[=]DIR`,
/// `--import_path[=]DIR`, `--rust_out[=]DIR`, `--grpc`, and files; an error says what is
/// missing.
///
/// ```
/// let a = fury_cli::parse_compile_args(&["-I", "proto", "--rust_out=src/gen", "proto/a.fdl"]).unwrap();
/// assert_eq!(a.includes, [std::path::PathBuf::from("proto")]);
/// assert_eq!(a.rust_out, std::path::PathBuf::from("src/gen"));
/// assert!(!a.grpc);
/// assert!(fury_cli::parse_compile_args(&["a.fdl"]).unwrap_err().contains("--rust_out"));
/// ```
pub fn parse_compile_args<S: AsRef<str>>(args: &[S]) -> Result<CompileArgs, String> {
    let mut includes = Vec::new();
    let mut rust_out = None;
    let mut files = Vec::new();
    let mut grpc = false;
    let mut it = args.iter().map(AsRef::as_ref);
    while let Some(a) = it.next() {
        if a == "--grpc" {
            grpc = true;
            continue;
        }
        let mut value = |flag: &str| -> Result<Option<String>, String> {
            if a == flag {
                return it
                    .next()
                    .map(|v| Some(v.to_string()))
                    .ok_or(format!("{flag} needs a folder"));
            }
            let rest = a.strip_prefix(flag);
            Ok(rest
                .and_then(|r| {
                    if flag == "-I" {
                        Some(r)
                    } else {
                        r.strip_prefix('=')
                    }
                })
                .map(String::from))
        };
        if let Some(d) = value("-I")? {
            includes.push(PathBuf::from(d));
        } else if let Some(d) = value("--proto_path")? {
            includes.push(PathBuf::from(d));
        } else if let Some(d) = value("--import_path")? {
            includes.push(PathBuf::from(d));
        } else if let Some(d) = value("--rust_out")? {
            rust_out = Some(PathBuf::from(d));
        } else if a.starts_with('-') {
            return Err(format!("unknown option {a}"));
        } else {
            files.push(PathBuf::from(a));
        }
    }
    let rust_out = rust_out.ok_or("--rust_out DIR is required (the folder for the .rs files)")?;
    if files.is_empty() {
        return Err("no schema file given".into());
    }
    Ok(CompileArgs {
        includes,
        rust_out,
        files,
        grpc,
    })
}

/// Runs `fury compile`: one `.rs` file per package into `rust_out` (with the tonic client and
/// server modules of its services when `grpc`); returns the files written.
///
/// ```no_run
/// let args = fury_cli::parse_compile_args(&["--rust_out", "out", "a.fdl"]).unwrap();
/// for f in fury_cli::run_compile(&args).unwrap() {
///     println!("generated {}", f.display());
/// }
/// ```
pub fn run_compile(args: &CompileArgs) -> Result<Vec<PathBuf>, fury_build::Error> {
    let mut config = fury_build::Config::new();
    config
        .out_dir(&args.rust_out)
        .emit_rerun_if_changed(false)
        .build_client(args.grpc)
        .build_server(args.grpc);
    let generated = config.compile(&args.files, &args.includes)?;
    Ok(generated
        .files
        .keys()
        .map(|name| args.rust_out.join(name))
        .collect())
}
