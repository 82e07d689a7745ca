package infiniband

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"superstep/topology/fattree"
)

// inferFile reads a committed ibnetdiscover output and infers its fabric.
func inferFile(t testing.TB, name string) (*fattree.Fabric, fattree.Discovered, []fattree.Warning) {
	t.Helper()
	g, warns := readFile(t, name)
	if len(warns) != 0 {
		t.Fatalf("%s: warnings %v", name, warns)
	}
	f, iw, err := fattree.Infer(g)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f, g, iw
}

func readLFTFile(t testing.TB, name string, f *fattree.Fabric) (*fattree.Table, []Warning) {
	t.Helper()
	r, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tab, warns, err := ReadLFT(r, name, f)
	if err != nil {
		t.Fatal(err)
	}
	return tab, warns
}

// TestReadLFTK8 reads OpenSM's tables of the simulated k = 8 fat-tree
// (ftree and the default minhop engine, dump_fts with and without
// destinations): no warnings, every node routed on every switch, every
// route minimal.
func TestReadLFTK8(t *testing.T) {
	f, _, _ := inferFile(t, "k8.ibnetdiscover")
	for _, name := range []string{"k8-ftree.dump_fts", "k8-minhop.dump_fts"} {
		tab, warns := readLFTFile(t, name, f)
		if len(warns) != 0 {
			t.Fatalf("%s: warnings %v", name, warns)
		}
		for sw := range f.Switches {
			for d := range f.Nodes {
				if tab.Port(sw, d) == 0 {
					t.Fatalf("%s: switch %s has no route to node %d", name, f.Switches[sw].Name, d)
				}
			}
		}
		for s := range f.Nodes {
			for d := range f.Nodes {
				p, err := fattree.Route(f, tab, s, d)
				if err != nil {
					t.Fatalf("%s: route %d→%d: %v", name, s, d, err)
				}
				if len(p.Switches) != f.Distance(s, d) {
					t.Fatalf("%s: route %d→%d visits %d switches, minimal is %d", name, s, d, len(p.Switches), f.Distance(s, d))
				}
			}
		}
	}
}

// kindMultisets is the sorted loads of every link kind.
func kindMultisets(l fattree.Loads) [fattree.NumKinds][]int64 {
	var m [fattree.NumKinds][]int64
	for k := fattree.Kind(0); k < fattree.NumKinds; k++ {
		m[k] = slices.Sorted(slices.Values(l.Kind(k)))
	}
	return m
}

// TestFtreeEqualsDModK compares, on the committed k = 8 fabric, the loads
// of OpenSM's ftree tables with those of DModK: the multiset of loads of
// every link kind, for the all-to-all of all nodes and for a stride job
// (one node per L1).
func TestFtreeEqualsDModK(t *testing.T) {
	f, _, _ := inferFile(t, "k8.ibnetdiscover")
	ftree, _ := readLFTFile(t, "k8-ftree.dump_fts", f)
	stride, err := fattree.Place(f, fattree.Stride, []int{32}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		nodes []int
	}{{"all-to-all", nil}, {"stride", stride[0]}} {
		a, err := fattree.AllToAllLoads(ctx, f, ftree, c.nodes)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fattree.AllToAllLoads(ctx, f, fattree.DModK(f), c.nodes)
		if err != nil {
			t.Fatal(err)
		}
		ma, mb := kindMultisets(a), kindMultisets(b)
		for k := fattree.Kind(0); k < fattree.NumKinds; k++ {
			if !slices.Equal(ma[k], mb[k]) {
				t.Errorf("%s, %v: ftree loads %v, D-mod-k %v", c.name, k, ma[k], mb[k])
			}
		}
		if !slices.Equal(a.Hops, b.Hops) {
			t.Errorf("%s: hops ftree %v, D-mod-k %v", c.name, a.Hops, b.Hops)
		}
	}
}

