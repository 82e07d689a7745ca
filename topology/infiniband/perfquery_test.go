package infiniband

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/topology/fattree"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func readPQFile(t *testing.T, name string, f *fattree.Fabric, d fattree.Direction) (fattree.Snapshot, []Warning) {
	t.Helper()
	r, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, w, err := ReadPerfquery(r, name, f, t0, d)
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// switchNamed and nodeNamed find devices of f by name.
func switchNamed(t testing.TB, f *fattree.Fabric, name string) int {
	for i, s := range f.Switches {
		if s.Name == name {
			return i
		}
	}
	t.Fatalf("no switch %s", name)
	return -1
}

func nodeNamed(t testing.TB, f *fattree.Fabric, name string) int {
	for i, n := range f.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %s", name)
	return -1
}

func linkOf(s fattree.Snapshot, id int) (fattree.LinkCounters, bool) {
	for _, lc := range s.Links {
		if lc.Link == id {
			return lc, true
		}
	}
	return fattree.LinkCounters{}, false
}

// TestReadPerfqueryK4 reads ibsim's counters of every port of the k = 4
// tree, plain and extended: every directed link once, from its source's
// transmit counters, with the values of the file (read by hand below).
func TestReadPerfqueryK4(t *testing.T) {
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	sw := switchNamed(t, f, "L1-p3-s1")
	n14 := nodeNamed(t, f, "node-14")
	down := f.Switches[sw].Ports[f.ModelPort(sw, 1)-1].Out // L1-p3-s1 → node-14
	if f.Links[down].To != n14 {
		t.Fatal("port 1 of L1-p3-s1 is not node-14's")
	}
	for _, c := range []struct {
		name string
		bits int
		// "Lid 12 port 1" of the file: PortXmitData, PortXmitPkts and the line of its header
		data, pkts uint64
		line       int
	}{
		{"k4.perfquery", 32, 288, 4, 705},
		{"k4.perfquery-x", 64, 0, 0, 0},
	} {
		s, warns := readPQFile(t, c.name, f, fattree.PortDirection)
		if len(warns) != 0 {
			t.Fatalf("%s: warnings %v", c.name, warns)
		}
		if len(s.Links) != len(f.Links) {
			t.Fatalf("%s: %d links, want %d", c.name, len(s.Links), len(f.Links))
		}
		for i, lc := range s.Links {
			if lc.Link != i || lc.Bits != c.bits || lc.Bytes == 0 && lc.Packets != 0 {
				t.Fatalf("%s: links[%d] = %+v", c.name, i, lc)
			}
		}
		lc, _ := linkOf(s, down)
		if c.line == 0 {
			c.data, c.pkts, c.line = extCounters(t, c.name, "Lid 12 port 1 ")
		}
		if lc.Bytes != 4*c.data || lc.Packets != c.pkts || lc.Line != c.line {
			t.Errorf("%s: L1-p3-s1 → node-14 = %+v, want bytes %d packets %d from line %d", c.name, lc, 4*c.data, c.pkts, c.line)
		}
	}
}

// extCounters finds the block of a port in a file by hand and returns
// its PortXmitData, PortXmitPkts and header line.
func extCounters(t *testing.T, name, port string) (data, pkts uint64, line int) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, port) {
			line = i + 1
			for _, m := range lines[i+1 : i+6] {
				v := m[strings.LastIndexByte(m, '.')+1:]
				n, _ := strconv.ParseUint(v, 10, 64)
				if strings.HasPrefix(m, "PortXmitData:") {
					data = n
				}
				if strings.HasPrefix(m, "PortXmitPkts:") {
					pkts = n
				}
			}
			return
		}
	}
	t.Fatalf("%s: no %q", name, port)
	return
}

