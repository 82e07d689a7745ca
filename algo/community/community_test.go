package community

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"superstep/datasets"
	"superstep/sdk/graph"
)

// twoTriangles is 0-1-2 and 3-4-5 joined by the edge 2–3 of weight
// bridge (unweighted if 1), directed if asked (each edge one arc).
func twoTriangles(directed bool, bridge float64) *graph.Graph {
	b := graph.NewBuilder(directed)
	for _, e := range [][2]int64{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}} {
		b.AddEdge(e[0], e[1])
	}
	b.AddWeightedEdge(2, 3, bridge)
	return b.Build()
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestModularityByHand(t *testing.T) {
	split := []int32{0, 0, 0, 1, 1, 1}
	one := []int32{0, 0, 0, 0, 0, 0}
	alone := []int32{0, 1, 2, 3, 4, 5}
	cases := []struct {
		name  string
		g     *graph.Graph
		part  []int32
		gamma float64
		want  float64
	}{
		// m = 7, in = 6, tot = 7 and 7: 6/7 − 2·(7/14)² = 5/14.
		{"split", twoTriangles(false, 1), split, 1, 5.0 / 14},
		{"split directed", twoTriangles(true, 1), split, 1, 5.0 / 14},
		{"split, labels renamed", twoTriangles(false, 1), []int32{-7, -7, -7, 1 << 30, 1 << 30, 1 << 30}, 1, 5.0 / 14},
		{"one community", twoTriangles(false, 1), one, 1, 0},
		// Degrees 2, 2, 3, 3, 2, 2: −(4·4 + 2·9)/196.
		{"singletons", twoTriangles(false, 1), alone, 1, -34.0 / 196},
		{"split, γ = 2", twoTriangles(false, 1), split, 2, 6.0/7 - 1},
		{"split, γ = 0", twoTriangles(false, 1), split, 0, 6.0 / 7},
		// Bridge of weight 2: m = 8, tot = 8 and 8: 6/8 − 2·(1/2)² = 1/4.
		{"weighted", twoTriangles(false, 2), split, 1, 0.25},
	}
	for _, c := range cases {
		if got := Modularity(c.g, c.part, c.gamma); !near(got, c.want) {
			t.Errorf("%s: Q = %.15f, want %.15f", c.name, got, c.want)
		}
	}

	// A self-loop counts twice in its vertex's strength and once inside
	// (networkx and igraph give −0.125 and 0).
	b := graph.NewBuilder(false)
	b.AddEdge(0, 1)
	b.AddEdge(0, 0)
	loop := b.Build()
	if got := Modularity(loop, []int32{0, 1}, 1); !near(got, -0.125) {
		t.Errorf("self-loop apart: Q = %g, want -0.125", got)
	}
	if got := Modularity(loop, []int32{0, 0}, 1); !near(got, 0) {
		t.Errorf("self-loop together: Q = %g, want 0", got)
	}
	if got := Modularity(graph.FromEdges(3, false, nil), []int32{0, 1, 2}, 1); got != 0 {
		t.Errorf("no edges: Q = %g", got)
	}
	mustPanic(t, "community.Modularity: 2 labels for 6 vertices", func() { Modularity(twoTriangles(false, 1), []int32{0, 1}, 1) })
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want %q", want)
		}
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Fatalf("panic %v, want %q", r, want)
		}
	}()
	f()
}

