//! Group `reject`: fury-rs refuses every stream of `vectors/reject/reject.json`, read as its
//! schema, and spec/13-rejection.md lists each vector under the rule it breaks.

use fury_conformance::reject::{decode, Outcome};
use serde_json::Value as Json;

fn vectors() -> Vec<Json> {
    let path = fury_conformance::groups::group("reject").file_paths()[0].clone();
    let text = std::fs::read_to_string(&path).expect("vectors/reject/reject.json");
    let doc: Json = serde_json::from_str(&text).expect("JSON");
    assert_eq!(doc["format"], "fury-reject/1");
    doc["vectors"].as_array().expect("vectors").clone()
}

#[test]
fn fury_rs_refuses_every_rejection_vector() {
    let vectors = vectors();
    assert!(vectors.len() >= 40, "{} vectors", vectors.len());
    let mut wrong = Vec::new();
    for v in &vectors {
        let name = v["name"].as_str().unwrap_or("?");
        match decode(v) {
            Outcome::Refused(_) => {}
            // rows: fury-testee reads them with its row mirrors (tests/runner.rs runs it)
            Outcome::NoType(_) if v["format"] == "row" => {}
            other => wrong.push(format!("{name}: {other:?} ({})", v["why"])),
        }
    }
    assert!(wrong.is_empty(), "not refused:\n{}", wrong.join("\n"));
}

#[test]
fn every_vector_names_a_rule_and_the_index_lists_it() {
    let index_path = fury_conformance::groups::conformance_dir().join("../spec/13-rejection.md");
    let index = std::fs::read_to_string(&index_path).expect("spec/13-rejection.md");
    let mut missing = Vec::new();
    for v in vectors() {
        let name = v["name"].as_str().unwrap_or("?");
        let rule = v["rule"].as_str().unwrap_or("");
        // "spec/04 §4.2": the file of the spec exists and has that section.
        let (file, section) = rule
            .strip_prefix("spec/")
            .and_then(|r| r.split_once(' '))
            .unwrap_or_else(|| panic!("{name}: rule {rule:?}"));
        let dir = fury_conformance::groups::conformance_dir().join("../spec");
        let spec = std::fs::read_dir(&dir)
            .expect("spec/")
            .filter_map(|e| e.ok())
            .find(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{file}-"))
            })
            .unwrap_or_else(|| panic!("{name}: no spec/{file}-*.md"));
        let text = std::fs::read_to_string(spec.path()).expect("spec file");
        let heading = section.trim_start_matches('§');
        assert!(
            text.lines().any(|l| {
                let title = l.trim_start_matches('#');
                l.starts_with("##") && title.trim_start().starts_with(&format!("{heading} "))
            }),
            "{name}: spec/{file} has no section {heading}"
        );
        if !index.contains(&format!("`{name}`")) {
            missing.push(name.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "spec/13-rejection.md does not list: {}",
        missing.join(", ")
    );
}
