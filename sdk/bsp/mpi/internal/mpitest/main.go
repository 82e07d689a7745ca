// Command mpitest exercises every call of superstep/sdk/bsp/mpi with known
// answers when started under mpirun; mpi_test.go builds it, runs it with
// 1, 2, 4 and 8 ranks and asserts on its output.
//
// Every rank prints lines "rank R ok NAME" or "rank R FAIL NAME: why";
// rank 0 ends with "ALL OK ranks=N" when no rank failed (counted with an
// Allreduce), or "FAILED n=K". Modes other than -mode=check exist to
// observe how the binding behaves under mpirun: bench (Alltoallv
// throughput), abort, block (waits to be signalled), truncate (a real MPI
// error from mismatched counts) and nilpanic (a recovered nil dereference
// after Init).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"superstep/sdk/bsp/mpi"
)

func main() {
	mode := flag.String("mode", "check", "check | bench | abort | block | truncate | nilpanic")
	benchBytes := flag.Int("bytes", 8<<20, "bench: bytes each rank sends per Alltoallv call")
	iters := flag.Int("iters", 20, "bench: timed Alltoallv calls")
	flag.Parse()
	if err := mpi.Init(); err != nil {
		fmt.Fprintln(os.Stderr, "init:", err)
		os.Exit(2)
	}
	var code int
	switch *mode {
	case "check":
		code = check()
	case "bench":
		code = bench(*benchBytes, *iters)
	case "abort":
		code = abort()
	case "block":
		code = block()
	case "truncate":
		code = truncate()
	case "nilpanic":
		code = nilPanic()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		code = 2
	}
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, "finalize:", err)
		code = 2
	}
	os.Exit(code)
}

// t records the outcome of the named checks of one rank.
type t struct {
	rank  int
	fails int
}

func (c *t) ok(name string, good bool, why string, args ...any) {
	if good {
		fmt.Printf("rank %d ok %s\n", c.rank, name)
		return
	}
	c.fails++
	fmt.Printf("rank %d FAIL %s: %s\n", c.rank, name, fmt.Sprintf(why, args...))
}

func (c *t) noErr(name string, err error) bool {
	if err != nil {
		c.ok(name, false, "%v", err)
		return false
	}
	return true
}

// blockLen is the number of bytes rank r sends to rank d in the Alltoallv
// check: 0 to 3, so some blocks are empty.
func blockLen(r, d int) int { return (3*r + d) % 4 }

// blockByte is the byte rank r fills its block for rank d with.
func blockByte(r, d int) byte { return byte(16*r + d) }

