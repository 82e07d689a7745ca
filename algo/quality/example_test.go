package quality_test

import (
	"fmt"

	"superstep/algo/quality"
	"superstep/datasets"
)

// A 20×20 lattice drawn as a square grid: every vertex's nearest layout
// neighbours are its graph neighbours, and layout distance follows hop
// distance closely (hop distance is the Manhattan distance of the grid).
func Example() {
	g, _ := datasets.Lattice(20, 20)
	pos := make([]float64, 2*g.NumVertices())
	for v := 0; v < g.NumVertices(); v++ {
		pos[2*v], pos[2*v+1] = float64(v%20), float64(v/20)
	}
	fmt.Printf("neighbourhood preservation %.2f\n", quality.NeighbourhoodPreservation(g, pos, 0, 1))
	fmt.Printf("hop correlation %.2f\n", quality.HopCorrelation(g, pos, 0, 1))
	fmt.Printf("stress %.3f\n", quality.Stress(g, pos, 0, 1))
	// Output:
	// neighbourhood preservation 1.00
	// hop correlation 0.98
	// stress 0.013
}

// The thesis's correctness test: two layouts of one graph agree when their
// pairwise distances correlate; scaling, rotating or shifting a layout
// changes nothing.
func ExamplePairwiseCorrelation() {
	a := []float64{0, 0, 1, 0, 0, 1, 1, 1, 3, 2}
	b := make([]float64, len(a))
	for i := 0; i < len(a); i += 2 {
		b[i], b[i+1] = -2*a[i+1]+5, 2*a[i] // rotated 90°, doubled, shifted
	}
	fmt.Printf("%.3f\n", quality.PairwiseCorrelation(a, b, 1, 0))
	// Output:
	// 1.000
}
