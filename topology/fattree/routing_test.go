package fattree

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Done-when 2: the routes of the issue, by hand. On KAry(4) node d is
// 4p + 2i + x; D-mod-k goes up from L1 on L2 d mod 2 and from L2 on L3
// ⌊d/2⌋ mod 2.
func TestDModKHandRoutes(t *testing.T) {
	f := build(t, KAry(4))
	r := DModK(f)
	for _, c := range []struct {
		s, d int
		want []int
	}{
		// 13 = 4·3 + 2·0 + 1: up on L2 13 mod 2 = 1, L3 ⌊13/2⌋ mod 2 = 0 of bundle 1.
		{0, 13, []int{f.L1(0, 0), f.L2(0, 1), f.L3(1, 0), f.L2(3, 1), f.L1(3, 0)}},
		{0, 3, []int{f.L1(0, 0), f.L2(0, 1), f.L1(0, 1)}},
		{0, 1, []int{f.L1(0, 0)}},
		// 4 = pod 1, L1 0, slot 0: L2 0, L3 ⌊4/2⌋ mod 2 = 0 of bundle 0.
		{15, 4, []int{f.L1(3, 1), f.L2(3, 0), f.L3(0, 0), f.L2(1, 0), f.L1(1, 0)}},
		{5, 5, nil},
	} {
		p, err := Route(f, r, c.s, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Switches, c.want) {
			t.Errorf("route %d → %d = %s, want %s", c.s, c.d, f.switchNames(p.Switches), f.switchNames(c.want))
		}
		if c.s != c.d {
			if len(p.Links) != len(p.Switches)+1 || p.Links[0] != f.Nodes[c.s].Up || p.Links[len(p.Links)-1] != f.Nodes[c.d].Down {
				t.Errorf("route %d → %d links %v", c.s, c.d, p.Links)
			}
			checkPath(t, f, c.s, c.d, p)
		}
	}
}

// checkPath checks that p is a connected route from s to d.
func checkPath(t *testing.T, f *Fabric, s, d int, p Path) {
	t.Helper()
	for i, id := range p.Links {
		l := f.Links[id]
		switch {
		case i == 0 && (l.From != s || l.Kind != Up01),
			i == len(p.Links)-1 && (l.To != d || l.Kind != Down10),
			i > 0 && l.From != p.Switches[i-1],
			i < len(p.Switches) && l.To != p.Switches[i]:
			t.Fatalf("route %d → %d: link %d is %+v, switches %v", s, d, i, l, p.Switches)
		}
	}
}

// Every route of DModK and of Random is minimal (2·level of the lowest
// common ancestor − 1 switches), and so loop-free: 1,000 seeds on k = 4, a
// few on k = 8 and on the parallel-cable and two-level trees.
func TestRoutesMinimal(t *testing.T) {
	type run struct {
		spec  Spec
		seeds int
	}
	for _, c := range []run{{KAry(4), 1000}, {KAry(8), 3}, {parallelSpec, 20}, {twoLevelSpec, 20}} {
		f := build(t, c.spec)
		routings := []Routing{DModK(f)}
		for seed := range c.seeds {
			routings = append(routings, Random(f, uint64(seed)))
		}
		for i, r := range routings {
			for s := range f.Nodes {
				for d := range f.Nodes {
					p, err := Route(f, r, s, d)
					if err != nil {
						t.Fatalf("%v routing %d: %v", c.spec, i, err)
					}
					if len(p.Switches) != f.Distance(s, d) {
						t.Fatalf("%v routing %d: route %d → %d visits %s, want %d switches", c.spec, i, s, d, f.switchNames(p.Switches), f.Distance(s, d))
					}
					if s != d {
						checkPath(t, f, s, d, p)
					}
				}
			}
		}
	}
}

// Random really differs between seeds and from D-mod-k, and a seed always
// gives the same routing.
func TestRandomSeeds(t *testing.T) {
	f := build(t, KAry(8))
	a, b, a2 := Random(f, 1), Random(f, 2), Random(f, 1)
	d := DModK(f)
	diffAB, diffAD := 0, 0
	for sw := range f.Switches {
		for n := range f.Nodes {
			if a.Port(sw, n) != a2.Port(sw, n) {
				t.Fatal("same seed, different routing")
			}
			if a.Port(sw, n) != b.Port(sw, n) {
				diffAB++
			}
			if a.Port(sw, n) != d.Port(sw, n) {
				diffAD++
			}
		}
	}
	if diffAB == 0 || diffAD == 0 {
		t.Errorf("seeds 1 and 2 differ in %d entries, seed 1 and D-mod-k in %d", diffAB, diffAD)
	}
}