func check() int {
	r, n := mpi.Rank(), mpi.Size()
	c := &t{rank: r}
	c.ok("rank-size", r >= 0 && r < n && n > 0, "rank %d size %d", r, n)
	host, err := mpi.ProcessorName()
	if c.noErr("processor-name", err) {
		c.ok("processor-name", host != "", "empty name")
		fmt.Printf("rank %d host %s\n", r, host)
	}

	t0 := mpi.Wtime()
	time.Sleep(20 * time.Millisecond)
	dt := mpi.Wtime() - t0
	c.ok("wtime", dt >= 0.019 && dt < 1, "20 ms sleep measured as %g s", dt)

	c.noErr("barrier", mpi.Barrier())
	c.ok("barrier", true, "")

	// Reductions: sums of ranks and friends, known in closed form.
	fn := float64(n)
	in := []int64{int64(r), int64(r), int64(r), 1, 0}
	out := make([]int64, 5)
	wantSum := int64(n * (n - 1) / 2)
	if c.noErr("allreduce-int64-sum", mpi.AllreduceInt64(in, out, mpi.Sum)) {
		c.ok("allreduce-int64-sum", out[0] == wantSum && out[3] == int64(n) && out[4] == 0, "got %v, want sum %d", out, wantSum)
	}
	if c.noErr("allreduce-int64-min", mpi.AllreduceInt64(in[:1], out[:1], mpi.Min)) {
		c.ok("allreduce-int64-min", out[0] == 0, "got %d", out[0])
	}
	if c.noErr("allreduce-int64-max", mpi.AllreduceInt64(in[:1], out[:1], mpi.Max)) {
		c.ok("allreduce-int64-max", out[0] == int64(n-1), "got %d", out[0])
	}
	// Vote: every rank halted (1) → 1; the last rank still active (0) → 0.
	vote := []int64{1, 1, 0, 7}
	if r == n-1 {
		vote[1] = 0
	}
	if c.noErr("allreduce-land", mpi.AllreduceInt64(vote, out[:4], mpi.LogicalAnd)) {
		c.ok("allreduce-land", out[0] == 1 && out[1] == 0 && out[2] == 0 && out[3] == 1, "got %v, want [1 0 0 1]", out[:4])
	}
	if c.noErr("allreduce-lor", mpi.AllreduceInt64(vote, out[:4], mpi.LogicalOr)) {
		// Another rank than the last votes 1 in column 1 only when n > 1.
		lor1 := int64(0)
		if n > 1 {
			lor1 = 1
		}
		c.ok("allreduce-lor", out[0] == 1 && out[1] == lor1 && out[2] == 0 && out[3] == 1, "got %v, want [1 %d 0 1]", out[:4], lor1)
	}
	inplace := []int64{int64(r + 1), int64(r * r)}
	if c.noErr("allreduce-inplace", mpi.AllreduceInt64(inplace, inplace, mpi.Sum)) {
		// 1+…+n and 0²+…+(n-1)².
		c.ok("allreduce-inplace", inplace[0] == int64(n*(n+1)/2) && inplace[1] == int64((n-1)*n*(2*n-1)/6), "got %v", inplace)
	}
	fin := []float64{float64(r) + 0.5, -float64(r), float64(r) / 4}
	fout := make([]float64, 3)
	if c.noErr("allreduce-float64-sum", mpi.AllreduceFloat64(fin, fout, mpi.Sum)) {
		want := float64(wantSum) + fn/2
		c.ok("allreduce-float64-sum", fout[0] == want && fout[1] == -float64(wantSum), "got %v, want %g, %g", fout, want, -float64(wantSum))
	}
	if c.noErr("allreduce-float64-min", mpi.AllreduceFloat64(fin, fout, mpi.Min)) {
		c.ok("allreduce-float64-min", fout[0] == 0.5 && fout[1] == -float64(n-1) && fout[2] == 0, "got %v", fout)
	}
	if c.noErr("allreduce-float64-max", mpi.AllreduceFloat64(fin, fout, mpi.Max)) {
		c.ok("allreduce-float64-max", fout[0] == float64(n)-0.5 && fout[1] == 0 && fout[2] == float64(n-1)/4, "got %v", fout)
	}
	c.noErr("allreduce-empty", mpi.AllreduceFloat64(nil, nil, mpi.Sum))
	c.ok("allreduce-empty", true, "")

	// Alltoall: rank r sends r*100+d to rank d, so it receives s*100+r from s.
	send := make([]int64, n)
	recv := make([]int64, n)
	for d := range n {
		send[d] = int64(r*100 + d)
	}
	if c.noErr("alltoall-int64", mpi.AlltoallInt64(send, recv)) {
		good := true
		for s := range n {
			good = good && recv[s] == int64(s*100+r)
		}
		c.ok("alltoall-int64", good, "got %v", recv)
	}

	checkAlltoallvBytes(c, r, n)
	checkAlltoallvFloat64(c, r, n)

	// Every count zero, nil buffers: an empty superstep.
	zeros := make([]int, n)
	c.noErr("alltoallv-empty", mpi.AlltoallvBytes(nil, zeros, zeros, nil, zeros, zeros))
	c.ok("alltoallv-empty", true, "")

	checkGatherv(c, r, n)
	checkBadArgs(c, n)

	// Count failures over all ranks.
	f := []int64{int64(c.fails)}
	if err := mpi.AllreduceInt64(f, f, mpi.Sum); err != nil {
		fmt.Printf("rank %d FAIL final-reduce: %v\n", r, err)
		return 1
	}
	if r == 0 {
		if f[0] == 0 {
			fmt.Printf("ALL OK ranks=%d\n", n)
		} else {
			fmt.Printf("FAILED n=%d\n", f[0])
		}
	}
	if f[0] != 0 {
		return 1
	}
	return 0
}

