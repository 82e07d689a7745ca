package community

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"superstep/internal/parallel"
	"superstep/sdk/graph"
)

// Options tunes Louvain. The zero value asks for the defaults.
type Options struct {
	// Resolution is γ in the modularity (see the package documentation):
	// larger values give more, smaller communities. 0 means 1; it must
	// not be negative.
	Resolution float64
	// Seed chooses the order in which vertices are visited: the same seed
	// gives the same communities on every run and machine, whatever
	// Workers is.
	Seed uint64
	// MaxLevels stops after that many aggregation levels; 0 means no
	// limit (Louvain stops by itself when a level gains nothing).
	MaxLevels int
	// Tolerance is the least modularity gain of a level for Louvain to
	// aggregate and go on; 0 means 1e-7, a negative value means any gain.
	Tolerance float64
	// Workers is how many goroutines convert the input graph, build the
	// aggregated graphs and make the repeated runs (see Louvain); 0 means
	// runtime.GOMAXPROCS(0). Each local moving runs on one goroutine. The
	// result does not depend on Workers.
	Workers int
}

// Result is the outcome of Louvain.
type Result struct {
	// Membership gives each vertex index its community, 0..NumCommunities-1,
	// numbered in order of each community's lowest vertex index.
	Membership     []int32
	NumCommunities int
	// Modularity is the modularity of Membership at the resolution asked.
	Modularity float64
	// Levels[l] is the partition of the vertices after level l (local
	// moving, then aggregation), coarser from level to level, before the
	// refinement; LevelModularity[l] is its modularity. Membership is the
	// last of them after the refinement, never of lower modularity.
	Levels          [][]int32
	LevelModularity []float64
}

// Louvain partitions g into communities of high modularity with the
// Louvain method (the multi-level algorithm of Blondel et al., Algorithm 2
// of the thesis, paper 001).
//
// Each level moves single vertices to the neighbouring community that
// gains the most modularity until no move gains, visiting them in an order
// shuffled by Options.Seed and revisiting only the neighbours of vertices
// that moved (the "fast local move" of Traag, Waltman and van Eck, "From
// Louvain to Leiden", Sci. Rep. 9, 2019: it reaches the same kind of local
// optimum as repeated full sweeps, sooner). Then each community becomes
// one vertex of a weighted graph (the edges inside it a self-loop) and the
// next level works on that graph, until a level gains less than
// Options.Tolerance or changes nothing. Finally the partition is refined
// on the way back down: at each finer level, from the coarsest to the
// input graph, single vertices move again between the communities found
// (multi-level refinement, as in Rotta and Noack, "Multilevel local search
// algorithms for modularity clustering", ACM JEA 16, 2011), which never
// lowers the modularity and often raises it a little.
//
// The first level does most of the work; the graph it leaves is usually
// tens of times smaller. So Louvain runs the levels above the first
// several times from different shuffled orders (as many runs as cost
// about as much as the first level, or as a first level of 2¹⁶ adjacency
// entries if that is more; at most 32) and keeps the best before
// refining. A graph of fewer than 2¹⁶ adjacency entries (32,768 edges) is
// run whole several times the same way (up to 32 runs, costing together
// about one run on a graph of that size). Karate and Les Misérables then
// reach their optimum modularity (0.4198 and, weighted, 0.5667) for each
// of 200 seeds tried.
//
// Weights must be finite and non-negative (Louvain returns an error
// otherwise); a directed graph is treated as undirected (see the package
// documentation). The result is the same for a seed on every run and
// machine. Graph conversion, aggregation and the repeated runs use
// Options.Workers goroutines without changing the result; each local
// moving is sequential.
//
// Louvain returns promptly when ctx is cancelled, with an error wrapping
// ctx.Err() (and the zero Result): in a notebook, pass sdk.Context().
func Louvain(ctx context.Context, g *graph.Graph, opts Options) (Result, error) {
	gamma := opts.Resolution
	if gamma == 0 {
		gamma = 1
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return Result{}, fmt.Errorf("community.Louvain: resolution %g, want a positive number", opts.Resolution)
	}
	if g == nil {
		return Result{}, fmt.Errorf("community.Louvain: nil graph")
	}
	tol := opts.Tolerance
	if tol == 0 {
		tol = 1e-7
	}
	workers := parallel.Workers(opts.Workers, g.NumVertices())
	res, err := louvain(ctx, g, gamma, tol, workers, opts)
	if err != nil {
		return Result{}, fmt.Errorf("community.Louvain: %w", err)
	}
	return res, nil
}

