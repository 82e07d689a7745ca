package pipeline_test

import (
	"context"
	"fmt"
	"math"

	"superstep/algo/pipeline"
	"superstep/datasets"
)

// Lay out a planted-community graph of 1,000 vertices with the pipeline.
// (A notebook cell passes sdk.Context(), which stops it when the cell is
// interrupted.) The result holds two coordinates per vertex, all finite,
// and one community per vertex.
func ExampleLayout() {
	g, _, err := datasets.Planted(datasets.PlantedOptions{N: 1000, AvgDegree: 10, MaxDegree: 40, Mixing: 0.1, MinCommunity: 20, MaxCommunity: 100, Seed: 1})
	if err != nil {
		panic(err)
	}
	res, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	finite := true
	for _, x := range res.Positions {
		finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	fmt.Println(g.NumVertices(), "vertices,", len(res.Positions), "coordinates, all finite:", finite)
	fmt.Println("a community per vertex:", len(res.Membership) == g.NumVertices())
	// Output:
	// 1000 vertices, 2000 coordinates, all finite: true
	// a community per vertex: true
}
