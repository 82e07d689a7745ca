package bsp

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"superstep/internal/parallel"
	"superstep/sdk/graph"
)

// Context is a worker's view of the job, handed to Compute: the vertex
// values, the messages to send, halting and aggregators. A Context belongs
// to one worker; Compute must not keep it or use it from other goroutines.
type Context struct {
	e      *engine
	worker int
	step   int

	local    []int32
	localIdx []int32 // shared: vertex → its index in its worker's list

	// copies of the engine's, one load away for the program's calls
	g      *graph.Graph
	n, vw  int
	values []float64

	// outgoing messages, by destination worker
	out []outbox
	// senders[k] is what worker k sent this one in the superstep being
	// delivered: its outbox in memory, or decoded from a Transport
	senders []*outbox
	slot    []int32 // with a combiner: vertex → its entry in out[part[v]], -1 if none
	combine int
	scratch []float64
	sent    []int64 // messages per destination worker in this superstep

	// incoming messages for this worker's vertices
	inOff  []int32 // len(local)+1: vertex i's messages are inData[inOff[i]*mw:inOff[i+1]*mw]
	inPos  []int32
	inData []float64
	// The placement of last superstep's one-number records, per sender:
	// when the next superstep sends to the same vertices in the same order
	// (PageRank does), delivery copies the payloads to the same places
	// instead of sorting them again.
	cache     []placement
	cacheOK   bool
	lastTotal int

	// Repeated broadcasts (sender side): the vertices that sent one number
	// along all their edges this superstep and last, whether this
	// superstep writes payloads only (spec), and whether it sent nothing
	// else (pure).
	bv, pbv    []int32
	bx         []float64
	spec, pure bool
	lastRepeat bool

	agg map[string]float64

	// the vertex-level record (nil unless Config.Record) and the vertex
	// whose Compute runs, the sender of its messages
	rec *recording
	cur int

	computeTime       time.Duration
	active, processed int64
	panicked          error
	interrupted       bool // compute stopped part way: the job was cancelled
}

// outbox holds the messages for one destination worker: the destination
// vertices' indices in that worker's list, and the payloads.
type outbox struct {
	dst  []int32
	data []float64
	// one holds the one-number messages of a job without a combiner, each
	// in a single record: the engine's hottest path writes one slice.
	one []msg1
	// vals holds only the payloads when the sender broadcast from exactly
	// the same vertices as last superstep and the receiver has their
	// destinations recorded (valsOnly): see repeatBroadcast.
	vals     []float64
	valsOnly bool
}

type placement struct {
	li, perm []int32
}

type msg1 struct {
	li int32
	x  float64
}

func newContext(e *engine, w int) *Context {
	c := &Context{e: e, worker: w, local: e.local[w], out: make([]outbox, e.nw), senders: make([]*outbox, e.nw), sent: make([]int64, e.nw), agg: map[string]float64{}}
	c.g, c.n, c.vw, c.values = e.g, e.g.NumVertices(), e.vw, e.values
	c.scratch = make([]float64, e.mw)
	switch e.cfg.Combiner.(type) {
	case nil:
		c.combine = combineNone
	case SumCombiner, *SumCombiner:
		c.combine = combineSum
	case MinCombiner, *MinCombiner:
		c.combine = combineMin
	default:
		c.combine = combineOther
	}
	if e.mw != 1 && c.combine != combineNone {
		c.combine = combineOther // the inlined combiners handle one number
	}
	c.cache = make([]placement, e.nw)
	c.lastTotal = -1
	c.inOff = make([]int32, len(c.local)+1)
	c.inPos = make([]int32, len(c.local)+1)
	if e.cfg.Combiner != nil {
		c.slot = make([]int32, e.g.NumVertices())
		for i := range c.slot {
			c.slot[i] = -1
		}
	}
	c.localIdx = e.localIdx
	c.rec = e.rec
	return c
}

