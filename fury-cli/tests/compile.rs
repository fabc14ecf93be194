//! `fury compile`: the files it writes for a schema that imports another package, and the
//! place it names for a schema error.

use std::path::PathBuf;

fn schemas() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../conformance/schemas")
}

#[test]
fn writes_one_file_per_package() {
    let out = std::env::temp_dir().join(format!("fury-cli-compile-{}", std::process::id()));
    let args = fury_cli::parse_compile_args(&[
        "-I".to_string(),
        schemas().display().to_string(),
        format!("--rust_out={}", out.display()),
        schemas().join("orders.fdl").display().to_string(),
    ])
    .unwrap();
    let files = fury_cli::run_compile(&args).unwrap();
    assert_eq!(
        files,
        [out.join("check_common.rs"), out.join("check_orders.rs")]
    );
    let orders = std::fs::read_to_string(out.join("check_orders.rs")).unwrap();
    // Order's [id=5201] and Line's id as foryc 1.7.7 derives it (its Python output).
    assert!(
        orders.contains("#[fury(id = 5201)]\npub struct Order {"),
        "{orders}"
    );
    assert!(
        orders.contains("#[fury(id = 1752003589)]\npub struct Line {"),
        "{orders}"
    );
    assert!(
        orders.contains("pub fn register_types(fury: &mut ::fury::Fury) -> ::fury::Result<()> {")
    );
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn schema_errors_name_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("fury-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.fdl");
    std::fs::write(&bad, "package x;\nmessage M {\n  int32 a = 1\n}\n").unwrap();
    let args = fury_cli::CompileArgs {
        includes: vec![],
        rust_out: dir.join("out"),
        files: vec![bad.clone()],
        grpc: false,
    };
    let e = fury_cli::run_compile(&args).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:4:1: expected `;` after the field, found `}}`",
            bad.display()
        )
    );
    assert!(fury_cli::parse_compile_args(&["--rust_out", "o"])
        .unwrap_err()
        .contains("no schema file"));
    assert!(fury_cli::parse_compile_args(&["--bogus", "a.fdl"])
        .unwrap_err()
        .contains("--bogus"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn services_only_with_grpc() {
    let shop = schemas().join("proto/shop.proto");
    for grpc in [false, true] {
        let out = std::env::temp_dir().join(format!("fury-cli-grpc-{grpc}-{}", std::process::id()));
        let mut args = vec![
            "-I".to_string(),
            schemas().join("proto").display().to_string(),
            format!("--rust_out={}", out.display()),
            shop.display().to_string(),
        ];
        if grpc {
            args.insert(0, "--grpc".to_string());
        }
        let args = fury_cli::parse_compile_args(&args).unwrap();
        assert_eq!(args.grpc, grpc);
        fury_cli::run_compile(&args).unwrap();
        let text = std::fs::read_to_string(out.join("check_shop.rs")).unwrap();
        // foryc's path for the service `Shop` of package `check.shop`.
        assert_eq!(
            text.contains("PathAndQuery::from_static(\"/check.shop.Shop/Place\")"),
            grpc
        );
        assert_eq!(text.contains("pub mod shop_server {"), grpc);
        std::fs::remove_dir_all(&out).ok();
    }
}
