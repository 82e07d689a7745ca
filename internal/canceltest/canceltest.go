// Package canceltest checks, for the tests and benchmarks of the compiled
// algorithms, that a long call stops when its context is cancelled: it
// returns an error wrapping context.Canceled, promptly, and leaves no
// goroutine behind. It is internal and only for tests.
package canceltest

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Bound is the generous limit Check allows between the cancel and the
// return: a sanity bound, not a measurement (Measure measures).
const Bound = 10 * time.Second

// Measure calls call with a context that is cancelled after delay and
// returns the latency, the time from the cancel to the
// return (negative if call returned before the cancel). It also returns
// how many goroutines were left running above the count before the call,
// after waiting up to 5 s for them to end.
func Measure(delay time.Duration, call func(ctx context.Context) error) (latency time.Duration, leaked int, err error) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var cancelledAt atomic.Int64
	timer := time.AfterFunc(delay, func() {
		cancelledAt.Store(time.Now().UnixNano())
		cancel()
	})
	err = call(ctx)
	returned := time.Now()
	if !timer.Stop() {
		// The cancel has run or is running: wait for its time.
		for cancelledAt.Load() == 0 {
			runtime.Gosched()
		}
		latency = returned.Sub(time.Unix(0, cancelledAt.Load()))
	} else {
		latency = -1
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return latency, max(0, runtime.NumGoroutine()-before), err
}

// Check calls call with a context cancelled after delay and fails t unless
// call returned after the cancel, within Bound, with an error wrapping
// context.Canceled, and every goroutine it started has ended. It returns
// the latency between the cancel and the return.
func Check(t testing.TB, delay time.Duration, call func(ctx context.Context) error) time.Duration {
	t.Helper()
	latency, leaked, err := Measure(delay, call)
	switch {
	case latency < 0:
		t.Fatalf("returned before the cancel (err %v): give it more work", err)
	case !errors.Is(err, context.Canceled):
		t.Errorf("err %v, want one wrapping context.Canceled", err)
	case latency > Bound:
		t.Errorf("returned %v after the cancel", latency)
	}
	if leaked > 0 {
		t.Errorf("%d goroutines still running after the call", leaked)
	}
	return latency
}

// Benchmark calls call as Check does, b.N times, and reports the mean and
// the largest latency between the cancel and the return in milliseconds
// (metrics "ms/cancel" and "max-ms/cancel"). The time of a loop is mostly
// delay: run it with a small -benchtime count, such as -benchtime=5x.
func Benchmark(b *testing.B, delay time.Duration, call func(ctx context.Context) error) {
	b.Helper()
	var total, worst time.Duration
	n := 0
	for b.Loop() {
		l := Check(b, delay, call)
		total += l
		worst = max(worst, l)
		n++
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/cancel")
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms/cancel")
}