// dumpTables reads a dump_fts file naively, for the test: switch GUID →
// LID → output port.
func dumpTables(t *testing.T, name string) map[uint64]map[int]int {
	t.Helper()
	r, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[uint64]map[int]int{}
	var cur map[int]int
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) > 0 && fs[0] == "Unicast" {
			i := slices.Index(fs, "guid")
			g, err := strconv.ParseUint(strings.TrimPrefix(fs[i+1], "0x"), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			cur = map[int]int{}
			out[g] = cur
		} else if len(fs) >= 2 && strings.HasPrefix(fs[0], "0x") {
			lid, _ := strconv.ParseInt(fs[0][2:], 16, 32)
			port, _ := strconv.Atoi(fs[1])
			cur[int(lid)] = port
		}
	}
	return out
}

// TestLFTByHand follows the lines of the ftree dump for a few pairs of
// nodes, from the source's switch through the cables that ibnetdiscover
// lists, and checks that Route on the imported table visits the same
// switches.
func TestLFTByHand(t *testing.T) {
	f, g, _ := inferFile(t, "k8.ibnetdiscover")
	tab, _ := readLFTFile(t, "k8-ftree.dump_fts", f)
	dump := dumpTables(t, "k8-ftree.dump_fts")
	// the cable at each (device, port)
	peer := map[fattree.Endpoint]fattree.Endpoint{}
	for _, c := range g.Cables {
		peer[c.A], peer[c.B] = c.B, c.A
	}
	devOf := map[uint64]int{}
	for i, d := range g.Devices {
		devOf[d.GUID] = i
	}
	swOf := map[uint64]int{}
	for i, s := range f.Switches {
		swOf[s.GUID] = i
	}
	for _, pair := range [][2]int{{0, 127}, {0, 1}, {0, 3}, {5, 64}, {77, 12}, {100, 101}, {127, 0}, {33, 98}} {
		s, d := pair[0], pair[1]
		dst := f.Nodes[d]
		// by hand: the source's HCA, its cable, then the dump's ports
		at := peer[fattree.Endpoint{Device: devOf[f.Nodes[s].GUID], Port: 1}]
		var hand []string
		for hops := 0; g.Devices[at.Device].Kind == fattree.SwitchDevice; hops++ {
			if hops > 10 {
				t.Fatalf("%d→%d loops", s, d)
			}
			guid := g.Devices[at.Device].GUID
			hand = append(hand, f.Switches[swOf[guid]].Name)
			port := dump[guid][int(dst.LID)]
			at = peer[fattree.Endpoint{Device: at.Device, Port: port}]
		}
		if g.Devices[at.Device].GUID != dst.GUID {
			t.Fatalf("%d→%d: the dump delivers to %s", s, d, g.Devices[at.Device].Name)
		}
		p, err := fattree.Route(f, tab, s, d)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sw := range p.Switches {
			got = append(got, f.Switches[sw].Name)
		}
		if !slices.Equal(got, hand) {
			t.Errorf("%d→%d: Route %v, by hand %v", s, d, got, hand)
		}
	}
}

// TestReadIBRoute reads ibroute's table of one switch, with and without
// destinations: the same routes as dump_fts's for that switch, and a
// warning for the 79 switches the file lacks.
func TestReadIBRoute(t *testing.T) {
	f, _, _ := inferFile(t, "k8.ibnetdiscover")
	ftree, _ := readLFTFile(t, "k8-ftree.dump_fts", f)
	sw := -1
	for i, s := range f.Switches {
		if s.Name == "L1-p0-s0" {
			sw = i
		}
	}
	for _, name := range []string{"k8-L1-p0-s0.ibroute", "k8-L1-p0-s0-n.ibroute"} {
		tab, warns := readLFTFile(t, name, f)
		if len(warns) != 1 || !strings.HasPrefix(warns[0].String(), name+": 79 switches of the fabric have no table in the file: ") {
			t.Fatalf("%s: warnings %v", name, warns)
		}
		for d := range f.Nodes {
			if tab.Port(sw, d) != ftree.Port(sw, d) || tab.Port(sw, d) == 0 {
				t.Fatalf("%s: node %d via %d, dump_fts says %d", name, d, tab.Port(sw, d), ftree.Port(sw, d))
			}
		}
	}
}

