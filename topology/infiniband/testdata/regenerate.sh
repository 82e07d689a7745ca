#!/bin/sh
# Rebuilds the ibnetdiscover samples of a k=4 fat-tree from a simulated
# fabric: WriteIBSimNet writes fattree.Build(KAry(4)) as an ibsim net file,
# ibsim simulates it, OpenSM brings it up (assigns LIDs), ibnetdiscover
# reports it in the plain and the ports (-p) format.
#
# Needs Debian's ibsim-utils, opensm and infiniband-diags:
#   apt-get install -y ibsim-utils opensm infiniband-diags
# Run from anywhere; writes k4.net, k4.ibnetdiscover, k4-ports.ibnetdiscover
# beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
sim=$(ls /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so 2>/dev/null | head -n 1)
[ -n "$sim" ] || { echo "libumad2sim.so not found: install ibsim-utils" >&2; exit 1; }
tmp=$(mktemp -d)
go run ./gennet > k4.net
ibsim -s k4.net >"$tmp/ibsim.log" 2>&1 </dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 2
LD_PRELOAD=$sim timeout 60 opensm -o -f "$tmp/osm.log" >"$tmp/opensm.out" 2>&1
LD_PRELOAD=$sim timeout 60 ibnetdiscover 2>/dev/null >k4.ibnetdiscover
LD_PRELOAD=$sim timeout 60 ibnetdiscover -p 2>/dev/null >k4-ports.ibnetdiscover
echo "wrote $here/k4.net, k4.ibnetdiscover, k4-ports.ibnetdiscover"
