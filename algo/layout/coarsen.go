package layout

import (
	"context"
	"math/rand/v2"
	"slices"

	"superstep/sdk/graph"
)

// level is one graph of the multilevel hierarchy: the input graph (level
// 0) or a coarsening of the level below it. Vertices are 0..n-1; the
// adjacency is symmetric and may hold self-loops and repeated neighbours
// only at level 0 (both are skipped where they matter).
type level struct {
	n int

	// The input graph, when it is undirected, is used in place; otherwise
	// off/adj hold a CSR adjacency.
	g   *graph.Graph
	off []int
	adj []int32

	// Coarse levels weigh each edge by the number of input edges it stands
	// for and each vertex by the number of input vertices; nil: all 1 (the
	// input graph, whose own edge weights are ignored).
	ew []float32
	vw []float32

	// parent maps each vertex to its vertex on the next coarser level (nil
	// on the coarsest).
	parent []int32

	// k is the typical spacing of the level's vertices relative to the
	// input's (1): it grows with the square root of the shrink factor, and
	// sets the size of the coarsest level's random start.
	k float64

	// group, when not nil, restricts the coarsening to merging vertices of
	// the same group (Options.Groups; dense ids, −1 for none).
	group []int32
}

func (l *level) nbrs(v int) []int32 {
	if l.g != nil {
		return l.g.Neighbors(v)
	}
	return l.adj[l.off[v]:l.off[v+1]]
}

func (l *level) arcs() int {
	if l.g != nil {
		return l.g.NumArcs()
	}
	return len(l.adj)
}

// weights returns v's arc weights, parallel to nbrs(v); nil means every
// weight is 1.
func (l *level) weights(v int) []float32 {
	if l.ew != nil {
		return l.ew[l.off[v]:l.off[v+1]]
	}
	return nil
}

func (l *level) vweight(v int32) float64 {
	if l.vw == nil {
		return 1
	}
	return float64(l.vw[v])
}

// baseLevel wraps the input graph: an undirected graph as it is, a
// directed one as the symmetric union of its arcs (each neighbour once).
// It returns ctx's error if that is cancelled first.
func baseLevel(ctx context.Context, g *graph.Graph) (*level, error) {
	n := g.NumVertices()
	if !g.Directed() {
		return &level{n: n, g: g}, nil
	}
	deg := make([]int, n+1)
	for v := 0; v < n; v++ {
		if err := cancelled(ctx, v); err != nil {
			return nil, err
		}
		for _, u := range g.Neighbors(v) {
			if int(u) != v {
				deg[v]++
				deg[u]++
			}
		}
	}
	off := make([]int, n+1)
	for v := 0; v < n; v++ {
		off[v+1] = off[v] + deg[v]
	}
	adj := make([]int32, off[n])
	fill := slices.Clone(off[:n])
	for v := 0; v < n; v++ {
		if err := cancelled(ctx, v); err != nil {
			return nil, err
		}
		for _, u := range g.Neighbors(v) {
			if int(u) == v {
				continue
			}
			adj[fill[v]], adj[fill[u]] = u, int32(v)
			fill[v]++
			fill[u]++
		}
	}
	// Merge repeated neighbours (an arc and its reverse, parallel arcs).
	l := &level{n: n}
	l.off = make([]int, n+1)
	out := 0
	for v := 0; v < n; v++ {
		if err := cancelled(ctx, v); err != nil {
			return nil, err
		}
		lo, hi := off[v], off[v+1]
		slices.Sort(adj[lo:hi])
		for i := lo; i < hi; i++ {
			if out > l.off[v] && adj[out-1] == adj[i] {
				continue
			}
			adj[out] = adj[i]
			out++
		}
		l.off[v+1] = out
	}
	l.adj = slices.Clip(adj[:out])
	return l, nil
}