// Superstep is the current superstep, from 0.
func (c *Context) Superstep() int { return c.step }

// Worker is the worker running this Compute.
func (c *Context) Worker() int { return c.worker }

// Graph is the job's graph.
func (c *Context) Graph() *graph.Graph { return c.g }

// NumVertices is the number of vertices of the graph.
func (c *Context) NumVertices() int { return c.n }

// Value is the first element of v's value.
func (c *Context) Value(v int) float64 { return c.values[v*c.vw] }

// SetValue sets the first element of v's value.
func (c *Context) SetValue(v int, x float64) {
	c.values[v*c.vw] = x
	if c.rec != nil {
		c.rec.set[v] = true
	}
}

// Vector is v's whole value (ValueWidth numbers); writes to it change the value.
func (c *Context) Vector(v int) []float64 { return c.e.values[v*c.e.vw : (v+1)*c.e.vw] }

// VoteToHalt makes v inactive until a message reaches it.
func (c *Context) VoteToHalt(v int) { c.e.halted[v] = true }

// Send sends a message (MessageWidth numbers) to vertex dst, delivered in
// the next superstep.
func (c *Context) Send(dst int, data ...float64) {
	if len(data) != c.e.mw {
		panic(fmt.Sprintf("bsp: a message has %d numbers, the job's MessageWidth is %d", len(data), c.e.mw))
	}
	if c.rec != nil {
		c.recordSend(dst)
	}
	if c.e.mw == 1 {
		c.send1(int32(dst), data[0])
		return
	}
	c.send(int32(dst), data)
}

// SendToNeighbors sends the same message to every out-neighbour of v.
func (c *Context) SendToNeighbors(v int, data ...float64) {
	if len(data) != c.e.mw {
		panic(fmt.Sprintf("bsp: a message has %d numbers, the job's MessageWidth is %d", len(data), c.e.mw))
	}
	if c.rec != nil {
		c.recordBroadcast(v)
	}
	if c.e.mw != 1 {
		for _, u := range c.e.g.Neighbors(v) {
			c.send(u, data)
		}
		return
	}
	x := data[0]
	if c.combine == combineNone {
		// The hot path of PageRank-like programs: no combiner, one number;
		// each arc's destination worker and index there are precomputed,
		// so the loop reads memory in order.
		lo, hi := c.e.g.ArcRange(v)
		c.bv = append(c.bv, int32(v))
		c.bx = append(c.bx, x)
		out := c.out
		if c.spec {
			for _, w := range c.e.arcWorker[lo:hi] {
				o := &out[w]
				o.vals = append(o.vals, x)
			}
			return
		}
		arcWorker, arcLocal := c.e.arcWorker[lo:hi], c.e.arcLocal[lo:hi]
		for i, li := range arcLocal {
			o := &out[arcWorker[i]]
			o.one = append(o.one, msg1{li, x})
		}
		return
	}
	for _, u := range c.e.g.Neighbors(v) {
		c.send1(u, x)
	}
}

// How a worker combines messages: the built-in combiners are inlined.
const (
	combineNone = iota
	combineSum
	combineMin
	combineOther
)

// send1 sends a one-number message.
func (c *Context) send1(dst int32, x float64) {
	c.pure = false
	o := &c.out[c.e.part[dst]]
	switch c.combine {
	case combineNone:
		o.one = append(o.one, msg1{c.localIdx[dst], x})
		return
	case combineSum:
		if s := c.slot[dst]; s >= 0 {
			o.data[s] += x
			return
		}
	case combineMin:
		if s := c.slot[dst]; s >= 0 {
			if x < o.data[s] {
				o.data[s] = x
			}
			return
		}
	case combineOther:
		if s := c.slot[dst]; s >= 0 {
			c.scratch[0] = x
			c.e.cfg.Combiner.Combine(o.data[s:s+1], c.scratch[:1])
			return
		}
	}
	if c.slot != nil {
		c.slot[dst] = int32(len(o.dst))
	}
	o.dst = append(o.dst, c.localIdx[dst])
	o.data = append(o.data, x)
}

