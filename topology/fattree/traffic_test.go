package fattree

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPatternPairs(t *testing.T) {
	for _, c := range []struct {
		p    Pattern
		n    int
		want [][2]int
	}{
		{Ring(), 4, [][2]int{{3, 0}, {0, 1}, {1, 2}, {2, 3}}},
		{Ring(), 1, nil},
		{Ring(), 2, [][2]int{{1, 0}, {0, 1}}},
		{Shift(-1), 3, [][2]int{{1, 0}, {2, 1}, {0, 2}}},
		{Shift(6), 3, nil},
		{AllToAll(), 3, [][2]int{{1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {1, 2}}},
		{Gather(), 3, [][2]int{{1, 0}, {2, 0}}},
		{Scatter(), 3, [][2]int{{0, 1}, {0, 2}}},
		// 2×2 grid: rank 1 = (0, 1) and rank 2 = (1, 0) swap.
		{Transpose(), 4, [][2]int{{2, 1}, {1, 2}}},
		// A line of 3 without wrap: the ends have one neighbour.
		{Stencil3D(3, 1, 1, false), 3, [][2]int{{1, 0}, {0, 1}, {2, 1}, {1, 2}}},
		// With wrap on 3×1×1, everyone neighbours everyone; extents of 1 add nothing.
		{Stencil3D(3, 1, 1, true), 3, [][2]int{{1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {1, 2}}},
		// 2×2×1 with wrap: −1 and +1 are the same rank, counted once.
		{Stencil3D(2, 2, 1, true), 4, [][2]int{{1, 0}, {2, 0}, {0, 1}, {3, 1}, {0, 2}, {3, 2}, {1, 3}, {2, 3}}},
	} {
		got, err := c.p.Pairs(c.n)
		if err != nil {
			t.Fatalf("%v on %d: %v", c.p, c.n, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v on %d: %v, want %v", c.p, c.n, got, c.want)
		}
		s, _ := c.p.sourcer(c.n)
		if s.count() != int64(len(got)) {
			t.Errorf("%v on %d: count %d, %d pairs", c.p, c.n, s.count(), len(got))
		}
	}
	// A 4×4×4 stencil: 6 neighbours everywhere with wrap; without it
	// 64·6 minus the 6 faces of 16 ranks.
	for _, c := range []struct {
		wrap bool
		want int
	}{{true, 384}, {false, 384 - 96}} {
		got, err := Stencil3D(4, 4, 4, c.wrap).Pairs(64)
		if err != nil || len(got) != c.want {
			t.Errorf("stencil 4×4×4 wrap %v: %d pairs (%v), want %d", c.wrap, len(got), err, c.want)
		}
	}
	// Permutation: a bijection, the same for a seed, different for another.
	a, _ := Permutation(7).Pairs(100)
	b, _ := Permutation(7).Pairs(100)
	c, _ := Permutation(8).Pairs(100)
	if !slices.Equal(a, b) || slices.Equal(a, c) || len(a) < 90 {
		t.Errorf("permutation pairs: %d, same seed equal %v, other seed equal %v", len(a), slices.Equal(a, b), slices.Equal(a, c))
	}
	seenS, seenD := map[int]bool{}, map[int]bool{}
	for _, p := range a {
		if seenS[p[0]] || seenD[p[1]] || p[0] == p[1] {
			t.Fatalf("permutation pairs %v not a permutation", a)
		}
		seenS[p[0]], seenD[p[1]] = true, true
	}
	for _, c := range []struct {
		p    Pattern
		n    int
		want string
	}{
		{Stencil3D(2, 2, 2, true), 9, "has 8 ranks, the job 9"},
		{Stencil3D(0, 2, 2, true), 0, "at least 1"},
		{Stencil3D(0, 2, 2, true), 4, "every extent"},
		{Transpose(), 8, "square"},
	} {
		if _, err := c.p.Pairs(c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v on %d: %v, want %q", c.p, c.n, err, c.want)
		}
	}
	for _, c := range []struct {
		p    Pattern
		want string
	}{{Ring(), "ring"}, {Shift(-3), "shift(-3)"}, {Stencil3D(4, 4, 2, true), "stencil 4×4×2 (wrap)"}, {Permutation(7), "permutation(seed 7)"}, {Pattern{}, "all-to-all"}} {
		if c.p.String() != c.want {
			t.Errorf("%q, want %q", c.p.String(), c.want)
		}
	}
}

func jobLoads(t testing.TB, f *Fabric, r Routing, jobs []Job) Traffic {
	t.Helper()
	tr, err := JobLoads(context.Background(), f, r, jobs)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func linkNamed(f *Fabric, id int) string {
	l := f.Links[id]
	name := func(level, i int) string {
		if level == 0 {
			return f.Nodes[i].Name
		}
		return f.Switches[i].Name
	}
	return name(l.Kind.From(), l.From) + " -> " + name(l.Kind.To(), l.To)
}

// Done-when: a ring of 4 nodes placed contiguously on KAry(4), by hand.
// Nodes 0, 1 are under L1 p0 s0, nodes 2, 3 under L1 p0 s1. 0→1 and 2→3
// stay under their L1; 1→2 goes up to L2 p0 s0 (2 mod 2 = 0) and down to
// L1 p0 s1; 3→0 goes up to L2 p0 s0 (0 mod 2) and down to L1 p0 s0. So
// every host link carries one route and four L1–L2 links one each, 12
// links in all: 2 pairs × 2 links + 2 pairs × 4 links.
func TestJobLoadsRingHand(t *testing.T) {
	f := build(t, KAry(4))
	nodes, err := Place(f, Contiguous, []int{4}, 0)
	if err != nil || !slices.Equal(nodes[0], []int{0, 1, 2, 3}) {
		t.Fatalf("placement %v %v", nodes, err)
	}
	tr := jobLoads(t, f, DModK(f), []Job{{ID: "ring", Nodes: nodes[0], Pattern: Ring(), BytesPerPair: 2e6}})
	want := map[string]float64{
		"node 0 -> L1 p0 s0": 2e6, "node 1 -> L1 p0 s0": 2e6, "node 2 -> L1 p0 s1": 2e6, "node 3 -> L1 p0 s1": 2e6,
		"L1 p0 s0 -> node 0": 2e6, "L1 p0 s0 -> node 1": 2e6, "L1 p0 s1 -> node 2": 2e6, "L1 p0 s1 -> node 3": 2e6,
		"L1 p0 s0 -> L2 p0 s0": 2e6, "L2 p0 s0 -> L1 p0 s1": 2e6, "L1 p0 s1 -> L2 p0 s0": 2e6, "L2 p0 s0 -> L1 p0 s0": 2e6,
	}
	got := map[string]float64{}
	for id, v := range tr.Links {
		if v != 0 {
			got[linkNamed(f, id)] = v
		}
	}
	if len(got) != len(want) {
		t.Errorf("loaded links %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	if j := tr.Jobs[0]; j.Pairs != 4 || j.Injected != 8e6 || j.ID != "ring" {
		t.Errorf("job traffic %q: %d pairs, %v B/s", j.ID, j.Pairs, j.Injected)
	}
}

// bruteJob counts the routes of a job pair by pair with Route.
func bruteJob(t *testing.T, f *Fabric, r Routing, j Job) ([]int64, int64) {
	t.Helper()
	pairs, err := j.Pattern.Pairs(len(j.Nodes))
	if err != nil {
		t.Fatal(err)
	}
	routes := make([]int64, len(f.Links))
	var onRoutes int64
	for _, p := range pairs {
		path, err := Route(f, r, j.Nodes[p[0]], j.Nodes[p[1]])
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range path.Links {
			routes[id]++
		}
		onRoutes += int64(len(path.Links))
	}
	return routes, onRoutes
}

// Conservation, per job, for every pattern, placement and routing: the
// trees give the loads of following every pair; bytes injected (the
// L0→L1 links) = bytes delivered (L1→L0) = Pairs × BytesPerPair; every
// switch forwards what it receives; the loads sum to Σ pairs × links on
// the route; and the total is the sum of the jobs.
func TestJobLoadsConservation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []Spec{KAry(4), KAry(6), parallelSpec, twoLevelSpec} {
		f := build(t, s)
		tab, err := TableOf(context.Background(), f, Random(f, 5))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Placement{Contiguous, Fragmented, PodBased, Stride} {
			n := len(f.Nodes)
			sizes := []int{min(8, n/3), min(4, n/4), min(9, n/4), 1}
			if p == PodBased {
				per := s.L1PerPod * s.NodesPerL1
				sizes = []int{min(4, per), min(4, per), min(2, per), 1}
			}
			placed, err := Place(f, p, sizes, rng.Uint64())
			if err != nil {
				t.Fatalf("%v %v: %v", s, p, err)
			}
			side := isqrt(len(placed[2]))
			jobs := []Job{
				{ID: "a2a", Nodes: placed[0], Pattern: AllToAll(), BytesPerPair: 3},
				{ID: "ring", Nodes: placed[1], Pattern: Ring(), BytesPerPair: 0.5},
				{ID: "tr", Nodes: placed[2][:side*side], Pattern: Transpose(), BytesPerPair: 1},
				{ID: "perm", Nodes: placed[0], Pattern: Permutation(rng.Uint64()), BytesPerPair: 7},
				{ID: "st", Nodes: placed[0][:len(placed[0])/4*4], Pattern: Stencil3D(2, 2, len(placed[0])/4, true), BytesPerPair: 1},
				{ID: "gather", Nodes: placed[2], Pattern: Gather(), BytesPerPair: 2},
				{ID: "scatter", Nodes: placed[2], Pattern: Scatter(), BytesPerPair: 2},
				{ID: "shift", Nodes: placed[3], Pattern: Shift(-5), BytesPerPair: 1},
			}
			for ri, r := range []Routing{DModK(f), Random(f, 9), tab} {
				tr := jobLoads(t, f, r, jobs)
				total := make([]float64, len(f.Links))
				for ji, j := range jobs {
					jt := tr.Jobs[ji]
					want, onRoutes := bruteJob(t, f, r, j)
					if !slices.Equal(jt.Routes, want) {
						t.Fatalf("%v %v routing %d job %s: tree routes differ from per-pair routes", s, p, ri, j.ID)
					}
					var in, out, sum float64
					for id, v := range jt.Links {
						if v != float64(jt.Routes[id])*j.BytesPerPair {
							t.Fatalf("job %s link %d: %v bytes for %d routes", j.ID, id, v, jt.Routes[id])
						}
						switch f.Links[id].Kind {
						case Up01:
							in += v
						case Down10:
							out += v
						}
						sum += v
						total[id] += v
					}
					pairs, _ := j.Pattern.Pairs(len(j.Nodes))
					if jt.Pairs != int64(len(pairs)) || in != jt.Injected || out != jt.Injected || jt.Injected != float64(jt.Pairs)*j.BytesPerPair ||
						sum != float64(onRoutes)*j.BytesPerPair {
						t.Fatalf("%v %v routing %d job %s: pairs %d, injected %v, in %v, out %v, sum %v, on routes %d",
							s, p, ri, j.ID, jt.Pairs, jt.Injected, in, out, sum, onRoutes)
					}
					for sw, x := range f.Switches {
						var recv, fwd int64
						for _, port := range x.Ports {
							recv += jt.Routes[port.In]
							fwd += jt.Routes[port.Out]
						}
						if recv != fwd {
							t.Fatalf("job %s: %s receives %d routes, forwards %d", j.ID, f.Switches[sw].Name, recv, fwd)
						}
					}
				}
				if !slices.Equal(total, tr.Links) {
					t.Fatalf("%v %v routing %d: the total is not the sum of the jobs", s, p, ri)
				}
			}
		}
	}
}

func TestJobLoadsDeterministic(t *testing.T) {
	f := build(t, Paper3200())
	placed, err := Place(f, Fragmented, []int{1000, 500, 64}, 11)
	if err != nil {
		t.Fatal(err)
	}
	jobs := []Job{
		{ID: "a", Nodes: placed[0], Pattern: AllToAll(), BytesPerPair: 0.1},
		{ID: "b", Nodes: placed[1], Pattern: Ring(), BytesPerPair: 1.3},
		{ID: "c", Nodes: placed[2], Pattern: Stencil3D(4, 4, 4, false), BytesPerPair: 1e9},
	}
	r := Random(f, 3)
	a := jobLoads(t, f, r, jobs)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b := jobLoads(t, f, r, jobs)
	runtime.GOMAXPROCS(3)
	c := jobLoads(t, f, r, jobs)
	if !slices.Equal(a.Links, b.Links) || !slices.Equal(a.Links, c.Links) {
		t.Error("job loads depend on GOMAXPROCS")
	}
	// An all-to-all job gives AllToAllLoads's counts.
	l := loads(t, f, r, placed[0])
	if !slices.Equal(a.Jobs[0].Routes, l.Links) || a.Jobs[0].Pairs != l.Pairs {
		t.Error("an all-to-all job's routes differ from AllToAllLoads")
	}
}

func TestJobLoadsErrors(t *testing.T) {
	f := build(t, KAry(4))
	ctx := context.Background()
	for _, c := range []struct {
		r    Routing
		jobs []Job
		want string
	}{
		{DModK(f), []Job{{ID: "x", Nodes: []int{0, 16}}}, `job 0 ("x"): fattree: nodes[1] = 16`},
		{DModK(f), []Job{{ID: "ok", Nodes: []int{1}}, {ID: "y", Nodes: []int{2, 2}}}, `job 1 ("y")`},
		{DModK(f), []Job{{ID: "e"}}, "has no nodes"},
		{DModK(f), []Job{{ID: "t", Nodes: []int{1, 2, 3}, Pattern: Transpose()}}, "square"},
		{DModK(f), []Job{{ID: "b", Nodes: []int{1, 2}, BytesPerPair: -1}}, "BytesPerPair = -1"},
		{DModK(f), []Job{{ID: "b", Nodes: []int{1, 2}, BytesPerPair: math.NaN()}}, "BytesPerPair = NaN"},
		{DModK(f), []Job{{ID: "b", Nodes: []int{1, 2}, BytesPerPair: math.Inf(1)}}, "BytesPerPair = +Inf"},
		{NewTable(f), []Job{{ID: "z", Nodes: []int{1, 2}}}, `loads of job 0 ("z"): switch L1 p0 s1 has no route to node 1`},
		{portRouting{f, 3}, []Job{{ID: "l", Nodes: []int{9, 0}}}, "routes to node 9 loop"},
	} {
		_, err := JobLoads(ctx, f, c.r, c.jobs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error containing %q", c.jobs, err, c.want)
		}
	}
}

func TestPlace(t *testing.T) {
	f := build(t, KAry(4)) // 4 pods of 4 nodes, 2 per L1
	for _, c := range []struct {
		p     Placement
		sizes []int
		want  [][]int
	}{
		{Contiguous, []int{3, 2}, [][]int{{0, 1, 2}, {3, 4}}},
		{Stride, []int{3, 6}, [][]int{{0, 2, 4}, {6, 8, 10, 12, 14, 1}}},
		// First fit per pod: 3 → pod 0; 2 → pod 1; 1 → pod 0's last node;
		// 8 → the first two free pods, 2 and 3.
		{PodBased, []int{3, 2, 1, 8}, [][]int{{0, 1, 2}, {4, 5}, {3}, {8, 9, 10, 11, 12, 13, 14, 15}}},
	} {
		got, err := Place(f, c.p, c.sizes, 0)
		if err != nil || !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("%v %v: %v %v, want %v", c.p, c.sizes, got, err, c.want)
		}
	}
	a, _ := Place(f, Fragmented, []int{5, 5}, 1)
	b, _ := Place(f, Fragmented, []int{5, 5}, 1)
	c, _ := Place(f, Fragmented, []int{5, 5}, 2)
	if !slices.EqualFunc(a, b, slices.Equal) || slices.EqualFunc(a, c, slices.Equal) || !slices.IsSorted(a[0]) {
		t.Errorf("fragmented: %v, again %v, seed 2 %v", a, b, c)
	}
	for _, c := range []struct {
		p     Placement
		sizes []int
		want  string
	}{
		{Contiguous, []int{10, 7}, "need 17 nodes, the fabric has 16"},
		{Stride, []int{0}, "job 0 has 0 nodes"},
		{PodBased, []int{3, 3, 3, 3, 3}, "no pod has room for job 4"},
		{PodBased, []int{1, 14}, "no pod has room for job 1"},
		{Placement(9), []int{1}, "unknown placement Placement(9)"},
	} {
		if _, err := Place(f, c.p, c.sizes, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want %q", c.p, c.sizes, err, c.want)
		}
	}
}

func TestActive(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	jobs := []Job{
		{ID: "a", Start: t0, End: t0.Add(time.Hour)},
		{ID: "b", Start: t0.Add(time.Hour)},
		{ID: "c"},
	}
	ids := func(js []Job) (s []string) {
		for _, j := range js {
			s = append(s, j.ID)
		}
		return s
	}
	if got := ids(Active(jobs, t0)); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("at t0: %v", got)
	}
	if got := ids(Active(jobs, t0.Add(time.Hour))); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("at t0+1h: %v", got)
	}
}

// The jobs of TestCaseStudy2, fragmented, on Paper3200: 640,000 pairs.
func BenchmarkJobLoadsCaseStudy2(b *testing.B) {
	f := build(b, Paper3200())
	placed, err := Place(f, Fragmented, []int{400, 200, 200, 800}, 2026)
	if err != nil {
		b.Fatal(err)
	}
	jobs := []Job{
		{ID: "ring-a", Nodes: placed[0], Pattern: Ring(), BytesPerPair: 1e9},
		{ID: "ring-b", Nodes: placed[1], Pattern: Ring(), BytesPerPair: 1e9},
		{ID: "ring-c", Nodes: placed[2], Pattern: Ring(), BytesPerPair: 1e9},
		{ID: "qbox", Nodes: placed[3], Pattern: AllToAll(), BytesPerPair: 1e7},
	}
	r := DModK(f)
	for b.Loop() {
		if _, err := JobLoads(context.Background(), f, r, jobs); err != nil {
			b.Fatal(err)
		}
	}
}
