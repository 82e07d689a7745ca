package bsp

import (
	"bytes"
	"context"
	"encoding/binary"
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
// counts once for its vertex (bcast), a single Send counts once for its
// vertex and once on its arc, SetValue sets a flag; nothing else.
type recording struct {
	opt      vrecord.Options
	rec      *vrecord.Record
	singles  []int32   // per vertex: single messages it sent (Send) this superstep
	bcast    []int32   // per vertex: broadcasts along all its arcs
	arcs     []int32   // per arc: single sends along it
	set      []bool    // per vertex: SetValue was called
	mark     []byte    // per vertex: markComputed (set a superstep ahead), markReceived
	received []int32   // per vertex: the messages delivered this superstep, where not 0
	before   []float64 // the values when the superstep began; nil when the record's floats are the values
	chunk    int       // vertices a chunk of capture's parallel loop
	chunks   []chunkCount
	slabs    stepSlabs
}

// chunkCount is what capture found in one chunk of vertices: how many
// entries it wrote into each of the step's slabs (at the chunk's first
// vertex) and its arcs, reused from superstep to superstep.
type chunkCount struct {
	changed, touched, broadcasts int
	arcs                         []vrecord.ArcCount
}

// stepSlabs are a superstep's delta while capture fills it: every array
// has room for all n vertices, and chunk k writes from its first vertex
// on. A superstep that fills most of a slab keeps it (the record takes it
// and the next superstep makes a new one); a sparse one is copied out at
// its size and the slab is reused.
type stepSlabs struct {
	changed, touched, sent, received []int32
	values                           []float64
	state                            []vrecord.State
	broadcasts                       []vrecord.VertexCount
}

// What a vertex does in a superstep, in recording.mark: capture looks only
// at marked vertices (eight at a time where none is). markComputed is set
// by the capture before, from the engine's own rule (a vertex computes
// when it has not voted to halt or a message reached it), so that the
// workers' hot path writes nothing for it.
const (
	markComputed byte = 1 << iota
	markReceived
)

// minChunk is the fewest vertices capture handles as one item of its
// parallel loop.
const minChunk = 1024

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
		singles:  make([]int32, n),
		bcast:    make([]int32, n),
		arcs:     make([]int32, m),
		set:      make([]bool, n),
		mark:     bytes.Repeat([]byte{markComputed}, n), // every vertex computes in superstep 0
		received: make([]int32, n),
	}
	// Four chunks a core balance the loop; a chunk is at least minChunk.
	par := e.cfg.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	r.chunk = max(minChunk, (n+4*par-1)/(4*par))
	r.chunks = make([]chunkCount, (n+r.chunk-1)/r.chunk)
	if e.vw != 1 || opt.Value != nil {
		// The recorded float may not show every change of the value.
		r.before = slices.Clone(e.values)
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
}

