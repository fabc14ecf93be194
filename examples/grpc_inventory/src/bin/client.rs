//! The inventory client: `grpc-inventory-client --addr HOST:PORT [--stop]`. Calls every
//! method of the service (all four kinds of rpc) and checks each answer against what the
//! starting stock makes it (any server of the example: Rust or Python); with `--stop`, asks
//! the server to stop at the end. Exits non-zero on the first unexpected answer.

use grpc_inventory::demo_inventory::inventory_client::InventoryClient;
use grpc_inventory::demo_inventory::{ItemQuery, Kind, ListQuery, Restock, Shutdown};
use std::time::Duration;
use tonic::Code;

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        println!("  ok: {what}");
        Ok(())
    } else {
        Err(format!("unexpected answer: {what}"))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = grpc_inventory::arg("--addr")
        .ok_or("usage: grpc-inventory-client --addr HOST:PORT [--stop]")?;
    let stop = std::env::args().any(|a| a == "--stop");
    let channel = tonic::transport::Endpoint::new(format!("http://{addr}"))?
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(20))
        .connect()
        .await?;
    let mut client = InventoryClient::new(channel);
    let stock = grpc_inventory::starting_stock();

    // unary
    let item = client
        .get_item(ItemQuery { sku: "B-2".into() })
        .await?
        .into_inner();
    check(
        item == stock[1],
        "GetItem B-2 is the bolt, note and tags included",
    )?;
    let missing = client.get_item(ItemQuery { sku: "Z-9".into() }).await;
    check(
        matches!(&missing, Err(s) if s.code() == Code::NotFound),
        "GetItem Z-9 is NOT_FOUND",
    )?;

    // server streaming
    let mut listed = Vec::new();
    let mut stream = client
        .list_items(ListQuery { min_count: 1 })
        .await?
        .into_inner();
    while let Some(item) = stream.message().await? {
        listed.push(item);
    }
    check(
        listed == stock[..2],
        "ListItems min_count=1 streams A-1, B-2",
    )?;

    // client streaming
    let restocks = vec![
        Restock {
            sku: "A-1".into(),
            added: 2,
        },
        Restock {
            sku: "C-3".into(),
            added: 5,
        },
        Restock {
            sku: "A-1".into(),
            added: 1,
        },
    ];
    let summary = client
        .restock_items(tokio_stream::iter(restocks))
        .await?
        .into_inner();
    let counts: Vec<(String, i32)> = summary
        .items
        .iter()
        .map(|i| (i.sku.clone(), i.count))
        .collect();
    check(
        summary.messages == 3
            && summary.units == 8
            && counts == [("A-1".into(), 5), ("C-3".into(), 5), ("A-1".into(), 6)],
        "RestockItems: 3 messages, 8 units, running counts 5, 5, 6",
    )?;

    // bidirectional streaming
    let queries = ["C-3", "A-1"].map(|sku| ItemQuery { sku: sku.into() });
    let mut answers = client
        .watch_items(tokio_stream::iter(queries))
        .await?
        .into_inner();
    let mut watched = Vec::new();
    while let Some(item) = answers.message().await? {
        watched.push((item.sku, item.kind, item.count));
    }
    check(
        watched == [("C-3".into(), Kind::Tool, 5), ("A-1".into(), Kind::Tool, 6)],
        "WatchItems answers C-3 then A-1, restocked",
    )?;

    if stop {
        let summary = client
            .stop(Shutdown {
                reason: "rust client done".into(),
            })
            .await?
            .into_inner();
        check(
            summary.units == 6 + 250 + 5,
            "Stop reports 261 units in stock",
        )?;
    }
    println!("grpc client: every answer as expected");
    Ok(())
}
