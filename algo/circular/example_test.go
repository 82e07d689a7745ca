package circular_test

import (
	"fmt"

	"superstep/algo/circular"
)

// Six workers on three hosts (two racks) exchange messages in a ring
// 0→1→4→5→2→3→0; listed in index order, the ring's chords cross.
func ExampleOrder() {
	n := 6
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
	}
	ring := []int{0, 1, 4, 5, 2, 3}
	for i, u := range ring {
		w[u][ring[(i+1)%n]] = 10 // messages u → next
	}
	groups := []int{0, 0, 1, 1, 2, 2} // host of each worker
	supergroups := []int{0, 0, 1}     // rack of each host

	id := []int{0, 1, 2, 3, 4, 5}
	order := circular.Order(w, groups, supergroups)
	fmt.Println("identity crossings:", circular.WeightedCrossings(id, w))
	fmt.Println("order:", order, "crossings:", circular.WeightedCrossings(order, w))
	// Output:
	// identity crossings: 60
	// order: [2 3 0 1 4 5] crossings: 0
}
