package vertex_test

import (
	"context"
	"testing"
	"time"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/internal/canceltest"
	"superstep/sdk/bsp"
)

// A cancelled LouvainBSP returns an error wrapping context.Canceled with
// the best membership so far, and leaves no goroutine behind. On a 300×300
// lattice the whole run takes about 3 s: the cancels come during the
// first level's job (200 ms) and during a later level (1.5 s).
func TestLouvainBSPCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs LouvainBSP on a 300×300 lattice for a second")
	}
	g := datasets.Must(datasets.Lattice(300, 300))
	for _, d := range []time.Duration{200 * time.Millisecond, 1500 * time.Millisecond} {
		l := canceltest.Check(t, d, func(ctx context.Context) error {
			m, _, err := vertex.LouvainBSP(ctx, g, bsp.Config{}, vertex.LouvainOptions{Seed: 1})
			if m != nil && len(m) != g.NumVertices() {
				t.Errorf("a membership of %d vertices, want %d", len(m), g.NumVertices())
			}
			return err
		})
		t.Logf("cancelled after %v: returned %v later", d, l)
	}
}
