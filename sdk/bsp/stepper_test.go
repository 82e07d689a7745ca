package bsp_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/vrecord"
	"superstep/topology/cluster"
)

// maxID propagates the largest vertex id: each vertex starts with its
// id, sends it to its neighbours while it grows, and halts.
var maxID = bsp.ProgramFunc(func(c *bsp.Context, v int, msgs bsp.Messages) {
	x := c.Value(v)
	if c.Superstep() == 0 {
		x = float64(v)
	}
	for i := range msgs.Len() {
		x = max(x, msgs.Float(i))
	}
	if c.Superstep() == 0 || x > c.Value(v) {
		c.SetValue(v, x)
		c.SendToNeighbors(v, x)
	}
	c.VoteToHalt(v)
})

// Stepping a job one superstep at a time gives, after each Step, the values
// of the same superstep of a run, and at the end the same result: on the
// path 0-1-2-3-4 the maximum 4 travels one hop a superstep.
func TestStepperMatchesRun(t *testing.T) {
	g := graph.FromEdges(5, false, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}})
	cl, _ := cluster.Single(2)
	cfg := bsp.Config{Cluster: cl, Record: &vrecord.Options{}}
	run, err := bsp.Run(context.Background(), g, maxID, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bsp.Start(context.Background(), g, maxID, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !s.Done(); i++ {
		if s.Superstep() != i {
			t.Fatalf("Superstep() = %d before step %d", s.Superstep(), i)
		}
		if err := s.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, want := s.Values(), run.Record.Step(i).Value; !slices.Equal(got, want) {
			t.Errorf("after superstep %d: values %v, the run recorded %v", i, got, want)
		}
	}
	res := s.Result()
	if res.Supersteps != run.Supersteps || !res.Halted || res.Record.Len() != run.Supersteps {
		t.Errorf("stepped: %d supersteps, halted %v, %d recorded; run: %d", res.Supersteps, res.Halted, res.Record.Len(), run.Supersteps)
	}
	// 4 reaches vertex 0 in superstep 4, which sends it back; superstep 5
	// wakes vertex 1, which finds nothing bigger.
	if run.Supersteps != 6 || !slices.Equal(res.Values, []float64{4, 4, 4, 4, 4}) {
		t.Errorf("%d supersteps, values %v; want 6 and all 4", run.Supersteps, res.Values)
	}
	if err := s.Step(context.Background()); !errors.Is(err, bsp.ErrFinished) {
		t.Errorf("a Step after the end: %v, want ErrFinished", err)
	}
}

// A panic in a superstep ends the stepped job: that Step returns the
// panic's error, and the next says the job finished after it.
func TestStepperPanicEndsJob(t *testing.T) {
	g := graph.FromEdges(3, false, [][2]int{{0, 1}, {1, 2}})
	prog := bsp.ProgramFunc(func(c *bsp.Context, v int, msgs bsp.Messages) {
		if c.Superstep() == 1 && v == 2 {
			panic("boom")
		}
		c.SendToNeighbors(v, 1)
	})
	cl, _ := cluster.Single(1)
	s, err := bsp.Start(context.Background(), g, prog, bsp.Config{Cluster: cl})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	err = s.Step(context.Background())
	if err == nil || errors.Is(err, bsp.ErrFinished) {
		t.Fatalf("superstep 1: %v, want the panic", err)
	}
	if !s.Done() || s.Err() == nil {
		t.Errorf("after the panic: Done %v, Err %v", s.Done(), s.Err())
	}
	if err := s.Step(context.Background()); !errors.Is(err, bsp.ErrFinished) {
		t.Errorf("after the panic: %v, want ErrFinished", err)
	}
	if res := s.Result(); res.Supersteps != 2 {
		t.Errorf("%d supersteps counted, want 2 (the failed one ran)", res.Supersteps)
	}
}
