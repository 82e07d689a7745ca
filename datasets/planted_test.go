package datasets

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"superstep/sdk/graph"
)

// plantedStats measures a planted graph: mean and largest degree, the
// fraction of edges between communities, the mean over vertices of the
// fraction of their edges that leave their community, and the community
// sizes.
type plantedStats struct {
	avgDegree, mixing, vertexMixing float64
	maxDegree                       int
	sizes                           []int
}

func measurePlanted(g *graph.Graph, comm []int32) plantedStats {
	var s plantedStats
	cross := 0
	for v := 0; v < g.NumVertices(); v++ {
		out := 0
		for _, u := range g.Neighbors(v) {
			if comm[u] != comm[v] {
				out++
			}
		}
		cross += out
		s.maxDegree = max(s.maxDegree, g.Degree(v))
		if g.Degree(v) > 0 {
			s.vertexMixing += float64(out) / float64(g.Degree(v))
		}
		for int(comm[v]) >= len(s.sizes) {
			s.sizes = append(s.sizes, 0)
		}
		s.sizes[comm[v]]++
	}
	s.avgDegree = float64(g.NumArcs()) / float64(g.NumVertices())
	s.mixing = float64(cross) / float64(g.NumArcs())
	s.vertexMixing /= float64(g.NumVertices())
	return s
}

func TestPlanted(t *testing.T) {
	for _, o := range []PlantedOptions{
		{N: 10000, AvgDegree: 20, MaxDegree: 100, Mixing: 0.3, MinCommunity: 20, MaxCommunity: 200, Seed: 1},
		{N: 10000, AvgDegree: 20, MaxDegree: 100, Mixing: 0, MinCommunity: 150, MaxCommunity: 500, Seed: 2},
		{N: 10000, AvgDegree: 10, MaxDegree: 50, Mixing: 0.6, MinCommunity: 10, MaxCommunity: 100, DegreeExponent: 2, CommunityExponent: 1, Seed: 3},
		{N: 5000, AvgDegree: 30, MaxDegree: 30, Mixing: 0.1, MinCommunity: 50, MaxCommunity: 50, Seed: 4},
		{N: 3000, AvgDegree: 8, MaxDegree: 40, Mixing: 1, MinCommunity: 5, MaxCommunity: 1000, DegreeExponent: 3, CommunityExponent: 2, Seed: 5},
	} {
		name := fmt.Sprintf("N=%d,k=%g,μ=%g", o.N, o.AvgDegree, o.Mixing)
		t.Run(name, func(t *testing.T) {
			g, comm, err := Planted(o)
			if err != nil {
				t.Fatal(err)
			}
			if g.Directed() || g.Weighted() || g.NumVertices() != o.N || len(comm) != o.N {
				t.Fatalf("%v with %d labels", g, len(comm))
			}
			checkSimple(t, g)
			for v := 0; v < o.N; v++ {
				if g.ID(v) != int64(v) {
					t.Fatalf("ID(%d) = %d", v, g.ID(v))
				}
			}
			s := measurePlanted(g, comm)
			t.Logf("%v: mean degree %.2f, largest %d, mixing %.4f (per vertex %.4f), %d communities of %d..%d",
				g, s.avgDegree, s.maxDegree, s.mixing, s.vertexMixing, len(s.sizes), slices.Min(s.sizes), slices.Max(s.sizes))
			if math.Abs(s.avgDegree-o.AvgDegree) > 0.03*o.AvgDegree {
				t.Errorf("mean degree %.2f, want %g", s.avgDegree, o.AvgDegree)
			}
			if s.maxDegree > o.MaxDegree {
				t.Errorf("largest degree %d, more than %d", s.maxDegree, o.MaxDegree)
			}
			if math.Abs(s.mixing-o.Mixing) > 0.01 || math.Abs(s.vertexMixing-o.Mixing) > 0.02 {
				t.Errorf("mixing %.4f, per vertex %.4f, want %g", s.mixing, s.vertexMixing, o.Mixing)
			}
			// Sizes within bounds, largest first, adding up to N.
			sum := 0
			for c, size := range s.sizes {
				sum += size
				if size < o.MinCommunity || size > o.MaxCommunity {
					t.Errorf("community %d has %d vertices, outside %d..%d", c, size, o.MinCommunity, o.MaxCommunity)
				}
				if c > 0 && size > s.sizes[c-1] {
					t.Errorf("community %d (%d) is larger than community %d (%d)", c, size, c-1, s.sizes[c-1])
				}
			}
			if sum != o.N {
				t.Errorf("sizes add up to %d", sum)
			}
		})
	}
}

