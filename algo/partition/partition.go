// Package partition assigns the vertices of a graph to k workers, as the
// BSP engine needs: Hash (the Pregel default), Range (contiguous index
// ranges) and LabelPropagation, a locality-improving partitioner in the
// spirit of Spinner (Martella et al., "Spinner: Scalable Graph
// Partitioning in the Cloud", ICDE 2017), plus Quality to measure any
// assignment's edge cut and load balance.
//
// An assignment is a []int32 with one worker in 0..k-1 per vertex index.
// Every function is deterministic: LabelPropagation draws its random
// choices from a generator seeded by Options.Seed.
package partition

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"superstep/sdk/graph"
)

func checkK(k int) {
	if k < 1 {
		panic(fmt.Sprintf("partition: k = %d workers, want at least 1", k))
	}
}

// mix is the 64-bit finalizer of MurmurHash3 (fmix64): a fixed, well
// spread integer hash, identical on every run and platform.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Hash assigns vertex v to worker hash(g.ID(v)) mod k, Pregel's default
// partitioning. The hash is MurmurHash3's 64-bit finalizer applied to the
// input id, so the assignment depends only on the ids, not on the order
// the vertices were read in, and is the same on every run and machine.
func Hash(g *graph.Graph, k int) []int32 {
	checkK(k)
	part := make([]int32, g.NumVertices())
	for v := range part {
		part[v] = int32(mix(uint64(g.ID(v))) % uint64(k))
	}
	return part
}

// Range assigns contiguous index ranges of equal size (differing by at
// most one vertex) to workers 0..k-1 in order: vertex v goes to
// ⌊v·k/n⌋.
func Range(g *graph.Graph, k int) []int32 {
	checkK(k)
	n := g.NumVertices()
	part := make([]int32, n)
	for v := range part {
		part[v] = int32(int64(v) * int64(k) / int64(n))
	}
	return part
}

// LoadKind says what a worker's load counts.
type LoadKind int

const (
	// Vertices counts each vertex as one unit of load (the default).
	Vertices LoadKind = iota
	// Edges counts each vertex as its degree in the undirected view, as
	// Spinner does: a worker's load is then the edges it handles.
	Edges
)

// Options tunes LabelPropagation. The zero value is usable.
type Options struct {
	// Slack is how far above the mean load a worker may go: capacity
	// C = (1+Slack)·total load/k. Zero or less means 0.05.
	Slack float64
	// Load chooses what a worker's load counts: Vertices (default) or Edges.
	Load LoadKind
	// MaxIterations caps the iterations; zero or less means 100.
	MaxIterations int
	// Seed seeds the random choices (tie breaks and migrations).
	Seed uint64
	// Patience: stop once the score has not improved by more than
	// Epsilon·n for this many consecutive iterations. Zero or less means
	// 5 for Patience and 0.001 for Epsilon, Spinner's defaults.
	Patience int
	Epsilon  float64
}

// LabelPropagation partitions g into k parts with few cut edges and
// balanced loads, after Spinner. Edge direction is ignored: a pair joined
// in both directions weighs 2, in one direction 1; self-loops are ignored.
//
// It starts from the Hash partition and iterates. In each iteration every
// vertex v scores each label l as
//
//	score(v, l) = (weight of v's neighbours labelled l)/(v's total weight) − load'(l)/C
//
// with C = (1+Slack)·total load/k and load'(l) the load l would have if v
// chose it (its current load, plus v's own load when l is not v's label:
// a small departure from Spinner, which compares loads without v and so
// lets a vertex leave a balanced label for an equally loaded one; on small
// dense graphs that kept two equal cliques swapping halves forever). A
// vertex wants the best-scoring label: its current one if that is among
// the best, else one of the best at random.
// The wishes are computed synchronously from the same labelling, as a BSP
// superstep would. Then, as in Spinner, a vertex wishing to move to l does
// so with probability min(1, (C−load(l))/(load wishing to enter l)), which
// keeps a label's expected load within C and breaks the oscillations of
// synchronous label propagation. Moves are applied in index order and,
// beyond Spinner, none enters a label already at or above C, so a label's
// load stays below C plus one vertex's load (unless the hash start was
// already above that). It stops when the total score
// Σ_v score(v, label(v)) has not improved by more than Epsilon·n for
// Patience iterations, or after MaxIterations; the best-scoring labelling
// seen is returned.
//
// An iteration costs O(n·k + m), so on a large graph the whole run takes
// seconds: it returns promptly when ctx is cancelled, with an error
// wrapping ctx.Err() (in a notebook, pass sdk.Context()).
func LabelPropagation(ctx context.Context, g *graph.Graph, k int, opts Options) ([]int32, error) {
	part, err := labelPropagation(ctx, g, k, opts)
	if err != nil {
		return nil, fmt.Errorf("partition.LabelPropagation: %w", err)
	}
	return part, nil
}

