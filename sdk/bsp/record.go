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
	chunks   []chunkDelta
}

// chunkDelta is what capture finds in one chunk of vertices, reused from
// superstep to superstep.
type chunkDelta struct {
	changed, touched, sent, received []int32
	values                           []float64
	state                            []vrecord.State
	broadcasts                       []vrecord.VertexCount
	arcs                             []vrecord.ArcCount
}

// recordChunk is the number of vertices capture handles as one item of
// its parallel loop.
const recordChunk = 4096

func newRecording(e *engine) (*recording, error) {
	opt := *e.cfg.Record
	if e.tr != nil {
		return nil, fmt.Errorf("bsp: a vertex record needs every vertex in one process; this job runs on %d processes (record it in process on a graph of the size a class looks at)", e.nw)
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
		sent:     make([]int32, n),
		bcast:    make([]int32, n),
		arcs:     make([]int32, m),
		set:      make([]bool, n),
		computed: make([]bool, n),
		before:   slices.Clone(e.values),
		chunks:   make([]chunkDelta, (n+recordChunk-1)/recordChunk),
	}
	initial := make([]float64, n)
	for v := range n {
		initial[v] = r.value(e.values, e.vw, v)
	}
	var err error
	if r.rec, err = vrecord.New(offsets, targets, initial, opt.MaxBytes); err != nil {
		return nil, fmt.Errorf("bsp: job %q: %w", e.prof.Job, err)
	}
	return r, nil
}

// value is vertex v's value as the record keeps it.
func (r *recording) value(vals []float64, vw, v int) float64 {
	if r.opt.Value != nil {
		return r.opt.Value(vals[v*vw : (v+1)*vw])
	}
	return vals[v*vw]
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

// capture appends superstep step to the record: the vertices whose value
// changed, what the ones that computed or received did, the messages
// delivered to each (the workers' inboxes after the barrier) and along
// each arc. It fails, appending nothing, when the record would outgrow
// its budget. Chunks of vertices are captured in parallel, each reading
// and clearing only its own vertices' counters and arcs; what a superstep
// costs is a read of a few bytes a vertex and the lists of what happened.
func (r *recording) capture(e *engine, step int) error {
	n, vw := e.g.NumVertices(), e.vw
	offsets := r.rec.Offsets
	cur := r.rec.Values()
	vals := e.values
	par := e.cfg.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	parallel.For(context.Background(), par, len(r.chunks), func(_, k int) {
		out := &r.chunks[k]
		*out = chunkDelta{changed: out.changed[:0], touched: out.touched[:0], sent: out.sent[:0], received: out.received[:0],
			values: out.values[:0], state: out.state[:0], broadcasts: out.broadcasts[:0], arcs: out.arcs[:0]}
		for v := k * recordChunk; v < min(n, (k+1)*recordChunk); v++ {
			c := e.workers[e.part[v]]
			i := e.localIdx[v]
			recv := c.inOff[i+1] - c.inOff[i]
			if !r.computed[v] {
				if recv != 0 {
					out.touched = append(out.touched, int32(v))
					out.state = append(out.state, vrecord.Halted)
					out.sent = append(out.sent, 0)
					out.received = append(out.received, recv)
				}
				continue
			}
			st := vrecord.Woken
			raw := vals[v*vw : (v+1)*vw]
			if r.set[v] || r.sent[v] > 0 || changed(r.before[v*vw:(v+1)*vw], raw) {
				st = vrecord.Active
			}
			copy(r.before[v*vw:(v+1)*vw], raw)
			if x := r.value(vals, vw, v); math.Float64bits(x) != math.Float64bits(cur[v]) {
				out.changed = append(out.changed, int32(v))
				out.values = append(out.values, x)
			}
			out.touched = append(out.touched, int32(v))
			out.state = append(out.state, st)
			out.sent = append(out.sent, r.sent[v])
			out.received = append(out.received, recv)
			if r.sent[v] != 0 {
				lo, hi := offsets[v], offsets[v+1]
				singles := r.sent[v]
				if b := r.bcast[v]; b != 0 {
					out.broadcasts = append(out.broadcasts, vrecord.VertexCount{Vertex: int32(v), Count: b})
					r.bcast[v] = 0
					singles -= b * int32(hi-lo)
				}
				if singles == 0 {
					lo = hi // no single message: no arc to look at
				}
				for a := lo; a < hi; a++ {
					if x := r.arcs[a]; x != 0 {
						out.arcs = append(out.arcs, vrecord.ArcCount{Arc: int32(a), Count: x})
						r.arcs[a] = 0
					}
				}
				r.sent[v] = 0
			}
			r.set[v], r.computed[v] = false, false
		}
	})
	var d vrecord.Delta
	var nc, nt, nb, na int
	for k := range r.chunks {
		c := &r.chunks[k]
		nc, nt, nb, na = nc+len(c.changed), nt+len(c.touched), nb+len(c.broadcasts), na+len(c.arcs)
	}
	d.Changed, d.Values = make([]int32, 0, nc), make([]float64, 0, nc)
	d.Touched, d.State, d.Sent, d.Received = make([]int32, 0, nt), make([]vrecord.State, 0, nt), make([]int32, 0, nt), make([]int32, 0, nt)
	d.Broadcasts, d.Arcs = make([]vrecord.VertexCount, 0, nb), make([]vrecord.ArcCount, 0, na)
	for k := range r.chunks {
		c := &r.chunks[k]
		d.Changed, d.Values = append(d.Changed, c.changed...), append(d.Values, c.values...)
		d.Touched, d.State = append(d.Touched, c.touched...), append(d.State, c.state...)
		d.Sent, d.Received = append(d.Sent, c.sent...), append(d.Received, c.received...)
		d.Broadcasts, d.Arcs = append(d.Broadcasts, c.broadcasts...), append(d.Arcs, c.arcs...)
	}
	if err := r.rec.Append(d); err != nil {
		return fmt.Errorf("bsp: job %q: %w (%d vertices, %d supersteps recorded; raise Record.MaxBytes or lower MaxSupersteps)", e.prof.Job, err, n, r.rec.Len())
	}
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
