#!/usr/bin/env bash
# The canary for the next Fory release: installs the newest pyfory and fory-compiler from PyPI
# into a venv of its own (target/canary-venv, or $CANARY_VENV) and runs every vector group and
# live check of the test command against them, then prints what changed. The format changed in
# almost every minor release of Fory in 2026, and the stream header carries no version, so run
# this when a new pyfory is announced, before moving the pin (conformance/requirements.txt).
#
#   bash scripts/canary.sh            # the newest releases
#   CANARY_PYFORY=1.8.0 bash scripts/canary.sh   # a given version
#
# It is not part of the test command (its result depends on PyPI's state that day), and it
# never fails: it reports. Needs the debug binaries of `cargo build --workspace --bins
# --examples` (it builds them) and network access to PyPI.
set -uo pipefail
cd "$(dirname "$0")/.."

venv=${CANARY_VENV:-target/canary-venv}
want=${CANARY_PYFORY:-}
spec=pyfory${want:+==$want}
echo "== a venv with the newest $spec and fory-compiler: $venv"
python3 -m venv "$venv" || exit 0
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$spec" fory-compiler \
  || { echo "canary: pip could not install $spec fory-compiler"; exit 0; }
py="$(cd "$venv" && pwd)/bin/python"
version=$("$py" -c 'import pyfory; print(pyfory.__version__)')
compiler=$("$py" -m pip show fory-compiler 2>/dev/null | sed -n 's/^Version: //p')
pinned=$(sed -n 's/^pyfory==//p' conformance/requirements.txt)
echo "pyfory $version, fory-compiler $compiler (pinned: pyfory $pinned)"
[ "$version" = "$pinned" ] && echo "(the newest release is the pinned one: every check below should pass)"

# Everything below runs pyfory $version where the pinned one is asked for.
export FURY_CANARY=1 FURY_PYTHON="$py"
report=target/canary
mkdir -p "$report"
summary=()
note() { summary+=("$1"); echo "-- $1"; }

cargo build --quiet --workspace --bins --examples || { echo "canary: the build failed"; exit 0; }
cargo test --quiet -p fury-conformance --no-run 2>/dev/null

echo "== 1. the vectors: what pyfory $version writes that $pinned did not (generate.py --check)"
"$py" conformance/generate.py --check > "$report/generate.txt" 2>&1
stale=$(grep -c "OUT OF DATE" "$report/generate.txt")
grep "OUT OF DATE" "$report/generate.txt"
note "vector files whose bytes changed: $stale (details: $report/generate.txt)"

echo "== 2. pyfory $version as a testee of every group (fury-conformance run, pinned failure list)"
target/debug/fury-conformance run --testee "$py conformance/testee_pyfory.py" \
  --failure-list conformance/failures/pyfory.txt --json "$report/run-pyfory.json" \
  --write-failure-list "$report/pyfory-failures.txt" > "$report/run-pyfory.txt" 2>&1
tail -3 "$report/run-pyfory.txt"
note "testee run: $(tail -1 "$report/run-pyfory.txt")"

echo "== 3. pyfory $version reads the bytes fury-rs writes (check_peer.py, every group with a peer check)"
cargo test --quiet -p fury-conformance > /dev/null 2>&1  # writes fury-rs's bytes of the groups
target/debug/fury-conformance > /dev/null 2>&1           # and of the built-ins
failed=0
while IFS=$'\t' read -r group _about; do
  if ! "$py" conformance/check_peer.py --group "$group" > "$report/peer-$group.txt" 2>&1; then
    failed=$((failed + 1))
    echo "group $group: $(tail -1 "$report/peer-$group.txt")"
  fi
done < <("$py" conformance/check_peer.py --list)
note "groups whose bytes pyfory $version does not read as 1.7.7 did: $failed"

echo "== 4. the live checks: interop kinds, RPC client"
target/debug/examples/interop_kinds | sed -n 's/^  fury-rs //p' > "$report/kinds-fury-rs.txt"
"$py" conformance/examples/interop_kinds.py 2>&1 | sed -n 's/^  pyfory  //p' > "$report/kinds-pyfory.txt"
if diff -q "$report/kinds-fury-rs.txt" "$report/kinds-pyfory.txt" > /dev/null; then
  note "interop kinds: the streams of both are identical"
else
  note "interop kinds: the streams differ (diff $report/kinds-fury-rs.txt $report/kinds-pyfory.txt)"
fi
if bash scripts/rpc-check.sh "$py" > "$report/rpc.txt" 2>&1; then
  note "RPC: the pyfory client and the Rust server agree"
else
  note "RPC: failed ($report/rpc.txt)"
fi

echo
echo "== canary summary: pyfory $version, fory-compiler $compiler against the pin $pinned"
printf '  %s\n' "${summary[@]}"
exit 0
