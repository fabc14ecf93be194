#!/usr/bin/env bash
# Runs every test of the project, as CI does:
#   1. the Rust tests of the whole workspace (unit, integration, doc tests, conformance vectors,
#      hostile-input tests);
#   2. the conformance runner, which writes the bytes fury-rs produces for every built-in vector
#      (the tests of step 1 wrote them for the other groups);
#   3. the live cross-check: for every group of conformance/groups.json with a peer check,
#      pyfory 1.7.7 reads those bytes and compares them with the expected values;
#   4. the RPC examples: a pyfory client and a Rust client against the Rust server on loopback,
#      the schema check (foryc's Python types and fury-build's Rust types read each other),
#      the gRPC example both ways (Python grpc.aio and Rust tonic, each client to the other's
#      server), and the serde check (pyfory and a serde-only Rust model read each other);
#   5. `fury-conformance run` drives the testees (pyfory 1.7.7, fury-rs, the official crate
#      `fory` 1.7.7 on the built-in vectors, and the JavaScript example when node is installed)
#      through every vector group of conformance/groups.json over the testee protocol;
#   6. the benchmarks: they compile, and the report's smoke mode checks every peer's round trips;
#   7. a regeneration of every group's vectors with the pinned pyfory, compared with the
#      committed files (and of the Rust mirrors of the struct vectors, owned and borrowed).
# It creates what it needs: a Python virtual environment with pyfory==1.7.7 and the schema
# compiler fory-compiler==1.7.7 and grpcio (conformance/requirements.txt; in .venv, or in
# $FURY_VENV), installed by pip.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${FURY_VENV:-.venv}
# grpc among the imports: a venv made before grpcio joined the requirements is made again.
if ! "$venv/bin/python" -c 'import sys, pyfory, fory_compiler, grpc; sys.exit(pyfory.__version__ != "1.7.7")' 2>/dev/null; then
  echo "== creating $venv with pyfory 1.7.7 and grpcio"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r conformance/requirements.txt
fi

# the conformance runner's own tests (and `fury-conformance run`) check with pyfory from here
export FURY_PYTHON="$(cd "$venv" && pwd)/bin/python"

# One feature resolution for every debug build: the binaries and examples below are built with
# the same features as the tests (a `cargo run -p` would resolve its own and build the crates
# again), and the incremental caches a single clean run never reuses are not written.
export CARGO_INCREMENTAL=0
echo "== the files of fury-rs/src import each other without cycles"
python3 scripts/module-cycles.py fury-rs/src

echo "== cargo test --workspace"
cargo test --workspace
cargo build --quiet --workspace --bins --examples
echo "== the tour (the README's main command) runs to the end"
target/debug/examples/tour > /dev/null
echo "== the inventory model (enums with data, generics, registration that follows the types) in every mode"
target/debug/examples/inventory
echo "== a foreign type as an extension type, byte for byte with a pyfory custom serializer"
target/debug/examples/uuid_ext

echo "== optimised: the depth limit on a 256 KiB stack, and the exhaustive UTF-8 tests"
cargo test --quiet --release -p fury --lib --test stack -- --include-ignored

echo "== fury-rs encodes every built-in vector (cargo test wrote its bytes of the other groups)"
target/debug/fury-conformance

# One check per group of conformance/groups.json with "peer_bytes": pyfory 1.7.7 reads the bytes
# fury-rs wrote (with the group generator's own check where it has one); the vectors fury-rs
# writes no bytes for are listed by name in the group's "peer_skips", with their reason: an
# unlisted skip fails, and so does a listed vector that gets bytes.
peer_groups=$("$venv/bin/python" conformance/check_peer.py --list)
[ -n "$peer_groups" ] || { echo "conformance/groups.json: no group has a peer check"; exit 1; }
while IFS=$'\t' read -r group about; do
  echo "== pyfory 1.7.7 reads the bytes fury-rs wrote: $about (group $group)"
  "$venv/bin/python" conformance/check_peer.py --group "$group"