// mix is SplitMix64's finaliser: a well-spread hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// degreeOrder returns the vertices in a random order (for rng) stably
// sorted by degree, ascending or descending.
func degreeOrder(l *level, rng *rand.Rand, descending bool) []int32 {
	n := l.n
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	maxDeg := 0
	for v := 0; v < n; v++ {
		maxDeg = max(maxDeg, len(l.nbrs(v)))
	}
	key := func(v int32) int {
		d := len(l.nbrs(int(v)))
		if descending {
			return maxDeg - d
		}
		return d
	}
	start := make([]int, maxDeg+2)
	for _, v := range perm {
		start[key(v)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, n)
	for _, v := range perm {
		k := key(v)
		order[start[k]] = v
		start[k]++
	}
	return order
}

// matchGroups pairs vertices for coarsening: a heavy-edge matching (each
// vertex, lowest degree first, takes its unmatched neighbour with the
// largest edge weight per unit of vertex weight), then — when that left
// more than a quarter of the vertices alone, as stars and scale-free
// graphs do — pairs of still unmatched vertices sharing a neighbour, then
// pairs of isolated vertices. With l.group set, only vertices of the same
// group pair (isolated ones not at all). It returns each vertex's partner
// or −1, or ctx's error if that is cancelled first.
func matchGroups(ctx context.Context, l *level, rng *rand.Rand) ([]int32, error) {
	n := l.n
	order := degreeOrder(l, rng, false)
	salt := rng.Uint64()
	match := make([]int32, n)
	for i := range match {
		match[i] = -1
	}
	pairs := 0
	for k, u := range order {
		if err := cancelled(ctx, k); err != nil {
			return nil, err
		}
		if match[u] >= 0 {
			continue
		}
		ws := l.weights(int(u))
		wu := l.vweight(u)
		best := int32(-1)
		var bestScore float64
		var bestTie uint64
		for i, v := range l.nbrs(int(u)) {
			if v == u || match[v] >= 0 || (l.group != nil && l.group[v] != l.group[u]) {
				continue
			}
			w := 1.0
			if ws != nil {
				w = float64(ws[i])
			}
			score := w / float64(wu*l.vweight(v))
			tie := mix(uint64(v) ^ salt)
			if best < 0 || score > bestScore || (score == bestScore && tie < bestTie) {
				best, bestScore, bestTie = v, score, tie
			}
		}
		if best >= 0 {
			match[u], match[best] = best, u
			pairs++
		}
	}
	if n-pairs > n*3/4 {
		for k, h := range order {
			if err := cancelled(ctx, k); err != nil {
				return nil, err
			}
			pending := int32(-1)
			for _, v := range l.nbrs(int(h)) {
				if v == h || v == pending || match[v] >= 0 {
					continue
				}
				if l.group != nil && pending >= 0 && l.group[v] != l.group[pending] {
					continue
				}
				if pending < 0 {
					pending = v
					continue
				}
				match[pending], match[v] = v, pending
				pending = -1
				pairs++
			}
		}
	}
	lone := int32(-1)
	for v := int32(0); v < int32(n) && l.group == nil; v++ {
		if match[v] >= 0 || hasNeighbour(l, v) {
			continue
		}
		if lone < 0 {
			lone = v
		} else {
			match[lone], match[v] = v, lone
			lone = -1
		}
	}
	return match, nil
}

func hasNeighbour(l *level, v int32) bool {
	for _, u := range l.nbrs(int(v)) {
		if u != v {
			return true
		}
	}
	return false
}

// misGroups aggregates vertices around a maximal independent set: the
// vertices, highest degree first, join the set unless a neighbour already
// has, and every other vertex joins the aggregate of the set member that
// covered it first — unless that aggregate already holds misCap
// vertices (so that a hub cannot swallow the graph in one level). Vertices
// left alone that way (the hub's other leaves) then group, up to misCap
// at a time, with others alone around the same neighbour. It returns each
// vertex's aggregate, named by one of its members; or ctx's error if
// that is cancelled first.
func misGroups(ctx context.Context, l *level, rng *rand.Rand) ([]int32, error) {
	n := l.n
	order := degreeOrder(l, rng, true)
	agg := make([]int32, n)
	for i := range agg {
		agg[i] = -1
	}
	size := make([]int32, n)
	for k, u := range order {
		if err := cancelled(ctx, k); err != nil {
			return nil, err
		}
		if agg[u] >= 0 {
			continue
		}
		agg[u], size[u] = u, 1
		for _, v := range l.nbrs(int(u)) {
			if int(size[u]) >= misCap {
				break
			}
			if agg[v] < 0 {
				agg[v] = u
				size[u]++
			}
		}
	}
	for k, h := range order {
		if err := cancelled(ctx, k); err != nil {
			return nil, err
		}
		lead := int32(-1)
		for _, v := range l.nbrs(int(h)) {
			if v == h || agg[v] != v || size[v] != 1 {
				continue
			}
			if lead < 0 || int(size[lead]) >= misCap {
				lead = v
				continue
			}
			agg[v] = lead
			size[lead]++
			size[v] = 0
		}
	}
	return agg, nil
}

// contract builds the coarse level whose vertices are the groups of the
// fine level: group[v] names a representative vertex of v's group (v
// itself for a representative). Coarse vertices are numbered in order of
// their lowest fine vertex; edge weights and vertex weights add up, edges
// inside a group vanish. It sets fine.parent. The arcs are gathered on
// e's workers; the result does not depend on their number. It returns
// e.ctx's error if that is cancelled first.
func (e *engine) contract(fine *level, group func(v int32) int32) (*level, error) {
	n := fine.n
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	nc := int32(0)
	for v := int32(0); v < int32(n); v++ {
		r := group(v)
		if parent[r] < 0 {
			parent[r] = nc
			nc++
		}
		parent[v] = parent[r]
	}
	fine.parent = parent
	var cgroup []int32 // groups are pure while restricted
	if fine.group != nil {
		cgroup = make([]int32, nc)
		for v := 0; v < n; v++ {
			cgroup[parent[v]] = fine.group[v]
		}
	}

	// Members of each coarse vertex, in fine order (counting sort).
	mstart := make([]int32, nc+1)
	for _, c := range parent {
		mstart[c+1]++
	}
	for c := int32(0); c < nc; c++ {
		mstart[c+1] += mstart[c]
	}
	members := make([]int32, n)
	fill := slices.Clone(mstart[:nc])
	for v, c := range parent {
		members[fill[c]] = int32(v)
		fill[c]++
	}
	fill = nil

	coarse := &level{n: int(nc), group: cgroup}
	coarse.vw = make([]float32, nc)
	for v := int32(0); v < int32(n); v++ {
		coarse.vw[parent[v]] += float32(fine.vweight(v))
	}

	// Two passes over the fine arcs, in parallel over blocks of coarse
	// vertices: count each coarse vertex's distinct neighbours, then fill
	// them with summed weights. Each worker marks the neighbours it has
	// seen in its own array (mark[d] == c+1 in the first pass, −(c+1) in
	// the second: d already seen for c).
	type marks struct {
		mark []int32
		slot []int
	}
	ws := make([]marks, max(e.workers, 1))
	blocks := (int(nc) + contractBlock - 1) / contractBlock
	coarse.off = make([]int, nc+1)
	err := e.parallelWorkers(blocks, func(w, b int) {
		if ws[w].mark == nil {
			ws[w] = marks{make([]int32, nc), make([]int, nc)}
		}
		mark := ws[w].mark
		for c := int32(b * contractBlock); c < min(nc, int32((b+1)*contractBlock)); c++ {
			deg := 0
			for _, v := range members[mstart[c]:mstart[c+1]] {
				for _, u := range fine.nbrs(int(v)) {
					d := parent[u]
					if d != c && mark[d] != c+1 {
						mark[d] = c + 1
						deg++
					}
				}
			}
			coarse.off[c+1] = deg
		}
	})
	if err != nil {
		return nil, err
	}
	for c := int32(0); c < nc; c++ {
		coarse.off[c+1] += coarse.off[c]
	}
	coarse.adj = make([]int32, coarse.off[nc])
	coarse.ew = make([]float32, coarse.off[nc])
	err = e.parallelWorkers(blocks, func(w, b int) {
		if ws[w].mark == nil {
			ws[w] = marks{make([]int32, nc), make([]int, nc)}
		}
		mark, slot := ws[w].mark, ws[w].slot
		for c := int32(b * contractBlock); c < min(nc, int32((b+1)*contractBlock)); c++ {
			out := coarse.off[c]
			for _, v := range members[mstart[c]:mstart[c+1]] {
				wts := fine.weights(int(v))
				for i, u := range fine.nbrs(int(v)) {
					d := parent[u]
					if d == c {
						continue
					}
					wt := float32(1)
					if wts != nil {
						wt = wts[i]
					}
					if mark[d] != -(c + 1) {
						mark[d] = -(c + 1)
						slot[d] = out
						coarse.adj[out] = d
						coarse.ew[out] = wt
						out++
					} else {
						coarse.ew[slot[d]] += wt
					}
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return coarse, nil
}
