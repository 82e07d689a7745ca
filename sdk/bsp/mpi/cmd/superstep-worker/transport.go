package main

import (
	"encoding/binary"
	"fmt"
	"slices"

	"superstep/sdk/bsp/mpi"
)

// transport is bsp.Transport over MPI_COMM_WORLD: every call is one or two
// collectives, made from the engine's one goroutine (the binding's
// MPI_THREAD_SERIALIZED rule).
type transport struct {
	rank, size int
	// reused buffers
	counts, rcounts           []int64
	sc, sd, rc, rd            []int
	sendBuf, recvBuf          []byte
	recv                      [][]byte
	allIn, allOut             []float64
	lenBuf, lens              []byte
	gatherCounts, gatherDispl []int
}

func newTransport() *transport {
	n := mpi.Size()
	t := &transport{rank: mpi.Rank(), size: n, counts: make([]int64, n), rcounts: make([]int64, n),
		sc: make([]int, n), sd: make([]int, n), rc: make([]int, n), rd: make([]int, n), recv: make([][]byte, n),
		gatherCounts: make([]int, n), gatherDispl: make([]int, n)}
	return t
}

func (t *transport) Rank() int      { return t.rank }
func (t *transport) Size() int      { return t.size }
func (t *transport) Barrier() error { return mpi.Barrier() }

// Exchange sends the byte counts (MPI_Alltoall), then the bytes
// (MPI_Alltoallv) from one contiguous buffer into another.
func (t *transport) Exchange(send [][]byte) ([][]byte, error) {
	if len(send) != t.size {
		return nil, fmt.Errorf("%d buffers for %d ranks", len(send), t.size)
	}
	total := 0
	for d, b := range send {
		t.counts[d] = int64(len(b))
		t.sc[d], t.sd[d] = len(b), total
		total += len(b)
	}
	if err := mpi.AlltoallInt64(t.counts, t.rcounts); err != nil {
		return nil, err
	}
	t.sendBuf = slices.Grow(t.sendBuf[:0], total)[:total]
	for d, b := range send {
		copy(t.sendBuf[t.sd[d]:], b)
	}
	rtotal := 0
	for k, c := range t.rcounts {
		t.rc[k], t.rd[k] = int(c), rtotal
		rtotal += int(c)
	}
	t.recvBuf = slices.Grow(t.recvBuf[:0], rtotal)[:rtotal]
	if err := mpi.AlltoallvBytes(t.sendBuf, t.sc, t.sd, t.recvBuf, t.rc, t.rd); err != nil {
		return nil, err
	}
	for k := range t.recv {
		t.recv[k] = t.recvBuf[t.rd[k] : t.rd[k]+t.rc[k]]
	}
	return t.recv, nil
}

// Allgather is an Alltoallv in which every rank sends x to every rank.
func (t *transport) Allgather(x []float64) ([]float64, error) {
	n := len(x)
	for r := 0; r < t.size; r++ {
		t.sc[r], t.sd[r], t.rc[r], t.rd[r] = n, 0, n, r*n
	}
	t.allIn = append(t.allIn[:0], x...)
	t.allOut = slices.Grow(t.allOut[:0], n*t.size)[:n*t.size]
	if err := mpi.AlltoallvFloat64(t.allIn, t.sc, t.sd, t.allOut, t.rc, t.rd); err != nil {
		return nil, err
	}
	return t.allOut, nil
}

// Gather gathers the lengths (8 bytes from each rank), then the bytes.
func (t *transport) Gather(b []byte) ([][]byte, error) {
	t.lenBuf = binary.LittleEndian.AppendUint64(t.lenBuf[:0], uint64(len(b)))
	var lens []byte
	if t.rank == 0 {
		t.lens = slices.Grow(t.lens[:0], 8*t.size)[:8*t.size]
		lens = t.lens
		for r := 0; r < t.size; r++ {
			t.gatherCounts[r], t.gatherDispl[r] = 8, 8*r
		}
	}
	if err := mpi.GathervBytes(t.lenBuf, lens, t.gatherCounts, t.gatherDispl, 0); err != nil {
		return nil, err
	}
	var all []byte
	if t.rank == 0 {
		total := 0
		for r := 0; r < t.size; r++ {
			n := int(binary.LittleEndian.Uint64(lens[8*r:]))
			t.gatherCounts[r], t.gatherDispl[r] = n, total
			total += n
		}
		all = make([]byte, total)
	}
	if err := mpi.GathervBytes(b, all, t.gatherCounts, t.gatherDispl, 0); err != nil {
		return nil, err
	}
	if t.rank != 0 {
		return nil, nil
	}
	out := make([][]byte, t.size)
	for r := range out {
		out[r] = all[t.gatherDispl[r] : t.gatherDispl[r]+t.gatherCounts[r]]
	}
	return out, nil
}
