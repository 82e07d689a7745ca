package hilbert

import (
	"cmp"
	"fmt"
	"slices"
)

// maxNodes bounds the node count of an order (ids are int, and torus ids
// stay below 2³¹).
const maxNodes = 1 << 31

// shapeOf validates extents and returns the node count.
func shapeOf(extents []int) (int, error) {
	if len(extents) == 0 {
		return 0, fmt.Errorf("hilbert: no dimension")
	}
	n := 1
	for d, k := range extents {
		if k < 1 {
			return 0, fmt.Errorf("hilbert: dimension %d has extent %d, want ≥ 1", d, k)
		}
		if n > (maxNodes-1)/k {
			return 0, fmt.Errorf("hilbert: shape %v has more than 2³¹−1 nodes", extents)
		}
		n *= k
	}
	return n, nil
}

// bitLen is the number of bits of the smallest power of two ≥ k.
func bitLen(k int) int {
	b := 0
	for 1<<uint(b) < k {
		b++
	}
	return b
}

// Order returns the nodes of an extents[0]×extents[1]×… box or torus in
// Hilbert ring order: order[r] is the node at rank r, with node ids
// putting the first coordinate fastest, id = x₀ + K₀·(x₁ + K₁·(x₂ + …)).
//
// Method. Extent-1 dimensions are dropped (they would change the curve's
// rotations, not the nodes). Each remaining extent K is padded to
// 2^⌈log₂ K⌉ and every node gets the compact Hilbert index (CompactIndex)
// of its coordinates in that padded box; the order is the nodes sorted by
// index. On powers of two, equal or not, this is exactly the compact
// Hilbert order and no padding happens.
//
// Continuity. A compact Hilbert curve keeps the order of the full Hilbert
// curve of the enclosing cube, and on a box with unequal sides that order
// is not always continuous. Some of its steps are wrap-around links,
// one hop on the torus (on 4×2, the step (0,1)→(3,1)); others are real
// jumps, even on powers of two (2×8: 1 jump, 2×2×8: 1, 2×8×8: 5). With
// the orientation chosen here, every consecutive pair is a torus channel
// on 4×4×4×4×4, 8×8×8, 4×4×4×4×2, 1×4×4×4×2, 2×4×8, 8×8×16 and,
// although 3 is padded to 4, on 2×3×4. Padding leaves jumps (consecutive
// nodes at torus distance > 1) on 3×4: 1, 12×16: 1, 5×5×5: 5, 6×6×6: 5,
// and 4×12×16×16×2 (24,576 nodes): 69. The ring's closing step (last node
// to first) is a channel on 4×4×4×4×4, 8×8×8 and 4×4×4×4×2 but not on
// every shape (on 2×4×8 it spans 7 hops).
//
// Errors: no dimension, an extent < 1, more than 2³¹−1 nodes, or more
// than 64 index bits after padding.
func Order(extents []int) ([]int, error) {
	n, err := shapeOf(extents)
	if err != nil {
		return nil, err
	}
	var dims, b []int
	for _, k := range extents {
		if k > 1 {
			dims = append(dims, k)
			b = append(b, bitLen(k))
		}
	}
	if len(dims) == 0 {
		return []int{0}, nil
	}
	total, M, err := checkBits(b)
	if err != nil {
		return nil, fmt.Errorf("hilbert: order of %v: %w", extents, err)
	}
	masks := levelMasks(b, M)
	key := make([]uint64, n)
	c := make([]uint64, len(dims))
	pos := make([]int, len(dims)) // coordinates over the kept dimensions
	for v := 0; v < n; v++ {
		for j := range dims {
			c[j] = uint64(pos[j])
		}
		key[v] = compactIndex(masks, len(dims), c)
		// Next node id: advance the kept coordinates, first fastest;
		// dropped dimensions have extent 1 and do not count.
		for j := range pos {
			pos[j]++
			if pos[j] < dims[j] {
				break
			}
			pos[j] = 0
		}
	}
	order := make([]int, n)
	if total < 62 && uint64(1)<<uint(total) <= 16*uint64(n) {
		// Few empty padded cells: place each node in its index's slot and
		// read the slots in order (linear time, no sort).
		slot := make([]int32, 1<<uint(total))
		for i := range slot {
			slot[i] = -1
		}
		for v, k := range key {
			slot[k] = int32(v)
		}
		r := 0
		for _, v := range slot {
			if v >= 0 {
				order[r] = int(v)
				r++
			}
		}
		return order, nil
	}
	for v := range order {
		order[v] = v
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	return order, nil
}

// RowMajorFirst is the 2014 tool's first sequential baseline: nodes in id
// order, the first coordinate fastest (the identity permutation).
func RowMajorFirst(extents []int) ([]int, error) {
	n, err := shapeOf(extents)
	if err != nil {
		return nil, err
	}
	order := make([]int, n)
	for v := range order {
		order[v] = v
	}
	return order, nil
}

// RowMajorLast is the 2014 tool's second sequential baseline: the last
// coordinate fastest, then the one before it, and so on; the ids in the
// result still put the first coordinate fastest.
func RowMajorLast(extents []int) ([]int, error) {
	n, err := shapeOf(extents)
	if err != nil {
		return nil, err
	}
	d := len(extents)
	strides := make([]int, d)
	s := 1
	for j, k := range extents {
		strides[j] = s
		s *= k
	}
	order := make([]int, n)
	c := make([]int, d)
	for r := range order {
		v := 0
		for j := range c {
			v += c[j] * strides[j]
		}
		order[r] = v
		for j := d - 1; j >= 0; j-- {
			c[j]++
			if c[j] < extents[j] {
				break
			}
			c[j] = 0
		}
	}
	return order, nil
}

// Ranks inverts an order: ranks[v] is the rank of node v. Entries of
// order outside 0..len(order)−1 are ignored.
func Ranks(order []int) []int {
	r := make([]int, len(order))
	for i, v := range order {
		if v >= 0 && v < len(r) {
			r[v] = i
		}
	}
	return r
}