done <<< "$peer_groups"

echo "== the testee protocol: fury-conformance run over every vector group, per testee"
target/debug/fury-conformance run --testee "$FURY_PYTHON conformance/testee_pyfory.py" \
  --failure-list conformance/failures/pyfory.txt --json target/conformance/run-pyfory.json | tail -1
target/debug/fury-conformance run --testee target/debug/fury-testee \
  --failure-list conformance/failures/fury-rs.txt --json target/conformance/run-fury-rs.json | tail -1
target/debug/fury-conformance run --testee target/debug/fory-testee --groups builtins \
  --failure-list conformance/failures/fory.txt --json target/conformance/run-fory.json | tail -1
if command -v node >/dev/null; then
  target/debug/fury-conformance run --testee "node conformance/examples/testee.js" --groups scalars,strings \
    --failure-list conformance/examples/testee-js.failures.txt | tail -1
else
  echo "node not found: the JavaScript example testee (conformance/examples/testee.js) is not run"
fi

echo "== the interop table's union, decimal, EXT and any values: fury-rs writes pyfory 1.7.7's bytes"
# Both print one stream per value, in the same order (benches/src/interop_kinds.rs); the
# script also checks that pyfory reads the official crate's union streams.
target/debug/examples/interop_kinds | sed -n 's/^  fury-rs //p' > target/conformance/kinds-fury-rs.txt
"$venv/bin/python" conformance/examples/interop_kinds.py | sed -n 's/^  pyfory  //p' \
  > target/conformance/kinds-pyfory.txt
diff target/conformance/kinds-fury-rs.txt target/conformance/kinds-pyfory.txt
[ -s target/conformance/kinds-pyfory.txt ] || { echo "no streams compared"; exit 1; }
echo "$(wc -l < target/conformance/kinds-pyfory.txt) streams identical"

echo "== a pyfory 1.7.7 client and the Rust client call the Rust RPC server (tokio codec) on 127.0.0.1"
bash scripts/rpc-check.sh "$venv/bin/python"

echo "== fury-build: pyfory 1.7.7 with foryc 1.7.7's Python types and the Rust types fury-build generated read each other's values (conformance/schemas, both modes)"
"$venv/bin/python" conformance/schema_check.py target/debug/schema-check

echo "== gRPC over tonic: a Python grpc.aio client (foryc 1.7.7 --grpc) calls the Rust tonic server fury-build generated, and the Rust client the Python server"
bash scripts/grpc-check.sh "$venv/bin/python"

echo "== fury::serde: pyfory 1.7.7 and a serde-only Rust model (examples/serde_check.rs) read each other's values (both modes, bytes compared)"
"$venv/bin/python" conformance/serde_check.py target/debug/examples/serde_check

echo "== the crates a user installs can be published: cargo package, with its verification build"
# One command packages them together, so each verifies against the others' packaged sources.
# Cargo unpacks those sources under $CARGO_HOME/registry/src/-<hash of this target dir>/ and,
# the version being unchanged, reuses the copy a previous run left there: a clone at the same
# path would then verify against old sources. Only local-registry directories start with '-'.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/fury-*
cargo package --quiet -p fury-types -p fury-derive -p fury -p fury-cli -p fury-build --allow-dirty
echo "packaged: fury-types, fury-derive, fury, fury-cli, fury-build"

echo "== benchmarks compile, and every peer round-trips every dataset (report smoke mode)"
# `cargo bench` builds the package's binaries too (with the bench profile): the report is one.
cargo bench --quiet -p fury-benches --no-run
target/release/report --smoke
# The RPC benchmark's smoke mode: every codec echoes every payload over loopback (debug build).
target/debug/rpc --smoke

echo "== the committed vectors are what pinned pyfory writes, and the Rust mirrors are current"
"$venv/bin/python" conformance/generate.py --check
