package bsp_test

import (
	"context"
	"fmt"

	"superstep/sdk/bsp"
	"superstep/sdk/graph"
)

// maxValue is a vertex program written as a notebook cell writes one: a
// type with a Compute method. Every vertex starts with a number and ends
// with the largest number of its connected component, passed on
// neighbour by neighbour (Pregel's first example).
type maxValue struct{ start []float64 }

func (p maxValue) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	if c.Superstep() == 0 {
		c.SetValue(v, p.start[v])
		c.SendToNeighbors(v, p.start[v])
		c.VoteToHalt(v)
		return
	}
	best := c.Value(v)
	for i := 0; i < msgs.Len(); i++ {
		best = max(best, msgs.Float(i))
	}
	if best > c.Value(v) {
		c.SetValue(v, best)
		c.SendToNeighbors(v, best)
	}
	c.VoteToHalt(v)
}

// On the path 0–1–2–3–4 the largest number, 6 at vertex 1, reaches
// vertex 4 (three hops away) in superstep 3; superstep 4 changes nothing
// and the job halts after 5 supersteps.
func ExampleRun() {
	g := graph.FromEdges(5, false, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}})
	prog := maxValue{start: []float64{3, 6, 2, 1, 5}}
	res, err := bsp.Run(context.Background(), g, prog, bsp.Config{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Values, res.Supersteps, res.Halted)
	// Output:
	// [6 6 6 6 6] 5 true
}
