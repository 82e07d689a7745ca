package fattree_test

import (
	"context"
	"fmt"

	"superstep/topology/fattree"
)

// All-to-all on the k = 4 fat-tree of the TreeScope paper's Figure 2 with
// D-mod-k routing. By hand: every node sends to 15 others; the 2 nodes of
// an L1 send 2·14 routes out of it over its 2 up links (14 each); the 4
// nodes of a pod send 4·12 routes out of it over its 4 L2–L3 links (12
// each); and the 240 pairs are 16 under one L1 (1 switch), 32 within a pod
// (3 switches) and 192 across pods (5 switches).
func ExampleAllToAllLoads() {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	loads, err := fattree.AllToAllLoads(context.Background(), f, fattree.DModK(f), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k := fattree.Kind(0); k < fattree.NumKinds; k++ {
		st := loads.Stats(k)
		fmt.Printf("%v: %d links, load %d..%d\n", k, st.Links, st.Min, st.Max)
	}
	for h, pairs := range loads.Hops {
		if pairs > 0 {
			fmt.Printf("%d switches: %d pairs\n", h, pairs)
		}
	}
	// Output:
	// L0->L1: 16 links, load 15..15
	// L1->L0: 16 links, load 15..15
	// L1->L2: 16 links, load 14..14
	// L2->L1: 16 links, load 14..14
	// L2->L3: 16 links, load 12..12
	// L3->L2: 16 links, load 12..12
	// 1 switches: 16 pairs
	// 3 switches: 32 pairs
	// 5 switches: 192 pairs
}

// The route of the bold dashed line of the paper's Figure 2: node 0 to
// node 13 (pod 3, L1 0, slot 1) crosses five switches.
func ExampleRoute() {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := fattree.Route(f, fattree.DModK(f), 0, 13)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sw := range p.Switches {
		fmt.Println(f.Switches[sw].Name)
	}
	// Output:
	// L1 p0 s0
	// L2 p0 s1
	// L3 b1 s0
	// L2 p3 s1
	// L1 p3 s0
}
