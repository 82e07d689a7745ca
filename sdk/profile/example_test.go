package profile_test

import (
	"fmt"

	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// Sum a profile of 4 supersteps on 4 workers (2 hosts of 2) into hosts
// and frames of 2 supersteps. In every superstep each worker sends 1
// message to each worker, itself included, and worker 0 sends 10 more
// to worker 3 in supersteps 2 and 3: per frame of 2 supersteps a host
// sends a host 2 workers × 2 workers × 2 supersteps = 8 messages, and
// host r0h0 sends host r0h1 20 more in frame 2–3.
func ExampleProfile_Aggregate() {
	cl, _ := cluster.New(1, 2, 2)
	p := &profile.Profile{Job: "example", Cluster: cl, Vertices: []int64{5, 5, 5, 5}}
	for s := 0; s < 4; s++ {
		step := profile.NewStep(s, 4)
		for i := range step.Messages {
			step.Messages[i] = 1
		}
		if s >= 2 {
			step.Messages[0*4+3] += 10
		}
		p.Steps = append(p.Steps, step)
	}
	a, err := p.Aggregate(profile.Options{Level: profile.HostLevel, FrameSize: 2})
	if err != nil {
		panic(err)
	}
	for f, frame := range a.Frames {
		fmt.Printf("frame %s:", frame.Label())
		for i, src := range a.Units {
			for j, dst := range a.Units {
				fmt.Printf(" %s→%s %v", src.Name, dst.Name, a.Messages[f][i][j])
			}
		}
		fmt.Println()
	}
	fmt.Println("total messages:", p.Totals().Messages)
	// Output:
	// frame 0–1: r0h0→r0h0 8 r0h0→r0h1 8 r0h1→r0h0 8 r0h1→r0h1 8
	// frame 2–3: r0h0→r0h0 8 r0h0→r0h1 28 r0h1→r0h0 8 r0h1→r0h1 8
	// total messages: 84
}