// send sends a message of any width (copied: data does not escape).
func (c *Context) send(dst int32, data []float64) {
	c.pure = false
	o := &c.out[c.e.part[dst]]
	mw := c.e.mw
	if c.slot != nil {
		if s := int(c.slot[dst]); s >= 0 {
			copy(c.scratch, data)
			c.e.cfg.Combiner.Combine(o.data[s*mw:(s+1)*mw], c.scratch)
			return
		}
		c.slot[dst] = int32(len(o.dst))
	}
	o.dst = append(o.dst, c.localIdx[dst])
	o.data = appendFloats(o.data, data)
}

// appendFloats appends src to dst element by element. append(dst, src...)
// is a memmove, inside which the Go scheduler cannot preempt a goroutine;
// writing a fresh outbox or inbox, nearly all the time goes to page faults
// inside those memmoves, and on a loaded 2-core machine both workers held
// their cores for up to 2 s, the kernel's goroutines (an interrupt's
// among them) waiting. A loop of a few numbers costs no more.
func appendFloats(dst, src []float64) []float64 {
	n := len(dst)
	if n+len(src) > cap(dst) {
		dst = slices.Grow(dst, len(src))
	}
	dst = dst[:n+len(src)]
	for j, x := range src {
		dst[n+j] = x
	}
	return dst
}

// Aggregate gives x to the named aggregator; the folded value is visible
// to every vertex in the next superstep.
func (c *Context) Aggregate(name string, x float64) {
	k, ok := c.e.cfg.Aggregators[name]
	if !ok {
		panic(fmt.Sprintf("bsp: no aggregator named %q (declare it in Config.Aggregators)", name))
	}
	if old, seen := c.agg[name]; seen {
		c.agg[name] = k.fold(old, x)
	} else {
		c.agg[name] = k.fold(k.identity(), x)
	}
}

// Aggregated is the named aggregator's value from the previous superstep.
func (c *Context) Aggregated(name string) float64 { return c.e.aggPrev[name] }

// checkEvery is how many vertices a worker computes between two looks at
// the job's context: well under a millisecond of compiled work, a few
// milliseconds of a vertex program interpreted in a cell.
const checkEvery = 256

// compute runs the worker's part of a superstep. When the job's context is
// cancelled it returns part way, interrupted (the engine then abandons the
// superstep).
func (c *Context) compute(step int) {
	c.step = step
	c.interrupted = false
	// Last superstep's outgoing messages have been delivered: reuse.
	for d := range c.out {
		if c.slot != nil {
			lst := c.e.local[d]
			for _, li := range c.out[d].dst {
				c.slot[lst[li]] = -1
			}
		}
		c.out[d].dst = c.out[d].dst[:0]
		c.out[d].data = c.out[d].data[:0]
		c.out[d].one = c.out[d].one[:0]
		c.out[d].vals = c.out[d].vals[:0]
		c.out[d].valsOnly = false
	}
	c.pbv, c.bv = c.bv, c.pbv[:0]
	c.bx = c.bx[:0]
	// (Payload-only outboxes rely on the receiver's memory: not across
	// a Transport.)
	c.spec = c.lastRepeat && c.combine == combineNone && c.e.mw == 1 && c.e.tr == nil
	c.pure = true
	c.active, c.processed = 0, 0
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			c.panicked = fmt.Errorf("bsp: the vertex program panicked in superstep %d on worker %d: %v\n%s", step, c.worker, r, debug.Stack())
		}
	}()
	e := c.e
	mw := e.mw
	// Locals, not fields: the loop calls out to the program, after which
	// the compiler would reload every field.
	inOff, inData, halted, prog, ctx := c.inOff, c.inData, e.halted, e.prog, e.ctx
	var active, processed int64
	for i, v := range c.local {
		if i%checkEvery == 0 && ctx.Err() != nil {
			c.interrupted = true
			return
		}
		lo, hi := int(inOff[i]), int(inOff[i+1])
		if !halted[v] {
			active++
		} else if lo == hi {
			continue
		}
		halted[v] = false
		processed++
		if c.rec != nil {
			c.cur = int(v)
		}
		prog.Compute(c, int(v), Messages{data: inData[lo*mw : hi*mw], width: mw})
	}
	c.active, c.processed = active, processed
	t := time.Since(start)
	if f := e.slow[c.worker]; f > 1 {
		extra := time.Duration(float64(t) * (f - 1))
		time.Sleep(extra)
		t = time.Since(start)
	}
	c.computeTime = t
	c.repeatBroadcast()
	for d := range c.out {
		c.sent[d] = int64(len(c.out[d].dst) + len(c.out[d].one))
		if c.out[d].valsOnly {
			c.sent[d] += int64(len(c.out[d].vals))
		}
	}
}