// TestLFTRoundTrip writes D-mod-k with WriteLFT and reads it back, on a
// built fabric and on the inferred k = 8 one.
func TestLFTRoundTrip(t *testing.T) {
	built, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	k8, _, _ := inferFile(t, "k8.ibnetdiscover")
	two6, _, _ := inferFile(t, "two6.ibnetdiscover")
	for _, f := range []*fattree.Fabric{built, k8, two6} {
		want, err := fattree.TableOf(context.Background(), f, fattree.DModK(f))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteLFT(&b, f, want); err != nil {
			t.Fatal(err)
		}
		got, warns, err := ReadLFT(strings.NewReader(b.String()), "rt", f)
		if err != nil || len(warns) != 0 {
			t.Fatalf("%v: %v %v", f.Spec, err, warns)
		}
		for sw := range f.Switches {
			for d := range f.Nodes {
				if got.Port(sw, d) != want.Port(sw, d) {
					t.Fatalf("%v: switch %d node %d: %d, want %d", f.Spec, sw, d, got.Port(sw, d), want.Port(sw, d))
				}
			}
		}
	}
}

// A small fabric for the error and warning tables: Build(KAry(4)), whose
// LIDs are Build's.
func k4Built(t testing.TB) *fattree.Fabric {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestReadLFTErrors(t *testing.T) {
	f := k4Built(t)
	hdr := func(sw int) string {
		s := f.Switches[sw]
		return "Unicast lids [0x0-0x24] of switch Lid " + strconv.Itoa(int(s.LID)) + " guid 0x" + strconv.FormatUint(s.GUID, 16) + " (" + s.Name + "):\n"
	}
	h0 := hdr(0)
	for _, c := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"empty", "\n\n", 0, 0, "found no switch"},
		{"garbage", "hello\n", 1, 1, `expected a "Unicast lids" header, an entry "0x<lid> <port>" or a "valid lids dumped" line, found "hello"`},
		{"entry first", "0x0001 001\n", 1, 1, `expected a "Unicast lids" header before the first entry, found "0x0001"`},
		{"title first", "  Lid  Out   Destination\n", 1, 1, `expected a "Unicast lids" header first`},
		{"no guid", "Unicast lids [0x0-0x24] of switch Lid 3 (x):\n", 1, 45, `expected " guid 0x<guid>" naming the switch, found the end of the line`},
		{"no of", "Unicast lids [0x0-0x24]\n", 1, 14, `expected "[<first>-<last>] of switch", found "[0x0-0x24]"`},
		{"bad guid", "Unicast lids [0x0-0x24] of switch Lid 3 guid 0xzz (x):\n", 1, 46, `expected a hexadecimal GUID, found "0xzz"`},
		{"bad switch lid", "Unicast lids [0x0-0x24] of switch Lid 99999 guid 0x1 (x):\n", 1, 39, `expected a switch LID (1 to 49151), found "99999"`},
		{"lid zero", h0 + "0x0000 001\n", 2, 1, `expected a unicast LID 0x0001 to 0xbfff, found "0x0000"`},
		{"lid multicast", h0 + "0xc000 001\n", 2, 1, `expected a unicast LID 0x0001 to 0xbfff, found "0xc000"`},
		{"lid syntax", h0 + "0x00g1 001\n", 2, 1, `expected a unicast LID 0x0001 to 0xbfff, found "0x00g1"`},
		{"port", h0 + "0x0001 256\n", 2, 8, `expected an output port (0 to 255), found "256"`},
		{"port missing", h0 + "0x0001\n", 2, 7, `expected an output port (0 to 255), found the end of the line`},
		{"port syntax", h0 + "0x0001 01x\n", 2, 8, `expected an output port (0 to 255), found "01x"`},
		{"trailing", h0 + "0x0001 001 junk\n", 2, 12, `expected ":" or "#" and the destination, or the end of the line, found "junk"`},
		{"lid twice", h0 + "0x0001 001\n0x0001 002\n", 3, 1, `expected each LID once in a switch's table, found 0x0001 again`},
		{"switch twice", h0 + h0, 2, 47, `expected each switch once, found L1 p0 s0 (0x2c90100000001) again (first at line 1)`},
		{"multicast", "Multicast mlids [0xc000-0xc3ff] of switch Lid 3 guid 0x1 (x):\n", 1, 1, `expected a unicast table (dump_fts or ibroute without -M), found a multicast table`},
		{"long line", h0 + strings.Repeat("x", maxLine+10) + "\n", 2, 0, "expected a line of at most 1 MiB, found a longer one"},
	} {
		_, _, err := ReadLFT(strings.NewReader(c.in), "t.lft", f)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "t.lft" || pe.Line != c.line || c.col != 0 && pe.Col != c.col || !strings.Contains(pe.Error(), c.msg) {
			t.Errorf("%s: got %s (line %d col %d), want t.lft:%d:%d: …%s…", c.name, pe, pe.Line, pe.Col, c.line, c.col, c.msg)
		}
	}
}

