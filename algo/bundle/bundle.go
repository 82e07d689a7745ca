// Package bundle computes the geometry of edge-bundled message timelines
// and sender/receiver diagrams, after paper 003 (Brendel et al. 2016,
// section V): level-1 clusters of the message end points on each lane by
// mean shift, routes through a fixed grid (the default: 8-connected
// shortest paths, diagonals first) or through a cluster hierarchy
// (Holten's hierarchical edge bundling, kept for comparison), control
// polygons, uniform clamped B-splines and their exact quadratic Bézier
// chains, and the x-overshoot of the curves.
//
// It is geometry only: inputs are columns of numbers (lane indices and x
// positions, usually times), outputs are points, cells and indices. It
// knows no traces, no MPI, no colours and no display.
//
// Coordinates: x is time in any unit, y a lane; lane i sits at y = i.
package bundle

import (
	"context"
	"fmt"
	"math"
	"slices"

	"superstep/algo/meanshift"
	"superstep/internal/parallel"
)

// Routing selects how a message travels between its two level-1 clusters.
type Routing int

const (
	// Grid routes through a fixed grid of cells along the 8-connected
	// shortest path, diagonals first (the paper's grid bundling).
	Grid Routing = iota
	// Hierarchy routes up the cluster tree to the lowest common ancestor
	// and down again (hierarchical edge bundling).
	Hierarchy
)

// Edges holds one message per index: it leaves lane FromLane[i] at
// x = FromX[i] and arrives on lane ToLane[i] at x = ToX[i]. ToX may be
// smaller than FromX (skewed clocks).
type Edges struct {
	FromLane, ToLane []int32
	FromX, ToX       []float64
}

// Len is the number of edges.
func (e *Edges) Len() int { return len(e.FromLane) }

// Options tune New. The zero value asks for every default.
type Options struct {
	// Bandwidth is the level-1 mean-shift σ in x units. Default (0):
	// 1/200 of the x range of all end points (1 if that range is 0).
	Bandwidth float64
	// Routing is Grid (default) or Hierarchy. Hierarchy runs 2-D mean
	// shift over the level-1 clusters (every cluster climbs, plain
	// mean-shift steps): meant for comparison on up to some ten thousand
	// clusters, not for millions.
	Routing Routing
	// Levels is the hierarchy depth, ≥ 2, level 1 being the clusters and
	// the top a single root. Default (0): 3. Used by Hierarchy routing.
	Levels int
	// Beta is Holten's bundling strength for Hierarchy routing, in
	// (0, 1]: 1 follows the tree, smaller values straighten the route
	// towards the chord between its two level-1 centres. Default (0): 1.
	Beta float64
	// Growth multiplies the hierarchy bandwidth per level: level k ≥ 2
	// clusters the level k−1 centres with σx = Bandwidth·Growth^(k−1) and
	// σy = Growth^(k−2) lanes. Default (0): 4.
	Growth float64
	// CellWidth is the grid cell width in x units. Default (0):
	// 4·Bandwidth.
	CellWidth float64
	// CellHeight is the number of lanes per grid row. Default (0):
	// ceil(Lanes/32), so at most 32 rows.
	CellHeight int
	// Degree is the B-spline degree, 1…5. Default (0): 2. A polygon of n
	// points uses degree min(Degree, n−1).
	Degree int
	// Lanes is the number of lanes. Default (0): the largest lane + 1.
	Lanes int
}

