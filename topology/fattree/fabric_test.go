package fattree

import (
	"testing"
)

// parallelSpec has parallel cables at both levels and several L2 per pod
// per bundle, the cases KAry does not exercise.
var parallelSpec = Spec{Pods: 3, L1PerPod: 2, NodesPerL1: 3, L2PerPod: 4, Bundles: 2, L3PerBundle: 2, CablesL1L2: 2, CablesL2L3: 3}

var twoLevelSpec = Spec{Pods: 1, L1PerPod: 4, NodesPerL1: 3, L2PerPod: 3, CablesL1L2: 2}

func build(t testing.TB, s Spec) *Fabric {
	t.Helper()
	f, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFabricStructure(t *testing.T) {
	for _, s := range []Spec{KAry(4), KAry(6), Paper1296(), parallelSpec, twoLevelSpec} {
		f := build(t, s)
		// Links: sorted by (kind, from, to, cable), the kinds' ranges match.
		for id := 1; id < len(f.Links); id++ {
			a, b := f.Links[id-1], f.Links[id]
			if !(a.Kind < b.Kind || a.Kind == b.Kind && (a.From < b.From || a.From == b.From && (a.To < b.To || a.To == b.To && a.Cable < b.Cable))) {
				t.Fatalf("%v: link %d %+v is not after link %d %+v", s, id, b, id-1, a)
			}
		}
		for k := Kind(0); k < NumKinds; k++ {
			lo, hi := f.KindLinks(k)
			for id := lo; id < hi; id++ {
				if f.Links[id].Kind != k {
					t.Fatalf("%v: link %d in KindLinks(%v) has kind %v", s, id, k, f.Links[id].Kind)
				}
			}
		}
		if _, hi := f.KindLinks(Down32); hi != len(f.Links) {
			t.Fatalf("%v: kinds end at %d of %d links", s, hi, len(f.Links))
		}
		// Ports: every port has both directions of one cable, down ports first,
		// and the flat table agrees.
		for id, sw := range f.Switches {
			if len(sw.Ports) != s.Ports(sw.Level) || sw.DownPorts != s.DownPorts(sw.Level) {
				t.Fatalf("%v: %s has %d ports (%d down)", s, sw.Name, len(sw.Ports), sw.DownPorts)
			}
			for i, p := range sw.Ports {
				num := i + 1
				out, in := f.Links[p.Out], f.Links[p.In]
				if out.From != id || out.FromPort != num || in.To != id || in.ToPort != num {
					t.Fatalf("%v: %s port %d: out %+v in %+v", s, sw.Name, num, out, in)
				}
				if in.Kind != out.Kind.Reverse() || in.From != out.To || in.FromPort != out.ToPort || in.Cable != out.Cable {
					t.Fatalf("%v: %s port %d: out %+v and in %+v are not one cable", s, sw.Name, num, out, in)
				}
				if down := num <= sw.DownPorts; down == out.Kind.Up() || out.Kind.From() != sw.Level {
					t.Fatalf("%v: %s port %d (down %v) has out link of kind %v", s, sw.Name, num, down, out.Kind)
				}
				if f.port(id, num) != p.Out {
					t.Fatalf("%v: flat port table of %s port %d", s, sw.Name, num)
				}
			}
			if f.port(id, 0) != -1 || f.port(id, len(sw.Ports)+1) != -1 {
				t.Fatalf("%v: %s has ports out of range", s, sw.Name)
			}
			// An L2's up links go to the L3 of its bundle, down links to its pod.
			for _, p := range sw.Ports {
				l := f.Links[p.Out]
				to := l.To
				switch l.Kind {
				case Up23:
					if f.Switches[to].Bundle != sw.Bundle {
						t.Fatalf("%v: %s (bundle %d) is cabled to %s", s, sw.Name, sw.Bundle, f.Switches[to].Name)
					}
				case Down21, Up12:
					if f.Switches[to].Pod != sw.Pod {
						t.Fatalf("%v: %s is cabled to %s of another pod", s, sw.Name, f.Switches[to].Name)
					}
				}
			}
		}
		// Nodes: TreeScope's order, and their host links.
		names, guids, lids := map[string]bool{}, map[uint64]bool{}, map[uint16]bool{}
		for d, nd := range f.Nodes {
			if f.Node(nd.Pod, nd.L1, nd.Slot) != d || f.L1(nd.Pod, nd.L1) != nd.Switch {
				t.Fatalf("%v: node %d is %+v", s, d, nd)
			}
			up, down := f.Links[nd.Up], f.Links[nd.Down]
			if up.Kind != Up01 || up.From != d || up.To != nd.Switch || up.ToPort != nd.Slot+1 || down.Kind != Down10 || down.To != d {
				t.Fatalf("%v: node %d host links %+v %+v", s, d, up, down)
			}
			names[nd.Name], guids[nd.GUID], lids[nd.LID] = true, true, true
		}
		for _, sw := range f.Switches {
			names[sw.Name], guids[sw.GUID], lids[sw.LID] = true, true, true
		}
		n := len(f.Nodes) + len(f.Switches)
		if len(names) != n || len(guids) != n || len(lids) != n || lids[0] {
			t.Fatalf("%v: %d devices, %d names, %d GUIDs, %d LIDs", s, n, len(names), len(guids), len(lids))
		}
	}
}

func TestNamesAndIDs(t *testing.T) {
	f := build(t, KAry(4))
	for _, c := range []struct {
		id   int
		name string
	}{
		{f.L1(0, 0), "L1 p0 s0"}, {f.L1(3, 1), "L1 p3 s1"}, {f.L2(0, 1), "L2 p0 s1"},
		{f.L2(3, 1), "L2 p3 s1"}, {f.L3(1, 0), "L3 b1 s0"}, {f.L3(0, 1), "L3 b0 s1"},
	} {
		if got := f.Switches[c.id].Name; got != c.name {
			t.Errorf("switch %d is %q, want %q", c.id, got, c.name)
		}
	}
	if sw := f.Switches[f.L2(2, 1)]; sw.Level != 2 || sw.Pod != 2 || sw.Index != 1 || sw.Bundle != 1 {
		t.Errorf("L2(2,1) = %+v", sw)
	}
	if sw := f.Switches[f.L3(1, 0)]; sw.Level != 3 || sw.Pod != -1 || sw.Bundle != 1 || sw.Index != 0 || sw.GUID != 0x0002c90300000003 {
		t.Errorf("L3(1,0) = %+v", sw)
	}
	if nd := f.Nodes[13]; nd.Name != "node 13" || nd.Pod != 3 || nd.L1 != 0 || nd.Slot != 1 || nd.GUID != 0x0002c9000000000e || nd.LID != 14 {
		t.Errorf("node 13 = %+v", nd)
	}
	if f.Switches[0].LID != 17 {
		t.Errorf("first switch LID %d, want 17 (after 16 nodes)", f.Switches[0].LID)
	}
	// Port numbering: an L1's nodes on ports 1..2, L2 0 and 1 on ports 3 and 4.
	l1 := f.Switches[f.L1(0, 1)]
	if l := f.Links[l1.Ports[0].Out]; l.Kind != Down10 || l.To != 2 {
		t.Errorf("L1 p0 s1 port 1 → %+v", l)
	}
	if l := f.Links[l1.Ports[3].Out]; l.Kind != Up12 || l.To != f.L2(0, 1) || l.ToPort != 2 {
		t.Errorf("L1 p0 s1 port 4 → %+v", l)
	}
	// An L3 of bundle b reaches L2 b of pod p on port p+1.
	l3 := f.Switches[f.L3(1, 0)]
	for p := range 4 {
		if l := f.Links[l3.Ports[p].Out]; l.To != f.L2(p, 1) || l.ToPort != 3 {
			t.Errorf("L3 b1 s0 port %d → %+v", p+1, l)
		}
	}
	for _, c := range []struct{ s, d, want int }{{0, 0, 0}, {0, 1, 1}, {0, 3, 3}, {0, 13, 5}, {15, 12, 3}} {
		if got := f.Distance(c.s, c.d); got != c.want {
			t.Errorf("Distance(%d, %d) = %d, want %d", c.s, c.d, got, c.want)
		}
	}
}

func TestParallelCables(t *testing.T) {
	f := build(t, parallelSpec)
	// L1 p1 s0 to L2 p1 s3: cables 0 and 1 on up ports 3+1+3·2+c, at the L2
	// on down ports 1+0·2+c.
	l1 := f.Switches[f.L1(1, 0)]
	for c := range 2 {
		l := f.Links[l1.Ports[3+3*2+c].Out]
		if l.To != f.L2(1, 3) || l.Cable != c || l.ToPort != 1+c {
			t.Errorf("L1 p1 s0 cable %d to L2 p1 s3: %+v", c, l)
		}
	}
	// L2 p2 s3 is in bundle 1 (2 L2 per pod per bundle) as the second of its
	// pod there: L3 b1 s1 reaches it on ports 1+(2·2+1)·3+c.
	l3 := f.Switches[f.L3(1, 1)]
	for c := range 3 {
		l := f.Links[l3.Ports[(2*2+1)*3+c].Out]
		if l.To != f.L2(2, 3) || l.Cable != c || l.ToPort != 2*2+1+1*3+c {
			t.Errorf("L3 b1 s1 cable %d to L2 p2 s3: %+v", c, l)
		}
	}
	if f.Switches[f.L2(2, 3)].Bundle != 1 || f.Switches[f.L2(2, 1)].Bundle != 0 {
		t.Error("bundles of L2")
	}
}

func TestKindString(t *testing.T) {
	want := []string{"L0->L1", "L1->L0", "L1->L2", "L2->L1", "L2->L3", "L3->L2"}
	for k := Kind(0); k < NumKinds; k++ {
		if k.String() != want[k] || k.Up() != (k%2 == 0) || k.Cell() != (k >= Up12) || k.Reverse().Reverse() != k {
			t.Errorf("kind %d: %v up %v cell %v", k, k, k.Up(), k.Cell())
		}
	}
	if s := Kind(9).String(); s != "Kind(9)" {
		t.Errorf("Kind(9) = %q", s)
	}
}

func TestLIDRange(t *testing.T) {
	if lid(0) != 1 || lid(0xBFFE) != 0xBFFF || lid(0xBFFF) != 0 {
		t.Errorf("lid: %d %d %d", lid(0), lid(0xBFFE), lid(0xBFFF))
	}
	// KAry(48) (27,648 nodes and 2,880 switches) fits InfiniBand's LIDs.
	f := build(t, KAry(48))
	if l := f.Switches[len(f.Switches)-1].LID; l != 27648+2880 {
		t.Errorf("last LID %d", l)
	}
}
