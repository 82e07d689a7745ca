package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"superstep/sdk/graph"
)

// The generators return an error for parameters that make no graph and
// never panic. Random ones take a seed: the same seed gives the same graph
// (same vertex numbering, same edges, same order) on every run and every
// machine. Vertex ids equal vertex indices 0..n-1.

// maxEdges caps the edges a generator makes: a larger graph would not fit
// in memory, and asking for one is a mistake better reported than tried.
const maxEdges = math.MaxInt32

// newRand returns the generator's random source for seed: a PCG from
// math/rand/v2, whose output for a given seed is fixed by its algorithm.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5375706572737465)) // "Superste"
}

// Lattice returns the undirected rows×cols grid: vertex r*cols+c sits in
// row r, column c and is joined to its right and lower neighbours, so the
// graph has rows*(cols-1) + (rows-1)*cols edges. rows and cols must be at
// least 1.
func Lattice(rows, cols int) (*graph.Graph, error) {
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("datasets.Lattice: rows and cols must be at least 1, got %d×%d", rows, cols)
	}
	if rows > maxVertices/cols {
		return nil, fmt.Errorf("datasets.Lattice: %d×%d is more than %d vertices", rows, cols, maxVertices)
	}
	b := graph.NewBuilder(false)
	for v := 0; v < rows*cols; v++ {
		b.AddVertex(int64(v))
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := int64(r*cols + c)
			if c+1 < cols {
				b.AddEdge(v, v+1)
			}
			if r+1 < rows {
				b.AddEdge(v, v+int64(cols))
			}
		}
	}
	return b.Build(), nil
}

// ErdosRenyi returns a uniformly random graph G(n, m): n vertices and m
// distinct edges chosen uniformly among all n(n-1)/2 vertex pairs (n(n-1)
// ordered pairs if directed), without self-loops or parallel edges. m may
// be anything from 0 to that number of pairs (and at most 2³¹-1); n at
// most 2³¹-1. Expected time and memory are linear in n + m: a million
// vertices and ten million edges take about two seconds. For more than
// half of all pairs the pairs left out are drawn instead, so a dense graph
// costs no more than its edges.
func ErdosRenyi(n, m int, directed bool, seed uint64) (*graph.Graph, error) {
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("datasets.ErdosRenyi: n must be in 0..%d, got %d", maxVertices, n)
	}
	pairs := uint64(n) * uint64(max(n-1, 0))
	if !directed {
		pairs /= 2
	}
	if m < 0 || uint64(m) > pairs {
		return nil, fmt.Errorf("datasets.ErdosRenyi: m must be in 0..%d for n = %d, got %d", pairs, n, m)
	}
	if m > maxEdges {
		return nil, fmt.Errorf("datasets.ErdosRenyi: m must be at most %d, got %d", maxEdges, m)
	}
	// Draw the edges as distinct numbers in 0..pairs-1, in increasing
	// order; for a dense graph draw the pairs left out instead.
	rng := newRand(seed)
	complement := uint64(m) > pairs/2
	k := uint64(m)
	if complement {
		k = pairs - uint64(m)
	}
	chosen := sample(rng, pairs, int(k))

	b := graph.NewBuilder(directed)
	for v := 0; v < n; v++ {
		b.AddVertex(int64(v))
	}
	var add func(p uint64)
	if directed {
		// Pair p is the arc u→v with u = p/(n-1) and v the (p mod
		// (n-1))-th vertex other than u.
		add = func(p uint64) {
			u, r := p/uint64(n-1), p%uint64(n-1)
			v := r
			if v >= u {
				v++
			}
			b.AddEdge(int64(u), int64(v))
		}
	} else {
		// Pairs are numbered row by row: u's pairs {u, v}, v > u, start at
		// rowStart and there are n-1-u of them. Pairs arrive in increasing
		// order, so the row only moves forward.
		var u, rowStart uint64
		add = func(p uint64) {
			for p >= rowStart+uint64(n-1)-u {
				rowStart += uint64(n-1) - u
				u++
			}
			b.AddEdge(int64(u), int64(u+1+p-rowStart))
		}
	}
	if !complement {
		for _, p := range chosen {
			add(p)
		}
	} else {
		next := 0
		for p := uint64(0); p < pairs; p++ {
			if next < len(chosen) && chosen[next] == p {
				next++
				continue
			}
			add(p)
		}
	}
	return b.Build(), nil
}

