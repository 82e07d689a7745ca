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

// Two groups of three vertices. Drawn as two blobs far apart, every
// vertex's 2 nearest drawn neighbours are in its own group: share 1.
// Drawn interleaved on a line (groups 0, 1, 0, 1, 0, 1), only the two end
// vertices find one of their own among their 2 nearest: share (½ + ½)/6,
// below the 0.4 that a random drawing scores on average.
func ExampleGroupShare() {
	groups := []int32{0, 0, 0, 1, 1, 1}
	apart := []float64{0, 0, 1, 0, 0, 1, 100, 0, 101, 0, 100, 1}
	interleaved := []float64{0, 0, 2, 0, 4, 0, 1, 0, 3, 0, 5, 0} // x = 0, 2, 4 and 1, 3, 5
	fmt.Printf("apart %.3f\n", quality.GroupShare(apart, groups, 2, 0, 1))
	fmt.Printf("interleaved %.3f\n", quality.GroupShare(interleaved, groups, 2, 0, 1))
	fmt.Printf("chance %.3f\n", quality.ChanceGroupShare(groups))
	// Output:
	// apart 1.000
	// interleaved 0.167
	// chance 0.400
}