// repeatBroadcast settles a superstep written in payload-only form: an
// outbox stays payload-only if this worker broadcast from exactly the
// vertices of last superstep and sent nothing else (so its destinations
// are last superstep's) and the receiving worker holds them recorded;
// every other outbox gets its destinations written after all.
func (c *Context) repeatBroadcast() {
	repeat := c.pure && slices.Equal(c.bv, c.pbv)
	c.lastRepeat = repeat
	if !c.spec {
		return
	}
	e := c.e
	rebuild := false
	for d := range c.out {
		if repeat && e.workers[d].cacheOK {
			c.out[d].valsOnly = true
		} else {
			rebuild = true
		}
	}
	if !rebuild {
		return
	}
	for k, v := range c.bv {
		lo, hi := e.g.ArcRange(int(v))
		x := c.bx[k]
		for a := lo; a < hi; a++ {
			o := &c.out[e.arcWorker[a]]
			if !o.valsOnly {
				o.one = append(o.one, msg1{e.arcLocal[a], x})
			}
		}
	}
	for d := range c.out {
		if !c.out[d].valsOnly {
			c.out[d].vals = c.out[d].vals[:0]
		}
	}
}

// deliver moves every worker's outgoing messages into the inboxes of the
// workers that own their destinations, and returns the messages in flight.
// When ctx is cancelled part way (each worker looks at it before the
// messages of each sender) it returns ctx's error: the superstep is then
// abandoned.
func (e *engine) deliver(ctx context.Context, par int) (int64, error) {
	err := parallel.For(ctx, par, e.nw, func(_, w int) { e.workers[w].gather() })
	if err == nil && e.interrupted() {
		err = ctx.Err()
	}
	if err != nil {
		return 0, err
	}
	var total int64
	for _, c := range e.workers {
		total += int64(c.inOff[len(c.local)])
	}
	return total, nil
}

// stop reports whether the job's context has ended, and marks the worker
// interrupted if so.
func (c *Context) stop() bool {
	if c.e.ctx.Err() != nil {
		c.interrupted = true
	}
	return c.interrupted
}

// stopMask: gather looks at the job's context every stopMask+1 messages
// of a sender (a sender may hand a worker millions in a superstep). The
// messages land at scattered places, so into a fresh inbox each may cost a
// page fault: 1,024 of them took up to 40 ms on a loaded virtual machine,
// where 32,768 kept a cancelled LouvainBSP running for seconds.
const stopMask = 1<<10 - 1

