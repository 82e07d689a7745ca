package hilbert

import (
	"fmt"
	"slices"
)

// Space is what the metrics need of a network: node ids 0..Nodes()−1, a
// hop distance and the distinct one-hop neighbours of a node. A
// *torus.Torus satisfies it.
type Space interface {
	Nodes() int
	Dist(u, v int) int
	Neighbours(v int) []int
}

// extentser is the optional interface Measure uses to find n′ when it is
// not given: the extents of the space's dimensions.
type extentser interface {
	Extents() []int
}

// Metrics are the locality measures of one order (see Measure).
type Metrics struct {
	N       int     // nodes
	Dims    int     // n′, dimensions of extent > 1
	Pairs   int     // neighbour pairs, each unordered pair once
	L       float64 // step(1)
	W       float64 // mean of step(1..2n′)
	Jumps   int     // consecutive ranks (not wrapping) at distance ≠ 1
	Stretch float64 // mean circular rank distance over neighbour pairs
	Blocks  int     // m
	Intra   float64 // share of neighbour pairs inside one block
	Bundles int     // block pairs (b ≠ c) joined by ≥ 1 neighbour pair
}

// checkOrder says whether order is a permutation of 0..s.Nodes()−1.
func checkOrder(s Space, order []int) error {
	n := s.Nodes()
	if len(order) != n {
		return fmt.Errorf("hilbert: order has %d nodes, space has %d", len(order), n)
	}
	seen := make([]bool, n)
	for r, v := range order {
		if v < 0 || v >= n {
			return fmt.Errorf("hilbert: rank %d holds node %d, outside 0..%d", r, v, n-1)
		}
		if seen[v] {
			return fmt.Errorf("hilbert: node %d appears twice in the order", v)
		}
		seen[v] = true
	}
	return nil
}

// Step is step(k): the mean over ranks i of Dist(v_i, v_(i+k) mod N).
func Step(s Space, order []int, k int) (float64, error) {
	if err := checkOrder(s, order); err != nil {
		return 0, err
	}
	return step(s, order, k), nil
}

func step(s Space, order []int, k int) float64 {
	n := len(order)
	if n == 0 {
		return 0
	}
	k %= n
	if k < 0 {
		k += n
	}
	sum := 0
	for i, v := range order {
		sum += s.Dist(v, order[(i+k)%n])
	}
	return float64(sum) / float64(n)
}

// Jumps counts the consecutive ranks i, i+1 (i < N−1, so not the closing
// step) whose nodes are not at distance 1.
func Jumps(s Space, order []int) (int, error) {
	if err := checkOrder(s, order); err != nil {
		return 0, err
	}
	j := 0
	for i := 0; i+1 < len(order); i++ {
		if s.Dist(order[i], order[i+1]) != 1 {
			j++
		}
	}
	return j, nil
}

// neighbourPairs calls f once for each unordered neighbour pair u < v.
func neighbourPairs(s Space, f func(u, v int)) {
	for u := 0; u < s.Nodes(); u++ {
		for _, v := range s.Neighbours(u) {
			if u < v {
				f(u, v)
			}
		}
	}
}

// Stretch is the mean, over neighbour pairs (each unordered pair once),
// of the circular rank distance min(|Δr|, N−|Δr|).
func Stretch(s Space, order []int) (float64, error) {
	if err := checkOrder(s, order); err != nil {
		return 0, err
	}
	rank := Ranks(order)
	n := len(order)
	sum, cnt := 0, 0
	neighbourPairs(s, func(u, v int) {
		d := rank[u] - rank[v]
		if d < 0 {
			d = -d
		}
		sum += min(d, n-d)
		cnt++
	})
	if cnt == 0 {
		return 0, nil
	}
	return float64(sum) / float64(cnt), nil
}

