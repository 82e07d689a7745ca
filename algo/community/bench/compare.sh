#!/bin/sh
# Times Superstep's Louvain (algo/community) against igraph's
# community_multilevel on one planted-community graph, in one run.
#
#   algo/community/bench/compare.sh [gen flags...]
#
# It generates the graph once with datasets.Planted (by default 64,000
# vertices, ~800,000 edges, mixing 0.18: see `go run
# ./algo/community/bench gen -h`), writes it as an edge list to a
# temporary directory, times Louvain on it (a Go program) and igraph's
# community_multilevel (Debian's /usr/bin/python3 with python3-igraph)
# on the same file, and prints both modularities, both times and the
# ratio. Only the community detection is timed, never the file reading;
# each side runs REPEAT times (default 5) and its fastest run counts.
# Louvain gives the same partition every time (fixed seed); igraph's runs
# differ (random vertex order), so its median modularity is the one
# compared, and its best is printed too.
#
# Exits 1 if Superstep's modularity is below igraph's or its time above.
# Needs: go, and `apt-get install python3-igraph`.
set -eu
repeat=${REPEAT:-5}
python=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

if ! "$python" -c 'import igraph' 2>/dev/null; then
	echo "compare.sh: $python cannot import igraph; install it with: apt-get install python3-igraph" >&2
	exit 2
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

(cd "$root" && go build -o "$dir/bench" ./algo/community/bench)
"$dir/bench" gen "$@" "$dir"
"$dir/bench" run -repeat "$repeat" "$dir"
"$python" "$here/igraph_multilevel.py" "$dir" "$repeat"
