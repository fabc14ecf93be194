//! An echo/lookup service over fury frames (4-byte little-endian length, then an xlang
//! stream), on loopback, with the limits a service facing untrusted peers needs
//! (`rpc_common/server.rs`): a connection limit, an idle timeout, a deadline for each frame
//! and a cap on the bytes of frames buffered across connections. A frame that cannot be read
//! is answered with an error (id -1) and the connection goes on; a connection over a limit
//! gets an error frame saying which, and is closed.
//!
//! `cargo run -p fury --features tokio --example rpc_server -- --addr 127.0.0.1:7878`
//! prints `listening on ADDR` once bound (port 0 picks a free one). It stops on a
//! "shutdown" request, or after `--max-seconds` (default 600) whatever happens. The limits:
//! `--max-connections` (256), `--idle-ms` (30000), `--frame-ms` (10000), `--buffered-bytes`
//! (64 MiB), `--max-frame-len` (8 MiB).

mod rpc_common;

use rpc_common::arg;
use rpc_common::server::{run, Limits};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = arg("--addr", "127.0.0.1:7878");
    let max_seconds: u64 = arg("--max-seconds", "600").parse()?;
    let d = Limits::default();
    let limits = Limits {
        max_connections: arg("--max-connections", &d.max_connections.to_string()).parse()?,
        idle: Duration::from_millis(arg("--idle-ms", &d.idle.as_millis().to_string()).parse()?),
        frame_deadline: Duration::from_millis(
            arg("--frame-ms", &d.frame_deadline.as_millis().to_string()).parse()?,
        ),
        buffered_bytes: arg("--buffered-bytes", &d.buffered_bytes.to_string()).parse()?,
        max_frame_len: arg("--max-frame-len", &d.max_frame_len.to_string()).parse()?,
    };
    let fury = Arc::new(rpc_common::fury()?);
    let listener = TcpListener::bind(&addr).await?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let (stop, _) = watch::channel(false);
    tokio::select! {
        r = run(listener, fury, limits, stop.clone()) => {
            r?;
            println!("shutting down");
        }
        _ = tokio::time::sleep(Duration::from_secs(max_seconds)) => {
            println!("--max-seconds reached, shutting down");
        }
    }
    Ok(())
}
