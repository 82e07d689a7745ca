// Package layout draws large graphs in the plane with SFDP, Hu's scalable
// force-directed placement ("Efficient and high quality force-directed
// graph drawing", The Mathematica Journal 10(1), 2005) — the layout that
// the thesis of paper 001 distributes.
//
// The model is Hu's spring-electrical one: every pair of vertices repels
// with force C·K^(1+p)/d^p (C = 0.2) and every edge attracts its ends
// with force d²/K, K being the natural spring length. Each iteration
// moves every vertex one step along its total force. On the coarsest
// level the step follows Hu's adaptive cooling — it grows after five
// iterations in a row that lowered the energy (the sum of squared forces)
// and shrinks after any other — and on the finer levels, which start from
// a good layout, it cools geometrically.
//
// The repulsion exponent p is Hu's 1 by default, or his 2 for a long
// graph — a mesh, a lattice, a random geometric graph (see
// Options.Repulsion) — on which p = 1 draws the outskirts denser than the
// middle (Hu's "peripheral effect"). On random geometric graphs of 30,000
// vertices (mean degree 10, ten seeds) p = 2 keeps 80% of the
// neighbourhoods (quality.NeighbourhoodPreservation) at a normalised
// stress of 0.0048, where p = 1 kept 73% at 0.0091 and Graphviz's sfdp
// 75% at 0.0056 (./bench -gen rgg); on the 4elt mesh 77% at 0.067
// instead of 60% at 0.075.
//
// Options.Attraction generalises the attraction to force d^(a−1) (energy
// d^a/a): the (a, r)-energy models of A. Noack, "Energy models for graph
// clustering", J. Graph Algorithms Appl. 11(2):453–480, 2007, with r =
// 1 − p. Hu's model is a = 3, the default; a = 1 is Noack's LinLog. Hu's
// model draws edges of nearly even length, which suits meshes and
// geometric graphs, but mixes a graph of many communities joined by random
// edges into one disc: on a 20,000-vertex planted-community graph
// (mixing 0.2) 9% of a vertex's 10 nearest drawn neighbours share its
// community (quality.GroupShare; 1.4% by chance). With a smaller a long
// edges pull less, so densely connected groups separate — 89% at a =
// 1.5, for a hop-distance correlation of 0.169 instead of 0.180 and a
// stress of 0.196 instead of 0.183 — and the distance between two groups
// reflects how sparsely they are connected (Noack). A graph without
// communities gets no clusters: a random graph's Louvain communities stay
// mixed at any a. The community-seeded pipeline (algo/pipeline) uses
// a = 1.5.
//
// The repulsion of all pairs is approximated with a Barnes–Hut quadtree,
// rebuilt every iteration in flat arrays ordered by Morton code and walked
// once per group of up to 16 nearby vertices, so an iteration costs
// O(n log n + m). The multilevel scheme makes the layout global: the graph
// is coarsened again and again (heavy-edge matching, or aggregation around
// a maximal independent set) until it is small; a coarse vertex weighs as
// many input vertices, and a coarse edge as many input edges, as it stands
// for, so that the coarse forces approximate the input's. The coarsest
// graph is laid out from random positions, and each finer graph starts
// from its coarser graph's layout — every vertex at its parent's position,
// smoothed towards its neighbours, the whole scaled to the size that
// minimises the energy, and jittered — and is refined.
//
// Two parts of a real graph are not left to the forces, which would push
// them far from the rest (on the thesis's Facebook graph plain SFDP drew
// the body as a dot beside a star 11 radii out): pendant trees, which hang
// off the rest by one vertex, are laid out beside it (pendant.go), and
// connected components, which nothing in the model holds together, are
// packed around the largest one (pack.go). Memory stays linear in the
// size of the graph.
//
// Forces are computed in parallel over blocks of vertices, every vertex
// from the previous iteration's positions only (a Jacobi iteration), and
// the energy is summed block by block in a fixed order. The layout is
// therefore the same for any number of workers, and — since every random
// choice comes from the seed, the arithmetic avoids functions whose last
// bit differs between architectures, and no floating-point product is left
// to be fused into an FMA instruction — the same on every machine (for
// the default exponents, and the others that Options.Repulsion and
// Options.Attraction name).
//
// The package quality (algo/quality) measures layouts: the thesis's
// correlation of pairwise distances between two layouts, correlation with
// hop distance, stress and neighbourhood preservation.
package layout

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"superstep/sdk/graph"
)

