// Package quality measures how well a two-dimensional graph layout shows
// its graph, and how alike two layouts of the same graph are.
//
// A layout is a flat slice of coordinates x0, y0, x1, y1, … (two entries
// per vertex, as algo/layout returns it). The measures:
//
//   - PairwiseCorrelation: the Pearson correlation of the Euclidean
//     distances between the same pairs of vertices in two layouts, over a
//     random sample of pairs — the layout correctness test of the SFDP
//     thesis (paper 001), which compared a distributed layout with the
//     plain one over 10% of the vertex pairs.
//   - HopCorrelation: the Pearson correlation between layout distance and
//     graph (hop) distance, from sampled BFS sources.
//   - Stress: normalised stress, Σ (α·d − D)²/D² over the pairs divided by
//     the number of pairs, with the scale α that minimises it, from sampled
//     BFS sources; 0 is a perfect distance-preserving drawing.
//   - NeighbourhoodPreservation: the mean Jaccard similarity between a
//     vertex's graph neighbours and its nearest neighbours in the layout
//     (as many as it has graph neighbours), found with a k-d tree.
//   - GroupShare: the mean share of a vertex's k nearest vertices in the
//     layout that are in its group (planted or detected communities),
//     against ChanceGroupShare, what a random layout scores: whether a
//     drawing keeps communities visible.
//
// Every measure that samples takes a seed; the same seed gives the same
// value on every run. None of them is O(n²): the pair sample is capped at
// MaxPairs, and the BFS and k-d tree measures cost O(sources·(n+m)) and
// O(sample·deg·log n) (O(sample·k·log n) for GroupShare).
//
// A measure that is undefined (fewer than two vertices, no pairs, a
// layout with all vertices at one point) returns NaN.
package quality

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"superstep/internal/parallel"
	"superstep/sdk/graph"
)

// MaxPairs caps the vertex pairs PairwiseCorrelation samples: a tenth of
// the pairs of a 64,000-vertex graph is 2·10⁸, far more than the estimate
// needs (at 10⁷ pairs the standard error of r is below 3·10⁻⁴).
const MaxPairs = 10_000_000

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x7175616c69747921)) // "quality!"
}

// moments accumulates the Pearson correlation of (x, y) pairs with
// Welford's update, stable for millions of pairs; two accumulators merge
// exactly as if their pairs had been added one by one (up to rounding).
type moments struct {
	n          float64
	mx, my     float64
	sxx, syy   float64
	sxy        float64
	sumRatio   float64 // Σ x/y, for stress
	sumRatioSq float64 // Σ (x/y)²
}

func (m *moments) add(x, y float64) {
	m.n++
	dx := x - m.mx
	m.mx += dx / m.n
	dy := y - m.my
	m.my += dy / m.n
	// dx·(y−my_new) is the co-moment update; products are converted
	// explicitly so that no platform fuses them into an FMA.
	m.sxx += float64(dx * (x - m.mx))
	m.syy += float64(dy * (y - m.my))
	m.sxy += float64(dx * (y - m.my))
}

func (m *moments) merge(o *moments) {
	if o.n == 0 {
		return
	}
	if m.n == 0 {
		*m = *o
		return
	}
	n := m.n + o.n
	dx, dy := o.mx-m.mx, o.my-m.my
	f := float64(m.n*o.n) / n
	m.sxx += o.sxx + float64(float64(dx*dx)*f)
	m.syy += o.syy + float64(float64(dy*dy)*f)
	m.sxy += o.sxy + float64(float64(dx*dy)*f)
	m.mx += float64(dx*o.n) / n
	m.my += float64(dy*o.n) / n
	m.n = n
	m.sumRatio += o.sumRatio
	m.sumRatioSq += o.sumRatioSq
}

func (m *moments) pearson() float64 {
	if m.n < 2 || m.sxx <= 0 || m.syy <= 0 {
		return math.NaN()
	}
	r := m.sxy / math.Sqrt(m.sxx) / math.Sqrt(m.syy)
	return max(-1, min(1, r))
}

func checkLayout(fn string, pos []float64, n int) {
	if len(pos) != 2*n {
		panic(fmt.Sprintf("quality.%s: layout has %d coordinates, want %d (2 per vertex)", fn, len(pos), 2*n))
	}
}

