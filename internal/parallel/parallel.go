// Package parallel is Superstep's one worker pool: the compiled algorithms
// (Louvain, SFDP, the layout quality measures, the BSP engine) and the
// trace and counter readers run the items of a loop, or chunks of them,
// on a fixed number of goroutines with it.
//
// Every worker has an index w in 0..Workers(workers, n)-1, so that a body
// can keep scratch state per worker in a slice indexed by w (For, Chunks,
// ForErr, Ordered) or have it made once per worker (Each). Items are
// handed out in increasing order, one at a time, to whichever worker is
// free; a body must therefore only write data of its own item or of its
// own worker, and a result that must not depend on the number of workers
// is combined by item afterwards, in item order.
//
// Four shapes of loop share these rules:
//
//   - For (and Chunks, Each over it): every item runs; nothing fails.
//   - ForErr: a body may fail. Once an item has failed no further item
//     starts, and the call returns the error of the lowest failed item,
//     the one a sequential loop would have stopped at: which error comes
//     back depends neither on the number of workers nor on timing.
//   - Ordered: work in parallel, consume in order. Workers produce the
//     items' results; the caller's goroutine consumes them in item order,
//     each as soon as it and every item before it are done, and at most
//     a window of items is produced ahead of the consumer, which bounds
//     the memory held by results not yet consumed (and lets a consumer
//     hand buffers back for later items to reuse). The first error in
//     item order, a producer's or the consumer's, stops the loop.
//
// A context stops the loop: before taking each item a worker looks at
// ctx, and once it is cancelled no further item starts; the call waits
// for the items under way and returns ctx.Err(). A body that can run long
// looks at ctx itself. A panic in a body stops the loop the same way, and
// once every worker has stopped the call panics in the caller's goroutine
// with the original value (the first one, if several bodies panicked):
// the loop fails as it would have run sequentially, and a recover in the
// caller sees the value it expects. No goroutine outlives a call. This is
// why no package runs a pool of its own: a panic in a bare goroutine ends
// the process (the whole Jupyter kernel) where the kernel's recover
// around a cell cannot see it.
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
		stopped atomic.Bool // ctx was cancelled before the last item
		c       crew
	)
	c.start(nw, func() { stop.Store(true) }, func(w int) {
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
	})
	c.wait()
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

// ForErr calls body(w, i) for every item i in 0..n-1 as For does, body
// returning an error. Once an item has failed no further item starts;
// items are handed out in increasing order, so every item before a failed
// one has started, and runs to its end. The call then returns the error
// of the lowest failed item: the error a sequential loop stopping at its
// first error returns, whatever the number of workers and whichever item
// failed first in time. Without a failed item it returns ctx.Err() if ctx
// was cancelled before every item had started, nil otherwise; a panic in
// body is raised again in the caller.
func ForErr(ctx context.Context, workers, n int, body func(w, i int) error) error {
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
			if err := body(0, i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next     atomic.Int64
		stop     atomic.Bool // a body failed or panicked
		stopped  atomic.Bool // ctx was cancelled before the last item
		mu       sync.Mutex
		first    = n // the lowest failed item, n if none
		firstErr error
		c        crew
	)
	c.start(nw, func() { stop.Store(true) }, func(w int) {
		for !stop.Load() {
			if cancelled(done) {
				stopped.Store(true)
				return
			}
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if err := body(w, i); err != nil {
				mu.Lock()
				if i < first {
					first, firstErr = i, err
				}
				mu.Unlock()
				stop.Store(true)
			}
		}
	})
	c.wait()
	if firstErr != nil {
		return firstErr
	}
	if stopped.Load() && int(next.Load()) < n {
		return ctx.Err()
	}
	return nil
}