// TestPlantedPowerLaws checks the shape of the distributions: degrees
// from about the smallest degree k_min up to MaxDegree, most of them small;
// community sizes similarly.
func TestPlantedPowerLaws(t *testing.T) {
	o := PlantedOptions{N: 50000, AvgDegree: 20, MaxDegree: 400, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 2000, DegreeExponent: 2.5, CommunityExponent: 1.5, Seed: 9}
	g, comm, err := Planted(o)
	if err != nil {
		t.Fatal(err)
	}
	kmin, _ := o.check()
	degrees := make([]int, g.NumVertices())
	for v := range degrees {
		degrees[v] = g.Degree(v)
	}
	slices.Sort(degrees)
	// The density k^-2.5 on [kmin, 400]: P(k > 2·kmin) ≈ 2^-1.5 = 0.354.
	above := 0
	for _, d := range degrees {
		if float64(d) > 2*kmin {
			above++
		}
	}
	frac := float64(above) / float64(len(degrees))
	t.Logf("k_min %.2f, degrees %d..%d, median %d, P(k > 2 k_min) = %.3f", kmin, degrees[0], degrees[len(degrees)-1], degrees[len(degrees)/2], frac)
	if frac < 0.30 || frac > 0.40 || degrees[len(degrees)-1] < 200 || float64(degrees[0]) < math.Floor(kmin)-1 {
		t.Errorf("degrees do not look like the power law: min %d, max %d, P(k > 2 k_min) = %.3f", degrees[0], degrees[len(degrees)-1], frac)
	}
	s := measurePlanted(g, comm)
	small := 0
	for _, size := range s.sizes {
		if size < 2*o.MinCommunity {
			small++
		}
	}
	// s^-1.5 on [20, 2000]: P(s < 40) = (1 − 2^-0.5)/(1 − 100^-0.5) ≈ 0.325.
	if f := float64(small) / float64(len(s.sizes)); f < 0.2 || f > 0.45 {
		t.Errorf("%d of %d communities below %d", small, len(s.sizes), 2*o.MinCommunity)
	}
}

func TestPlantedReproducible(t *testing.T) {
	o := PlantedOptions{N: 2000, AvgDegree: 12, MaxDegree: 50, Mixing: 0.25, MinCommunity: 20, MaxCommunity: 100, Seed: 42}
	g1, c1, _ := Planted(o)
	g2, c2, _ := Planted(o)
	o.Seed = 43
	g3, c3, _ := Planted(o)
	if fingerprint(g1) != fingerprint(g2) || !slices.Equal(c1, c2) {
		t.Error("the same seed gave two graphs")
	}
	if fingerprint(g1) == fingerprint(g3) || slices.Equal(c1, c3) {
		t.Error("seeds 42 and 43 gave the same graph")
	}
	// Pinned: a change means old notebooks no longer re-run bit for bit.
	if got, want := fingerprint(g1), uint64(0x576938d7e7a9ea9f); got != want {
		t.Errorf("fingerprint %#x, want %#x", got, want)
	}
	// The exponents' zero values are their defaults.
	o.Seed, o.DegreeExponent, o.CommunityExponent = 42, 2.5, 1.5
	if g4, _, _ := Planted(o); fingerprint(g4) != fingerprint(g1) {
		t.Error("DegreeExponent 0 and CommunityExponent 0 are not 2.5 and 1.5")
	}
}

// benchmarkGraph is the planted graph the Louvain and pipeline benchmarks
// use: 64,000 vertices and about 800,000 edges.
var benchmarkGraph = PlantedOptions{N: 64000, AvgDegree: 25, MaxDegree: 250, Mixing: 0.18, MinCommunity: 50, MaxCommunity: 1000, Seed: 1}

