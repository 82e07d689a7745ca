package bundle

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"superstep/algo/meanshift"
)

// onWorker reports whether the calling goroutine is not the test's own:
// its stack does not go through the test function test.
func onWorker(test string) bool {
	buf := make([]byte, 64<<10)
	return !strings.Contains(string(buf[:runtime.Stack(buf, false)]), "bundle."+test+"(")
}

// laneEdges are 5 messages from each lane l of 0..lanes−2 to lane l+1,
// the end points of lane l lying in [1000·l, 1000·l + 500], so that a
// clustering hook knows its lane from any x it is given.
func laneEdges(lanes int) *Edges {
	e := &Edges{}
	for l := 0; l < lanes-1; l++ {
		for k := 0; k < 5; k++ {
			e.FromLane = append(e.FromLane, int32(l))
			e.ToLane = append(e.ToLane, int32(l+1))
			e.FromX = append(e.FromX, float64(1000*l+10*k))
			e.ToX = append(e.ToX, float64(1000*(l+1)+300+10*k))
		}
	}
	return e
}

// TestClusterPanicReachesCaller: a panic while clustering a lane, on a
// worker goroutine, comes back as a panic in the caller's goroutine with
// its value (where the kernel's recover around a cell sees it) instead of
// ending the process.
func TestClusterPanicReachesCaller(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	ctx := context.Background()
	e := laneEdges(12)
	b, err := New(ctx, e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := len(b.ClusterX)
	type injected struct{ lane int }
	var panicked, worker atomic.Bool
	hook := func(xs, weights []float64, bandwidth float64) (meanshift.Result1D, error) {
		if lane := int(xs[0]) / 1000; lane == 5 {
			panicked.Store(true)
			worker.Store(onWorker("TestClusterPanicReachesCaller"))
			panic(injected{lane})
		}
		return meanshift.Cluster1D(xs, weights, bandwidth)
	}
	func() {
		defer func() {
			r := recover()
			if v, ok := r.(injected); !ok || v.lane != 5 {
				t.Errorf("recovered %v (%T), want injected{5}", r, r)
			}
		}()
		err := b.cluster(ctx, e, hook)
		t.Errorf("cluster returned (error %v) after a panic in a worker", err)
	}()
	if !panicked.Load() || !worker.Load() {
		t.Errorf("the panic was not raised on a worker goroutine (raised: %v)", panicked.Load())
	}
	// The process lives on, and so does New.
	b, err = New(ctx, e, Options{})
	if err != nil || len(b.ClusterX) != want {
		t.Fatalf("bundling after the panic: %v", err)
	}
}

// TestClusterFirstErrorInLaneOrder: when several lanes fail, the error is
// the first lane's in lane order, even if a later one fails sooner.
func TestClusterFirstErrorInLaneOrder(t *testing.T) {
	ctx := context.Background()
	e := laneEdges(12)
	b, err := New(ctx, e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad lane")
	hook := func(xs, weights []float64, bandwidth float64) (meanshift.Result1D, error) {
		switch int(xs[0]) / 1000 {
		case 2:
			time.Sleep(20 * time.Millisecond)
			return meanshift.Result1D{}, bad
		case 6, 9:
			return meanshift.Result1D{}, bad
		}
		return meanshift.Cluster1D(xs, weights, bandwidth)
	}
	err = b.cluster(ctx, e, hook)
	if !errors.Is(err, bad) || err.Error() != "bundle: lane 2: bad lane" {
		t.Fatalf("error %v, want lane 2's", err)
	}
}
