package sdk_test

import (
	"fmt"
	"time"

	"superstep/display"
	"superstep/sdk"
	"superstep/topology/fattree"
)

// An all-to-all job on the k = 4 tree for an hour at 1 MB/s per pair:
// every L1↔L2 link carries 14 of the 240 routes (50.4 GB in the hour),
// every L2↔L3 link 12 (43.2 GB).
func ExampleFatTree() {
	f, _ := fattree.Build(fattree.KAry(4))
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	job := fattree.Job{ID: "a2a", Nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
		Pattern: fattree.AllToAll(), BytesPerPair: 1e6}
	counters, _ := fattree.Simulate(sdk.Context(), f, fattree.DModK(f), []fattree.Job{job}, start, start.Add(time.Hour), time.Minute)
	board, _ := sdk.FatTree(f, counters, sdk.FatTreeOptions{Threshold: 50e9})
	s, _ := board.Summary()
	fmt.Println(s.Cells, "cells,", s.Bins, "bins")
	fmt.Println("largest:", display.FormatValue(s.Max, "B"), "on", s.MaxItem)
	fmt.Println(len(s.Hot), "cells at or above 50 GB")
	// Output:
	// 64 cells, 60 bins
	// largest: 50.4 GB on c32
	// 32 cells at or above 50 GB
}
