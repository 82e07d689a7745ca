package graph

import (
	"reflect"
	"testing"
)

func TestUndirectedCSR(t *testing.T) {
	// A triangle 0-1-2 plus a pendant 3 on 2 and a self-loop on 3.
	g := FromEdges(4, false, [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 3}})
	if g.NumVertices() != 4 || g.NumEdges() != 5 || g.NumArcs() != 9 {
		t.Fatalf("%v arcs=%d", g, g.NumArcs())
	}
	want := [][]int32{{1, 2}, {0, 2}, {0, 1, 3}, {2, 3}}
	for v, w := range want {
		if !reflect.DeepEqual(g.Neighbors(v), w) {
			t.Errorf("Neighbors(%d) = %v, want %v", v, g.Neighbors(v), w)
		}
	}
	if g.Weighted() || g.EdgeWeights(0) != nil {
		t.Error("unweighted graph has weights")
	}
}

func TestDirectedWeightedWithIDs(t *testing.T) {
	b := NewBuilder(true)
	b.AddWeightedEdge(10, 20, 2.5)
	b.AddEdge(20, 30)
	b.AddWeightedEdge(10, 30, 0.5)
	b.SetLabel(30, "thirty")
	g := b.Build()
	if !g.Directed() || !g.Weighted() || g.NumEdges() != 3 {
		t.Fatal(g)
	}
	v10, _ := g.Index(10)
	v30, _ := g.Index(30)
	if g.ID(v10) != 10 || g.Label(v30) != "thirty" || g.Label(v10) != "10" {
		t.Fatal("ids and labels")
	}
	if !reflect.DeepEqual(g.EdgeWeights(v10), []float64{2.5, 0.5}) {
		t.Fatalf("weights %v", g.EdgeWeights(v10))
	}
	if _, ok := g.Index(99); ok {
		t.Fatal("unknown id found")
	}
	r := g.Reverse()
	if r.Degree(v30) != 2 || r.Degree(v10) != 0 || !reflect.DeepEqual(r.EdgeWeights(v30), []float64{0.5, 1}) {
		t.Fatalf("reverse: degrees %d %d, weights into 30 %v", r.Degree(v30), r.Degree(v10), r.EdgeWeights(v30))
	}
}
