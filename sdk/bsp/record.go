package bsp

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"superstep/internal/parallel"

	"superstep/sdk/vrecord"
)

// recording is the engine's vertex-level bookkeeping when Config.Record
// asks for it. Workers write disjoint parts of it while they compute (a
// vertex and its arcs belong to one worker); capture reads it after the
// barrier. The hot path stays O(1) a call: a broadcast along every arc
// counts once for its vertex (bcast), a single Send counts on its arc.
type recording struct {
	opt      vrecord.Options
	rec      *vrecord.Record
	sent     []int32 // per vertex, this superstep
	bcast    []int32 // per vertex: broadcasts along all its arcs
	arcs     []int32 // per arc: single sends along it
	set      []bool  // per vertex: SetValue was called
	computed []bool
	before   []float64 // the values when the superstep began
	bytes    int64
	busy     []int // per chunk of vertices: arcs that carried messages
}

// recordChunk is the number of vertices capture handles as one item of
// its parallel loop.
const recordChunk = 4096

func newRecording(e *engine) (*recording, error) {
	opt := *e.cfg.Record
	if e.tr != nil {
		return nil, fmt.Errorf("bsp: a vertex record needs every vertex in one process; this job runs on %d processes (record it in process on a graph of the size a class looks at)", e.nw)
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = vrecord.DefaultMaxBytes
	}
	g := e.g
	n, m := g.NumVertices(), g.NumArcs()
	offsets := make([]int, n+1)
	targets := make([]int32, 0, m)
	for v := range n {
		targets = append(targets, g.Neighbors(v)...)
		offsets[v+1] = len(targets)
	}
	r := &recording{
		opt:      opt,
		rec:      &vrecord.Record{Vertices: n, NumArcs: m, Offsets: offsets, Targets: targets, MaxBytes: opt.MaxBytes},
		sent:     make([]int32, n),
		bcast:    make([]int32, n),
		arcs:     make([]int32, m),
		set:      make([]bool, n),
		computed: make([]bool, n),
		before:   slices.Clone(e.values),
		busy:     make([]int, (n+recordChunk-1)/recordChunk),
	}
	return r, nil
}

// recordBroadcast counts a message from v along each of its arcs.
func (c *Context) recordBroadcast(v int) {
	r := c.rec
	r.bcast[v]++
	lo, hi := c.g.ArcRange(v)
	r.sent[v] += int32(hi - lo)
}

// recordSend counts a message from the computing vertex to dst: on its
// first arc to dst, if any.
func (c *Context) recordSend(dst int) {
	r := c.rec
	v := c.cur
	r.sent[v]++
	nb := c.g.Neighbors(v)
	if i, ok := slices.BinarySearch(nb, int32(dst)); ok {
		lo, _ := c.g.ArcRange(v)
		r.arcs[lo+i]++
	}
}

// capture appends superstep step to the record: the values after it, what
// each vertex did, the messages delivered to each (the workers' inboxes
// after the barrier) and along each arc. It fails, appending nothing, when
// the record would outgrow its budget. Chunks of vertices are captured in
// parallel; each writes only its own vertices' entries and arcs.
func (r *recording) capture(e *engine, step int) error {
	n, vw := e.g.NumVertices(), e.vw
	offsets := r.rec.Offsets
	// Busy arcs (single messages): only a sender's arcs can be.
	chunks := len(r.busy)
	bcasts := 0
	for k := range chunks {
		busy := 0
		for v := k * recordChunk; v < min(n, (k+1)*recordChunk); v++ {
			if r.sent[v] == 0 {
				continue
			}
			if r.bcast[v] > 0 {
				bcasts++
			}
			for _, x := range r.arcs[offsets[v]:offsets[v+1]] {
				if x != 0 {
					busy++
				}
			}
		}
		r.busy[k] = busy
	}
	total := 0
	for _, b := range r.busy {
		total += b
	}
	need := int64(n)*vrecord.BytesPerVertex + int64(total+bcasts)*vrecord.BytesPerArc
	if r.bytes+need > r.opt.MaxBytes {
		return fmt.Errorf("bsp: job %q: superstep %d would take its vertex record to %s, past its budget of %s (%d vertices, %d supersteps recorded; raise Record.MaxBytes or lower MaxSupersteps): %w",
			e.prof.Job, step, mib(r.bytes+need), mib(r.opt.MaxBytes), n, len(r.rec.Steps), vrecord.ErrBudget)
	}
	s := vrecord.Step{
		Superstep: step,
		Value:     make([]float64, n),
		State:     make([]vrecord.State, n),
		Sent:      slices.Clone(r.sent),
		Received:  make([]int32, n),
		Arcs:      make([]vrecord.ArcCount, total),
	}
	if bcasts > 0 {
		s.Broadcasts = make([]vrecord.VertexCount, 0, bcasts)
		for v, b := range r.bcast {
			if b != 0 {
				s.Broadcasts = append(s.Broadcasts, vrecord.VertexCount{Vertex: int32(v), Count: b})
			}
		}
	}
	vals := e.values
	if vw == 1 && r.opt.Value == nil {
		copy(s.Value, vals)
	}
	starts := make([]int, chunks) // each chunk's first entry in s.Arcs
	for k := 1; k < chunks; k++ {
		starts[k] = starts[k-1] + r.busy[k-1]
	}
	par := e.cfg.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	parallel.For(context.Background(), par, chunks, func(_, k int) {
		from, to := k*recordChunk, min(n, (k+1)*recordChunk)
		if vw != 1 || r.opt.Value != nil {
			for v := from; v < to; v++ {
				val := vals[v*vw : (v+1)*vw]
				if r.opt.Value != nil {
					s.Value[v] = r.opt.Value(val)
				} else {
					s.Value[v] = val[0]
				}
			}
		}
		for v := from; v < to; v++ {
			switch {
			case !r.computed[v]:
				// Halted, the zero State
			case r.set[v] || r.sent[v] > 0 || changed(r.before[v*vw:(v+1)*vw], vals[v*vw:(v+1)*vw]):
				s.State[v] = vrecord.Active
			default:
				s.State[v] = vrecord.Woken
			}
			c := e.workers[e.part[v]]
			i := e.localIdx[v]
			s.Received[v] = c.inOff[i+1] - c.inOff[i]
		}
		out := s.Arcs[starts[k]:starts[k]:len(s.Arcs)]
		for v := from; v < to; v++ {
			if r.sent[v] == 0 {
				continue
			}
			lo, hi := offsets[v], offsets[v+1]
			for a := lo; a < hi; a++ {
				if k := r.arcs[a]; k != 0 {
					out = append(out, vrecord.ArcCount{Arc: int32(a), Count: k})
					r.arcs[a] = 0
				}
			}
			r.bcast[v] = 0
		}
		clear(r.sent[from:to])
		clear(r.set[from:to])
		clear(r.computed[from:to])
		copy(r.before[from*vw:to*vw], vals[from*vw:to*vw])
	})
	r.rec.Steps = append(r.rec.Steps, s)
	r.bytes += need
	return nil
}

// changed reports whether a value's bits differ from before (a write
// through Context.Vector; NaN compares by its bits).
func changed(before, after []float64) bool {
	for i, x := range after {
		if math.Float64bits(x) != math.Float64bits(before[i]) {
			return true
		}
	}
	return false
}

// mib is a record's size for an error: in MiB, or in bytes below one.
func mib(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%d bytes", b)
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}
