package sdk_test

import (
	"fmt"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// Run single-source shortest paths on a 4×4 lattice from corner 0, as a
// notebook cell does. Distances grow by one per superstep: the far corner
// (vertex 15) is 6 hops away, settled in superstep 6; superstep 7 finds
// nothing to improve and every vertex halts.
func ExampleRun() {
	g := datasets.Must(datasets.Lattice(4, 4))
	cl, _ := cluster.New(1, 2, 2) // 1 rack, 2 hosts, 2 workers each
	job, err := sdk.Run(sdk.Context(), g, vertex.SSSP{Source: 0}, sdk.Options{
		Config: bsp.Config{Name: "SSSP on a 4×4 lattice", Cluster: cl},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(job.Supersteps(), "supersteps, halted:", job.Result.Halted)
	fmt.Println("distance to the far corner:", job.Value(15))
	// The trend's messages panel: per host, the messages sent in each
	// superstep, after the min combiner merged those to the same vertex
	// (its time panel shows measured times, which vary).
	trend, _ := job.TrendData(profile.Options{Level: profile.HostLevel})
	fmt.Println(trend.Title)
	fmt.Println(trend.Panels[1].Title)
	for i, u := range trend.Units {
		fmt.Println(u.Name, trend.Panels[1].Out[i])
	}
	// Output:
	// 8 supersteps, halted: true
	// distance to the far corner: 6
	// SSSP on a 4×4 lattice — heartbeat per host
	// messages: out, in (hatched)
	// r0h0 [2 6 4 4 6 4 2 0]
	// r0h1 [0 0 6 6 0 0 0 0]
}
