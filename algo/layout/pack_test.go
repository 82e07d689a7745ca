package layout

import (
	"math"
	"testing"

	"superstep/algo/quality"
	"superstep/sdk/graph"
)

// A lattice with a triangle, an edge and three isolated vertices beside it
// is drawn with every small component close around the lattice, none
// inside the lattice's box, each in a box of its own, and the lattice
// itself still a grid.
func TestPackKeepsComponentsTogether(t *testing.T) {
	const side = 20
	var edges [][2]int
	lat := mustLattice(t, side, side)
	for v := 0; v < lat.NumVertices(); v++ {
		for _, u := range lat.Neighbors(v) {
			if int(u) > v {
				edges = append(edges, [2]int{v, int(u)})
			}
		}
	}
	n0 := side * side
	edges = append(edges, [2]int{n0, n0 + 1}, [2]int{n0 + 1, n0 + 2}, [2]int{n0 + 2, n0}, [2]int{n0 + 3, n0 + 4})
	n := n0 + 8 // n0+5, n0+6, n0+7 are isolated
	g := graph.FromEdges(n, false, edges)
	pos := mustSFDP(t, g, Options{Seed: 1})

	box := func(vs ...int) [4]float64 {
		b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, v := range vs {
			b[0], b[1] = min(b[0], pos[2*v]), min(b[1], pos[2*v+1])
			b[2], b[3] = max(b[2], pos[2*v]), max(b[3], pos[2*v+1])
		}
		return b
	}
	lattice := make([]int, n0)
	for v := range lattice {
		lattice[v] = v
	}
	main := box(lattice...)
	w, h := main[2]-main[0], main[3]-main[1]
	all := make([]int, n)
	for v := range all {
		all[v] = v
	}
	whole := box(all...)
	// Everything within 4 mean edge lengths of the lattice's box (1 after
	// normalising), the frame less than 1.5 times the lattice's.
	if whole[0] < main[0]-4 || whole[2] > main[2]+4 || whole[1] < main[1]-4 || whole[3] > main[3]+4 {
		t.Fatalf("drawing spans %v, lattice %v", whole, main)
	}
	if fw, fh := whole[2]-whole[0], whole[3]-whole[1]; fw*fh > 1.5*w*h {
		t.Errorf("frame %.1f × %.1f for a lattice of %.1f × %.1f", fw, fh, w, h)
	}
	parts := [][4]float64{main, box(n0, n0+1, n0+2), box(n0+3, n0+4), box(n0 + 5), box(n0 + 6), box(n0 + 7)}
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			a, b := parts[i], parts[j]
			if a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3] {
				t.Errorf("components %d and %d overlap: %v, %v", i, j, a, b)
			}
		}
	}
	if np := quality.NeighbourhoodPreservation(g, pos, 0, 0); np < 0.7 {
		t.Errorf("neighbourhood preservation %.3f", np)
	}
}
