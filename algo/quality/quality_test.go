package quality

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"superstep/datasets"
	"superstep/sdk/graph"
)

// gridLayout draws the rows×cols lattice of datasets.Lattice as a grid.
func gridLayout(rows, cols int) []float64 {
	pos := make([]float64, 2*rows*cols)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := r*cols + c
			pos[2*v], pos[2*v+1] = float64(c), float64(r)
		}
	}
	return pos
}

func randomLayout(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	pos := make([]float64, 2*n)
	for i := range pos {
		pos[i] = rng.Float64()
	}
	return pos
}

func lattice(t testing.TB, rows, cols int) *graph.Graph {
	g, err := datasets.Lattice(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestPairwiseCorrelationInvariance(t *testing.T) {
	a := randomLayout(300, 1)
	if r := PairwiseCorrelation(a, a, 1, 0); !near(r, 1, 1e-12) {
		t.Errorf("identical layouts: r = %v, want 1", r)
	}
	// Rotate by 30°, reflect, scale by 7 and shift: distances scale by 7.
	b := make([]float64, len(a))
	c, s := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
	for i := 0; i < len(a); i += 2 {
		x, y := a[i], -a[i+1]
		b[i] = 7*(c*x-s*y) + 100
		b[i+1] = 7*(s*x+c*y) - 3
	}
	if r := PairwiseCorrelation(a, b, 1, 0); !near(r, 1, 1e-12) {
		t.Errorf("scaled, rotated, reflected copy: r = %v, want 1", r)
	}
	if r := PairwiseCorrelation(a, b, 0.1, 5); !near(r, 1, 1e-12) {
		t.Errorf("scaled copy, 10%% sample: r = %v, want 1", r)
	}
	if r := PairwiseCorrelation(a, randomLayout(300, 2), 0.1, 5); math.Abs(r) > 0.1 {
		t.Errorf("independent random layouts: r = %v, want near 0", r)
	}
	if r1, r2 := PairwiseCorrelation(a, randomLayout(300, 2), 0.1, 5), PairwiseCorrelation(a, randomLayout(300, 2), 0.1, 5); r1 != r2 {
		t.Errorf("same seed, different r: %v, %v", r1, r2)
	}
	if r := PairwiseCorrelation(a[:2], a[:2], 1, 0); !math.IsNaN(r) {
		t.Errorf("one vertex: r = %v, want NaN", r)
	}
}

// A 10% sample estimates the all-pairs coefficient closely.
func TestPairwiseCorrelationSample(t *testing.T) {
	a := gridLayout(30, 30)
	b := slices.Clone(a)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range b {
		b[i] += 3 * rng.NormFloat64()
	}
	all := PairwiseCorrelation(a, b, 1, 0)
	some := PairwiseCorrelation(a, b, 0.1, 1)
	if !near(all, some, 0.01) || all < 0.5 || all > 0.99 {
		t.Errorf("all pairs r = %v, 10%% sample r = %v", all, some)
	}
}

func TestGridLayoutScores(t *testing.T) {
	g := lattice(t, 40, 30)
	grid := gridLayout(40, 30)
	if np := NeighbourhoodPreservation(g, grid, 0, 0); np != 1 {
		t.Errorf("lattice drawn as a grid: neighbourhood preservation %v, want 1", np)
	}
	if np := NeighbourhoodPreservation(g, grid, 100, 3); np != 1 {
		t.Errorf("lattice drawn as a grid, 100 sampled: neighbourhood preservation %v, want 1", np)
	}
	// Hop distance is the Manhattan distance: close to, not exactly, the
	// Euclidean one.
	if r := HopCorrelation(g, grid, 0, 0); r < 0.95 || r >= 1 {
		t.Errorf("grid: hop correlation %v, want in [0.95, 1)", r)
	}
	if s := Stress(g, grid, 0, 0); s <= 0 || s > 0.05 {
		t.Errorf("grid: stress %v, want in (0, 0.05]", s)
	}

	random := randomLayout(g.NumVertices(), 4)
	if np := NeighbourhoodPreservation(g, random, 0, 0); np > 0.02 {
		t.Errorf("random layout: neighbourhood preservation %v, want near 0", np)
	}
	if r := HopCorrelation(g, random, 20, 1); math.Abs(r) > 0.1 {
		t.Errorf("random layout: hop correlation %v, want near 0", r)
	}
	if s := Stress(g, random, 20, 1); s < 0.2 {
		t.Errorf("random layout: stress %v, want large", s)
	}
}

// A path drawn on a line has layout distance equal to hop distance.
func TestPathOnALine(t *testing.T) {
	const n = 50
	var edges [][2]int
	for i := 0; i+1 < n; i++ {
		edges = append(edges, [2]int{i, i + 1})
	}
	g := graph.FromEdges(n, false, edges)
	pos := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		pos[2*i] = 3 * float64(i) // scale does not matter
		pos[2*i+1] = 1
	}
	if s := Stress(g, pos, 0, 0); s > 1e-12 {
		t.Errorf("path on a line: stress %v, want 0", s)
	}
	if r := HopCorrelation(g, pos, 0, 0); !near(r, 1, 1e-12) {
		t.Errorf("path on a line: hop correlation %v, want 1", r)
	}
	// Directed: the arcs count both ways.
	d := graph.FromEdges(n, true, edges)
	if r := HopCorrelation(d, pos, 0, 0); !near(r, 1, 1e-12) {
		t.Errorf("directed path on a line: hop correlation %v, want 1", r)
	}
	if np := NeighbourhoodPreservation(d, pos, 0, 0); np != 1 {
		t.Errorf("directed path on a line: neighbourhood preservation %v, want 1", np)
	}
}

// Hand-checked: a star with centre 0 and leaves 1..4, the leaves drawn
// at distance 1 from the centre except leaf 4, which is drawn beside leaf 1.
func TestNeighbourhoodHand(t *testing.T) {
	g := graph.FromEdges(5, false, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}})
	pos := []float64{0, 0, 1, 0, 0, 1, -1, 0, 1.1, 0.1}
	// Centre: neighbours {1,2,3,4}, nearest 4 = all others: 1.
	// Leaf 1: {0} vs nearest {4}: 0. Leaf 2: {0} vs {0}: 1. Leaf 3: 1.
	// Leaf 4: {0} vs {1}: 0. Mean 3/5.
	if np := NeighbourhoodPreservation(g, pos, 0, 0); !near(np, 0.6, 1e-12) {
		t.Errorf("star: %v, want 0.6", np)
	}
}

