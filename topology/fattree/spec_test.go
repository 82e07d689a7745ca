package fattree

import (
	"strings"
	"testing"
)

// Done-when 1: the counts of the issue, worked out by hand, against both
// the Spec's arithmetic and the built Fabric.
func TestCounts(t *testing.T) {
	for _, c := range []struct {
		name                   string
		spec                   Spec
		nodes, l1, l2, l3      int
		pods, bundles, perBndl int
		cables, links, cells   int
	}{
		// k = 4: 16 host cables + 8 L1 × 2 L2 + 8 L2 × 2 L3 = 48 cables; 64 cells.
		{"KAry(4)", KAry(4), 16, 8, 8, 4, 4, 2, 2, 48, 96, 64},
		// 1296 host + 72×18 + 72×18 = 3,888 cables; 2 × 2,592 = 5,184 cells.
		{"Paper1296", Paper1296(), 1296, 72, 72, 36, 4, 2, 18, 3888, 7776, 5184},
		// 3200 + 160×20 + 160×20 = 9,600 cables; 12,800 cells.
		{"Paper3200", Paper3200(), 3200, 160, 160, 80, 8, 4, 20, 9600, 19200, 12800},
		// k³/4 = 11,664; k²/2 = 648; k²/4 = 324; cells 2·(648·18 + 648·18) = 46,656.
		{"KAry(36)", KAry(36), 11664, 648, 648, 324, 36, 18, 18, 11664 + 23328, 2 * (11664 + 23328), 46656},
		// k³/4 = 27,648; 1,152 / 1,152 / 576; cells 2·(1152·24·2) = 110,592.
		{"KAry(48)", KAry(48), 27648, 1152, 1152, 576, 48, 24, 24, 27648 + 55296, 2 * (27648 + 55296), 110592},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			got := []int{s.Nodes(), s.Switches(1), s.Switches(2), s.Switches(3), s.Pods, s.Bundles, s.L3PerBundle, s.Cables(), s.Links(), s.Cells()}
			want := []int{c.nodes, c.l1, c.l2, c.l3, c.pods, c.bundles, c.perBndl, c.cables, c.links, c.cells}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("spec counts (nodes, L1, L2, L3, pods, bundles, L3/bundle, cables, links, cells) = %v, want %v", got, want)
					break
				}
			}
			f, err := Build(s)
			if err != nil {
				t.Fatal(err)
			}
			level := [4]int{}
			pods, bundles := map[int]bool{}, map[int]int{}
			for _, sw := range f.Switches {
				level[sw.Level]++
				if sw.Pod >= 0 {
					pods[sw.Pod] = true
				}
				if sw.Level == 3 {
					bundles[sw.Bundle]++
				}
			}
			cells := 0
			for _, l := range f.Links {
				if l.Kind.Cell() {
					cells++
				}
			}
			built := []int{len(f.Nodes), level[1], level[2], level[3], len(pods), len(bundles), bundles[0], len(f.Links) / 2, len(f.Links), cells}
			for i := range built {
				if built[i] != want[i] {
					t.Errorf("built counts %v, want %v", built, want)
					break
				}
			}
			for b, n := range bundles {
				if n != c.perBndl {
					t.Errorf("bundle %d has %d L3, want %d", b, n, c.perBndl)
				}
			}
		})
	}
}

func TestPaperSwitchPorts(t *testing.T) {
	for _, c := range []struct {
		spec  Spec
		ports int
	}{{Paper1296(), 36}, {Paper3200(), 40}, {KAry(4), 4}, {KAry(48), 48}} {
		for level := 1; level <= 3; level++ {
			if p := c.spec.Ports(level); p != c.ports {
				t.Errorf("%v: L%d has %d ports, want %d", c.spec, level, p, c.ports)
			}
		}
	}
	if g := Paper1296().L2PerBundle(); g != 9 {
		t.Errorf("Paper1296: %d L2 per pod per bundle, want 9", g)
	}
	if g := Paper3200().L2PerBundle(); g != 5 {
		t.Errorf("Paper3200: %d L2 per pod per bundle, want 5", g)
	}
}

func TestValidate(t *testing.T) {
	ok := Spec{Pods: 2, L1PerPod: 2, NodesPerL1: 2, L2PerPod: 2, Bundles: 1, L3PerBundle: 2, CablesL1L2: 1, CablesL2L3: 1}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	two := Spec{Pods: 1, L1PerPod: 4, NodesPerL1: 3, L2PerPod: 2, CablesL1L2: 2}
	if err := two.Validate(); err != nil {
		t.Fatalf("two-level tree: %v", err)
	}
	for _, c := range []struct {
		change func(*Spec)
		want   string
	}{
		{func(s *Spec) { s.Pods = 0 }, "Spec.Pods = 0"},
		{func(s *Spec) { s.NodesPerL1 = -1 }, "Spec.NodesPerL1 = -1"},
		{func(s *Spec) { s.L1PerPod = 0 }, "Spec.L1PerPod"},
		{func(s *Spec) { s.L2PerPod = 0 }, "Spec.L2PerPod"},
		{func(s *Spec) { s.CablesL1L2 = 0 }, "Spec.CablesL1L2"},
		{func(s *Spec) { s.CablesL2L3 = 0 }, "Spec.CablesL2L3 = 0"},
		{func(s *Spec) { s.Bundles = 0 }, "two-level"},
		{func(s *Spec) { s.L3PerBundle = 0 }, "two-level"},
		{func(s *Spec) { s.L2PerPod = 3; s.Bundles = 2 }, "Spec.L2PerPod = 3 is not a multiple of Spec.Bundles = 2"},
		{func(s *Spec) { s.NodesPerL1 = 300 }, "Spec.NodesPerL1 = 300"},
		{func(s *Spec) { s.NodesPerL1 = 250; s.L2PerPod = 10 }, "L1 switch"},
		{func(s *Spec) { s.Pods = 200; s.CablesL2L3 = 2 }, "L3 switch"},
		{func(s *Spec) { s.Pods = 200; s.L1PerPod = 100; s.NodesPerL1 = 200; s.L2PerPod = 1 }, "nodes, more than"},
	} {
		s := ok
		c.change(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", s, err, c.want)
		}
		if _, berr := Build(s); berr == nil {
			t.Errorf("%+v: Build accepted it", s)
		}
	}
	if err := (Spec{Pods: 2, L1PerPod: 1, NodesPerL1: 1, L2PerPod: 1, CablesL1L2: 1}).Validate(); err == nil || !strings.Contains(err.Error(), "Spec.Pods = 2 in a two-level tree") {
		t.Errorf("two pods without L3: %v", err)
	}
	for _, k := range []int{-2, 0, 3, 256} {
		if err := KAry(k).Validate(); err == nil || !strings.Contains(err.Error(), "KAry(") {
			t.Errorf("KAry(%d): %v", k, err)
		}
	}
}