func louvain(ctx context.Context, g *graph.Graph, gamma, tol float64, workers int, opts Options) (Result, error) {
	base, err := fromGraph(ctx, g, workers)
	if err != nil {
		return Result{}, err
	}
	n := base.n()
	m2 := 0.0
	for _, k := range base.k {
		m2 += k
	}
	if n == 0 || m2 == 0 {
		return singletons(n), nil
	}
	p := params{ctx: ctx, gamma: gamma, m2: m2, tol: tol, maxLevels: opts.MaxLevels, seed: opts.Seed}
	// A small graph is run several times from different orders, as many
	// as cost about as much as one run on a graph of smallWork arcs.
	runs := min(maxTrials, max(1, smallWork/max(1, len(base.adj))))
	if runs == 1 {
		return p.run(base, 0, workers)
	}
	results := make([]Result, runs)
	errs := make([]error, runs)
	if err := parallel.For(ctx, workers, runs, func(_, t int) { results[t], errs[t] = p.run(base, uint64(t), 1) }); err != nil {
		return Result{}, err
	}
	best := 0
	for t := range results {
		if errs[t] != nil {
			return Result{}, errs[t]
		}
		if results[t].Modularity > results[best].Modularity {
			best = t
		}
	}
	return results[best], nil
}

// smallWork is the number of arcs below which whole runs are repeated.
const smallWork = 1 << 16

// singletons is the result that puts each of n vertices on its own.
func singletons(n int) Result {
	res := Result{Membership: make([]int32, n), NumCommunities: n}
	for v := range res.Membership {
		res.Membership[v] = int32(v)
	}
	return res
}

// params are Louvain's settings for one graph, and the context that
// stops it.
type params struct {
	ctx            context.Context
	gamma, m2, tol float64
	maxLevels      int
	seed           uint64
}

// run is one run of Louvain on base, its vertex order drawn from the
// seed and stream.
func (p params) run(base *level, stream uint64, workers int) (Result, error) {
	n := base.n()
	gamma, m2, tol := p.gamma, p.m2, p.tol
	res := singletons(n)
	q0 := base.modularity(gamma, m2)
	res.Modularity = q0
	s := newMover(p.ctx, n)
	rng := rand.New(rand.NewPCG(p.seed, 0x4c6f757661696e21+stream)) // "Louvain!"

	// The first level.
	comm := make([]int32, n)
	for i := range comm {
		comm[i] = int32(i)
	}
	tot := append([]float64(nil), base.k...)
	moves, err := s.move(base, comm, tot, rng, gamma, m2)
	if err != nil || moves == 0 {
		return res, err
	}
	k := renumber(comm, s.ids)
	g1, err := aggregate(p.ctx, base, comm, k, workers)
	if err != nil {
		return Result{}, err
	}
	q1 := g1.modularity(gamma, m2)
	res.Levels = [][]int32{append([]int32(nil), comm...)}
	res.LevelModularity = []float64{q1}

	// The levels above, from several shuffled orders: each run is a
	// multi-level Louvain on g1, refined down to g1.
	part := make([]int32, k)
	for i := range part {
		part[i] = int32(i)
	}
	if k > 1 && q1-q0 >= tol && p.maxLevels != 1 {
		maxLevels := 0
		if p.maxLevels > 1 {
			maxLevels = p.maxLevels - 1
		}
		// As many runs as cost about as much as the first level.
		budget := max(len(base.adj), smallWork) / max(len(g1.adj), 1)
		trials := make([]coarseRun, min(maxTrials, max(1, budget)))
		seeds := make([]uint64, len(trials))
		for i := range seeds {
			seeds[i] = rng.Uint64()
		}
		errs := make([]error, len(trials))
		err := parallel.For(p.ctx, workers, len(trials), func(_, t int) {
			r := rand.New(rand.NewPCG(p.seed, seeds[t]))
			trials[t], errs[t] = multilevel(p.ctx, g1, r, gamma, m2, q1, tol, maxLevels)
		})
		if err != nil {
			return Result{}, err
		}
		best := 0
		for t := range trials {
			if errs[t] != nil {
				return Result{}, errs[t]
			}
			if trials[t].q > trials[best].q {
				best = t
			}
		}
		b := trials[best]
		part = b.part
		for i, m := range b.maps {
			lv := make([]int32, n)
			for v, c := range res.Levels[i] {
				lv[v] = m[c]
			}
			res.Levels = append(res.Levels, lv)
		}
		res.LevelModularity = append(res.LevelModularity, b.levelQ...)
	}

	// Refine on the input graph.
	for u := range comm {
		comm[u] = part[comm[u]]
	}
	clear(tot)
	for u, c := range comm {
		tot[c] += base.k[u]
	}
	if _, err := s.move(base, comm, tot, rng, gamma, m2); err != nil {
		return Result{}, err
	}
	k = renumber(comm, s.ids)
	res.Membership = comm
	res.NumCommunities = k
	res.Modularity = base.partitionModularity(comm, k, gamma, m2)
	return res, nil
}