// Bundling is the bundled geometry of a set of edges (New makes one):
// named so beside display.Bundle, a MIME bundle.
type Bundling struct {
	// Opts are the options with every default filled in.
	Opts Options

	// Level-1 clusters, numbered lane by lane, ascending x in a lane:
	// lane, centre x and weight (end-point count).
	ClusterLane   []int32
	ClusterX      []float64
	ClusterWeight []float64
	// LaneStart[l] is the first cluster of lane l (len Lanes+1).
	LaneStart []int32

	// Per edge: its send and receive clusters and its route.
	SendCluster, RecvCluster []int32
	EdgeRoute                []int32

	// Distinct routes, one per (send cluster, receive cluster) pair, in
	// order of first use by an edge. RouteFrom/RouteTo are the clusters,
	// RouteWeight the number of messages. The interior control points of
	// route i (level-1 centre, grid cells or tree nodes, level-1 centre)
	// are Points[RouteStart[i]:RouteStart[i+1]], always ≥ 2 points.
	RouteFrom, RouteTo []int32
	RouteWeight        []float64
	RouteStart         []int32
	Points             []Point

	// Grid routing: the cells of route i are
	// Cells[CellStart[i]:CellStart[i+1]].
	CellStart []int32
	Cells     []Cell

	// Tree is the cluster hierarchy (Hierarchy routing only).
	Tree *Tree
}

// checkEvery is how many items a long loop handles between context checks.
const checkEvery = 4096

func (o *Options) resolve(e *Edges) error {
	n := e.Len()
	if len(e.ToLane) != n || len(e.FromX) != n || len(e.ToX) != n {
		return fmt.Errorf("bundle: edge columns differ in length: %d, %d, %d, %d", n, len(e.ToLane), len(e.FromX), len(e.ToX))
	}
	minX, maxX := math.Inf(1), math.Inf(-1)
	maxLane := int32(-1)
	for i := 0; i < n; i++ {
		for _, x := range [2]float64{e.FromX[i], e.ToX[i]} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("bundle: edge %d has x %v", i, x)
			}
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		}
		for _, l := range [2]int32{e.FromLane[i], e.ToLane[i]} {
			if l < 0 {
				return fmt.Errorf("bundle: edge %d has lane %d", i, l)
			}
			maxLane = max(maxLane, l)
		}
	}
	if o.Lanes == 0 {
		o.Lanes = int(maxLane) + 1
	}
	if o.Lanes < int(maxLane)+1 {
		return fmt.Errorf("bundle: %d lanes but an edge uses lane %d", o.Lanes, maxLane)
	}
	if o.Bandwidth == 0 {
		o.Bandwidth = 1
		if n > 0 && maxX > minX {
			o.Bandwidth = (maxX - minX) / 200
		}
	}
	if !(o.Bandwidth > 0) || math.IsInf(o.Bandwidth, 1) {
		return fmt.Errorf("bundle: bandwidth %v, want a positive number", o.Bandwidth)
	}
	if o.Routing != Grid && o.Routing != Hierarchy {
		return fmt.Errorf("bundle: unknown routing %d", o.Routing)
	}
	if o.Levels == 0 {
		o.Levels = 3
	}
	if o.Levels < 2 {
		return fmt.Errorf("bundle: %d hierarchy levels, want ≥ 2", o.Levels)
	}
	if o.Beta == 0 {
		o.Beta = 1
	}
	if !(o.Beta > 0 && o.Beta <= 1) {
		return fmt.Errorf("bundle: beta %v, want (0, 1]", o.Beta)
	}
	if o.Growth == 0 {
		o.Growth = 4
	}
	if !(o.Growth >= 1) || math.IsInf(o.Growth, 1) {
		return fmt.Errorf("bundle: growth %v, want ≥ 1", o.Growth)
	}
	if o.CellWidth == 0 {
		o.CellWidth = 4 * o.Bandwidth
	}
	if !(o.CellWidth > 0) || math.IsInf(o.CellWidth, 1) {
		return fmt.Errorf("bundle: cell width %v, want a positive number", o.CellWidth)
	}
	if n > 0 && math.Max(math.Abs(minX), math.Abs(maxX))/o.CellWidth > 1<<50 {
		return fmt.Errorf("bundle: x up to %v needs more than 2^50 cells of width %v", math.Max(math.Abs(minX), math.Abs(maxX)), o.CellWidth)
	}
	if o.CellHeight == 0 {
		o.CellHeight = max(1, (o.Lanes+31)/32)
	}
	if o.CellHeight < 1 {
		return fmt.Errorf("bundle: cell height %d, want ≥ 1", o.CellHeight)
	}
	if o.Degree == 0 {
		o.Degree = 2
	}
	if o.Degree < 1 || o.Degree > MaxDegree {
		return fmt.Errorf("bundle: spline degree %d, want 1…%d", o.Degree, MaxDegree)
	}
	return nil
}

