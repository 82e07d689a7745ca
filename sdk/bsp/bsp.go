// Package bsp is Superstep's Pregel engine: a vertex program runs in
// supersteps separated by barriers on workers placed on a simulated cluster
// (racks → hosts → workers), and every superstep is profiled without
// touching the program.
//
// In each superstep every active vertex runs Compute with the messages sent
// to it in the previous superstep; it may read and set its value, send
// messages to its neighbours or to any vertex, and vote to halt. A message
// reactivates a halted vertex. The job ends when every vertex has halted
// and no message is in flight, at the superstep cap, or when its context is
// cancelled (within about a millisecond of compiled work, even in the
// middle of a superstep). Values and messages are fixed-width vectors of float64 (width 1
// by default), which keeps the engine fast and callable from notebook cells.
package bsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"superstep/internal/parallel"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/sdk/vrecord"
	"superstep/topology/cluster"
)

// Program is a vertex program.
type Program interface {
	// Compute runs for an active vertex v with the messages sent to it in
	// the previous superstep.
	Compute(c *Context, v int, msgs Messages)
}

// ProgramFunc adapts a function to a Program.
type ProgramFunc func(c *Context, v int, msgs Messages)

// Compute implements Program.
func (f ProgramFunc) Compute(c *Context, v int, msgs Messages) { f(c, v, msgs) }

// Combiner merges two messages for the same vertex into one (Pregel's
// combiner): Combine(into, msg) folds msg into into. It must be
// commutative and associative.
type Combiner interface {
	Combine(into, msg []float64)
}

// SumCombiner adds messages element by element.
type SumCombiner struct{}

// Combine implements Combiner.
func (SumCombiner) Combine(into, msg []float64) {
	for i := range into {
		into[i] += msg[i]
	}
}

// MinCombiner keeps the message whose first element is smallest.
type MinCombiner struct{}

// Combine implements Combiner.
func (MinCombiner) Combine(into, msg []float64) {
	if msg[0] < into[0] {
		copy(into, msg)
	}
}

// AggregatorKind is how an aggregator folds the values workers give it.
type AggregatorKind int

// The aggregator kinds.
const (
	Sum AggregatorKind = iota
	Min
	Max
)

func (k AggregatorKind) identity() float64 {
	switch k {
	case Min:
		return math.Inf(1)
	case Max:
		return math.Inf(-1)
	}
	return 0
}

func (k AggregatorKind) fold(a, b float64) float64 {
	switch k {
	case Min:
		return math.Min(a, b)
	case Max:
		return math.Max(a, b)
	}
	return a + b
}

// Recorder receives every superstep's measurements as the job runs (the
// capture stream, a live view). RecordStep must not keep the step beyond
// the call unless it copies it: the engine gives it a fresh step it does
// not reuse.
type Recorder interface {
	RecordStep(p *profile.Profile, s profile.Step)
}

// Config is how to run a job. The zero value runs on one host with
// GOMAXPROCS workers, hash partitioning, width-1 values and messages, at
// most 1000 supersteps, profiled.
type Config struct {
	// Name names the job in its profile.
	Name string
	// Cluster places the workers; nil means Single(GOMAXPROCS).
	Cluster *cluster.Cluster
	// Partition assigns each vertex to a worker; nil means hash
	// partitioning by input id.
	Partition []int32
	// ValueWidth and MessageWidth are the number of float64 in a vertex
	// value and in a message (0 means 1).
	ValueWidth, MessageWidth int
	// InitialValue fills every vertex value before the first superstep.
	InitialValue float64
	// MaxSupersteps caps the job (0 means 1000).
	MaxSupersteps int
	// Combiner, if set, merges messages to the same vertex before they
	// leave a worker.
	Combiner Combiner
	// Aggregators declares named aggregators; a value aggregated in one
	// superstep is visible to every vertex in the next.
	Aggregators map[string]AggregatorKind
	// Network models the links between workers; its time is added to the
	// profile (the zero Network costs nothing).
	Network cluster.Network
	// SlowHosts slows hosts by a factor (fault injection for teaching):
	// a worker on host h takes SlowHosts[h] times as long to compute.
	SlowHosts map[int]float64
	// NoProfile turns the profile off (for measuring its overhead).
	NoProfile bool
	// Recorders receive each superstep's measurements as it ends.
	Recorders []Recorder
	// Parallelism is the number of OS threads computing workers at once
	// (0 means GOMAXPROCS).
	Parallelism int
	// Transport, if set, runs the job as one of Transport.Size()
	// processes (MPI ranks), each computing one worker: this process
	// computes worker Transport.Rank()'s vertices and needs only their
	// arcs in the graph (see graph.Graph.Keep). Cluster must have Size()
	// workers and Partition, or the default hash partition, must be the
	// same in every process. Network and SlowHosts are not modelled: the
	// profile holds measured times (compute, the barrier's wait, the
	// exchange) and the bytes that crossed the transport, and is complete
	// on process 0 only, which also holds every vertex's value at the end.
	Transport Transport
	// Record, if set, keeps the vertex-level record of the run (see
	// package vrecord): per superstep every vertex's value, what it did and
	// its messages, for graphs a class looks at. It costs memory (see
	// vrecord.BytesPerVertex) and some time; it is refused with a
	// Transport.
	Record *vrecord.Options
}

