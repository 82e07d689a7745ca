package cluster_test

import (
	"fmt"

	"superstep/topology/cluster"
)

// A cluster of 2 racks with 2 hosts each, 2 workers per host: 8 workers,
// numbered rack by rack and host by host, and how far apart two of them
// are.
func ExampleNew() {
	c, err := cluster.New(2, 2, 2)
	if err != nil {
		panic(err)
	}
	for r, rack := range c.Racks {
		fmt.Print(rack.Name, ":")
		for h, host := range c.Hosts {
			if host.Rack != r {
				continue
			}
			fmt.Print(" ", host.Name, " [")
			for _, worker := range c.Workers {
				if worker.Host == h {
					fmt.Print(" ", worker.Name)
				}
			}
			fmt.Print(" ]")
		}
		fmt.Println()
	}
	fmt.Printf("%d workers; w0 and w1: %v, w0 and w2: %v, w0 and w7: %v\n", c.NumWorkers(), c.Distance(0, 1), c.Distance(0, 2), c.Distance(0, 7))
	// Output:
	// r0: r0h0 [ w0 w1 ] r0h1 [ w2 w3 ]
	// r1: r1h0 [ w4 w5 ] r1h1 [ w6 w7 ]
	// 8 workers; w0 and w1: same host, w0 and w2: same rack, w0 and w7: across racks
}
