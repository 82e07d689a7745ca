package graph

import (
	"reflect"
	"strings"
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
	for a := 0; a < g.NumArcs(); a++ {
		if w := g.Weight(a); w != 1 {
			t.Errorf("Weight(%d) = %v in an unweighted graph, want 1", a, w)
		}
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
	// Weight reads the same weights arc by arc: 10→20 (2.5), 10→30 (0.5),
	// 20→30 (1, given by AddEdge).
	var ws []float64
	for v := 0; v < g.NumVertices(); v++ {
		lo, hi := g.ArcRange(v)
		for a := lo; a < hi; a++ {
			ws = append(ws, g.Weight(a))
		}
	}
	if !reflect.DeepEqual(ws, []float64{2.5, 0.5, 1}) {
		t.Fatalf("Weight arc by arc: %v", ws)
	}
	if _, ok := g.Index(99); ok {
		t.Fatal("unknown id found")
	}
	r := g.Reverse()
	if r.Degree(v30) != 2 || r.Degree(v10) != 0 || !reflect.DeepEqual(r.EdgeWeights(v30), []float64{0.5, 1}) {
		t.Fatalf("reverse: degrees %d %d, weights into 30 %v", r.Degree(v30), r.Degree(v10), r.EdgeWeights(v30))
	}
}

// BenchmarkWeight sums every arc's weight with the Weight accessor and,
// for comparison, with the nil-checked EdgeWeights slice it replaces, on
// an unweighted and a weighted graph of 1,000,000 arcs.
func BenchmarkWeight(b *testing.B) {
	for _, weighted := range []bool{false, true} {
		bl := NewBuilder(false)
		for v := int64(0); v < 500_000; v++ {
			w := 1.0
			if weighted {
				w = float64(v%7) + 0.5
			}
			bl.AddWeightedEdge(v, (v*7919+1)%500_000, w)
		}
		g := bl.Build()
		name := map[bool]string{false: "unweighted", true: "weighted"}[weighted]
		b.Run(name+"/Weight", func(b *testing.B) {
			sum := 0.0
			for b.Loop() {
				for v := 0; v < g.NumVertices(); v++ {
					lo, _ := g.ArcRange(v)
					for i := range g.Neighbors(v) {
						sum += g.Weight(lo + i)
					}
				}
			}
			_ = sum
		})
		b.Run(name+"/EdgeWeights", func(b *testing.B) {
			sum := 0.0
			for b.Loop() {
				for v := 0; v < g.NumVertices(); v++ {
					ws := g.EdgeWeights(v)
					for i := range g.Neighbors(v) {
						w := 1.0
						if ws != nil {
							w = ws[i]
						}
						sum += w
					}
				}
			}
			_ = sum
		})
	}
}

// TestFromCSR: a path 1-2-3 held in part (vertex 2's arcs only) reads
// back as given; inconsistent arrays are refused, naming what is wrong.
func TestFromCSR(t *testing.T) {
	g, err := FromCSR(false, []int64{1, 2, 3}, []int{0, 0, 2, 2}, []int32{0, 2}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 3 || g.NumEdges() != 2 || g.NumArcs() != 2 || g.Degree(0) != 0 || g.Degree(1) != 2 || g.Weighted() {
		t.Fatalf("%v: degrees %d %d %d", g, g.Degree(0), g.Degree(1), g.Degree(2))
	}
	if v, ok := g.Index(3); !ok || v != 2 {
		t.Errorf("Index(3) = %d, %v", v, ok)
	}
	for _, tc := range []struct {
		ids     []int64
		offsets []int
		targets []int32
		weights []float64
		want    string
	}{
		{[]int64{1, 2}, []int{0, 1}, []int32{1}, nil, "2 offsets for 2 vertices, want 3"},
		{[]int64{1, 2}, []int{0, 1, 2}, []int32{1}, nil, "offsets run from 0 to 2, want 0 to 1"},
		{[]int64{1, 2}, []int{0, 1, 1}, []int32{1}, []float64{1, 2}, "2 weights for 1 targets"},
		{[]int64{1, 2}, []int{0, 1, 1}, []int32{5}, nil, "vertex 0 has a target 5 outside 0..1"},
		{[]int64{1, 2}, []int{0, 2, 2}, []int32{1, 0}, nil, "vertex 0's targets are not sorted"},
		{[]int64{7, 7}, []int{0, 0, 0}, nil, nil, "id 7 is given to two vertices"},
	} {
		if _, err := FromCSR(false, tc.ids, tc.offsets, tc.targets, tc.weights, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
