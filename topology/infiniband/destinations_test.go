package infiniband

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"superstep/topology/fattree"
)

// readGz reads a gzip-compressed committed file with read.
func readGz[T any](t *testing.T, name string, read func(r io.Reader) (T, error)) T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	v, err := read(zr)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDestinationsPaper1296 checks fattree.Destinations, TreeScope's
// d(ℓ), on the TreeScope paper's 1,296-node fabric (fattree.Paper1296)
// as ibsim and OpenSM's ftree engine made it (regenerate.sh:
// paper1296.ibnetdiscover.gz, paper1296-ftree.dump_fts.gz), against
// counts taken from the dump_fts file by hand, switch LIDs included.
//
// The counts were taken with awk on the uncompressed dump_fts: the LIDs
// whose "Out Port" column is the port, in the switch's block,
//
//	zcat paper1296-ftree.dump_fts.gz | awk -v s="(L1-p3-s17):" -v p=019 \
//	  '/^Unicast lids/ { on = index($0, s) > 0 }
//	   on && $1 ~ /^0x/ && $2 == p { n++ } END { print n }'
//
// and, of those, the switches' LIDs (the "lid" of ibnetdiscover's Switch
// lines, matched with grep -x -F -f):
//
//	L1-p3-s17 port 19 (up, to an L2):   116 LIDs, 45 of switches, 71 of nodes
//	L2-p0-s0  port 19 (up, to an L3):   144 LIDs, 90 of switches, 54 of nodes
//	L3-b0-s0  port 1  (down, to an L2): 199 LIDs, 19 of switches, 180 of nodes
func TestDestinationsPaper1296(t *testing.T) {
	g := readGz(t, "paper1296.ibnetdiscover.gz", func(r io.Reader) (fattree.Discovered, error) {
		g, _, err := ReadIBNetDiscover(r, "paper1296.ibnetdiscover")
		return g, err
	})
	f, iw, err := fattree.Infer(g)
	if err != nil || len(iw) != 0 {
		t.Fatal(err, iw)
	}
	if f.Spec != fattree.Paper1296() {
		t.Fatalf("spec %v, want Paper1296 %v", f.Spec, fattree.Paper1296())
	}
	tab := readGz(t, "paper1296-ftree.dump_fts.gz", func(r io.Reader) (*fattree.Table, error) {
		tab, w, err := ReadLFT(r, "paper1296-ftree.dump_fts", f)
		if len(w) != 0 {
			t.Errorf("ReadLFT warnings %v", w)
		}
		return tab, err
	})
	isSwitchLID := map[int]bool{}
	for _, s := range f.Switches {
		isSwitchLID[int(s.LID)] = true
	}
	for _, c := range []struct {
		sw             string
		port           int // physical port
		lids, switches int // by hand, see above
	}{
		{"L1-p3-s17", 19, 116, 45},
		{"L2-p0-s0", 19, 144, 90},
		{"L3-b0-s0", 1, 199, 19},
	} {
		sw := switchNamed(t, f, c.sw)
		link := f.Switches[sw].Ports[f.ModelPort(sw, c.port)-1].Out
		got, err := fattree.Destinations(f, tab, link)
		if err != nil {
			t.Fatal(err)
		}
		nsw := 0
		for i, lid := range got {
			if i > 0 && lid <= got[i-1] {
				t.Fatalf("%s port %d: LIDs not increasing: %v", c.sw, c.port, got)
			}
			if isSwitchLID[lid] {
				nsw++
			}
		}
		if len(got) != c.lids || nsw != c.switches {
			t.Errorf("%s port %d: %d LIDs, %d of switches; by hand %d, %d", c.sw, c.port, len(got), nsw, c.lids, c.switches)
		}
		// Without the switches' routes (a Routing of nodes only), the
		// nodes' LIDs are left.
		nodesOnly, err := fattree.Destinations(f, nodeRouting{tab}, link)
		if err != nil {
			t.Fatal(err)
		}
		if len(nodesOnly) != c.lids-c.switches {
			t.Errorf("%s port %d: %d node LIDs, want %d", c.sw, c.port, len(nodesOnly), c.lids-c.switches)
		}
	}
	if _, err := fattree.Destinations(f, tab, f.Nodes[0].Up); err == nil {
		t.Error("a node's up link has destinations: a node has no forwarding table")
	}
}

// nodeRouting hides a Table's switch routes.
type nodeRouting struct{ t *fattree.Table }

func (r nodeRouting) Port(sw, dst int) int { return r.t.Port(sw, dst) }

// TestSwitchRoutesRoundTrip: ReadLFT keeps the switches' LIDs of
// k8-ftree.dump_fts, and WriteLFT and the TreeScope .rtable writer write
// them back, node and switch routes alike. The file has 4,624 entries
// for switches' LIDs (grep -c '^0x.*Switch portguid'), 80 of them a
// switch's own LID on port 0 (grep -c '^0x.* 000 : (Switch'): 4,544
// routes (ftree routes only some switches' LIDs from L2 and L3).
func TestSwitchRoutesRoundTrip(t *testing.T) {
	f, _, _ := inferFile(t, "k8.ibnetdiscover")
	tab, _ := readLFTFile(t, "k8-ftree.dump_fts", f)
	n := 0
	for sw := range f.Switches {
		for d := range f.Switches {
			if tab.SwitchRoute(sw, d) != 0 {
				n++
			}
		}
	}
	if n != 4624-80 {
		t.Errorf("%d switch routes, want %d", n, 4624-80)
	}
	var lft, rt bytes.Buffer
	if err := WriteLFT(&lft, f, tab); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(&rt)
	writeRTable(w, f, tab)
	w.Flush()
	back, warns, err := ReadLFT(&lft, "lft", f)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	back2, warns, err := readRTable(&rt, "rtable", f, deviceIndex(f))
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	for _, b := range []*fattree.Table{back, back2} {
		for sw := range f.Switches {
			for d := range f.Switches {
				if b.SwitchRoute(sw, d) != tab.SwitchRoute(sw, d) {
					t.Fatalf("switch %d to switch %d: %d, read %d", sw, d, b.SwitchRoute(sw, d), tab.SwitchRoute(sw, d))
				}
			}
			for d := range f.Nodes {
				if b.Port(sw, d) != tab.Port(sw, d) {
					t.Fatalf("switch %d to node %d: %d, read %d", sw, d, b.Port(sw, d), tab.Port(sw, d))
				}
			}
		}
	}
}
