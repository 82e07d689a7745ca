package quality

import (
	"fmt"
	"math"
	"slices"

	"superstep/sdk/graph"
)

// Framing says whether a layout fills the picture it is drawn in, or
// whether a few far vertices shrink the graph to a dot: a drawing is
// framed on its bounding box, so one vertex far from the rest decides the
// scale of all others.
type Framing struct {
	// Components is the number of connected components, and Largest the
	// vertices of the largest.
	Components, Largest int
	// Coverage is the share of the layout's bounding box covered by the
	// largest component's central 98%: the box from the 1st to the 99th
	// percentile of its x and of its y coordinates. A compact drawing of
	// a graph with one large component covers most of its frame (a disc
	// of uniform density: 0.87); a dot covers almost nothing. Cover
	// measures it against another frame, such as a view's.
	Coverage float64
	// Central is that box: x0, y0, x1, y1.
	Central [4]float64
	// Straggle is, over all components of at least StraggleMinSize
	// vertices, the largest distance of a vertex from its component's
	// centre (the median of its x and of its y) divided by the
	// component's 99th-percentile distance from that centre; Straggler
	// is that vertex (-1 if no component qualifies). Vertices that a
	// layout strands far from their component's body give a large value.
	Straggle  float64
	Straggler int
}

// StraggleMinSize is the smallest component whose stragglers Framing
// measures: the 99th percentile of a handful of distances is the largest
// of them, so a small component can never straggle by this measure.
const StraggleMinSize = 10

func (f Framing) String() string {
	return fmt.Sprintf("%d components (largest %d vertices); farthest vertex %.2f× its component's 99th-percentile radius out; the largest's central 98%% covers %.1f%% of the bounding box",
		f.Components, f.Largest, f.Straggle, 100*f.Coverage)
}

// FramingOf measures how layout pos of g fills its frame (see Framing).
// Edge directions are ignored. It panics if len(pos) != 2·n, and returns
// NaN measures for a graph without vertices or a layout whose bounding
// box has no area.
func FramingOf(g *graph.Graph, pos []float64) Framing {
	n := g.NumVertices()
	if len(pos) != 2*n {
		panic(fmt.Sprintf("quality.FramingOf: %d coordinates for %d vertices", len(pos), n))
	}
	f := Framing{Coverage: math.NaN(), Straggle: math.NaN(), Straggler: -1}
	if n == 0 {
		return f
	}
	comps := weakComponents(g)
	f.Components = len(comps)
	largest := comps[0]
	for _, c := range comps[1:] {
		if len(c) > len(largest) {
			largest = c
		}
	}
	f.Largest = len(largest)

	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for v := range n {
		x0, x1 = min(x0, pos[2*v]), max(x1, pos[2*v])
		y0, y1 = min(y0, pos[2*v+1]), max(y1, pos[2*v+1])
	}
	xs, ys := coords(largest, pos)
	f.Central = [4]float64{percentile(xs, 0.01), percentile(ys, 0.01), percentile(xs, 0.99), percentile(ys, 0.99)}
	f.Coverage = f.Cover(x0, y0, x1, y1)

	for _, c := range comps {
		if len(c) < StraggleMinSize {
			continue
		}
		xs, ys := coords(c, pos)
		mx, my := percentile(xs, 0.5), percentile(ys, 0.5)
		d := make([]float64, len(c))
		far, farV := 0.0, -1
		for i, v := range c {
			d[i] = math.Hypot(pos[2*v]-mx, pos[2*v+1]-my)
			if d[i] > far {
				far, farV = d[i], int(v)
			}
		}
		r99 := percentile(d, 0.99)
		if r99 == 0 {
			continue
		}
		if s := far / r99; math.IsNaN(f.Straggle) || s > f.Straggle {
			f.Straggle, f.Straggler = s, farV
		}
	}
	return f
}

// Cover is the share of the frame x0..x1 × y0..y1 (the part of the plane
// a drawing shows) covered by the largest component's central 98% (the
// part of Central inside the frame); NaN for a frame without area.
func (f Framing) Cover(x0, y0, x1, y1 float64) float64 {
	area := (x1 - x0) * (y1 - y0)
	if !(area > 0) {
		return math.NaN()
	}
	w := min(x1, f.Central[2]) - max(x0, f.Central[0])
	h := min(y1, f.Central[3]) - max(y0, f.Central[1])
	return max(0, w) * max(0, h) / area
}

// coords returns the x and y coordinates of vertices vs.
func coords(vs []int32, pos []float64) (xs, ys []float64) {
	xs, ys = make([]float64, len(vs)), make([]float64, len(vs))
	for i, v := range vs {
		xs[i], ys[i] = pos[2*v], pos[2*v+1]
	}
	return xs, ys
}

// percentile sorts a and returns its q-quantile (nearest rank).
func percentile(a []float64, q float64) float64 {
	slices.Sort(a)
	i := int(math.Ceil(q*float64(len(a)))) - 1
	return a[max(0, min(len(a)-1, i))]
}

// weakComponents returns the vertices of each connected component of g
// (edge directions ignored), in order of their lowest vertex.
func weakComponents(g *graph.Graph) [][]int32 {
	n := g.NumVertices()
	var in [][]int32 // in-neighbours of a directed graph
	if g.Directed() {
		in = make([][]int32, n)
		for v := range n {
			for _, u := range g.Neighbors(v) {
				in[u] = append(in[u], int32(v))
			}
		}
	}
	seen := make([]bool, n)
	var comps [][]int32
	for s := range n {
		if seen[s] {
			continue
		}
		seen[s] = true
		comp := []int32{int32(s)}
		for i := 0; i < len(comp); i++ {
			v := int(comp[i])
			visit := func(u int32) {
				if !seen[u] {
					seen[u] = true
					comp = append(comp, u)
				}
			}
			for _, u := range g.Neighbors(v) {
				visit(u)
			}
			if in != nil {
				for _, u := range in[v] {
					visit(u)
				}
			}
		}
		comps = append(comps, comp)
	}
	return comps
}