// Coarsening selects how the multilevel scheme shrinks the graph.
type Coarsening int

const (
	// Matching merges the pairs of a heavy-edge matching, and pairs of
	// unmatched vertices sharing a neighbour where matching stalls (the
	// leaves of a hub). It halves the graph per level. The default.
	Matching Coarsening = iota
	// MIS merges every vertex into the aggregate of a neighbour in a
	// maximal independent set (hubs first): fewer, coarser levels.
	MIS
	// SingleLevel lays out the graph itself, from random positions (or
	// Initial), with no coarsening: only for small graphs and comparisons,
	// since a large graph folds onto itself without the coarse levels.
	SingleLevel
)

func (c Coarsening) String() string {
	switch c {
	case Matching:
		return "matching"
	case MIS:
		return "mis"
	case SingleLevel:
		return "single-level"
	}
	return fmt.Sprintf("Coarsening(%d)", int(c))
}

// Options control SFDP. The zero value gives the defaults.
type Options struct {
	// Seed fixes every random choice: the same seed gives the same layout.
	Seed uint64

	// Initial, when not nil, holds starting positions x0, y0, x1, y1, …
	// (2 entries per vertex; any scale and place), as the thesis's final
	// global pass starts from the positions of its separately laid-out
	// communities. A vertex with a NaN coordinate is free.
	//
	// Without Groups the given positions are one drawing, and the
	// multilevel scheme starts every level from it instead of from
	// scratch: a coarse vertex at the mean of its members' given
	// positions, a given vertex moved with its parent's displacement after
	// the coarse refinement, a free one placed as in a layout from
	// scratch. A good given layout thus stays, corrected; every vertex
	// moves.
	//
	// With Groups, the given positions of each group are a drawing of
	// their own, in any place, orientation and scale (a community laid out
	// alone), and each is fitted into the layout (see Groups).
	Initial []float64

	// Groups, when not nil, holds a group per vertex (such as its Louvain
	// community; negative: none), and the layout runs in four stages:
	//
	//  1. The picture: the coarse levels, down to the first with at most
	//     1/32 of the vertices (1/4 with an Attraction below 3, whose
	//     finer levels place the clusters), are laid out exactly as
	//     without Groups, so the global arrangement is plain SFDP's own
	//     for the seed and the result draws the same picture.
	//  2. With Matching coarsening, a second hierarchy merges vertices of
	//     the same group first (ungrouped ones with each other) as long as
	//     that shrinks the graph, then freely. Its coarsest level starts
	//     from the picture, and its levels, which follow the groups, are
	//     refined down to the first with at most 1/8 of the vertices (1/4
	//     with an Attraction below 3).
	//  3. Each group's given drawing (Initial) is fitted onto the positions
	//     of its vertices' ancestors on that level: moved, turned or
	//     mirrored and scaled, by least squares.
	//  4. The finer levels, which cost most, are refined from there: a
	//     given vertex keeps its fitted offset from its coarse ancestor, a
	//     free one starts as in a layout from scratch.
	//
	// Stages 2–4 run on the iteration budget RefineIterations. This is the
	// global pass of the thesis's pipeline (algo/pipeline).
	Groups []int32

	// RefineIterations, when positive, is the number of iterations in
	// which each level refined from Initial positions, or after the
	// picture with Groups, cools from its first step down to Tolerance (it
	// cools faster than a level refined from scratch, which takes about 26
	// iterations at the default Tolerance). A good starting layout needs
	// fewer; 0 keeps the usual schedule.
	RefineIterations int

	// MaxIterations caps the iterations on each level (default 500; the
	// refined levels stop much earlier, when the step has cooled).
	MaxIterations int

	// Tolerance ends a level when the step, which every vertex moves per
	// iteration, falls below Tolerance times the level's mean edge length
	// (default 0.02). Smaller is slower and rarely better.
	Tolerance float64

	// Workers is the number of goroutines computing forces (default
	// GOMAXPROCS). It changes the speed, never the layout.
	Workers int

	// K is the natural spring length. It only scales the layout (the
	// model's shape does not depend on it): the result is scaled so that
	// its mean edge length is K (default 1).
	K float64

	// Theta is the Barnes–Hut opening criterion: a cell whose bounding box
	// has the longer side w counts as one body for a group of nearby
	// vertices when the group's box is farther than w/Theta + δ from the
	// cell's centre of mass (δ: the distance from that centre to the cell
	// box's centre). Larger is faster and coarser. Default 1.2, at most 1.4
	// (beyond √2 a cell could count its own vertices).
	Theta float64

	// Repulsion is the exponent p of the repulsive force C·K^(1+p)/d^p.
	// 0, the default, chooses by the graph: 2 for a long graph, one whose
	// largest connected component (n_c vertices) holds a shortest path of
	// more than 3·log₂ n_c hops — found by two breadth-first sweeps, O(n +
	// m) — as meshes, lattices and random geometric graphs do; there
	// p = 2 spreads the vertices evenly where Hu's p = 1 packs the
	// outskirts (the coarsest level, laid out from random positions, still
	// uses p = 1, which untangles it more surely). 1 for the others
	// (random, scale-free and community graphs: their shortest paths are
	// a few hops), on which p = 2 would cost hop-distance correlation (a
	// random graph's fell from 0.35 to 0.10). Larger values, such as
	// Graphviz's 1.8 for power-law graphs, shorten the repulsion's reach.
	// Values other than 1 and 2 use math.Pow, whose last bit may differ
	// between machines, so only p = 1 and p = 2 promise the same layout
	// everywhere. p = 2 costs about 1.5 times the time of p = 1.
	Repulsion float64

	// Attraction is the exponent a of an edge's attractive energy d^a/a
	// (force d^(a−1)) in Noack's (a, r)-energy models (see the package
	// doc), in which the repulsion above has r = 1 − p. The default 3 is
	// Hu's force d²/K, which draws edges of even length: good for meshes
	// and geometric graphs, but a graph of many communities joined by
	// random edges comes out as a uniform disc. Smaller values pull long
	// edges less, so that groups of densely connected vertices separate,
	// at some cost in hop-distance correlation and stress; 1 is Noack's
	// LinLog (a constant pull). Values in (0, 4]; only 1, 1.5, 2, 3 and 4
	// promise the same layout on every machine (others use math.Pow).
	// The pipeline (algo/pipeline) defaults to 1.5.
	Attraction float64

	// Coarsening selects the multilevel scheme (default Matching;
	// SingleLevel turns it off).
	Coarsening Coarsening

	// Log, when not nil, receives a line per level (its size, iterations
	// and time), finest last.
	Log func(format string, args ...any)
}

