package vertex

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"superstep/algo/community"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
)

// LouvainOptions tunes the vertex-program Louvain (NewLouvain, LouvainBSP).
// The zero value asks for the defaults.
type LouvainOptions struct {
	// Resolution is γ in the modularity; 0 means 1.
	Resolution float64
	// Seed draws which vertices may move in which round: the same seed
	// gives the same communities on every run, machine and cluster,
	// whatever the number of workers.
	Seed uint64
	// MoveProbability is the chance that a vertex which wants to move
	// does so in a round (the others wait for a later round), so that
	// neighbours rarely move at the same time on stale information. 0
	// means 0.8; 1 lets every vertex move in every round (then only the
	// single-vertex rule below keeps moves from oscillating, which costs
	// modularity on graphs with hubs: 0.48 instead of 0.51 on Gnutella).
	MoveProbability float64
	// MaxRounds caps the rounds of local moving in one job (three
	// supersteps each); 0 means 100.
	MaxRounds int
	// Patience and MinGain end a job once Patience rounds in a row have
	// not raised the modularity by more than MinGain above the last
	// round that did; 0 means 3 rounds and 1e-4 (a negative MinGain
	// means any gain). A job also ends when no vertex wants to move.
	Patience int
	MinGain  float64
	// Initial is the partition local moving starts from (NewLouvain
	// only; any int32 labels, one per vertex); nil means every vertex
	// on its own.
	Initial []int32
	// TotalWeight is twice the total edge weight of the whole graph (2m,
	// self-loops counted twice), for a NewLouvain whose graph holds only
	// some vertices' arcs: one process of a distributed job (see
	// graph.Graph.Keep). 0 means the graph given is whole.
	TotalWeight float64
	// MaxLevels stops LouvainBSP after that many aggregation levels; 0
	// means no limit.
	MaxLevels int
	// Tolerance is the least modularity gain of a level for LouvainBSP to
	// aggregate and go on; 0 means 1e-7, a negative value means any gain.
	Tolerance float64
	// NoRefine skips LouvainBSP's refinement jobs on the way back down.
	NoRefine bool
	// Trials is how many independent runs (different coins) LouvainBSP
	// makes, keeping the partition of highest modularity. 0 means, as in
	// community.Louvain, as many as cost about one run on a graph of
	// 2¹⁶ arcs, at most 8: one for a graph of 32,768 edges or more.
	Trials int
}

func (o LouvainOptions) withDefaults() LouvainOptions {
	if o.Resolution == 0 {
		o.Resolution = 1
	}
	if o.MoveProbability == 0 {
		o.MoveProbability = 0.8
	}
	if o.MaxRounds <= 0 {
		o.MaxRounds = 100
	}
	if o.Patience <= 0 {
		o.Patience = 3
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-7
	}
	if o.MinGain == 0 {
		o.MinGain = 1e-4
	}
	return o
}