// Result is a finished job.
type Result struct {
	// Values holds every vertex's value: Values[v*ValueWidth:(v+1)*ValueWidth].
	Values     []float64
	ValueWidth int
	Supersteps int
	// Halted is true when the job ended because every vertex halted and no
	// message was in flight (false: superstep cap or cancellation).
	Halted bool
	// Aggregated holds the aggregators' final values.
	Aggregated map[string]float64
	Profile    *profile.Profile
	// Record is the vertex-level record, when Config.Record asked for it
	// (up to the superstep that would have outgrown its budget).
	Record *vrecord.Record
	// Elapsed is the wall time of the job.
	Elapsed time.Duration
}

// Value returns the value of vertex v (its first element).
func (r *Result) Value(v int) float64 { return r.Values[v*r.ValueWidth] }

// Vector returns the whole value of vertex v.
func (r *Result) Vector(v int) []float64 { return r.Values[v*r.ValueWidth : (v+1)*r.ValueWidth] }

// Messages are the messages a vertex received, each MessageWidth numbers.
type Messages struct {
	data  []float64
	width int
}

// Len is the number of messages.
func (m Messages) Len() int {
	if m.width == 0 {
		return 0
	}
	return len(m.data) / m.width
}

// At returns message i (do not keep it past Compute).
func (m Messages) At(i int) []float64 { return m.data[i*m.width : (i+1)*m.width] }

// Float returns the first element of message i.
func (m Messages) Float(i int) float64 { return m.data[i*m.width] }

// Sum adds the first elements of all messages.
func (m Messages) Sum() float64 {
	s := 0.0
	for i := 0; i < len(m.data); i += m.width {
		s += m.data[i]
	}
	return s
}

// Min returns the smallest first element (+Inf for no messages).
func (m Messages) Min() float64 {
	s := math.Inf(1)
	for i := 0; i < len(m.data); i += m.width {
		if m.data[i] < s {
			s = m.data[i]
		}
	}
	return s
}

// hashPartition is the default placement: a fixed integer mix of the
// vertex's input id (SplitMix64's finaliser), modulo the workers, so the
// same graph lands the same way on every machine.
func hashPartition(g *graph.Graph, k int) []int32 {
	p := make([]int32, g.NumVertices())
	for v := range p {
		x := uint64(g.ID(v))
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
		p[v] = int32(x % uint64(k))
	}
	return p
}

// ErrNoWorkers is returned by Run for a Config.Cluster without workers.
var ErrNoWorkers = errors.New("bsp: the cluster has no workers")

// Run runs prog on g as cfg says and returns the vertex values and the
// profile.
//
// Cancelling ctx stops the job promptly: every worker looks at ctx every
// few hundred vertices, so a long superstep is abandoned part way. Run
// then returns the result so far (the supersteps completed, their
// profile, and the vertex values, which a partly computed superstep may
// have changed) with an error wrapping ctx.Err(); no goroutine of the job
// is left running.
func Run(ctx context.Context, g *graph.Graph, prog Program, cfg Config) (*Result, error) {
	e, err := newEngine(ctx, g, prog, cfg)
	if err != nil {
		return nil, err
	}
	return e.run(ctx)
}

