package bsp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"superstep/sdk/profile"
)

// errTransport is wrapped by the errors of a failed Transport call: the
// processes may no longer be in step, so the job makes no further
// collective call (not even the final gathering of the values).
var errTransport = errors.New("bsp: the transport failed")

// Status of a process at the end of its compute, shared in the vote.
const (
	statusOK          = 0
	statusPanicked    = 1
	statusInterrupted = 2
)

// Layout of the vote each process contributes to Allgather.
const (
	voteStatus = iota
	voteInFlight
	voteActive
	voteAggregators // then one number per aggregator, in name order
)

// Layout of the measurements each process gathers to process 0: these
// five, then messages and bytes to every worker.
const (
	statCompute = iota
	statWait
	statComm
	statActive
	statProcessed
	statFixed
)

// distributed is the engine's side of a Transport: this process's one
// worker and the buffers of the exchange, reused every superstep.
type distributed struct {
	e     *engine
	c     *Context
	send  [][]byte // per destination worker
	inbox []outbox // per sender: its messages to this worker, decoded
	aggs  []string // the aggregators' names, sorted: their place in the vote
	vote  []float64
	stats []byte
}

func newDistributed(e *engine) *distributed {
	d := &distributed{e: e, c: e.workers[e.rank], send: make([][]byte, e.nw), inbox: make([]outbox, e.nw)}
	for name := range e.cfg.Aggregators {
		d.aggs = append(d.aggs, name)
	}
	sort.Strings(d.aggs)
	d.vote = make([]float64, voteAggregators+len(d.aggs))
	return d
}

// transportFailed wraps a failed Transport call.
func (d *distributed) transportFailed(call string, step int, err error) error {
	return fmt.Errorf("%w: %s in superstep %d on worker %d: %w", errTransport, call, step, d.e.rank, err)
}

// superstep runs superstep step on this process: compute, then the
// barrier, the exchange, the vote and the profile (see Transport). It
// reports whether the job is over because every vertex halted with no
// message in flight; on an error, whether the superstep counts (it ran
// everywhere and a program failed) or was abandoned.
func (d *distributed) superstep(ctx context.Context, step int) (halted, counts bool, err error) {
	e, c, tr := d.e, d.c, d.e.tr
	c.compute(step)
	status := statusOK
	switch {
	case c.panicked != nil:
		status = statusPanicked
	case c.interrupted || ctx.Err() != nil:
		status = statusInterrupted
	}

	start := time.Now()
	if err := tr.Barrier(); err != nil {
		return false, false, d.transportFailed("the barrier", step, err)
	}
	barrier := time.Now()
	for dst := range d.send {
		d.send[dst] = d.send[dst][:0]
		if dst != e.rank && status == statusOK {
			d.send[dst] = appendOutbox(d.send[dst], &c.out[dst])
		}
	}
	recv, err := tr.Exchange(d.send)
	if err != nil {
		return false, false, d.transportFailed("the exchange", step, err)
	}
	if len(recv) != e.nw {
		return false, false, d.transportFailed("the exchange", step, fmt.Errorf("%d buffers for %d workers", len(recv), e.nw))
	}
	for k, b := range recv {
		if k == e.rank {
			c.senders[k] = &c.out[k]
			continue
		}
		if err := readOutbox(&d.inbox[k], b, e.mw, len(c.local)); err != nil {
			return false, false, d.transportFailed("the exchange", step, fmt.Errorf("from worker %d: %w", k, err))
		}
		c.senders[k] = &d.inbox[k]
	}
	var inFlight, active int64
	if status == statusOK {
		c.gather()
		if c.interrupted {
			status = statusInterrupted
		}
		inFlight = int64(c.inOff[len(c.local)])
		for _, v := range c.local {
			if !e.halted[v] {
				active++
			}
		}
	}
	vote := d.vote
	vote[voteStatus], vote[voteInFlight], vote[voteActive] = float64(status), float64(inFlight), float64(active)
	for i, name := range d.aggs {
		x, ok := c.agg[name]
		if !ok {
			x = e.cfg.Aggregators[name].identity()
		}
		vote[voteAggregators+i] = x
	}
	clear(c.agg)
	all, err := tr.Allgather(vote)
	if err != nil {
		return false, false, d.transportFailed("the vote", step, err)
	}
	if len(all) != e.nw*len(vote) {
		return false, false, d.transportFailed("the vote", step, fmt.Errorf("%d numbers, want %d", len(all), e.nw*len(vote)))
	}
	end := time.Now()

	// Every process reads the same vote: they stop together.
	for k := 0; k < e.nw; k++ {
		switch all[k*len(vote)+voteStatus] {
		case statusPanicked:
			if k == e.rank {
				return false, true, c.panicked
			}
			return false, true, fmt.Errorf("bsp: job %q: the vertex program failed in superstep %d on worker %d (its error is in that process's output)", e.prof.Job, step, k)
		case statusInterrupted:
			if k == e.rank {
				return false, false, e.cancelled(step, cmpOr(ctx.Err(), context.Canceled))
			}
			return false, false, fmt.Errorf("bsp: job %q stopped in superstep %d: worker %d was cancelled", e.prof.Job, step, k)
		}
	}
	var total, stillActive float64
	for k := 0; k < e.nw; k++ {
		total += all[k*len(vote)+voteInFlight]
		stillActive += all[k*len(vote)+voteActive]
	}
	for i, name := range d.aggs {
		kind := e.cfg.Aggregators[name]
		acc := kind.identity()
		for k := 0; k < e.nw; k++ {
			acc = kind.fold(acc, all[k*len(vote)+voteAggregators+i])
		}
		e.aggPrev[name] = acc
	}
	if !e.cfg.NoProfile {
		if err := d.record(step, barrier.Sub(start), end.Sub(barrier)); err != nil {
			return false, false, err
		}
	}
	return total == 0 && stillActive == 0, false, nil
}

func cmpOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// record gathers every worker's measurements of superstep step to process
// 0, which adds the step to the profile and hands it to the recorders.
func (d *distributed) record(step int, wait, comm time.Duration) error {
	e, c := d.e, d.c
	nw := e.nw
	n := statFixed + 2*nw
	b := slices.Grow(d.stats[:0], 8*n)[:8*n]
	put := func(i int, x int64) { binary.LittleEndian.PutUint64(b[8*i:], uint64(x)) }
	put(statCompute, int64(c.computeTime))
	put(statWait, int64(wait))
	put(statComm, int64(comm))
	put(statActive, c.active)
	put(statProcessed, c.processed)
	for dst := 0; dst < nw; dst++ {
		put(statFixed+dst, c.sent[dst])
		put(statFixed+nw+dst, int64(outboxSize(&c.out[dst])))
	}
	d.stats = b
	got, err := e.tr.Gather(b)
	if err != nil {
		return d.transportFailed("gathering the profile", step, err)
	}
	if e.rank != 0 {
		return nil
	}
	s := profile.NewStep(step, nw)
	for k, r := range got {
		if len(r) != 8*n {
			return d.transportFailed("gathering the profile", step, fmt.Errorf("worker %d sent %d bytes, want %d", k, len(r), 8*n))
		}
		get := func(i int) int64 { return int64(binary.LittleEndian.Uint64(r[8*i:])) }
		s.Workers[k] = profile.WorkerStats{Compute: time.Duration(get(statCompute)), Wait: time.Duration(get(statWait)), Comm: time.Duration(get(statComm)),
			Active: get(statActive), Processed: get(statProcessed)}
		for dst := 0; dst < nw; dst++ {
			s.Messages[k*nw+dst] = get(statFixed + dst)
			s.Bytes[k*nw+dst] = get(statFixed + nw + dst)
		}
	}
	e.prof.Steps = append(e.prof.Steps, s)
	for _, r := range e.cfg.Recorders {
		r.RecordStep(e.prof, s)
	}
	return nil
}