// checkResult checks that a result is consistent with itself and g.
func checkResult(t *testing.T, g *graph.Graph, r Result, gamma float64) {
	t.Helper()
	if len(r.Membership) != g.NumVertices() {
		t.Fatalf("%d labels for %d vertices", len(r.Membership), g.NumVertices())
	}
	next := int32(0)
	for _, c := range r.Membership {
		if c > next || c < 0 {
			t.Fatalf("communities not numbered by lowest vertex: %v", r.Membership)
		}
		if c == next {
			next++
		}
	}
	if int(next) != r.NumCommunities {
		t.Fatalf("NumCommunities = %d, found %d", r.NumCommunities, next)
	}
	if q := Modularity(g, r.Membership, gamma); math.Abs(q-r.Modularity) > 1e-9 {
		t.Fatalf("Modularity = %.15f, recomputed %.15f", r.Modularity, q)
	}
	if len(r.Levels) != len(r.LevelModularity) {
		t.Fatalf("%d levels, %d level modularities", len(r.Levels), len(r.LevelModularity))
	}
	for l, part := range r.Levels {
		if q := Modularity(g, part, gamma); math.Abs(q-r.LevelModularity[l]) > 1e-9 {
			t.Fatalf("level %d: modularity %.15f, recomputed %.15f", l, r.LevelModularity[l], q)
		}
		if l > 0 && r.LevelModularity[l] < r.LevelModularity[l-1] {
			t.Fatalf("level modularity falls: %v", r.LevelModularity)
		}
		if r.LevelModularity[l] > r.Modularity+1e-12 {
			t.Fatalf("level %d has modularity %g above the result's %g", l, r.LevelModularity[l], r.Modularity)
		}
		// Each level's communities are unions of the previous level's.
		if l > 0 {
			up := map[int32]int32{}
			for v, c := range r.Levels[l-1] {
				if d, ok := up[c]; ok && d != part[v] {
					t.Fatalf("level %d splits a community of level %d", l, l-1)
				}
				up[c] = part[v]
			}
		}
	}
}

func TestLouvainSmall(t *testing.T) {
	for _, g := range []*graph.Graph{twoTriangles(false, 1), twoTriangles(true, 1), twoTriangles(false, 0.5)} {
		r := mustLouvain(t, g, Options{})
		checkResult(t, g, r, 1)
		if want := []int32{0, 0, 0, 1, 1, 1}; !slices.Equal(r.Membership, want) {
			t.Errorf("%v: membership %v, want %v", g, r.Membership, want)
		}
	}
	// No vertices, no edges, only isolated vertices and a self-loop.
	if r := mustLouvain(t, graph.FromEdges(0, false, nil), Options{}); len(r.Membership) != 0 || r.NumCommunities != 0 || r.Modularity != 0 {
		t.Errorf("empty graph: %+v", r)
	}
	r := mustLouvain(t, graph.FromEdges(3, false, nil), Options{})
	if !slices.Equal(r.Membership, []int32{0, 1, 2}) || r.Modularity != 0 {
		t.Errorf("edgeless graph: %+v", r)
	}
	r = mustLouvain(t, graph.FromEdges(3, false, [][2]int{{0, 0}, {1, 2}}), Options{})
	checkResult(t, graph.FromEdges(3, false, [][2]int{{0, 0}, {1, 2}}), r, 1)
	if !slices.Equal(r.Membership, []int32{0, 1, 1}) || !near(r.Modularity, 0.5) {
		t.Errorf("self-loop and an edge: %+v", r)
	}
}

