#!/usr/bin/env bash
# Instructions per operation of fury-rs in the report's own loops (the `probe` example), by
# callgrind: the difference between a run of 2N and one of N iterations, divided by N, so
# set-up costs cancel. Repeatable for one binary, unlike timings on a shared machine.
#   benches/scripts/instructions.sh [DATASET ...]     (COMPAT=1 for the compatible mode)
# OPS picks the operations (default "ser de"; "bde" is the borrowed decode of the
# borrowed-decoding section's datasets: User CustomerList MediaContent SampleList LogList), e.g.
#   OPS="de bde" benches/scripts/instructions.sh User CustomerList
# and ROW=SLUG (postcard, bitcode, rkyv, fory, fury_rs, ...) counts that row's decode as bde;
# "vde" decodes fury-rs's bytes into a dynamic fury::Value, "vrde" into a fury::ValueRef (use
# COMPAT=1: structs need TypeDefs).
# SERDE=1 counts the serde row of the mode (fury-rs serde; with COMPAT=1 fury-rs serde compat)
# instead of fury-rs; SERDE=vs counts both and prints derive, serde and serde/derive, e.g.
#   SERDE=vs COMPAT=1 benches/scripts/instructions.sh MediaContent
set -euo pipefail
cd "$(dirname "$0")/../.."
# BIN=path counts an existing binary (e.g. a copy of the one before a change) without building.
if [ -z "${BIN:-}" ]; then
  cargo build --quiet --release -p fury-benches --example probe
fi
bin=${BIN:-target/release/examples/probe}
n=${N:-2000}
sets=("$@")
# By default, the `instructions` rows of the dataset table (benches/src/datasets.rs).
if [ ${#sets[@]} -eq 0 ]; then
  mapfile -t sets < <("$bin" --instruction-datasets)
  [ ${#sets[@]} -gt 0 ] || { echo "$bin --instruction-datasets listed none" >&2; exit 1; }
fi
serde=${SERDE:-}
unset SERDE
count() { # dataset op iterations [serde]
  local out
  out=$(mktemp)
  env ${4:+SERDE=1} ONLY="$2" N="$3" valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$1" >/dev/null 2>&1
  grep -m1 '^summary:' "$out" | awk '{print $2}'
  rm -f "$out"
}
per_op() { # dataset op [serde]: probe runs each loop 5 times
  local a b
  a=$(count "$1" "$2" "$n" "${3:-}")
  b=$(count "$1" "$2" $((2 * n)) "${3:-}")
  echo $(( (b - a) / (5 * n) ))
}
if [ "$serde" = vs ]; then
  printf '%-20s %-4s %12s %12s %7s\n' dataset op derive serde ratio
else
  printf '%-20s %-4s %12s\n' dataset op instr/op
fi
for d in "${sets[@]}"; do
  for op in ${OPS:-ser de}; do
    if [ "$serde" = vs ]; then
      x=$(per_op "$d" "$op")
      y=$(per_op "$d" "$op" 1)
      printf '%-20s %-4s %12d %12d %7s\n' "$d" "$op" "$x" "$y" \
        "$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.2f", y / x }')"
    else
      printf '%-20s %-4s %12d\n' "$d" "$op" "$(per_op "$d" "$op" "$serde")"
    fi
  done
done
