package main

import (
	"fmt"
	"math"
	"os"

	"superstep/display"
	"superstep/display/views"
)

// writeMatrixSamples writes OUTDIR/matrix-samples.ipynb, the heat matrices
// of display/browsertest/matrix.test.mjs: a 16×16 matrix drawn as SVG and
// a 1,024×1,024 sparse one (seeded made-up traffic, about 60,000 pairs)
// drawn on a canvas, and a bad one; it exits on an error.
func writeMatrixSamples(dir string) {
	if err := write(dir, "matrix-samples.ipynb", matrixCells()); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
}

// ranks names n processes P0, P1, ….
func ranks(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("P%d", i)
	}
	return out
}

// smallMatrix is a 16-process halo exchange: each rank sends to its ±1 and
// ±4 neighbours (a 4×4 grid), more along rows, in bytes.
func smallMatrix() views.MatrixData {
	d := views.MatrixData{Title: "Halo exchange, 16 ranks", Rows: ranks(16), Cols: ranks(16),
		Values: make([]float64, 256), ValueName: "bytes", Unit: "B"}
	for r := range 16 {
		for _, off := range []int{-4, -1, 1, 4} {
			c := r + off
			if c < 0 || c >= 16 || (off == 1 && c%4 == 0) || (off == -1 && r%4 == 0) {
				continue
			}
			v := 3510.0 * 4096
			if off == 1 || off == -1 {
				v *= 2.5
			}
			d.Values[r*16+c] = v + float64(1000*r)
		}
	}
	return d
}

// largeMatrix is made-up irregular traffic of 1,024 ranks: ranks 0–511 talk
// to about 92 partners, the others to about 30 (about 60,000 pairs),
// 1..5,000 messages each, deterministic for the seed.
func largeMatrix(seed uint64) views.MatrixData {
	d := views.MatrixData{Title: "Irregular traffic, 1,024 ranks (made up)", Rows: ranks(1024), Cols: ranks(1024), ValueName: "messages"}
	x := seed*6364136223846793005 + 1442695040888963407
	rnd := func(k int) int {
		x = x*6364136223846793005 + 1442695040888963407
		return int((x >> 33) % uint64(k))
	}
	for r := range 1024 {
		partners := 30
		if r < 512 {
			partners = 92
		}
		seen := map[int]bool{}
		for range partners {
			c := rnd(1024)
			if seen[c] {
				continue
			}
			seen[c] = true
			d.Cells = append(d.Cells, views.MatrixEntry{Row: int32(r), Col: int32(c), Value: float64(1 + rnd(5000))})
		}
	}
	return d
}

// matrixExpect is what the browser test checks of a matrix: its size, the
// plot (origin and cell side in px of the picture), a point over a known
// non-zero cell (the cell (row, col), else the cell the point's pixel
// shows) and Go's hover text there.
func matrixExpect(name string, v *views.MatrixView, row, col int, canvas bool) map[string]any {
	d := v.Data
	left, top, s := v.Plot()
	x := left + math.Floor(float64(col)*s) + 0.5
	y := top + math.Floor(float64(row)*s) + 0.5
	if !canvas {
		x, y = left+(float64(col)+0.5)*s, top+(float64(row)+0.5)*s
	}
	r, c, ok := v.CellAt(x, y)
	tip := ""
	if ok {
		tip = v.Tip(r, c)
	}
	cells := len(d.Cells)
	if d.Values != nil {
		cells = 0
		for _, w := range d.Values {
			if w != 0 {
				cells++
			}
		}
	}
	return map[string]any{"kind": "matrix", "name": name, "canvas": canvas, "cells": cells,
		"plot":  map[string]any{"left": left, "top": top, "cell": s},
		"point": map[string]any{"x": x, "y": y, "row": r, "col": c, "tip": tip}}
}

func matrixCells() []cell {
	small := views.Matrix(smallMatrix())
	large := views.Matrix(largeMatrix(1))
	// The largest cell of the large matrix: its pixel shows it.
	best := 0
	for k, c := range large.Data.Cells {
		if c.Value > large.Data.Cells[best].Value {
			best = k
		}
	}
	b := large.Data.Cells[best]
	exp := matrixExpect("large", large, int(b.Row), int(b.Col), true)
	// More points: over cells spread through the data (a pixel may show a
	// larger neighbour: Go names it), and an empty pixel (no tooltip).
	var points []any
	for _, k := range []int{0, 777, 15000, 31000, 45000, len(large.Data.Cells) - 1} {
		c := large.Data.Cells[k]
		points = append(points, matrixExpect("", large, int(c.Row), int(c.Col), true)["point"])
	}
	left, top, _ := large.Plot()
	for y := 600.5; y < 640; y++ {
		if _, _, ok := large.CellAt(left+300.5, top+y); !ok {
			points = append(points, map[string]any{"x": left + 300.5, "y": top + y, "tip": ""})
			break
		}
	}
	exp["points"] = points
	// FormatMatrixValue on hand-picked values (halves, the decimal and
	// prefix thresholds) and on the large sample's first values: the
	// runtime must print each the same.
	var formats []map[string]any
	for _, u := range []string{"", "B", "B/s"} {
		for _, v := range []float64{0, 1, 0.5, 1.125, 2.675, 9.994, 9.995, 9.9951, 12.34, 99.949, 99.95, 99.96, 999.4,
			999.5, 1234, 60515, 999499, 999500, 1.2345e6, 45.6e6, 789e9, 1.5e18, 2.2e6, 3.14159} {
			formats = append(formats, map[string]any{"v": v, "unit": u, "text": views.FormatMatrixValue(v, u)})
		}
	}
	for _, c := range large.Data.Cells[:50] {
		formats = append(formats, map[string]any{"v": c.Value / 7, "unit": "B/s", "text": views.FormatMatrixValue(c.Value/7, "B/s")})
	}
	exp["formats"] = formats
	return []cell{
		{`views.Matrix(halo16) // 16×16 bytes, SVG`, small, matrixExpect("small", small, 5, 6, false)},
		{`views.Matrix(irregular1024) // 1,024×1,024, sparse, about 60,000 pairs: PNG and canvas`, bundleOnly{large}, exp},
		{`views.Matrix(views.MatrixData{Rows: []string{"a"}, Cols: []string{"b"}, Values: []float64{-1}})`,
			views.Matrix(views.MatrixData{Rows: []string{"a"}, Cols: []string{"b"}, Values: []float64{-1}}),
			map[string]any{"kind": "error", "name": "bad"}},
	}
}

// bundleOnly hides a view's SVG from withSVG: a large matrix's SVG (one rect
// per cell) would swell the samples and is not what the picture is drawn
// from.
type bundleOnly struct{ display.Renderer }
