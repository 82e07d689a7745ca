#!/usr/bin/env bash
# Times algo/layout's SFDP against Graphviz's sfdp on the 64,000-vertex
# planted-community graph (datasets.Planted, about 800,000 edges) in one
# run, and prints both times, the speed-up and both layouts' quality; then
# lays out a generated 1,000,000-vertex, 10,000,000-edge graph and reports
# its time and peak memory (the limit is 4 GiB).
#
#   algo/layout/bench/compare.sh              # both
#   algo/layout/bench/compare.sh -runs 3      # the comparison 3 times (seeds 1..3), with means
#   SKIP_BIG=1 algo/layout/bench/compare.sh   # the comparison only
#   SKIP_COMPARE=1 algo/layout/bench/compare.sh
#
# Extra arguments go to the comparison (see go run ./algo/layout/bench -h).
# Needs Go and Graphviz (Debian: apt-get install graphviz).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

bin=$(mktemp -d)/sfdp-bench
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./algo/layout/bench

if [ -z "${SKIP_COMPARE:-}" ]; then
  if ! command -v sfdp >/dev/null; then
    echo "Graphviz's sfdp is not installed (Debian: apt-get install graphviz)" >&2
    exit 1
  fi
  echo "== SFDP against Graphviz sfdp ($(sfdp -V 2>&1)), $(nproc) cores"
  "$bin" "$@"
fi

if [ -z "${SKIP_BIG:-}" ]; then
  echo
  echo "== 1,000,000 vertices, 10,000,000 edges"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f 'whole process: %e s wall clock, max resident set %M KiB' "$bin" -big
  else
    "$bin" -big
  fi
fi
