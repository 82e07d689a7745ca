package parallel

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// itemError is the error of one item, so that a test knows which item's
// error came back.
type itemError struct{ item int }

func (e itemError) Error() string { return fmt.Sprintf("item %d failed", e.item) }

// marker is a panic value a test recognises.
type marker struct{ item int }

// TestForErr: the error is the lowest failed item's, even when a later
// item fails long before it; without failures every item runs once.
func TestForErr(t *testing.T) {
	cases := []struct {
		name string
		n    int
		// fail maps a failing item to how long it works before failing.
		fail map[int]time.Duration
		want int // the item whose error comes back, −1 for nil
	}{
		{"none", 200, nil, -1},
		{"one", 200, map[int]time.Duration{17: 0}, 17},
		{"first item", 200, map[int]time.Duration{0: 0}, 0},
		{"last item", 200, map[int]time.Duration{199: 0}, 199},
		{"later fails first", 200, map[int]time.Duration{3: 30 * time.Millisecond, 5: 0}, 3},
		{"three", 200, map[int]time.Duration{60: 20 * time.Millisecond, 61: 0, 150: 0}, 60},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%s/%d workers", c.name, workers), func(t *testing.T) {
				before := runtime.NumGoroutine()
				ran := make([]int32, c.n)
				nw := Workers(workers, c.n)
				var badW atomic.Int32
				err := ForErr(context.Background(), workers, c.n, func(w, i int) error {
					if w < 0 || w >= nw {
						badW.Add(1)
					}
					atomic.AddInt32(&ran[i], 1)
					if d, ok := c.fail[i]; ok {
						time.Sleep(d)
						return itemError{i}
					}
					return nil
				})
				if badW.Load() != 0 {
					t.Errorf("worker index out of 0..%d", nw-1)
				}
				if c.want < 0 {
					if err != nil {
						t.Fatalf("error %v, want nil", err)
					}
				} else if ie, ok := err.(itemError); !ok || ie.item != c.want {
					t.Fatalf("error %v, want item %d's", err, c.want)
				}
				for i, r := range ran {
					if r > 1 {
						t.Fatalf("item %d ran %d times", i, r)
					}
					// Every item before the failed one runs; without a
					// failure, every item.
					if r == 0 && (c.want < 0 || i < c.want) {
						t.Fatalf("item %d did not run", i)
					}
				}
				waitGoroutines(t, before)
			})
		}
	}
}

// TestForErrStopsEarly: after a failure, items need not start: with the
// failed item early and the others slow, most never run.
func TestForErrStopsEarly(t *testing.T) {
	for _, workers := range []int{1, 4} {
		const n = 10000
		var ran atomic.Int32
		err := ForErr(context.Background(), workers, n, func(w, i int) error {
			ran.Add(1)
			if i == 5 {
				return itemError{5}
			}
			time.Sleep(10 * time.Microsecond)
			return nil
		})
		if ie, ok := err.(itemError); !ok || ie.item != 5 {
			t.Errorf("%d workers: error %v, want item 5's", workers, err)
		}
		// The workers look before each item: at most one more item per
		// worker starts after the one that failed ends.
		if r := ran.Load(); r > 6+2*int32(workers) {
			t.Errorf("%d workers: %d items ran after item 5 failed", workers, r)
		}
	}
}

func TestForErrPanic(t *testing.T) {
	for _, workers := range []int{1, 4} {
		before := runtime.NumGoroutine()
		var ran atomic.Int32
		func() {
			defer func() {
				r := recover()
				if m, ok := r.(marker); !ok || m.item != 7 {
					t.Errorf("%d workers: recovered %v (%T), want marker{7}", workers, r, r)
				}
			}()
			_ = ForErr(context.Background(), workers, 1000, func(w, i int) error {
				ran.Add(1)
				if i == 7 {
					panic(marker{7})
				}
				time.Sleep(time.Millisecond) // the panic is seen long before every item ran
				return nil
			})
			t.Errorf("%d workers: ForErr returned after a panic", workers)
		}()
		if ran.Load() == 1000 {
			t.Errorf("%d workers: every item ran after the panic", workers)
		}
		waitGoroutines(t, before)
	}
}

