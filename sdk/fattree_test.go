package sdk

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"

	"superstep/display/views"
	"superstep/sdk/table"
	"superstep/topology/fattree"
)

func k4(t *testing.T) *fattree.Fabric {
	t.Helper()
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// An all-to-all job over the k = 4 tree for an hour, counters every
// minute: every L1↔L2 cell carries 14 routes, every L2↔L3 cell 12 (the
// hand count of issue 12), times bytes per pair per second, times 3600 s.
func TestFatTreeBoardAllToAll(t *testing.T) {
	f := k4(t)
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	job := fattree.Job{ID: "a2a", Nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, Pattern: fattree.AllToAll(), BytesPerPair: 1000}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), []fattree.Job{job}, start, start.Add(time.Hour), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fatTreeBoard(context.Background(), f, rows, FatTreeOptions{Jobs: []fattree.Job{job}, Bins: 12})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Panels) != 4 || len(d.Bins) != 12 || len(d.Items) != 96 {
		t.Fatalf("%d panels, %d bins, %d items", len(d.Panels), len(d.Bins), len(d.Items))
	}
	if d.Bins[0].Start != start || d.Bins[11].End != start.Add(time.Hour) || d.Bins[1].Start != start.Add(5*time.Minute) {
		t.Fatalf("bins %v … %v", d.Bins[0], d.Bins[11])
	}
	cells := 0
	v := views.MatrixBoard(d)
	s, err := v.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if s.Cells != 64 {
		t.Fatalf("%d cells", s.Cells)
	}
	index := map[string]int{}
	for i, it := range d.Items {
		index[it.ID] = i
	}
	for _, p := range d.Panels {
		for _, c := range p.Cells {
			cells++
			it := d.Items[index[c.Item]]
			k := fattree.Kind(it.Category)
			total := 0.0
			for _, x := range d.Values[index[c.Item]] {
				total += float64(x)
			}
			routes := 14.0
			if k == fattree.Up23 || k == fattree.Down32 {
				routes = 12
			}
			if want := routes * 1000 * 3600; math.Abs(total-want) > 0.5 {
				t.Fatalf("%s (%v): %v bytes, want %v", it.Name, k, total, want)
			}
			// Left (In) columns hold links into the column's L2, right ones links out.
			col := p.Blocks[c.Block].Columns[c.Column].ID
			if c.Side == views.MatrixIn && it.To != col || c.Side == views.MatrixOut && it.From != col {
				t.Fatalf("%s sits on side %v of column %s", it.Name, c.Side, col)
			}
			if !strings.HasPrefix(it.Name, "L") {
				t.Fatalf("cell %s is not between switches", it.Name)
			}
		}
	}
	if cells != 64 {
		t.Fatalf("%d cells", cells)
	}
	// The job's footprint is every link and switch; 2 nodes under each L1.
	j := d.Jobs[0]
	if len(j.Items) != 96 || len(j.Headers) != 20 || len(j.Stacks) != 8 || j.Stacks[f.Switches[f.L1(2, 1)].Name] != 2 {
		t.Fatalf("job: %d items, %d headers, stacks %v", len(j.Items), len(j.Headers), j.Stacks)
	}
}

func TestFatTreeLoadsAndRoute(t *testing.T) {
	f := k4(t)
	all := make([]int, 16)
	for i := range all {
		all[i] = i
	}
	tb, err := FatTreeLoads(f, nil, []fattree.Job{{ID: "a2a", Nodes: all, Pattern: fattree.AllToAll(), BytesPerPair: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows() != 96 || tb.NumCols() != 7 {
		t.Fatalf("%d rows, %d columns", tb.NumRows(), tb.NumCols())
	}
	// The hand counts: every L0↔L1 link 15 routes, L1↔L2 14, L2↔L3 12.
	want := map[string]int64{"L0->L1": 15, "L1->L0": 15, "L1->L2": 14, "L2->L1": 14, "L2->L3": 12, "L3->L2": 12}
	cols, err := table.Read(tb, []arrow.Field{tb.Schema().Field(1), tb.Schema().Field(4), tb.Schema().Field(5)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 96; i++ {
		kind, load, routes := cols[0].Strings[i], cols[1].Floats[i], cols[2].Ints[i]
		if routes != want[kind] || load != float64(2*want[kind]) {
			t.Fatalf("row %d (%s): %d routes, %v B/s", i, kind, routes, load)
		}
	}
	got, err := FatTreeRoute(f, nil, 0, 13)
	if err != nil {
		t.Fatal(err)
	}
	if w := "node 0 → L1 p0 s0 → L2 p0 s1 → L3 b1 s0 → L2 p3 s1 → L1 p3 s0 → node 13"; got != w {
		t.Fatalf("route 0→13: %s, want %s", got, w)
	}
}
