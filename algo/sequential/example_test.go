package sequential_test

import (
	"fmt"

	"superstep/algo/sequential"
	"superstep/sdk/graph"
)

// A directed 4-cycle with a chord, and one vertex off on its own (it
// dangles, so the PageRank total is below 1).
func Example() {
	g := graph.FromEdges(5, true, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}})

	fmt.Println("hops from 0:", sequential.BFS(g, 0))
	fmt.Println("distances from 1:", sequential.Dijkstra(g, 1))
	fmt.Println("components:", sequential.Components(g))
	fmt.Printf("PageRank: %.3f\n", sequential.PageRank(g, 0.85, 30))
	// Output:
	// hops from 0: [0 1 1 2 -1]
	// distances from 1: [3 0 1 2 +Inf]
	// components: [0 0 0 0 4]
	// PageRank: [0.221 0.124 0.230 0.225 0.030]
}