func TestForErrCancel(t *testing.T) {
	for _, workers := range []int{1, 4} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		var ran, late atomic.Int32
		var after atomic.Bool // cancel has returned
		err := ForErr(ctx, workers, 1_000_000, func(w, i int) error {
			if after.Load() {
				late.Add(1)
			}
			if ran.Add(1) == 100 {
				cancel()
				after.Store(true)
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers: err %v, want context.Canceled", workers, err)
		}
		// At most one more item per other worker starts once cancel has
		// returned.
		if r, l := ran.Load(), late.Load(); r < 100 || l > int32(workers)-1 {
			t.Errorf("%d workers: %d items ran, %d of them after the cancel, want ≥ 100 and ≤ %d", workers, r, l, workers-1)
		}
		waitGoroutines(t, before)
		cancel()
	}
	// An item's error wins over the cancellation it came with: the loop
	// stopped at that item, as a sequential one would have.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := ForErr(ctx, 4, 1000, func(w, i int) error {
		if i == 10 {
			cancel()
			return itemError{10}
		}
		return nil
	})
	if ie, ok := err.(itemError); !ok || ie.item != 10 {
		t.Errorf("error %v, want item 10's", err)
	}
	if err := ForErr(context.Background(), 4, 0, func(w, i int) error { return itemError{i} }); err != nil {
		t.Errorf("no items: %v", err)
	}
}

