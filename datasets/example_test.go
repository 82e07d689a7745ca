package datasets_test

import (
	"fmt"
	"math"
	"strings"

	"superstep/datasets"
)

func ExampleOpen() {
	g, err := datasets.Open("karate")
	if err != nil {
		panic(err)
	}
	fmt.Println(g)
	// The club's instructor, vertex id 1, and his neighbours.
	v, _ := g.Index(1)
	fmt.Println(g.Label(v), "has", g.Degree(v), "friends")
	fmt.Println(datasets.Names())
	// Output:
	// undirected graph: 34 vertices, 78 edges
	// 1 has 16 friends
	// [4elt add32 cti gnutella31 karate lesmis]
}

func ExampleLattice() {
	g := datasets.Must(datasets.Lattice(2, 3))
	fmt.Println(g)
	for v := 0; v < g.NumVertices(); v++ {
		fmt.Println(v, "→", g.Neighbors(v))
	}
	// Output:
	// undirected graph: 6 vertices, 7 edges
	// 0 → [1 3]
	// 1 → [0 2 4]
	// 2 → [1 5]
	// 3 → [0 4]
	// 4 → [1 3 5]
	// 5 → [2 4]
}

func ExampleReadEdgeList() {
	const file = `# a tiny SNAP-style edge list
1 2
2 3
3 x
`
	_, err := datasets.ReadEdgeList(strings.NewReader(file), "tiny.txt", true)
	fmt.Println(err)
	// Output:
	// tiny.txt:4: expected an integer vertex id, found "x"
}

func ExampleErdosRenyi() {
	g, err := datasets.ErdosRenyi(1000, 5000, false, 42)
	if err != nil {
		panic(err)
	}
	again, _ := datasets.ErdosRenyi(1000, 5000, false, 42)
	fmt.Println(g)
	fmt.Println("same seed, same graph:", fmt.Sprint(g.Neighbors(0)) == fmt.Sprint(again.Neighbors(0)))
	// Output:
	// undirected graph: 1000 vertices, 5000 edges
	// same seed, same graph: true
}

// A random geometric graph of 30,000 points with a mean degree of about
// 10: the radius r = √(10/(π·n)) gives 10 neighbours on average away from
// the unit square's border, a little fewer near it.
func ExampleRandomGeometric() {
	const n = 30000
	r := math.Sqrt(10 / (math.Pi * n))
	g, err := datasets.RandomGeometric(n, r, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("radius %.4f: %v, mean degree %.1f\n", r, g, 2*float64(g.NumEdges())/n)
	// Output:
	// radius 0.0103: undirected graph: 30000 vertices, 148912 edges, mean degree 9.9
}

// Two processes of a distributed job each read their half of a METIS
// graph (a triangle 1-2-3 with a tail 3-4): both know all four vertices,
// each holds only its own vertices' neighbours, and together every arc.
func ExampleReadMETISPart() {
	const file = "4 4\n2 3\n1 3\n1 2 4\n3\n"
	for rank := 0; rank < 2; rank++ {
		g, err := datasets.ReadMETISPart(strings.NewReader(file), "tail.graph", func(n int) (func(v int) bool, error) {
			return func(v int) bool { return v*2/n == rank }, nil // vertices 1-2, then 3-4
		})
		if err != nil {
			panic(err)
		}
		fmt.Printf("rank %d: %d vertices, %d of the %d arcs, degrees", rank, g.NumVertices(), g.NumArcs(), 2*g.NumEdges())
		for v := 0; v < g.NumVertices(); v++ {
			fmt.Print(" ", g.Degree(v))
		}
		fmt.Println()
	}
	// Output:
	// rank 0: 4 vertices, 4 of the 8 arcs, degrees 2 2 0 0
	// rank 1: 4 vertices, 4 of the 8 arcs, degrees 0 0 3 1
}
