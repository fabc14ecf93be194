//! The inventory server: `grpc-inventory-server [--addr 127.0.0.1:0] [--max-seconds N]`.
//! Prints `listening on ADDR` once bound, serves until a client calls `Stop` or the time is
//! up, and prints `shutting down: REASON`.

use grpc_inventory::demo_inventory::inventory_server::{Inventory, InventoryServer};
use grpc_inventory::demo_inventory::{
    Item, ItemQuery, ListQuery, Restock, RestockSummary, Shutdown,
};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

struct Store {
    items: Mutex<BTreeMap<String, Item>>,
    stop: Mutex<Option<oneshot::Sender<String>>>,
}

impl Store {
    fn item(&self, sku: &str) -> Result<Item, Status> {
        let items = self
            .items
            .lock()
            .map_err(|_| Status::internal("poisoned"))?;
        items
            .get(sku)
            .cloned()
            .ok_or_else(|| Status::not_found(format!("no item {sku}")))
    }
}

#[tonic::async_trait]
impl Inventory for Store {
    async fn get_item(&self, request: Request<ItemQuery>) -> Result<Response<Item>, Status> {
        self.item(&request.into_inner().sku).map(Response::new)
    }

    type ListItemsStream = ReceiverStream<Result<Item, Status>>;

    async fn list_items(
        &self,
        request: Request<ListQuery>,
    ) -> Result<Response<Self::ListItemsStream>, Status> {
        let min = request.into_inner().min_count;
        let items: Vec<Item> = {
            let items = self
                .items
                .lock()
                .map_err(|_| Status::internal("poisoned"))?;
            items.values().filter(|i| i.count >= min).cloned().collect()
        };
        let (tx, rx) = mpsc::channel(4);
        tokio::spawn(async move {
            for item in items {
                if tx.send(Ok(item)).await.is_err() {
                    break; // the client went away
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn restock_items(
        &self,
        request: Request<Streaming<Restock>>,
    ) -> Result<Response<RestockSummary>, Status> {
        let mut stream = request.into_inner();
        let mut summary = RestockSummary::default();
        while let Some(restock) = stream.message().await? {
            let mut items = self
                .items
                .lock()
                .map_err(|_| Status::internal("poisoned"))?;
            let item = items
                .get_mut(&restock.sku)
                .ok_or_else(|| Status::not_found(format!("no item {}", restock.sku)))?;
            item.count = item.count.saturating_add(restock.added);
            summary.messages += 1;
            summary.units += i64::from(restock.added);
            summary.items.push(item.clone());
        }
        Ok(Response::new(summary))
    }

    type WatchItemsStream = ReceiverStream<Result<Item, Status>>;

    async fn watch_items(
        &self,
        request: Request<Streaming<ItemQuery>>,
    ) -> Result<Response<Self::WatchItemsStream>, Status> {
        let mut queries = request.into_inner();
        let items = self
            .items
            .lock()
            .map_err(|_| Status::internal("poisoned"))?
            .clone();
        let (tx, rx) = mpsc::channel(4);
        // Each answer is sent as its query arrives, before the next is read.
        tokio::spawn(async move {
            loop {
                let answer = match queries.message().await {
                    Ok(Some(q)) => items
                        .get(&q.sku)
                        .cloned()
                        .ok_or_else(|| Status::not_found(format!("no item {}", q.sku))),
                    Ok(None) => break,
                    Err(status) => Err(status),
                };
                let last = answer.is_err();
                if tx.send(answer).await.is_err() || last {
                    break;
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn stop(&self, request: Request<Shutdown>) -> Result<Response<RestockSummary>, Status> {
        let reason = request.into_inner().reason;
        let items: Vec<Item> = {
            let items = self
                .items
                .lock()
                .map_err(|_| Status::internal("poisoned"))?;
            items.values().cloned().collect()
        };
        if let Some(stop) = self
            .stop
            .lock()
            .map_err(|_| Status::internal("poisoned"))?
            .take()
        {
            let _ = stop.send(reason);
        }
        Ok(Response::new(RestockSummary {
            messages: 0,
            units: items.iter().map(|i| i64::from(i.count)).sum(),
            items,
        }))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = grpc_inventory::arg("--addr").unwrap_or_else(|| "127.0.0.1:50051".into());
    let max_seconds: u64 = match grpc_inventory::arg("--max-seconds") {
        Some(s) => s.parse()?,
        None => 300,
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on {}", listener.local_addr()?);
    let (stop_tx, stop_rx) = oneshot::channel();
    let store = Store {
        items: Mutex::new(
            grpc_inventory::starting_stock()
                .into_iter()
                .map(|i| (i.sku.clone(), i))
                .collect(),
        ),
        stop: Mutex::new(Some(stop_tx)),
    };
    let (reason_tx, reason_rx) = oneshot::channel::<String>();
    let shutdown = async move {
        let reason = tokio::select! {
            r = stop_rx => r.unwrap_or_else(|_| "stop channel closed".into()),
            _ = tokio::time::sleep(Duration::from_secs(max_seconds)) => {
                format!("--max-seconds {max_seconds} elapsed")
            }
        };
        let _ = reason_tx.send(reason);
    };
    let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
    // One service, served without tonic's router (its feature `router` pulls in axum): the
    // generated server answers UNIMPLEMENTED for paths that are not its methods.
    tonic::transport::Server::builder()
        .serve_with_incoming_shutdown(InventoryServer::new(store), incoming, shutdown)
        .await?;
    let reason = reason_rx.await.unwrap_or_default();
    println!("shutting down: {reason}");
    Ok(())
}
