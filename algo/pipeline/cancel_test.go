package pipeline_test

import (
	"context"
	"testing"
	"time"

	"superstep/algo/pipeline"
	"superstep/internal/canceltest"
)

// A cancelled pipeline returns an error wrapping context.Canceled and
// leaves no goroutine behind. On a planted graph of 100,000 vertices it
// takes about 3 s on two cores: Louvain 0.3 s, the community layouts on
// the engine's workers 0.2 s, the global SFDP the rest; the cancels fall
// in each stage (give or take the machine's load).
func TestLayoutCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a planted graph of 100,000 vertices for a second")
	}
	g, _ := planted(t, 100000)
	for _, d := range []time.Duration{150 * time.Millisecond, 400 * time.Millisecond, 1500 * time.Millisecond} {
		l := canceltest.Check(t, d, func(ctx context.Context) error {
			res, err := pipeline.Layout(ctx, g, pipeline.Options{Seed: 1})
			if err != nil && res != nil {
				t.Error("a result with the error")
			}
			return err
		})
		t.Logf("cancelled after %v: returned %v later", d, l)
	}
}