func TestKDTreeNearest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n = 2000
	pos := make([]float64, 2*n)
	for i := range pos {
		pos[i] = float64(rng.IntN(40)) // many ties and duplicates
	}
	tree := newKDTree(pos)
	var q knnQuery
	for trial := 0; trial < 300; trial++ {
		v := rng.IntN(n)
		k := 1 + rng.IntN(30)
		got := slices.Clone(tree.nearest(&q, pos[2*v], pos[2*v+1], int32(v), k))
		type cand struct {
			d2 float64
			u  int32
		}
		var all []cand
		for u := 0; u < n; u++ {
			if u != v {
				dx, dy := pos[2*u]-pos[2*v], pos[2*u+1]-pos[2*v+1]
				all = append(all, cand{dx*dx + dy*dy, int32(u)})
			}
		}
		sort.Slice(all, func(i, j int) bool {
			return all[i].d2 < all[j].d2 || (all[i].d2 == all[j].d2 && all[i].u < all[j].u)
		})
		var want []int32
		for _, c := range all[:k] {
			want = append(want, c.u)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("vertex %d, k %d: got %v, want %v", v, k, got, want)
		}
	}
}

func TestLengthPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a layout of the wrong length")
		}
	}()
	Stress(lattice(t, 2, 2), []float64{1, 2}, 0, 0)
}