// checkEvery is how many vertices a loop handles between two looks at the
// context: well under a millisecond of work.
const checkEvery = 1 << 12

func labelPropagation(ctx context.Context, g *graph.Graph, k int, opts Options) ([]int32, error) {
	checkK(k)
	n := g.NumVertices()
	if opts.Slack <= 0 {
		opts.Slack = 0.05
	}
	if opts.MaxIterations <= 0 {
		opts.MaxIterations = 100
	}
	if opts.Patience <= 0 {
		opts.Patience = 5
	}
	if opts.Epsilon <= 0 {
		opts.Epsilon = 0.001
	}
	part := Hash(g, k)
	if k == 1 || n == 0 {
		return part, nil
	}
	adj, err := undirectedView(ctx, g)
	if err != nil {
		return nil, err
	}

	// loads
	vload := make([]float64, n)
	total := 0.0
	for v := 0; v < n; v++ {
		if opts.Load == Edges {
			vload[v] = adj.weight(v)
		} else {
			vload[v] = 1
		}
		total += vload[v]
	}
	capacity := (1 + opts.Slack) * total / float64(k)
	load := make([]float64, k)
	for v := 0; v < n; v++ {
		load[part[v]] += vload[v]
	}

	rng := rand.New(rand.NewPCG(opts.Seed, 0x5350494e4e4552)) // "SPINNER"
	count := make([]float64, k)                               // scratch: neighbour weight per label
	want := make([]int32, n)
	demand := make([]float64, k)
	best := append([]int32(nil), part...)
	bestScore := math.Inf(-1)
	stale := 0
	ties := make([]int32, 0, k)

	for it := 0; it < opts.MaxIterations; it++ {
		// Compute wishes (and the score of the current labelling).
		score, wishes := 0.0, 0
		for l := range demand {
			demand[l] = 0
		}
		for v := 0; v < n; v++ {
			if v%checkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			cur := part[v]
			want[v] = cur
			nb, wt := adj.neighbors(v)
			tot := 0.0
			for i, u := range nb {
				count[part[u]] += wt[i]
				tot += wt[i]
			}
			if tot == 0 {
				score -= load[cur] / capacity
				continue // isolated: stays
			}
			s := func(l int32) float64 {
				after := load[l] // l's load if v chooses it
				if l != cur {
					after += vload[v]
				}
				return count[l]/tot - after/capacity
			}
			curScore := s(cur)
			score += curScore
			top := curScore
			ties = ties[:0]
			for l := int32(0); l < int32(k); l++ {
				switch sl := s(l); {
				case sl > top:
					top = sl
					ties = append(ties[:0], l)
				case sl == top && l != cur && len(ties) > 0:
					ties = append(ties, l)
				}
			}
			for _, u := range nb {
				count[part[u]] = 0
			}
			if len(ties) > 0 && top > curScore {
				want[v] = ties[rng.IntN(len(ties))]
				demand[want[v]] += vload[v]
				wishes++
			}
		}
		if score > bestScore+opts.Epsilon*float64(n) {
			stale = 0
		} else {
			stale++
		}
		if score > bestScore {
			bestScore = score
			copy(best, part)
		}
		if stale >= opts.Patience || wishes == 0 {
			break // no improvement for a while, or a fixed point
		}
		// Migrate.
		for v := 0; v < n; v++ {
			l := want[v]
			if l == part[v] {
				continue
			}
			room := capacity - load[l]
			if room <= 0 {
				continue
			}
			if demand[l] > room && rng.Float64()*demand[l] >= room {
				continue
			}
			load[part[v]] -= vload[v]
			load[l] += vload[v]
			part[v] = l
		}
	}
	return best, nil
}

