//! Row-format requests (`"format": "row"`, the `rows` group).

use serde_json::{json, Value as Json};

/// Not yet: the row mirrors live in `conformance/tests/row.rs` only.
pub fn handle(_req: &Json) -> Result<Json, String> {
    Ok(json!({"skipped": "the fury-rs testee has no row-format mirrors yet"}))
}