// pqBlockText is a plain perfquery block with the given values.
func pqBlockText(lid, port int, xmit, rcv, xpk, rpk, wait, symErr uint64) string {
	return "# Port counters: Lid " + strconv.Itoa(lid) + " port " + strconv.Itoa(port) + " (CapMask: 0x1300)\n" +
		"PortSelect:......................" + strconv.Itoa(port) + "\n" +
		"CounterSelect:...................0x0000\n" +
		"SymbolErrorCounter:.............." + strconv.FormatUint(symErr, 10) + "\n" +
		"PortXmitDiscards:................1\n" +
		"QP1Dropped:......................7\n" +
		"PortXmitData:...................." + strconv.FormatUint(xmit, 10) + "\n" +
		"PortRcvData:....................." + strconv.FormatUint(rcv, 10) + "\n" +
		"PortXmitPkts:...................." + strconv.FormatUint(xpk, 10) + "\n" +
		"PortRcvPkts:....................." + strconv.FormatUint(rpk, 10) + "\n" +
		"PortXmitWait:...................." + strconv.FormatUint(wait, 10) + "\n"
}

// TestPerfqueryDirection: the receive counter of one port appears on the
// link peer→owner only, and on owner→peer with TreeScopeDirection.
func TestPerfqueryDirection(t *testing.T) {
	f := k4Built(t)
	n0 := f.Nodes[0]
	in := pqBlockText(int(n0.LID), 1, 0, 10, 0, 2, 5, 3)
	for _, c := range []struct {
		d        fattree.Direction
		rcvLink  int // gets PortRcvData
		xmitLink int // gets PortXmitData (0) and XmitWait
	}{
		{fattree.PortDirection, n0.Down, n0.Up},
		{fattree.TreeScopeDirection, n0.Up, n0.Down},
	} {
		s, _, err := ReadPerfquery(strings.NewReader(in), "d", f, t0, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Links) != 2 {
			t.Fatalf("%v: links %+v", c.d, s.Links)
		}
		r, _ := linkOf(s, c.rcvLink)
		x, _ := linkOf(s, c.xmitLink)
		// errors: SymbolErrorCounter 3 + PortXmitDiscards 1 (QP1Dropped is not an error counter)
		if r.Bytes != 40 || r.Packets != 2 || r.XmitWait != 0 || r.Errors != 4 || x.Bytes != 0 || x.XmitWait != 5 || x.Errors != 4 || r.Bits != 32 {
			t.Errorf("%v: receive link %+v, transmit link %+v", c.d, r, x)
		}
	}
}

