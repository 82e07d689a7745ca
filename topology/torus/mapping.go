package torus

import (
	"fmt"
	"slices"
)

// Mapping places ranks on nodes: rank r lives on node
// Order[r / RanksPerNode], so ranks fill a node before the next one.
// Order lists distinct nodes of the torus (usually all of them, as the
// *Order functions return).
type Mapping struct {
	RanksPerNode int
	Order        []int
}

// Node is the node rank r lives on. It does not check r; Validate does.
func (m Mapping) Node(r int) int { return m.Order[r/m.RanksPerNode] }

// Validate checks that m places ranks 0..ranks−1 on distinct nodes of t.
func (m Mapping) Validate(t *Torus, ranks int) error {
	if m.RanksPerNode < 1 {
		return fmt.Errorf("torus: mapping: %d ranks per node, want ≥ 1", m.RanksPerNode)
	}
	if err := checkOrder(t, m.Order, false); err != nil {
		return fmt.Errorf("torus: mapping: %w", err)
	}
	if ranks < 0 || ranks > m.RanksPerNode*len(m.Order) {
		return fmt.Errorf("torus: mapping: %d ranks do not fit %d nodes × %d ranks per node", ranks, len(m.Order), m.RanksPerNode)
	}
	return nil
}

// checkOrder checks that order lists distinct nodes of t (all of them
// when full).
func checkOrder(t *Torus, order []int, full bool) error {
	if full && len(order) != t.nodes {
		return fmt.Errorf("order has %d nodes, want %d", len(order), t.nodes)
	}
	seen := make([]bool, t.nodes)
	for i, v := range order {
		if v < 0 || v >= t.nodes {
			return fmt.Errorf("order[%d] = %d is outside 0..%d", i, v, t.nodes-1)
		}
		if seen[v] {
			return fmt.Errorf("order[%d] = %d: node listed twice", i, v)
		}
		seen[v] = true
	}
	return nil
}

// DefaultOrder is Blue Gene/Q's default order, ABCDET: the LAST dimension
// varies fastest (E, then D, C, B, A on a 5-D torus), the opposite of the
// node ids, which put the first fastest.
func DefaultOrder(t *Torus) []int {
	n := len(t.extents)
	dims := make([]int, n)
	for i := range dims {
		dims[i] = n - 1 - i
	}
	return t.orderBy(dims)
}

// PermutationOrder orders the nodes with the listed dimensions varying
// fastest first: PermutationOrder(t, {"x", "y", "z"}) is the node-id order
// on an x, y, z torus, {"e", "d", "c", "b", "a"} is DefaultOrder on Blue
// Gene/Q. Every dimension must be listed once.
func PermutationOrder(t *Torus, dims []string) ([]int, error) {
	n := len(t.extents)
	if len(dims) != n {
		return nil, fmt.Errorf("torus: permutation order %v: %d dimensions for %s", dims, len(dims), t)
	}
	idx := make([]int, n)
	seen := make([]bool, n)
	for i, name := range dims {
		d := t.Dim(name)
		if d < 0 {
			return nil, fmt.Errorf("torus: permutation order %v: no dimension %q in %s", dims, name, t)
		}
		if seen[d] {
			return nil, fmt.Errorf("torus: permutation order %v: %q listed twice", dims, name)
		}
		seen[d] = true
		idx[i] = d
	}
	return t.orderBy(idx), nil
}

// orderBy lists the nodes with dims[0] fastest, then dims[1], ….
func (t *Torus) orderBy(dims []int) []int {
	out := make([]int, 0, t.nodes)
	c := make([]int, len(t.extents))
	for range t.nodes {
		v := 0
		for d, x := range c {
			v += x * t.strides[d]
		}
		out = append(out, v)
		for _, d := range dims {
			if c[d]++; c[d] < t.extents[d] {
				break
			}
			c[d] = 0
		}
	}
	return out
}

// BlockedOrder orders the nodes by sub-box tiles of the given extents (one
// per dimension): tiles in order of their position, first coordinate
// fastest, and the nodes within a tile first coordinate fastest. Every
// tile extent must divide the torus's extent.
func BlockedOrder(t *Torus, tile []int) ([]int, error) {
	n := len(t.extents)
	if len(tile) != n {
		return nil, fmt.Errorf("torus: blocked order: tile %v has %d extents for %s", tile, len(tile), t)
	}
	tiles := make([]int, n)
	for d, b := range tile {
		if b < 1 || t.extents[d]%b != 0 {
			return nil, fmt.Errorf("torus: blocked order: tile extent %d does not divide %s = %d", b, t.names[d], t.extents[d])
		}
		tiles[d] = t.extents[d] / b
	}
	out := make([]int, 0, t.nodes)
	tc := make([]int, n) // tile coordinates
	ic := make([]int, n) // coordinates within the tile
	for range t.nodes / prod(tile) {
		for range prod(tile) {
			v := 0
			for d := range n {
				v += (tc[d]*tile[d] + ic[d]) * t.strides[d]
			}
			out = append(out, v)
			advance(ic, tile)
		}
		advance(tc, tiles)
	}
	return out, nil
}