// Louvain is the local moving of the Louvain method (phase 1 of Blondel
// et al., Algorithm 2 of the thesis, paper 001) as a vertex program, in the
// style of the thesis's Giraph implementation (which builds on Sotera's
// Distributed Graph Analytics): every vertex starts in a community of its
// own (or in LouvainOptions.Initial), and in synchronous rounds of three
// supersteps
//
//	0  each vertex decides on a move from what its neighbours told it
//	   (see below), then sends (its id, its strength k) to its
//	   community's representative — the vertex whose index is the
//	   community's id;
//	1  each representative sums the strengths it received into the
//	   community's total Σ_tot and its size, and sends both back to every
//	   member;
//	2  each vertex sends (community, Σ_tot, size, edge weight) to every
//	   neighbour.
//
// In superstep 0 of the next round a vertex sums the weights it received
// per community and moves to the neighbouring community of greatest
// modularity gain, if that beats staying. Moves are synchronous, so two
// vertices could swap communities for ever; two guards prevent that: a
// vertex alone in its community moves into another single-vertex
// community only if that one's id is smaller, and a vertex that wants to
// move does so with probability MoveProbability (a coin drawn from the
// seed, the round and the vertex: deterministic). Community totals thus
// cost two messages per vertex and round, whatever the number of
// communities, and the neighbour exchange one per arc: the traffic of
// the thesis's Giraph job.
//
// Aggregators carry the modularity of the partition (the weight inside
// communities and the sum of squared totals, in fixed point so that the
// sum is the same in any order) and the number of vertices that want to
// move. The job keeps the partition of highest modularity it has seen
// (the start included, so it never loses modularity) and ends when no
// vertex wants to move, when Patience rounds in a row have not raised the
// modularity by MinGain, or after MaxRounds rounds; its last superstep
// only decides that and sends nothing. Each vertex's value is then its
// community (a representative's index); Membership numbers them.
//
// The result does not depend on the number of workers, although the order
// in which a vertex receives its messages does: with integral weights
// (any unweighted graph and its aggregated levels) every sum is exact in
// any order, and otherwise a vertex sorts its messages before summing.
//
// Louvain needs an undirected graph with finite non-negative weights
// (NewLouvain panics otherwise; LouvainBSP takes any graph). The program
// keeps per-vertex state between supersteps: make it with NewLouvain, one
// per job, and run it with its Config.
type Louvain struct {
	g         *graph.Graph
	opts      LouvainOptions
	gamma, p  float64
	maxRounds int
	patience  int
	minGain   float64
	seed      uint64
	stream    uint64 // which job of a multi-level run: decorrelates the coins

	m2   float64   // twice the total weight
	k    []float64 // strength of each vertex
	loop []float64 // self-loop weight of each vertex, counted once

	comm, prev, best []int32   // current, previous and best community
	tot              []float64 // as a representative: Σ_tot of community v
	size             []int32   // as a representative: members of community v
	ownTot           []float64 // as a member: Σ_tot of its community
	ownSize          []int32
	bestQ            []float64 // the best modularity seen (the same at every vertex)
	anchorQ          []float64 // the modularity of the last round that made progress
	anchorRound      []int32

	rounds atomic.Int64 // rounds run, set when the job ends
	done   atomic.Bool

	exact   bool // integral weights: sums are exact in any order
	mu      sync.Mutex
	scratch atomic.Pointer[[]*louvainScratch] // per worker
}

// Names of the aggregators Louvain declares.
const (
	louvainIn     = "louvain.in"     // Σ_v (weight from v into its community)/2m, fixed point
	louvainSq     = "louvain.sq"     // Σ_c (Σ_tot/2m)², fixed point
	louvainWanted = "louvain.wanted" // vertices that want to move
	louvainMoved  = "louvain.moved"  // vertices that moved
)

// louvainScale is the fixed point of the modularity aggregators: each
// term (at most 1) is rounded to a multiple of 2⁻⁴⁰, so every partial sum
// is an integer below 2⁵³ and exact in any order.
const louvainScale = 1 << 40

type louvainEntry struct {
	c          int32
	w, t, size float64
}

