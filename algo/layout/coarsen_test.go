package layout

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"superstep/datasets"
	"superstep/sdk/graph"
)

// checkContraction verifies a coarse level against its fine level: every
// fine vertex has a parent, vertex weights add up, and the coarse edge
// weights count exactly the fine arcs between different groups.
func checkContraction(t *testing.T, fine, coarse *level) {
	t.Helper()
	if len(fine.parent) != fine.n {
		t.Fatalf("parent has %d entries for %d vertices", len(fine.parent), fine.n)
	}
	var fw, cw float64
	for v := int32(0); v < int32(fine.n); v++ {
		fw += fine.vweight(v)
		if p := fine.parent[v]; p < 0 || int(p) >= coarse.n {
			t.Fatalf("vertex %d has parent %d of %d", v, p, coarse.n)
		}
	}
	for c := int32(0); c < int32(coarse.n); c++ {
		cw += coarse.vweight(c)
	}
	if fw != cw {
		t.Fatalf("vertex weight %v became %v", fw, cw)
	}
	// Fine arcs between groups, weighted, per coarse pair.
	want := map[[2]int32]float64{}
	for v := 0; v < fine.n; v++ {
		ws := fine.weights(v)
		for i, u := range fine.nbrs(v) {
			a, b := fine.parent[v], fine.parent[u]
			if a == b {
				continue
			}
			w := 1.0
			if ws != nil {
				w = float64(ws[i])
			}
			want[[2]int32{a, b}] += w
		}
	}
	got := map[[2]int32]float64{}
	for c := 0; c < coarse.n; c++ {
		ws := coarse.weights(c)
		seen := map[int32]bool{}
		for i, d := range coarse.nbrs(c) {
			if seen[d] || int(d) == c {
				t.Fatalf("coarse vertex %d: neighbour %d repeated or itself", c, d)
			}
			seen[d] = true
			got[[2]int32{int32(c), d}] = float64(ws[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d coarse arcs, want %d", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("coarse arc %v weight %v, want %v", k, got[k], w)
		}
	}
}

func TestMatchingContraction(t *testing.T) {
	g, err := datasets.BarabasiAlbert(6000, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	fine := mustBase(t, g)
	for round := 0; fine.n > 20 && round < 7; round++ {
		match := must[[]int32](t)(matchGroups(context.Background(), fine, rng))
		for v, m := range match {
			if m >= 0 && (match[m] != int32(v) || int(m) == v) {
				t.Fatalf("round %d: match not symmetric at %d", round, v)
			}
		}
		coarse := mustContract(t, testEngine(2), fine, func(v int32) int32 {
			if m := match[v]; m >= 0 && m < v {
				return m
			}
			return v
		})
		checkContraction(t, fine, coarse)
		// Any number of workers gathers the same arcs in the same order.
		one := mustContract(t, testEngine(1), fine, func(v int32) int32 {
			if m := match[v]; m >= 0 && m < v {
				return m
			}
			return v
		})
		if !slices.Equal(one.off, coarse.off) || !slices.Equal(one.adj, coarse.adj) || !slices.Equal(one.ew, coarse.ew) {
			t.Fatalf("round %d: 1 and 2 workers contract differently", round)
		}
		if coarse.n > fine.n*3/4 {
			t.Errorf("round %d: %d → %d vertices", round, fine.n, coarse.n)
		}
		fine = coarse
	}
}

func TestMISContraction(t *testing.T) {
	g := mustLattice(t, 30, 30)
	rng := rand.New(rand.NewPCG(1, 1))
	fine := mustBase(t, g)
	agg := must[[]int32](t)(misGroups(context.Background(), fine, rng))
	for v, a := range agg {
		if agg[a] != a {
			t.Fatalf("vertex %d in aggregate %d, which is not its own aggregate", v, a)
		}
		if int(a) != v && !adjacent(fine, int(a), v) && !shareNeighbour(fine, int(a), v) {
			t.Fatalf("vertex %d in the aggregate of %d, neither adjacent nor sharing a neighbour", v, a)
		}
	}
	coarse := mustContract(t, testEngine(2), fine, func(v int32) int32 { return agg[v] })
	checkContraction(t, fine, coarse)
	if coarse.n > fine.n/2 {
		t.Errorf("%d → %d vertices", fine.n, coarse.n)
	}
}

func shareNeighbour(l *level, a, b int) bool {
	for _, u := range l.nbrs(a) {
		if adjacent(l, int(u), b) {
			return true
		}
	}
	return false
}

func adjacent(l *level, a, b int) bool {
	for _, u := range l.nbrs(a) {
		if int(u) == b {
			return true
		}
	}
	return false
}

// Stars defeat plain matching (one leaf per level); pairing leaves through
// their hub keeps the hierarchy short.
func TestStarCoarsensQuickly(t *testing.T) {
	g := graph.FromEdges(10001, false, starEdges(10000))
	for _, c := range []Coarsening{Matching, MIS} {
		levels, err := testEngine(2).hierarchy(mustBase(t, g), c, rand.New(rand.NewPCG(1, 1)), 0)
		if err != nil {
			t.Fatal(err)
		}
		top := levels[len(levels)-1]
		t.Logf("%v: %d levels, coarsest %d vertices", c, len(levels), top.n)
		if top.n > coarsestSize || len(levels) > 20 {
			t.Errorf("%v: %d levels down to %d vertices", c, len(levels), top.n)
		}
	}
}

// A directed graph's arcs become undirected edges, each pair once.
func TestDirectedBase(t *testing.T) {
	g := graph.FromEdges(4, true, [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 2}, {3, 1}, {3, 1}})
	l := mustBase(t, g)
	want := [][]int32{{1}, {0, 2, 3}, {1}, {1}}
	for v := range want {
		got := l.nbrs(v)
		if len(got) != len(want[v]) {
			t.Fatalf("vertex %d: neighbours %v, want %v", v, got, want[v])
		}
		for i := range got {
			if got[i] != want[v][i] {
				t.Fatalf("vertex %d: neighbours %v, want %v", v, got, want[v])
			}
		}
	}
}

func testEngine(workers int) *engine {
	return &engine{ctx: context.Background(), workers: workers}
}

// must returns a function that returns v, failing the test on err: for
// the functions that can only fail on cancellation.
func must[T any](t testing.TB) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func mustBase(t testing.TB, g *graph.Graph) *level {
	t.Helper()
	return must[*level](t)(baseLevel(context.Background(), g))
}

func mustContract(t testing.TB, e *engine, fine *level, group func(v int32) int32) *level {
	t.Helper()
	return must[*level](t)(e.contract(fine, group))
}
