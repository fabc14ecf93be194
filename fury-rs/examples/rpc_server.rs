//! An echo/lookup service over fury frames (4-byte little-endian length, then an xlang
//! stream), on loopback. Every connection gets its own `FuryCodec`; a frame that cannot be
//! read is answered with an error (id -1) and the connection goes on.
//!
//! `cargo run -p fury --features tokio --example rpc_server -- --addr 127.0.0.1:7878`
//! prints `listening on ADDR` once bound (port 0 picks a free one). It stops on a
//! "shutdown" request, or after `--max-seconds` (default 600) whatever happens.

mod rpc_common;

use fury::frame::FuryCodec;
use futures_util::{SinkExt, StreamExt};
use rpc_common::{arg, Request, Response};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_util::codec::Framed;

fn answer(req: Request, table: &HashMap<&str, &str>) -> Response {
    let mut resp = Response {
        id: req.id,
        ok: true,
        ..Response::default()
    };
    match req.method.as_str() {
        "echo" | "shutdown" => resp.body = req.body,
        "lookup" => match table.get(req.key.as_str()) {
            Some(v) => resp.value = Some(v.to_string()),
            None => {
                resp.ok = false;
                resp.value = Some(format!("no entry {:?}", req.key));
            }
        },
        other => {
            resp.ok = false;
            resp.value = Some(format!("unknown method {other:?}"));
        }
    }
    resp
}

async fn serve(socket: TcpStream, fury: Arc<fury::Fury>, stop: watch::Sender<bool>) {
    let _ = socket.set_nodelay(true);
    let table = HashMap::from([("ada", "Lovelace"), ("alan", "Turing"), ("grace", "Hopper")]);
    let mut conn = Framed::new(socket, FuryCodec::<Request>::new(fury));
    while let Some(item) = conn.next().await {
        let (resp, shutdown) = match item {
            Ok(Ok(req)) => {
                let shutdown = req.method == "shutdown";
                (answer(req, &table), shutdown)
            }
            Ok(Err(bad)) => (
                Response {
                    id: -1,
                    ok: false,
                    value: Some(bad.to_string()),
                    body: Vec::new(),
                },
                false,
            ),
            Err(fatal) => {
                eprintln!("closing a connection: {fatal}");
                return;
            }
        };
        if let Err(e) = conn.send(resp).await {
            eprintln!("closing a connection: {e}");
            return;
        }
        if shutdown {
            let _ = stop.send(true);
            return;
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = arg("--addr", "127.0.0.1:7878");
    let max_seconds: u64 = arg("--max-seconds", "600").parse()?;
    let fury = Arc::new(rpc_common::fury()?);
    let listener = TcpListener::bind(&addr).await?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let (stop, mut stopped) = watch::channel(false);
    let deadline = tokio::time::sleep(Duration::from_secs(max_seconds));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (socket, _) = accepted?;
                tokio::spawn(serve(socket, fury.clone(), stop.clone()));
            }
            _ = stopped.changed() => {
                println!("shutting down");
                return Ok(());
            }
            _ = &mut deadline => {
                println!("--max-seconds reached, shutting down");
                return Ok(());
            }
        }
    }
}