func prod(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

// advance steps c to the next point of a box of the given extents, first
// coordinate fastest.
func advance(c, extents []int) {
	for d := range c {
		if c[d]++; c[d] < extents[d] {
			return
		}
		c[d] = 0
	}
}

// GivenOrder checks that order is a permutation of t's nodes and returns a
// copy: how a caller passes an order computed elsewhere (the sdk passes a
// Hilbert order this way).
func GivenOrder(t *Torus, order []int) ([]int, error) {
	if err := checkOrder(t, order, true); err != nil {
		return nil, fmt.Errorf("torus: given order: %w", err)
	}
	return slices.Clone(order), nil
}

// MapPairs places a rank-pair pattern on t through mapping m and returns
// the traffic between nodes: one row per ordered node pair that exchanges
// anything, summed over the rank pairs, ordered by Src and then Dst, with
// Region and Phase 0. Rank pairs whose ranks share a node are dropped:
// that traffic never enters the network, and the rows count network
// traffic only.
func MapPairs(t *Torus, p Pattern, m Mapping) ([]PairRow, error) {
	if err := m.Validate(t, p.Ranks); err != nil {
		return nil, err
	}
	rows := make([]PairRow, 0, len(p.Pairs))
	for i, rp := range p.Pairs {
		if rp.Src < 0 || rp.Src >= p.Ranks || rp.Dst < 0 || rp.Dst >= p.Ranks {
			return nil, fmt.Errorf("torus: pattern %s: pair %d: %d→%d: rank outside 0..%d", p.Name, i, rp.Src, rp.Dst, p.Ranks-1)
		}
		u, v := m.Node(rp.Src), m.Node(rp.Dst)
		if u != v {
			rows = append(rows, PairRow{Src: u, Dst: v, Packets: rp.Units})
		}
	}
	return Aggregate(t, rows), nil
}

// Aggregate sums rows per ordered node pair, whatever their region and
// phase, and returns one row per pair with Src ≠ Dst and a non-zero sum,
// ordered by Src and then Dst, with Region and Phase 0. It does not check
// the node ids (Loads does).
func Aggregate(t *Torus, rows []PairRow) []PairRow {
	n := t.nodes
	if n*n <= 1<<20 {
		sum := make([]int64, n*n)
		for _, r := range rows {
			if r.Src != r.Dst && r.Src >= 0 && r.Src < n && r.Dst >= 0 && r.Dst < n {
				sum[r.Src*n+r.Dst] += r.Packets
			}
		}
		var out []PairRow
		for k, s := range sum {
			if s != 0 {
				out = append(out, PairRow{Src: k / n, Dst: k % n, Packets: s})
			}
		}
		// Ids outside t pass through, for Loads to name them.
		for _, r := range rows {
			if r.Src < 0 || r.Src >= n || r.Dst < 0 || r.Dst >= n {
				out = append(out, PairRow{Src: r.Src, Dst: r.Dst, Packets: r.Packets})
			}
		}
		return out
	}
	sorted := make([]PairRow, 0, len(rows))
	for _, r := range rows {
		if r.Src != r.Dst {
			sorted = append(sorted, PairRow{Src: r.Src, Dst: r.Dst, Packets: r.Packets})
		}
	}
	slices.SortFunc(sorted, func(a, b PairRow) int {
		if a.Src != b.Src {
			return a.Src - b.Src
		}
		return a.Dst - b.Dst
	})
	out := sorted[:0]
	for _, r := range sorted {
		if k := len(out) - 1; k >= 0 && out[k].Src == r.Src && out[k].Dst == r.Dst {
			out[k].Packets += r.Packets
			continue
		}
		out = append(out, r)
	}
	kept := out[:0]
	for _, r := range out {
		if r.Packets != 0 {
			kept = append(kept, r)
		}
	}
	return kept
}

// Loads routes every row onto t's channels (regions and phases ignored:
// select before) and returns the load of every channel. A node outside t
// is an error.
func Loads(t *Torus, rows []PairRow, o RouteOptions) ([]int64, error) {
	r, err := t.Router(o)
	if err != nil {
		return nil, err
	}
	loads := make([]int64, t.Channels())
	for i, p := range rows {
		if p.Src < 0 || p.Src >= t.nodes || p.Dst < 0 || p.Dst >= t.nodes {
			return nil, fmt.Errorf("torus: traffic row %d: %d→%d: node outside 0..%d of %s", i, p.Src, p.Dst, t.nodes-1, t)
		}
		r.Add(loads, p.Src, p.Dst, p.Packets)
	}
	return loads, nil
}
