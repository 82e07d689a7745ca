// Command samples writes OUTDIR/display-samples.ipynb: a notebook-shaped
// JSON file whose code cells hold, as display_data outputs, a trend view, a
// chord diagram, a treemap, a dashboard and two graph drawings (SVG and
// canvas) drawn from deterministic made-up data. The browser tests
// (display/browsertest) check them in headless Chromium; each cell's
// metadata "superstep_sample" says what to expect. It writes
// OUTDIR/chord-samples.ipynb too: chord diagrams on a common scale and a
// side-by-side comparison, for display/browsertest/chord.test.mjs, and
// OUTDIR/matrixboard-samples.ipynb: matrix boards (a k = 4 fat-tree with two
// jobs, a small generic board on a diverging map, Paper1296), for
// display/browsertest/matrixboard.test.mjs, and OUTDIR/ringgraph-samples.ipynb:
// ring graphs (a 4×4 torus, 512 leaves at 8/12/16 blocks, the paper's
// 1×4×4×4×2 torus with Go's expected filter counts, two 4×4×4 tori with an
// idle dimension on one width scale), for
// display/browsertest/ringgraph.test.mjs, and OUTDIR/row-samples.ipynb:
// rings and trends compared side by side in a views.Row, for
// display/browsertest/row.test.mjs; with $SUPERSTEP_RINGGRAPH_BENCH
// set it adds the 4×12×16×16×2 ring of ringgraph-bench.mjs. With -bench it
// writes only OUTDIR/matrixboard-bench.ipynb, the KAry(36) board of
// display/browsertest/bench.
//
//	go run ./sdk/internal/samples [-bench] OUTDIR
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"superstep/display"
	"superstep/display/views"
)

// The made-up cluster: 6 workers on 3 hosts on 2 racks.
var (
	workers = []string{"w0", "w1", "w2", "w3", "w4", "w5"}
	hostOf  = []int{0, 0, 1, 1, 2, 2}
	hosts   = []string{"h0", "h1", "h2"}
	rackOf  = []int{0, 0, 1} // of each host
	racks   = []string{"r0", "r1"}
	// vertices per worker, for the treemap
	vertices = []float64{5200, 4800, 6100, 3900, 5000, 5000}
)

const frames = 12

// messages[f][s][d]: a flood that swells and ebbs (like SSSP), neighbours
// on a host talking most, with a fixed pseudo-random texture.
func messages() [][][]float64 {
	m := make([][][]float64, frames)
	seed := uint32(7)
	rnd := func() float64 { seed = seed*1664525 + 1013904223; return float64(seed>>8) / float64(1<<24) }
	for f := range m {
		m[f] = make([][]float64, len(workers))
		wave := 0.25 + math.Sin(math.Pi*float64(f+1)/float64(frames+1))
		for s := range workers {
			m[f][s] = make([]float64, len(workers))
			for d := range workers {
				base := 40.0
				if hostOf[s] == hostOf[d] {
					base = 90
				}
				if s == d {
					base = 60 + 25*float64(s)
				}
				// Worker 3 floods its successor in frames 6–8.
				if s == 3 && d == 4 && f >= 5 && f <= 7 {
					base = 400
				}
				m[f][s][d] = math.Round(base * wave * (0.5 + rnd()) * 10)
			}
		}
	}
	return m
}

func bytesOf(msgs float64) float64 { return msgs*12 + 64 }