// Constants of the method (not options).
const (
	defaultMaxIter   = 500
	defaultTolerance = 0.02
	defaultTheta     = 1.2
	strengthC        = 0.2  // Hu's relative strength of repulsion
	cool             = 0.9  // step factor per cooling
	coolAdaptive     = 0.95 // step factor per adaptive cooling
	coarsestSize     = 16   // coarsen until at most this many vertices
	stallRatio       = 0.9  // stop coarsening when a level keeps more
	fineStep         = 0.3  // first step on refined levels, in mean edge lengths
	jitter           = 0.05 // prolongation jitter, in mean edge lengths
	misCap           = 8    // largest aggregate of one MIS coarsening
	blockSize        = 256  // vertices per parallel work unit
	groupChunk       = 8    // quadtree groups per parallel work unit
	contractBlock    = 1024 // coarse vertices per parallel work unit of contract
)

// SFDP lays out g with Hu's scalable force-directed placement and returns
// the positions x0, y0, x1, y1, … (2 per vertex, centred on the origin,
// scaled so that the mean edge length is K). Edge directions and weights
// are ignored (a directed graph is drawn as its undirected union).
// Pendant trees (what repeatedly removing vertices of degree 1 removes, in
// a component with a cycle) are drawn fanned out beside the vertex they
// hang from, one mean edge length a step. The connected components other
// than the largest are packed around it, each with its own layout. It
// returns an error for invalid options, and one wrapping ctx.Err() if ctx
// is cancelled first: every phase looks at ctx at least every few
// milliseconds of work, so a cancelled layout returns promptly (in a
// notebook, pass sdk.Context()).
//
// Memory stays linear in the graph: the coarse graphs, a few float64
// arrays per vertex and the quadtree (fewer nodes than vertices, 64 bytes
// each) come on top of the graph itself — about 1.6 GiB for a million
// vertices and ten million random edges.
func SFDP(ctx context.Context, g *graph.Graph, opts Options) ([]float64, error) {
	o, err := opts.resolve(g)
	if err != nil {
		return nil, err
	}
	if g.NumVertices() == 0 {
		return []float64{}, nil
	}
	pos, err := sfdp(ctx, g, o)
	if err != nil {
		return nil, fmt.Errorf("layout.SFDP: %w", err)
	}
	return pos, nil
}

