package otf2

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"superstep/sdk/trace/ompimon"
)

// TestShimGridAgreesWithMonitoring reads the archive the PMPI shim wrote
// for the 16-rank grid program (20 steps; sdk/trace/mpishim/testdata)
// and checks it against Open MPI's monitoring files of the same run: the
// issue's 1,295 messages, 2,622,400 B and 75 pairs, and every pair's
// count and bytes equal to its E line.
func TestShimGridAgreesWithMonitoring(t *testing.T) {
	tr, err := Read(context.Background(), filepath.Join("..", "mpishim", "testdata", "grid20", "traces.otf2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Unmatched) != 0 {
		t.Errorf("%d unmatched events: %v", len(tr.Unmatched), tr.Unmatched[0])
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q, want none", tr.Warnings)
	}
	n, b := tr.Totals()
	pairs := tr.Pairs()
	if len(tr.Processes) != 16 || n != 1295 || b != 2_622_400 || len(pairs) != 75 {
		t.Fatalf("%d processes, %d messages, %d B, %d pairs; want 16, 1295, 2622400, 75", len(tr.Processes), n, b, len(pairs))
	}
	mon, err := ompimon.Read(filepath.Join("..", "ompimon", "testdata", "grid16"), "grid")
	if err != nil {
		t.Fatal(err)
	}
	msgs, bytes := mon.ExternalMatrix()
	seen := 0
	for _, p := range pairs {
		r := tr.Processes[p.Src].Rank
		s := tr.Processes[p.Dst].Rank
		if uint64(p.Messages) != msgs[r][s] || uint64(p.Bytes) != bytes[r][s] {
			t.Errorf("pair %d→%d: trace %d messages %d B, monitoring %d, %d", r, s, p.Messages, p.Bytes, msgs[r][s], bytes[r][s])
		}
		seen++
	}
	var monPairs int
	for i := range msgs {
		for j := range msgs[i] {
			if msgs[i][j] > 0 {
				monPairs++
			}
		}
	}
	if monPairs != seen {
		t.Errorf("monitoring has %d pairs, the trace %d", monPairs, seen)
	}
}

// The ping-pong holds 120 event records, 60 per location (the issue's
// count: otf2-print lists them).
func TestCountEventsPingPong(t *testing.T) {
	counts, err := CountEvents(os.DirFS(filepath.Join("..", "..", "..", "datasets", "data", "otf2-pingpong")), "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if counts["traces/0.evt"] != 60 || counts["traces/1.evt"] != 60 || len(counts) != 2 {
		t.Errorf("event records %v, want 60 in each of traces/0.evt and traces/1.evt", counts)
	}
}