// TestPerfqueryPreference: a link read at both ends takes its source's
// transmit counters; extended blocks give bytes, plain ones XmitWait.
func TestPerfqueryPreference(t *testing.T) {
	f := k4Built(t)
	n0 := f.Nodes[0]
	l1 := f.Switches[n0.Switch]
	in := pqBlockText(int(n0.LID), 1, 100, 200, 1, 2, 9, 0) + pqBlockText(int(l1.LID), 1, 300, 400, 3, 4, 11, 0) +
		"# Port extended counters: Lid " + strconv.Itoa(int(l1.LID)) + " port 1 (CapMask: 0x1300 CapMask2: 0x0000000)\nPortXmitData:....................5000000000\nPortRcvData:.....................6\n"
	s, warns, err := ReadPerfquery(strings.NewReader(in), "p", f, t0, fattree.PortDirection)
	if err != nil {
		t.Fatal(err)
	}
	up, _ := linkOf(s, n0.Up)     // node → L1: node's transmit
	down, _ := linkOf(s, n0.Down) // L1 → node: L1's transmit, extended
	if up.Bytes != 400 || up.Line != 1 || down.Bytes != 20000000000 || down.Bits != 64 || down.XmitWait != 11 || down.Line != 12 {
		t.Errorf("up %+v down %+v", up, down)
	}
	// The plain block's 32-bit data of Lid 17 port 1 is left out, and the
	// L1's 5e9 words transmitted against the node's 200 words received
	// (800 bytes) are far apart: both are said, with both positions.
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		"p:12: 1 ports have both a plain and an extended block: the plain blocks' data and packet counters (32-bit) are left out for the extended ones: Lid 17 port 1 (lines 12 and 23)",
		"p:12: L1 p0 s0[1] -> node 0[1]: its two ends disagree: 20000000000 bytes transmitted (Lid 17 port 1, p:12), 800 bytes received (Lid 1 port 1, p:1); using transmit",
	}
	if len(got) != 3 || !slices.Equal(got[:2], want) || !strings.HasPrefix(warns[2].Msg, "missing port: 94 directed links have no counters") {
		t.Errorf("warnings\n%s\nwant\n%s\nand the missing ports", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPerfqueryWarnings: unknown LID, a port the fabric lacks, missing
// ports, a saturated 32-bit data counter; and through fattree.Deltas, a
// reset and a saturated packet counter with the file and line.
func TestPerfqueryWarnings(t *testing.T) {
	f := k4Built(t)
	n0 := f.Nodes[0]
	in := pqBlockText(int(n0.LID), 1, 10, 10, 1, 1, 0, 0) + // line 1
		pqBlockText(999, 1, 1, 1, 1, 1, 0, 0) + // line 12: unknown LID
		pqBlockText(int(n0.LID), 2, 1, 1, 1, 1, 0, 0) + // line 23: the node's port 2
		pqBlockText(int(f.Switches[0].LID), 9, 1, 1, 1, 1, 0, 0) + // line 34: port 9 of a 4-port switch
		pqBlockText(int(f.Nodes[1].LID), 1, 1<<32-1, 0, 1, 1, 0, 0) // line 45: saturated
	_, warns, err := ReadPerfquery(strings.NewReader(in), "w", f, t0, fattree.PortDirection)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		"w:45: Lid " + strconv.Itoa(int(f.Nodes[1].LID)) + " port 1: a 32-bit data counter is saturated at 2^32−1 words: its bytes are lower bounds",
		"w:12: 1 blocks of devices that are not in the fabric, left out: Lid 999",
		"w:23: 2 blocks of ports that the fabric does not have (free or irregular ports), left out: node 0 port 2, " + f.Switches[0].Name + " port 9",
		"w: missing port: 92 directed links have no counters in the file (neither end's port was read): " + linkName(f, 2) + ", " + linkName(f, 3) + ", " + linkName(f, 4) + ", " + linkName(f, 5) + ", " + linkName(f, 6) + ", …",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Deltas: a reset (bytes fall) and a saturated packet counter.
	var snaps []fattree.Snapshot
	for i, b := range []string{
		pqBlockText(int(n0.LID), 1, 100, 0, 5, 0, 0, 0),
		pqBlockText(int(n0.LID), 1, 50, 0, 1<<32-1, 0, 0, 0),
	} {
		s, _, err := ReadPerfquery(strings.NewReader(b), "s"+strconv.Itoa(i), f, t0.Add(time.Duration(i)*time.Minute), fattree.PortDirection)
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, s)
	}
	rows, dw, err := fattree.Deltas(snaps)
	if err != nil {
		t.Fatal(err)
	}
	var r fattree.CounterRow
	for _, row := range rows {
		if row.Link == n0.Up {
			r = row
		}
	}
	if r.Bytes != 200 || !r.Saturated || r.Packets != 1<<32-1-5 {
		t.Errorf("row %+v", r)
	}
	if len(dw) != 2 || !strings.Contains(dw[0].Msg, "bytes went from 400 to 200: a reset") || !strings.Contains(dw[0].Msg, "(s1:1)") ||
		!strings.Contains(dw[1].Msg, "saturated") || !strings.Contains(dw[1].Msg, "(s1:1)") {
		t.Errorf("Deltas warnings %v", dw)
	}
}

func TestReadPerfqueryErrors(t *testing.T) {
	f := k4Built(t)
	h := "# Port counters: Lid 1 port 1 (CapMask: 0x1300)\n"
	for _, c := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"empty", "\n", 0, 0, "found no block"},
		{"garbage", "hello world\n", 1, 1, `expected a block header "# Port counters: Lid L port P" or a counter "Name:....value", found "hello"`},
		{"counter first", "PortXmitData:....1\n", 1, 1, `expected a block header "# Port counters: Lid L port P" before the first counter, found "PortXmitData:....1"`},
		{"other header", "# Port something: Lid 1 port 1\n", 1, 1, `expected "# Port counters:" or "# Port extended counters:", found "#"`},
		{"no lid", "# Port counters: lid 1 port 1\n", 1, 18, `expected "Lid", found "lid"`},
		{"lid", "# Port counters: Lid x port 1\n", 1, 22, `expected a LID (1 to 49151), found "x"`},
		{"lid zero", "# Port counters: Lid 0 port 1\n", 1, 22, `expected a LID (1 to 49151), found "0"`},
		{"port word", "# Port counters: Lid 1 prt 1\n", 1, 24, `expected " port" and the port number, found "prt"`},
		{"port", "# Port counters: Lid 1 port 256\n", 1, 29, `expected a port number (0 to 255), found "256"`},
		{"port end", "# Port counters: Lid 1 port 2x\n", 1, 30, `expected the end of the port number, found "x"`},
		{"value", h + "PortXmitData:....12a\n", 2, 18, `expected a decimal 32-bit counter value, found "12a"`},
		{"value 32", h + "PortXmitData:....4294967296\n", 2, 18, `expected a decimal 32-bit counter value, found "4294967296"`},
		{"value empty", h + "PortRcvErrors:....\n", 2, 19, `expected a decimal 32-bit counter value, found the end of the line`},
		{"value 64", "# Port extended counters: Lid 1 port 1\nPortXmitData:....18446744073709551616\n", 2, 18, `expected a decimal 64-bit counter value`},
		{"counter twice", h + "PortXmitData:....1\nPortXmitData:....1\n", 3, 1, `expected each counter once in a block, found PortXmitData again`},
		{"port twice", h + h, 2, 1, `expected each port once per kind of block, found Lid 1 port 1 again (first at line 1)`},
		{"long", h + strings.Repeat("x", maxLine+1), 2, 0, `expected a line of at most 1 MiB`},
	} {
		_, _, err := ReadPerfquery(strings.NewReader(c.in), "e.pq", f, t0, fattree.PortDirection)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "e.pq" || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Error(), c.msg) {
			t.Errorf("%s: got %s (line %d col %d), want e.pq:%d:%d: …%s…", c.name, pe, pe.Line, pe.Col, c.line, c.col, c.msg)
		}
	}
	if _, _, err := ReadPerfquery(strings.NewReader(h), "e", f, t0, fattree.Direction(7)); err == nil {
		t.Error("an unknown direction is accepted")
	}
}

