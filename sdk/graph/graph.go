// Package graph is Superstep's one graph type: a compact CSR (compressed
// sparse row) adjacency, directed or undirected, with optional edge weights
// and a mapping from the input's vertex ids to dense indices 0..n-1.
//
// Every other package (readers, generators, the BSP engine, algorithms,
// layouts) takes a *Graph. It is immutable once built and safe to share
// between goroutines.
package graph

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Graph is an immutable CSR adjacency. Vertices are dense indices 0..n-1;
// ID maps an index back to the id the input used. An undirected graph
// stores each edge in both directions, so Neighbors(v) lists every
// neighbour; NumEdges counts each undirected edge once.
type Graph struct {
	directed bool
	offsets  []int     // len n+1: the out-edges of v are targets[offsets[v]:offsets[v+1]]
	targets  []int32   // neighbour indices
	weights  []float64 // parallel to targets; nil when unweighted
	ids      []int64   // index → input id
	labels   []string  // index → label; nil when the input had none
	index    map[int64]int32
	edges    int // input edges (undirected: counted once, self-loops once)
}

// NumVertices is the number of vertices.
func (g *Graph) NumVertices() int { return len(g.offsets) - 1 }

// NumEdges is the number of edges: directed arcs, or undirected edges
// counted once.
func (g *Graph) NumEdges() int { return g.edges }

// NumArcs is the number of stored adjacency entries: NumEdges for a
// directed graph, about twice that for an undirected one.
func (g *Graph) NumArcs() int { return len(g.targets) }

// Directed reports whether the graph is directed.
func (g *Graph) Directed() bool { return g.directed }

// Weighted reports whether the edges carry weights.
func (g *Graph) Weighted() bool { return g.weights != nil }

// Neighbors returns the out-neighbours of v (all neighbours if undirected).
// The slice is shared: do not modify it.
func (g *Graph) Neighbors(v int) []int32 { return g.targets[g.offsets[v]:g.offsets[v+1]] }

// EdgeWeights returns the weights parallel to Neighbors(v), or nil for an
// unweighted graph (Weight reads one arc's weight either way). The slice
// is shared: do not modify it.
func (g *Graph) EdgeWeights(v int) []float64 {
	if g.weights == nil {
		return nil
	}
	return g.weights[g.offsets[v]:g.offsets[v+1]]
}

// Weight is the weight of arc a (a position from ArcRange): its weight
// in a weighted graph, 1 in an unweighted one. It is the one way to read
// an edge's weight without caring whether the graph has weights:
//
//	lo, _ := g.ArcRange(v)
//	for i, u := range g.Neighbors(v) {
//		w := g.Weight(lo + i)
//		…
//	}
func (g *Graph) Weight(a int) float64 {
	if g.weights == nil {
		return 1
	}
	return g.weights[a]
}

// Degree is the out-degree of v (the degree if undirected).
func (g *Graph) Degree(v int) int { return g.offsets[v+1] - g.offsets[v] }

// ArcRange returns the positions of v's arcs in the CSR arrays: the arcs of
// v are numbered start..end-1, for per-arc data kept beside the graph.
func (g *Graph) ArcRange(v int) (start, end int) { return g.offsets[v], g.offsets[v+1] }

// ID returns the input id of vertex v.
func (g *Graph) ID(v int) int64 { return g.ids[v] }

// Label returns the label of vertex v, or its id as text.
func (g *Graph) Label(v int) string {
	if g.labels != nil && g.labels[v] != "" {
		return g.labels[v]
	}
	return fmt.Sprint(g.ids[v])
}

// Index returns the vertex with input id, if there is one.
func (g *Graph) Index(id int64) (int, bool) {
	v, ok := g.index[id]
	return int(v), ok
}

// String summarises the graph.
func (g *Graph) String() string {
	kind := "undirected"
	if g.directed {
		kind = "directed"
	}
	w := ""
	if g.weights != nil {
		w = ", weighted"
	}
	return fmt.Sprintf("%s graph: %d vertices, %d edges%s", kind, g.NumVertices(), g.NumEdges(), w)
}

// Builder collects edges by input id and builds a Graph.
type Builder struct {
	directed bool
	weighted bool
	ids      []int64
	labels   []string
	index    map[int64]int32
	src, dst []int32
	w        []float64
}

// NewBuilder starts a graph.
func NewBuilder(directed bool) *Builder {
	return &Builder{directed: directed, index: map[int64]int32{}}
}

