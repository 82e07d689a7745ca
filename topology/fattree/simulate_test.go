package fattree

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"superstep/sdk/table"
)

// Simulate's counters, written to Parquet, read back and summed over time,
// are each job's bytes per second times the seconds it ran, exactly.
func TestSimulateSumsToLoads(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	placed, err := Place(f, PodBased, []int{4, 8}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sec := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	jobs := []Job{
		// Unbounded: runs the whole 60 s.
		{ID: "ring", Nodes: placed[0], Pattern: Ring(), BytesPerPair: 1000},
		// 15 s to 45 s: starts and ends inside 10 s intervals.
		{ID: "a2a", Nodes: placed[1], Pattern: AllToAll(), BytesPerPair: 3, Start: sec(15), End: sec(45)},
		// Outside the window: nothing.
		{ID: "later", Nodes: placed[0], Pattern: AllToAll(), BytesPerPair: 7, Start: sec(100), End: sec(200)},
	}
	r := DModK(f)
	rows, err := Simulate(ctx, f, r, jobs, t0, sec(60), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6*len(f.Links) {
		t.Fatalf("%d rows, want %d", len(rows), 6*len(f.Links))
	}
	tb := CountersTable(rows)
	defer tb.Release()
	path := filepath.Join(t.TempDir(), "sim.parquet")
	if err := table.WriteParquet(path, tb); err != nil {
		t.Fatal(err)
	}
	back, err := table.ReadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	got, err := ReadCounters(back)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := JobLoads(ctx, f, r, jobs)
	if err != nil {
		t.Fatal(err)
	}
	sum := make([]int64, len(f.Links))
	for i, row := range got {
		if want := sec(10 * (1 + i/len(f.Links))); !row.Time.Equal(want) || row.Link != i%len(f.Links) {
			t.Fatalf("row %d at %v link %d, want %v link %d", i, row.Time, row.Link, want, i%len(f.Links))
		}
		if row.Packets != (row.Bytes+MTU-1)/MTU || row.XmitWait != 0 || row.Errors != 0 || row.Saturated {
			t.Fatalf("row %d: %+v", i, row)
		}
		sum[row.Link] += row.Bytes
	}
	used := 0
	for id := range f.Links {
		want := int64(tr.Jobs[0].Links[id])*60 + int64(tr.Jobs[1].Links[id])*30
		if sum[id] != want {
			t.Errorf("link %d: %d bytes over 60 s, want %d", id, sum[id], want)
		}
		if want != 0 {
			used++
		}
	}
	if used == 0 {
		t.Fatal("no link carries traffic")
	}
	// The 10–20 s interval holds 5 s of the all-to-all job.
	for id := range f.Links {
		row := got[len(f.Links)+id]
		want := int64(tr.Jobs[0].Links[id])*10 + int64(tr.Jobs[1].Links[id])*5
		if row.Bytes != want {
			t.Errorf("link %d at 20 s: %d bytes, want %d", id, row.Bytes, want)
		}
	}
}

// A step that does not divide the span leaves a shorter last interval,
// and fractional bytes still add up to the rounded total.
func TestSimulateShortLastInterval(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	jobs := []Job{{ID: "ring", Nodes: []int{0, 1}, Pattern: Ring(), BytesPerPair: 0.4}}
	rows, err := Simulate(context.Background(), f, DModK(f), jobs, t0, t0.Add(25*time.Second), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	n := len(f.Links)
	if len(rows) != 3*n || !rows[2*n].Time.Equal(t0.Add(25*time.Second)) {
		t.Fatalf("%d rows, last at %v", len(rows), rows[len(rows)-1].Time)
	}
	up := f.Nodes[0].Up
	total := rows[up].Bytes + rows[n+up].Bytes + rows[2*n+up].Bytes
	if rows[up].Bytes != 4 || total != 10 {
		t.Errorf("node 0's up link: %d, %d, %d bytes, want 4, 4, 2", rows[up].Bytes, rows[n+up].Bytes, rows[2*n+up].Bytes)
	}
}

func TestSimulateErrors(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r := DModK(f)
	for _, tc := range []struct {
		start, end time.Time
		step       time.Duration
		jobs       []Job
		err        string
	}{
		{t0, t0.Add(time.Minute), 1500 * time.Millisecond, nil, "whole number of seconds"},
		{t0, t0.Add(time.Minute), 0, nil, "whole number of seconds"},
		{t0.Add(time.Millisecond), t0.Add(time.Minute), time.Second, nil, "whole seconds"},
		{t0, t0, time.Second, nil, "not after start"},
		{t0, t0.Add(1000 * time.Hour), time.Second, nil, "exceed"},
		{t0, t0.Add(time.Minute), time.Second, []Job{{ID: "bad", Nodes: []int{0, 0}, Pattern: Ring()}}, `"bad"`},
	} {
		if _, err := Simulate(ctx, f, r, tc.jobs, tc.start, tc.end, tc.step); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Simulate(%v, %v, %v): %v, want %q", tc.start, tc.end, tc.step, err, tc.err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Simulate(cctx, f, r, nil, t0, t0.Add(time.Minute), time.Second); err == nil {
		t.Error("cancelled: no error")
	}
}