// TestReadLFTLineEndings: CRLF line endings and a UTF-8 byte order mark
// read like plain LF; a read error is a *ParseError at the line after the
// last one read; a long line's error unwraps to bufio.ErrTooLong.
func TestReadLFTLineEndings(t *testing.T) {
	f := k4Built(t)
	var b strings.Builder
	if err := WriteLFT(&b, f, fattree.DModK(f)); err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadLFT(strings.NewReader(b.String()), "lf", f)
	if err != nil {
		t.Fatal(err)
	}
	crlf := strings.ReplaceAll(b.String(), "\n", "\r\n")
	for _, in := range []string{crlf, "\uFEFF" + b.String(), "\uFEFF" + crlf} {
		got, warns, err := ReadLFT(strings.NewReader(in), "t.lft", f)
		if err != nil || len(warns) != 0 {
			t.Fatalf("%q…: %v %v", in[:20], err, warns)
		}
		for sw := range f.Switches {
			for d := range f.Nodes {
				if got.Port(sw, d) != want.Port(sw, d) {
					t.Fatalf("%q…: switch %d node %d: %d, want %d", in[:20], sw, d, got.Port(sw, d), want.Port(sw, d))
				}
			}
		}
	}

	boom := errors.New("boom")
	head := strings.Join(strings.SplitAfter(b.String(), "\n")[:5], "")
	_, _, err = ReadLFT(io.MultiReader(strings.NewReader(head), iotest.ErrReader(boom)), "t.lft", f)
	if !errors.Is(err, boom) || err.Error() != "t.lft:6: reading: boom" {
		t.Errorf("read error: %v", err)
	}
	_, _, err = ReadLFT(strings.NewReader(head+strings.Repeat("x", maxLine)+"\n"), "t.lft", f)
	if !errors.Is(err, bufio.ErrTooLong) || err.Error() != "t.lft:6: expected a line of at most 1 MiB, found a longer one" {
		t.Errorf("long line: %v", err)
	}
}