// maxTrials bounds the repeated runs: of a small graph, and of the levels
// above the first.
const maxTrials = 32

// coarseRun is one multi-level run on the graph of the first level.
type coarseRun struct {
	maps   [][]int32 // maps[l]: the vertices of level l to those of level l+1
	levelQ []float64
	part   []int32 // the refined partition of the run's input
	q      float64 // its modularity
}

// multilevel runs Louvain on g from single vertices (at most maxLevels
// levels if positive; prevQ is the modularity of that start) and refines
// the result back down to g.
func multilevel(ctx context.Context, g *level, rng *rand.Rand, gamma, m2, prevQ, tol float64, maxLevels int) (coarseRun, error) {
	var run coarseRun
	s := newMover(ctx, g.n())
	graphs := []*level{g}
	cur := g
	for l := 0; maxLevels <= 0 || l < maxLevels; l++ {
		comm := make([]int32, cur.n())
		for i := range comm {
			comm[i] = int32(i)
		}
		tot := append([]float64(nil), cur.k...)
		moves, err := s.move(cur, comm, tot, rng, gamma, m2)
		if err != nil {
			return coarseRun{}, err
		}
		if moves == 0 {
			break
		}
		k := renumber(comm, s.ids)
		next, err := aggregate(ctx, cur, comm, k, 1)
		if err != nil {
			return coarseRun{}, err
		}
		q := next.modularity(gamma, m2)
		run.maps = append(run.maps, comm)
		run.levelQ = append(run.levelQ, q)
		graphs = append(graphs, next)
		cur = next
		if k == 1 || q-prevQ < tol {
			break
		}
		prevQ = q
	}
	part := make([]int32, cur.n())
	for i := range part {
		part[i] = int32(i)
	}
	for l := len(run.maps) - 1; l >= 0; l-- {
		lv := graphs[l]
		comm := make([]int32, lv.n())
		tot := make([]float64, lv.n())
		for u := range comm {
			comm[u] = part[run.maps[l][u]]
			tot[comm[u]] += lv.k[u]
		}
		if _, err := s.move(lv, comm, tot, rng, gamma, m2); err != nil {
			return coarseRun{}, err
		}
		part = comm
	}
	k := renumber(part, s.ids)
	run.part = part
	run.q = g.partitionModularity(part, k, gamma, m2)
	return run, nil
}

// level is one level's undirected graph in CSR form, self-loops kept
// apart.
type level struct {
	off  []int
	adj  []int32
	w    []float64 // parallel to adj; nil when every weight is 1
	loop []float64 // weight of the edges inside the vertex, counted once
	k    []float64 // strength: the weights of adj plus 2·loop
}

func (lv *level) n() int { return len(lv.off) - 1 }

