package main

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"time"

	"superstep/display"
	"superstep/display/views"
	"superstep/sdk"
	"superstep/topology/fattree"
)

// The samples of matrixboard-samples.ipynb (display/browsertest/
// matrixboard.test.mjs): a k = 4 fat-tree with simulated counters and two
// jobs, a small generic board on a diverging map, and the Paper1296 tree.
// Everything the browser test expects is computed here from the board's
// data with the display and fattree APIs: window totals summed as the
// board sums them (float64, bin order), texts formatted with
// display.FormatValue, fills read from the static SVG.

// mbHistBins is the live histogram's bin count (matrixboard.js).
const mbHistBins = 20

var mbStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// mbValue is item i's value in bin b, as the board reads it (NaN and ±Inf
// are 0).
func mbValue(d views.MatrixBoardData, i, b int) float64 {
	if i >= len(d.Values) || b >= len(d.Values[i]) {
		return 0
	}
	v := float64(d.Values[i][b])
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// mbTotals is every item's total over bins w[0]..w[1].
func mbTotals(d views.MatrixBoardData, w [2]int) []float64 {
	t := make([]float64, len(d.Items))
	for i := range t {
		for b := w[0]; b <= w[1]; b++ {
			t[i] += mbValue(d, i, b)
		}
	}
	return t
}

// mbCell is one cell of the board: its item index and its box in the
// static picture (no title strip).
type mbCell struct {
	item int
	box  views.MatrixRect
	dir  string
}

func mbCells(d views.MatrixBoardData) ([]mbCell, error) {
	opt := views.DefaultMatrixBoardOptions()
	if d.Layout != nil {
		opt = *d.Layout
	}
	geo, err := views.MatrixBoardLayout(d, opt)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, it := range d.Items {
		index[it.ID] = i
	}
	var cells []mbCell
	for p, panel := range d.Panels {
		for k, c := range panel.Cells {
			i := index[c.Item]
			cells = append(cells, mbCell{item: i, box: geo.Panels[p].Cells[k].MatrixRect, dir: d.Categories[d.Items[i].Category].Direction})
		}
	}
	return cells, nil
}

// mbOverlaps reports whether job j runs during bins a..b.
func mbOverlaps(d views.MatrixBoardData, j views.MatrixJob, a, b int) bool {
	s, e := d.Bins[a].Start, d.Bins[b].End
	return (j.Start.IsZero() || j.Start.Before(e)) && (j.End.IsZero() || j.End.After(s))
}

// mbTip is the hover text of item i's cell over bins w: its name, its
// total, and the jobs running in the window whose footprint holds it
// (none selected in the table).
func mbTip(d views.MatrixBoardData, i int, w [2]int) string {
	s := d.Items[i].Name + "\n" + display.FormatValue(mbTotals(d, w)[i], d.Unit)
	var ids []string
	for _, j := range d.Jobs {
		if !mbOverlaps(d, j, w[0], w[1]) {
			continue
		}
		for _, id := range j.Items {
			if id == d.Items[i].ID {
				ids = append(ids, j.ID)
				break
			}
		}
	}
	for k, id := range ids {
		if k == 0 {
			s += "\nused by " + id
		} else {
			s += ", " + id
		}
	}
	return s
}

// mbFill is the fill of the static picture's cell at box b.
func mbFill(svg string, b views.MatrixRect) string {
	n2 := func(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }
	re := regexp.MustCompile(`<rect x="` + regexp.QuoteMeta(n2(b.X)) + `" y="` + regexp.QuoteMeta(n2(b.Y)) +
		`" width="` + regexp.QuoteMeta(n2(b.W)) + `" height="` + regexp.QuoteMeta(n2(b.H)) + `" fill="(#[0-9a-f]{6})"/>`)
	m := re.FindStringSubmatch(svg)
	if m == nil {
		return ""
	}
	return m[1]
}

// mbBin is the histogram bin of total t over [lo, hi] (matrixboard.js).
func mbBin(t, lo, hi float64) int {
	if hi == lo {
		if t <= lo {
			return 0
		}
		return mbHistBins - 1
	}
	x := math.Floor((t - lo) / (hi - lo) * mbHistBins)
	switch {
	case !(x >= 0):
		return 0
	case x > mbHistBins-1:
		return mbHistBins - 1
	}
	return int(x)
}

// mbSnap is the bins a job's interval [s, e) covers: from the first bin
// ending after s to the last starting before e.
func mbSnap(d views.MatrixBoardData, s, e time.Time) [2]int {
	nb := len(d.Bins)
	a := 0
	for a < nb-1 && !(s.IsZero() || d.Bins[a].End.After(s)) {
		a++
	}
	b := nb - 1
	for b > a && !(e.IsZero() || d.Bins[b].Start.Before(e)) {
		b--
	}
	return [2]int{a, b}
}

// mbExpect is what the browser test checks on a board: named is the item
// id of the cell to hover, hist the histogram range [a, b) to brush.
func mbExpect(name string, v *views.MatrixBoardView, named string, hist [2]int) (map[string]any, error) {
	d := v.Data
	cells, err := mbCells(d)
	if err != nil {
		return nil, err
	}
	sum, err := v.Summary()
	if err != nil {
		return nil, err
	}
	nb := len(d.Bins)
	win := sum.Window
	tot := mbTotals(d, win)
	svg := v.SVG()
	named_i := -1
	var box views.MatrixRect
	for _, c := range cells {
		if d.Items[c.item].ID == named {
			named_i, box = c.item, c.box
		}
	}
	if named_i < 0 {
		return nil, fmt.Errorf("%s: no cell for item %q", name, named)
	}
	// The histogram over every cell (direction "both").
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cells {
		lo, hi = math.Min(lo, tot[c.item]), math.Max(hi, tot[c.item])
	}
	inside := 0
	for _, c := range cells {
		if k := mbBin(tot[c.item], lo, hi); k >= hist[0] && k < hist[1] {
			inside++
		}
	}
	dirs := map[string]int{}
	for _, c := range cells {
		dirs[c.dir]++
	}
	// Series: one per distinct key of the categories that have items.
	series := map[string]int{}
	for _, mode := range []string{"none", "direction", "level", "both"} {
		keys := map[string]bool{}
		for _, it := range d.Items {
			c := d.Categories[it.Category]
			keys[map[string]string{"none": "", "direction": c.Direction, "level": c.Level, "both": c.Level + " " + c.Direction}[mode]] = true
		}
		series[mode] = len(keys)
	}
	exp := map[string]any{
		"kind":       "matrixboard",
		"name":       name,
		"cells":      len(cells),
		"bins":       nb,
		"window":     win,
		"item":       named,
		"tip":        mbTip(d, named_i, win),
		"fill":       mbFill(svg, box),
		"hist":       map[string]any{"range": hist, "inclusive": inside, "exclusive": len(cells) - inside},
		"series":     series,
		"directions": dirs,
		"hot":        len(sum.Hot),
	}
	if nb >= 4 {
		exp["bins23"] = map[string]any{"window": [2]int{2, 3}, "tip": mbTip(d, named_i, [2]int{2, 3})}
	}
	if len(d.Jobs) > 0 {
		j := d.Jobs[0]
		holds := map[string]bool{}
		for _, id := range j.Items {
			holds[id] = true
		}
		n := 0
		for _, c := range cells {
			if holds[d.Items[c.item].ID] {
				n++
			}
		}
		stacks := 0
		for _, k := range j.Stacks {
			stacks += k
		}
		exp["job"] = map[string]any{"id": j.ID, "window": mbSnap(d, j.Start, j.End), "cells": n, "items": len(j.Items), "stackNodes": stacks}
	}
	if d.Routes != nil {
		r, err := mbRoutes(v, cells)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		exp["routes"] = r
	}
	return exp, nil
}

// mbRoutes is what route clicks must give, by display's RouteItems: the
// first top header of the first panel clicked (a source) and that of the
// last panel shift-clicked (a destination); then, with the first job
// selected, a click on the first cell of its footprint (d(ℓ) ∩ N(J)).
func mbRoutes(v *views.MatrixBoardView, cells []mbCell) (map[string]any, error) {
	d := v.Data
	hasCell := map[string]bool{}
	for _, c := range cells {
		hasCell[d.Items[c.item].ID] = true
	}
	onCells := func(items []string) []string {
		out := []string{}
		for _, id := range items {
			if hasCell[id] {
				out = append(out, id)
			}
		}
		sort.Strings(out)
		return out
	}
	src, dst := d.Panels[0].Top[0].ID, d.Panels[len(d.Panels)-1].Top[0].ID
	items, headers, err := v.RouteItems(views.MatrixSelection{Headers: []string{src}}, views.MatrixSelection{Headers: []string{dst}}, nil)
	if err != nil {
		return nil, err
	}
	r := map[string]any{"src": src, "dst": dst, "items": len(items), "cells": onCells(items), "headers": len(headers)}
	if len(d.Jobs) > 0 {
		j := d.Jobs[0]
		from := ""
		for _, id := range j.Items {
			if hasCell[id] {
				from = id
				break
			}
		}
		items, _, err := v.RouteItems(views.MatrixSelection{Items: []string{from}}, views.MatrixSelection{}, []string{j.ID})
		if err != nil {
			return nil, err
		}
		r["job"] = map[string]any{"id": j.ID, "item": from, "items": len(items), "cells": onCells(items)}
	}
	return r, nil
}

// fatTreeBoard simulates jobs on spec for n intervals of step and builds
// the board.
func fatTreeBoard(spec fattree.Spec, sizes []int, when [][2]int, n int, step time.Duration, threshold func([]float64) float64) (*views.MatrixBoardView, error) {
	f, err := fattree.Build(spec)
	if err != nil {
		return nil, err
	}
	places, err := fattree.Place(f, fattree.Contiguous, sizes, 1)
	if err != nil {
		return nil, err
	}
	patterns := []fattree.Pattern{fattree.AllToAll(), fattree.Ring(), fattree.Shift(3)}
	var jobs []fattree.Job
	for k, nodes := range places {
		jobs = append(jobs, fattree.Job{ID: fmt.Sprintf("job%d", k+1), Nodes: nodes, Pattern: patterns[k%len(patterns)],
			BytesPerPair: 2e6 / float64(k+1), Start: mbStart.Add(time.Duration(when[k][0]) * step), End: mbStart.Add(time.Duration(when[k][1]) * step)})
	}
	ctx := context.Background()
	r := fattree.DModK(f)
	rows, err := fattree.Simulate(ctx, f, r, jobs, mbStart, mbStart.Add(time.Duration(n)*step), step)
	if err != nil {
		return nil, err
	}
	v, err := sdk.FatTree(f, rows, sdk.FatTreeOptions{Routing: r, Jobs: jobs})
	if err != nil {
		return nil, err
	}
	if threshold != nil {
		cells, err := mbCells(v.Data)
		if err != nil {
			return nil, err
		}
		tot := mbTotals(v.Data, [2]int{0, len(v.Data.Bins) - 1})
		var ts []float64
		for _, c := range cells {
			ts = append(ts, tot[c.item])
		}
		v.Data.Threshold = threshold(ts)
	}
	return v, nil
}

// genericBoard is one panel, two top rows, one column: four cells whose
// totals are 1, 2, 3 and 6 kB over four bins, on the diverging RdYlBu⁻¹
// map, so that the cell of 3 kB equals the mean.
func genericBoard() *views.MatrixBoardView {
	d := views.MatrixBoardData{
		Title:      "generic board",
		Unit:       "B",
		Categories: []views.MatrixCategory{{Name: "a→b", Level: "ab", Direction: "up"}},
		Maps:       map[string]views.MatrixColorMap{"up": {Ramp: "rdylbu"}},
	}
	for b := 0; b < 4; b++ {
		d.Bins = append(d.Bins, views.MatrixBin{Start: mbStart.Add(time.Duration(b) * time.Hour), End: mbStart.Add(time.Duration(b+1) * time.Hour)})
	}
	panel := views.MatrixPanel{Label: "panel",
		Top:    []views.MatrixHeader{{ID: "t0"}, {ID: "t1"}},
		Blocks: []views.MatrixBlock{{Columns: []views.MatrixHeader{{ID: "c0"}}}}}
	totals := []float64{1000, 2000, 3000, 6000}
	k := 0
	for row := 0; row < 2; row++ {
		for _, side := range []views.MatrixSide{views.MatrixIn, views.MatrixOut} {
			id := fmt.Sprintf("x%d", k)
			from, to := fmt.Sprintf("t%d", row), "c0"
			if side == views.MatrixOut {
				from, to = to, from
			}
			d.Items = append(d.Items, views.MatrixItem{ID: id, Name: fmt.Sprintf("%s → %s", from, to), From: from, To: to})
			panel.Cells = append(panel.Cells, views.MatrixCell{Item: id, Column: 0, Side: side, Row: row})
			q := float32(totals[k] / 4)
			d.Values = append(d.Values, []float32{q, q, q, q})
			k++
		}
	}
	d.Panels = []views.MatrixPanel{panel}
	return views.MatrixBoard(d)
}

// matrixboardCells are the samples of matrixboard-samples.ipynb.
func matrixboardCells() ([]cell, error) {
	var out []cell
	// (a) k = 4: 12 intervals of 5 minutes, job1 (nodes 0–7, all-to-all)
	// from 10 to 40 minutes, job2 (nodes 8–15, ring) from 25 to 60; the
	// threshold outlines the top fifth of the cells.
	k4, err := fatTreeBoard(fattree.KAry(4), []int{8, 8}, [][2]int{{2, 8}, {5, 12}}, 12, 5*time.Minute, func(ts []float64) float64 {
		best := append([]float64(nil), ts...)
		sortFloats(best)
		return best[len(best)*4/5]
	})
	if err != nil {
		return nil, err
	}
	sum, err := k4.Summary()
	if err != nil {
		return nil, err
	}
	exp, err := mbExpect("k4", k4, sum.MaxItem, [2]int{5, 15})
	if err != nil {
		return nil, err
	}
	out = append(out, cell{`sdk.FatTree(fattree k = 4, simulated counters, 2 jobs)`, k4, exp})

	// (a') compare: the k = 4 board under D-mod-k (A) and under a seeded
	// random routing (B), on one scale, and B − A.
	cmp, exp, err := compareSample()
	if err != nil {
		return nil, err
	}
	out = append(out, cell{`sdk.FatTreeCompare(k = 4 under D-mod-k, under Random(7))`, cmp, exp})

	// (b) the generic board: the cell of 3 kB is the mean.
	g := genericBoard()
	exp, err = mbExpect("generic", g, "x2", [2]int{0, 10})
	if err != nil {
		return nil, err
	}
	rd, err := views.RampByName("rdylbu")
	if err != nil {
		return nil, err
	}
	c := rd.Colors[128]
	exp["meanFill"] = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	out = append(out, cell{`views.MatrixBoard(generic) // 4 cells: 1, 2, 3, 6 kB, diverging`, g, exp})

	// (c) Paper1296: 24 intervals of 10 minutes, three jobs.
	p, err := fatTreeBoard(fattree.Paper1296(), []int{512, 256, 128}, [][2]int{{2, 14}, {6, 20}, {0, 24}}, 24, 10*time.Minute, func(ts []float64) float64 {
		best := append([]float64(nil), ts...)
		sortFloats(best)
		return best[len(best)*19/20]
	})
	if err != nil {
		return nil, err
	}
	sum, err = p.Summary()
	if err != nil {
		return nil, err
	}
	exp, err = mbExpect("paper1296", p, sum.MaxItem, [2]int{4, 12})
	if err != nil {
		return nil, err
	}
	out = append(out, cell{`sdk.FatTree(fattree Paper1296, simulated counters, 3 jobs)`, p, exp})

	// (d) a fabric with holes, and its compare row.
	holes, err := holesSample()
	if err != nil {
		return nil, fmt.Errorf("holes: %w", err)
	}
	return append(out, holes...), nil
}

func sortFloats(x []float64) { sort.Float64s(x) }

// compareSample is the compare row and what the browser test expects of
// it: three boards, and on the difference board every cell's text is its
// item's name and B's total minus A's.
func compareSample() (views.RowView, map[string]any, error) {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		return views.RowView{}, nil, err
	}
	job := fattree.Job{ID: "a2a", Nodes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, Pattern: fattree.AllToAll(), BytesPerPair: 1e6}
	var boards []*views.MatrixBoardView
	for _, r := range []fattree.Routing{fattree.DModK(f), fattree.Random(f, 7)} {
		rows, err := fattree.Simulate(context.Background(), f, r, []fattree.Job{job}, mbStart, mbStart.Add(time.Hour), 10*time.Minute)
		if err != nil {
			return views.RowView{}, nil, err
		}
		v, err := sdk.FatTree(f, rows, sdk.FatTreeOptions{Routing: r})
		if err != nil {
			return views.RowView{}, nil, err
		}
		boards = append(boards, v)
	}
	row, err := sdk.FatTreeCompare(boards[0], boards[1])
	if err != nil {
		return views.RowView{}, nil, err
	}
	a, b := boards[0].Data, boards[1].Data
	ta, tb := mbTotals(a, [2]int{0, len(a.Bins) - 1}), mbTotals(b, [2]int{0, len(b.Bins) - 1})
	cells, err := mbCells(a)
	if err != nil {
		return views.RowView{}, nil, err
	}
	tips := map[string]string{}
	nonzero := 0
	for _, c := range cells {
		it := a.Items[c.item]
		if b.Items[c.item].ID != it.ID {
			return views.RowView{}, nil, fmt.Errorf("compare: items in another order")
		}
		tips[it.ID] = it.Name + "\n" + display.FormatValue(tb[c.item]-ta[c.item], a.Unit)
		if tb[c.item] != ta[c.item] {
			nonzero++
		}
	}
	return row, map[string]any{"name": "compare", "boards": len(row.Items), "diffTips": tips, "changed": nonzero}, nil
}

// matrixboardBenchCells is the board of matrixboard-bench.ipynb
// (display/browsertest/bench): KAry(36), 46,656 cells on a canvas.
func matrixboardBenchCells() ([]cell, error) {
	v, err := fatTreeBoard(fattree.KAry(36), []int{4096, 2048}, [][2]int{{1, 8}, {4, 12}}, 12, 10*time.Minute, nil)
	if err != nil {
		return nil, err
	}
	sum, err := v.Summary()
	if err != nil {
		return nil, err
	}
	exp, err := mbExpect("kary36", v, sum.MaxItem, [2]int{4, 12})
	if err != nil {
		return nil, err
	}
	return []cell{{`sdk.FatTree(fattree KAry(36), simulated counters, 2 jobs)`, v, exp}}, nil
}