// TestReadLFTWarnings: every warning with its line, on a table of
// D-mod-k written by WriteLFT and then edited.
func TestReadLFTWarnings(t *testing.T) {
	f := k4Built(t)
	var b strings.Builder
	if err := WriteLFT(&b, f, fattree.DModK(f)); err != nil {
		t.Fatal(err)
	}
	blocks := strings.SplitAfter(b.String(), " valid lids dumped \n")
	blocks = blocks[:len(blocks)-1]
	if len(blocks) != 20 {
		t.Fatalf("%d blocks", len(blocks))
	}
	// block 0 (L1-p0-s0): drop the entry of node 5, route node 6 through
	// port 9 (none), add an unknown LID; drop switch 19's block; add a
	// switch the fabric lacks.
	n5 := "0x" + strconv.FormatInt(int64(f.Nodes[5].LID)+0x10000, 16)[1:] + " "
	n6 := "0x" + strconv.FormatInt(int64(f.Nodes[6].LID)+0x10000, 16)[1:] + " "
	var b0 []string
	for _, l := range strings.SplitAfter(blocks[0], "\n") {
		switch {
		case strings.HasPrefix(l, n5):
		case strings.HasPrefix(l, n6):
			b0 = append(b0, n6+"009\n")
		default:
			b0 = append(b0, l)
		}
	}
	b0 = append(b0[:3], append([]string{"0x0bad 001\n"}, b0[3:]...)...)
	in := strings.Join(b0, "") + strings.Join(blocks[1:19], "") +
		"Unicast lids [0x0-0x24] of switch DR path slid 0; dlid 0; 0,1 guid 0x00000000deadbeef (ghost):\n0x0001 001\n"
	tab, warns, err := ReadLFT(strings.NewReader(in), "w.lft", f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	ghost := strings.Count(in[:strings.Index(in, "ghost")], "\n") + 1
	want := []string{
		"w.lft:1: switch " + f.Switches[0].Name + ": 1 routes through a port the fabric does not have there (port 0 or not cabled), left out: " + f.Nodes[6].Name + " via 9",
		"w.lft:1: switch " + f.Switches[0].Name + " has no route to 2 nodes: " + f.Nodes[5].Name + ", " + f.Nodes[6].Name,
		"w.lft:" + strconv.Itoa(ghost) + `: switch "ghost" (GUID 0x00000000deadbeef) is no switch of the fabric: its table is left out`,
		"w.lft:4: 1 entries name LIDs that are no device of the fabric, left out: 0x0bad",
		"w.lft: 1 switches of the fabric have no table in the file: " + f.Switches[19].Name,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tab.Port(0, 5) != 0 || tab.Port(0, 6) != 0 || tab.Port(0, 7) == 0 || tab.Port(19, 0) != 0 {
		t.Error("the table has routes it should not have, or lacks one")
	}
}

// TestReadLFTByLID: a switch whose GUID the fabric does not know is
// matched by its LID in ibroute's header.
func TestReadLFTByLID(t *testing.T) {
	f := k4Built(t)
	s := f.Switches[3]
	in := "Unicast lids [0x0-0x24] of switch Lid " + strconv.Itoa(int(s.LID)) + " guid 0x0000000000000bad (x):\n" +
		"0x" + strconv.FormatInt(int64(f.Nodes[0].LID)+0x10000, 16)[1:] + " 003 : (Channel Adapter portguid 0x1: 'n')\n"
	tab, _, err := ReadLFT(strings.NewReader(in), "l", f)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Port(3, 0) != 3 {
		t.Errorf("switch 3 → node 0: port %d, want 3", tab.Port(3, 0))
	}
}

// TestReadLFTSwitchLIDs: switches' LIDs are kept as the Table's switch
// routes: the switch's own LID on port 0 is no route, another switch's
// LID on port 3 is, and one on port 9 (a 4-port switch) is left out with
// the warning of bad ports.
func TestReadLFTSwitchLIDs(t *testing.T) {
	f := k4Built(t)
	s := f.Switches[3]
	hex := func(lid uint16) string { return "0x" + strconv.FormatInt(int64(lid)+0x10000, 16)[1:] }
	in := "Unicast lids [0x0-0x24] of switch Lid " + strconv.Itoa(int(s.LID)) + " guid 0x0000000000000bad (x):\n" +
		hex(s.LID) + " 000 : (Switch portguid 0x1: 'self')\n" +
		hex(f.Switches[4].LID) + " 003 : (Switch portguid 0x2: 'four')\n" +
		hex(f.Switches[5].LID) + " 009 : (Switch portguid 0x3: 'five')\n"
	tab, warns, err := ReadLFT(strings.NewReader(in), "l", f)
	if err != nil {
		t.Fatal(err)
	}
	if tab.SwitchRoute(3, 3) != 0 || tab.SwitchRoute(3, 4) != 3 || tab.SwitchRoute(3, 5) != 0 {
		t.Errorf("switch routes %d %d %d, want 0 3 0", tab.SwitchRoute(3, 3), tab.SwitchRoute(3, 4), tab.SwitchRoute(3, 5))
	}
	want := "l:1: switch " + s.Name + ": 1 routes through a port the fabric does not have there (port 0 or not cabled), left out: switch " + f.Switches[5].Name + " (" + hex(f.Switches[5].LID) + ") via 9"
	if len(warns) == 0 || warns[0].String() != want {
		t.Errorf("warnings %v, want first %s", warns, want)
	}
}