func sizeText(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// level aggregates worker traffic to units given by group (worker → unit).
func level(m [][][]float64, group []int, n int) [][][]float64 {
	out := make([][][]float64, len(m))
	for f := range m {
		out[f] = make([][]float64, n)
		for i := range out[f] {
			out[f][i] = make([]float64, n)
		}
		for s := range m[f] {
			for d := range m[f][s] {
				out[f][group[s]][group[d]] += m[f][s][d]
			}
		}
	}
	return out
}

func frameLabels() []string {
	l := make([]string, frames)
	for i := range l {
		l[i] = fmt.Sprint(i + 1)
	}
	return l
}

func workerUnits() []views.Unit {
	pal := views.Palette(len(workers))
	u := make([]views.Unit, len(workers))
	for i, w := range workers {
		h := hostOf[i]
		u[i] = views.Unit{ID: w, Name: w, Color: pal[i], Parents: []string{hosts[h], racks[rackOf[h]]}}
	}
	return u
}

func hostUnits() []views.Unit {
	pal := views.Palette(len(hosts))
	u := make([]views.Unit, len(hosts))
	for i, h := range hosts {
		u[i] = views.Unit{ID: h, Name: "host " + h[1:], Color: pal[i], Parents: []string{racks[rackOf[i]]}}
	}
	return u
}

func trendData(units []views.Unit, m [][][]float64, perPage int) views.TrendData {
	n := len(units)
	mat := func() [][]float64 {
		x := make([][]float64, n)
		for i := range x {
			x[i] = make([]float64, frames)
		}
		return x
	}
	tm, mo, mi, bo, bi := mat(), mat(), mat(), mat(), mat()
	for f := 0; f < frames; f++ {
		for s := 0; s < n; s++ {
			for d := 0; d < n; d++ {
				w := m[f][s][d]
				if s == d {
					continue
				}
				mo[s][f] += w
				mi[d][f] += w
				bo[s][f] += bytesOf(w)
				bi[d][f] += bytesOf(w)
			}
		}
		for u := 0; u < n; u++ {
			// compute time: proportional to traffic, unit 1 slower.
			t := 0.05 + (mo[u][f]+m[f][u][u])/20000
			if u == 1 {
				t *= 1.8
			}
			tm[u][f] = math.Round(t*1000) / 1000
		}
	}
	return views.TrendData{
		Title:  "heartbeat per " + map[bool]string{true: "worker", false: "host"}[n == len(workers)],
		Frames: frameLabels(),
		Units:  units,
		Panels: []views.TrendPanel{
			{Title: "compute time (s)", Out: tm},
			{Title: "messages", Out: mo, In: mi},
			{Title: "bytes", Out: bo, In: bi},
		},
		FramesPerPage: perPage,
	}
}

func chordData(units []views.Unit, m [][][]float64, rings []views.Ring) views.ChordData {
	d := views.ChordData{Units: units, Rings: rings, Selected: 6, WeightName: "messages"}
	for f := range m {
		fr := views.ChordFrame{Label: fmt.Sprint(f + 1), Weight: m[f]}
		for s := range m[f] {
			row := make([]string, len(m[f]))
			for t, w := range m[f][s] {
				row[t] = fmt.Sprintf("%s messages, %s", display.FormatNumber(w), sizeText(bytesOf(w)))
			}
			fr.Details = append(fr.Details, row)
		}
		d.Frames = append(d.Frames, fr)
	}
	return d
}

func workerRings() []views.Ring {
	hr := views.Ring{Name: "host"}
	for h, name := range hosts {
		hr.Groups = append(hr.Groups, views.RingGroup{ID: name, Name: "host " + name[1:], First: 2 * h, Last: 2*h + 1})
	}
	rr := views.Ring{Name: "rack", Groups: []views.RingGroup{
		{ID: "r0", Name: "rack 0", First: 0, Last: 3},
		{ID: "r1", Name: "rack 1", First: 4, Last: 5},
	}}
	return []views.Ring{hr, rr}
}

func hostRings() []views.Ring {
	return []views.Ring{{Name: "rack", Groups: []views.RingGroup{
		{ID: "r0", Name: "rack 0", First: 0, Last: 1},
		{ID: "r1", Name: "rack 1", First: 2, Last: 2},
	}}}
}

func tree() views.TreeNode {
	pal := views.Palette(len(workers))
	root := views.TreeNode{ID: "cluster", Name: "cluster (vertices)"}
	for r, rack := range racks {
		rn := views.TreeNode{ID: rack, Name: "rack " + rack[1:]}
		for h, host := range hosts {
			if rackOf[h] != r {
				continue
			}
			hn := views.TreeNode{ID: host, Name: "host " + host[1:]}
			for w, wk := range workers {
				if hostOf[w] == h {
					hn.Children = append(hn.Children, views.TreeNode{ID: wk, Name: wk, Color: pal[w], Value: vertices[w]})
				}
			}
			rn.Children = append(rn.Children, hn)
		}
		root.Children = append(root.Children, rn)
	}
	return root
}

// trendTip is the hover text the runtime shows for unit u at frame f: the
// browser test expects exactly this.
func trendTip(d views.TrendData, u, f int) string {
	s := d.Units[u].Name + " · frame " + d.Frames[f]
	for _, p := range d.Panels {
		if p.In == nil {
			s += "\n" + p.Title + ": " + display.FormatNumber(p.Out[u][f])
		} else {
			s += "\n" + p.Title + ": out " + display.FormatNumber(p.Out[u][f]) + " · in " + display.FormatNumber(p.In[u][f])
		}
	}
	return s
}

type cell struct {
	source string
	view   display.Renderer
	expect map[string]any
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-bench" {
		// The large boards of display/browsertest/bench only.
		cells, err := matrixboardBenchCells()
		if err == nil {
			err = write(os.Args[2], "matrixboard-bench.ipynb", cells)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "samples:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./sdk/internal/samples [-bench] OUTDIR")
		os.Exit(2)
	}
	wm := messages()
	hostGroup := hostOf
	hm := level(wm, hostGroup, len(hosts))

	trend := trendData(hostUnits(), hm, 8)
	chord := chordData(workerUnits(), wm, workerRings())
	tr := tree()
	wTrend := trendData(workerUnits(), wm, 0)
	// The messages a filter keeps: all the workers' but the hidden ones'.
	sent := func(hide ...int) float64 {
		sum := 0.0
		for u, row := range wTrend.Panels[1].Out {
			if !slices.Contains(hide, u) {
				for _, v := range row {
					sum += v
				}
			}
		}
		return sum
	}
	dash := views.DashboardData{
		Title: "SSSP on a made-up graph",
		Stats: []views.Stat{
			{Label: "supersteps", Value: "12"},
			{Label: "messages", Value: display.FormatNumber(sent()), Sums: "messages"},
			{Label: "bytes", Value: sizeText(total(wm)*12 + 64*36*frames)},
			{Label: "running time", Value: "3.2 s"},
		},
		Levels: []views.DashboardLevel{
			{Name: "worker", Trend: wTrend, Chord: chordData(workerUnits(), wm, workerRings())},
			{Name: "host", Trend: trendData(hostUnits(), hm, 0), Chord: chordData(hostUnits(), hm, hostRings())},
		},
		Tree: tr,
	}
	slideTo := 2
	cells := []cell{
		{`views.Trend(trend) // 3 hosts × 12 frames × 3 panels, 8 frames a page`, views.Trend(trend), map[string]any{
			"kind":  "trend",
			"point": map[string]any{"panel": 1, "unit": 2, "frame": 3, "tip": trendTip(trend, 2, 3)},
			"pages": 2,
		}},
		{`views.Chord(chord) // 6 workers on 3 hosts on 2 racks, 12 frames`, views.Chord(chord), map[string]any{
			"kind":     "chord",
			"selected": chord.Selected,
			"slideTo":  slideTo,
			"ribbon":   "3-4",
			"tip":      "w3 → w4\n" + chord.Frames[chord.Selected].Details[3][4],
			"tipAfter": "w3 → w4\n" + chord.Frames[slideTo].Details[3][4],
		}},
		{`views.Treemap(tree) // racks › hosts › workers, sized by vertices`, views.Treemap(tr), map[string]any{
			"kind": "treemap",
			"tile": "w2",
			"tip":  "rack 0 › host 1 › w2\n" + display.FormatNumber(vertices[2]),
		}},
		{`views.Dashboard(dash) // worker and host levels, linked`, views.Dashboard(dash), map[string]any{
			"kind":   "dashboard",
			"levels": []string{"worker", "host"},
			"filters": []map[string]any{
				{"tile": "w2", "hides": []string{"w2"}, "messages": display.FormatNumber(sent(2)) + " of " + display.FormatNumber(sent())},
				{"tile": "h1", "hides": []string{"w2", "w3"}, "messages": display.FormatNumber(sent(2, 3)) + " of " + display.FormatNumber(sent())},
			},
			"units":   workers,
			"slideTo": slideTo,
			"point":   map[string]any{"panel": 1, "unit": 4, "frame": 6, "tip": trendTip(wTrend, 4, 6)},
		}},
	}
	cells = append(cells, drawingCells()...)
	cells = append(cells, animateCells()...)
	// Empty data: each view still draws a picture, live and static.
	cells = append(cells,
		cell{`views.Trend(views.TrendData{})`, views.Trend(views.TrendData{}), map[string]any{"kind": "empty"}},
		cell{`views.Chord(views.ChordData{})`, views.Chord(views.ChordData{}), map[string]any{"kind": "empty"}},
		cell{`views.Treemap(views.TreeNode{})`, views.Treemap(views.TreeNode{}), map[string]any{"kind": "empty"}},
		cell{`views.Dashboard(views.DashboardData{})`, views.Dashboard(views.DashboardData{}), map[string]any{"kind": "empty"}},
		cell{`views.Drawing(views.DrawingData{})`, views.Drawing(views.DrawingData{}), map[string]any{"kind": "empty"}},
	)
	if err := write(os.Args[1], "display-samples.ipynb", cells); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
	if err := write(os.Args[1], "chord-samples.ipynb", chordCells(wm)); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
	writeSenderReceiverSamples(os.Args[1])
	if err := write(os.Args[1], "ringgraph-samples.ipynb", ringgraphCells()); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
	if err := write(os.Args[1], "row-samples.ipynb", rowCells()); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
	writeMatrixSamples(os.Args[1])
	writeTimelineSamples(os.Args[1])
	mb, err := matrixboardCells()
	if err == nil {
		err = write(os.Args[1], "matrixboard-samples.ipynb", mb)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
}

func total(m [][][]float64) float64 {
	t := 0.0
	for _, f := range m {
		for s, row := range f {
			for d, w := range row {
				if s != d {
					t += w
				}
			}
		}
	}
	return t
}

// write writes cells as the notebook dir/name.
func write(dir, name string, cells []cell) error {
	nbCells := []map[string]any{{
		"cell_type": "markdown", "id": "samples-intro", "metadata": map[string]any{},
		"source": "Display samples: deterministic made-up data drawn by `superstep/display` " +
			"(written by `go run ./sdk/internal/samples`, checked by display/browsertest).",
	}}
	// As in the kernel: the runtime travels in the first live display.
	var carrier display.Carrier
	for i, c := range cells {
		b := carrier.Prepare(c.view.MIMEBundle(), "")
		nbCells = append(nbCells, map[string]any{
			"cell_type":       "code",
			"execution_count": i + 1,
			"id":              fmt.Sprintf("sample-%d", i+1),
			"metadata":        map[string]any{"superstep_sample": withSVG(c.expect, c.view)},
			"source":          c.source,
			"outputs": []map[string]any{{
				"output_type": "display_data",
				"data":        b.Data,
				"metadata":    orEmpty(b.Metadata),
			}},
		})
	}
	nb := map[string]any{
		"cells": nbCells,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"display_name": "Go (Superstep)", "language": "go", "name": "superstep"},
			"language_info": map[string]any{"name": "go", "file_extension": ".go", "mimetype": "text/x-go"},
		},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	raw, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), append(raw, '\n'), 0o644)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// withSVG adds the view's SVG (what its static PNG is drawn from and
// views.Save writes) to what the browser test expects, for its checks
// of Go's geometry.
func withSVG(expect map[string]any, v display.Renderer) map[string]any {
	pic, ok := v.(interface{ SVG() string })
	if !ok {
		return expect
	}
	out := map[string]any{"svg": pic.SVG()}
	for k, x := range expect {
		out[k] = x
	}
	return out
}