func checkAlltoallvBytes(c *t, r, n int) {
	// Pack the blocks for ranks 0..n-1 in order.
	sc, sd := make([]int, n), make([]int, n)
	var send []byte
	for d := range n {
		sc[d], sd[d] = blockLen(r, d), len(send)
		send = append(send, bytes.Repeat([]byte{blockByte(r, d)}, blockLen(r, d))...)
	}
	// Exchange the counts first, as an engine would.
	sc64, rc64 := make([]int64, n), make([]int64, n)
	for d := range n {
		sc64[d] = int64(sc[d])
	}
	if !c.noErr("alltoallv-bytes-counts", mpi.AlltoallInt64(sc64, rc64)) {
		return
	}
	rc, rd := make([]int, n), make([]int, n)
	total := 0
	for s := range n {
		rc[s] = int(rc64[s])
		if rc[s] != blockLen(s, r) {
			c.ok("alltoallv-bytes-counts", false, "count from %d is %d, want %d", s, rc[s], blockLen(s, r))
			return
		}
		total += rc[s]
	}
	c.ok("alltoallv-bytes-counts", true, "")
	// Receive in reverse rank order, so displacements are not a prefix sum of
	// the ranks: rank n-1's block first.
	off := 0
	for s := n - 1; s >= 0; s-- {
		rd[s] = off
		off += rc[s]
	}
	recv := make([]byte, total)
	if !c.noErr("alltoallv-bytes", mpi.AlltoallvBytes(send, sc, sd, recv, rc, rd)) {
		return
	}
	for s := range n {
		want := bytes.Repeat([]byte{blockByte(s, r)}, blockLen(s, r))
		if got := recv[rd[s] : rd[s]+rc[s]]; !bytes.Equal(got, want) {
			c.ok("alltoallv-bytes", false, "block from %d is %v, want %v", s, got, want)
			return
		}
	}
	c.ok("alltoallv-bytes", true, "")
}

func checkAlltoallvFloat64(c *t, r, n int) {
	// Rank r sends d+1 values r*100+d+k/2 (k = 0..d) to rank d, so it
	// receives r+1 values s*100+r+k/2 from rank s.
	sc, sd := make([]int, n), make([]int, n)
	var send []float64
	for d := range n {
		sc[d], sd[d] = d+1, len(send)
		for k := range d + 1 {
			send = append(send, float64(r*100+d)+float64(k)/2)
		}
	}
	rc, rd := make([]int, n), make([]int, n)
	for s := range n {
		rc[s], rd[s] = r+1, s*(r+1)
	}
	recv := make([]float64, n*(r+1))
	for i := range recv {
		recv[i] = math.NaN()
	}
	if !c.noErr("alltoallv-float64", mpi.AlltoallvFloat64(send, sc, sd, recv, rc, rd)) {
		return
	}
	for s := range n {
		for k := range r + 1 {
			if got, want := recv[s*(r+1)+k], float64(s*100+r)+float64(k)/2; got != want {
				c.ok("alltoallv-float64", false, "value %d from %d is %g, want %g", k, s, got, want)
				return
			}
		}
	}
	c.ok("alltoallv-float64", true, "")
}

