package infiniband

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"superstep/topology/fattree"
)

// onWorker reports whether the calling goroutine is not the test's own:
// its stack does not go through the test function test.
func onWorker(test string) bool {
	buf := make([]byte, 64<<10)
	return !strings.Contains(string(buf[:runtime.Stack(buf, false)]), "infiniband."+test+"(")
}

// countFiles are n counters files a minute apart, named c0, c1, …
func countFiles(n int) []timedFile {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	files := make([]timedFile, n)
	for k := range files {
		files[k] = timedFile{path: fmt.Sprintf("c%d", k), t: t0.Add(time.Duration(k) * time.Minute)}
	}
	return files
}

// TestReadCountsOrder: the snapshots reach use in the files' order with
// their warnings, each file read with a scratch no other goroutine uses
// at the same time.
func TestReadCountsOrder(t *testing.T) {
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	files := countFiles(40)
	var busy sync.Map // *countScratch → *atomic.Bool
	var shared atomic.Int32
	read := func(cf timedFile, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
		b, _ := busy.LoadOrStore(scratch, new(atomic.Bool))
		if !b.(*atomic.Bool).CompareAndSwap(false, true) {
			shared.Add(1)
		}
		defer b.(*atomic.Bool).Store(false)
		time.Sleep(time.Duration(len(cf.path)%3) * 100 * time.Microsecond)
		return fattree.Snapshot{Time: cf.t, Where: cf.path}, []Warning{{File: cf.path, Msg: "w"}}, nil
	}
	var used []string
	warns, err := readCounts(files, f, read, func(k int, s fattree.Snapshot) error {
		if s.Where != files[k].path || !s.Time.Equal(files[k].t) {
			t.Errorf("snapshot %d is %s's", k, s.Where)
		}
		used = append(used, s.Where)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, cf := range files {
		want = append(want, cf.path)
	}
	if !slices.Equal(used, want) {
		t.Errorf("used %v, want %v", used, want)
	}
	var warned []string
	for _, w := range warns {
		warned = append(warned, w.File)
	}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings of %v, want %v", warned, want)
	}
	if shared.Load() != 0 {
		t.Errorf("a scratch was used by two goroutines at once %d times", shared.Load())
	}
}

// TestReadCountsFirstError: the error is the first in the files' order,
// a file's or use's, even when a later file fails sooner; no snapshot
// after it is used.
func TestReadCountsFirstError(t *testing.T) {
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	files := countFiles(12)
	read := func(cf timedFile, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
		switch cf.path {
		case "c3":
			time.Sleep(20 * time.Millisecond)
			return fattree.Snapshot{}, nil, errors.New("c3 is bad")
		case "c8":
			return fattree.Snapshot{}, nil, errors.New("c8 is bad")
		}
		return fattree.Snapshot{Time: cf.t}, nil, nil
	}
	for _, c := range []struct {
		useFails int
		want     string
		used     int
	}{
		{-1, "c3 is bad", 3},
		{2, "use 2", 3},
		{5, "c3 is bad", 3},
	} {
		used := 0
		_, err := readCounts(files, f, read, func(k int, s fattree.Snapshot) error {
			used++
			if k == c.useFails {
				return fmt.Errorf("use %d", k)
			}
			return nil
		})
		if err == nil || err.Error() != c.want || used != c.used {
			t.Errorf("use fails at %d: error %v after %d snapshots, want %q after %d", c.useFails, err, used, c.want, c.used)
		}
	}
}

// TestReadCountsPanicReachesCaller: a panic while reading a counters
// file, on a worker goroutine, comes back as a panic in the caller's
// goroutine with its value (where the kernel's recover around a cell
// sees it) instead of ending the process.
func TestReadCountsPanicReachesCaller(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	files := countFiles(8)
	type injected struct{ file string }
	var panicked, worker atomic.Bool
	read := func(cf timedFile, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
		if cf.path == "c3" {
			panicked.Store(true)
			worker.Store(onWorker("TestReadCountsPanicReachesCaller"))
			panic(injected{cf.path})
		}
		return fattree.Snapshot{Time: cf.t}, nil, nil
	}
	used := 0
	func() {
		defer func() {
			r := recover()
			if v, ok := r.(injected); !ok || v.file != "c3" {
				t.Errorf("recovered %v (%T), want injected{c3}", r, r)
			}
		}()
		_, err := readCounts(files, f, read, func(k int, s fattree.Snapshot) error { used++; return nil })
		t.Errorf("readCounts returned (error %v) after a panic in a worker", err)
	}()
	if !panicked.Load() || !worker.Load() {
		t.Errorf("the panic was not raised on a worker goroutine (raised: %v)", panicked.Load())
	}
	if used > 3 {
		t.Errorf("%d snapshots used, want at most the 3 before the panic", used)
	}
	// The process lives on, and so does the reader.
	dir := writeDir(t, map[string]string{"network.topo": miniTopo})
	if _, _, err := ReadTreeScope(dir, TreeScopeOptions{}); err != nil {
		t.Fatalf("reading after the panic: %v", err)
	}
}