func dist(pos []float64, i, j int) float64 {
	dx := pos[2*i] - pos[2*j]
	dy := pos[2*i+1] - pos[2*j+1]
	return math.Sqrt(float64(dx*dx) + float64(dy*dy))
}

// PairwiseCorrelation returns the Pearson correlation coefficient between
// the Euclidean distances of the same vertex pairs in layouts a and b (two
// layouts of one graph, x0, y0, x1, y1, …). It uses a fraction of the
// n(n−1)/2 pairs drawn at random (with replacement) for the seed, at most
// MaxPairs of them; a fraction of 1 or more uses every pair, if there are
// at most MaxPairs. The coefficient ignores translation, rotation,
// reflection and uniform scaling of either layout: a layout and a scaled
// copy of it give 1. It panics if the layouts differ in length or have an
// odd length.
func PairwiseCorrelation(a, b []float64, sampleFraction float64, seed uint64) float64 {
	if len(a) != len(b) || len(a)%2 != 0 {
		panic(fmt.Sprintf("quality.PairwiseCorrelation: layouts of %d and %d coordinates, want equal even lengths", len(a), len(b)))
	}
	n := len(a) / 2
	pairs := float64(n) * float64(n-1) / 2
	var m moments
	if n < 2 || !(sampleFraction > 0) {
		return math.NaN()
	}
	if sampleFraction >= 1 && pairs <= MaxPairs {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				m.add(dist(a, i, j), dist(b, i, j))
			}
		}
		return m.pearson()
	}
	k := int(math.Min(math.Round(sampleFraction*pairs), MaxPairs))
	k = max(k, 1)
	rng := newRand(seed)
	for s := 0; s < k; s++ {
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		m.add(dist(a, i, j), dist(b, i, j))
	}
	return m.pearson()
}

// pick returns k distinct vertices of 0..n-1 chosen at random for the
// seed (all of them, in order, when k ≤ 0 or k ≥ n).
func pick(n, k int, seed uint64) []int {
	if k <= 0 || k >= n {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	}
	rng := newRand(seed)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:k]
}

// hopPairs runs a BFS from each source (over the undirected graph: both
// arc directions of a directed one) and accumulates, per source, the pairs
// (layout distance, hop distance) of every vertex it reaches. The sources
// run in parallel and their accumulators merge in source order, so the
// result does not depend on the number of cores.
func hopPairs(g *graph.Graph, pos []float64, srcs []int) moments {
	n := g.NumVertices()
	var rev *graph.Graph
	if g.Directed() {
		rev = g.Reverse()
	}
	acc := make([]moments, len(srcs))
	forEach(len(srcs), 1, func() func(i int) {
		hop := make([]int32, n)
		for i := range hop {
			hop[i] = -1
		}
		queue := make([]int32, 0, n)
		return func(i int) {
			s := srcs[i]
			queue = append(queue[:0], int32(s))
			hop[s] = 0
			m := &acc[i]
			visit := func(v int, nb []int32) {
				for _, u := range nb {
					if hop[u] < 0 {
						hop[u] = hop[v] + 1
						queue = append(queue, u)
					}
				}
			}
			for h := 0; h < len(queue); h++ {
				v := int(queue[h])
				visit(v, g.Neighbors(v))
				if rev != nil {
					visit(v, rev.Neighbors(v))
				}
			}
			for _, v := range queue[1:] {
				d := dist(pos, s, int(v))
				D := float64(hop[v])
				m.add(d, D)
				r := d / D
				m.sumRatio += r
				m.sumRatioSq += float64(r * r)
			}
			for _, v := range queue {
				hop[v] = -1
			}
		}
	})
	var total moments
	for i := range acc {
		total.merge(&acc[i])
	}
	return total
}

// HopCorrelation returns the Pearson correlation between the layout
// distance and the hop distance of the pairs (s, v), for sampled BFS
// sources s (that many distinct vertices chosen for the seed; all when
// sources ≤ 0 or sources ≥ n) and every vertex v ≠ s that s reaches. A directed graph's arcs count in both
// directions. Good layouts of graphs with long distances (lattices,
// meshes) score near 1; a random layout scores near 0.
func HopCorrelation(g *graph.Graph, pos []float64, sources int, seed uint64) float64 {
	n := g.NumVertices()
	checkLayout("HopCorrelation", pos, n)
	if n < 2 {
		return math.NaN()
	}
	m := hopPairs(g, pos, pick(n, sources, seed))
	return m.pearson()
}

