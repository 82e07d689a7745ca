// Package parallel is Superstep's one worker pool: the compiled algorithms
// (Louvain, SFDP, the layout quality measures, the BSP engine) run the
// items of a loop, or chunks of them, on a fixed number of goroutines
// with it.
//
// Every worker has an index w in 0..Workers(workers, n)-1, so that a body
// can keep scratch state per worker in a slice indexed by w (For, Chunks)
// or have it made once per worker (Each). Items are handed out in
// increasing order, one at a time, to whichever worker is free; a body
// must therefore only write data of its own item or of its own worker,
// and a result that must not depend on the number of workers is combined
// by item afterwards, in item order.
//
// A context stops the loop: before taking each item a worker looks at
// ctx, and once it is cancelled no further item starts; the call waits
// for the items under way and returns ctx.Err(). A body that can run long
// looks at ctx itself. A panic in a body stops the loop the same way, and
// once every worker has stopped the call panics in the caller's goroutine
// with the original value (the first one, if several bodies panicked):
// the loop fails as it would have run sequentially, and a recover in the
// caller sees the value it expects. No goroutine outlives a call.
//
// The package is internal: notebook cells never see it (they call the
// algorithms that use it).
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines a loop of n items runs on when
// asked for workers: workers (GOMAXPROCS if workers ≤ 0), at most n, at
// least 1.
func Workers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, n))
}

// For calls body(w, i) for every item i in 0..n-1 on Workers(workers, n)
// goroutines; w is the index of the worker making the call. With one
// worker the items run in the caller's goroutine. It returns ctx.Err() if
// ctx was cancelled before every item had started (some items then never
// ran), nil otherwise; a panic in body is raised again in the caller.
func For(ctx context.Context, workers, n int, body func(w, i int)) error {
	if n <= 0 {
		return nil
	}
	done := ctx.Done()
	nw := Workers(workers, n)
	if nw == 1 {
		for i := 0; i < n; i++ {
			if cancelled(done) {
				return ctx.Err()
			}
			body(0, i)
		}
		return nil
	}
	var (
		next    atomic.Int64
		stop    atomic.Bool // a body panicked
		wg      sync.WaitGroup
		once    sync.Once
		failure any
		failed  bool
		stopped atomic.Bool // ctx was cancelled before the last item
	)
	for w := 0; w < nw; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { failure, failed = r, true })
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				if cancelled(done) {
					stopped.Store(true)
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				body(w, i)
			}
		}()
	}
	wg.Wait()
	if failed {
		panic(failure)
	}
	if stopped.Load() && int(next.Load()) < n {
		return ctx.Err()
	}
	return nil
}

// Chunks calls body(w, lo, hi) for the consecutive chunks [lo, hi) of
// 0..n-1 of size chunk (the last one may be shorter), as For does for
// items: a loop over many cheap items runs in chunks of about a
// millisecond of work each, which keeps both the hand-out overhead and
// the delay before a cancellation is noticed small.
func Chunks(ctx context.Context, workers, n, chunk int, body func(w, lo, hi int)) error {
	chunk = max(chunk, 1)
	chunks := (n + chunk - 1) / chunk
	return For(ctx, workers, chunks, func(w, c int) {
		body(w, c*chunk, min(n, (c+1)*chunk))
	})
}

// Each calls body(s, i) for every item i in 0..n-1 as For does, s being
// the scratch state of the worker making the call, made by newScratch
// when the worker takes its first item.
func Each[S any](ctx context.Context, workers, n int, newScratch func() S, body func(s S, i int)) error {
	nw := Workers(workers, n)
	scratch := make([]S, nw)
	made := make([]bool, nw)
	return For(ctx, nw, n, func(w, i int) {
		if !made[w] {
			scratch[w], made[w] = newScratch(), true
		}
		body(scratch[w], i)
	})
}

// cancelled reports whether done is closed, without blocking (a nil done,
// as context.Background has, never is).
func cancelled(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}
