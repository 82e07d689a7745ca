package vertex_test

import (
	"context"
	"fmt"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
)

// Shortest paths from the corner of a 3×4 lattice: on a grid the distance
// is the number of rows plus columns between two vertices. SSSP knows the
// engine settings it needs (a min combiner): run it with its Config.
func ExampleSSSP() {
	g := datasets.Must(datasets.Lattice(3, 4))
	prog := vertex.SSSP{Source: 0}
	res, err := bsp.Run(context.Background(), g, prog, prog.Config(bsp.Config{}))
	if err != nil {
		panic(err)
	}
	for r := 0; r < 3; r++ {
		fmt.Println(res.Values[r*4 : r*4+4])
	}
	// Output:
	// [0 1 2 3]
	// [1 2 3 4]
	// [2 3 4 5]
}