// AddVertex adds a vertex with an input id (AddEdge adds them as needed)
// and returns its index.
func (b *Builder) AddVertex(id int64) int {
	if v, ok := b.index[id]; ok {
		return int(v)
	}
	v := int32(len(b.ids))
	b.index[id] = v
	b.ids = append(b.ids, id)
	if b.labels != nil {
		b.labels = append(b.labels, "")
	}
	return int(v)
}

// SetLabel gives vertex id a label (adding the vertex if needed).
func (b *Builder) SetLabel(id int64, label string) {
	v := b.AddVertex(id)
	if b.labels == nil {
		b.labels = make([]string, len(b.ids))
	}
	b.labels[v] = label
}

// AddEdge adds an edge between input ids u and v with weight 1.
func (b *Builder) AddEdge(u, v int64) { b.AddWeightedEdge(u, v, 1) }

// AddWeightedEdge adds an edge with a weight; any weight other than 1
// makes the graph weighted.
func (b *Builder) AddWeightedEdge(u, v int64, w float64) {
	iu, iv := int32(b.AddVertex(u)), int32(b.AddVertex(v))
	if w != 1 && !b.weighted {
		b.weighted = true
		b.w = make([]float64, len(b.src), cap(b.src))
		for i := range b.w {
			b.w[i] = 1
		}
	}
	b.src = append(b.src, iu)
	b.dst = append(b.dst, iv)
	if b.weighted {
		b.w = append(b.w, w)
	}
}

// NumVertices is the number of vertices added so far.
func (b *Builder) NumVertices() int { return len(b.ids) }

// Build makes the graph. Neighbour lists are sorted by index; parallel
// edges are kept (a multigraph stays one).
func (b *Builder) Build() *Graph {
	n := len(b.ids)
	g := &Graph{directed: b.directed, ids: b.ids, labels: b.labels, index: b.index, edges: len(b.src)}
	deg := make([]int, n+1)
	for i := range b.src {
		deg[b.src[i]]++
		if !b.directed && b.src[i] != b.dst[i] {
			deg[b.dst[i]]++
		}
	}
	g.offsets = make([]int, n+1)
	for v := 0; v < n; v++ {
		g.offsets[v+1] = g.offsets[v] + deg[v]
	}
	g.targets = make([]int32, g.offsets[n])
	if b.weighted {
		g.weights = make([]float64, g.offsets[n])
	}
	pos := append([]int(nil), g.offsets[:n]...)
	put := func(u, v int32, i int) {
		g.targets[pos[u]] = v
		if b.weighted {
			g.weights[pos[u]] = b.w[i]
		}
		pos[u]++
	}
	for i := range b.src {
		put(b.src[i], b.dst[i], i)
		if !b.directed && b.src[i] != b.dst[i] {
			put(b.dst[i], b.src[i], i)
		}
	}
	for v := 0; v < n; v++ {
		lo, hi := g.offsets[v], g.offsets[v+1]
		if b.weighted {
			SortArcs(g.targets[lo:hi], g.weights[lo:hi])
		} else {
			slices.Sort(g.targets[lo:hi])
		}
	}
	b.src, b.dst, b.w = nil, nil, nil
	return g
}

// SortArcs sorts a neighbour list by target, moving each weight with its
// target (for readers that build CSR arrays themselves).
func SortArcs(targets []int32, weights []float64) { sort.Sort(arcs{targets, weights}) }

type arcs struct {
	t []int32
	w []float64
}

func (a arcs) Len() int           { return len(a.t) }
func (a arcs) Less(i, j int) bool { return a.t[i] < a.t[j] }
func (a arcs) Swap(i, j int) {
	a.t[i], a.t[j] = a.t[j], a.t[i]
	a.w[i], a.w[j] = a.w[j], a.w[i]
}

