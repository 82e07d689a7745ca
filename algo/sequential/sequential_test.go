package sequential

import (
	"math"
	"slices"
	"testing"

	"superstep/sdk/graph"
)

func path(n int, directed bool) *graph.Graph {
	var e [][2]int
	for i := 0; i+1 < n; i++ {
		e = append(e, [2]int{i, i + 1})
	}
	return graph.FromEdges(n, directed, e)
}

func star(leaves int, directed bool) *graph.Graph {
	var e [][2]int
	for i := 1; i <= leaves; i++ {
		e = append(e, [2]int{0, i})
	}
	return graph.FromEdges(leaves+1, directed, e)
}

func cycle(n int, directed bool) *graph.Graph {
	var e [][2]int
	for i := 0; i < n; i++ {
		e = append(e, [2]int{i, (i + 1) % n})
	}
	return graph.FromEdges(n, directed, e)
}

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.IsInf(a[i], 1) != math.IsInf(b[i], 1) || (!math.IsInf(a[i], 1) && math.Abs(a[i]-b[i]) > tol) {
			return false
		}
	}
	return true
}

func TestBFS(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.Graph
		src  int
		want []int
	}{
		{"path", path(5, false), 2, []int{2, 1, 0, 1, 2}},
		{"directed path", path(5, true), 2, []int{-1, -1, 0, 1, 2}},
		{"star from leaf", star(4, false), 3, []int{1, 2, 2, 0, 2}},
		{"directed star from leaf", star(4, true), 3, []int{-1, -1, -1, 0, -1}},
		{"cycle", cycle(6, false), 0, []int{0, 1, 2, 3, 2, 1}},
		{"directed cycle", cycle(6, true), 0, []int{0, 1, 2, 3, 4, 5}},
		{"two components", graph.FromEdges(5, false, [][2]int{{0, 1}, {2, 3}, {3, 4}}), 3, []int{-1, -1, 1, 0, 1}},
	}
	for _, c := range cases {
		if got := BFS(c.g, c.src); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDijkstra(t *testing.T) {
	inf := math.Inf(1)
	// unweighted: the BFS hops
	if got := Dijkstra(cycle(6, false), 0); !near(got, []float64{0, 1, 2, 3, 2, 1}, 0) {
		t.Errorf("unweighted cycle: %v", got)
	}
	if got := Dijkstra(path(4, true), 1); !near(got, []float64{inf, 0, 1, 2}, 0) {
		t.Errorf("directed path: %v", got)
	}
	// weighted: the long way round is shorter
	b := graph.NewBuilder(false)
	b.AddWeightedEdge(0, 1, 10)
	b.AddWeightedEdge(0, 2, 1)
	b.AddWeightedEdge(2, 3, 2)
	b.AddWeightedEdge(3, 1, 3)
	b.AddWeightedEdge(1, 4, 0.5)
	b.AddVertex(5)
	g := b.Build()
	want := []float64{0, 6, 1, 3, 6.5, inf}
	if got := Dijkstra(g, 0); !near(got, want, 1e-12) {
		t.Errorf("weighted: %v, want %v", got, want)
	}
	// parallel edges: the lighter one counts
	b = graph.NewBuilder(true)
	b.AddWeightedEdge(0, 1, 5)
	b.AddWeightedEdge(0, 1, 2)
	if got := Dijkstra(b.Build(), 0); !near(got, []float64{0, 2}, 0) {
		t.Errorf("parallel: %v", got)
	}
	// negative lengths are refused
	b = graph.NewBuilder(true)
	b.AddWeightedEdge(0, 1, -1)
	neg := b.Build()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("negative length: no panic")
			}
		}()
		Dijkstra(neg, 0)
	}()
	defer func() {
		if recover() == nil {
			t.Error("bad source: no panic")
		}
	}()
	Dijkstra(neg, 2)
}

func TestPageRank(t *testing.T) {
	// a directed cycle is stationary at 1/n
	if got := PageRank(cycle(5, true), 0.85, 30); !near(got, []float64{0.2, 0.2, 0.2, 0.2, 0.2}, 1e-15) {
		t.Errorf("cycle: %v", got)
	}
	// zero iterations: the start
	if got := PageRank(star(3, false), 0.85, 0); !near(got, []float64{0.25, 0.25, 0.25, 0.25}, 0) {
		t.Errorf("start: %v", got)
	}
	// undirected star with 3 leaves, one iteration by hand:
	// centre: 0.15/4 + 0.85·3·(1/4)/1 = 0.0375 + 0.6375 = 0.675
	// leaf:   0.15/4 + 0.85·(1/4)/3  = 0.0375 + 0.0708333…
	leaf := 0.0375 + 0.85*0.25/3
	if got := PageRank(star(3, false), 0.85, 1); !near(got, []float64{0.675, leaf, leaf, leaf}, 1e-15) {
		t.Errorf("star, one step: %v", got)
	}
	// fixed point of the undirected star: c = 0.0375 + 0.85·3l, l = 0.0375 + 0.85·c/3
	// ⇒ c = 0.0375 + 0.85·3·0.0375 + 0.85²·c ⇒ c = (0.0375·(1+2.55))/(1−0.7225)
	c := 0.0375 * 3.55 / (1 - 0.7225)
	l := 0.0375 + 0.85*c/3
	if got := PageRank(star(3, false), 0.85, 200); !near(got, []float64{c, l, l, l}, 1e-12) {
		t.Errorf("star, converged: %v, want centre %v leaves %v", got, c, l)
	}
	// directed path 0→1: vertex 1 dangles, its mass is lost.
	// step 1: r0 = 0.075, r1 = 0.075 + 0.85·0.5 = 0.5;
	// step 2: r0 = 0.075, r1 = 0.075 + 0.85·0.075 = 0.13875.
	got := PageRank(path(2, true), 0.85, 2)
	if !near(got, []float64{0.075, 0.13875}, 1e-15) {
		t.Errorf("dangling: %v", got)
	}
	if s := got[0] + got[1]; s >= 1 {
		t.Errorf("dangling mass should be lost, sum %v", s)
	}
	if got := PageRank(graph.FromEdges(0, true, nil), 0.85, 3); len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
}

func TestComponents(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.Graph
		want []int
	}{
		{"path", path(4, false), []int{0, 0, 0, 0}},
		{"star", star(3, true), []int{0, 0, 0, 0}},
		{"cycle", cycle(5, true), []int{0, 0, 0, 0, 0}},
		{"two components and an isolated vertex",
			graph.FromEdges(7, false, [][2]int{{5, 3}, {3, 1}, {0, 6}, {6, 4}}),
			[]int{0, 1, 2, 1, 0, 1, 0}},
		// directed edges pointing away from the small index: still one component
		{"weakly connected", graph.FromEdges(4, true, [][2]int{{3, 2}, {2, 1}, {3, 0}}), []int{0, 0, 0, 0}},
	}
	for _, c := range cases {
		if got := Components(c.g); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
