// Package sequential holds plain, single-threaded reference versions of
// the classic graph algorithms that Superstep also runs as BSP vertex
// programs: shortest paths (Dijkstra, BFS), PageRank and connected
// components. They define what the vertex programs must compute, so the
// engine's results can be checked against them, and they are handy on
// their own for small and medium graphs.
//
// Vertices are the graph's dense indices 0..n-1; every function returns a
// slice indexed by vertex.
package sequential

import (
	"container/heap"
	"fmt"
	"math"

	"superstep/sdk/graph"
)

func checkVertex(g *graph.Graph, v int) {
	if v < 0 || v >= g.NumVertices() {
		panic(fmt.Sprintf("sequential: source vertex %d outside 0..%d", v, g.NumVertices()-1))
	}
}

// Dijkstra returns the shortest-path distance from src to every vertex,
// following edges in their direction (both ways if g is undirected). Edge
// lengths are the weights (g.Weight, 1 for an unweighted graph); unreachable
// vertices get +Inf. It panics on a negative edge length, for which
// Dijkstra's algorithm is wrong, and on an out-of-range src.
func Dijkstra(g *graph.Graph, src int) []float64 {
	checkVertex(g, src)
	n := g.NumVertices()
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	done := make([]bool, n)
	dist[src] = 0
	q := &distHeap{{v: src, d: 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if done[it.v] {
			continue // a stale entry
		}
		done[it.v] = true
		lo, _ := g.ArcRange(it.v)
		for i, u := range g.Neighbors(it.v) {
			w := g.Weight(lo + i)
			if w < 0 || math.IsNaN(w) {
				panic(fmt.Sprintf("sequential: Dijkstra needs non-negative lengths, edge %d→%d has %v", it.v, u, w))
			}
			if d := it.d + w; d < dist[u] {
				dist[u] = d
				heap.Push(q, item{v: int(u), d: d})
			}
		}
	}
	return dist
}

type item struct {
	v int
	d float64
}

// distHeap is a min-heap of (vertex, distance), ties by vertex index.
type distHeap []item

func (h distHeap) Len() int { return len(h) }
func (h distHeap) Less(i, j int) bool {
	if h[i].d != h[j].d {
		return h[i].d < h[j].d
	}
	return h[i].v < h[j].v
}
func (h distHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *distHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// BFS returns the number of hops from src to every vertex along edge
// directions (both ways if g is undirected), ignoring weights; -1 marks an
// unreachable vertex. It panics on an out-of-range src.
func BFS(g *graph.Graph, src int) []int {
	checkVertex(g, src)
	n := g.NumVertices()
	hops := make([]int, n)
	for i := range hops {
		hops[i] = -1
	}
	hops[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range g.Neighbors(v) {
			if hops[u] < 0 {
				hops[u] = hops[v] + 1
				queue = append(queue, int(u))
			}
		}
	}
	return hops
}

// PageRank runs the given number of power iterations exactly as the
// classic Pregel PageRank vertex program does: every vertex starts at
// 1/n, and each iteration sets
//
//	rank'(v) = (1−damping)/n + damping · Σ_{u→v} rank(u)/outdeg(u)
//
// where outdeg counts u's arcs (parallel arcs and self-loops included; an
// undirected edge is an arc each way). A dangling vertex (no out-arcs)
// sends nothing, so its rank mass is simply lost and the ranks sum to less
// than 1 when there are dangling vertices; this is what the Pregel paper's
// example computes, and what the BSP vertex program must reproduce. Edge
// weights are ignored. iterations = 0 returns the start, 1/n everywhere.
func PageRank(g *graph.Graph, damping float64, iterations int) []float64 {
	n := g.NumVertices()
	rank := make([]float64, n)
	if n == 0 {
		return rank
	}
	for i := range rank {
		rank[i] = 1 / float64(n)
	}
	next := make([]float64, n)
	base := (1 - damping) / float64(n)
	for it := 0; it < iterations; it++ {
		for i := range next {
			next[i] = 0
		}
		for u := 0; u < n; u++ {
			nb := g.Neighbors(u)
			if len(nb) == 0 {
				continue
			}
			share := rank[u] / float64(len(nb))
			for _, v := range nb {
				next[v] += share
			}
		}
		for v := range next {
			next[v] = base + float64(damping*next[v])
		}
		rank, next = next, rank
	}
	return rank
}

// Components labels the weakly connected components of g: edges are
// followed in both directions, and each vertex gets the smallest vertex
// index of its component. It uses union-find with path halving, the root
// of each set always being its smallest member.
func Components(g *graph.Graph) []int {
	n := g.NumVertices()
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for v := 0; v < n; v++ {
		for _, u := range g.Neighbors(v) {
			a, b := find(v), find(int(u))
			switch {
			case a < b:
				parent[b] = a
			case b < a:
				parent[a] = b
			}
		}
	}
	label := make([]int, n)
	for v := range label {
		label[v] = find(v)
	}
	return label
}