// FromCSR makes a graph from its compressed sparse rows, which it keeps
// (the caller must not change them): vertex v has input id ids[v] and the
// arcs targets[offsets[v]:offsets[v+1]] (sorted by target), with weights
// parallel to targets (nil: unweighted); edges is what NumEdges reports.
// An undirected graph's arcs need not be symmetric: a process of a
// distributed job holds the arcs of its own vertices only. It is for
// readers that fill the arrays themselves; the error names the first
// array that is inconsistent.
func FromCSR(directed bool, ids []int64, offsets []int, targets []int32, weights []float64, edges int) (*Graph, error) {
	n := len(ids)
	switch {
	case len(offsets) != n+1:
		return nil, fmt.Errorf("graph.FromCSR: %d offsets for %d vertices, want %d", len(offsets), n, n+1)
	case offsets[0] != 0 || offsets[n] != len(targets):
		return nil, fmt.Errorf("graph.FromCSR: offsets run from %d to %d, want 0 to %d (the targets)", offsets[0], offsets[n], len(targets))
	case weights != nil && len(weights) != len(targets):
		return nil, fmt.Errorf("graph.FromCSR: %d weights for %d targets", len(weights), len(targets))
	case n > math.MaxInt32:
		return nil, fmt.Errorf("graph.FromCSR: %d vertices, at most %d", n, math.MaxInt32)
	}
	for v := 0; v < n; v++ {
		if offsets[v+1] < offsets[v] {
			return nil, fmt.Errorf("graph.FromCSR: offsets decrease at vertex %d", v)
		}
		for i := offsets[v]; i < offsets[v+1]; i++ {
			if targets[i] < 0 || int(targets[i]) >= n {
				return nil, fmt.Errorf("graph.FromCSR: vertex %d has a target %d outside 0..%d", v, targets[i], n-1)
			}
			if i > offsets[v] && targets[i] < targets[i-1] {
				return nil, fmt.Errorf("graph.FromCSR: vertex %d's targets are not sorted", v)
			}
		}
	}
	index := make(map[int64]int32, n)
	for v, id := range ids {
		if _, dup := index[id]; dup {
			return nil, fmt.Errorf("graph.FromCSR: id %d is given to two vertices", id)
		}
		index[id] = int32(v)
	}
	return &Graph{directed: directed, offsets: offsets, targets: targets, weights: weights, ids: ids, index: index, edges: edges}, nil
}

// FromEdges builds a graph on vertices 0..n-1 (ids equal indices) from
// index pairs: a convenience for tests and generators.
func FromEdges(n int, directed bool, edges [][2]int) *Graph {
	b := NewBuilder(directed)
	for v := 0; v < n; v++ {
		b.AddVertex(int64(v))
	}
	for _, e := range edges {
		if e[0] < 0 || e[0] >= n || e[1] < 0 || e[1] >= n {
			panic(fmt.Sprintf("graph.FromEdges: edge %v outside 0..%d", e, n-1))
		}
		b.AddEdge(int64(e[0]), int64(e[1]))
	}
	return b.Build()
}

// Reverse returns the graph with every arc reversed (the in-adjacency of a
// directed graph); an undirected graph is returned as is.
func (g *Graph) Reverse() *Graph {
	if !g.directed {
		return g
	}
	b := &Builder{directed: true, ids: g.ids, labels: g.labels, index: g.index}
	b.weighted = g.weights != nil
	for v := 0; v < g.NumVertices(); v++ {
		lo, _ := g.ArcRange(v)
		for i, u := range g.Neighbors(v) {
			b.src = append(b.src, u)
			b.dst = append(b.dst, int32(v))
			if b.weighted {
				b.w = append(b.w, g.Weight(lo+i))
			}
		}
	}
	return b.Build()
}

// Keep returns g with the same vertices (ids, labels, index) but only the
// out-arcs of the vertices keep accepts: what one process of a
// distributed job needs of the graph (the arcs of its own vertices).
// Directed and NumEdges still describe the whole graph; NumArcs, Degree
// and Neighbors describe the kept arcs (a vertex not kept has none).
func (g *Graph) Keep(keep func(v int) bool) *Graph {
	n := g.NumVertices()
	k := &Graph{directed: g.directed, ids: g.ids, labels: g.labels, index: g.index, edges: g.edges}
	k.offsets = make([]int, n+1)
	total := 0
	for v := 0; v < n; v++ {
		if keep(v) {
			total += g.Degree(v)
		}
		k.offsets[v+1] = total
	}
	k.targets = make([]int32, 0, total)
	if g.weights != nil {
		k.weights = make([]float64, 0, total)
	}
	for v := 0; v < n; v++ {
		if k.offsets[v+1] > k.offsets[v] {
			lo, hi := g.ArcRange(v)
			k.targets = append(k.targets, g.targets[lo:hi]...)
			if g.weights != nil {
				k.weights = append(k.weights, g.weights[lo:hi]...)
			}
		}
	}
	return k
}