// Stress returns the normalised stress of the layout,
//
//	S = (1/P) Σ (α·d_sv − D_sv)² / D_sv²,
//
// over the P pairs (s, v) of the sampled sources s (as in HopCorrelation)
// and the vertices v ≠ s they reach, where d is the layout distance, D the
// hop distance and α the scale that minimises S (so S does not depend on
// the layout's scale). S = 0 when layout distances are proportional to hop
// distances; it is at most 1 (α = 0), and a random layout of a large graph
// typically scores 0.3–0.6.
func Stress(g *graph.Graph, pos []float64, sources int, seed uint64) float64 {
	n := g.NumVertices()
	checkLayout("Stress", pos, n)
	if n < 2 {
		return math.NaN()
	}
	m := hopPairs(g, pos, pick(n, sources, seed))
	if m.n == 0 || m.sumRatioSq == 0 {
		return math.NaN()
	}
	// With r = d/D, S(α) = (1/P) Σ (α r − 1)², minimised at α = Σr/Σr²,
	// where S = 1 − (Σr)²/(P Σr²).
	s := 1 - m.sumRatio*m.sumRatio/(m.n*m.sumRatioSq)
	return max(0, s)
}

// NeighbourhoodPreservation returns the mean, over sampled vertices v
// (sample distinct vertices chosen for the seed; all when sample ≤ 0 or
// sample ≥ n) with at least one neighbour, of the Jaccard similarity
// |N ∩ L| / |N ∪ L| between v's distinct graph neighbours N (self-loops
// left out; both directions of a directed graph) and the |N| vertices L
// nearest to v in the layout. A lattice drawn as a square grid scores 1; a
// random layout of a sparse graph scores near 0. Nearest neighbours come
// from a k-d tree over the layout, so the cost is O(n log n) to build it
// plus about O(sample·deg·log n) to query.
func NeighbourhoodPreservation(g *graph.Graph, pos []float64, sample int, seed uint64) float64 {
	n := g.NumVertices()
	checkLayout("NeighbourhoodPreservation", pos, n)
	if n < 2 {
		return math.NaN()
	}
	var rev *graph.Graph
	if g.Directed() {
		rev = g.Reverse()
	}
	tree := newKDTree(pos)
	vs := pick(n, sample, seed)
	scores := make([]float64, len(vs)) // NaN for vertices without neighbours
	forEach(len(vs), 64, func() func(i int) {
		mark := make([]int32, n) // mark[u] == v+1: u is a graph neighbour of v
		var nbrs []int32
		var q knnQuery
		return func(i int) {
			v := vs[i]
			tag := int32(v + 1)
			nbrs = nbrs[:0]
			add := func(nb []int32) {
				for _, u := range nb {
					if int(u) != v && mark[u] != tag {
						mark[u] = tag
						nbrs = append(nbrs, u)
					}
				}
			}
			add(g.Neighbors(v))
			if rev != nil {
				add(rev.Neighbors(v))
			}
			k := len(nbrs)
			if k == 0 {
				scores[i] = math.NaN()
				return
			}
			near := tree.nearest(&q, pos[2*v], pos[2*v+1], int32(v), k)
			common := 0
			for _, u := range near {
				if mark[u] == tag {
					common++
				}
			}
			scores[i] = float64(common) / float64(2*k-common)
		}
	})
	sum, count := 0.0, 0
	for _, s := range scores {
		if !math.IsNaN(s) {
			sum += s
			count++
		}
	}
	if count == 0 {
		return math.NaN()
	}
	return sum / float64(count)
}

// forEach calls a body for every item 0..count-1 on GOMAXPROCS goroutines
// (the shared worker pool), which take the items in blocks of block. Each
// goroutine makes its body once with newBody, so that it owns its scratch
// buffers; a body must only write data of its own item. The measures are
// bounded by their sample sizes and take no context.
func forEach(count, block int, newBody func() func(i int)) {
	block = max(block, 1)
	blocks := (count + block - 1) / block
	// Background is never cancelled: the error is always nil.
	_ = parallel.Each(context.Background(), 0, blocks, newBody, func(body func(int), b int) {
		for i := b * block; i < min(count, (b+1)*block); i++ {
			body(i)
		}
	})
}