// endpoint is one message end on a lane: its x and id (edge i's send is
// i, its receive n+i).
type endpoint struct {
	x  float64
	id int32
}

// New clusters the end points, routes every edge and collects the
// distinct routes. ctx is checked every few thousand items; on
// cancellation New returns the context's error, wrapped.
func New(ctx context.Context, e *Edges, opts Options) (*Bundling, error) {
	if err := opts.resolve(e); err != nil {
		return nil, err
	}
	if e.Len() >= math.MaxInt32/2 {
		return nil, fmt.Errorf("bundle: %d edges, at most %d", e.Len(), math.MaxInt32/2-1)
	}
	b := &Bundling{Opts: opts}
	if err := b.cluster(ctx, e, meanshift.Cluster1D); err != nil {
		return nil, err
	}
	if opts.Routing == Hierarchy {
		t, err := buildTree(ctx, b)
		if err != nil {
			return nil, err
		}
		b.Tree = t
	}
	if err := b.route(ctx, e); err != nil {
		return nil, err
	}
	return b, nil
}

// cluster1D is meanshift.Cluster1D's signature: cluster takes it as a
// parameter (always meanshift.Cluster1D outside tests) so that a test can
// make one lane's clustering fail or panic on a worker.
type cluster1D func(xs, weights []float64, bandwidth float64) (meanshift.Result1D, error)

// cluster runs the level-1 mean shift per lane with cluster, lanes shared
// among GOMAXPROCS workers. The error is the first lane's in lane order.
func (b *Bundling) cluster(ctx context.Context, e *Edges, cluster cluster1D) error {
	n := e.Len()
	lanes := b.Opts.Lanes
	// Bucket the 2n end points by lane (counting sort).
	start := make([]int32, lanes+1)
	for i := 0; i < n; i++ {
		start[e.FromLane[i]+1]++
		start[e.ToLane[i]+1]++
	}
	for l := 0; l < lanes; l++ {
		start[l+1] += start[l]
	}
	eps := make([]endpoint, 2*n)
	fill := slices.Clone(start[:lanes])
	for i := 0; i < n; i++ {
		l := e.FromLane[i]
		eps[fill[l]] = endpoint{e.FromX[i], int32(i)}
		fill[l]++
		l = e.ToLane[i]
		eps[fill[l]] = endpoint{e.ToX[i], int32(n + i)}
		fill[l]++
	}
	type laneResult struct {
		centres, sizes []float64
	}
	results := make([]laneResult, lanes)
	labels := make([]int32, 2*n) // per end point id: cluster label within its lane
	// Per worker: the x buffer, and the end points clustered since its
	// last look at ctx.
	workers := parallel.Workers(0, lanes)
	xss := make([][]float64, workers)
	done := make([]int, workers)
	err := parallel.ForErr(ctx, workers, lanes, func(w, l int) error {
		seg := eps[start[l]:start[l+1]]
		done[w] += len(seg)
		if done[w] >= checkEvery {
			done[w] = 0
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("bundle: clustering interrupted at lane %d: %w", l, err)
			}
		}
		slices.SortFunc(seg, func(p, q endpoint) int {
			switch {
			case p.x < q.x:
				return -1
			case p.x > q.x:
				return 1
			}
			return int(p.id - q.id)
		})
		xs := xss[w][:0]
		for _, p := range seg {
			xs = append(xs, p.x)
		}
		xss[w] = xs
		r, err := cluster(xs, nil, b.Opts.Bandwidth)
		if err != nil {
			return fmt.Errorf("bundle: lane %d: %w", l, err)
		}
		for k, p := range seg {
			labels[p.id] = r.Labels[k]
		}
		results[l] = laneResult{r.Centres, r.Sizes}
		return nil
	})
	if err != nil && err != ctx.Err() {
		return err // a lane's (ForErr returns ctx's own error unwrapped)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bundle: clustering interrupted: %w", err)
	}
	b.LaneStart = make([]int32, lanes+1)
	for l := 0; l < lanes; l++ {
		b.LaneStart[l+1] = b.LaneStart[l] + int32(len(results[l].centres))
	}
	k := int(b.LaneStart[lanes])
	b.ClusterLane = make([]int32, 0, k)
	b.ClusterX = make([]float64, 0, k)
	b.ClusterWeight = make([]float64, 0, k)
	for l := 0; l < lanes; l++ {
		for range results[l].centres {
			b.ClusterLane = append(b.ClusterLane, int32(l))
		}
		b.ClusterX = append(b.ClusterX, results[l].centres...)
		b.ClusterWeight = append(b.ClusterWeight, results[l].sizes...)
	}
	b.SendCluster = make([]int32, n)
	b.RecvCluster = make([]int32, n)
	for i := 0; i < n; i++ {
		b.SendCluster[i] = b.LaneStart[e.FromLane[i]] + labels[i]
		b.RecvCluster[i] = b.LaneStart[e.ToLane[i]] + labels[n+i]
	}
	return nil
}