// sample returns k distinct numbers from 0..n-1, sorted, chosen uniformly
// among all k-subsets (k ≤ n/2 keeps the rounds few). It draws with
// replacement until k distinct numbers are seen, in rounds that each draw
// exactly as many as are missing, so the result is that of drawing one by
// one: a uniform k-subset.
func sample(rng *rand.Rand, n uint64, k int) []uint64 {
	batch := make([]uint64, k)
	for i := range batch {
		batch[i] = rng.Uint64N(n)
	}
	set := make([]uint64, k)
	sortUniform(batch, set, n)
	set = slices.Compact(set)
	for len(set) < k {
		batch = batch[:0]
		for i := len(set); i < k; i++ {
			batch = append(batch, rng.Uint64N(n))
		}
		slices.Sort(batch)
		batch = slices.Compact(batch)
		// Keep the drawn numbers that are new, then merge from the back
		// into set's spare capacity.
		fresh := batch[:0]
		i := 0
		for _, x := range batch {
			for i < len(set) && set[i] < x {
				i++
			}
			if i == len(set) || set[i] != x {
				fresh = append(fresh, x)
			}
		}
		a, b := len(set)-1, len(fresh)-1
		set = set[:len(set)+len(fresh)]
		for w := len(set) - 1; b >= 0; w-- {
			if a >= 0 && set[a] > fresh[b] {
				set[w] = set[a]
				a--
			} else {
				set[w] = fresh[b]
				b--
			}
		}
	}
	return set
}

// sortUniform writes src, numbers spread evenly over 0..n-1, sorted into
// dst (of the same length): a bucket sort on the high bits, linear in time
// for such input.
func sortUniform(src, dst []uint64, n uint64) {
	if len(src) == 0 {
		return
	}
	// Buckets of 2^shift numbers each, about one per 8 elements.
	shift := uint(0)
	for (n-1)>>shift >= uint64(len(src)/8+1) {
		shift++
	}
	buckets := int((n-1)>>shift) + 1
	start := make([]int, buckets+1)
	for _, x := range src {
		start[x>>shift+1]++
	}
	for i := 1; i <= buckets; i++ {
		start[i] += start[i-1]
	}
	pos := slices.Clone(start[:buckets])
	for _, x := range src {
		b := x >> shift
		dst[pos[b]] = x
		pos[b]++
	}
	for i := 0; i < buckets; i++ {
		part := dst[start[i]:start[i+1]]
		for j := 1; j < len(part); j++ {
			for l := j; l > 0 && part[l] < part[l-1]; l-- {
				part[l], part[l-1] = part[l-1], part[l]
			}
		}
	}
}

// BarabasiAlbert returns an undirected scale-free graph grown by
// preferential attachment: vertices 0..m-1 start without edges, vertex m
// joins all of them, and each later vertex v joins m distinct earlier
// vertices, each chosen with probability proportional to its degree (as in
// networkx's barabasi_albert_graph). The graph has n vertices and m(n-m)
// edges; it needs 1 ≤ m < n.
func BarabasiAlbert(n, m int, seed uint64) (*graph.Graph, error) {
	if m < 1 || m >= n {
		return nil, fmt.Errorf("datasets.BarabasiAlbert: need 1 ≤ m < n, got n = %d, m = %d", n, m)
	}
	if n > maxVertices || int64(m)*int64(n-m) > maxEdges {
		return nil, fmt.Errorf("datasets.BarabasiAlbert: n = %d, m = %d makes more than %d vertices or %d edges", n, m, maxVertices, maxEdges)
	}
	rng := newRand(seed)
	b := graph.NewBuilder(false)
	for v := 0; v < n; v++ {
		b.AddVertex(int64(v))
	}
	// ends holds both ends of every edge so far: a uniform pick from it is
	// a vertex picked with probability proportional to its degree.
	ends := make([]int32, 0, 2*m*(n-m))
	mark := make([]int32, n) // mark[t] == w: vertex w already joins t
	targets := make([]int32, 0, m)
	for t := 0; t < m; t++ {
		targets = append(targets, int32(t))
	}
	for v := m; v < n; v++ {
		for _, t := range targets {
			b.AddEdge(int64(v), int64(t))
			ends = append(ends, int32(v), t)
		}
		if v+1 == n {
			break
		}
		targets = targets[:0]
		for len(targets) < m {
			t := ends[rng.IntN(len(ends))]
			if next := int32(v + 1); mark[t] != next {
				mark[t] = next
				targets = append(targets, t)
			}
		}
	}
	return b.Build(), nil
}