// sfdp is SFDP with resolved options on a graph with vertices.
func sfdp(ctx context.Context, g *graph.Graph, o Options) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e := &engine{ctx: ctx, workers: o.Workers, p: o.Repulsion, a: o.Attraction, maxIter: o.MaxIterations, tol: o.Tolerance, logf: o.Log}
	e.tree.theta = o.Theta
	rng := rand.New(rand.NewPCG(o.Seed, 0x5346445020487520)) // "SFDP Hu "
	base, err := baseLevel(ctx, g)
	if err != nil {
		return nil, err
	}
	base.k = 1
	if o.Repulsion == 0 {
		if e.p, err = autoRepulsion(ctx, base); err != nil {
			return nil, err
		}
		if e.p == 2 {
			e.pStart = 1
		}
		if o.Log != nil {
			o.Log("repulsion exponent p = %v", e.p)
		}
	}

	// Pendant trees are drawn beside their attachment, not by the forces
	// (see pendant.go).
	trees, err := pendantTrees(ctx, base)
	if err != nil {
		return nil, err
	}
	var pos []float64
	if trees == nil {
		if pos, err = e.layoutLevel(base, o, rng); err != nil {
			return nil, err
		}
	} else {
		core, err := trees.coreLevel(ctx, base)
		if err != nil {
			return nil, err
		}
		co := o
		co.Initial = restrictTo(trees, o.Initial, 2)
		co.Groups = restrictTo(trees, o.Groups, 1)
		corePos, err := e.layoutLevel(core, co, rng)
		if err != nil {
			return nil, err
		}
		if o.Log != nil {
			o.Log("pendant trees: %d vertices drawn beside the %d they hang from", len(trees.order), core.n)
		}
		pos = make([]float64, 2*base.n)
		for i, v := range trees.core {
			pos[2*v], pos[2*v+1] = corePos[2*i], corePos[2*i+1]
		}
		if err := trees.place(ctx, base, pos, unit(core, corePos)); err != nil {
			return nil, err
		}
	}
	if err := pack(ctx, base, pos); err != nil {
		return nil, err
	}
	if err := normalise(ctx, base, pos, o.K); err != nil {
		return nil, err
	}
	return pos, nil
}

