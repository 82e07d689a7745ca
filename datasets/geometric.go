package datasets

import (
	"fmt"
	"math"

	"superstep/sdk/graph"
)

// RandomGeometric returns a random geometric graph: n points drawn
// uniformly in the unit square (RandomGeometricPoints), vertex v at point
// v, and an edge between every two points at Euclidean distance at most
// radius. Away from the border a vertex has on average about (n−1)·π·r²
// neighbours (fewer near the border: over the whole square the mean is
// (n−1)·(π·r² − 8r³/3 + r⁴/2) for r ≤ 1); for a mean degree of about d,
// take r = √(d/(π·n)). The points are bucketed in a grid of cells at least
// radius wide, so that each point is compared only with the points of its
// own and the 8 surrounding cells: expected time and memory are linear in
// n plus the number of edges. n must be in 0..2³¹−1 and radius finite and
// non-negative, with at most 2³¹−1 edges expected.
//
// Random geometric graphs are the meshes and sensor networks of layout
// benchmarks: their points are a drawing of them whose distances follow
// hop distance, which a good layout finds again.
func RandomGeometric(n int, radius float64, seed uint64) (*graph.Graph, error) {
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("datasets.RandomGeometric: n must be in 0..%d, got %d", maxVertices, n)
	}
	if !(radius >= 0) || math.IsInf(radius, 0) {
		return nil, fmt.Errorf("datasets.RandomGeometric: radius must be finite and non-negative, got %v", radius)
	}
	// Σ over pairs of P(d ≤ r) ≤ π·r² (and ≤ 1) for every pair.
	if pairs := float64(n) * float64(max(n-1, 0)) / 2; pairs*min(math.Pi*radius*radius, 1) > maxEdges {
		return nil, fmt.Errorf("datasets.RandomGeometric: n = %d and radius %v make more than %d edges expected", n, radius, maxEdges)
	}
	pos := RandomGeometricPoints(n, seed)

	// Cells of side 1/m ≥ radius, at most about one per point.
	m := int(math.Ceil(math.Sqrt(float64(n))))
	if radius > 0 {
		m = min(m, int(1/radius))
	}
	m = max(m, 1)
	cell := func(v int) (int, int) {
		return min(int(pos[2*v]*float64(m)), m-1), min(int(pos[2*v+1]*float64(m)), m-1)
	}
	// The points of each cell, in vertex order (counting sort).
	start := make([]int32, m*m+1)
	for v := 0; v < n; v++ {
		cx, cy := cell(v)
		start[cy*m+cx+1]++
	}
	for c := 0; c < m*m; c++ {
		start[c+1] += start[c]
	}
	members := make([]int32, n)
	fill := make([]int32, m*m)
	copy(fill, start[:m*m])
	for v := 0; v < n; v++ {
		cx, cy := cell(v)
		c := cy*m + cx
		members[fill[c]] = int32(v)
		fill[c]++
	}

	b := graph.NewBuilder(false)
	for v := 0; v < n; v++ {
		b.AddVertex(int64(v))
	}
	r2 := float64(radius * radius)
	for v := 0; v < n; v++ {
		cx, cy := cell(v)
		x, y := pos[2*v], pos[2*v+1]
		for ny := max(cy-1, 0); ny <= min(cy+1, m-1); ny++ {
			for nx := max(cx-1, 0); nx <= min(cx+1, m-1); nx++ {
				c := ny*m + nx
				for _, u := range members[start[c]:start[c+1]] {
					if int(u) <= v {
						continue
					}
					dx, dy := pos[2*u]-x, pos[2*u+1]-y
					if float64(dx*dx)+float64(dy*dy) <= r2 {
						b.AddEdge(int64(v), int64(u))
					}
				}
			}
		}
	}
	return b.Build(), nil
}

// RandomGeometricPoints returns the points RandomGeometric(n, r, seed)
// joins, x0, y0, x1, y1, … (2 per vertex, uniform in [0, 1)²): the same
// for every radius, so that a layout of the graph can be compared with
// the geometry it came from. It returns nil for a negative n.
func RandomGeometricPoints(n int, seed uint64) []float64 {
	if n < 0 {
		return nil
	}
	rng := newRand(seed)
	pos := make([]float64, 2*n)
	for i := range pos {
		pos[i] = rng.Float64()
	}
	return pos
}
