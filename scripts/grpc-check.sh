#!/usr/bin/env bash
# The cross-language gRPC check of the test command (examples/grpc_inventory): the Python
# grpc.aio client, on foryc 1.7.7's --grpc output, calls the Rust tonic server that fury-build
# generated, and the Rust client calls the Python server built the same way; each client asks
# its server to stop at the end. Servers listen on 127.0.0.1 (a free port) and stop by
# themselves after --max-seconds at the latest; every step is bounded in time, and a server
# still running when the script ends is killed.
#   usage: scripts/grpc-check.sh PYTHON   (a Python with pyfory, fory-compiler and grpcio)
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1
# The workspace's feature set, as the test command builds it (a no-op after its build; with
# --examples, fury's dev-dependency features are on, as in that build).
cargo build --quiet --workspace --bins --examples
bin=target/debug
driver=examples/grpc_inventory/python/inventory.py
out=$(mktemp)
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -f "$out"' EXIT

# start_server COMMAND...: runs it in the background, sets $server and $addr.
start_server() {
  : >"$out"
  "$@" >"$out" 2>&1 &
  server=$!
  addr=
  for _ in $(seq 300); do
    addr=$(sed -n 's/^listening on //p' "$out")
    [ -n "$addr" ] && return 0
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not start: $*"; cat "$out"; exit 1
}

# stop_server NAME: waits (bounded) for the server to exit by itself after the client's Stop.
stop_server() {
  for _ in $(seq 150); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$server" 2>/dev/null; then
    echo "the $1 server did not stop"; cat "$out"; exit 1
  fi
  wait "$server" || { echo "the $1 server failed:"; cat "$out"; exit 1; }
  server=
  grep -q "^shutting down: $2" "$out" || { echo "unexpected $1 server output:"; cat "$out"; exit 1; }
}

echo "-- the Python grpc.aio client calls the Rust tonic server"
start_server "$bin/grpc-inventory-server" --addr 127.0.0.1:0 --max-seconds 120
timeout 60 "$python" "$driver" client "$addr" --hostile --stop
stop_server Rust "python client done"

echo "-- the Rust tonic client calls the Python grpc.aio server"
start_server timeout 150 "$python" "$driver" server --addr 127.0.0.1:0 --max-seconds 120
timeout 60 "$bin/grpc-inventory-client" --addr "$addr" --stop
stop_server Python "rust client done"
echo "grpc: the Python and Rust clients called each other's servers; both servers stopped"
