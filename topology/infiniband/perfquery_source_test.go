package infiniband

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/topology/fattree"
)

// sourcePort is one port of sourceSnapshots, with its counters (in
// 4-byte words, as perfquery prints them) in the two snapshots.
type sourcePort struct {
	lid, port       int
	xmit, rcv       [2]uint64 // snapshot 0, snapshot 1
	owner, ownerIdx int       // the port's device: 0 node, 1 switch; its index
}

// sourcePorts are the four ports read in both snapshots of the k = 4
// tree (Build(KAry(4)): nodes have LIDs 1–16, switch id s LID 17+s): the
// two ends of the cable node 0 – L1 p0 s0 (its port 1) and of the cable
// L1 p0 s0 (its port 3, up) – L2 p0 s0 (its port 1). In words:
//
//	port                 xmit 0   rcv 0   xmit 1   rcv 1
//	node 0 port 1        100000   50000   150000    60000
//	L1 p0 s0 port 1       50000  100000    60000    30000   ← rcv reset
//	L1 p0 s0 port 3      200000   80000   300000    90000
//	L2 p0 s0 port 1       80000  200000    20000   250000   ← xmit reset
func sourcePorts(f *fattree.Fabric) []sourcePort {
	l1, l2 := f.L1(0, 0), f.L2(0, 0)
	return []sourcePort{
		{int(f.Nodes[0].LID), 1, [2]uint64{100000, 150000}, [2]uint64{50000, 60000}, 0, 0},
		{int(f.Switches[l1].LID), 1, [2]uint64{50000, 60000}, [2]uint64{100000, 30000}, 1, l1},
		{int(f.Switches[l1].LID), 3, [2]uint64{200000, 300000}, [2]uint64{80000, 90000}, 1, l1},
		{int(f.Switches[l2].LID), 1, [2]uint64{80000, 20000}, [2]uint64{200000, 250000}, 1, l2},
	}
}

