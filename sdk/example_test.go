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
	fmt.Println(job.Trend(profile.Options{Level: profile.HostLevel}).MIMEBundle().Text())
	// Output:
	// 8 supersteps, halted: true
	// distance to the far corner: 6
	// SSSP on a 4×4 lattice — heartbeat per host. Trend view of 2 units over 8 frames: time (s): compute + communication, messages: out, in (hatched), bytes: out, in (hatched)
}
