package sdk_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/internal/canceltest"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/topology/cluster"
)

// A cancelled job returns an error wrapping context.Canceled with the job
// so far, and leaves no goroutine behind: PageRank for 1000 supersteps on
// a 1000×1000 lattice (tens of milliseconds a superstep), cancelled in
// the engine's set-up or first supersteps (200 ms) and later (1 s); and
// the label-propagation partitioner, which takes seconds on that graph,
// cancelled before the job starts.
func TestRunCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PageRank on a 1000×1000 lattice for a second")
	}
	g := datasets.Must(datasets.Lattice(1000, 1000))
	for _, d := range []time.Duration{200 * time.Millisecond, time.Second} {
		l := canceltest.Check(t, d, func(ctx context.Context) error {
			job, err := sdk.Run(ctx, g, vertex.PageRank{Iterations: 1000}, sdk.Options{})
			if job != nil && job.Supersteps() >= 1000 {
				t.Errorf("%d supersteps after a cancel", job.Supersteps())
			}
			return err
		})
		t.Logf("PageRank cancelled after %v: returned %v later", d, l)
	}
	l := canceltest.Check(t, 200*time.Millisecond, func(ctx context.Context) error {
		job, err := sdk.Run(ctx, g, vertex.PageRank{Iterations: 1000}, sdk.Options{Partitioner: "spinner"})
		if job != nil {
			t.Errorf("a job (%d supersteps) after a cancel in the partitioner", job.Supersteps())
		}
		return err
	})
	t.Logf("spinner partitioner cancelled after 200ms: returned %v later", l)
}

// Options embed the engine's config: a field set there is used as it is,
// the program's Configurer adds what it needs (and a superstep cap only
// where none is set), the defaults fill the rest.
func TestOptionsPrecedence(t *testing.T) {
	g := datasets.Must(datasets.Lattice(10, 10))
	ctx := context.Background()
	// The zero value: DefaultCluster, named after the program, GILA's own
	// cap of Periods·(Hops+1) supersteps and its widths.
	gila := vertex.NewGILA(g.NumVertices(), 2, 3, 1)
	job, err := sdk.Run(ctx, g, gila, sdk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if job.Profile.Job != "vertex.GILA" || job.Profile.Cluster.NumWorkers() != 8 || job.Supersteps() != 9 || job.Result.ValueWidth != 2 {
		t.Errorf("zero options: job %q on %d workers, %d supersteps, value width %d; want vertex.GILA, 8, 9, 2",
			job.Profile.Job, job.Profile.Cluster.NumWorkers(), job.Supersteps(), job.Result.ValueWidth)
	}
	// Set fields win: a name, a smaller cap.
	job, err = sdk.Run(ctx, g, vertex.NewGILA(g.NumVertices(), 2, 3, 1), sdk.Options{Config: bsp.Config{Name: "short", MaxSupersteps: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if job.Profile.Job != "short" || job.Supersteps() != 4 || job.Result.ValueWidth != 2 {
		t.Errorf("set options: job %q, %d supersteps, value width %d; want short, 4, 2", job.Profile.Job, job.Supersteps(), job.Result.ValueWidth)
	}
	// A cluster without workers is the engine's error.
	if _, err := sdk.Run(ctx, g, vertex.PageRank{}, sdk.Options{Config: bsp.Config{Cluster: &cluster.Cluster{}}}); !errors.Is(err, bsp.ErrNoWorkers) {
		t.Errorf("no workers: %v", err)
	}
}