// layoutLevel lays out base (the input graph, or its core without the
// pendant trees) with the multilevel scheme, from scratch, from Initial
// positions or with Groups.
func (e *engine) layoutLevel(base *level, o Options, rng *rand.Rand) ([]float64, error) {
	levels := []*level{base}
	var err error
	if o.Coarsening != SingleLevel {
		start := time.Now()
		if levels, err = e.hierarchy(base, o.Coarsening, rng, 0); err != nil {
			return nil, err
		}
		if o.Log != nil {
			arcs := 0
			for _, l := range levels[1:] {
				arcs += l.arcs()
			}
			o.Log("%v coarsening: %d levels, coarsest %d vertices, %d coarse arcs in all, %v",
				o.Coarsening, len(levels), levels[len(levels)-1].n, arcs, time.Since(start))
		}
	}
	switch {
	case o.Groups != nil:
		return e.fitted(levels, o, rng)
	case hasInitial(o.Initial):
		e.coolRate = refineRate(o)
		start, given, err := initialPositions(e.ctx, base, o.Initial, rng)
		if err != nil {
			return nil, err
		}
		return e.warm(levels, start, given, o.Seed)
	default:
		return e.fromScratch(levels, 0, o.Seed, rng)
	}
}

func (opts Options) resolve(g *graph.Graph) (Options, error) {
	o := opts
	if g == nil {
		return o, errors.New("layout.SFDP: nil graph")
	}
	n := g.NumVertices()
	if o.Initial != nil && len(o.Initial) != 2*n {
		return o, fmt.Errorf("layout.SFDP: Initial has %d coordinates, want %d (2 per vertex)", len(o.Initial), 2*n)
	}
	for _, x := range o.Initial {
		if math.IsInf(x, 0) {
			return o, errors.New("layout.SFDP: Initial holds an infinite coordinate")
		}
	}
	if o.MaxIterations < 0 {
		return o, fmt.Errorf("layout.SFDP: MaxIterations %d is negative", o.MaxIterations)
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = defaultMaxIter
	}
	if o.Tolerance < 0 || math.IsNaN(o.Tolerance) {
		return o, fmt.Errorf("layout.SFDP: Tolerance %v is negative", o.Tolerance)
	}
	if o.Tolerance == 0 {
		o.Tolerance = defaultTolerance
	}
	if o.Workers < 0 {
		return o, fmt.Errorf("layout.SFDP: Workers %d is negative", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.K < 0 || math.IsNaN(o.K) || math.IsInf(o.K, 0) {
		return o, fmt.Errorf("layout.SFDP: K %v must be positive", o.K)
	}
	if o.K == 0 {
		o.K = 1
	}
	if o.Theta < 0 || o.Theta > 1.4 || math.IsNaN(o.Theta) {
		return o, fmt.Errorf("layout.SFDP: Theta %v must be in (0, 1.4]", o.Theta)
	}
	if o.Theta == 0 {
		o.Theta = defaultTheta
	}
	if o.Repulsion < 0 || o.Repulsion > 10 || math.IsNaN(o.Repulsion) {
		return o, fmt.Errorf("layout.SFDP: Repulsion %v must be in (0, 10]", o.Repulsion)
	}
	if o.Attraction < 0 || o.Attraction > 4 || math.IsNaN(o.Attraction) {
		return o, fmt.Errorf("layout.SFDP: Attraction %v must be in (0, 4]", o.Attraction)
	}
	if o.Attraction == 0 {
		o.Attraction = 3
	}
	if o.Groups != nil && len(o.Groups) != n {
		return o, fmt.Errorf("layout.SFDP: Groups has %d entries, want %d (1 per vertex)", len(o.Groups), n)
	}
	if o.RefineIterations < 0 {
		return o, fmt.Errorf("layout.SFDP: RefineIterations %d is negative", o.RefineIterations)
	}
	if o.Coarsening < Matching || o.Coarsening > SingleLevel {
		return o, fmt.Errorf("layout.SFDP: unknown %v", o.Coarsening)
	}
	return o, nil
}

// hierarchy coarsens base until it has at most max(coarsestSize, stopAt)
// vertices or a level stops shrinking (keeps more than stallRatio of its
// vertices); it returns the levels, finest first, with their parent maps
// and k set.
func (e *engine) hierarchy(base *level, scheme Coarsening, rng *rand.Rand, stopAt int) ([]*level, error) {
	levels := []*level{base}
	for fine := base; fine.n > max(coarsestSize, stopAt); {
		if err := e.ctx.Err(); err != nil {
			return nil, err
		}
		var coarse *level
		if scheme == MIS {
			agg, err := misGroups(e.ctx, fine, rng)
			if err != nil {
				return nil, err
			}
			if coarse, err = e.contract(fine, func(v int32) int32 { return agg[v] }); err != nil {
				return nil, err
			}
		} else {
			match, err := matchGroups(e.ctx, fine, rng)
			if err != nil {
				return nil, err
			}
			coarse, err = e.contract(fine, func(v int32) int32 {
				if m := match[v]; m >= 0 && m < v {
					return m
				}
				return v
			})
			if err != nil {
				return nil, err
			}
		}
		if float64(coarse.n) > stallRatio*float64(fine.n) {
			if fine.group != nil { // the groups are merged: go on freely
				fine.group = nil
				continue
			}
			fine.parent = nil
			break
		}
		coarse.k = fine.k * math.Sqrt(float64(fine.n)/float64(coarse.n))
		levels = append(levels, coarse)
		fine = coarse
	}
	return levels, nil
}

// refineRate is the cooling factor per iteration that takes the step of a
// level refined from given positions from fineStep to the tolerance in
// o.RefineIterations iterations (0: the usual cool).
func refineRate(o Options) float64 {
	if o.RefineIterations <= 0 {
		return 0
	}
	return root(o.Tolerance/fineStep, o.RefineIterations)
}

// root is the k-th root of a in (0, 1), by bisection with explicitly
// rounded products: the same bits on every machine (see cbrt).
func root(a float64, k int) float64 {
	lo, hi := 0.0, 1.0
	for i := 0; i < 64; i++ {
		mid := float64(lo/2) + float64(hi/2)
		p := 1.0
		for j := 0; j < k; j++ {
			p = float64(p * mid)
		}
		if p < a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// denseGroups numbers the groups 0, 1, … in order of first appearance
// (−1 for none), so that per-group arrays stay as small as the number of
// groups.
func denseGroups(groups []int32) []int32 {
	ids := make(map[int32]int32)
	dense := make([]int32, len(groups))
	for v, g := range groups {
		if g < 0 {
			dense[v] = -1
			continue
		}
		id, ok := ids[g]
		if !ok {
			id = int32(len(ids))
			ids[g] = id
		}
		dense[v] = id
	}
	return dense
}

func hasInitial(init []float64) bool {
	for i := 0; i+1 < len(init); i += 2 {
		if !math.IsNaN(init[i]) && !math.IsNaN(init[i+1]) {
			return true
		}
	}
	return false
}

// normalise centres the layout on the origin and scales it so that its
// mean edge length is k (self-loops left out). If ctx is cancelled before
// it changes pos, it returns ctx's error.
func normalise(ctx context.Context, l *level, pos []float64, k float64) error {
	n := l.n
	cx, cy := centroid(pos[:2*n])
	sum, edges := 0.0, 0
	for v := 0; v < n; v++ {
		if err := cancelled(ctx, v); err != nil {
			return err
		}
		for _, u := range l.nbrs(v) {
			if int(u) != v {
				sum += dist(pos, v, int(u))
				edges++
			}
		}
	}
	scale := k
	if edges > 0 && sum > 0 {
		scale = k * float64(edges) / sum
	}
	for v := 0; v < n; v++ {
		pos[2*v] = float64((pos[2*v] - cx) * scale)
		pos[2*v+1] = float64((pos[2*v+1] - cy) * scale)
	}
	return nil
}