// BlockSizes splits n ranks into m consecutive blocks whose sizes differ
// by at most 1: the first n mod m blocks get ⌊n/m⌋+1 ranks, the others
// ⌊n/m⌋. When m divides n (paper 004 requires that, and m even) every
// block has n/m ranks, as in the paper. m must be in 1..n.
func BlockSizes(n, m int) ([]int, error) {
	if m < 1 || m > n {
		return nil, fmt.Errorf("hilbert: %d blocks for %d nodes, want 1..%d", m, n, n)
	}
	sz := make([]int, m)
	for b := range sz {
		sz[b] = n / m
		if b < n%m {
			sz[b]++
		}
	}
	return sz, nil
}

// BlockOf is the block (0-based) of rank r under the BlockSizes rule.
func BlockOf(n, m, r int) int {
	s, rem := n/m, n%m
	if r < rem*(s+1) {
		return r / (s + 1)
	}
	return rem + (r-rem*(s+1))/s
}

// BlockPair counts the neighbour pairs between blocks A ≤ B (0-based);
// A = B is the block's intra pairs.
type BlockPair struct {
	A, B  int
	Pairs int
}

// BlockPairs returns, for m blocks of consecutive ranks (BlockSizes
// rule), every block pair joined by at least one neighbour pair, with
// the number of neighbour pairs, sorted by (A, B). Pairs with A = B are
// intra-block.
func BlockPairs(s Space, order []int, m int) ([]BlockPair, error) {
	if err := checkOrder(s, order); err != nil {
		return nil, err
	}
	n := len(order)
	if _, err := BlockSizes(n, m); err != nil {
		return nil, err
	}
	rank := Ranks(order)
	count := map[[2]int]int{}
	neighbourPairs(s, func(u, v int) {
		a, b := BlockOf(n, m, rank[u]), BlockOf(n, m, rank[v])
		if a > b {
			a, b = b, a
		}
		count[[2]int{a, b}]++
	})
	out := make([]BlockPair, 0, len(count))
	for k, c := range count {
		out = append(out, BlockPair{A: k[0], B: k[1], Pairs: c})
	}
	slices.SortFunc(out, func(x, y BlockPair) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	return out, nil
}

// ActiveDims is n′, the number of extents greater than 1.
func ActiveDims(extents []int) int {
	c := 0
	for _, k := range extents {
		if k > 1 {
			c++
		}
	}
	return c
}

// Measure computes every metric of order over s with m blocks:
//
//	step(k)    = mean over i of Dist(v_i, v_(i+k) mod N)
//	L          = step(1)
//	W          = mean of step(1), …, step(2n′)
//	jumps      = #{i < N−1 : Dist(v_i, v_(i+1)) ≠ 1}
//	stretch    = mean over neighbour pairs of min(|Δr|, N−|Δr|)
//	intra(m)   = share of neighbour pairs inside one block
//	bundles(m) = block pairs b ≠ c joined by ≥ 1 neighbour pair
//
// dims is n′, the number of dimensions of extent > 1; dims ≤ 0 asks the
// space, which must then have a method Extents() []int (as
// *torus.Torus has).
func Measure(s Space, order []int, dims, m int) (Metrics, error) {
	if dims <= 0 {
		e, ok := s.(extentser)
		if !ok {
			return Metrics{}, fmt.Errorf("hilbert: n′ not given and the space has no Extents method")
		}
		dims = ActiveDims(e.Extents())
	}
	pairs, err := BlockPairs(s, order, m)
	if err != nil {
		return Metrics{}, err
	}
	mt := Metrics{N: len(order), Dims: dims, Blocks: m}
	mt.L = step(s, order, 1)
	for k := 1; k <= 2*dims; k++ {
		mt.W += step(s, order, k)
	}
	mt.W /= float64(2 * dims)
	mt.Jumps, _ = Jumps(s, order)
	mt.Stretch, _ = Stretch(s, order)
	intra := 0
	for _, p := range pairs {
		mt.Pairs += p.Pairs
		if p.A == p.B {
			intra += p.Pairs
		} else {
			mt.Bundles++
		}
	}
	if mt.Pairs > 0 {
		mt.Intra = float64(intra) / float64(mt.Pairs)
	}
	return mt, nil
}
