package otf2

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// onWorker reports whether the calling goroutine is not the test's own:
// its stack does not go through the test function test.
func onWorker(test string) bool {
	buf := make([]byte, 64<<10)
	return !strings.Contains(string(buf[:runtime.Stack(buf, false)]), "otf2."+test+"(")
}

// TestDecodePanicReachesCaller: a panic while decoding a location, on a
// worker goroutine, comes back as a panic in the caller's goroutine with
// its value (where the kernel's recover around a cell sees it) instead of
// ending the process.
func TestDecodePanicReachesCaller(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	type injected struct{ loc uint64 }
	var panicked, worker atomic.Bool
	decode := func(ctx context.Context, fsys fs.FS, base string, id uint64, proc int32, comms map[uint32]*commInfo, clk clock, info *Info) (*locDecoder, error) {
		if id == 1 {
			panicked.Store(true)
			worker.Store(onWorker("TestDecodePanicReachesCaller"))
			panic(injected{id})
		}
		return decodeLocation(ctx, fsys, base, id, proc, comms, clk, info)
	}
	func() {
		defer func() {
			r := recover()
			if v, ok := r.(injected); !ok || v.loc != 1 {
				t.Errorf("recovered %v (%T), want injected{1}", r, r)
			}
		}()
		_, err := readFS(context.Background(), pingpongFS(t), "traces.otf2", decode)
		t.Errorf("readFS returned (error %v) after a panic in a worker", err)
	}()
	if !panicked.Load() || !worker.Load() {
		t.Errorf("the panic was not raised on a worker goroutine (raised: %v)", panicked.Load())
	}
	// The process lives on, and so does the reader.
	tr, err := ReadFS(context.Background(), pingpongFS(t), "traces.otf2")
	if err != nil || len(tr.Processes) != 2 || len(tr.Messages) != 16 {
		t.Fatalf("reading after the panic: %v", err)
	}
}

// TestDecodeFirstErrorInLocationOrder: when several locations fail, the
// error is the first location's in location order, even if a later one
// fails sooner.
func TestDecodeFirstErrorInLocationOrder(t *testing.T) {
	decode := func(ctx context.Context, fsys fs.FS, base string, id uint64, proc int32, comms map[uint32]*commInfo, clk clock, info *Info) (*locDecoder, error) {
		if id == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		return nil, fmt.Errorf("location %d failed", id)
	}
	_, err := readFS(context.Background(), pingpongFS(t), "traces.otf2", decode)
	if err == nil || err.Error() != "location 0 failed" {
		t.Fatalf("error %v, want location 0's", err)
	}
}
