package layout_test

import (
	"context"
	"fmt"
	"math"

	"superstep/algo/layout"
	"superstep/algo/quality"
	"superstep/datasets"
)

// Lay out a 30×30 lattice: it comes out as a square grid, every vertex
// next to its grid neighbours.
func ExampleSFDP() {
	g, _ := datasets.Lattice(30, 30)
	pos, err := layout.SFDP(context.Background(), g, layout.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d coordinates for %d vertices\n", len(pos), g.NumVertices())
	fmt.Printf("neighbourhood preservation %.2f\n", quality.NeighbourhoodPreservation(g, pos, 0, 1))
	fmt.Printf("hop-distance correlation %.2f\n", quality.HopCorrelation(g, pos, 0, 1))
	// Output:
	// 1800 coordinates for 900 vertices
	// neighbourhood preservation 1.00
	// hop-distance correlation 0.97
}

// The thesis's pipeline seeds the final global layout with positions
// computed before (there, of the largest communities, laid out apart);
// vertices without a position are NaN. Here the left half of a lattice is
// placed as a grid and the right half is free: SFDP keeps the given half
// and lays out the rest around it.
func ExampleOptions_initial() {
	const side = 20
	g, _ := datasets.Lattice(side, side)
	grid := make([]float64, 2*side*side)
	start := make([]float64, 2*side*side)
	for v := 0; v < side*side; v++ {
		grid[2*v], grid[2*v+1] = float64(v%side), float64(v/side)
		start[2*v], start[2*v+1] = grid[2*v], grid[2*v+1]
		if v%side >= side/2 {
			start[2*v], start[2*v+1] = math.NaN(), math.NaN()
		}
	}
	pos, err := layout.SFDP(context.Background(), g, layout.Options{Seed: 1, Initial: start})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("correlation with the grid %.2f\n", quality.PairwiseCorrelation(grid, pos, 1, 0))
	// Output:
	// correlation with the grid 1.00
}
