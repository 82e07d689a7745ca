package otf

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
	return !strings.Contains(string(buf[:runtime.Stack(buf, false)]), "otf."+test+"(")
}

// TestStreamPanicReachesCaller: a panic while reading a stream, on a
// worker goroutine, comes back as a panic in the caller's goroutine with
// its value (where the kernel's recover around a cell sees it) instead of
// ending the process.
func TestStreamPanicReachesCaller(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	type injected struct{ stream uint64 }
	var panicked, worker atomic.Bool
	read := func(fsys fs.FS, prefix string, id uint64, tb *tables, in *inflater) (*streamResult, error) {
		if id == 2 {
			panicked.Store(true)
			worker.Store(onWorker("TestStreamPanicReachesCaller"))
			panic(injected{id})
		}
		return readStream(fsys, prefix, id, tb, in)
	}
	func() {
		defer func() {
			r := recover()
			if v, ok := r.(injected); !ok || v.stream != 2 {
				t.Errorf("recovered %v (%T), want injected{2}", r, r)
			}
		}()
		_, err := readFS(context.Background(), hFS(), "h.otf", read)
		t.Errorf("readFS returned (error %v) after a panic in a worker", err)
	}()
	if !panicked.Load() || !worker.Load() {
		t.Errorf("the panic was not raised on a worker goroutine (raised: %v)", panicked.Load())
	}
	// The process lives on, and so does the reader.
	tr, err := ReadFS(context.Background(), hFS(), "h.otf")
	if err != nil || len(tr.Processes) != 4 || len(tr.Messages) != 16 {
		t.Fatalf("reading after the panic: %v", err)
	}
}

// TestStreamFirstErrorInOrder: when several streams fail, the error is
// the first stream's in the master file's order, even if a later one
// fails sooner.
func TestStreamFirstErrorInOrder(t *testing.T) {
	read := func(fsys fs.FS, prefix string, id uint64, tb *tables, in *inflater) (*streamResult, error) {
		if id == 1 {
			time.Sleep(20 * time.Millisecond)
		}
		return nil, fmt.Errorf("stream %d failed", id)
	}
	_, err := readFS(context.Background(), hFS(), "h.otf", read)
	if err == nil || err.Error() != "stream 1 failed" {
		t.Fatalf("error %v, want stream 1's", err)
	}
}
