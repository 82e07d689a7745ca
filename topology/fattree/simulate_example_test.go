package fattree_test

import (
	"context"
	"fmt"
	"time"

	"superstep/topology/fattree"
)

// A two-node ring on the k = 4 fat-tree, 1000 bytes per second per pair,
// running from 15 s to 45 s, read every 20 s for a minute: the job covers
// 5 s of the first interval, 20 s of the second and 5 s of the third.
func ExampleSimulate() {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	jobs := []fattree.Job{{
		ID: "ring", Nodes: []int{0, 1}, Pattern: fattree.Ring(), BytesPerPair: 1000,
		Start: start.Add(15 * time.Second), End: start.Add(45 * time.Second),
	}}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), jobs, start, start.Add(time.Minute), 20*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	up := f.Nodes[0].Up // node 0 → its L1
	for _, r := range rows {
		if r.Link == up {
			fmt.Printf("%s link %d: %d bytes, %d packets\n", r.Time.Format("15:04:05"), r.Link, r.Bytes, r.Packets)
		}
	}
	// Output:
	// 00:00:20 link 0: 5000 bytes, 2 packets
	// 00:00:40 link 0: 20000 bytes, 5 packets
	// 00:01:00 link 0: 5000 bytes, 2 packets
}
