//! What the `Config` options change in the generated source, on a schema written to a temporary
//! folder (the bytes of generated types are checked against pyfory by
//! conformance/schema_check.py).

use std::path::PathBuf;

fn schema(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fury-build-config-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (f, text) in files {
        std::fs::write(dir.join(f), text).unwrap();
    }
    dir
}

const INV: &str = "package demo.inv;\nimport \"common.fdl\";\n\
    // An item.\nmessage Item [id=7] {\n  string sku = 1;\n  map<string, int32> counts = 2;\n  bytes blob = 3;\n  Money price = 4;\n}\n";
const COMMON: &str = "package demo.common;\nmessage Money { int64 units = 1; }\n";

#[test]
fn options_change_the_generated_source() {
    let dir = schema("opts", &[("inv.fdl", INV), ("common.fdl", COMMON)]);
    let out = fury_build::Config::new()
        .type_attribute(".demo.inv.Item", "#[derive(Hash)]")
        .field_attribute("Item.sku", "#[doc(alias = \"id\")]")
        .btree_map([".demo.inv.Item.counts"])
        .bytes(["."])
        .generate(&[dir.join("inv.fdl")], &[&dir])
        .unwrap();
    assert_eq!(
        out.files.keys().collect::<Vec<_>>(),
        ["demo_common.rs", "demo_inv.rs"]
    );
    let inv = &out.files["demo_inv.rs"];
    assert!(inv.contains("#[doc = \" An item.\"]\n#[derive(::fury::FuryObject, Debug, Clone, PartialEq, Default)]\n#[fury(id = 7)]\n#[derive(Hash)]\npub struct Item {"), "{inv}");
    assert!(
        inv.contains(
            "#[fury(id = 1)]\n    #[doc(alias = \"id\")]\n    pub sku: ::std::string::String,"
        ),
        "{inv}"
    );
    assert!(
        inv.contains("pub counts: ::std::collections::BTreeMap<::std::string::String, i32>,"),
        "{inv}"
    );
    assert!(inv.contains("pub blob: ::bytes::Bytes,"), "{inv}");
    // Another package's type, through the sibling module; its types registered by fury().
    assert!(
        inv.contains("pub price: ::std::option::Option<super::demo_common::Money>,"),
        "{inv}"
    );
    assert!(
        inv.contains("super::demo_common::register_types(&mut fury)?;"),
        "{inv}"
    );
    assert_eq!(out.inputs.len(), 2);
}

#[test]
fn extern_path_uses_the_users_types() {
    let dir = schema("extern", &[("inv.fdl", INV), ("common.fdl", COMMON)]);
    let out = fury_build::Config::new()
        .extern_path(".demo.common", "::shared::common")
        .generate(&[dir.join("inv.fdl")], &[&dir])
        .unwrap();
    assert_eq!(out.files.keys().collect::<Vec<_>>(), ["demo_inv.rs"]);
    let inv = &out.files["demo_inv.rs"];
    assert!(
        inv.contains("pub price: ::std::option::Option<::shared::common::Money>,"),
        "{inv}"
    );
    assert!(!inv.contains("demo_common::register_types"), "{inv}");
}

#[test]
fn include_file_and_out_dir() {
    let dir = schema("include", &[("inv.fdl", INV), ("common.fdl", COMMON)]);
    let out_dir = dir.join("out");
    fury_build::Config::new()
        .out_dir(&out_dir)
        .include_file("all.rs")
        .emit_rerun_if_changed(false)
        .compile(&[dir.join("inv.fdl")], &[&dir])
        .unwrap();
    let all = std::fs::read_to_string(out_dir.join("all.rs")).unwrap();
    assert!(
        all.contains("pub mod demo_common {\n    include!(\"demo_common.rs\");\n}"),
        "{all}"
    );
    assert!(
        all.contains("pub mod demo_inv {\n    include!(\"demo_inv.rs\");\n}"),
        "{all}"
    );
    assert!(out_dir.join("demo_inv.rs").is_file());
}

#[test]
fn errors_name_the_file() {
    let dir = schema(
        "errors",
        &[("a.fdl", "package a;\nimport \"missing.fdl\";\n")],
    );
    let e = fury_build::Config::new()
        .generate(&[dir.join("a.fdl")], &[&dir])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("a.fdl: the import \"missing.fdl\" is in none of the folders searched"),
        "{e}"
    );
    let e = fury_build::Config::new()
        .out_dir(&dir)
        .compile(&[dir.join("none.fdl")], &[&dir])
        .unwrap_err();
    assert!(e.to_string().contains("none.fdl: no such file"), "{e}");
}
