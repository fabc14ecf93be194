//! A client of `rpc_server`: a few echo and lookup calls, each awaited, then (with
//! `--shutdown`) a shutdown request.
//!
//! `cargo run -p fury --features tokio --example rpc_client -- --addr 127.0.0.1:7878`

mod rpc_common;

use fury::frame::FuryCodec;
use futures_util::{SinkExt, StreamExt};
use rpc_common::{arg, flag, Request, Response};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

type Conn = Framed<TcpStream, FuryCodec<Response>>;

async fn call(conn: &mut Conn, req: Request) -> Result<Response, Box<dyn std::error::Error>> {
    let id = req.id;
    conn.send(req).await?;
    let resp = conn
        .next()
        .await
        .ok_or("the server closed the connection")???;
    if resp.id != id {
        return Err(format!("answer {} to request {id}", resp.id).into());
    }
    Ok(resp)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = arg("--addr", "127.0.0.1:7878");
    let fury = Arc::new(rpc_common::fury()?);
    let socket = tokio::time::timeout(Duration::from_secs(10), TcpStream::connect(&addr)).await??;
    socket.set_nodelay(true)?;
    let mut conn = Framed::new(socket, FuryCodec::<Response>::new(fury));
    let body = vec!["hello".to_string(), "wörld".to_string()];
    let echo = Request {
        id: 1,
        method: "echo".into(),
        body: body.clone(),
        ..Request::default()
    };
    let resp = call(&mut conn, echo).await?;
    assert_eq!(resp.body, body);
    println!("echo -> {:?}", resp.body);
    for (id, key) in [(2, "ada"), (3, "nobody")] {
        let lookup = Request {
            id,
            method: "lookup".into(),
            key: key.into(),
            ..Request::default()
        };
        let resp = call(&mut conn, lookup).await?;
        println!("lookup {key} -> ok={} {:?}", resp.ok, resp.value);
    }
    if flag("--shutdown") {
        let stop = Request {
            id: 4,
            method: "shutdown".into(),
            ..Request::default()
        };
        call(&mut conn, stop).await?;
        println!("server asked to shut down");
    }
    Ok(())
}
