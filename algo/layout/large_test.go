package layout

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"superstep/datasets"
)

// TestLargeGraph lays out a generated graph of 1,000,000 vertices and
// 10,000,000 edges (Erdős–Rényi) and checks that the process stays within
// 4 GiB. It takes about a minute on two cores, so it runs only with
// SUPERSTEP_LAYOUT_LARGE=1:
//
//	SUPERSTEP_LAYOUT_LARGE=1 go test ./algo/layout -run LargeGraph -v
//
// (algo/layout/bench -big reports the same with the peak resident set.)
func TestLargeGraph(t *testing.T) {
	if os.Getenv("SUPERSTEP_LAYOUT_LARGE") == "" {
		t.Skip("set SUPERSTEP_LAYOUT_LARGE=1 to lay out 1,000,000 vertices and 10,000,000 edges")
	}
	start := time.Now()
	g, err := datasets.ErdosRenyi(1_000_000, 10_000_000, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v, made in %v", g, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	pos, err := SFDP(context.Background(), g, Options{Seed: 1, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// Sys counts every byte the Go runtime ever obtained from the system:
	// an upper bound of the peak.
	t.Logf("layout in %v; memory obtained from the system (peak bound) %.0f MiB, heap peak bound %.0f MiB",
		elapsed.Round(time.Millisecond), float64(ms.Sys)/(1<<20), float64(ms.HeapSys)/(1<<20))
	if ms.Sys > 4<<30 {
		t.Errorf("%.0f MiB obtained from the system, more than 4 GiB", float64(ms.Sys)/(1<<20))
	}
	if len(pos) != 2_000_000 {
		t.Errorf("%d coordinates", len(pos))
	}
}