// TestPlantedBenchmarkGraph checks the size of the benchmark graph (its
// speed is BenchmarkPlanted's).
func TestPlantedBenchmarkGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 800,000 edges")
	}
	g, comm, err := Planted(benchmarkGraph)
	if err != nil {
		t.Fatal(err)
	}
	s := measurePlanted(g, comm)
	t.Logf("%v, %d communities, mixing %.4f", g, len(s.sizes), s.mixing)
	if g.NumEdges() < 780000 || g.NumEdges() > 820000 {
		t.Errorf("%d edges, want about 800,000", g.NumEdges())
	}
}

// BenchmarkPlanted generates the benchmark graph (it used to be a test
// that it takes less than 5 s; it takes about 0.3 s on two cores).
func BenchmarkPlanted(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Planted(benchmarkGraph); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPlantedErrors(t *testing.T) {
	good := PlantedOptions{N: 1000, AvgDegree: 10, MaxDegree: 50, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 100}
	if _, _, err := Planted(good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(o *PlantedOptions)
		want   string
	}{
		{func(o *PlantedOptions) { o.N = 1 }, "N must be"},
		{func(o *PlantedOptions) { o.N = -5 }, "N must be"},
		{func(o *PlantedOptions) { o.MaxDegree = 0 }, "MaxDegree must be"},
		{func(o *PlantedOptions) { o.MaxDegree = 1000 }, "MaxDegree must be"},
		{func(o *PlantedOptions) { o.AvgDegree = 60 }, "AvgDegree must be"},
		{func(o *PlantedOptions) { o.AvgDegree = 0.5 }, "AvgDegree must be"},
		{func(o *PlantedOptions) { o.AvgDegree = math.NaN() }, "AvgDegree must be"},
		{func(o *PlantedOptions) { o.AvgDegree = 1.5 }, "AvgDegree = 1.5 is too low"},
		{func(o *PlantedOptions) { o.Mixing = -0.1 }, "Mixing must be"},
		{func(o *PlantedOptions) { o.Mixing = 1.5 }, "Mixing must be"},
		{func(o *PlantedOptions) { o.DegreeExponent = -2 }, "DegreeExponent must be"},
		{func(o *PlantedOptions) { o.CommunityExponent = math.Inf(1) }, "CommunityExponent must be"},
		{func(o *PlantedOptions) { o.MinCommunity = 0 }, "MinCommunity"},
		{func(o *PlantedOptions) { o.MinCommunity = 200 }, "MinCommunity ≤ MaxCommunity"},
		{func(o *PlantedOptions) { o.N, o.MaxDegree, o.MinCommunity, o.MaxCommunity = 100, 50, 200, 300 }, "MinCommunity = 200 is more than N"},
		{func(o *PlantedOptions) { o.MaxCommunity = 40 }, "raise MaxCommunity"},
		{func(o *PlantedOptions) { o.N, o.MinCommunity, o.MaxCommunity = 150, 80, 100 }, "no community sizes in 80..100 add up to N = 150"},
	} {
		o := good
		c.change(&o)
		g, comm, err := Planted(o)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "datasets.Planted: ") {
			t.Errorf("%+v: %v, want an error with %q", o, err, c.want)
		}
		if g != nil || comm != nil {
			t.Errorf("%+v: a graph with the error", o)
		}
	}
}

func ExamplePlanted() {
	g, communities, err := Planted(PlantedOptions{
		N: 1000, AvgDegree: 15, MaxDegree: 50, Mixing: 0.2,
		MinCommunity: 20, MaxCommunity: 100, Seed: 1,
	})
	if err != nil {
		panic(err)
	}
	inside := 0
	for v := 0; v < g.NumVertices(); v++ {
		for _, u := range g.Neighbors(v) {
			if communities[u] == communities[v] {
				inside++
			}
		}
	}
	fmt.Println(g)
	fmt.Println(slices.Max(communities)+1, "communities")
	fmt.Printf("%.0f%% of the edges inside communities\n", 100*float64(inside)/float64(g.NumArcs()))
	// Output:
	// undirected graph: 1000 vertices, 7460 edges
	// 23 communities
	// 80% of the edges inside communities
}
