package infiniband

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"superstep/topology/fattree"
)

func readFile(t testing.TB, name string) (fattree.Discovered, []Warning) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, warns, err := ReadIBNetDiscover(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return g, warns
}

// anonymous is a copy of f without names, GUIDs and LIDs.
func anonymous(f *fattree.Fabric) fattree.Fabric {
	c := *f
	c.Nodes = append([]fattree.Node(nil), f.Nodes...)
	c.Switches = append([]fattree.Switch(nil), f.Switches...)
	for i := range c.Nodes {
		c.Nodes[i].Name, c.Nodes[i].GUID, c.Nodes[i].LID = "", 0, 0
	}
	for i := range c.Switches {
		c.Switches[i].Name, c.Switches[i].GUID, c.Switches[i].LID = "", 0, 0
	}
	return c
}

// TestK4 reads the ibnetdiscover output of the simulated k=4 fat-tree
// (testdata/regenerate.sh) and infers exactly Build(KAry(4)): same ids,
// and every device where WriteIBSimNet put it (its name says where).
func TestK4(t *testing.T) {
	want, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"k4.ibnetdiscover", "k4-ports.ibnetdiscover"} {
		g, warns := readFile(t, name)
		if len(warns) != 0 {
			t.Fatalf("%s: warnings %v", name, warns)
		}
		if len(g.Devices) != 16+20 || len(g.Cables) != 48 {
			t.Fatalf("%s: %d devices, %d cables", name, len(g.Devices), len(g.Cables))
		}
		got, iw, err := fattree.Infer(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(iw) != 0 {
			t.Fatalf("%s: Infer warnings %v", name, iw)
		}
		if got.Spec != want.Spec {
			t.Fatalf("%s: spec %v", name, got.Spec)
		}
		if a, b := anonymous(got), anonymous(want); !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: fabric differs from Build", name)
		}
		lids := map[uint16]bool{}
		for i, n := range got.Nodes {
			if n.Name != netID(want.Nodes[i].Name) || n.GUID == 0 || n.LID == 0 || lids[n.LID] {
				t.Fatalf("%s: node %d is %q GUID %#x LID %d", name, i, n.Name, n.GUID, n.LID)
			}
			lids[n.LID] = true
		}
		for i, s := range got.Switches {
			if s.Name != netID(want.Switches[i].Name) || s.GUID == 0 || s.LID == 0 || lids[s.LID] {
				t.Fatalf("%s: switch %d is %q GUID %#x LID %d", name, i, s.Name, s.GUID, s.LID)
			}
			lids[s.LID] = true
		}
	}
}