// weight is the weight of arc a (1 when the level has no weights).
func (lv *level) weight(a int) float64 {
	if lv.w == nil {
		return 1
	}
	return lv.w[a]
}

// modularity is that of the partition into single vertices.
func (lv *level) modularity(gamma, m2 float64) float64 {
	if m2 == 0 {
		return 0
	}
	in := 0.0
	for _, l := range lv.loop {
		in += l
	}
	return modularity(in, lv.k, m2, gamma)
}

// partitionModularity is the modularity of comm, with communities 0..k-1.
func (lv *level) partitionModularity(comm []int32, k int, gamma, m2 float64) float64 {
	if m2 == 0 {
		return 0
	}
	tot := make([]float64, k)
	in := 0.0
	for u := 0; u < lv.n(); u++ {
		cu := comm[u]
		tot[cu] += lv.k[u]
		in += lv.loop[u]
		lo, hi := lv.off[u], lv.off[u+1]
		for i, v := range lv.adj[lo:hi] {
			if comm[v] == cu {
				in += lv.weight(lo+i) / 2
			}
		}
	}
	return modularity(in, tot, m2, gamma)
}

// checkWeight rejects a weight Louvain cannot use.
func checkWeight(w float64) error {
	if !(w >= 0) || math.IsInf(w, 1) {
		return fmt.Errorf("edge weight %g, want a finite non-negative number", w)
	}
	return nil
}

// checkEvery is how many vertices a sequential loop handles between two
// looks at the context (well under a millisecond of work).
const checkEvery = 1 << 12

// fromGraph converts g to the first level: undirected, self-loops apart,
// no weights stored when g has none.
func fromGraph(ctx context.Context, g *graph.Graph, workers int) (*level, error) {
	n := g.NumVertices()
	lv := &level{off: make([]int, n+1), loop: make([]float64, n), k: make([]float64, n)}
	weighted := g.Weighted()
	if g.Directed() {
		deg := lv.off[1:]
		for u := 0; u < n; u++ {
			for _, v := range g.Neighbors(u) {
				if int(v) != u {
					deg[u]++
					deg[v]++
				}
			}
		}
		for u := 0; u < n; u++ {
			lv.off[u+1] += lv.off[u]
		}
		lv.adj = make([]int32, lv.off[n])
		if weighted {
			lv.w = make([]float64, lv.off[n])
		}
		pos := append([]int(nil), lv.off[:n]...)
		put := func(u, v int32, w float64) {
			lv.adj[pos[u]] = v
			if weighted {
				lv.w[pos[u]] = w
			}
			pos[u]++
			lv.k[u] += w
		}
		for u := 0; u < n; u++ {
			if u%checkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			lo, _ := g.ArcRange(u)
			for i, v := range g.Neighbors(u) {
				w := g.Weight(lo + i)
				if err := checkWeight(w); err != nil {
					return nil, err
				}
				if int(v) == u {
					lv.loop[u] += w
					lv.k[u] += 2 * w
					continue
				}
				put(int32(u), v, w)
				put(v, int32(u), w)
			}
		}
		return lv, nil
	}
	// Undirected: copy each neighbour list without its self-loops, in
	// parallel over fixed blocks of vertices.
	const block = 4096
	deg := lv.off[1:]
	err := parallel.Chunks(ctx, workers, n, block, func(_, lo, hi int) {
		for u := lo; u < hi; u++ {
			d := 0
			for _, v := range g.Neighbors(u) {
				if int(v) != u {
					d++
				}
			}
			deg[u] = d
		}
	})
	if err != nil {
		return nil, err
	}
	for u := 0; u < n; u++ {
		lv.off[u+1] += lv.off[u]
	}
	lv.adj = make([]int32, lv.off[n])
	if weighted {
		lv.w = make([]float64, lv.off[n])
	}
	// The first bad weight of each block, reported in block order.
	bad := make([]error, (n+block-1)/block)
	err = parallel.Chunks(ctx, workers, n, block, func(_, from, to int) {
		for u := from; u < to; u++ {
			p := lv.off[u]
			lo, _ := g.ArcRange(u)
			k := 0.0
			for i, v := range g.Neighbors(u) {
				w := g.Weight(lo + i)
				if err := checkWeight(w); err != nil {
					if bad[from/block] == nil {
						bad[from/block] = err
					}
					continue
				}
				if int(v) == u {
					lv.loop[u] += w
					k += 2 * w
					continue
				}
				lv.adj[p] = v
				if weighted {
					lv.w[p] = w
				}
				p++
				k += w
			}
			lv.k[u] = k
		}
	})
	if err != nil {
		return nil, err
	}
	for _, err := range bad {
		if err != nil {
			return nil, err
		}
	}
	return lv, nil
}

