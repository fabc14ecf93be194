//! The vector groups: `conformance/groups.json`, compiled in (`include_str!`), so the runner,
//! the tests and the Python tools (`vectorlib/group.py`) read one table and cannot drift.
//!
//! A group's vectors are the files `vectors/<name>/<file>.json`, one per entry of `files`
//! (each file's own `group` is that file name); `README.md`, "Adding a group", says what each
//! field means.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The table itself, as committed.
pub const TABLE: &str = include_str!("../groups.json");
/// The `format` of [`TABLE`].
pub const TABLE_FORMAT: &str = "fury-conformance-groups/1";

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group's name: `fury-conformance run --groups NAME`, `vectors/NAME/`,
    /// `generators/NAME.py`.
    pub name: String,
    /// What the vectors are about, for people (test-all.sh prints it).
    pub about: String,
    /// The base names of the group's files in `vectors/NAME/`. When a group has more than
    /// one, each file is also selectable as a group of its own.
    pub files: Vec<String>,
    /// The testee protocol version its requests carry (1 or 2; `PROTOCOL.md`).
    pub protocol: u32,
    /// `generators/rust_mirrors.py` writes the group's Rust mirrors (`src/mirrors/`).
    pub rust_mirrors: bool,
    /// The file under `target/conformance/` where fury-rs writes its bytes of the group's
    /// vectors for pyfory to read (`check_peer.py --group NAME`); none: no peer check.
    pub peer_bytes: Option<String>,
    /// The vectors fury-rs writes no bytes for, with their reasons (relative to
    /// `conformance/`); the peer check fails on an unlisted one.
    pub peer_skips: Option<String>,
}

impl Group {
    /// `vectors/NAME/` under the given `conformance/` directory.
    pub fn dir_in(&self, root: &Path) -> PathBuf {
        root.join("vectors").join(&self.name)
    }

    /// `vectors/NAME/` of this checkout.
    pub fn dir(&self) -> PathBuf {
        self.dir_in(&conformance_dir())
    }

    /// The paths of the group's files in this checkout, in table order.
    pub fn file_paths(&self) -> Vec<PathBuf> {
        let dir = self.dir();
        self.files
            .iter()
            .map(|f| dir.join(format!("{f}.json")))
            .collect()
    }

    /// Where fury-rs writes its bytes for the peer check, if the group has one.
    pub fn peer_bytes_path(&self) -> Option<PathBuf> {
        self.peer_bytes
            .as_ref()
            .map(|f| conformance_dir().join("../target/conformance").join(f))
    }
}

/// The `conformance/` directory of this checkout.
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Parses a table in the format of `groups.json`.
pub fn parse(text: &str) -> Result<Vec<Group>, String> {
    let doc: Json = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if doc["format"] != TABLE_FORMAT {
        return Err(format!(
            "format is {}, expected {TABLE_FORMAT:?}",
            doc["format"]
        ));
    }
    let rows = doc["groups"].as_array().ok_or("no \"groups\" list")?;
    let mut out: Vec<Group> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let text = |key: &str| row[key].as_str().map(str::to_string);
        let name = text("name").ok_or(format!("row {i}: no \"name\""))?;
        let at = |what: &str| format!("group {name:?}: {what}");
        let files = row["files"]
            .as_array()
            .ok_or_else(|| at("no \"files\" list"))?
            .iter()
            .map(|f| f.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| at("a file name is not a string"))?;
        if files.is_empty() {
            return Err(at("no files"));
        }
        let protocol = match row["protocol"].as_u64() {
            Some(p @ (1 | 2)) => p as u32,
            _ => return Err(at("\"protocol\" is not 1 or 2")),
        };
        let group = Group {
            about: text("about").ok_or_else(|| at("no \"about\""))?,
            files,
            protocol,
            rust_mirrors: row["rust_mirrors"].as_bool().unwrap_or(false),
            peer_bytes: text("peer_bytes"),
            peer_skips: text("peer_skips"),
            name,
        };
        if group.peer_skips.is_some() && group.peer_bytes.is_none() {
            return Err(format!(
                "group {:?}: \"peer_skips\" without \"peer_bytes\"",
                group.name
            ));
        }
        let taken = |n: &String| out.iter().any(|g| &g.name == n || g.files.contains(n));
        if taken(&group.name) || group.files.iter().any(|f| f != &group.name && taken(f)) {
            return Err(format!(
                "group {:?}: its name or a file name is taken by an earlier group",
                group.name
            ));
        }
        out.push(group);
    }
    Ok(out)
}

/// Every group, in table order.
///
/// # Panics
/// If the compiled-in `groups.json` does not parse (`tests/groups.rs` checks that it does).
pub fn all() -> &'static [Group] {
    static GROUPS: OnceLock<Vec<Group>> = OnceLock::new();
    GROUPS.get_or_init(|| match parse(TABLE) {
        Ok(groups) => groups,
        Err(e) => panic!("conformance/groups.json: {e}"),
    })
}

/// The group of that name.
pub fn find(name: &str) -> Option<&'static Group> {
    all().iter().find(|g| g.name == name)
}

/// The group of that name, for the tests that read a group's files.
///
/// # Panics
/// If there is no such group.
pub fn group(name: &str) -> &'static Group {
    match find(name) {
        Some(g) => g,
        None => panic!("no group {name:?} in conformance/groups.json"),
    }
}

/// The group that holds a file (or group) name: a group's own name or one of its files.
pub fn holding(name: &str) -> Option<&'static Group> {
    all()
        .iter()
        .find(|g| g.name == name || g.files.iter().any(|f| f == name))
}

/// The path of a one-file group's file, e.g. `vectors/rows/rows.json`.
///
/// # Panics
/// If there is no such group.
pub fn file(name: &str) -> PathBuf {
    let g = group(name);
    g.dir().join(format!("{}.json", g.files[0]))
}

/// Where fury-rs writes its bytes of a group for the peer check.
///
/// # Panics
/// If there is no such group, or it has no peer check.
pub fn peer_bytes(name: &str) -> PathBuf {
    match group(name).peer_bytes_path() {
        Some(p) => p,
        None => panic!("group {name:?} has no \"peer_bytes\" in conformance/groups.json"),
    }
}

/// The groups whose files hold streams of values (format `fury-conformance/1`, what
/// [`crate::load_vectors`] reads), in table order: not the meta-string or row groups.
pub fn value_groups() -> Vec<&'static Group> {
    all()
        .iter()
        .filter(|g| {
            g.file_paths().iter().all(|p| {
                std::fs::read_to_string(p)
                    .ok()
                    .and_then(|t| serde_json::from_str::<Json>(&t).ok())
                    .is_some_and(|d| d["format"] == crate::VECTOR_FORMAT)
            })
        })
        .collect()
}
