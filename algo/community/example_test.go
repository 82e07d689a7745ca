package community_test

import (
	"context"
	"fmt"

	"superstep/algo/community"
	"superstep/datasets"
	"superstep/sdk/graph"
)

// Find the communities of Zachary's karate club.
func ExampleLouvain() {
	g := datasets.Must(datasets.Open("karate"))
	r, err := community.Louvain(context.Background(), g, community.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d communities, modularity %.4f\n", r.NumCommunities, r.Modularity)
	// The instructor (id 1) and the administrator (id 34) end up apart.
	instructor, _ := g.Index(1)
	admin, _ := g.Index(34)
	fmt.Println(r.Membership[instructor] != r.Membership[admin])
	// Output:
	// 4 communities, modularity 0.4198
	// true
}

// Recover planted communities and compare them with NMI.
func ExampleNMI() {
	g, planted, err := datasets.Planted(datasets.PlantedOptions{
		N: 2000, AvgDegree: 15, MaxDegree: 60, Mixing: 0.3,
		MinCommunity: 20, MaxCommunity: 200, Seed: 7,
	})
	if err != nil {
		panic(err)
	}
	r, err := community.Louvain(context.Background(), g, community.Options{Seed: 1})
	fmt.Printf("planted modularity %.3f, found %.3f\n", community.Modularity(g, planted, 1), r.Modularity)
	fmt.Printf("NMI %.2f\n", community.NMI(r.Membership, planted))
	// Output:
	// planted modularity 0.649, found 0.649
	// NMI 1.00
}

// Two triangles joined by one edge: splitting them scores 5/14.
func ExampleModularity() {
	g := graph.FromEdges(6, false, [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}})
	fmt.Printf("%.4f\n", community.Modularity(g, []int32{0, 0, 0, 1, 1, 1}, 1))
	fmt.Printf("%.4f\n", community.Modularity(g, []int32{0, 0, 0, 0, 0, 0}, 1))
	// Output:
	// 0.3571
	// 0.0000
}
