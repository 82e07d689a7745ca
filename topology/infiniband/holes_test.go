package infiniband

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"superstep/topology/fattree"
)

// TestFabricWithHoles: KAry(4) simulated by ibsim without two switch
// cables and one host cable (gennet k4holes), brought up by OpenSM. The
// missing cables are absent from the inferred fabric: the warnings name
// exactly the three cables, the six directed links are Missing, the
// statistics count the 90 links that exist (of the 96 of KAry(4)), and
// OpenSM's own forwarding tables route around the holes where D-mod-k
// does not.
func TestFabricWithHoles(t *testing.T) {
	for _, file := range []string{"k4holes.ibnetdiscover", "k4holes-ports.ibnetdiscover"} {
		f, g, iw := inferFile(t, file)
		if f.Spec != fattree.KAry(4) || len(g.Devices) != 35 || len(g.Cables) != 45 {
			t.Fatalf("%s: %v, %d devices, %d cables", file, f.Spec, len(g.Devices), len(g.Cables))
		}
		var msgs []string
		for _, w := range iw {
			msgs = append(msgs, w.Msg)
		}
		want := []string{
			`missing host cable: no host on port 2 of switch "L1-p1-s0" (GUID 0x0000000000200002) (L1 p1 s0): node 5 and its cable are missing`,
			`missing cable between switch "L1-p0-s0" (GUID 0x0000000000200000) and switch "L2-p0-s1" (GUID 0x0000000000200009) (L1-p0-s0 and L2-p0-s1)`,
			`missing cable between switch "L2-p3-s0" (GUID 0x000000000020000e) and switch "L3-b0-s1" (GUID 0x0000000000200011) (L2-p3-s0 and L3-b0-s1)`,
		}
		if !reflect.DeepEqual(msgs, want) {
			t.Fatalf("%s: warnings\n%s\nwant\n%s", file, strings.Join(msgs, "\n"), strings.Join(want, "\n"))
		}
		// The six missing links, by their ends.
		var ends []string
		name := func(level, i int) string {
			if level == 0 {
				return f.Nodes[i].Name
			}
			return f.Switches[i].Name
		}
		for _, id := range f.MissingLinks() {
			l := f.Links[id]
			ends = append(ends, name(l.Kind.From(), l.From)+" → "+name(l.Kind.To(), l.To))
		}
		wantEnds := []string{
			"node 5 → L1-p1-s0", "L1-p1-s0 → node 5",
			"L1-p0-s0 → L2-p0-s1", "L2-p0-s1 → L1-p0-s0",
			"L2-p3-s0 → L3-b0-s1", "L3-b0-s1 → L2-p3-s0",
		}
		if !reflect.DeepEqual(ends, wantEnds) {
			t.Fatalf("%s: missing links %q, want %q", file, ends, wantEnds)
		}
		if !f.NodeMissing(5) || f.NodeMissing(4) {
			t.Fatalf("%s: NodeMissing(5) = %v, NodeMissing(4) = %v", file, f.NodeMissing(5), f.NodeMissing(4))
		}

		// D-mod-k ignores the holes: the error names a missing cable.
		ctx := context.Background()
		if _, err := fattree.AllToAllLoads(ctx, f, fattree.DModK(f), nil); err == nil || !strings.Contains(err.Error(), "whose cable is missing") {
			t.Fatalf("%s: D-mod-k all-to-all: %v", file, err)
		}
		if _, err := fattree.Route(f, fattree.DModK(f), 0, 5); err == nil || !strings.Contains(err.Error(), "node 5 (node 5) is missing") {
			t.Fatalf("%s: route to the missing node: %v", file, err)
		}
		// OpenSM's tables route the 15 nodes that exist around them.
		tab, lw := readLFTFile(t, "k4holes.dump_fts", f)
		if len(lw) != 0 {
			t.Fatalf("k4holes.dump_fts: warnings %v", lw)
		}
		loads, err := fattree.AllToAllLoads(ctx, f, tab, nil)
		if err != nil {
			t.Fatalf("%s: all-to-all on OpenSM's routes: %v", file, err)
		}
		if loads.Pairs != 15*14 {
			t.Fatalf("%s: %d pairs, want 210", file, loads.Pairs)
		}
		tr, err := fattree.JobLoads(ctx, f, tab, []fattree.Job{{ID: "all", Nodes: nonMissing(f), Pattern: fattree.AllToAll(), BytesPerPair: 1}})
		if err != nil {
			t.Fatal(err)
		}
		links, missing := 0, 0
		for k := fattree.Kind(0); k < fattree.NumKinds; k++ {
			st, ls := tr.Stats(k), loads.Stats(k)
			if st.Links != 15 || st.Missing != 1 || ls.Links != 15 || ls.Missing != 1 {
				t.Errorf("%s: %v: Traffic.Stats %d links, %d missing; Loads.Stats %d, %d; want 15 and 1", file, k, st.Links, st.Missing, ls.Links, ls.Missing)
			}
			if st.Dark != st.Links-st.Used || len(tr.Dark(k)) != st.Dark {
				t.Errorf("%s: %v: %d dark, Dark lists %d", file, k, st.Dark, len(tr.Dark(k)))
			}
			links += st.Links
			missing += st.Missing
		}
		// Every walk of routes refuses a missing link: a footprint too.
		pod0 := []int{0, 1, 2, 3}
		if _, err := fattree.Footprint(ctx, f, fattree.DModK(f), pod0); err == nil || !strings.Contains(err.Error(), "whose cable is missing") {
			t.Fatalf("%s: D-mod-k footprint of pod 0: %v", file, err)
		}
		if sc, err := fattree.Footprint(ctx, f, tab, pod0); err != nil || len(sc.Links) == 0 {
			t.Fatalf("%s: OpenSM footprint of pod 0: %v, %d links", file, err, len(sc.Links))
		} else {
			for _, id := range sc.Links {
				if f.Missing(id) {
					t.Fatalf("%s: OpenSM footprint crosses missing link %d", file, id)
				}
			}
		}
		if links != 90 || missing != 6 {
			t.Fatalf("%s: %d links and %d missing, want 90 and 6", file, links, missing)
		}
	}
}

func nonMissing(f *fattree.Fabric) []int {
	var out []int
	for n := range f.Nodes {
		if !f.NodeMissing(n) {
			out = append(out, n)
		}
	}
	return out
}
