package sdk

import (
	"context"
	"testing"
	"time"

	"superstep/display"
	"superstep/topology/fattree"
)

// A day of counters every 60 s on the 1,296-node machine (1,440 intervals
// × 7,776 links = 11.2 M rows) with a job running all day: building the
// board (bins, footprints) and its notebook bundle (static PNG, packed
// spec). Issue 12 asks ≤ 300 ms and ≤ 6 MiB for the bundle; the benchmark
// reports the bytes as html-bytes.
func BenchmarkFatTreeBoardDay(b *testing.B) {
	f, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		b.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	placed, err := fattree.Place(f, fattree.Fragmented, []int{1024, 200}, 1)
	if err != nil {
		b.Fatal(err)
	}
	jobs := []fattree.Job{
		{ID: "a2a", Nodes: placed[0], Pattern: fattree.AllToAll(), BytesPerPair: 1e5, Start: start, End: start.Add(24 * time.Hour)},
		{ID: "ring", Nodes: placed[1], Pattern: fattree.Ring(), BytesPerPair: 1e9, Start: start.Add(3 * time.Hour), End: start.Add(9 * time.Hour)},
	}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), jobs, start, start.Add(24*time.Hour), time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("board", func(b *testing.B) {
		for b.Loop() {
			if _, err := FatTree(f, rows, FatTreeOptions{Jobs: jobs}); err != nil {
				b.Fatal(err)
			}
		}
	})
	v, err := FatTree(f, rows, FatTreeOptions{Jobs: jobs})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("bundle", func(b *testing.B) {
		var html string
		for b.Loop() {
			html, _ = display.BundleOf(v).Data["text/html"].(string)
		}
		b.ReportMetric(float64(len(html)), "html-bytes")
	})
}