// mover holds the scratch space of local moving, sized for the input
// graph and reused at every level, and the context that stops it.
type mover struct {
	ctx     context.Context
	nw      []float64 // weight from the current vertex to each community; 0 when untouched
	touched []int32   // communities with nw > 0
	queue   []int32   // ring buffer of vertices to visit
	inQueue []bool
	ids     []int32 // scratch for renumber
}

func newMover(ctx context.Context, n int) *mover {
	return &mover{
		ctx:     ctx,
		nw:      make([]float64, n),
		touched: make([]int32, 0, 64),
		queue:   make([]int32, n),
		inQueue: make([]bool, n),
		ids:     make([]int32, n),
	}
}

// move runs local moving on lv from the partition comm, whose community
// strengths are tot, and returns the number of moves. All vertices are
// queued in an order shuffled by rng; a vertex moves to the neighbouring
// community of greatest gain if that beats staying, and then its
// neighbours outside its new community are queued again. It stops with
// s.ctx's error when that is cancelled.
func (s *mover) move(lv *level, comm []int32, tot []float64, rng *rand.Rand, gamma, m2 float64) (int, error) {
	n := lv.n()
	q := s.queue[:n]
	for i := range q {
		q[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { q[i], q[j] = q[j], q[i] })
	inQ := s.inQueue[:n]
	for i := range inQ {
		inQ[i] = true
	}
	nw, touched := s.nw, s.touched[:0]
	off, adj, ws, ks := lv.off, lv.adj, lv.w, lv.k
	head, size, moves := 0, n, 0
	for visits := 0; size > 0; visits++ {
		if visits%checkEvery == 0 {
			if err := s.ctx.Err(); err != nil {
				s.touched = touched
				return moves, err
			}
		}
		u := q[head]
		head++
		if head == n {
			head = 0
		}
		size--
		inQ[u] = false
		lo, hi := off[u], off[u+1]
		nb := adj[lo:hi]
		if ws == nil {
			for _, v := range nb {
				c := comm[v]
				if nw[c] == 0 {
					touched = append(touched, c)
				}
				nw[c]++
			}
		} else {
			wu := ws[lo:hi]
			for i, v := range nb {
				w := wu[i]
				if w == 0 {
					continue
				}
				c := comm[v]
				if nw[c] == 0 {
					touched = append(touched, c)
				}
				nw[c] += w
			}
		}
		cu := comm[u]
		ku := ks[u]
		tot[cu] -= ku
		scale := gamma * ku / m2
		stay := nw[cu] - float64(scale*tot[cu])
		best, bestGain := cu, stay
		for _, c := range touched {
			if gain := nw[c] - float64(scale*tot[c]); gain > bestGain {
				best, bestGain = c, gain
			}
			nw[c] = 0
		}
		touched = touched[:0]
		if best != cu && !(bestGain-stay > float64(1e-12*ku)) {
			best = cu
		}
		tot[best] += ku
		if best == cu {
			continue
		}
		comm[u] = best
		moves++
		for _, v := range nb {
			if !inQ[v] && comm[v] != best {
				inQ[v] = true
				t := head + size
				if t >= n {
					t -= n
				}
				q[t] = v
				size++
			}
		}
	}
	s.touched = touched
	return moves, nil
}

// renumber renumbers comm to 0..k-1 in order of first appearance and
// returns k; ids is scratch of at least len(comm).
func renumber(comm []int32, ids []int32) int {
	ids = ids[:len(comm)]
	for i := range ids {
		ids[i] = -1
	}
	k := int32(0)
	for u, c := range comm {
		if ids[c] < 0 {
			ids[c] = k
			k++
		}
		comm[u] = ids[c]
	}
	return int(k)
}

// Members groups the vertices by community: the members of community c
// (membership numbered 0..k-1) are members[start[c]:start[c+1]], in vertex
// order.
func Members(membership []int32, k int) (start, members []int32) {
	start = make([]int32, k+1)
	for _, c := range membership {
		start[c+1]++
	}
	for c := 0; c < k; c++ {
		start[c+1] += start[c]
	}
	members = make([]int32, len(membership))
	pos := append([]int32(nil), start[:k]...)
	for u, c := range membership {
		members[pos[c]] = int32(u)
		pos[c]++
	}
	return start, members
}

// aggregate merges each community of lv (comm, numbered 0..k-1) into one
// vertex: the weight between two communities is the sum of the weights
// between their members, the weight inside one becomes its loop. Blocks
// of communities are built in parallel; each community's neighbour list
// comes out the same whatever the number of workers.
func aggregate(ctx context.Context, lv *level, comm []int32, k int, workers int) (*level, error) {
	start, members := Members(comm, k)

	next := &level{off: make([]int, k+1), loop: make([]float64, k), k: make([]float64, k)}
	// Blocks of communities with about the same number of arcs each.
	target := len(lv.adj)/(8*workers) + 1024
	var blocks []int // community boundaries
	blocks = append(blocks, 0)
	arcs := 0
	for c := 0; c < k; c++ {
		for _, u := range members[start[c]:start[c+1]] {
			arcs += lv.off[u+1] - lv.off[u]
		}
		if arcs >= target && c+1 < k {
			blocks = append(blocks, c+1)
			arcs = 0
		}
	}
	blocks = append(blocks, k)
	nb := len(blocks) - 1
	blockArcs := func(b int) int {
		a := 0
		for _, u := range members[start[blocks[b]]:start[blocks[b+1]]] {
			a += lv.off[u+1] - lv.off[u]
		}
		return a
	}
	outAdj := make([][]int32, nb)
	outW := make([][]float64, nb)
	deg := next.off[1:]
	// Each worker's weights to the neighbouring communities, all 0
	// between two communities.
	err := parallel.Each(ctx, workers, nb, func() []float64 { return make([]float64, k) }, func(nw []float64, b int) {
		var touched []int32
		// Each community has at most as many neighbours as arcs, and
		// fewer than k.
		arcs := min(blockArcs(b), (blocks[b+1]-blocks[b])*(k-1))
		adj := make([]int32, 0, arcs)
		wts := make([]float64, 0, arcs)
		for c := blocks[b]; c < blocks[b+1]; c++ {
			loop, str := 0.0, 0.0
			for _, u := range members[start[c]:start[c+1]] {
				loop += lv.loop[u]
				str += lv.k[u]
				lo, hi := lv.off[u], lv.off[u+1]
				for i, v := range lv.adj[lo:hi] {
					w := lv.weight(lo + i)
					cv := comm[v]
					if int(cv) == c {
						loop += w / 2
						continue
					}
					if nw[cv] == 0 {
						if w == 0 {
							continue
						}
						touched = append(touched, cv)
					}
					nw[cv] += w
				}
			}
			next.loop[c], next.k[c] = loop, str
			deg[c] = len(touched)
			for _, cv := range touched {
				adj = append(adj, cv)
				wts = append(wts, nw[cv])
				nw[cv] = 0
			}
			touched = touched[:0]
		}
		outAdj[b], outW[b] = adj, wts
	})
	if err != nil {
		return nil, err
	}
	for c := 0; c < k; c++ {
		next.off[c+1] += next.off[c]
	}
	next.adj = make([]int32, next.off[k])
	next.w = make([]float64, next.off[k])
	err = parallel.For(ctx, workers, nb, func(_, b int) {
		p := next.off[blocks[b]]
		copy(next.adj[p:], outAdj[b])
		copy(next.w[p:], outW[b])
	})
	if err != nil {
		return nil, err
	}
	return next, nil
}