// NewLouvain returns the local-moving program for g (undirected, weights
// finite and non-negative).
func NewLouvain(g *graph.Graph, opts LouvainOptions) *Louvain {
	if g.Directed() {
		panic("vertex.NewLouvain: the graph is directed; Louvain needs an undirected graph (LouvainBSP symmetrises one)")
	}
	o := opts.withDefaults()
	if !(o.Resolution > 0) || math.IsInf(o.Resolution, 1) {
		panic(fmt.Sprintf("vertex.NewLouvain: resolution %g, want a positive number", opts.Resolution))
	}
	if !(o.MoveProbability > 0 && o.MoveProbability <= 1) {
		panic(fmt.Sprintf("vertex.NewLouvain: move probability %g, want a number in (0, 1]", opts.MoveProbability))
	}
	n := g.NumVertices()
	if o.Initial != nil && len(o.Initial) != n {
		panic(fmt.Sprintf("vertex.NewLouvain: %d initial labels for %d vertices", len(o.Initial), n))
	}
	p := &Louvain{g: g, opts: o, gamma: o.Resolution, p: o.MoveProbability, maxRounds: o.MaxRounds, patience: o.Patience, minGain: o.MinGain, seed: o.Seed,
		k: make([]float64, n), loop: make([]float64, n),
		comm: make([]int32, n), prev: make([]int32, n), best: make([]int32, n),
		tot: make([]float64, n), size: make([]int32, n), ownTot: make([]float64, n), ownSize: make([]int32, n),
		bestQ: make([]float64, n), anchorQ: make([]float64, n), anchorRound: make([]int32, n)}
	integral, err := strengths(g, p.k, p.loop)
	if err != nil {
		panic("vertex.NewLouvain: " + err.Error())
	}
	for _, k := range p.k {
		p.m2 += k
	}
	if o.TotalWeight > 0 {
		p.m2 = o.TotalWeight
	}
	if o.Initial != nil {
		copy(p.comm, compact(o.Initial))
	} else {
		for v := range p.comm {
			p.comm[v] = int32(v)
		}
	}
	copy(p.prev, p.comm)
	copy(p.best, p.comm)
	for v := range p.bestQ {
		p.bestQ[v] = math.Inf(-1)
		p.anchorQ[v] = math.Inf(-1)
	}
	p.exact = integral && p.m2 < 1<<52
	return p
}

// strengths fills each vertex's strength and self-loop weight, checks the
// weights and reports whether they are all integers.
func strengths(g *graph.Graph, k, loop []float64) (integral bool, err error) {
	integral = true
	for u := range k {
		lo, _ := g.ArcRange(u)
		for i, v := range g.Neighbors(u) {
			w := g.Weight(lo + i)
			if !(w >= 0) || math.IsInf(w, 1) {
				return false, fmt.Errorf("edge weight %g, want a finite non-negative number", w)
			}
			if w != math.Trunc(w) {
				integral = false
			}
			if int(v) == u {
				loop[u] += w
				k[u] += float64(2 * w)
			} else {
				k[u] += w
			}
		}
	}
	return integral, nil
}

// Config is the job configuration Louvain needs: four-number messages, no
// combiner, its aggregators added to any in cfg, and unless cfg caps the
// job already, a superstep cap that lets it finish.
func (p *Louvain) Config(cfg bsp.Config) bsp.Config {
	cfg.ValueWidth = 1
	cfg.MessageWidth = 4
	cfg.Combiner = nil
	if cfg.MaxSupersteps == 0 {
		cfg.MaxSupersteps = 3*p.maxRounds + 2
	}
	aggs := make(map[string]bsp.AggregatorKind, len(cfg.Aggregators)+4)
	for name, k := range cfg.Aggregators {
		aggs[name] = k
	}
	aggs[louvainIn] = bsp.Sum
	aggs[louvainSq] = bsp.Sum
	aggs[louvainWanted] = bsp.Sum
	aggs[louvainMoved] = bsp.Sum
	cfg.Aggregators = aggs
	if cfg.Name == "" {
		cfg.Name = "louvain"
	}
	return cfg
}

// Compute implements bsp.Program.
func (p *Louvain) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	step := c.Superstep()
	switch step % 3 {
	case 0:
		if step > 0 {
			p.move(c, v, msgs, step/3)
		}
		c.Send(int(p.comm[v]), float64(v), p.k[v], 0, 0)
	case 1:
		if step >= 4 && p.finish(c, v, step/3) {
			return
		}
		p.represent(c, v, msgs)
	case 2:
		// Exactly one message: the total and size of v's community.
		m := msgs.At(0)
		p.ownTot[v], p.ownSize[v] = m[0], int32(m[1])
		g := c.Graph()
		lo, _ := g.ArcRange(v)
		cv, t, s := float64(p.comm[v]), m[0], m[1]
		for i, u := range g.Neighbors(v) {
			w := g.Weight(lo + i)
			if int(u) != v && w > 0 {
				c.Send(int(u), cv, t, s, w)
			}
		}
	}
}

