package sdk_test

import (
	"fmt"

	"superstep/sdk"
	"superstep/topology/torus"
)

// All-to-all among the 16 nodes of a 4×4 torus, one rank per node: every
// mapping gives the same loads. From any node the x distances to the 16
// nodes are 4·(0+1+2+1) = 16, so each dimension carries 16·16 = 256 hops
// and the total is 512 (the mean distance 32/15 times 240 ordered pairs).
// Only a pattern with structure, such as pF3D's lines, tells mappings apart.
func ExampleCompareMappings() {
	t, _ := torus.New([]string{"x", "y"}, []int{4, 4})
	all, _ := torus.AllToAll(16)
	mappings, _ := sdk.TorusMappings(t, 1, []int{2, 2})
	cmp, _ := sdk.CompareMappings(t, all, mappings)
	for i, m := range cmp.Mappings {
		fmt.Println(m.Name, cmp.Totals[i].Dim, cmp.Totals[i].Total)
	}
	// Output:
	// default [256 256] 512
	// hilbert [256 256] 512
	// blocked [256 256] 512
}
