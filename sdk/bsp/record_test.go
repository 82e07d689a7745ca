package bsp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/vrecord"
	"superstep/topology/cluster"
)

// On a path 0-1-2-3, vertex 0 sends to 3 (not a neighbour) and vertex 1
// writes the second number of its value through Vector; vertex 2 is woken
// by nothing and halts. The record counts the far message in Sent and
// Received but on no arc, sees the write through Vector as activity, and
// keeps what Options.Value makes of each value.
func TestRecordFarMessageVectorWriteAndValueFunc(t *testing.T) {
	g := graph.FromEdges(4, false, [][2]int{{0, 1}, {1, 2}, {2, 3}})
	prog := bsp.ProgramFunc(func(c *bsp.Context, v int, msgs bsp.Messages) {
		if c.Superstep() == 0 {
			switch v {
			case 0:
				c.Send(3, 7)
			case 1:
				c.Vector(v)[1] = 5
			}
		}
		c.VoteToHalt(v)
	})
	cl, _ := cluster.Single(2)
	res, err := bsp.Run(context.Background(), g, prog, bsp.Config{Cluster: cl, ValueWidth: 2, Record: &vrecord.Options{
		Value: func(x []float64) float64 { return x[0] + 10*x[1] },
	}})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	if rec.Len() != 2 {
		t.Fatalf("%d steps, want 2", rec.Len())
	}
	s0, s1 := rec.Step(0), rec.Step(1)
	wantState := []vrecord.State{vrecord.Active, vrecord.Active, vrecord.Woken, vrecord.Woken}
	for v := range 4 {
		if s0.State[v] != wantState[v] {
			t.Errorf("superstep 0: vertex %d is %v, want %v", v, s0.State[v], wantState[v])
		}
	}
	if s0.Sent[0] != 1 || s0.Received[3] != 1 || len(s0.Arcs) != 0 {
		t.Errorf("superstep 0: sent %v, received %v, arcs %v; want vertex 0 → 3 on no arc", s0.Sent, s0.Received, s0.Arcs)
	}
	if s0.Value[1] != 50 || s1.Value[1] != 50 {
		t.Errorf("vertex 1's recorded value is %v then %v, want 50 (0 + 10·5)", s0.Value[1], s1.Value[1])
	}
	for v := range 4 {
		want := vrecord.Halted
		if v == 3 {
			want = vrecord.Woken // the message woke it; it did nothing
		}
		if s1.State[v] != want {
			t.Errorf("superstep 1: vertex %d is %v, want %v", v, s1.State[v], want)
		}
	}
}

// A record that would outgrow its budget stops the job with an error that
// names the budget; the supersteps before it are kept.
func TestRecordBudget(t *testing.T) {
	g := testGraph()
	cl, _ := cluster.Single(2)
	size := func(steps int) int64 { // the record of the first steps supersteps
		res, err := bsp.Run(context.Background(), g, pageRank(10), bsp.Config{Cluster: cl, MaxSupersteps: steps, Record: &vrecord.Options{}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Record.Bytes()
	}
	three, four := size(3), size(4)
	budget := three + (four-three)/2
	res, err := bsp.Run(context.Background(), g, pageRank(10), bsp.Config{Cluster: cl, Record: &vrecord.Options{MaxBytes: budget}})
	if !errors.Is(err, vrecord.ErrBudget) {
		t.Fatalf("err = %v, want the budget's", err)
	}
	for _, want := range []string{"superstep 3", fmt.Sprintf("to %d bytes, past its budget of %d bytes", four, budget), "60 vertices", "3 supersteps recorded", "Record.MaxBytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if res.Record.Len() != 3 || res.Record.Bytes() != three {
		t.Errorf("the record kept %d steps (%d bytes), want 3 (%d)", res.Record.Len(), res.Record.Bytes(), three)
	}
}

// A job on a transport refuses to record.
func TestRecordRefusedOnTransport(t *testing.T) {
	g := testGraph()
	cl, _ := cluster.Single(2)
	tr := bsp.Loopback(2)
	_, err := bsp.Run(context.Background(), g, pageRank(2), bsp.Config{Cluster: cl, Transport: tr[0], Record: &vrecord.Options{}})
	if err == nil || !strings.Contains(err.Error(), "vertex record needs every vertex in one process") {
		t.Fatalf("err = %v", err)
	}
}