// ClusterPoint is the position of level-1 cluster c.
func (b *Bundling) ClusterPoint(c int32) Point {
	return Point{b.ClusterX[c], float64(b.ClusterLane[c])}
}

// ClusterCell is the grid cell holding level-1 cluster c.
func (b *Bundling) ClusterCell(c int32) Cell {
	return Cell{int(math.Floor(b.ClusterX[c] / b.Opts.CellWidth)), int(b.ClusterLane[c]) / b.Opts.CellHeight}
}

// CellCentre is the centre of a grid cell: x = (col + ½)·CellWidth,
// y = row·CellHeight + (CellHeight − 1)/2 (the middle of its lanes).
func (b *Bundling) CellCentre(c Cell) Point {
	h := float64(b.Opts.CellHeight)
	return Point{(float64(c.Col) + 0.5) * b.Opts.CellWidth, float64(c.Row)*h + (h-1)/2}
}

// route assigns every edge its distinct route, then builds the routes'
// cells and interior points (sized exactly in Grid mode).
func (b *Bundling) route(ctx context.Context, e *Edges) error {
	n := e.Len()
	b.EdgeRoute = make([]int32, n)
	ids := make(map[uint64]int32, min(n, 1<<16))
	for i := 0; i < n; i++ {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("bundle: routing interrupted at edge %d of %d: %w", i, n, err)
			}
		}
		s, r := b.SendCluster[i], b.RecvCluster[i]
		key := uint64(uint32(s))<<32 | uint64(uint32(r))
		id, ok := ids[key]
		if !ok {
			id = int32(len(b.RouteFrom))
			ids[key] = id
			b.RouteFrom = append(b.RouteFrom, s)
			b.RouteTo = append(b.RouteTo, r)
			b.RouteWeight = append(b.RouteWeight, 0)
		}
		b.RouteWeight[id]++
		b.EdgeRoute[i] = id
	}
	nr := len(b.RouteFrom)
	b.RouteStart = make([]int32, nr+1)
	if b.Opts.Routing == Hierarchy {
		var scratch []Point
		for id := 0; id < nr; id++ {
			scratch = b.Tree.routePoints(scratch[:0], b.RouteFrom[id], b.RouteTo[id], b.Opts.Beta)
			b.Points = append(b.Points, scratch...)
			b.RouteStart[id+1] = int32(len(b.Points))
		}
		return nil
	}
	b.CellStart = make([]int32, nr+1)
	for id := 0; id < nr; id++ {
		c0, c1 := b.ClusterCell(b.RouteFrom[id]), b.ClusterCell(b.RouteTo[id])
		cells := max(abs(c1.Col-c0.Col), abs(c1.Row-c0.Row)) + 1
		b.CellStart[id+1] = b.CellStart[id] + int32(cells)
		b.RouteStart[id+1] = b.RouteStart[id] + int32(cells+2)
	}
	b.Cells = make([]Cell, 0, b.CellStart[nr])
	b.Points = make([]Point, 0, b.RouteStart[nr])
	for id := 0; id < nr; id++ {
		if id%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("bundle: routing interrupted at route %d of %d: %w", id, nr, err)
			}
		}
		s, r := b.RouteFrom[id], b.RouteTo[id]
		c0 := len(b.Cells)
		b.Cells = AppendGridRoute(b.Cells, b.ClusterCell(s), b.ClusterCell(r))
		b.Points = append(b.Points, b.ClusterPoint(s))
		for _, c := range b.Cells[c0:] {
			b.Points = append(b.Points, b.CellCentre(c))
		}
		b.Points = append(b.Points, b.ClusterPoint(r))
	}
	return nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// NumRoutes is the number of distinct routes.
