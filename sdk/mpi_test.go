package sdk_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/display"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/mpijob"
	"superstep/sdk/mpijob/mpijobtest"
	"superstep/topology/cluster"
)

// TestRunMPI: PageRank on karate on 4 MPI ranks from the SDK shows a live
// heartbeat and returns a job whose values and per-pair messages are
// those of sdk.Run on 4 workers with the same (hash) partition.
func TestRunMPI(t *testing.T) {
	bin := mpijobtest.Worker(t)
	t.Setenv("SUPERSTEP_WORKER", bin)
	rec := &recorder{}
	job, err := sdk.RunMPI(context.Background(), "karate", vertex.PageRank{Iterations: 6}, sdk.MPIOptions{Ranks: 4, Out: display.On(rec), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.shown) != 2 {
		t.Errorf("heartbeat: %d shown, %d updates", len(rec.shown), rec.updates)
	}
	g, _ := datasets.Open("karate")
	cl, _ := cluster.Single(4)
	want, err := sdk.Run(context.Background(), g, vertex.PageRank{Iterations: 6}, sdk.Options{Config: bsp.Config{Cluster: cl}})
	if err != nil {
		t.Fatal(err)
	}
	for v := 0; v < g.NumVertices(); v++ {
		if job.Value(v) != want.Value(v) {
			t.Fatalf("vertex %d: %v on ranks, %v in process", v, job.Value(v), want.Value(v))
		}
	}
	for s := range want.Profile.Steps {
		for i, m := range want.Profile.Steps[s].Messages {
			if job.Profile.Steps[s].Messages[i] != m {
				t.Fatalf("superstep %d pair %d: %d messages on ranks, %d in process", s, i, job.Profile.Steps[s].Messages[i], m)
			}
		}
	}
	if s := job.String(); !strings.Contains(s, "pagerank on 4 workers on host ") {
		t.Errorf("String: %s", s)
	}
	if s := job.String(); !strings.Contains(s, ": 7 supersteps, 936 messages") {
		t.Errorf("String: %s (want 6 supersteps of karate's 156 arcs)", s)
	}
	if html := job.MIMEBundle().Text(); !strings.Contains(html, "measured time") || strings.Contains(html, "modelled time") || !strings.Contains(html, "4 on host ") {
		t.Errorf("the dashboard of a job on ranks should say its time is measured and name its ranks:\n%.3000s", html)
	}
	if _, err := sdk.RunMPI(context.Background(), "karate", badProgram{}, sdk.MPIOptions{}); err == nil || !strings.Contains(err.Error(), "sdk_test.badProgram is not one of the programs the ranks know") || !strings.Contains(err.Error(), "pass sdk.Context()") {
		t.Errorf("a program the ranks do not know: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := sdk.RunMPI(context.Background(), "karate", vertex.PageRank{}, sdk.MPIOptions{}); !errors.Is(err, mpijob.ErrNoMPI) {
		t.Errorf("without mpirun: %v", err)
	}
}

type badProgram struct{}

func (badProgram) Compute(*bsp.Context, int, bsp.Messages) {}