// With parallel cables D-mod-k spreads the destinations of an L1 over every
// up port, and a route comes down as the mirror of the way it went up: the
// same L2 index and the same cables.
func TestDModKParallelCables(t *testing.T) {
	f := build(t, parallelSpec)
	r := DModK(f)
	s := f.Spec
	u1 := s.UpPorts(1) // 4 L2 × 2 cables
	for d := range f.Nodes {
		for src := range f.Nodes {
			if f.Nodes[src].Pod == f.Nodes[d].Pod {
				continue
			}
			l1 := f.Nodes[src].Switch
			if got, want := r.Port(l1, d), s.NodesPerL1+1+d%u1; got != want {
				t.Fatalf("%s for node %d: port %d, want %d", f.Switches[l1].Name, d, got, want)
			}
			p, err := Route(f, r, src, d)
			if err != nil {
				t.Fatal(err)
			}
			up12, up23, down32, down21 := f.Links[p.Links[1]], f.Links[p.Links[2]], f.Links[p.Links[3]], f.Links[p.Links[4]]
			if up12.Cable != down21.Cable || up23.Cable != down32.Cable ||
				f.Switches[up12.To].Index != f.Switches[down21.From].Index || up12.Cable != d%s.CablesL1L2 {
				t.Fatalf("route %d → %d is no mirror: %+v %+v %+v %+v", src, d, up12, up23, down32, down21)
			}
		}
	}
}

func TestRouteErrors(t *testing.T) {
	f := build(t, KAry(4))
	empty := NewTable(f)
	for _, c := range []struct {
		r    Routing
		s, d int
		want string
	}{
		{DModK(f), -1, 3, "has nodes 0..15"},
		{DModK(f), 0, 16, "has nodes 0..15"},
		{empty, 0, 3, "switch L1 p0 s0 has no route to node 3"},
		{portRouting{f, 9}, 0, 3, "routes node 3 to port 9, it has ports 1..4"},
		{portRouting{f, 2}, 0, 3, "routes node 3 to port 2, where node 1 is"},
		{portRouting{f, 3}, 0, 3, "route 0 → 3 loops: L1 p0 s0, L2 p0 s0, L3 b0 s0, L2 p2 s0, L3 b0 s0"},
	} {
		_, err := Route(f, c.r, c.s, c.d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("route %d → %d: %v, want an error containing %q", c.s, c.d, err, c.want)
		}
	}
}

// portRouting sends everything through one port number on every switch:
// port 3 of KAry(4) goes up from L1 and L2 and down from L3, so it loops.
type portRouting struct {
	f    *Fabric
	port int
}

func (r portRouting) Port(sw, dst int) int { return r.port }

func TestTable(t *testing.T) {
	f := build(t, parallelSpec)
	r := DModK(f)
	tab, err := TableOf(context.Background(), f, r)
	if err != nil {
		t.Fatal(err)
	}
	for sw := range f.Switches {
		for d := range f.Nodes {
			if tab.Port(sw, d) != r.Port(sw, d) {
				t.Fatalf("table(%d, %d) = %d, D-mod-k %d", sw, d, tab.Port(sw, d), r.Port(sw, d))
			}
		}
	}
	if tab.Port(-1, 0) != 0 || tab.Port(0, len(f.Nodes)) != 0 {
		t.Error("out-of-range entries")
	}
	if err := tab.SetPort(0, 0, 7); err != nil || tab.Port(0, 0) != 7 {
		t.Errorf("SetPort: %v, port %d", err, tab.Port(0, 0))
	}
	for _, c := range []struct{ sw, d, p int }{{-1, 0, 1}, {len(f.Switches), 0, 1}, {0, -1, 1}, {0, 0, 255}, {0, 0, -1}} {
		if err := tab.SetPort(c.sw, c.d, c.p); err == nil {
			t.Errorf("SetPort(%d, %d, %d) accepted", c.sw, c.d, c.p)
		}
	}
	if _, err := TableOf(context.Background(), f, portRouting{f, 300}); err == nil || !strings.Contains(err.Error(), "port 300") {
		t.Errorf("TableOf with port 300: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TableOf(ctx, f, r); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled TableOf: %v", err)
	}
}