// undirected is the undirected, weighted view of a graph: CSR lists of
// neighbours with multiplicities (a reciprocal pair of arcs weighs 2),
// self-loops removed.
type undirected struct {
	off []int
	nb  []int32
	w   []float64
}

func (a *undirected) neighbors(v int) ([]int32, []float64) {
	return a.nb[a.off[v]:a.off[v+1]], a.w[a.off[v]:a.off[v+1]]
}

func (a *undirected) weight(v int) float64 {
	s := 0.0
	for _, x := range a.w[a.off[v]:a.off[v+1]] {
		s += x
	}
	return s
}

func undirectedView(ctx context.Context, g *graph.Graph) (*undirected, error) {
	n := g.NumVertices()
	var rev *graph.Graph
	if g.Directed() {
		rev = g.Reverse()
	}
	a := &undirected{off: make([]int, n+1)}
	last := make([]int, n) // position+1 of u in v's list, for merging
	for v := 0; v < n; v++ {
		if v%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		start := len(a.nb)
		add := func(u int32) {
			if int(u) == v {
				return
			}
			if p := last[u]; p > start {
				a.w[p-1]++
				return
			}
			a.nb = append(a.nb, u)
			a.w = append(a.w, 1)
			last[u] = len(a.nb)
		}
		for _, u := range g.Neighbors(v) {
			add(u)
		}
		if rev != nil {
			for _, u := range rev.Neighbors(v) {
				add(u)
			}
		}
		a.off[v+1] = len(a.nb)
	}
	return a, nil
}

// Stats describes an assignment.
type Stats struct {
	// EdgeCut is the number of edges whose endpoints lie on different
	// workers (each arc of a directed graph, each undirected edge once;
	// self-loops never).
	EdgeCut int
	// CutFraction is EdgeCut / NumEdges (0 for a graph without edges).
	CutFraction float64
	// Loads is the number of vertices on each worker.
	Loads []int
	// Balance is the largest load over the mean load (1 is perfect).
	Balance float64
	// EdgeLoads is the sum of the degrees (out-degree for a directed
	// graph) of each worker's vertices, and EdgeBalance its max over mean.
	EdgeLoads   []int
	EdgeBalance float64
}

// Quality measures an assignment of g's vertices to k workers. It panics
// if part has the wrong length or a worker outside 0..k-1.
func Quality(g *graph.Graph, part []int32, k int) Stats {
	checkK(k)
	n := g.NumVertices()
	if len(part) != n {
		panic(fmt.Sprintf("partition: assignment has %d entries for %d vertices", len(part), n))
	}
	st := Stats{Loads: make([]int, k), EdgeLoads: make([]int, k)}
	cutArcs := 0
	for v := 0; v < n; v++ {
		p := part[v]
		if p < 0 || int(p) >= k {
			panic(fmt.Sprintf("partition: vertex %d on worker %d, want 0..%d", v, p, k-1))
		}
		st.Loads[p]++
		st.EdgeLoads[p] += g.Degree(v)
		for _, u := range g.Neighbors(v) {
			if part[u] != p {
				cutArcs++
			}
		}
	}
	if g.Directed() {
		st.EdgeCut = cutArcs
	} else {
		st.EdgeCut = cutArcs / 2 // stored in both directions
	}
	if m := g.NumEdges(); m > 0 {
		st.CutFraction = float64(st.EdgeCut) / float64(m)
	}
	st.Balance = balance(st.Loads)
	st.EdgeBalance = balance(st.EdgeLoads)
	return st
}

func balance(loads []int) float64 {
	sum, top := 0, 0
	for _, l := range loads {
		sum += l
		top = max(top, l)
	}
	if sum == 0 {
		return 1
	}
	return float64(top) * float64(len(loads)) / float64(sum)
}
