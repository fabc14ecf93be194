//! The inventory service of `proto/inventory.fdl`, compiled by fury-build (`build.rs`), and
//! what its server and client binaries share: the starting stock and the calls the clients
//! make, with the answers they expect (the Python client of `python/` expects the same).

/// Types, `fury()`, `inventory_client` and `inventory_server` of package `demo.inventory`.
pub mod demo_inventory {
    include!(concat!(env!("OUT_DIR"), "/demo_inventory.rs"));
}

use demo_inventory::{Item, Kind};

/// The stock a server starts with (the Python server starts with the same).
pub fn starting_stock() -> Vec<Item> {
    let item = |sku: &str, name: &str, kind, count, tags: &[&str], note: Option<&str>| Item {
        sku: sku.into(),
        name: name.into(),
        kind,
        count,
        tags: tags.iter().map(|t| t.to_string()).collect(),
        note: note.map(String::from),
    };
    vec![
        item("A-1", "anvil", Kind::Tool, 3, &["heavy", "iron"], None),
        item(
            "B-2",
            "bolt",
            Kind::Part,
            250,
            &["m8"],
            Some("zinc plated, ü"),
        ),
        item("C-3", "chisel", Kind::Tool, 0, &[], None),
    ]
}

/// Reads `--name VALUE` from the command line.
pub fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}
