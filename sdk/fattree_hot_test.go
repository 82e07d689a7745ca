package sdk

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/topology/fattree"
)

// notebook03Day is the day board of notebook 03: five jobs placed
// fragmented over the 1,296-node machine, counters every five minutes
// for a day.
func notebook03Day(t *testing.T, threshold float64) (*fattree.Fabric, []fattree.Job, []fattree.CounterRow) {
	t.Helper()
	f, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	day := []fattree.Job{
		{ID: "lulesh", Pattern: fattree.Stencil3D(8, 8, 8, true), BytesPerPair: 2e8},
		{ID: "fft", Pattern: fattree.Transpose(), BytesPerPair: 1e6},
		{ID: "qbox", Pattern: fattree.AllToAll(), BytesPerPair: 2e5},
		{ID: "ring", Pattern: fattree.Ring(), BytesPerPair: 1e9},
		{ID: "io", Pattern: fattree.Gather(), BytesPerPair: 5e7},
	}
	placed, err := fattree.Place(f, fattree.Fragmented, []int{512, 256, 324, 128, 64}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range [][2]int{{0, 9}, {2, 5}, {8, 20}, {13, 24}, {18, 19}} {
		day[i].Nodes = placed[i]
		day[i].Start, day[i].End = start.Add(time.Duration(h[0])*time.Hour), start.Add(time.Duration(h[1])*time.Hour)
	}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), day, start, start.Add(24*time.Hour), 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return f, day, rows
}

// TestFatTreeDefaultThreshold: notebook 03's day board with the default
// threshold outlines at most 5 % of its cells (the 2 TB it passed
// outlined 65 %), and the legend says what the outline means.
func TestFatTreeDefaultThreshold(t *testing.T) {
	f, day, rows := notebook03Day(t, 0)
	for _, tc := range []struct {
		threshold float64
		lo, hi    float64 // the outlined share
	}{
		{0, 0.01, 0.05},
		{2e12, 0.5, 1}, // what the notebook passed: most of the board
		{-1, 0, 0},
	} {
		v, err := FatTree(f, rows, FatTreeOptions{Title: "a day, 5-minute counters", Jobs: day, Bins: 96, Threshold: tc.threshold})
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Summary()
		if err != nil {
			t.Fatal(err)
		}
		share := float64(len(s.Hot)) / float64(s.Cells)
		t.Logf("threshold %v: %d of %d cells outlined (%.1f %%)", tc.threshold, len(s.Hot), s.Cells, 100*share)
		if share < tc.lo || share > tc.hi {
			t.Errorf("threshold %v: %.1f %% of the cells outlined, want %.0f–%.0f %%", tc.threshold, 100*share, 100*tc.lo, 100*tc.hi)
		}
		if svg := v.SVG(); (tc.threshold >= 0) != strings.Contains(svg, "outlined: ≥ ") {
			t.Errorf("threshold %v: the legend's outline key: %v", tc.threshold, strings.Contains(svg, "outlined: ≥ "))
		}
	}
}

// TestFatTreeSmallTreeNamesL1: the k = 4 board of notebook 03 names its
// L1 switches left of their bars (its prose says "click L1 p0 s0"),
// every name inside the picture and clear of the bars; a large tree's
// rows stay unnamed.
func TestFatTreeSmallTreeNamesL1(t *testing.T) {
	f := k4(t)
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	job := fattree.Job{ID: "a2a", Nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, Pattern: fattree.AllToAll(), BytesPerPair: 1e6, Start: start, End: start.Add(time.Hour)}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), []fattree.Job{job}, start, start.Add(time.Hour), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	v, err := FatTree(f, rows, FatTreeOptions{Title: "k = 4, all-to-all", Jobs: []fattree.Job{job}})
	if err != nil {
		t.Fatal(err)
	}
	svg := v.SVG()
	width := 0.0
	if m := regexp.MustCompile(`^<svg [^>]*width="([0-9.]+)"`).FindStringSubmatch(svg); m != nil {
		width, _ = strconv.ParseFloat(m[1], 64)
	}
	label := regexp.MustCompile(`<text x="([0-9.]+)" y="[0-9.]+" font-size="10" text-anchor="end"[^>]*>(L1 p\d s\d)</text>`)
	found := map[string]bool{}
	for _, m := range label.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		if w := float64(len([]rune(m[2]))) * 10 * 0.58; x-w < 0 || x > width {
			t.Errorf("%q spans x %.1f–%.1f, outside 0–%v", m[2], x-w, x, width)
		}
		found[m[2]] = true
	}
	for _, name := range []string{"L1 p0 s0", "L1 p3 s0"} {
		if !found[name] {
			t.Errorf("no label %q on the k = 4 board (labels: %v)", name, found)
		}
	}
	if len(found) != 8 {
		t.Errorf("%d L1 labels, want 8", len(found))
	}
	if w := width; w > 923 {
		t.Errorf("the k = 4 board is %v px wide, wider than an output", w)
	}
}