// gatherValues brings every worker's vertex values to process 0.
func (d *distributed) gatherValues() error {
	e, c := d.e, d.c
	vw := e.vw
	b := make([]byte, 0, 8*vw*len(c.local))
	for _, v := range c.local {
		for _, x := range e.values[int(v)*vw : (int(v)+1)*vw] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	got, err := e.tr.Gather(b)
	if err != nil {
		return d.transportFailed("gathering the values", len(e.prof.Steps), err)
	}
	if e.rank != 0 {
		return nil
	}
	for k, r := range got {
		lst := e.local[k]
		if len(r) != 8*vw*len(lst) {
			return fmt.Errorf("%w: gathering the values: worker %d sent %d bytes for %d vertices of width %d", errTransport, k, len(r), len(lst), vw)
		}
		for i, v := range lst {
			for j := 0; j < vw; j++ {
				e.values[int(v)*vw+j] = math.Float64frombits(binary.LittleEndian.Uint64(r[8*(i*vw+j):]))
			}
		}
	}
	return nil
}

// The wire format of one worker's messages to another (little-endian):
//
//	uint32 records, uint32 vectors
//	records × (int32 destination, float64 payload)   one-number messages
//	vectors × int32 destination
//	vectors × MessageWidth × float64 payload
//
// Destinations are indices in the receiving worker's list of vertices. No
// messages travel as no bytes at all.
const outboxHeader = 8

// outboxSize is the size of o on the wire.
func outboxSize(o *outbox) int {
	if len(o.one)+len(o.dst) == 0 {
		return 0
	}
	return outboxHeader + 12*len(o.one) + len(o.dst)*4 + len(o.data)*8
}

// appendOutbox encodes o after b.
func appendOutbox(b []byte, o *outbox) []byte {
	size := outboxSize(o)
	if size == 0 {
		return b
	}
	at := len(b)
	b = slices.Grow(b, size)[:at+size]
	w := b[at:]
	le := binary.LittleEndian
	le.PutUint32(w, uint32(len(o.one)))
	le.PutUint32(w[4:], uint32(len(o.dst)))
	p := outboxHeader
	for _, m := range o.one {
		le.PutUint32(w[p:], uint32(m.li))
		le.PutUint64(w[p+4:], math.Float64bits(m.x))
		p += 12
	}
	for _, li := range o.dst {
		le.PutUint32(w[p:], uint32(li))
		p += 4
	}
	for _, x := range o.data {
		le.PutUint64(w[p:], math.Float64bits(x))
		p += 8
	}
	return b
}

// readOutbox decodes b into o (reusing its slices), checking the sizes and
// that every destination lies in 0..local-1.
func readOutbox(o *outbox, b []byte, mw, local int) error {
	o.one, o.dst, o.data = o.one[:0], o.dst[:0], o.data[:0]
	if len(b) == 0 {
		return nil
	}
	if len(b) < outboxHeader {
		return fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", errWire, len(b), outboxHeader)
	}
	le := binary.LittleEndian
	records, vectors := int64(le.Uint32(b)), int64(le.Uint32(b[4:]))
	want := outboxHeader + 12*records + vectors*(4+8*int64(mw))
	if int64(len(b)) != want {
		return fmt.Errorf("%w: %d bytes for %d one-number messages and %d of width %d, want %d", errWire, len(b), records, vectors, mw, want)
	}
	p := outboxHeader
	o.one = slices.Grow(o.one, int(records))[:records]
	for i := range o.one {
		li := int32(le.Uint32(b[p:]))
		if li < 0 || int(li) >= local {
			return fmt.Errorf("%w: message %d goes to vertex %d of a worker with %d", errWire, i, li, local)
		}
		o.one[i] = msg1{li, math.Float64frombits(le.Uint64(b[p+4:]))}
		p += 12
	}
	o.dst = slices.Grow(o.dst, int(vectors))[:vectors]
	for i := range o.dst {
		li := int32(le.Uint32(b[p:]))
		if li < 0 || int(li) >= local {
			return fmt.Errorf("%w: message %d goes to vertex %d of a worker with %d", errWire, records+int64(i), li, local)
		}
		o.dst[i] = li
		p += 4
	}
	o.data = slices.Grow(o.data, int(vectors)*mw)[:int(vectors)*mw]
	for i := range o.data {
		o.data[i] = math.Float64frombits(le.Uint64(b[p:]))
		p += 8
	}
	return nil
}
