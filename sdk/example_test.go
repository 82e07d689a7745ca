package sdk_test

import (
	"context"
	"fmt"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/profile"
	"superstep/sdk/vrecord"
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

// A job stepped one superstep at a time: SSSP from one end of a path of
// four vertices settles one more vertex per superstep.
func ExampleStart() {
	path := datasets.Must(datasets.Lattice(1, 4))
	s, err := sdk.Start(context.Background(), path, vertex.SSSP{Source: 0}, sdk.Options{})
	if err != nil {
		panic(err)
	}
	for !s.Done() {
		s.Step() // in a cell, shows the superstep's frame
		fmt.Println(s.Superstep()-1, s.Job().Result.Values)
	}
	fmt.Println(s)
	// Output:
	// 0 [0 +Inf +Inf +Inf]
	// 1 [0 1 +Inf +Inf]
	// 2 [0 1 2 +Inf]
	// 3 [0 1 2 3]
	// 4 [0 1 2 3]
	// vertex.SSSP: finished after 5 supersteps
}

// The vertex-level record of a run: SSSP from the corner of a 3×3 lattice
// has the vertices i hops away active in superstep i. Messages are counted
// as delivered: the min combiner joins those that one worker sends to one
// vertex, so vertices 0 and 4, which hear from vertices 1 and 3 (on two
// workers) in superstep 1, receive two each.
func ExampleJob_Record() {
	lat := datasets.Must(datasets.Lattice(3, 3))
	job, err := sdk.Run(context.Background(), lat, vertex.SSSP{Source: 0}, sdk.Options{RecordVertices: true})
	if err != nil {
		panic(err)
	}
	rec := job.Record()
	for i := range rec.Len() {
		fmt.Printf("superstep %d: %d active, %d messages\n", i, rec.Count(i, vrecord.Active), rec.Messages(i))
	}
	// Output:
	// superstep 0: 1 active, 2 messages
	// superstep 1: 2 active, 6 messages
	// superstep 2: 3 active, 8 messages
	// superstep 3: 2 active, 4 messages
	// superstep 4: 1 active, 2 messages
	// superstep 5: 0 active, 0 messages
}
