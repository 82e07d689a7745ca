package fattree

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func loads(t testing.TB, f *Fabric, r Routing, nodes []int) Loads {
	t.Helper()
	l, err := AllToAllLoads(context.Background(), f, r, nodes)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// kindLoads is, per kind in Kind order, the smallest and largest load.
func kindLoads(l Loads) [NumKinds][2]int64 {
	var out [NumKinds][2]int64
	for k := Kind(0); k < NumKinds; k++ {
		st := l.Stats(k)
		out[k] = [2]int64{st.Min, st.Max}
	}
	return out
}

func same(v int64) [2]int64 { return [2]int64{v, v} }

// Done-when 2: the loads of the issue, by hand.
func TestAllToAllHand(t *testing.T) {
	t.Run("KAry(4)", func(t *testing.T) {
		// 15 destinations per node; an L1's 2 nodes send 2·14 outside it
		// over 2 up links; a pod's 4 nodes send 4·12 outside it over 4.
		f := build(t, KAry(4))
		l := loads(t, f, DModK(f), nil)
		want := [NumKinds][2]int64{same(15), same(15), same(14), same(14), same(12), same(12)}
		if got := kindLoads(l); got != want {
			t.Errorf("loads per kind %v, want %v", got, want)
		}
		if want := []int64{0, 16, 0, 32, 0, 192}; !slices.Equal(l.Hops, want) {
			t.Errorf("hops %v, want %v", l.Hops, want)
		}
		if l.Pairs != 240 {
			t.Errorf("%d pairs, want 240", l.Pairs)
		}
	})
	f := build(t, Paper1296())
	r := DModK(f)
	t.Run("Paper1296", func(t *testing.T) {
		// 1,295 = 1,296 − 1; 1,278 = 1,296 − 18 (outside the L1, one per up
		// link); 972 = 1,296 − 324 (outside the pod).
		l := loads(t, f, r, nil)
		want := [NumKinds][2]int64{same(1295), same(1295), same(1278), same(1278), same(972), same(972)}
		if got := kindLoads(l); got != want {
			t.Errorf("loads per kind %v, want %v", got, want)
		}
		// 72 L1 × 18·17; 1,296 × 306; 1,296 × 972.
		if want := []int64{0, 22032, 0, 396576, 0, 1259712}; !slices.Equal(l.Hops, want) {
			t.Errorf("hops %v, want %v", l.Hops, want)
		}
	})
	t.Run("Paper1296 stride", func(t *testing.T) {
		// One node per L1, all in slot 0: D-mod-k sends every route up to
		// L2 0 of its pod, so only 72 links of each inter-switch kind carry
		// traffic: 71 between L1 and L2, 3 destinations × 18 sources = 54
		// between L2 and L3.
		var job []int
		for d := 0; d < 1296; d += 18 {
			job = append(job, d)
		}
		l := loads(t, f, r, job)
		used := 0
		for _, c := range []struct {
			k    Kind
			load int64
		}{{Up12, 71}, {Down21, 71}, {Up23, 54}, {Down32, 54}} {
			st := l.Stats(c.k)
			used += st.Used
			if st.Used != 72 || st.Max != c.load || st.Sum != 72*c.load {
				t.Errorf("%v: %d links used, max %d, sum %d; want 72 links of %d", c.k, st.Used, st.Max, st.Sum, c.load)
			}
		}
		if share := float64(used) / float64(f.Spec.Cells()); share < 0.0555 || share > 0.0556 {
			t.Errorf("%d of %d cells used (%.2f %%), want 5.6 %%", used, f.Spec.Cells(), 100*share)
		}
	})
	t.Run("Paper1296 job 0-1023", func(t *testing.T) {
		job := make([]int, 1024)
		for i := range job {
			job[i] = i
		}
		l := loads(t, f, r, job)
		for _, c := range []struct {
			k   Kind
			max int64
		}{{Up12, 1008}, {Down21, 1008}, {Up23, 972}, {Down32, 972}} {
			if st := l.Stats(c.k); st.Max != c.max {
				t.Errorf("%v: max %d, want %d", c.k, st.Max, c.max)
			}
		}
	})
}

// bruteLoads follows Route for every ordered pair.
func bruteLoads(t *testing.T, f *Fabric, r Routing, nodes []int) ([]int64, []int64) {
	links := make([]int64, len(f.Links))
	var hops []int64
	for _, s := range nodes {
		for _, d := range nodes {
			if s == d {
				continue
			}
			p, err := Route(f, r, s, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range p.Links {
				links[id]++
			}
			for len(hops) <= len(p.Switches) {
				hops = append(hops, 0)
			}
			hops[len(p.Switches)]++
		}
	}
	return links, hops
}

// Done-when 3: the destination trees give exactly the loads of following
// every pair's route, on every kind of tree, for D-mod-k, random routings
// and tables, for all nodes and random subsets; and the totals are
// conserved: all loads sum to the links on the routes, and the
// inter-switch total is the same for every minimal routing.
func TestLoadsConservation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []Spec{KAry(4), KAry(6), parallelSpec, twoLevelSpec, {Pods: 2, L1PerPod: 3, NodesPerL1: 2, L2PerPod: 3, Bundles: 3, L3PerBundle: 2, CablesL1L2: 1, CablesL2L3: 2}} {
		f := build(t, s)
		all := make([]int, len(f.Nodes))
		for i := range all {
			all[i] = i
		}
		sets := [][]int{all, {0, len(f.Nodes) - 1}, {3}}
		for range 3 {
			perm := rng.Perm(len(f.Nodes))
			sets = append(sets, perm[:1+rng.IntN(len(perm))])
		}
		tab, err := TableOf(context.Background(), f, Random(f, 99))
		if err != nil {
			t.Fatal(err)
		}
		routings := []Routing{DModK(f), Random(f, 1), Random(f, 2), tab}
		for si, set := range sets {
			var cells []int64
			for ri, r := range routings {
				l := loads(t, f, r, set)
				wantLinks, wantHops := bruteLoads(t, f, r, set)
				if !slices.Equal(l.Links, wantLinks) {
					t.Fatalf("%v set %d routing %d: tree loads differ from per-pair loads", s, si, ri)
				}
				for len(wantHops) < len(l.Hops) {
					wantHops = append(wantHops, 0)
				}
				if !slices.Equal(l.Hops, wantHops) {
					t.Fatalf("%v set %d routing %d: hops %v, per pair %v", s, si, ri, l.Hops, wantHops)
				}
				var sum, onRoutes, pairs, cell, interSwitch int64
				for _, v := range l.Links {
					sum += v
				}
				for h, v := range l.Hops {
					onRoutes += int64(h+1) * v
					pairs += v
					if h > 0 {
						interSwitch += int64(h-1) * v
					}
				}
				for k := Up12; k < NumKinds; k++ {
					cell += l.Stats(k).Sum
				}
				if n := int64(len(set)); sum != onRoutes || pairs != n*(n-1) || l.Pairs != pairs || cell != interSwitch {
					t.Fatalf("%v set %d routing %d: loads sum %d, links on routes %d, pairs %d (%d), cells %d vs %d",
						s, si, ri, sum, onRoutes, pairs, l.Pairs, cell, interSwitch)
				}
				cells = append(cells, cell)
			}
			for _, c := range cells {
				if c != cells[0] {
					t.Fatalf("%v set %d: inter-switch totals %v differ between minimal routings", s, si, cells)
				}
			}
		}
	}
}

// The result does not depend on the number of workers.
func TestLoadsDeterministic(t *testing.T) {
	f := build(t, Paper3200())
	r := Random(f, 7)
	a := loads(t, f, r, nil)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b := loads(t, f, r, nil)
	runtime.GOMAXPROCS(3)
	c := loads(t, f, r, nil)
	if !slices.Equal(a.Links, b.Links) || !slices.Equal(a.Hops, b.Hops) || !slices.Equal(a.Links, c.Links) || !slices.Equal(a.Hops, c.Hops) {
		t.Error("loads depend on GOMAXPROCS")
	}
}

func TestLoadsErrors(t *testing.T) {
	f := build(t, KAry(4))
	ctx := context.Background()
	for _, c := range []struct {
		r     Routing
		nodes []int
		want  string
	}{
		{DModK(f), []int{0, 16}, "nodes[1] = 16, the fabric has nodes 0..15"},
		{DModK(f), []int{-1}, "nodes[0] = -1"},
		{DModK(f), []int{2, 5, 2}, "nodes[2] = 2 is listed twice"},
		{portRouting{f, 3}, nil, "routes to node 0 loop: L1 p0 s0, L2 p0 s0, L3 b0 s0, L2 p2 s0, L3 b0 s0"},
		{portRouting{f, 3}, []int{9, 4}, "routes to node 9 loop"},
		{NewTable(f), []int{1, 2}, "no route to node 1"},
		{portRouting{f, 7}, nil, "port 7, it has ports 1..4"},
	} {
		_, err := AllToAllLoads(ctx, f, c.r, c.nodes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("nodes %v: %v, want an error containing %q", c.nodes, err, c.want)
		}
	}
	// The error is that of the earliest destination whatever the workers.
	big := build(t, Paper1296())
	tab, err := TableOf(ctx, big, DModK(big))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{700, 1000} {
		if err := tab.SetPort(big.L1(0, 0), d, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := AllToAllLoads(ctx, big, tab, nil); err == nil || !strings.Contains(err.Error(), "L1 p0 s0 has no route to node 700") {
		t.Errorf("broken table: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := AllToAllLoads(cancelled, big, DModK(big), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// Sets of fewer than two nodes have no pairs.
	for _, set := range [][]int{{}, {3}} {
		l, err := AllToAllLoads(ctx, f, DModK(f), set)
		if err != nil || l.Pairs != 0 || len(l.Links) != len(f.Links) || l.Stats(Up12).Max != 0 {
			t.Errorf("set %v: %+v %v", set, l.Stats(Up12), err)
		}
	}
}

func benchmarkLoads(b *testing.B, s Spec) {
	f, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	r := DModK(f)
	b.ResetTimer()
	for b.Loop() {
		if _, err := AllToAllLoads(context.Background(), f, r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// All-to-all loads and hop histogram of every node of Paper1296 (1.7
// million pairs); target ≤ 50 ms on two cores.
func BenchmarkAllToAllPaper1296(b *testing.B) { benchmarkLoads(b, Paper1296()) }

// All-to-all of KAry(48): 27,648 nodes, 764 million pairs; target ≤ 1 s
// on two cores.
func BenchmarkAllToAllKAry48(b *testing.B) { benchmarkLoads(b, KAry(48)) }

func BenchmarkBuildKAry48(b *testing.B) {
	for b.Loop() {
		if _, err := Build(KAry(48)); err != nil {
			b.Fatal(err)
		}
	}
}