// recordSend counts a message from the computing vertex to dst: on its
// first arc to dst, if any.
func (c *Context) recordSend(dst int) {
	r := c.rec
	v := c.cur
	r.singles[v]++
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
	// The inboxes' counts spread over the vertices, each worker's offsets
	// read in order, so that the chunks below read only arrays by vertex,
	// in order. One goroutine does it: workers hold interleaved vertices,
	// and writing them from two cores at once costs more than it saves.
	for _, c := range e.workers {
		off, local := c.inOff, c.local
		for i := 0; i < len(local); i++ {
			if i+8 <= len(local) && off[i+8] == off[i] {
				i += 7 // the offsets are running sums: eight vertices received nothing
				continue
			}
			if d := off[i+1] - off[i]; d != 0 {
				v := local[i]
				r.received[v] = d
				r.mark[v] |= markReceived
			}
		}
	}
	sl := &r.slabs
	if sl.changed == nil {
		sl.changed, sl.values = make([]int32, n), make([]float64, n)
	}
	if sl.touched == nil {
		sl.touched, sl.state, sl.sent, sl.received = make([]int32, n), make([]vrecord.State, n), make([]int32, n), make([]int32, n)
	}
	if sl.broadcasts == nil {
		sl.broadcasts = make([]vrecord.VertexCount, n)
	}
	valueOf := r.opt.Value
	mark, halted := r.mark, e.halted
	cs := r.chunk
	parallel.For(context.Background(), par, len(r.chunks), func(_, k int) {
		out := &r.chunks[k]
		base := k * cs
		nc, nt, nb := base, base, base
		arcs := out.arcs[:0]
		end := min(n, base+cs)
		for v := base; v < end; v++ {
			if v+8 <= end && binary.LittleEndian.Uint64(mark[v:]) == 0 {
				v += 7 // eight vertices that did nothing
				continue
			}
			m := mark[v]
			if m == 0 {
				continue
			}
			mark[v] = 0
			recv := r.received[v]
			r.received[v] = 0
			if m&markComputed == 0 {
				sl.touched[nt], sl.state[nt], sl.sent[nt], sl.received[nt] = int32(v), vrecord.Halted, 0, recv
				nt++
				mark[v] = markComputed // woken by its messages
				continue
			}
			var x float64
			if valueOf != nil {
				x = valueOf(vals[v*vw : (v+1)*vw])
			} else {
				x = vals[v*vw]
			}
			moved := math.Float64bits(x) != math.Float64bits(cur[v])
			if moved {
				sl.changed[nc], sl.values[nc] = int32(v), x
				nc++
			}
			lo, hi := offsets[v], offsets[v+1]
			b, singles := r.bcast[v], r.singles[v]
			sent := b*int32(hi-lo) + singles
			active := r.set[v] || b > 0 || singles > 0
			if r.before != nil {
				raw := vals[v*vw : (v+1)*vw]
				active = active || changed(r.before[v*vw:(v+1)*vw], raw)
				copy(r.before[v*vw:(v+1)*vw], raw)
			} else {
				active = active || moved
			}
			st := vrecord.Woken
			if active {
				st = vrecord.Active
			}
			sl.touched[nt], sl.state[nt], sl.sent[nt], sl.received[nt] = int32(v), st, sent, recv
			nt++
			if b != 0 {
				sl.broadcasts[nb] = vrecord.VertexCount{Vertex: int32(v), Count: b}
				nb++
				r.bcast[v] = 0
			}
			if singles != 0 {
				for a := lo; a < hi; a++ {
					if x := r.arcs[a]; x != 0 {
						arcs = append(arcs, vrecord.ArcCount{Arc: int32(a), Count: x})
						r.arcs[a] = 0
					}
				}
				r.singles[v] = 0
			}
			r.set[v] = false
			if !halted[v] || recv != 0 {
				mark[v] = markComputed // it computes in the next superstep
			}
		}
		out.changed, out.touched, out.broadcasts, out.arcs = nc-base, nt-base, nb-base, arcs
	})
	nk := len(r.chunks)
	cc, ct, cb := make([]int, nk), make([]int, nk), make([]int, nk)
	na := 0
	for k, c := range r.chunks {
		cc[k], ct[k], cb[k] = c.changed, c.touched, c.broadcasts
		na += len(c.arcs)
	}
	var d vrecord.Delta
	var keepC, keepT, keepB bool
	d.Changed, keepC = settle(sl.changed, cs, cc)
	d.Values, _ = settle(sl.values, cs, cc)
	d.Touched, keepT = settle(sl.touched, cs, ct)
	d.State, _ = settle(sl.state, cs, ct)
	d.Sent, _ = settle(sl.sent, cs, ct)
	d.Received, _ = settle(sl.received, cs, ct)
	d.Broadcasts, keepB = settle(sl.broadcasts, cs, cb)
	d.Arcs = make([]vrecord.ArcCount, 0, na)
	for k := range r.chunks {
		d.Arcs = append(d.Arcs, r.chunks[k].arcs...)
	}
	if err := r.rec.Append(d); err != nil {
		return fmt.Errorf("bsp: job %q: %w (%d vertices, %d supersteps recorded; raise Record.MaxBytes or lower MaxSupersteps)", e.prof.Job, err, n, r.rec.Len())
	}
	// The record holds the slabs it kept.
	if keepC {
		sl.changed, sl.values = nil, nil
	}
	if keepT {
		sl.touched, sl.state, sl.sent, sl.received = nil, nil, nil, nil
	}
	if keepB {
		sl.broadcasts = nil
	}
	return nil
}

// settle packs the entries the chunks wrote into slab (chunk k's count[k]
// entries from k*cs on) into one run from its start. It returns the
// run and whether it is the slab itself, kept because it is nearly full,
// or else a copy at its size (so the slab can be reused).
func settle[T any](slab []T, cs int, count []int) ([]T, bool) {
	at := 0
	for k, c := range count {
		if from := k * cs; from != at {
			copy(slab[at:at+c], slab[from:from+c])
		}
		at += c
	}
	if 8*at >= 7*len(slab) {
		return slab[:at:at], true
	}
	return slices.Clone(slab[:at]), false
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