type engine struct {
	ctx      context.Context // the job's, set by run
	g        *graph.Graph
	prog     Program
	cfg      Config
	cl       *cluster.Cluster
	nw       int
	vw, mw   int
	part     []int32
	local    [][]int32 // worker → its vertices
	localIdx []int32   // vertex → its index in its worker's list
	// per arc of the graph (CSR order): the destination's worker and its
	// index there, so that sending along edges reads memory in order
	arcWorker []int32
	arcLocal  []int32
	values    []float64
	halted    []bool
	workers   []*Context
	aggPrev   map[string]float64
	prof      *profile.Profile
	slow      []float64 // per worker
	msgSize   int64     // encoded bytes of one message
	// With a Transport: this process's worker (workers[rank] is the only
	// Context; the others are nil), and the buffers of the exchange.
	tr   Transport
	rank int
	dist *distributed
	rec  *recording // nil unless Config.Record
	// step is the next superstep to run; done is set once every vertex
	// has halted with no message in flight.
	step int
	done bool
}

// newEngine sets a job up: the placement of the vertices, the per-arc
// destinations, the workers' contexts. It returns ctx's error (wrapped) if
// that is cancelled first.
func newEngine(ctx context.Context, g *graph.Graph, prog Program, cfg Config) (*engine, error) {
	if g == nil || prog == nil {
		return nil, errors.New("bsp: Run needs a graph and a program")
	}
	cl := cfg.Cluster
	if cl == nil {
		var err error
		if cl, err = cluster.Single(runtime.GOMAXPROCS(0)); err != nil {
			return nil, err
		}
	}
	if cl.NumWorkers() == 0 {
		return nil, ErrNoWorkers
	}
	if err := cl.Validate(); err != nil {
		return nil, fmt.Errorf("bsp: %w", err)
	}
	nw := cl.NumWorkers()
	n := g.NumVertices()
	rank := -1
	if cfg.Transport != nil {
		if size := cfg.Transport.Size(); size != nw {
			return nil, fmt.Errorf("bsp: the transport joins %d processes, the cluster has %d workers", size, nw)
		}
		rank = cfg.Transport.Rank()
		if rank < 0 || rank >= nw {
			return nil, fmt.Errorf("bsp: the transport's rank %d is outside 0..%d", rank, nw-1)
		}
	}
	part := cfg.Partition
	if part == nil {
		part = hashPartition(g, nw)
	}
	if len(part) != n {
		return nil, fmt.Errorf("bsp: the partition has %d entries for %d vertices", len(part), n)
	}
	e := &engine{g: g, prog: prog, cfg: cfg, cl: cl, nw: nw, part: part, vw: max(cfg.ValueWidth, 1), mw: max(cfg.MessageWidth, 1), tr: cfg.Transport, rank: rank}
	e.msgSize = 4 + 8*int64(e.mw) // destination id + payload, as on a wire
	counts := make([]int, nw)
	for v, w := range part {
		if w < 0 || int(w) >= nw {
			return nil, fmt.Errorf("bsp: vertex %d is assigned to worker %d of %d", v, w, nw)
		}
		counts[w]++
	}
	// Each worker's vertices, and each vertex's index in its worker's
	// list.
	e.local = make([][]int32, nw)
	for w := range e.local {
		e.local[w] = make([]int32, 0, counts[w])
	}
	e.localIdx = make([]int32, n)
	for v, w := range part {
		e.localIdx[v] = int32(len(e.local[w]))
		e.local[w] = append(e.local[w], int32(v))
	}
	e.values = make([]float64, n*e.vw)
	if cfg.InitialValue != 0 {
		for i := range e.values {
			e.values[i] = cfg.InitialValue
		}
	}
	e.halted = make([]bool, n)
	e.slow = make([]float64, nw)
	for w := range e.slow {
		e.slow[w] = 1
		if f, ok := cfg.SlowHosts[cl.HostOf(w)]; ok && f > 1 {
			e.slow[w] = f
		}
	}
	name := cfg.Name
	if name == "" {
		name = "job"
	}
	e.prof = &profile.Profile{Job: name, Program: fmt.Sprintf("%T", prog), Cluster: cl, Vertices: make([]int64, nw)}
	for w := range e.local {
		e.prof.Vertices[w] = int64(len(e.local[w]))
	}
	e.aggPrev = map[string]float64{}
	for name, k := range cfg.Aggregators {
		e.aggPrev[name] = k.identity()
	}
	if cfg.Record != nil {
		var err error
		if e.rec, err = newRecording(e); err != nil {
			return nil, err
		}
	}
	e.workers = make([]*Context, nw)
	for w := range e.workers {
		if e.tr == nil || w == rank {
			e.workers[w] = newContext(e, w)
		}
	}
	if e.tr == nil {
		for _, c := range e.workers {
			for k, s := range e.workers {
				c.senders[k] = &s.out[c.worker]
			}
		}
	} else {
		e.dist = newDistributed(e)
	}
	// Per arc: the destination's worker and index there, filled by vertex
	// ranges in parallel (a million arcs cost milliseconds).
	e.arcWorker = make([]int32, g.NumArcs())
	e.arcLocal = make([]int32, g.NumArcs())
	// pairs[pw][src*nw+dst] counts pool worker pw's arcs from src's
	// vertices to dst's: summed, what a superstep sending along every edge
	// puts in each outbox.
	const chunk = 1 << 14
	pairs := make([][]int, parallel.Workers(0, (n+chunk-1)/chunk))
	err := parallel.Chunks(ctx, 0, n, chunk, func(pw, from, to int) {
		if pairs[pw] == nil {
			pairs[pw] = make([]int, nw*nw)
		}
		cnt := pairs[pw]
		for v := from; v < to; v++ {
			lo, _ := g.ArcRange(v)
			src := int(part[v]) * nw
			for i, u := range g.Neighbors(v) {
				e.arcWorker[lo+i] = part[u]
				e.arcLocal[lo+i] = e.localIdx[u]
				cnt[src+int(part[u])]++
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("bsp: job %q cancelled before its first superstep: %w", name, err)
	}
	// Size the outboxes for a superstep along every edge, so that the
	// first such superstep does not spend its time growing them (up to
	// 8 million arcs: 128 MB for one-number messages, 36 bytes an arc for
	// Louvain's four; bigger graphs grow as they go). Growing a wide
	// outbox is one copy of up to hundreds of MB that a cancel cannot
	// stop: LouvainBSP on 400,000 vertices returned 450 ms after a cancel.
	if cfg.Combiner == nil && g.NumArcs() <= 8<<20 {
		for src, c := range e.workers {
			if c == nil {
				continue
			}
			for dst := range c.out {
				total := 0
				for _, cnt := range pairs {
					if cnt != nil {
						total += cnt[src*nw+dst]
					}
				}
				if e.mw == 1 {
					c.out[dst].one = make([]msg1, 0, total)
				} else {
					c.out[dst].dst, c.out[dst].data = make([]int32, 0, total), make([]float64, 0, total*e.mw)
				}
			}
		}
	}
	return e, nil
}

func (e *engine) run(ctx context.Context) (*Result, error) {
	start := time.Now()
	maxSteps := e.maxSteps()
	var runErr error
	for e.step < maxSteps {
		done, err := e.superstep(ctx)
		if err != nil {
			runErr = err
			break
		}
		if done {
			break
		}
	}
	res, err := e.finish(runErr)
	res.Elapsed = time.Since(start)
	return res, err
}

// maxSteps is the job's superstep cap.
func (e *engine) maxSteps() int {
	if e.cfg.MaxSupersteps <= 0 {
		return 1000
	}
	return e.cfg.MaxSupersteps
}

// superstep runs superstep e.step and advances e.step when it counts (it
// ran on every worker, even if it then failed). done reports a job whose
// vertices have all halted with no message in flight (e.halted is set).
func (e *engine) superstep(ctx context.Context) (done bool, err error) {
	e.ctx = ctx
	step := e.step
	if err := ctx.Err(); err != nil {
		return false, e.cancelled(step, err)
	}
	par := e.cfg.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	// Compute: each worker's active vertices, on the shared worker
	// pool (par goroutines take the workers in turn, so that each
	// worker's compute time is measured while it has a core); the
	// pool's return is the barrier. A superstep cancelled before
	// every worker has computed and delivered is abandoned: it does
	// not count.
	if e.tr != nil {
		halted, counts, err := e.dist.superstep(ctx, step)
		if err != nil {
			if counts {
				e.step++ // it ran everywhere, and failed on a worker
			}
			return false, err
		}
		e.step++
		e.done = halted
		return halted, nil
	}
	stopped := parallel.For(ctx, par, e.nw, func(_, w int) { e.workers[w].compute(step) })
	if err := e.firstPanic(); err != nil {
		e.step++
		return false, err
	}
	if stopped != nil || e.interrupted() {
		return false, e.cancelled(step, ctx.Err())
	}
	// Barrier: deliver, fold aggregators, measure.
	inFlight, err := e.deliver(ctx, par)
	if err != nil {
		return false, e.cancelled(step, err)
	}
	e.foldAggregators()
	if !e.cfg.NoProfile {
		e.recordStep(step)
	}
	if e.rec != nil {
		if err := e.rec.capture(e, step); err != nil {
			e.step++
			return false, err
		}
	}
	e.step++
	e.done = inFlight == 0 && e.allHalted()
	return e.done, nil
}

// finish ends the job: it gathers the values of a job on a transport and
// returns the result so far with runErr (joined with a gathering error).
func (e *engine) finish(runErr error) (*Result, error) {
	if e.tr != nil && !errors.Is(runErr, errTransport) {
		if err := e.dist.gatherValues(); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	res := &Result{ValueWidth: e.vw, Supersteps: e.step, Halted: e.done, Values: e.values, Aggregated: e.aggPrev, Profile: e.prof}
	if e.rec != nil {
		res.Record = e.rec.rec
	}
	return res, runErr
}

// cancelled is the error of a job whose context ended (err) in superstep
// step.
func (e *engine) cancelled(step int, err error) error {
	return fmt.Errorf("bsp: job %q cancelled in superstep %d: %w", e.prof.Job, step, err)
}

// interrupted reports whether a worker stopped its compute part way.
func (e *engine) interrupted() bool {
	for _, c := range e.workers {
		if c != nil && c.interrupted {
			return true
		}
	}
	return false
}

func (e *engine) firstPanic() error {
	for _, c := range e.workers {
		if c != nil && c.panicked != nil {
			return c.panicked
		}
	}
	return nil
}

func (e *engine) allHalted() bool {
	for _, h := range e.halted {
		if !h {
			return false
		}
	}
	return true
}

func (e *engine) foldAggregators() {
	if len(e.cfg.Aggregators) == 0 {
		return
	}
	for name, k := range e.cfg.Aggregators {
		acc := k.identity()
		for _, c := range e.workers {
			if x, ok := c.agg[name]; ok {
				acc = k.fold(acc, x)
			}
		}
		e.aggPrev[name] = acc
	}
	for _, c := range e.workers {
		clear(c.agg)
	}
}

// recordStep turns the workers' counters into the superstep's profile.
func (e *engine) recordStep(step int) {
	nw := e.nw
	s := profile.NewStep(step, nw)
	var slowest time.Duration
	for w, c := range e.workers {
		var comm time.Duration
		for d := 0; d < nw; d++ {
			m := c.sent[d]
			s.Messages[w*nw+d] = m
			s.Bytes[w*nw+d] = m * e.msgSize
			comm += e.cfg.Network.Time(e.cl.Distance(w, d), m*e.msgSize)
		}
		s.Workers[w] = profile.WorkerStats{Compute: c.computeTime, Comm: comm, Active: c.active, Processed: c.processed}
		if t := c.computeTime + comm; t > slowest {
			slowest = t
		}
	}
	for w := range s.Workers {
		s.Workers[w].Wait = slowest - s.Workers[w].Compute - s.Workers[w].Comm
	}
	e.prof.Steps = append(e.prof.Steps, s)
	for _, r := range e.cfg.Recorders {
		r.RecordStep(e.prof, s)
	}
}
