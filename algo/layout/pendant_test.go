package layout

import (
	"context"
	"math"
	"testing"

	"superstep/sdk/graph"
)

// A ring of 12 with a path of two and a star of four leaves hanging off
// vertex 0, plus a separate path of three (a tree component): the seven
// hanging vertices are pendant, the ring is the core, and the tree
// component stays whole.
func TestPendantTrees(t *testing.T) {
	var edges [][2]int
	for v := range 12 {
		edges = append(edges, [2]int{v, (v + 1) % 12})
	}
	edges = append(edges, [2]int{0, 12}, [2]int{12, 13}) // path 0–12–13
	for leaf := 14; leaf < 18; leaf++ {
		edges = append(edges, [2]int{13, leaf}) // star at 13
	}
	edges = append(edges, [2]int{18, 19}, [2]int{19, 20}) // a tree component
	g := graph.FromEdges(21, false, edges)
	base, err := baseLevel(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pendantTrees(context.Background(), base)
	if err != nil || p == nil {
		t.Fatalf("pendantTrees: %v, %v", p, err)
	}
	if len(p.order) != 6 {
		t.Errorf("%d pendant vertices %v, want 6 (12..17)", len(p.order), p.order)
	}
	wantCore := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20}
	if len(p.core) != len(wantCore) {
		t.Fatalf("core %v, want %v", p.core, wantCore)
	}
	for i, v := range wantCore {
		if p.core[i] != v {
			t.Fatalf("core %v, want %v", p.core, wantCore)
		}
	}
	if p.parent[12] != 0 || p.parent[13] != 12 || p.parent[15] != 13 {
		t.Errorf("parents of 12, 13, 15: %d %d %d", p.parent[12], p.parent[13], p.parent[15])
	}

	// Laid out, every pendant vertex is at most its depth in steps (one
	// unit, the mean edge length: the star's √4/3 < 1) from the ring
	// vertex it hangs from, and outside the ring.
	pos := mustSFDP(t, g, Options{Seed: 3})
	cx, cy := 0.0, 0.0
	for v := range 12 {
		cx += pos[2*v] / 12
		cy += pos[2*v+1] / 12
	}
	radius := math.Hypot(pos[0]-cx, pos[1]-cy)
	for v := 12; v < 18; v++ {
		d := math.Hypot(pos[2*v]-pos[0], pos[2*v+1]-pos[1])
		depth := map[int]float64{12: 1, 13: 2}[v]
		if depth == 0 {
			depth = 3
		}
		if d > depth*1.01 {
			t.Errorf("vertex %d is %.2f from vertex 0", v, d)
		}
		if r := math.Hypot(pos[2*v]-cx, pos[2*v+1]-cy); r < radius {
			t.Errorf("vertex %d is inside the ring: %.2f from its centre, vertex 0 %.2f", v, r, radius)
		}
	}
}
