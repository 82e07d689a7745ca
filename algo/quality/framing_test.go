package quality

import (
	"math"
	"testing"

	"superstep/sdk/graph"
)

// A 20×20 grid drawn as a grid, with a path of 10 vertices drawn in a line
// to one side and one vertex of the grid pulled 10 widths out: the grid
// straggles by about 10/0.7 of its 99th-percentile radius; the path, a
// straight line, by 1. Coverage is the grid's central box over the whole.
func TestFramingByHand(t *testing.T) {
	const side = 20
	var edges [][2]int
	pos := make([]float64, 0, 2*(side*side+10))
	for r := range side {
		for c := range side {
			v := r*side + c
			if c+1 < side {
				edges = append(edges, [2]int{v, v + 1})
			}
			if r+1 < side {
				edges = append(edges, [2]int{v, v + side})
			}
			pos = append(pos, float64(c), float64(r))
		}
	}
	for i := range 10 {
		v := side*side + i
		if i > 0 {
			edges = append(edges, [2]int{v - 1, v})
		}
		pos = append(pos, 30+float64(i), 0)
	}
	g := graph.FromEdges(side*side+10, false, edges)

	f := FramingOf(g, pos)
	if f.Components != 2 || f.Largest != side*side {
		t.Fatalf("%d components, largest %d", f.Components, f.Largest)
	}
	// Central 98% of the grid: x and y from 0 to 19 (the 1st percentile of
	// 400 is the 4th smallest: 0; the 99th the 396th: 19). The whole spans
	// 0..39 × 0..19.
	if want := 19.0 * 19 / (39 * 19); math.Abs(f.Coverage-want) > 1e-9 {
		t.Errorf("coverage %.4f, want %.4f", f.Coverage, want)
	}
	if f.Straggle > 1.5 {
		t.Errorf("an undisturbed grid straggles %.2f", f.Straggle)
	}

	pos[2*0], pos[2*0+1] = -200, -200 // pull the grid's corner far out
	f = FramingOf(g, pos)
	if f.Straggler != 0 || f.Straggle < 10 {
		t.Errorf("straggler %d at %.2f radii, want vertex 0 beyond 10", f.Straggler, f.Straggle)
	}
	if c := f.Cover(0, 0, 19, 19); math.Abs(c-1) > 1e-9 {
		t.Errorf("the grid's central box covers %.3f of a frame on the grid, want 1", c)
	}
}