// writeSourceSnapshots writes the two snapshots into dir as
// 20260101-000000.perfquery and 20260101-000100.perfquery (TreeScope's
// time names with an extension) and returns their paths.
func writeSourceSnapshots(t *testing.T, dir string, ports []sourcePort) [2]string {
	var paths [2]string
	for k, name := range []string{"20260101-000000.perfquery", "20260101-000100.perfquery"} {
		var b strings.Builder
		for _, p := range ports {
			b.WriteString(pqBlockText(p.lid, p.port, p.xmit[k], p.rcv[k], 1, 1, 0, 0))
		}
		paths[k] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[k], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// TestPerfquerySources reads the two snapshots with each source and
// checks the total bytes of fattree.Deltas against hand arithmetic.
//
// The four directed links, under PortDirection, with the bytes (4 × the
// words) each end gives in snapshot 0 → 1:
//
//	a node 0 → L1 p0 s0:  transmit (node 0)    400000 →  600000
//	                      receive  (L1 port 1) 400000 →  120000 (reset)
//	b L1 p0 s0 → node 0:  transmit (L1 port 1) 200000 →  240000
//	                      receive  (node 0)    200000 →  240000
//	c L1 p0 s0 → L2:      transmit (L1 port 3) 800000 → 1200000
//	                      receive  (L2 port 1) 800000 → 1000000
//	d L2 → L1 p0 s0:      transmit (L2 port 1) 320000 →   80000 (reset)
//	                      receive  (L1 port 3) 320000 →  360000
//
// Deltas (a reset counts the new value):
//
//	Transmit: a 200000 + b 40000 + c 400000 + d 80000 (reset) = 720000
//	Receive:  a 120000 (reset) + b 40000 + c 200000 + d 40000 = 400000
//	Max:      snapshot 0: a 400000, b 200000, c 800000, d 320000;
//	          snapshot 1: a 600000, b 240000, c 1200000, d 360000;
//	          a 200000 + b 40000 + c 400000 + d 40000       = 680000
//
// TreeScope: each port's receive bytes on the link from the port's owner
// to its peer, a reset counted 0 (fattree.DeltasWith, ResetToZero):
//
//	node 0 rcv      200000 → 240000 on a:  40000
//	L1 port 1 rcv   400000 → 120000 on b:      0 (reset)
//	L1 port 3 rcv   320000 → 360000 on c:  40000
//	L2 port 1 rcv   800000 → 1000000 on d: 200000
//	                                  total 280000
//
// In snapshot 1 three links' ends disagree by more than 1% and 64 KiB:
// a (600000 transmitted, 120000 received), c (1200000, 1000000) and d
// (80000, 360000); b's agree.
func TestPerfquerySources(t *testing.T) {
	f := k4Built(t)
	ports := sourcePorts(f)
	dir := t.TempDir()
	paths := writeSourceSnapshots(t, dir, ports)
	n0 := f.Nodes[0]
	l1, l2 := f.L1(0, 0), f.L2(0, 0)
	a, b := n0.Up, n0.Down
	c := f.Switches[l1].Ports[2].Out // L1 p0 s0 port 3 → L2 p0 s0
	d := f.Switches[l1].Ports[2].In
	if f.Links[c].To != l2 || f.Links[c].ToPort != 1 {
		t.Fatalf("L1 p0 s0 port 3 is not L2 p0 s0's port 1: %+v", f.Links[c])
	}
	for _, tc := range []struct {
		src   CounterSource
		total int64
		links map[int]int64 // bytes per link
	}{
		{Transmit, 720000, map[int]int64{a: 200000, b: 40000, c: 400000, d: 80000}},
		{Receive, 400000, map[int]int64{a: 120000, b: 40000, c: 200000, d: 40000}},
		{Max, 680000, map[int]int64{a: 200000, b: 40000, c: 400000, d: 40000}},
		{TreeScope, 280000, map[int]int64{a: 40000, b: 0, c: 40000, d: 200000}},
	} {
		opt := PerfqueryOptions{Source: tc.src}
		snaps, warns, err := ReadPerfqueryDirWith(dir, f, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(snaps) != 2 || !snaps[0].Time.Equal(t0) || !snaps[1].Time.Equal(t0.Add(time.Minute)) {
			t.Fatalf("%v: %d snapshots", tc.src, len(snaps))
		}
		rows, _, err := fattree.DeltasWith(snaps, opt.ResetRule())
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		got := map[int]int64{}
		for _, r := range rows {
			total += r.Bytes
			got[r.Link] = r.Bytes
		}
		if total != tc.total || len(got) != 4 {
			t.Errorf("%v: total %d bytes over links %v, want %d over %v", tc.src, total, got, tc.total, tc.links)
		}
		for id, want := range tc.links {
			if got[id] != want {
				t.Errorf("%v: link %s: %d bytes, want %d", tc.src, linkName(f, id), got[id], want)
			}
		}
		// The disagreements of snapshot 1, with both values and positions
		// (blocks of 11 lines: node 0 at line 1, L1 port 1 at 12, L1 port 3
		// at 23, L2 port 1 at 34).
		p1 := paths[1]
		lid := func(p int) string { return strconv.Itoa(ports[p].lid) }
		want := []string{
			p1 + ":1: " + linkName(f, a) + ": its two ends disagree: 600000 bytes transmitted (Lid 1 port 1, " + p1 + ":1), 120000 bytes received (Lid " + lid(1) + " port 1, " + p1 + ":12); using " + tc.src.String(),
			p1 + ":23: " + linkName(f, c) + ": its two ends disagree: 1200000 bytes transmitted (Lid " + lid(2) + " port 3, " + p1 + ":23), 1000000 bytes received (Lid " + lid(3) + " port 1, " + p1 + ":34); using " + tc.src.String(),
			p1 + ":34: " + linkName(f, d) + ": its two ends disagree: 80000 bytes transmitted (Lid " + lid(3) + " port 1, " + p1 + ":34), 360000 bytes received (Lid " + lid(2) + " port 3, " + p1 + ":23); using " + tc.src.String(),
		}
		if tc.src == TreeScope {
			// On the reversed direction the same cables' ends are compared,
			// under the other link of each cable.
			want = []string{
				p1 + ":1: " + linkName(f, b) + ": its two ends disagree: 600000 bytes transmitted (Lid 1 port 1, " + p1 + ":1), 120000 bytes received (Lid " + lid(1) + " port 1, " + p1 + ":12); using treescope",
				p1 + ":23: " + linkName(f, d) + ": its two ends disagree: 1200000 bytes transmitted (Lid " + lid(2) + " port 3, " + p1 + ":23), 1000000 bytes received (Lid " + lid(3) + " port 1, " + p1 + ":34); using treescope",
				p1 + ":34: " + linkName(f, c) + ": its two ends disagree: 80000 bytes transmitted (Lid " + lid(3) + " port 1, " + p1 + ":34), 360000 bytes received (Lid " + lid(2) + " port 3, " + p1 + ":23); using treescope",
			}
		}
		var disagree []string
		for _, w := range warns {
			if strings.Contains(w.Msg, "disagree") {
				disagree = append(disagree, w.String())
			} else if !strings.HasPrefix(w.Msg, "missing port: 92 directed links") {
				t.Errorf("%v: warning %s", tc.src, w)
			}
		}
		slices.Sort(disagree)
		slices.Sort(want)
		if !slices.Equal(disagree, want) {
			t.Errorf("%v: disagreements\n%s\nwant\n%s", tc.src, strings.Join(disagree, "\n"), strings.Join(want, "\n"))
		}
	}
}

// treeScopeFix is TreeScope v1.0's arithmetic on counters files, written
// from app/src/model/counters.js: every port's rcv_data (4 × PortRcvData)
// goes to the link from the port's owner to its peer (add_topology); in
// time order, the first value of a port counts 0 and each later one the
// difference with the previous value, a negative difference counting 0
// (fix()); the links' values are summed over the time steps
// (aggregate()). It returns bytes per link id.
func treeScopeFix(f *fattree.Fabric, ports []sourcePort, steps int) map[int]int64 {
	out := map[int]int64{}
	for _, p := range ports {
		link := f.Nodes[p.ownerIdx].Up // node_id:port_idx → owner → peer
		if p.owner == 1 {
			link = f.Switches[p.ownerIdx].Ports[p.port-1].Out
		}
		var prev int64
		for k := range steps {
			val := 4 * int64(p.rcv[k])
			delta := int64(0)
			if k > 0 {
				delta = val - prev
			}
			if delta < 0 {
				delta = 0
			}
			out[link] += delta
			prev = val
		}
	}
	return out
}

// TestPerfqueryTreeScopeArithmetic: Source TreeScope and ResetToZero give
// what TreeScope's own arithmetic (treeScopeFix) gives on the same
// counters, link by link; the default reset rule would not (the reset of
// L1 p0 s0 port 1's receive counter counts 120000 bytes).
func TestPerfqueryTreeScopeArithmetic(t *testing.T) {
	f := k4Built(t)
	ports := sourcePorts(f)
	dir := t.TempDir()
	writeSourceSnapshots(t, dir, ports)
	want := treeScopeFix(f, ports, 2)
	opt := PerfqueryOptions{Source: TreeScope, Direction: fattree.PortDirection} // the direction is TreeScope's anyway
	snaps, _, err := ReadPerfqueryDirWith(dir, f, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []fattree.ResetRule{fattree.ResetToZero, fattree.ResetFromZero} {
		rows, dw, err := fattree.DeltasWith(snaps, rule)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]int64{}
		for _, r := range rows {
			got[r.Link] += r.Bytes
		}
		same := len(got) == len(want)
		for id, v := range want {
			same = same && got[id] == v
		}
		if same != (rule == fattree.ResetToZero) {
			t.Errorf("%v: %v, TreeScope's arithmetic %v", rule, got, want)
		}
		if len(dw) != 1 || !strings.Contains(dw[0].Msg, "bytes went from 400000 to 120000: a reset") {
			t.Errorf("%v: Deltas warnings %v", rule, dw)
		}
	}
}

// TestReadPerfqueryDirNames: names with an extension are snapshots, a
// second file of the same time is left out with a warning, and a
// directory without snapshots says so.
func TestReadPerfqueryDirNames(t *testing.T) {
	f := k4Built(t)
	dir := t.TempDir()
	block := pqBlockText(int(f.Nodes[0].LID), 1, 10, 10, 1, 1, 0, 0)
	for _, n := range []string{"20170301-000000.perfquery", "20170301-000000.txt", "20170301-000100", "20170301-000200.a.b", "20170301-000300."} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(block), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snaps, warns, err := ReadPerfqueryDir(dir, f, fattree.PortDirection)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Date(2017, 3, 1, 0, 0, 0, 0, time.UTC)
	if len(snaps) != 2 || !snaps[0].Time.Equal(t1) || !snaps[1].Time.Equal(t1.Add(time.Minute)) ||
		snaps[0].Where != filepath.Join(dir, "20170301-000000.perfquery") {
		t.Fatalf("snapshots %v", snaps)
	}
	var other []string
	for _, w := range warns {
		if !strings.HasPrefix(w.Msg, "missing port") {
			other = append(other, w.String())
		}
	}
	want := []string{
		filepath.Join(dir, "20170301-000200.a.b") + ": not a snapshot file (named YYYYmmdd-HHMMSS): left out",
		filepath.Join(dir, "20170301-000300.") + ": not a snapshot file (named YYYYmmdd-HHMMSS): left out",
		filepath.Join(dir, "20170301-000000.txt") + ": a second snapshot of the time of 20170301-000000.perfquery: left out",
	}
	if !slices.Equal(other, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(other, "\n"), strings.Join(want, "\n"))
	}

	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), nil, 0o644)
	snaps, warns, err = ReadPerfqueryDir(empty, f, fattree.PortDirection)
	if err != nil || len(snaps) != 0 || len(warns) != 2 ||
		warns[1].String() != empty+": no snapshot file (named YYYYmmdd-HHMMSS, with or without an extension) among its 1 entries: no snapshots" {
		t.Errorf("empty directory: %v %d %v", err, len(snaps), warns)
	}
	if _, _, err := ReadPerfqueryDirWith(empty, f, PerfqueryOptions{Source: 9}); err == nil {
		t.Error("an unknown source is accepted")
	}
}