// louvainScratch is a worker's scratch space for summing its vertices'
// messages per community.
type louvainScratch struct {
	slot   []int32 // community → 1 + its group in groups (0: none); exact path only
	groups []louvainEntry
	es     []louvainEntry // sorted path
}

// scratchFor returns worker w's scratch space (one worker's Compute calls
// run on one goroutine at a time; the list grows copy-on-write).
func (p *Louvain) scratchFor(w int) *louvainScratch {
	if s := p.scratch.Load(); s != nil && w < len(*s) && (*s)[w] != nil {
		return (*s)[w]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var cur []*louvainScratch
	if s := p.scratch.Load(); s != nil {
		cur = *s
	}
	if w < len(cur) && cur[w] != nil {
		return cur[w]
	}
	next := make([]*louvainScratch, max(len(cur), w+1))
	copy(next, cur)
	s := &louvainScratch{}
	if p.exact {
		s.slot = make([]int32, len(p.k))
	}
	next[w] = s
	p.scratch.Store(&next)
	return s
}

// represent is superstep 1 for vertex v as its community's representative:
// sum the members' strengths and send the total and size back to each.
// With integral weights the sum is exact in any order; otherwise it is
// taken in member order, so that it is the same on any number of workers.
func (p *Louvain) represent(c *bsp.Context, v int, msgs bsp.Messages) {
	n := msgs.Len()
	t := 0.0
	if p.exact {
		for i := 0; i < n; i++ {
			t += msgs.At(i)[1]
		}
		for i := 0; i < n; i++ {
			c.Send(int(msgs.Float(i)), t, float64(n), 0, 0)
		}
	} else if n > 0 {
		s := p.scratchFor(c.Worker())
		es := s.es[:0]
		for i := 0; i < n; i++ {
			m := msgs.At(i)
			es = append(es, louvainEntry{c: int32(m[0]), w: m[1]})
		}
		slices.SortFunc(es, func(a, b louvainEntry) int { return int(a.c) - int(b.c) })
		for _, e := range es {
			t += e.w
		}
		for _, e := range es {
			c.Send(int(e.c), t, float64(n), 0, 0)
		}
		s.es = es
	}
	p.tot[v], p.size[v] = t, int32(n)
}

// groups sums v's messages per community into s.groups (c, summed weight
// w, the community's Σ_tot t and size), the same on any number of workers:
// with integral weights in message order (exact), otherwise sorted by
// community and weight.
func (p *Louvain) groups(s *louvainScratch, msgs bsp.Messages) []louvainEntry {
	gs := s.groups[:0]
	if p.exact {
		slot := s.slot
		for i := 0; i < msgs.Len(); i++ {
			m := msgs.At(i)
			cc := int32(m[0])
			if j := slot[cc]; j > 0 {
				gs[j-1].w += m[3]
				continue
			}
			gs = append(gs, louvainEntry{c: cc, w: m[3], t: m[1], size: m[2]})
			slot[cc] = int32(len(gs))
		}
		for _, g := range gs {
			slot[g.c] = 0
		}
		s.groups = gs
		return gs
	}
	es := s.es[:0]
	for i := 0; i < msgs.Len(); i++ {
		m := msgs.At(i)
		es = append(es, louvainEntry{c: int32(m[0]), t: m[1], size: m[2], w: m[3]})
	}
	slices.SortFunc(es, func(a, b louvainEntry) int {
		switch {
		case a.c != b.c:
			return int(a.c) - int(b.c)
		case a.w < b.w:
			return -1
		case a.w > b.w:
			return 1
		}
		return 0
	})
	for i := 0; i < len(es); {
		g := louvainEntry{c: es[i].c, t: es[i].t, size: es[i].size}
		for ; i < len(es) && es[i].c == g.c; i++ {
			g.w += es[i].w
		}
		gs = append(gs, g)
	}
	s.es, s.groups = es, gs
	return gs
}

// move is superstep 0 of round r for vertex v: from its neighbours'
// (community, Σ_tot, size, weight) choose the community of greatest gain,
// report the modularity terms of the partition as it was, and perhaps move.
func (p *Louvain) move(c *bsp.Context, v int, msgs bsp.Messages, r int) {
	cu := p.comm[v]
	p.prev[v] = cu
	if p.m2 == 0 {
		return
	}
	kv := p.k[v]
	scale := p.gamma * kv / p.m2
	kin := 0.0 // weight from v into its own community
	best, bestGain, bestSize := int32(-1), math.Inf(-1), 0.0
	for _, g := range p.groups(p.scratchFor(c.Worker()), msgs) {
		if g.c == cu {
			kin = g.w
			continue
		}
		gain := g.w - float64(scale*g.t)
		if gain > bestGain || gain == bestGain && g.c < best { // ties: the smaller id
			best, bestGain, bestSize = g.c, gain, g.size
		}
	}

	// The modularity terms of the partition before this round's moves.
	c.Aggregate(louvainIn, math.Round((kin+float64(2*p.loop[v]))/p.m2*louvainScale))
	if t := p.tot[v]; t > 0 {
		x := t / p.m2
		c.Aggregate(louvainSq, math.Round(float64(x*x)*louvainScale))
	}

	stay := kin - float64(scale*(p.ownTot[v]-kv))
	if best < 0 || !(bestGain-stay > 1e-12*kv) {
		return
	}
	c.Aggregate(louvainWanted, 1)
	if p.ownSize[v] == 1 && bestSize == 1 && best > cu {
		return // two single vertices would swap: only the larger id moves
	}
	if p.p < 1 && coin(p.seed, p.stream, uint64(r), uint64(v)) >= p.p {
		return // not this round
	}
	c.Aggregate(louvainMoved, 1)
	p.comm[v] = best
}

// finish is superstep 1 of round r ≥ 1 before the representatives work:
// every vertex sees the modularity of the partition of round r-1 and
// whether anyone wanted to move, keeps that partition if it is the best so
// far, and halts (in the best partition) when the job is over. All
// vertices see the same numbers and decide alike.
func (p *Louvain) finish(c *bsp.Context, v int, r int) bool {
	q := 0.0
	if p.m2 > 0 {
		q = (c.Aggregated(louvainIn) - float64(p.gamma*c.Aggregated(louvainSq))) / louvainScale
	}
	if q > p.bestQ[v] {
		p.bestQ[v], p.best[v] = q, p.prev[v]
	}
	if q > p.anchorQ[v]+p.minGain {
		p.anchorQ[v], p.anchorRound[v] = q, int32(r-1)
	}
	if c.Aggregated(louvainWanted) > 0 && r-1-int(p.anchorRound[v]) < p.patience && r < p.maxRounds {
		return false
	}
	p.comm[v] = p.best[v]
	c.SetValue(v, float64(p.comm[v]))
	c.VoteToHalt(v)
	if v == 0 {
		p.rounds.Store(int64(r))
		p.done.Store(true)
	}
	return true
}

// coin is a deterministic uniform number in [0, 1) for a vertex in a round.
func coin(seed, stream, round, v uint64) float64 {
	x := seed ^ (stream+1)*0x9e3779b97f4a7c15 ^ (round+1)*0xc2b2ae3d27d4eb4f ^ (v+1)*0x165667b19e3779f9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// Options are the options the program runs with, defaults filled in
// (Initial and TotalWeight as given).
func (p *Louvain) Options() LouvainOptions { return p.opts }

// Membership is the partition the job found, numbered 0..k-1 in order of
// each community's lowest vertex index (before the job ends: the best
// partition seen so far).
func (p *Louvain) Membership() []int32 {
	if p.done.Load() {
		return compact(p.comm)
	}
	return compact(p.best)
}

// Rounds is the number of rounds of local moving the job ran (0 before
// it ends).
func (p *Louvain) Rounds() int { return int(p.rounds.Load()) }

// Modularity is the modularity of Membership on the job's graph.
func (p *Louvain) Modularity() float64 {
	return community.Modularity(p.g, p.Membership(), p.gamma)
}

// compact renumbers labels 0..k-1 in order of first appearance.
func compact(labels []int32) []int32 {
	out := make([]int32, len(labels))
	if len(labels) == 0 {
		return out
	}
	// Labels in a range not much wider than their number (vertex indices,
	// as the program's communities are): a slice, not a map, numbers them.
	lo, hi := labels[0], labels[0]
	for _, c := range labels {
		lo, hi = min(lo, c), max(hi, c)
	}
	if span := int64(hi) - int64(lo) + 1; span <= 4*int64(len(labels)) {
		ids := make([]int32, span)
		next := int32(0)
		for v, c := range labels {
			i := &ids[c-lo]
			if *i == 0 {
				next++
				*i = next
			}
			out[v] = *i - 1
		}
		return out
	}
	ids := make(map[int32]int32, 64)
	for v, c := range labels {
		id, ok := ids[c]
		if !ok {
			id = int32(len(ids))
			ids[c] = id
		}
		out[v] = id
	}
	return out
}

// LouvainBSP runs the whole Louvain method with its local moving as BSP
// jobs (Louvain programs) on the engine, as the thesis runs it on Giraph:
// level by level, a job moves the vertices of the level's graph, then the
// communities are merged into the vertices of the next level's weighted
// graph (in Go, the thesis's MapReduce stage: edges between communities
// summed, the weight inside one a self-loop), until a level changes
// nothing or gains less than opts.Tolerance. Unless opts.NoRefine, the
// partition is then refined on the way back down: on each finer graph a
// job starts from the coarser partition and moves single vertices again
// (never lowering the modularity). A small graph is run opts.Trials times
// with different coins and the best partition kept (see LouvainOptions).
//
// A directed graph is treated as undirected (each arc an edge, as
// community.Modularity counts it). cfg is used for every job (its
// Partition only for jobs on g's own vertices); each job is named
// cfg.Name (default "louvain") with "/level-L" or "/refine-L" (and
// "/trial-T" first when there are several trials). LouvainBSP returns the
// membership of g's vertices (0..k-1 in order of first appearance) and
// every job's result, profile included, in the order they ran. The result
// is the same for a seed on every run, machine and cluster. On
// cancellation it returns the best membership found so far and ctx's
// error.
func LouvainBSP(ctx context.Context, g *graph.Graph, cfg bsp.Config, opts LouvainOptions) ([]int32, []*bsp.Result, error) {
	if g == nil {
		return nil, nil, fmt.Errorf("vertex.LouvainBSP: no graph")
	}
	o := opts.withDefaults()
	o.Initial = nil
	if !(o.Resolution > 0) || math.IsInf(o.Resolution, 1) {
		return nil, nil, fmt.Errorf("vertex.LouvainBSP: resolution %g, want a positive number", opts.Resolution)
	}
	if !(o.MoveProbability > 0 && o.MoveProbability <= 1) {
		return nil, nil, fmt.Errorf("vertex.LouvainBSP: move probability %g, want a number in (0, 1]", opts.MoveProbability)
	}
	n := g.NumVertices()
	if _, err := strengths(g, make([]float64, n), make([]float64, n)); err != nil {
		return nil, nil, fmt.Errorf("vertex.LouvainBSP: %w", err)
	}
	r := &louvainRun{ctx: ctx, cfg: cfg, o: o, base: g, name: cfg.Name}
	if g.Directed() {
		var err error
		if r.base, err = symmetrize(ctx, g); err != nil {
			return nil, nil, fmt.Errorf("vertex.LouvainBSP: %w", err)
		}
	}
	if r.name == "" {
		r.name = "louvain"
	}
	trials := o.Trials
	if trials <= 0 {
		trials = min(louvainMaxTrials, max(1, louvainSmallWork/max(1, r.base.NumArcs())))
	}
	var best []int32
	bestQ := math.Inf(-1)
	for t := 0; t < trials; t++ {
		r.prefix = ""
		if trials > 1 {
			r.prefix = fmt.Sprintf("trial-%d/", t)
		}
		m, err := r.run()
		if err != nil {
			// Cancelled: the best finished trial, else this one's
			// partition so far (no time for its modularity).
			if best == nil {
				best = m
			}
			return best, r.jobs, fmt.Errorf("vertex.LouvainBSP: %w", err)
		}
		if q := community.Modularity(r.base, m, o.Resolution); q > bestQ {
			best, bestQ = m, q
		}
	}
	return best, r.jobs, nil
}

// LouvainBSP's automatic number of trials: as many as cost about one run
// on a graph of louvainSmallWork arcs, at most louvainMaxTrials.
const (
	louvainSmallWork = 1 << 16
	louvainMaxTrials = 8
)

// louvainRun is one LouvainBSP call: the jobs it ran, and how to run more.
type louvainRun struct {
	ctx          context.Context
	cfg          bsp.Config
	o            LouvainOptions
	base         *graph.Graph // g, undirected
	name, prefix string
	jobs         []*bsp.Result
}

// job runs the local moving on lg from initial (nil: single vertices).
func (r *louvainRun) job(lg *graph.Graph, initial []int32, label string) (*Louvain, error) {
	jo := r.o
	jo.Initial = initial
	prog := NewLouvain(lg, jo)
	prog.stream = uint64(len(r.jobs)) // fresh coins for every job
	c := r.cfg
	c.Name = r.name + "/" + r.prefix + label
	if lg != r.base {
		c.Partition = nil
	}
	res, err := bsp.Run(r.ctx, lg, prog, prog.Config(c))
	if res != nil {
		r.jobs = append(r.jobs, res)
	}
	return prog, err
}

// run is one multi-level run: down with local moving and aggregation,
// then up with refinement. It returns the membership of the base graph's
// vertices (on an error, the best known so far, or nil).
func (r *louvainRun) run() ([]int32, error) {
	o := r.o
	n := r.base.NumVertices()
	singles := make([]int32, n)
	for v := range singles {
		singles[v] = int32(v)
	}
	prevQ := community.Modularity(r.base, singles, o.Resolution)
	graphs := []*graph.Graph{r.base}
	var maps [][]int32 // maps[l]: vertices of graphs[l] → vertices of graphs[l+1]
	project := func() []int32 {
		out := append([]int32(nil), singles...)
		for _, m := range maps {
			for v := range out {
				out[v] = m[out[v]]
			}
		}
		return out
	}
	for l := 0; o.MaxLevels <= 0 || l < o.MaxLevels; l++ {
		cur := graphs[l]
		prog, err := r.job(cur, nil, fmt.Sprintf("level-%d", l))
		if err != nil {
			if l == 0 {
				return prog.Membership(), err
			}
			return project(), err
		}
		comm := prog.Membership()
		k := 0
		for _, c := range comm {
			k = max(k, int(c)+1)
		}
		if k == cur.NumVertices() {
			break // nothing moved
		}
		q := community.Modularity(cur, comm, o.Resolution)
		if q <= prevQ {
			break
		}
		next, err := aggregateLevel(r.ctx, cur, comm, k)
		if err != nil {
			return project(), err
		}
		maps = append(maps, comm)
		graphs = append(graphs, next)
		if k == 1 || q-prevQ < o.Tolerance {
			break
		}
		prevQ = q
	}
	if len(maps) == 0 {
		return singles, nil
	}
	// Up: refine on each finer graph from the coarser partition (the
	// coarsest partition is its job's own result, already refined).
	part := maps[len(maps)-1]
	for l := len(maps) - 2; l >= 0; l-- {
		init := make([]int32, graphs[l].NumVertices())
		for u := range init {
			init[u] = part[maps[l][u]]
		}
		part = init
		if o.NoRefine {
			continue
		}
		prog, err := r.job(graphs[l], init, fmt.Sprintf("refine-%d", l))
		if err != nil {
			if l == 0 {
				return compact(init), err
			}
			// Project the partition of graphs[l] down to the base graph.
			out := append([]int32(nil), singles...)
			for i := 0; i < l; i++ {
				for v := range out {
					out[v] = maps[i][out[v]]
				}
			}
			for v := range out {
				out[v] = init[out[v]]
			}
			return compact(out), err
		}
		part = prog.Membership()
	}
	return compact(part), nil
}

// symmetrize returns g as an undirected graph on the same vertices (ids and
// order kept), each arc an edge; or ctx's error if that is cancelled first.
func symmetrize(ctx context.Context, g *graph.Graph) (*graph.Graph, error) {
	b := graph.NewBuilder(false)
	n := g.NumVertices()
	for v := 0; v < n; v++ {
		b.AddVertex(g.ID(v))
	}
	for u := 0; u < n; u++ {
		if err := cancelled(ctx, u); err != nil {
			return nil, err
		}
		lo, _ := g.ArcRange(u)
		for i, v := range g.Neighbors(u) {
			b.AddWeightedEdge(g.ID(u), g.ID(int(v)), g.Weight(lo+i))
		}
	}
	return b.Build(), nil
}

// aggregateLevel merges each community of g (comm, numbered 0..k-1) into
// one vertex of a weighted undirected graph: the weight between two
// communities is the sum of the weights between their members, the weight
// inside one (self-loops included) its self-loop. Each edge is added once,
// in vertex order: the same graph on every machine. It returns ctx's error
// if that is cancelled first.
func aggregateLevel(ctx context.Context, g *graph.Graph, comm []int32, k int) (*graph.Graph, error) {
	start, members := community.Members(comm, k)
	b := graph.NewBuilder(false)
	for c := 0; c < k; c++ {
		b.AddVertex(int64(c))
	}
	nw := make([]float64, k)
	seen := make([]bool, k)
	var touched []int32
	for c := 0; c < k; c++ {
		if err := cancelled(ctx, c); err != nil {
			return nil, err
		}
		inside := 0.0
		for _, u := range members[start[c]:start[c+1]] {
			lo, _ := g.ArcRange(int(u))
			for i, v := range g.Neighbors(int(u)) {
				w := g.Weight(lo + i)
				d := comm[v]
				switch {
				case d == int32(c):
					if v >= u { // each edge inside once; a self-loop is stored once
						inside += w
					}
				case d > int32(c) && w > 0:
					if !seen[d] {
						seen[d] = true
						touched = append(touched, d)
					}
					nw[d] += w
				}
			}
		}
		if inside > 0 {
			b.AddWeightedEdge(int64(c), int64(c), inside)
		}
		for _, d := range touched {
			b.AddWeightedEdge(int64(c), int64(d), nw[d])
			nw[d], seen[d] = 0, false
		}
		touched = touched[:0]
	}
	return b.Build(), nil
}

// checkEvery is how many vertices a sequential loop between the jobs
// handles between two looks at the context.
const checkEvery = 1 << 12

// cancelled returns ctx's error at every checkEvery-th value of the loop
// counter i, and nil otherwise (or while ctx is live).
func cancelled(ctx context.Context, i int) error {
	if i%checkEvery != 0 {
		return nil
	}
	return ctx.Err()
}
