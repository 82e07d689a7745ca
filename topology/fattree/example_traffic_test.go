package fattree_test

import (
	"context"
	"fmt"

	"superstep/topology/fattree"
)

// A ring job on the first 4 nodes of the k = 4 fat-tree, 1 MB/s per pair,
// beside an all-to-all job on 4 nodes of pod 1: the ring's routes 1→2 and
// 3→0 leave their L1 through L2 p0 s0 (D-mod-k sends destination d up to
// L2 d mod 2), the others stay under their L1; in pod 1 each L1's 2 nodes
// send 4 routes to the other L1 over its 2 up links, 2 MB/s each. The
// jobs share no link.
func ExampleJobLoads() {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	placed, err := fattree.Place(f, fattree.PodBased, []int{4, 4}, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs := []fattree.Job{
		{ID: "ring", Nodes: placed[0], Pattern: fattree.Ring(), BytesPerPair: 1e6},
		{ID: "a2a", Nodes: placed[1], Pattern: fattree.AllToAll(), BytesPerPair: 1e6},
	}
	tr, err := fattree.JobLoads(context.Background(), f, fattree.DModK(f), jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range tr.Jobs {
		fmt.Printf("%s: %d pairs, %.0f MB/s injected\n", j.ID, j.Pairs, j.Injected/1e6)
	}
	st := tr.Stats(fattree.Up12)
	fmt.Printf("%v: %d of %d links used, max %.0f MB/s\n", st.Kind, st.Used, st.Links, st.Max/1e6)
	fmt.Println("shared links:", len(tr.Shared(false)))
	for j := range tr.Jobs {
		inf, _, _ := tr.Inflation(j)
		fmt.Printf("%s inflation %.2f\n", tr.Jobs[j].ID, inf)
	}
	// Output:
	// ring: 4 pairs, 4 MB/s injected
	// a2a: 12 pairs, 12 MB/s injected
	// L1->L2: 6 of 16 links used, max 2 MB/s
	// shared links: 0
	// ring inflation 1.00
	// a2a inflation 1.00
}
