package community_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"superstep/algo/community"
	"superstep/datasets"
	"superstep/internal/canceltest"
	"superstep/sdk/graph"
)

func louvainCall(g *graph.Graph, o community.Options) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		r, err := community.Louvain(ctx, g, o)
		if err != nil && r.Membership != nil {
			return fmt.Errorf("a membership with the error %w", err)
		}
		return err
	}
}

// A cancelled Louvain returns an error wrapping context.Canceled (and no
// result) and leaves no goroutine behind, whether the cancel comes during
// the first local moving (200 ms) or later (1 s).
func TestLouvainCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Louvain on a 1000×1000 lattice for a second")
	}
	g := datasets.Must(datasets.Lattice(1000, 1000))
	for _, d := range []time.Duration{200 * time.Millisecond, time.Second} {
		l := canceltest.Check(t, d, louvainCall(g, community.Options{Seed: 1}))
		t.Logf("cancelled after %v: returned %v later", d, l)
	}
	// Cancelled before it starts: at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := community.Louvain(ctx, g, community.Options{}); err == nil {
		t.Error("no error from a cancelled context")
	}
}

// BenchmarkLouvainCancel measures the latency between a cancel and
// Louvain's return on the 1000×1000 lattice, for cancels during the first
// level's local moving (200 ms) and later (700 ms, 1.5 s; the whole run takes about 2.3 s):
//
//	go test ./algo/community -run '^$' -bench LouvainCancel -benchtime 5x
func BenchmarkLouvainCancel(b *testing.B) {
	g := datasets.Must(datasets.Lattice(1000, 1000))
	for _, d := range []time.Duration{200 * time.Millisecond, 700 * time.Millisecond, 1500 * time.Millisecond} {
		b.Run(fmt.Sprintf("after=%v", d), func(b *testing.B) {
			canceltest.Benchmark(b, d, louvainCall(g, community.Options{Seed: 1}))
		})
	}
}