// TestReadPerfqueryDir reads the two -x snapshots of the k = 4 tree that
// regenerate.sh takes one after the other, and turns them into deltas:
// one row per directed link, the traffic of the queries themselves.
func TestReadPerfqueryDir(t *testing.T) {
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	dir := t.TempDir()
	for _, n := range []string{"20260101-000100", "20260101-000000"} {
		b, err := os.ReadFile(filepath.Join("testdata", "k4-perfquery", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "20261301-000000"), nil, 0o644) // month 13
	snaps, warns, err := ReadPerfqueryDir(dir, f, fattree.PortDirection)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 || !strings.HasSuffix(warns[0].String(), "20261301-000000: not a snapshot file (named YYYYmmdd-HHMMSS): left out") ||
		!strings.HasSuffix(warns[1].String(), "notes.txt: not a snapshot file (named YYYYmmdd-HHMMSS): left out") {
		t.Errorf("warnings %v", warns)
	}
	if len(snaps) != 2 || !snaps[0].Time.Equal(t0) || !snaps[1].Time.Equal(t0.Add(time.Minute)) {
		t.Fatalf("%d snapshots", len(snaps))
	}
	rows, dw, err := fattree.Deltas(snaps)
	if err != nil || len(dw) != 0 {
		t.Fatal(err, dw)
	}
	if len(rows) != len(f.Links) {
		t.Fatalf("%d rows", len(rows))
	}
	var total int64
	for _, r := range rows {
		if r.Bytes < 0 || !r.Time.Equal(t0.Add(time.Minute)) {
			t.Fatalf("row %+v", r)
		}
		total += r.Bytes
	}
	if total == 0 {
		t.Error("the second round of queries carried nothing")
	}
	if _, _, err := ReadPerfqueryDir(filepath.Join(dir, "none"), f, fattree.PortDirection); err == nil {
		t.Error("a missing directory is no error")
	}
}
