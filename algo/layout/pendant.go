package layout

import (
	"context"
	"math"
)

// Pendant trees. In the spring-electrical model every vertex repels every
// other, so a tree that hangs off the body of a large graph by one edge is
// pushed out by the repulsion of the whole body and held by that edge
// alone: the farther from the body, the weaker the push, but it grows
// with the body's size. On the thesis's Facebook graph (63,392 vertices in
// its largest component) a star of 13 vertices on one edge ended 11 times
// the body's 99th-percentile radius away with Hu's model, and 60 times
// with the pipeline's a = 1.5 (whose attraction grows more slowly), so the
// drawing was framed on it and the body shrank to a dot. A tree's place
// says nothing beyond its attachment, so SFDP lays out the rest of the
// graph without them and draws each tree beside the vertex it hangs from,
// fanned out away from that vertex's other neighbours.

// pendant describes the pendant trees of a graph: the vertices removed by
// repeatedly removing vertices of degree 1 (in components that keep a
// cycle; a component that is a tree is laid out whole).
type pendant struct {
	core   []int32 // the remaining vertices, ascending
	index  []int32 // vertex → its index in core, −1 for a tree vertex
	parent []int32 // tree vertex → the neighbour it hangs from; −1 for core
	order  []int32 // tree vertices in the order removed: children first
}

// pendantTrees finds the pendant trees of l, or returns nil if there are
// none.
func pendantTrees(ctx context.Context, l *level) (*pendant, error) {
	n := l.n
	deg := make([]int32, n)
	for v := range n {
		if err := cancelled(ctx, v); err != nil {
			return nil, err
		}
		deg[v] = int32(distinctNeighbours(l, v))
	}
	removed := make([]bool, n)
	parent := make([]int32, n)
	var order, stack []int32
	for v := range n {
		parent[v] = -1
		if deg[v] <= 1 {
			stack = append(stack, int32(v))
		}
	}
	for len(stack) > 0 {
		if err := cancelled(ctx, len(order)); err != nil {
			return nil, err
		}
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if removed[v] {
			continue
		}
		removed[v] = true
		order = append(order, v)
		for _, u := range l.nbrs(int(v)) {
			if u == v || removed[u] {
				continue
			}
			parent[v] = u
			deg[u]--
			if deg[u] == 1 {
				stack = append(stack, u)
			}
			break // a removed vertex has at most one remaining neighbour
		}
	}
	// A vertex removed without a remaining neighbour was the last of a
	// tree component: that whole component stays in the layout. Parents
	// are removed after their children, so walking the order backwards
	// meets a parent first.
	whole := make([]bool, n)
	hanging := 0
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		p := parent[v]
		whole[v] = p < 0 || (removed[p] && whole[p])
		if !whole[v] {
			hanging++
		}
	}
	if hanging == 0 {
		return nil, nil
	}
	t := &pendant{index: make([]int32, n), parent: parent, order: make([]int32, 0, hanging)}
	for _, v := range order {
		if !whole[v] {
			t.order = append(t.order, v)
		}
	}
	for v := range n {
		t.index[v] = -1
		if !removed[v] || whole[v] {
			t.index[v] = int32(len(t.core))
			t.core = append(t.core, int32(v))
			parent[v] = -1
		}
	}
	return t, nil
}

// distinctNeighbours counts v's neighbours other than itself, a repeated
// neighbour once when repeats are adjacent (as in a sorted adjacency).
func distinctNeighbours(l *level, v int) int {
	c, prev := 0, int32(-1)
	for _, u := range l.nbrs(v) {
		if int(u) != v && u != prev {
			c++
		}
		prev = u
	}
	return c
}

// coreLevel is the subgraph of l induced by t.core, renumbered.
func (t *pendant) coreLevel(ctx context.Context, l *level) (*level, error) {
	c := &level{n: len(t.core), k: 1, off: make([]int, len(t.core)+1)}
	for i, v := range t.core {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		for _, u := range l.nbrs(int(v)) {
			if j := t.index[u]; j >= 0 && u != v {
				c.adj = append(c.adj, j)
			}
		}
		c.off[i+1] = len(c.adj)
	}
	return c, nil
}

// restrict returns the entries of a per-vertex slice (stride entries a
// vertex) for the core vertices; nil stays nil.
func restrictTo[T any](t *pendant, a []T, stride int) []T {
	if a == nil {
		return nil
	}
	out := make([]T, 0, stride*len(t.core))
	for _, v := range t.core {
		out = append(out, a[stride*int(v):stride*int(v)+stride]...)
	}
	return out
}