func checkGatherv(c *t, r, n int) {
	// Rank s sends s bytes 'a'+s (rank 0 sends nothing) to root n-1, which
	// receives them in rank order: "" "b" "cc" "ddd" …
	root := n - 1
	send := bytes.Repeat([]byte{byte('a' + r)}, r)
	var recv []byte
	var counts, displs []int
	var want []byte
	if r == root {
		counts, displs = make([]int, n), make([]int, n)
		for s := range n {
			counts[s], displs[s] = s, len(want)
			want = append(want, bytes.Repeat([]byte{byte('a' + s)}, s)...)
		}
		recv = make([]byte, len(want))
	}
	if !c.noErr("gatherv-bytes", mpi.GathervBytes(send, recv, counts, displs, root)) {
		return
	}
	c.ok("gatherv-bytes", r != root || bytes.Equal(recv, want), "root got %q, want %q", recv, want)

	// Gather host names to rank 0, each in a fixed 256-byte slot.
	host, _ := mpi.ProcessorName()
	slot := make([]byte, 256)
	copy(slot, host)
	if r == 0 {
		counts, displs = make([]int, n), make([]int, n)
		for s := range n {
			counts[s], displs[s] = 256, 256*s
		}
		recv = make([]byte, 256*n)
	}
	if !c.noErr("gatherv-hosts", mpi.GathervBytes(slot, recv, counts, displs, 0)) {
		return
	}
	if r == 0 {
		good := true
		for s := range n {
			good = good && string(bytes.TrimRight(recv[256*s:256*(s+1)], "\x00")) == host
		}
		c.ok("gatherv-hosts", good, "hosts differ from rank 0's %q", host)
	} else {
		c.ok("gatherv-hosts", true, "")
	}
}

// checkBadArgs makes sure wrong arguments come back as Go errors, before
// MPI is called, on every rank alike (so no collective is left half-entered).
func checkBadArgs(c *t, n int) {
	var e *mpi.Error
	goErr := func(name string, err error) {
		c.ok(name, err != nil && !errors.As(err, &e), "want a Go argument error, got %v", err)
	}
	goErr("bad-reduce-lengths", mpi.AllreduceInt64(make([]int64, 2), make([]int64, 3), mpi.Sum))
	goErr("bad-reduce-op-float", mpi.AllreduceFloat64([]float64{1}, make([]float64, 1), mpi.LogicalAnd))
	goErr("bad-reduce-op", mpi.AllreduceInt64([]int64{1}, make([]int64, 1), mpi.Op(42)))
	buf := make([]int64, 4)
	goErr("bad-reduce-overlap", mpi.AllreduceInt64(buf[:3], buf[1:], mpi.Sum))
	goErr("bad-alltoall-length", mpi.AlltoallInt64(make([]int64, n+1), make([]int64, n+1)))
	ones := make([]int, n)
	for i := range ones {
		ones[i] = 1
	}
	zeros := make([]int, n)
	goErr("bad-alltoallv-counts-length", mpi.AlltoallvBytes(nil, make([]int, n+1), make([]int, n+1), nil, zeros, zeros))
	neg := make([]int, n)
	neg[0] = -1
	goErr("bad-alltoallv-negative", mpi.AlltoallvBytes(nil, neg, zeros, nil, zeros, zeros))
	goErr("bad-alltoallv-past-buffer", mpi.AlltoallvBytes(make([]byte, n-1), ones, iota(n), make([]byte, n), ones, iota(n)))
	big := make([]int, n)
	big[0] = math.MaxInt32 + 1
	goErr("bad-alltoallv-int32", mpi.AlltoallvBytes(nil, zeros, big, nil, zeros, zeros))
	same := make([]byte, n)
	goErr("bad-alltoallv-alias", mpi.AlltoallvBytes(same, ones, iota(n), same, ones, iota(n)))
	goErr("bad-gatherv-root", mpi.GathervBytes(nil, nil, nil, nil, n))
}

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// bench times Alltoallv with perRank bytes sent by every rank, split
// evenly over the ranks (itself included).
func bench(perRank, iters int) int {
	r, n := mpi.Rank(), mpi.Size()
	block := perRank / n
	sc, sd := make([]int, n), make([]int, n)
	for d := range n {
		sc[d], sd[d] = block, d*block
	}
	send := make([]byte, block*n)
	recv := make([]byte, block*n)
	for d := range n {
		for i := range block {
			send[d*block+i] = byte(r*31 + d + i)
		}
	}
	// One untimed call that is checked, then iters timed ones.
	if err := mpi.AlltoallvBytes(send, sc, sd, recv, sc, sd); err != nil {
		fmt.Println("bench:", err)
		return 1
	}
	for s := range n {
		for _, i := range []int{0, block / 2, block - 1} {
			if recv[s*block+i] != byte(s*31+r+i) {
				fmt.Printf("rank %d FAIL bench: byte %d from %d wrong\n", r, i, s)
				return 1
			}
		}
	}
	if err := mpi.Barrier(); err != nil {
		fmt.Println("bench:", err)
		return 1
	}
	t0 := mpi.Wtime()
	for range iters {
		if err := mpi.AlltoallvBytes(send, sc, sd, recv, sc, sd); err != nil {
			fmt.Println("bench:", err)
			return 1
		}
	}
	el := []float64{mpi.Wtime() - t0}
	if err := mpi.AllreduceFloat64(el, el, mpi.Max); err != nil {
		fmt.Println("bench:", err)
		return 1
	}
	if r == 0 {
		per := el[0] / float64(iters)
		sent := float64(block * n)
		fmt.Printf("BENCH ranks=%d bytes_per_rank=%d iters=%d sec_per_call=%.6f GBps_per_rank=%.3f GBps_total=%.3f\n",
			n, block*n, iters, per, sent/per/1e9, sent*float64(n)/per/1e9)
	}
	return 0
}