// Ordered runs work(w, i) for every item i in 0..n-1 on Workers(workers,
// n) goroutines (at most window of them) and hands each result to
// consume(i, r) in the caller's goroutine, in item order, as soon as item
// i and every item before it are done. At most window items (at least 1)
// are under way or done but not yet consumed: item i starts only once
// consume has returned for item i−window, so results waiting for the
// consumer never number more than window, and whatever consume releases
// for item i−window (a buffer back to a pool) is there for item i. With
// one worker the items run and are consumed in turn in the caller's
// goroutine.
//
// The first error in item order stops the loop and is returned: work's
// error for item i, or consume's for item i, once every item before i was
// consumed without error. After a failed item no further item starts;
// items before it still run and are consumed. If ctx is cancelled, no
// further item starts or is consumed and Ordered returns ctx.Err() (an
// item's result then goes unconsumed). A panic in work or in consume is
// raised again in the caller once every worker has stopped. No result is
// kept after it is consumed or the call returns.
func Ordered[R any](ctx context.Context, workers, n, window int, work func(w, i int) (R, error), consume func(i int, r R) error) (err error) {
	if n <= 0 {
		return nil
	}
	done := ctx.Done()
	window = min(max(window, 1), n)
	nw := min(Workers(workers, n), window)
	if nw == 1 {
		for i := 0; i < n; i++ {
			if cancelled(done) {
				return ctx.Err()
			}
			r, err := work(0, i)
			if cancelled(done) {
				return ctx.Err()
			}
			if err != nil {
				return err
			}
			if err := consume(i, r); err != nil {
				return err
			}
		}
		return nil
	}
	// Item i's result goes to ring[i%window]: item i starts after item
	// i−window was consumed, so a slot holds one item at a time and its
	// ready channel (1 buffered) never blocks the worker sending on it.
	// A worker takes a token from tokens (holds one in it) before taking
	// an item, and the consumer gives one back per item consumed.
	type slot struct {
		r     R
		err   error
		ready chan struct{}
	}
	ring := make([]slot, window)
	for k := range ring {
		ring[k].ready = make(chan struct{}, 1)
	}
	tokens := make(chan struct{}, window)
	quit := make(chan struct{}) // closed once a worker panicked or the consumer is done
	closeQuit := sync.OnceFunc(func() { close(quit) })
	var (
		next atomic.Int64
		stop atomic.Bool // an item failed or a worker panicked
		c    crew
	)
	c.start(nw, func() { stop.Store(true); closeQuit() }, func(w int) {
		for {
			select {
			case tokens <- struct{}{}:
			case <-quit:
				return
			case <-done:
				return
			}
			if stop.Load() || cancelled(quit) || cancelled(done) {
				return
			}
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			r, err := work(w, i)
			s := &ring[i%window]
			s.r, s.err = r, err
			if err != nil {
				stop.Store(true)
			}
			s.ready <- struct{}{}
		}
	})
	finished := false
	defer func() {
		if !finished { // consume panicked: stop the workers, let the panic go on
			closeQuit()
			c.wg.Wait()
		}
	}()
	err = func() error {
		var zero R
		for i := 0; i < n; i++ {
			if cancelled(done) {
				return ctx.Err()
			}
			s := &ring[i%window]
			select {
			case <-s.ready:
			case <-quit:
				return nil // a worker panicked: c.wait raises it
			case <-done:
				return ctx.Err()
			}
			r, err := s.r, s.err
			s.r, s.err = zero, nil
			if err != nil {
				return err
			}
			if err := consume(i, r); err != nil {
				return err
			}
			<-tokens
		}
		return nil
	}()
	finished = true
	closeQuit()
	c.wait()
	return err
}

// crew is the goroutines of one call, with the panic guard: a panic in a
// worker is kept (the first one), onPanic tells the others to stop, and
// wait raises it again in the caller once every worker has returned.
type crew struct {
	wg      sync.WaitGroup
	once    sync.Once
	failure any
	failed  bool
}

// start runs worker(w) for w in 0..nw-1, each on its own goroutine.
func (c *crew) start(nw int, onPanic func(), worker func(w int)) {
	for w := 0; w < nw; w++ {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer func() {
				if r := recover(); r != nil {
					c.once.Do(func() { c.failure, c.failed = r, true })
					onPanic()
				}
			}()
			worker(w)
		}()
	}
}

// wait waits for every worker and panics with the first worker's panic
// value, if one panicked.
func (c *crew) wait() {
	c.wg.Wait()
	if c.failed {
		panic(c.failure)
	}
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
