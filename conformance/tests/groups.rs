//! The group table (`conformance/groups.json`) matches the files: every group has its folder
//! with exactly the files the table lists and its generator, every file it names exists, and
//! every folder under `vectors/` is a group.

use fury_conformance::groups::{self, parse};
use std::collections::BTreeSet;

fn names_in(dir: &std::path::Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn the_table_parses_and_every_group_has_exactly_its_files() {
    let all = groups::all();
    assert!(all.len() >= 11, "groups: {all:?}");
    for g in all {
        let want: BTreeSet<String> = g.files.iter().map(|f| format!("{f}.json")).collect();
        assert_eq!(names_in(&g.dir()), want, "vectors/{}/", g.name);
        let root = groups::conformance_dir();
        let generator = root.join("generators").join(format!("{}.py", g.name));
        assert!(
            generator.is_file(),
            "{}: no {}",
            g.name,
            generator.display()
        );
        if let Some(skips) = &g.peer_skips {
            assert!(root.join(skips).is_file(), "{}: no {skips}", g.name);
        }
    }
    let folders = names_in(&groups::conformance_dir().join("vectors"));
    let named: BTreeSet<String> = all.iter().map(|g| g.name.clone()).collect();
    assert_eq!(folders, named, "the folders of vectors/ and the groups");
}

#[test]
fn the_runner_takes_the_groups_and_the_files_of_builtins() {
    let names = fury_conformance::runner::group_names();
    for n in ["builtins", "scalars", "nested", "structs", "meta", "rows"] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    // a one-file group's file is not a group of its own
    assert!(!names.contains(&"meta_strings"), "{names:?}");
    assert_eq!(
        groups::holding("scalars").map(|g| g.name.as_str()),
        Some("builtins")
    );
    assert_eq!(groups::group("oob").protocol, 2);
    assert_eq!(groups::group("refs").protocol, 1);
}

#[test]
fn a_malformed_table_is_refused() {
    let row = |name: &str, files: &str, protocol: u32| {
        format!(r#"{{"name": "{name}", "about": "x", "files": {files}, "protocol": {protocol}}}"#)
    };
    let table = |rows: &[String]| {
        format!(
            r#"{{"format": "{}", "groups": [{}]}}"#,
            groups::TABLE_FORMAT,
            rows.join(",")
        )
    };
    let good = table(&[row("a", r#"["a"]"#, 1), row("b", r#"["x", "y"]"#, 2)]);
    assert_eq!(parse(&good).map(|g| g.len()), Ok(2));
    for bad in [
        table(&[row("a", r#"["a"]"#, 1), row("a", r#"["a"]"#, 1)]),
        table(&[row("a", r#"["x", "y"]"#, 1), row("b", r#"["y"]"#, 1)]),
        table(&[row("a", r#"["a"]"#, 3)]),
        table(&[row("a", "[]", 1)]),
        good.replace(groups::TABLE_FORMAT, "other/1"),
        good.replace(r#", "protocol": 2"#, ""),
    ] {
        assert!(parse(&bad).is_err(), "accepted {bad}");
    }
}
