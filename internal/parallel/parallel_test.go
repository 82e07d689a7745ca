package parallel

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestWorkers(t *testing.T) {
	for _, c := range []struct{ workers, n, want int }{
		{4, 10, 4}, {4, 2, 2}, {4, 0, 1}, {1, 10, 1}, {0, 1, 1}, {-3, 1, 1},
	} {
		if got := Workers(c.workers, c.n); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.workers, c.n, got, c.want)
		}
	}
	if got, want := Workers(0, 1<<20), runtime.GOMAXPROCS(0); got != want {
		t.Errorf("Workers(0, many) = %d, want GOMAXPROCS %d", got, want)
	}
}

// Every item runs exactly once, on a worker index in range, for any
// number of workers.
func TestForRunsEveryItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8, 100} {
		const n = 1000
		seen := make([]int32, n)
		var bad atomic.Int32
		nw := Workers(workers, n)
		err := For(context.Background(), workers, n, func(w, i int) {
			if w < 0 || w >= nw {
				bad.Add(1)
			}
			atomic.AddInt32(&seen[i], 1)
		})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if bad.Load() != 0 {
			t.Errorf("%d workers: worker index out of 0..%d", workers, nw-1)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%d workers: item %d ran %d times", workers, i, c)
			}
		}
	}
	if err := For(context.Background(), 4, 0, func(w, i int) { t.Error("ran an item of none") }); err != nil {
		t.Error(err)
	}
}

// Per-worker scratch is never shared: a worker's counter is only touched
// by one goroutine at a time, so the counts add up without atomics.
func TestForScratchPerWorker(t *testing.T) {
	const n = 100000
	nw := Workers(4, n)
	counts := make([]int, nw)
	if err := For(context.Background(), 4, n, func(w, i int) { counts[w]++ }); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	if total != n {
		t.Errorf("counted %d items, want %d", total, n)
	}
}

func TestChunks(t *testing.T) {
	const n, chunk = 1003, 100
	var covered [n]int32
	var chunks atomic.Int32
	err := Chunks(context.Background(), 3, n, chunk, func(w, lo, hi int) {
		chunks.Add(1)
		if hi-lo > chunk || lo >= hi {
			t.Errorf("chunk [%d, %d)", lo, hi)
		}
		for i := lo; i < hi; i++ {
			atomic.AddInt32(&covered[i], 1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if chunks.Load() != 11 {
		t.Errorf("%d chunks, want 11", chunks.Load())
	}
	for i, c := range covered {
		if c != 1 {
			t.Fatalf("item %d covered %d times", i, c)
		}
	}
}

func TestEachMakesScratchOncePerWorker(t *testing.T) {
	const n = 5000
	var made atomic.Int32
	sums := make([]int, n)
	err := Each(context.Background(), 3, n, func() *[]int {
		made.Add(1)
		s := make([]int, 1)
		return &s
	}, func(s *[]int, i int) {
		(*s)[0]++
		sums[i] = i * 2
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := made.Load(); m < 1 || m > 3 {
		t.Errorf("scratch made %d times for 3 workers", m)
	}
	for i, s := range sums {
		if s != 2*i {
			t.Fatalf("item %d: %d", i, s)
		}
	}
}

// A panic in a body reaches the caller with its original value, after
// every worker has stopped, for one worker and for several.
func TestForPanic(t *testing.T) {
	type marker struct{ item int }
	for _, workers := range []int{1, 4} {
		before := runtime.NumGoroutine()
		var ran atomic.Int32
		func() {
			defer func() {
				r := recover()
				m, ok := r.(marker)
				if !ok || m.item != 7 {
					t.Errorf("%d workers: recovered %v (%T), want marker{7}", workers, r, r)
				}
			}()
			_ = For(context.Background(), workers, 1000, func(w, i int) {
				ran.Add(1)
				if i == 7 {
					panic(marker{7})
				}
				time.Sleep(time.Millisecond) // the panic is seen long before every item ran
			})
			t.Errorf("%d workers: For returned after a panic", workers)
		}()
		if ran.Load() == 1000 {
			t.Errorf("%d workers: every item ran after the panic", workers)
		}
		waitGoroutines(t, before)
	}
}

// A cancelled context stops handing out items and For returns its error;
// no goroutine is left behind.
func TestForCancel(t *testing.T) {
	for _, workers := range []int{1, 4} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		var ran, late atomic.Int32
		var after atomic.Bool // cancel has returned
		err := For(ctx, workers, 1_000_000, func(w, i int) {
			if after.Load() {
				late.Add(1)
			}
			if ran.Add(1) == 100 {
				cancel()
				after.Store(true)
			}
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers: err %v, want context.Canceled", workers, err)
		}
		// The workers look before each item: at most one more item per
		// other worker starts once cancel has returned (items started
		// between the 100th and the cancel are not counted: under load
		// that gap can be long).
		if r, l := ran.Load(), late.Load(); r < 100 || l > int32(workers)-1 {
			t.Errorf("%d workers: %d items ran, %d of them after the cancel, want ≥ 100 and ≤ %d", workers, r, l, workers-1)
		}
		waitGoroutines(t, before)
		cancel()
	}
	// Cancelled after the last item started: nothing was skipped.
	ctx, cancel := context.WithCancel(context.Background())
	err := For(ctx, 2, 10, func(w, i int) {
		if i == 9 {
			cancel()
		}
	})
	if err != nil {
		t.Errorf("cancelled during the last item: %v, want nil", err)
	}
}

func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

func BenchmarkForOverhead(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sums := make([]int, 1024)
	for b.Loop() {
		_ = For(ctx, 0, len(sums), func(w, i int) { sums[i]++ })
	}
}
