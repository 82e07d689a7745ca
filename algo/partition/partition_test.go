package partition

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"superstep/sdk/graph"
)

// lattice is a rows×cols grid graph, vertex r*cols+c.
func lattice(rows, cols int) *graph.Graph {
	var e [][2]int
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := r*cols + c
			if c+1 < cols {
				e = append(e, [2]int{v, v + 1})
			}
			if r+1 < rows {
				e = append(e, [2]int{v, v + cols})
			}
		}
	}
	return graph.FromEdges(rows*cols, false, e)
}

// twoCliques is two s-cliques joined by the single edge (s-1, s).
func twoCliques(s int, directed bool) *graph.Graph {
	var e [][2]int
	for base := 0; base < 2*s; base += s {
		for i := 0; i < s; i++ {
			for j := i + 1; j < s; j++ {
				e = append(e, [2]int{base + i, base + j})
			}
		}
	}
	e = append(e, [2]int{s - 1, s})
	return graph.FromEdges(2*s, directed, e)
}

func TestHashAndRange(t *testing.T) {
	g := lattice(10, 10)
	h := Hash(g, 4)
	if !slices.Equal(h, Hash(g, 4)) {
		t.Error("Hash is not deterministic")
	}
	st := Quality(g, h, 4)
	if st.Balance > 1.3 {
		t.Errorf("hash loads %v too uneven", st.Loads)
	}
	// the hash depends on the input id, not on the index
	b := graph.NewBuilder(false)
	b.AddEdge(1000, 7)
	b.AddEdge(7, 42)
	g2 := b.Build()
	h2 := Hash(g2, 5)
	for v := 0; v < 3; v++ {
		if want := int32(mix(uint64(g2.ID(v))) % 5); h2[v] != want {
			t.Errorf("vertex id %d on %d, want %d", g2.ID(v), h2[v], want)
		}
	}

	r := Range(g, 3)
	st = Quality(g, r, 3)
	if !slices.Equal(st.Loads, []int{34, 33, 33}) && !slices.Equal(st.Loads, []int{33, 33, 34}) && !slices.Equal(st.Loads, []int{33, 34, 33}) {
		t.Errorf("range loads %v", st.Loads)
	}
	for v := 1; v < len(r); v++ {
		if r[v] < r[v-1] {
			t.Fatalf("range not monotone at %d", v)
		}
	}
	// rows of 10 in 3 ranges: cuts are 2 row boundaries (10 edges each) plus
	// the partial-row edges around each boundary.
	if st.EdgeCut > 2*(10+1) {
		t.Errorf("range cut %d", st.EdgeCut)
	}
}

func TestQualityHand(t *testing.T) {
	// path 0-1-2-3 split in the middle: one cut edge
	g := graph.FromEdges(4, false, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 3}})
	st := Quality(g, []int32{0, 0, 1, 1}, 2)
	if st.EdgeCut != 1 || st.CutFraction != 0.25 || st.Balance != 1 || !slices.Equal(st.Loads, []int{2, 2}) {
		t.Errorf("undirected path: %+v", st)
	}
	// directed: each cut arc counts
	d := graph.FromEdges(3, true, [][2]int{{0, 1}, {1, 0}, {1, 2}})
	st = Quality(d, []int32{0, 1, 1}, 3)
	if st.EdgeCut != 2 || !slices.Equal(st.Loads, []int{1, 2, 0}) || st.Balance != 2 || !slices.Equal(st.EdgeLoads, []int{1, 2, 0}) {
		t.Errorf("directed: %+v", st)
	}
	defer func() {
		if recover() == nil {
			t.Error("worker out of range: no panic")
		}
	}()
	Quality(g, []int32{0, 0, 2, 1}, 2)
}

func TestLabelPropagationLattice(t *testing.T) {
	g := lattice(40, 40)
	k := 4
	hash := Quality(g, Hash(g, k), k)
	t0 := time.Now()
	part := mustLP(t, g, k, Options{Seed: 1})
	el := time.Since(t0)
	lp := Quality(g, part, k)
	t.Logf("40×40 lattice, k=4: hash cut %d (%.2f), label propagation cut %d (%.3f), balance %.3f, %v",
		hash.EdgeCut, hash.CutFraction, lp.EdgeCut, lp.CutFraction, lp.Balance, el)
	if lp.EdgeCut*3 > hash.EdgeCut {
		t.Errorf("label propagation cut %d, want ≤ 1/3 of hash's %d", lp.EdgeCut, hash.EdgeCut)
	}
	if lp.Balance > 1.1 {
		t.Errorf("balance %.3f, loads %v", lp.Balance, lp.Loads)
	}
	if again := mustLP(t, g, k, Options{Seed: 1}); !slices.Equal(part, again) {
		t.Error("same seed, different partitions")
	}
	// edge loads are balanced when asked for
	pe := mustLP(t, g, k, Options{Seed: 2, Load: Edges})
	qe := Quality(g, pe, k)
	if qe.EdgeBalance > 1.1 || qe.EdgeCut*3 > hash.EdgeCut {
		t.Errorf("edge loads: cut %d, edge balance %.3f", qe.EdgeCut, qe.EdgeBalance)
	}
}

func TestLabelPropagationTwoCliques(t *testing.T) {
	for _, size := range []int{10, 16} {
		for _, directed := range []bool{false, true} {
			g := twoCliques(size, directed)
			hash := Quality(g, Hash(g, 2), 2)
			for seed := uint64(0); seed < 5; seed++ {
				part := mustLP(t, g, 2, Options{Seed: seed})
				lp := Quality(g, part, 2)
				if lp.EdgeCut != 1 || lp.Balance > 1.1 {
					t.Errorf("cliques of %d, directed=%v, seed %d: cut %d (hash %d), loads %v",
						size, directed, seed, lp.EdgeCut, hash.EdgeCut, lp.Loads)
				}
			}
		}
	}
}

func TestLabelPropagationTrivial(t *testing.T) {
	g := lattice(5, 5)
	for _, p := range [][]int32{mustLP(t, g, 1, Options{}), Hash(g, 1), Range(g, 1)} {
		for v, w := range p {
			if w != 0 {
				t.Fatalf("k=1: vertex %d on worker %d", v, w)
			}
		}
	}
	empty := graph.FromEdges(0, false, nil)
	if p := mustLP(t, empty, 3, Options{}); len(p) != 0 {
		t.Errorf("empty graph: %v", p)
	}
	// isolated vertices only: nothing to improve, stays the hash partition
	iso := graph.FromEdges(6, false, nil)
	if p := mustLP(t, iso, 2, Options{}); !slices.Equal(p, Hash(iso, 2)) {
		t.Errorf("isolated vertices moved: %v", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("k=0: no panic")
		}
	}()
	Hash(g, 0)
}

// mustLP runs LabelPropagation without a deadline and fails the test on
// an error.
func mustLP(t *testing.T, g *graph.Graph, k int, o Options) []int32 {
	t.Helper()
	part, err := LabelPropagation(context.Background(), g, k, o)
	if err != nil {
		t.Fatal(err)
	}
	return part
}

// A cancelled context stops LabelPropagation with an error that wraps it.
func TestLabelPropagationCancelled(t *testing.T) {
	g := graph.FromEdges(3, false, [][2]int{{0, 1}, {1, 2}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	part, err := LabelPropagation(ctx, g, 2, Options{})
	if !errors.Is(err, context.Canceled) || part != nil {
		t.Fatalf("got %v, %v; want no partition and context.Canceled", part, err)
	}
}
