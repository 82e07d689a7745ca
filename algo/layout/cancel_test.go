package layout_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"superstep/algo/layout"
	"superstep/datasets"
	"superstep/internal/canceltest"
	"superstep/sdk/graph"
)

func sfdpCall(g *graph.Graph, o layout.Options) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		_, err := layout.SFDP(ctx, g, o)
		return err
	}
}

// A cancelled SFDP returns an error wrapping context.Canceled and leaves
// no goroutine behind, whether the cancel comes while it coarsens (at
// 200 ms) or while it refines a level (at 1.5 s), with either coarsening.
// SFDP on a 1000×1000 lattice takes about 15 s on two cores: coarsening
// for the first half second (matching, contraction), then levels of
// growing size, the finest (1,000,000 vertices, about 250 ms per
// iteration) in the last 6 s.
func TestSFDPCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a 1000×1000 lattice for a few seconds")
	}
	g := datasets.Must(datasets.Lattice(1000, 1000))
	for _, c := range []struct {
		delay time.Duration
		o     layout.Options
	}{
		{200 * time.Millisecond, layout.Options{Seed: 1}},
		{1500 * time.Millisecond, layout.Options{Seed: 1}},
		{200 * time.Millisecond, layout.Options{Seed: 1, Coarsening: layout.MIS}},
	} {
		l := canceltest.Check(t, c.delay, sfdpCall(g, c.o))
		t.Logf("%v, cancelled after %v: returned %v later", c.o.Coarsening, c.delay, l)
	}
}

// BenchmarkSFDPCancel measures the latency between a cancel and SFDP's
// return on the 1000×1000 lattice, for cancels in each phase: coarsening
// (200 ms), a middle level (1 s), the level of 290,000 vertices (3 s) and
// the finest level (10 s). Run it with a small count:
//
//	go test ./algo/layout -run '^$' -bench SFDPCancel -benchtime 3x
func BenchmarkSFDPCancel(b *testing.B) {
	g := datasets.Must(datasets.Lattice(1000, 1000))
	for _, d := range []time.Duration{200 * time.Millisecond, time.Second, 3 * time.Second, 10 * time.Second} {
		b.Run(fmt.Sprintf("after=%v", d), func(b *testing.B) {
			canceltest.Benchmark(b, d, sfdpCall(g, layout.Options{Seed: 1}))
		})
	}
}