// abort: the last rank aborts the job with code 7 while the others wait in
// a barrier that never completes.
func abort() int {
	r, n := mpi.Rank(), mpi.Size()
	fmt.Printf("rank %d ready pid %d\n", r, os.Getpid())
	if r == n-1 {
		time.Sleep(200 * time.Millisecond)
		mpi.Abort(7)
	}
	_ = mpi.Barrier()
	return 0
}

// block: every rank prints its pid and waits in a barrier that rank 0
// never enters, until mpirun is signalled.
func block() int {
	r := mpi.Rank()
	fmt.Printf("rank %d ready pid %d\n", r, os.Getpid())
	if r == 0 {
		time.Sleep(time.Hour)
	}
	_ = mpi.Barrier()
	return 0
}

// truncate: rank s sends 10 bytes to root 0, which expects 5 from each rank
// but itself; MPI must report MPI_ERR_TRUNCATE through MPI_ERRORS_RETURN.
func truncate() int {
	r, n := mpi.Rank(), mpi.Size()
	send := make([]byte, 10)
	if r == 0 {
		send = send[:5]
	}
	var recv []byte
	var counts, displs []int
	if r == 0 {
		counts, displs = make([]int, n), make([]int, n)
		for s := range n {
			counts[s], displs[s] = 5, 5*s
		}
		recv = make([]byte, 5*n)
	}
	err := mpi.GathervBytes(send, recv, counts, displs, 0)
	var e *mpi.Error
	if errors.As(err, &e) {
		fmt.Printf("rank %d mpi-error call=%s code=%d class=%d text=%q\n", r, e.Call, e.Code, e.Class, e.Text)
	} else {
		fmt.Printf("rank %d result %v\n", r, err)
	}
	return 0
}

// nilPanic dereferences a nil pointer after Init and recovers: Go's
// SIGSEGV handler must still be in place.
func nilPanic() int {
	defer func() {
		fmt.Printf("rank %d recovered: %v\n", mpi.Rank(), recover())
	}()
	var p *int
	fmt.Println(*p)
	return 1
}
