package bsp

import (
	"errors"
	"fmt"
	"sync"
)

// Transport joins the engines of one job that run in separate processes,
// one worker each: MPI ranks (cmd/superstep-worker wraps sdk/bsp/mpi in
// one) or goroutines (Loopback). With Config.Transport set, Run computes
// only worker Rank()'s vertices, and the barrier of each superstep becomes
// four collective calls that every process makes in the same order:
//
//	Barrier    the superstep's compute is over everywhere (its time is the
//	           worker's wait)
//	Exchange   the messages: what this worker sent to each other one
//	Allgather  the messages each worker received, its vertices still
//	           active and its aggregator values (the "all halted" vote and
//	           the aggregators, folded in worker order on every process)
//	Gather     the worker's measurements, to process 0 for the profile
//
// and at the end one Gather of the vertex values to process 0. Transport
// knows nothing of graphs or programs; an implementation moves bytes and
// numbers, and returns an error (never panics) when that fails.
type Transport interface {
	// Rank is this process's worker, 0 ≤ Rank() < Size().
	Rank() int
	// Size is the number of processes (workers) of the job.
	Size() int
	// Barrier returns once every process has called it.
	Barrier() error
	// Exchange is the all-to-all of a superstep: send has Size() entries,
	// send[d] going to process d; recv[k] is what process k sent this one.
	// recv and its slices may be reused by the next call; the caller
	// does not keep them.
	Exchange(send [][]byte) (recv [][]byte, err error)
	// Allgather returns every process's x (each of the same length),
	// concatenated in rank order.
	Allgather(x []float64) ([]float64, error)
	// Gather delivers every process's b to process 0, in rank order;
	// other processes get nil.
	Gather(b []byte) ([][]byte, error)
}

// Loopback returns n transports joined in memory, for n engines run as
// goroutines of one process (a test of the distributed engine without
// MPI, or a demonstration). Each must be used from one goroutine, like a
// rank. Close (or any process's context ending in the caller's hands)
// is not needed: a Loopback holds no resource but memory.
func Loopback(n int) []Transport {
	if n < 1 {
		panic(fmt.Sprintf("bsp.Loopback(%d): want at least one process", n))
	}
	h := &loopHub{n: n, box: make([]any, n)}
	h.cond = sync.NewCond(&h.mu)
	ts := make([]Transport, n)
	for r := range ts {
		ts[r] = &loopback{hub: h, rank: r}
	}
	return ts
}

// loopHub is a reusable rendezvous: each collective deposits one value per
// process, waits until all are there, lets each read the others', and
// waits until all have read before the boxes are reused.
type loopHub struct {
	n    int
	mu   sync.Mutex
	cond *sync.Cond
	box  []any
	// arrived counts processes in the current phase; gen advances when
	// all have arrived.
	arrived int
	gen     uint64
}

// wait blocks until all n processes have called it (a cyclic barrier).
func (h *loopHub) wait() {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.gen
	h.arrived++
	if h.arrived == h.n {
		h.arrived = 0
		h.gen++
		h.cond.Broadcast()
		return
	}
	for g == h.gen {
		h.cond.Wait()
	}
}

// all deposits v for rank r and returns every rank's deposit.
func (h *loopHub) all(r int, v any) []any {
	h.mu.Lock()
	h.box[r] = v
	h.mu.Unlock()
	h.wait()
	h.mu.Lock()
	got := append([]any(nil), h.box...)
	h.mu.Unlock()
	h.wait()
	return got
}

type loopback struct {
	hub  *loopHub
	rank int
}

func (l *loopback) Rank() int      { return l.rank }
func (l *loopback) Size() int      { return l.hub.n }
func (l *loopback) Barrier() error { l.hub.wait(); return nil }

func (l *loopback) Exchange(send [][]byte) ([][]byte, error) {
	if len(send) != l.hub.n {
		return nil, fmt.Errorf("bsp: Exchange of %d buffers among %d processes", len(send), l.hub.n)
	}
	// Copies: a process reuses its send buffers in the next superstep.
	mine := make([][]byte, len(send))
	for d, b := range send {
		mine[d] = append([]byte(nil), b...)
	}
	got := l.hub.all(l.rank, mine)
	recv := make([][]byte, l.hub.n)
	for k, v := range got {
		recv[k] = v.([][]byte)[l.rank]
	}
	return recv, nil
}

func (l *loopback) Allgather(x []float64) ([]float64, error) {
	got := l.hub.all(l.rank, append([]float64(nil), x...))
	var out []float64
	for k, v := range got {
		y := v.([]float64)
		if len(y) != len(x) {
			return nil, fmt.Errorf("bsp: Allgather: process %d gave %d numbers, process %d %d", k, len(y), l.rank, len(x))
		}
		out = append(out, y...)
	}
	return out, nil
}

func (l *loopback) Gather(b []byte) ([][]byte, error) {
	got := l.hub.all(l.rank, append([]byte(nil), b...))
	if l.rank != 0 {
		return nil, nil
	}
	out := make([][]byte, len(got))
	for k, v := range got {
		out[k] = v.([]byte)
	}
	return out, nil
}

// errWire is wrapped by the errors of a malformed exchange buffer.
var errWire = errors.New("bsp: malformed message buffer")