// place draws the pendant trees into pos, which holds the core's
// positions: each tree vertex at one step from the vertex it hangs from,
// the children of a vertex spread over its share of a fan (a half-turn at
// the core vertex, pointing away from its core neighbours), a subtree's
// share growing with its leaves. A step is one unit (the core's mean edge
// length), longer for a vertex with many children (√children/3 units),
// so that a hub's leaves fill a small half-disc rather than a wide arc.
//
// Directions are unit vectors interpolated within a fan, never angles:
// only +, −, ×, ÷ and √, each rounded on its own, so that the placement is
// the same on every machine (see the package doc).
func (t *pendant) place(ctx context.Context, l *level, pos []float64, unit float64) error {
	n := l.n
	// Children in CSR form, and the leaves below each tree vertex.
	first := make([]int32, n+1)
	for _, v := range t.order {
		first[t.parent[v]+1]++
	}
	for v := range n {
		first[v+1] += first[v]
	}
	kids := make([]int32, len(t.order))
	fill := make([]int32, n)
	copy(fill, first[:n])
	leaves := make([]float64, n)
	for _, v := range t.order { // children before parents
		p := t.parent[v]
		kids[fill[p]] = v
		fill[p]++
		leaves[v] = max(leaves[v], 1)
		leaves[p] += leaves[v]
	}

	// placeBelow places the trees below r, each vertex's children within
	// its fan (a stack, not recursion: a pendant path may be long).
	type item struct {
		v int32
		f fan
	}
	var stack []item
	placeBelow := func(r int32, f fan) {
		stack = append(stack[:0], item{r, f})
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			v := it.v
			cs := kids[first[v]:first[v+1]]
			step := unit * max(1, math.Sqrt(float64(len(cs)))/3)
			total := 0.0
			for _, c := range cs {
				total += leaves[c]
			}
			at := 0.0
			for _, c := range cs {
				share := leaves[c] / total
				sub := it.f.sub(at, at+share)
				pos[2*c] = pos[2*v] + float64(step*sub.mid[0])
				pos[2*c+1] = pos[2*v+1] + float64(step*sub.mid[1])
				if first[c] < first[c+1] {
					stack = append(stack, item{c, sub})
				}
				at += share
			}
		}
	}
	for i, r := range t.core {
		if err := cancelled(ctx, i); err != nil {
			return err
		}
		if first[r] == first[r+1] {
			continue
		}
		// Away from the mean of r's core neighbours.
		sx, sy, c := 0.0, 0.0, 0
		for _, u := range l.nbrs(int(r)) {
			if t.index[u] >= 0 && u != r {
				sx += pos[2*u]
				sy += pos[2*u+1]
				c++
			}
		}
		d := vec{1, 0}
		if c > 0 {
			d = unitVec(pos[2*r]-sx/float64(c), pos[2*r+1]-sy/float64(c), d)
		}
		placeBelow(r, fan{from: vec{d[1], -d[0]}, mid: d, to: vec{-d[1], d[0]}})
	}
	return nil
}

// vec is a direction in the plane.
type vec [2]float64

// unitVec is (x, y) scaled to length 1, or fallback if it has none.
func unitVec(x, y float64, fallback vec) vec {
	l := math.Sqrt(float64(x*x) + float64(y*y))
	if !(l > 0) || math.IsInf(l, 0) {
		return fallback
	}
	return vec{x / l, y / l}
}

// fan is a range of directions of at most a half-turn, from one edge
// through its middle to the other: the fraction f ∈ [0, 1] of the fan is
// the direction between from and mid (f ≤ ½) or mid and to, interpolated
// and scaled to length 1 (each half is at most a quarter-turn, where that
// stays close to an even spread of angles).
type fan struct{ from, mid, to vec }

func (f fan) at(x float64) vec {
	a, b, t := f.from, f.mid, 2*x
	if x > 0.5 {
		a, b, t = f.mid, f.to, 2*x-1
	}
	return unitVec(float64((1-t)*a[0])+float64(t*b[0]), float64((1-t)*a[1])+float64(t*b[1]), f.mid)
}

// sub is the part of f from fraction x0 to x1.
func (f fan) sub(x0, x1 float64) fan {
	return fan{from: f.at(x0), mid: f.at((x0 + x1) / 2), to: f.at(x1)}
}
