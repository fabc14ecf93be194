#!/usr/bin/env bash
# The cross-language RPC check of the test command: starts fury-rs/examples/rpc_server on
# 127.0.0.1 (a free port), runs the pyfory 1.7.7 client (fury-rs/examples/rpc_client.py) and
# the Rust client against it, the latter asking the server to shut down, and waits for the
# server to exit. Every step is bounded in time; the server is killed if anything fails.
#   usage: scripts/rpc-check.sh PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1
# The workspace's feature set (fury's `tokio` feature among them), as the test command builds.
cargo build --quiet --workspace --examples
bin=target/debug/examples
out=$(mktemp)
"$bin/rpc_server" --addr 127.0.0.1:0 --max-seconds 120 >"$out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$out"' EXIT
addr=
for _ in $(seq 100); do
  addr=$(sed -n 's/^listening on //p' "$out")
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "the RPC server did not start:"; cat "$out"; exit 1; }
timeout 60 "$python" fury-rs/examples/rpc_client.py "$addr"
timeout 60 "$bin/rpc_client" --addr "$addr" --shutdown
for _ in $(seq 100); do
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$server" 2>/dev/null; then
  echo "the RPC server did not shut down"; exit 1
fi
wait "$server"
grep -q "^shutting down" "$out" || { echo "unexpected server output:"; cat "$out"; exit 1; }
echo "rpc: the Python and Rust clients round-tripped; the server shut down cleanly"