// gather collects the messages sent to this worker's vertices, grouped by
// vertex (sources in worker order, each in send order: deterministic). It
// returns part way, interrupted, when the job's context ends.
func (c *Context) gather() {
	e := c.e
	mw := e.mw
	// Count this superstep's messages; note whether all travel as
	// one-number records (the only kind the placement cache handles). A
	// payload-only outbox goes to the vertices recorded for its sender.
	total, records := 0, true
	for _, o := range c.senders {
		total += len(o.dst) + len(o.one)
		if o.valsOnly {
			total += len(o.vals)
		}
		if len(o.dst) > 0 {
			records = false
		}
	}
	if records && c.cacheOK && total == c.lastTotal && c.samePattern() {
		// The same destinations in the same order as last superstep (a
		// PageRank superstep): the offsets stand, and every message goes
		// where its predecessor went.
		inData := c.inData
		for k, o := range c.senders {
			if c.stop() {
				return
			}
			perm := c.cache[k].perm
			if o.valsOnly {
				for i, x := range o.vals {
					if i&stopMask == stopMask && c.stop() {
						return
					}
					inData[perm[i]] = x
				}
				continue
			}
			for i, m := range o.one {
				if i&stopMask == stopMask && c.stop() {
					return
				}
				inData[perm[i]] = m.x
			}
		}
		return
	}
	// Record the placement when the pattern may repeat next superstep.
	record := records && mw == 1 && total == c.lastTotal
	c.cacheOK, c.lastTotal = false, total

	off := c.inOff
	clear(off)
	for k, o := range c.senders {
		for _, li := range o.dst {
			off[li+1]++
		}
		if o.valsOnly {
			for _, li := range c.cache[k].li {
				off[li+1]++
			}
		}
		for _, m := range o.one {
			off[m.li+1]++
		}
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	if cap(c.inData) < total*mw {
		c.inData = make([]float64, total*mw)
	}
	c.inData = c.inData[:total*mw]
	pos := c.inPos
	copy(pos, off)
	if mw == 1 {
		inData := c.inData
		for k, o := range c.senders {
			if c.stop() {
				return
			}
			for i, li := range o.dst {
				if i&stopMask == stopMask && c.stop() {
					return
				}
				inData[pos[li]] = o.data[i]
				pos[li]++
			}
			ca := &c.cache[k]
			if o.valsOnly {
				// Its destinations are the recorded ones; keep them.
				ca.perm = ca.perm[:0]
				for i, li := range ca.li {
					if i&stopMask == stopMask && c.stop() {
						return
					}
					p := pos[li]
					inData[p] = o.vals[i]
					pos[li]++
					ca.perm = append(ca.perm, p)
				}
				continue
			}
			if record {
				ca.li, ca.perm = ca.li[:0], ca.perm[:0]
				for i, m := range o.one {
					if i&stopMask == stopMask && c.stop() {
						return
					}
					p := pos[m.li]
					inData[p] = m.x
					pos[m.li]++
					ca.li = append(ca.li, m.li)
					ca.perm = append(ca.perm, p)
				}
				continue
			}
			for i, m := range o.one {
				if i&stopMask == stopMask && c.stop() {
					return
				}
				inData[pos[m.li]] = m.x
				pos[m.li]++
			}
		}
		c.cacheOK = record
		return
	}
	for _, o := range c.senders {
		if c.stop() {
			return
		}
		for i, li := range o.dst {
			if i&stopMask == stopMask && c.stop() {
				return
			}
			// An element loop, not copy (a memmove Go cannot preempt):
			// see appendFloats.
			at, from := int(pos[li])*mw, o.data[i*mw:(i+1)*mw]
			for j, x := range from {
				c.inData[at+j] = x
			}
			pos[li]++
		}
	}
}

// samePattern reports whether every sender's one-number records for this
// worker go to the same vertices in the same order as recorded (a
// payload-only outbox does by construction).
func (c *Context) samePattern() bool {
	for k, o := range c.senders {
		if o.valsOnly {
			continue
		}
		one := o.one
		li := c.cache[k].li
		if len(one) != len(li) {
			return false
		}
		for i := range one {
			if one[i].li != li[i] {
				return false
			}
		}
	}
	return true
}