// TestOrdered: consume sees every item once, in order, with its own
// result, whatever the workers, the window and the items' durations.
func TestOrdered(t *testing.T) {
	for _, c := range []struct{ workers, n, window int }{
		{1, 50, 1}, {1, 50, 10}, {2, 50, 1}, {2, 50, 2}, {3, 200, 7},
		{4, 200, 9}, {8, 30, 100}, {8, 5, 3}, {4, 1, 4}, {0, 64, 0},
	} {
		t.Run(fmt.Sprintf("%d workers %d items window %d", c.workers, c.n, c.window), func(t *testing.T) {
			before := runtime.NumGoroutine()
			var got []int
			err := Ordered(context.Background(), c.workers, c.n, c.window,
				func(w, i int) (int, error) {
					// Later items are often faster than earlier ones.
					time.Sleep(time.Duration((c.n-i)%5) * 50 * time.Microsecond)
					return i * i, nil
				},
				func(i int, r int) error {
					if r != i*i {
						t.Errorf("item %d: result %d, want %d", i, r, i*i)
					}
					got = append(got, i)
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.n {
				t.Fatalf("consumed %d items, want %d", len(got), c.n)
			}
			for k, i := range got {
				if i != k {
					t.Fatalf("consumed item %d in place %d", i, k)
				}
			}
			waitGoroutines(t, before)
		})
	}
	if err := Ordered(context.Background(), 4, 0, 4,
		func(w, i int) (int, error) { return 0, itemError{i} },
		func(i, r int) error { return itemError{i} }); err != nil {
		t.Errorf("no items: %v", err)
	}
}

// TestOrderedFirstError: the error returned is the first in item order,
// work's or consume's, though a later item fails sooner; items before it
// are all consumed, none after it.
func TestOrderedFirstError(t *testing.T) {
	type fail struct {
		item  int
		after time.Duration
	}
	cases := []struct {
		name        string
		workFail    []fail // items whose work fails, after a delay
		consumeFail int    // item whose consume fails, −1 none
		want        itemError
		wantConsume bool // the error is consume's
	}{
		{"later work fails sooner", []fail{{10, 30 * time.Millisecond}, {40, 0}}, -1, itemError{10}, false},
		{"consume before work", []fail{{20, 0}}, 7, itemError{7}, true},
		{"work before consume", []fail{{5, 20 * time.Millisecond}}, 8, itemError{5}, false},
		{"first item", []fail{{0, 10 * time.Millisecond}, {1, 0}}, -1, itemError{0}, false},
		{"consume only", nil, 33, itemError{33}, true},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2, 4} {
			for _, window := range []int{1, 3, 16, 100} {
				t.Run(fmt.Sprintf("%s/%d workers window %d", c.name, workers, window), func(t *testing.T) {
					before := runtime.NumGoroutine()
					const n = 60
					var consumed []int
					err := Ordered(context.Background(), workers, n, window,
						func(w, i int) (int, error) {
							for _, f := range c.workFail {
								if f.item == i {
									time.Sleep(f.after)
									return 0, itemError{i}
								}
							}
							return i, nil
						},
						func(i, r int) error {
							consumed = append(consumed, i)
							if i == c.consumeFail {
								return consumeError{itemError{i}}
							}
							return nil
						})
					var ce consumeError
					isConsume := errors.As(err, &ce)
					var ie itemError
					if !errors.As(err, &ie) || ie != c.want || isConsume != c.wantConsume {
						t.Fatalf("error %v, want %v (consume's: %v)", err, c.want, c.wantConsume)
					}
					wantConsumed := c.want.item
					if c.wantConsume {
						wantConsumed++ // consume ran for the failing item
					}
					if len(consumed) != wantConsumed {
						t.Fatalf("consumed %d items, want %d", len(consumed), wantConsumed)
					}
					for k, i := range consumed {
						if i != k {
							t.Fatalf("consumed item %d in place %d", i, k)
						}
					}
					waitGoroutines(t, before)
				})
			}
		}
	}
}

type consumeError struct{ itemError }

func (e consumeError) Unwrap() error { return e.itemError }

// TestOrderedWindow: items under way or waiting for the consumer never
// number more than window, and with a slow consumer they reach it.
func TestOrderedWindow(t *testing.T) {
	for _, c := range []struct{ workers, window int }{{2, 1}, {2, 2}, {4, 3}, {3, 5}, {8, 4}, {2, 9}} {
		t.Run(fmt.Sprintf("%d workers window %d", c.workers, c.window), func(t *testing.T) {
			const n = 40
			var inFlight, most atomic.Int32
			var consumedUpTo atomic.Int32 // items whose consume has returned
			var early atomic.Int32
			err := Ordered(context.Background(), c.workers, n, c.window,
				func(w, i int) (int, error) {
					k := inFlight.Add(1)
					for {
						m := most.Load()
						if k <= m || most.CompareAndSwap(m, k) {
							break
						}
					}
					// Item i starts once item i−window was consumed.
					if int32(i-c.window) >= consumedUpTo.Load() {
						early.Add(1)
					}
					return i, nil
				},
				func(i, r int) error {
					time.Sleep(500 * time.Microsecond)
					inFlight.Add(-1)
					consumedUpTo.Add(1)
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if e := early.Load(); e != 0 {
				t.Errorf("%d items started before the item window before them was consumed", e)
			}
			wantMost := int32(min(c.window, n))
			if c.workers == 1 || c.window == 1 {
				wantMost = 1
			}
			if m := most.Load(); m > int32(c.window) {
				t.Errorf("%d items in flight, window %d", m, c.window)
			} else if m != wantMost {
				t.Errorf("at most %d items in flight, want the window's %d to be used", m, wantMost)
			}
		})
	}
}

// TestOrderedPanic: a panic in work or in consume reaches the caller with
// its original value once every worker has stopped; nothing is consumed
// after a panicking item.
func TestOrderedPanic(t *testing.T) {
	for _, inConsume := range []bool{false, true} {
		for _, workers := range []int{1, 2, 4} {
			for _, window := range []int{1, 4, 1000} {
				before := runtime.NumGoroutine()
				var consumed []int
				var ran atomic.Int32
				func() {
					defer func() {
						r := recover()
						if m, ok := r.(marker); !ok || m.item != 7 {
							t.Errorf("consume %v, %d workers, window %d: recovered %v (%T), want marker{7}", inConsume, workers, window, r, r)
						}
					}()
					_ = Ordered(context.Background(), workers, 1000, window,
						func(w, i int) (int, error) {
							ran.Add(1)
							if i == 7 && !inConsume {
								panic(marker{7})
							}
							time.Sleep(time.Millisecond) // the panic is seen long before every item ran
							return i, nil
						},
						func(i, r int) error {
							if i == 7 && inConsume {
								panic(marker{7})
							}
							consumed = append(consumed, i)
							return nil
						})
					t.Errorf("consume %v, %d workers, window %d: Ordered returned after a panic", inConsume, workers, window)
				}()
				if len(consumed) > 7 {
					t.Errorf("consume %v, %d workers, window %d: %d items consumed, want at most 7", inConsume, workers, window, len(consumed))
				}
				if ran.Load() == 1000 {
					t.Errorf("consume %v, %d workers, window %d: every item ran after the panic", inConsume, workers, window)
				}
				waitGoroutines(t, before)
			}
		}
	}
}

// TestOrderedCancel: once ctx is cancelled nothing more is consumed, few
// more items start, and Ordered returns ctx's error.
func TestOrderedCancel(t *testing.T) {
	for _, inConsume := range []bool{false, true} {
		for _, workers := range []int{1, 4} {
			const window = 8
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			var ran atomic.Int32
			consumed := 0
			err := Ordered(ctx, workers, 1_000_000, window,
				func(w, i int) (int, error) {
					ran.Add(1)
					if i == 50 && !inConsume {
						cancel()
					}
					return i, nil
				},
				func(i, r int) error {
					consumed++
					if i == 50 && inConsume {
						cancel()
					}
					return nil
				})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("consume %v, %d workers: err %v, want context.Canceled", inConsume, workers, err)
			}
			// Cancelled in consume at item 50: items 0..50 consumed.
			// Cancelled in work at item 50: items 0..49 at most.
			if inConsume && consumed != 51 || !inConsume && consumed > 50 {
				t.Errorf("consume %v, %d workers: %d items consumed", inConsume, workers, consumed)
			}
			if r := ran.Load(); r > 51+window {
				t.Errorf("consume %v, %d workers: %d items ran, want at most %d", inConsume, workers, r, 51+window)
			}
			waitGoroutines(t, before)
			cancel()
		}
	}
}