// TestPerfqueryTolerance: the option moves the threshold; differences
// below MinDisagreement are never reported.
func TestPerfqueryTolerance(t *testing.T) {
	f := k4Built(t)
	n0 := f.Nodes[0]
	l1 := f.Switches[n0.Switch]
	// node 0 → L1: 4,000,000 bytes transmitted, 3,800,000 received (5%).
	in := pqBlockText(int(n0.LID), 1, 1000000, 0, 0, 0, 0, 0) + pqBlockText(int(l1.LID), 1, 0, 950000, 0, 0, 0, 0)
	for _, c := range []struct {
		tol  float64
		warn bool
	}{{0, true}, {0.04, true}, {0.06, false}, {-1, true}} {
		_, warns, err := ReadPerfqueryWith(strings.NewReader(in), "tol", f, t0, PerfqueryOptions{Tolerance: c.tol})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range warns {
			got = got || strings.Contains(w.Msg, "disagree")
		}
		if got != c.warn {
			t.Errorf("tolerance %v: warned %v, want %v", c.tol, got, c.warn)
		}
	}
	// 1000 bytes apart out of 4000: 25%, but below 64 KiB.
	small := pqBlockText(int(n0.LID), 1, 1000, 0, 0, 0, 0, 0) + pqBlockText(int(l1.LID), 1, 0, 750, 0, 0, 0, 0)
	_, warns, _ := ReadPerfqueryWith(strings.NewReader(small), "tol", f, t0, PerfqueryOptions{Tolerance: -1})
	for _, w := range warns {
		if strings.Contains(w.Msg, "disagree") {
			t.Errorf("a 1000-byte difference is reported: %s", w)
		}
	}
}