func (b *Bundling) NumRoutes() int { return len(b.RouteFrom) }

// Interior returns the interior control points of route i (shared, do not
// modify).
func (b *Bundling) Interior(i int) []Point {
	return b.Points[b.RouteStart[i]:b.RouteStart[i+1]]
}

// RouteCells returns the grid cells of route i (nil in Hierarchy mode).
func (b *Bundling) RouteCells(i int) []Cell {
	if b.CellStart == nil {
		return nil
	}
	return b.Cells[b.CellStart[i]:b.CellStart[i+1]]
}

// Polygon returns the control polygon of edge i of e (the edges New
// was built from): send point, its route's interior, receive point.
func (b *Bundling) Polygon(e *Edges, i int) []Point {
	in := b.Interior(int(b.EdgeRoute[i]))
	out := make([]Point, 0, len(in)+2)
	out = append(out, Point{e.FromX[i], float64(e.FromLane[i])})
	out = append(out, in...)
	return append(out, Point{e.ToX[i], float64(e.ToLane[i])})
}

// MeanOvershoot is the mean over all edges of Overshoot of their splines
// (degree Opts.Degree): for degree 2 exact, computed from each route's
// interior pieces once and each edge's two end pieces.
func (b *Bundling) MeanOvershoot(e *Edges) (float64, error) {
	n := e.Len()
	if n == 0 {
		return 0, nil
	}
	if n != len(b.EdgeRoute) {
		return 0, fmt.Errorf("bundle: %d edges given, the bundle has %d", n, len(b.EdgeRoute))
	}
	var sum float64
	if b.Opts.Degree != 2 {
		for i := 0; i < n; i++ {
			o, err := Overshoot(b.Polygon(e, i), b.Opts.Degree)
			if err != nil {
				return 0, err
			}
			sum += o
		}
		return sum / float64(n), nil
	}
	rlo := make([]float64, b.NumRoutes())
	rhi := make([]float64, b.NumRoutes())
	for r := range rlo {
		rlo[r], rhi[r] = math.Inf(1), math.Inf(-1)
		for _, q := range InteriorQuads(b.Interior(r)) {
			a, c := q.XRange()
			rlo[r], rhi[r] = math.Min(rlo[r], a), math.Max(rhi[r], c)
		}
	}
	for i := 0; i < n; i++ {
		r := b.EdgeRoute[i]
		s, t := Point{e.FromX[i], float64(e.FromLane[i])}, Point{e.ToX[i], float64(e.ToLane[i])}
		head, tail, err := EndQuads(s, b.Interior(int(r)), t)
		if err != nil {
			return 0, err
		}
		lo, hi := math.Min(s.X, t.X), math.Max(s.X, t.X)
		minX, maxX := math.Min(lo, rlo[r]), math.Max(hi, rhi[r])
		for _, q := range [2]Quad{head, tail} {
			a, c := q.XRange()
			minX, maxX = math.Min(minX, a), math.Max(maxX, c)
		}
		sum += (lo - minX) + (maxX - hi)
	}
	return sum / float64(n), nil
}
