package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"superstep/display"
	"superstep/display/views"
	"superstep/sdk"
	"superstep/topology/fattree"
	"superstep/topology/infiniband"
)

// holesDir is where the k4holes fabric is: ibsim and OpenSM's KAry(4)
// without two switch cables and one host cable (topology/infiniband's
// regenerate.sh). The samples run from the repository's root.
const holesDir = "topology/infiniband/testdata"

// holesSample is the board of the k4holes fabric, routed by OpenSM's own
// tables (which avoid the holes; D-mod-k would cross them), with an
// all-to-all of the nodes of pods 0 and 1, so pods 2 and 3 stay idle;
// and a compare row of that board and the same traffic at half the
// bytes. What the browser test checks: the missing cells are grey and
// hatched, live as in the static picture, an idle cell is not, a missing
// cell's tooltip and the legend say what they are, and the difference
// board keeps the holes.
func holesSample() ([]cell, error) {
	read := func(name string) (*os.File, error) { return os.Open(filepath.Join(holesDir, name)) }
	r, err := read("k4holes.ibnetdiscover")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	g, _, err := infiniband.ReadIBNetDiscover(r, "k4holes.ibnetdiscover")
	if err != nil {
		return nil, err
	}
	f, _, err := fattree.Infer(g)
	if err != nil {
		return nil, err
	}
	lr, err := read("k4holes.dump_fts")
	if err != nil {
		return nil, err
	}
	defer lr.Close()
	tab, _, err := infiniband.ReadLFT(lr, "k4holes.dump_fts", f)
	if err != nil {
		return nil, err
	}
	var nodes []int
	for n := range 8 {
		if !f.NodeMissing(n) {
			nodes = append(nodes, n)
		}
	}
	// The board with its job; the compare row's boards without one (a
	// board a third of a row wide scrolls its job table sideways).
	var boards []*views.MatrixBoardView
	var v *views.MatrixBoardView
	for k, bytes := range []float64{2e6, 1e6} {
		jobs := []fattree.Job{{ID: "pods01", Nodes: nodes, Pattern: fattree.AllToAll(), BytesPerPair: bytes, Start: mbStart, End: mbStart.Add(time.Hour)}}
		rows, err := fattree.Simulate(context.Background(), f, tab, jobs, mbStart, mbStart.Add(time.Hour), 10*time.Minute)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			if v, err = sdk.FatTree(f, rows, sdk.FatTreeOptions{Title: "k = 4 with holes", Routing: tab, Jobs: jobs}); err != nil {
				return nil, err
			}
		}
		b, err := sdk.FatTree(f, rows, sdk.FatTreeOptions{Title: "k = 4 with holes", Routing: tab})
		if err != nil {
			return nil, err
		}
		boards = append(boards, b)
	}
	d := v.Data
	sum, err := v.Summary()
	if err != nil {
		return nil, err
	}
	cells, err := mbCells(d)
	if err != nil {
		return nil, err
	}
	tot := mbTotals(d, sum.Window)
	svg := v.SVG()
	var missing []string
	tips := map[string]string{}
	idle, idleFill := "", ""
	for _, c := range cells {
		it := d.Items[c.item]
		if it.Missing {
			missing = append(missing, it.ID)
			tips[it.ID] = it.Name + "\nmissing cable: no data"
			continue
		}
		if tot[c.item] == 0 && idle == "" {
			idle, idleFill = it.ID, mbFill(svg, c.box)
		}
	}
	if len(missing) != 4 || idle == "" {
		return nil, fmt.Errorf("holes: %d missing cells (want 4), idle cell %q", len(missing), idle)
	}
	exp := map[string]any{
		"name": "holes", "cells": len(cells), "missing": missing, "tips": tips,
		"missingFill": "#9e9e9e", "idle": idle, "idleFill": idleFill,
		"idleTip": d.Items[itemIndex(d, idle)].Name + "\n" + display.FormatValue(0, d.Unit),
		"legend":  fmt.Sprintf("missing cable: %d cells, not drawn to scale", len(missing)),
	}
	row, err := sdk.FatTreeCompare(boards[0], boards[1])
	if err != nil {
		return nil, err
	}
	return []cell{
		{`sdk.FatTree(k4holes: ibsim + OpenSM, two switch cables and a host cable removed)`, v, exp},
		{`sdk.FatTreeCompare(k4holes at 2 MB and 1 MB per pair)`, row, map[string]any{"name": "holes-compare", "boards": 3, "missing": missing}},
	}, nil
}

func itemIndex(d views.MatrixBoardData, id string) int {
	for i, it := range d.Items {
		if it.ID == id {
			return i
		}
	}
	return -1
}
