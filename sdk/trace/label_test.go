package trace

import (
	"slices"
	"testing"
)

// Labels put the rank first, then what the trace says beyond it; a name
// that only repeats the rank is left out, and labels stay distinct.
func TestProcessLabels(t *testing.T) {
	tr := &Trace{Processes: []Process{
		{Name: "Master thread", Rank: 0, Host: "quartz10"},
		{Name: "Process 0", Rank: 1, Host: "node-a"}, // OTF v1: names need not follow ranks
		{Name: "Process 2", Rank: 2, Host: "node-b"},
		{Name: "P3", Rank: 3},
		{Name: "", Rank: 4},
		{Name: "Master thread", Rank: -1},
		{Name: "OpenMP thread 1", Rank: 0, Host: "quartz10"},
		{Name: "OpenMP thread 1", Rank: 0, Host: "quartz10"},
	}}
	want := []string{
		"rank 0 · quartz10 · Master thread",
		"rank 1 · node-a · Process 0",
		"rank 2 · node-b",
		"rank 3",
		"rank 4",
		"process 5 · Master thread",
		"rank 0 · quartz10 · OpenMP thread 1 (process 6)",
		"rank 0 · quartz10 · OpenMP thread 1 (process 7)",
	}
	if got := tr.ProcessLabels(); !slices.Equal(got, want) {
		t.Errorf("labels\n%q\nwant\n%q", got, want)
	}
	if got := tr.ProcessLabel(1); got != want[1] {
		t.Errorf("label 1 %q", got)
	}
}