func TestLouvainErrors(t *testing.T) {
	b := graph.NewBuilder(false)
	b.AddWeightedEdge(0, 1, -1)
	neg := b.Build()
	b = graph.NewBuilder(true)
	b.AddWeightedEdge(0, 1, math.NaN())
	nan := b.Build()
	for _, c := range []struct {
		g    *graph.Graph
		o    Options
		want string
	}{
		{neg, Options{}, "community.Louvain: edge weight -1"},
		{nan, Options{}, "community.Louvain: edge weight NaN"},
		{twoTriangles(false, 1), Options{Resolution: -1}, "community.Louvain: resolution -1"},
		{nil, Options{}, "community.Louvain: nil graph"},
	} {
		r, err := Louvain(context.Background(), c.g, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
		if r.Membership != nil {
			t.Errorf("%q: a membership with the error", c.want)
		}
	}
}

// mustLouvain runs Louvain without a deadline and fails the test on an
// error.
func mustLouvain(t testing.TB, g *graph.Graph, o Options) Result {
	t.Helper()
	r, err := Louvain(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLouvainKarate: the optimum is 0.4198 (Brandes et al. 2008); 0.4188
// is the best partition into four communities Louvain usually finds.
func TestLouvainKarate(t *testing.T) {
	g := datasets.Must(datasets.Open("karate"))
	for seed := uint64(0); seed < 30; seed++ {
		r := mustLouvain(t, g, Options{Seed: seed})
		checkResult(t, g, r, 1)
		if r.Modularity < 0.4188 {
			t.Errorf("seed %d: Q = %.4f, want ≥ 0.4188", seed, r.Modularity)
		}
	}
}

// TestLouvainLesMiserables: the optimum is 0.5600 unweighted and 0.5667
// with the co-appearance weights (igraph's community_optimal_modularity).
func TestLouvainLesMiserables(t *testing.T) {
	g := datasets.Must(datasets.Open("lesmis"))
	total := 0.0
	for v := 0; v < g.NumVertices(); v++ {
		for _, w := range g.EdgeWeights(v) {
			total += w
		}
	}
	valjean, _ := g.Index(11)
	if !g.Weighted() || g.NumVertices() != 77 || g.NumEdges() != 254 || total != 2*820 || g.Label(valjean) != "Valjean" || g.Degree(valjean) != 36 {
		t.Fatalf("lesmis: %v, total weight %g, vertex 11 %q of degree %d", g, total/2, g.Label(valjean), g.Degree(valjean))
	}
	for seed := uint64(0); seed < 30; seed++ {
		r := mustLouvain(t, g, Options{Seed: seed})
		checkResult(t, g, r, 1)
		if r.Modularity < 0.555 {
			t.Errorf("seed %d: Q = %.4f, want ≥ 0.555", seed, r.Modularity)
		}
	}
	// Unweighted, the same graph reaches its own optimum too.
	b := graph.NewBuilder(false)
	for v := 0; v < g.NumVertices(); v++ {
		for _, u := range g.Neighbors(v) {
			if int(u) > v {
				b.AddEdge(int64(v), int64(u))
			}
		}
	}
	u := b.Build()
	if r := mustLouvain(t, u, Options{}); r.Modularity < 0.5599 {
		t.Errorf("unweighted: Q = %.4f, want 0.5600", r.Modularity)
	}
}

func planted(t testing.TB, n int, mixing float64, seed uint64) (*graph.Graph, []int32) {
	g, comm, err := datasets.Planted(datasets.PlantedOptions{N: n, AvgDegree: 20, MaxDegree: 100, Mixing: mixing, MinCommunity: 30, MaxCommunity: 300, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g, comm
}

func TestLouvainPlanted(t *testing.T) {
	for _, mu := range []float64{0.1, 0.3, 0.5} {
		g, comm := planted(t, 5000, mu, 1)
		r := mustLouvain(t, g, Options{Seed: 1})
		checkResult(t, g, r, 1)
		nmi := NMI(r.Membership, comm)
		truth := Modularity(g, comm, 1)
		t.Logf("μ = %.1f: Q = %.4f (planted %.4f), %d communities, NMI %.3f, levels %v", mu, r.Modularity, truth, r.NumCommunities, nmi, r.LevelModularity)
		if nmi < 0.95 || r.Modularity < truth-0.005 {
			t.Errorf("μ = %.1f: NMI %.3f, Q = %.4f against the planted %.4f", mu, nmi, r.Modularity, truth)
		}
	}
}

// fingerprint hashes a partition.
func fingerprint(p []int32) uint64 {
	h := fnv.New64a()
	var buf []byte
	for _, c := range p {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(c))
	}
	h.Write(buf)
	return h.Sum64()
}

// TestLouvainDeterministic: a seed gives one result whatever the number
// of workers; the pinned fingerprints catch a change of results (old
// notebooks would no longer re-run bit for bit).
func TestLouvainDeterministic(t *testing.T) {
	g, _ := planted(t, 20000, 0.3, 2)
	lesmis := datasets.Must(datasets.Open("lesmis"))
	for _, c := range []struct {
		name string
		g    *graph.Graph
		want uint64
	}{{"planted", g, 0xb720e34dc5110886}, {"lesmis", lesmis, 0xc3b5cf3e41ae71e1}} {
		var first Result
		for i, w := range []int{1, 2, 3, 8} {
			r := mustLouvain(t, c.g, Options{Seed: 5, Workers: w})
			if i == 0 {
				first = r
				t.Logf("%s: fingerprint %#x, Q = %.15f", c.name, fingerprint(r.Membership), r.Modularity)
				if got := fingerprint(r.Membership); got != c.want {
					t.Errorf("%s: fingerprint %#x, want %#x", c.name, got, c.want)
				}
				continue
			}
			if !slices.Equal(r.Membership, first.Membership) || r.Modularity != first.Modularity || !slices.Equal(r.LevelModularity, first.LevelModularity) {
				t.Errorf("%s: %d workers give another result than 1", c.name, w)
			}
		}
	}
	a := mustLouvain(t, g, Options{Seed: 1})
	b := mustLouvain(t, g, Options{Seed: 2})
	if slices.Equal(a.Membership, b.Membership) {
		t.Error("seeds 1 and 2 give the same partition")
	}
}

func TestLouvainResolution(t *testing.T) {
	g := datasets.Must(datasets.Open("lesmis"))
	prev := 0
	for _, gamma := range []float64{0.25, 0.5, 1, 2, 4} {
		r := mustLouvain(t, g, Options{Resolution: gamma})
		checkResult(t, g, r, gamma)
		t.Logf("γ = %g: %d communities, Q_γ = %.4f", gamma, r.NumCommunities, r.Modularity)
		if r.NumCommunities <= prev {
			t.Errorf("γ = %g: %d communities, not more than %d at the lower resolution", gamma, r.NumCommunities, prev)
		}
		prev = r.NumCommunities
	}
	// Options.Resolution 0 means 1.
	if a, b := mustLouvain(t, g, Options{}), mustLouvain(t, g, Options{Resolution: 1}); !slices.Equal(a.Membership, b.Membership) {
		t.Error("Resolution 0 is not 1")
	}
}

func TestLouvainMaxLevels(t *testing.T) {
	g, _ := planted(t, 5000, 0.3, 1)
	one := mustLouvain(t, g, Options{MaxLevels: 1})
	checkResult(t, g, one, 1)
	all := mustLouvain(t, g, Options{})
	checkResult(t, g, all, 1)
	if len(one.Levels) != 1 || len(all.Levels) < 2 {
		t.Errorf("levels: %d with MaxLevels 1, %d without", len(one.Levels), len(all.Levels))
	}
}

func TestNMI(t *testing.T) {
	a := []int32{0, 0, 1, 1}
	cases := []struct {
		a, b []int32
		want float64
	}{
		{a, a, 1},
		{a, []int32{5, 5, -2, -2}, 1},           // renamed
		{a, []int32{0, 1, 0, 1}, 0},             // independent
		{[]int32{0, 0, 0}, []int32{3, 3, 3}, 1}, // one community each
		{[]int32{0, 0, 0, 0}, a, 0},             // one community against two
		{nil, nil, 1},
		// H(a) = ln 2, H(b) = −(¾ ln ¾ + ¼ ln ¼), I = ½ ln 4/3 + ¼ ln 2/3 + ¼ ln 2:
		// 0.3437110184854509 by igraph's compare_communities.
		{a, []int32{0, 0, 0, 1}, 0.3437110184854509},
	}
	for _, c := range cases {
		if got := NMI(c.a, c.b); !near(got, c.want) {
			t.Errorf("NMI(%v, %v) = %.16f, want %.16f", c.a, c.b, got, c.want)
		}
		if got := NMI(c.b, c.a); !near(got, c.want) {
			t.Errorf("NMI(%v, %v) = %.16f, want %.16f (not symmetric)", c.b, c.a, got, c.want)
		}
	}
	// A permutation of a large partition's labels, and an independent one.
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 20000
	x, y, z := make([]int32, n), make([]int32, n), make([]int32, n)
	perm := rng.Perm(50)
	for i := range x {
		x[i] = int32(rng.IntN(50))
		y[i] = int32(perm[x[i]]) * 3
		z[i] = int32(rng.IntN(50))
	}
	if got := NMI(x, y); !near(got, 1) {
		t.Errorf("permuted labels: NMI %g", got)
	}
	if got := NMI(x, z); got > 0.02 {
		t.Errorf("independent partitions: NMI %g", got)
	}
	mustPanic(t, "partitions of 1 and 2 vertices", func() { NMI([]int32{0}, []int32{0, 1}) })
}

func BenchmarkLouvain(b *testing.B) {
	g, _, err := datasets.Planted(datasets.PlantedOptions{N: 64000, AvgDegree: 25, MaxDegree: 250, Mixing: 0.18, MinCommunity: 50, MaxCommunity: 1000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			var r Result
			for b.Loop() {
				r = mustLouvain(b, g, Options{Workers: w})
			}
			b.ReportMetric(r.Modularity, "Q")
		})
	}
}
