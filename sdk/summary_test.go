package sdk_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// A job's modelled time is the cost model's, computed here by hand, on a
// fast run and on a run whose vertex program sleeps; only its measured
// time tells them apart. (The summaries once called the measured compute
// time plus the network model's "modelled".)
func TestModelledTimeIgnoresTheClock(t *testing.T) {
	b := graph.NewBuilder(false)
	for v := int64(0); v < 5; v++ {
		b.AddEdge(v, v+1) // a path of 6 vertices
	}
	g := b.Build()
	cl, err := cluster.New(1, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	run := func(nap time.Duration) *sdk.Job {
		prog := bsp.ProgramFunc(func(c *bsp.Context, v int, msgs bsp.Messages) {
			if c.Superstep() == 0 {
				time.Sleep(nap)
				c.SendToNeighbors(v, 1)
				return
			}
			c.VoteToHalt(v)
		})
		job, err := sdk.Run(context.Background(), g, prog, sdk.Options{Config: bsp.Config{Name: "path", Cluster: cl}})
		if err != nil {
			t.Fatal(err)
		}
		return job
	}
	fast, slow := run(0), run(2*time.Millisecond)

	// By hand, with DefaultCost (10 ns a vertex, 50 ns a message) and no
	// network: superstep 0, each worker processes its vertices and sends
	// one message per arc; superstep 1, it processes them again and sends
	// nothing. Each superstep takes its slowest worker's time.
	cost := profile.DefaultCost()
	var step0, step1 time.Duration
	for w := 0; w < 2; w++ {
		var n, arcs int
		for v, p := range fast.Partition {
			if int(p) == w {
				n++
				arcs += len(g.Neighbors(v))
			}
		}
		step0 = max(step0, time.Duration(n)*cost.PerVertex+time.Duration(arcs)*cost.PerMessage)
		step1 = max(step1, time.Duration(n)*cost.PerVertex)
	}
	want := step0 + step1
	for name, job := range map[string]*sdk.Job{"fast": fast, "slow": slow} {
		if job.Supersteps() != 2 {
			t.Fatalf("%s: %d supersteps", name, job.Supersteps())
		}
		tot := job.Profile.Totals()
		if tot.Modelled != want {
			t.Errorf("%s: modelled time %v, by hand %v", name, tot.Modelled, want)
		}
		if s := job.String(); !strings.Contains(s, "modelled time "+want.String()+", measured time ") {
			t.Errorf("%s: summary %q, want modelled time %v", name, s, want)
		}
		html := job.MIMEBundle().Text()
		if !strings.Contains(html, "modelled time") || !strings.Contains(html, want.String()) || !strings.Contains(html, "measured time") {
			t.Errorf("%s: the dashboard does not show modelled time %v and a measured time", name, want)
		}
	}
	// The slow run's vertices slept 2 ms each in superstep 0: its measured
	// time holds at least one worker's sleeps, its modelled time none.
	fm, sm := fast.Profile.Totals().Measured, slow.Profile.Totals().Measured
	if sm < 4*time.Millisecond || sm <= fm {
		t.Errorf("measured time %v fast, %v slow", fm, sm)
	}
	if !strings.Contains(slow.String(), "measured time "+sm.Round(time.Microsecond).String()) {
		t.Errorf("summary %q, want measured time %v", slow.String(), sm)
	}
}
