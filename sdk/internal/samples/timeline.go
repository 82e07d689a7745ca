package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"superstep/display/views"
)

// timelineH is the hand-made trace H: A = 100 messages P0→P3,
// B = 50 messages P1→P2, D = 1 message P2→P1, 1,000 B each, with one
// "compute" interval per lane and an "MPI_Send" interval around each
// group of sends.
func timelineH() views.TimelineData {
	d := views.TimelineData{Title: "Hand-made trace H", Lanes: []string{"P0", "P1", "P2", "P3"}, Start: 0, End: 10, Bandwidth: 0.02,
		ClassNames: []string{"compute", "MPI_Send"}}
	add := func(from, to int32, send, recv float64) {
		d.From, d.To = append(d.From, from), append(d.To, to)
		d.Send, d.Recv = append(d.Send, send), append(d.Recv, recv)
		d.Bytes = append(d.Bytes, 1000)
	}
	for i := 0; i < 100; i++ {
		add(0, 3, 1+0.001*float64(i), 1.4+0.001*float64(i))
	}
	for i := 0; i < 50; i++ {
		add(1, 2, 5+0.002*float64(i), 5.3+0.002*float64(i))
	}
	add(2, 1, 9, 9.05)
	for lane := int32(0); lane < 4; lane++ {
		d.IntervalLane = append(d.IntervalLane, lane)
		d.IntervalFrom, d.IntervalTo, d.IntervalClass = append(d.IntervalFrom, 0.2), append(d.IntervalTo, 9.8), append(d.IntervalClass, 0)
	}
	for _, iv := range [][3]float64{{0, 1, 1.1}, {1, 5, 5.1}, {2, 9, 9.01}} {
		d.IntervalLane = append(d.IntervalLane, int32(iv[0]))
		d.IntervalFrom, d.IntervalTo, d.IntervalClass = append(d.IntervalFrom, iv[1]), append(d.IntervalTo, iv[2]), append(d.IntervalClass, 1)
	}
	return d
}

// timelineBig is a made-up run with FD4's size: 1,024 lanes, about 2.2
// million messages over 250 s, mostly between neighbouring lanes, in
// irregular phases.
func timelineBig() views.TimelineData {
	rng := rand.New(rand.NewPCG(14, 3))
	const lanes = 1024
	d := views.TimelineData{Title: "2.2 M messages on 1,024 lanes (made up)"}
	for i := 0; i < lanes; i++ {
		d.Lanes = append(d.Lanes, fmt.Sprintf("rank %d", i))
	}
	n := 2_200_000
	d.From, d.To = make([]int32, n), make([]int32, n)
	d.Send, d.Recv = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		src := rng.IntN(lanes)
		off := rng.IntN(9) - 4
		if rng.IntN(10) == 0 {
			off = rng.IntN(lanes) - src
		}
		if off == 0 {
			off = 1
		}
		dst := (src + off + lanes) % lanes
		phase := float64(rng.IntN(80))
		s := phase*3 + 0.6 + rng.Float64()*1.4
		d.From[i], d.To[i] = int32(src), int32(dst)
		d.Send[i], d.Recv[i] = s, s+0.0005+rng.Float64()*0.02
	}
	return d
}

// timelineRegions is a made-up run of 16 lanes alternating compute and
// MPI intervals, with 8,000 messages of 1 to 64 kB between neighbouring
// lanes: a canvas timeline with alpha blending over a ground of regions.
func timelineRegions() views.TimelineData {
	rng := rand.New(rand.NewPCG(5, 16))
	const lanes = 16
	d := views.TimelineData{Title: "8,000 messages on 16 lanes over regions (made up)", Blend: "alpha", ClassNames: []string{"compute", "MPI"}}
	for i := 0; i < lanes; i++ {
		d.Lanes = append(d.Lanes, fmt.Sprintf("rank %d", i))
		for t := 0.0; t < 100; t += 2 {
			d.IntervalLane = append(d.IntervalLane, int32(i), int32(i))
			d.IntervalFrom = append(d.IntervalFrom, t, t+1.2+0.4*rng.Float64())
			d.IntervalTo = append(d.IntervalTo, t+1.2, t+2)
			d.IntervalClass = append(d.IntervalClass, 0, 1)
		}
	}
	for i := 0; i < 8000; i++ {
		src := rng.IntN(lanes)
		dst := (src + 1 + rng.IntN(2)) % lanes
		s := float64(rng.IntN(50))*2 + 1.2 + 0.7*rng.Float64()
		d.From, d.To = append(d.From, int32(src)), append(d.To, int32(dst))
		d.Send, d.Recv = append(d.Send, s), append(d.Recv, s+0.01+0.05*rng.Float64())
		d.Bytes = append(d.Bytes, float64(1000*(1+rng.IntN(64))))
	}
	return d
}

// timelineCells are the timeline samples: H as SVG (with what hovering
// A's bundle must say, where it is, and the bundles per lane), and the
// 2.2 M-message timeline and the one over regions on a canvas (with their
// heaviest bundles).
func timelineCells() ([]cell, error) {
	ctx := context.Background()
	h, err := views.Timeline(ctx, timelineH())
	if err != nil {
		return nil, err
	}
	L, err := h.Layout()
	if err != nil {
		return nil, err
	}
	a := -1
	for r := 0; r < L.NumRoutes(); r++ {
		t := L.RouteText(r)
		if strings.HasPrefix(t, "100 messages") {
			a = r
		}
	}
	if a < 0 {
		return nil, fmt.Errorf("trace H has no bundle of 100 messages")
	}
	mid := func(L *views.TimelineLayout, r int) [2]float64 {
		in := L.Bundle.Interior(r)
		// The chain passes through the midpoint of every inner edge.
		p, q := in[len(in)/2-1], in[len(in)/2]
		return [2]float64{(p.X + q.X) / 2, L.Y((p.Y + q.Y) / 2)}
	}
	bundles := map[string]int{}
	for r := range L.RouteFromLane {
		for _, lane := range []int32{L.RouteFromLane[r], L.RouteToLane[r]} {
			bundles[fmt.Sprint(lane)]++
		}
	}
	hd := timelineH()
	hd.Blend = "alpha"
	ha, err := views.Timeline(ctx, hd)
	if err != nil {
		return nil, err
	}
	cells := []cell{
		{`views.Timeline(h) // the hand-made trace H: 151 messages, 3 bundles`, h, map[string]any{
			"kind": "timeline", "mode": "svg", "bundles": L.NumRoutes(), "blend": "additive",
			"hover":       map[string]any{"x": mid(L, a)[0], "y": mid(L, a)[1], "tip": L.RouteText(a)},
			"laneBundles": bundles,
		}},
		{`views.Timeline(h) // alpha blending`, ha, map[string]any{"kind": "timeline", "mode": "svg", "blend": "alpha", "bundles": L.NumRoutes()}},
	}
	big, err := views.Timeline(ctx, timelineBig())
	if err != nil {
		return nil, err
	}
	B, err := big.Layout()
	if err != nil {
		return nil, err
	}
	heavy := 0
	for r := range B.RouteMessages {
		if B.RouteMessages[r] > B.RouteMessages[heavy] {
			heavy = r
		}
	}
	cells = append(cells, cell{`views.Timeline(big) // 2.2 M messages, 1,024 lanes`, big, map[string]any{
		"kind": "timeline", "mode": "canvas", "blend": "additive", "messages": 2_200_000,
		"hover": map[string]any{"x": mid(B, heavy)[0], "y": mid(B, heavy)[1], "tip": B.RouteText(heavy)},
	}})
	regions, err := views.Timeline(ctx, timelineRegions())
	if err != nil {
		return nil, err
	}
	R, err := regions.Layout()
	if err != nil {
		return nil, err
	}
	heavy = 0
	for r := range R.RouteMessages {
		if R.RouteMessages[r] > R.RouteMessages[heavy] {
			heavy = r
		}
	}
	cells = append(cells, cell{`views.Timeline(regions) // 8,000 messages over regions, alpha blending`, regions, map[string]any{
		"kind": "timeline", "mode": "canvas", "blend": "alpha", "messages": 8000,
		"hover": map[string]any{"x": mid(R, heavy)[0], "y": mid(R, heavy)[1], "tip": R.RouteText(heavy)},
	}})
	return cells, nil
}

// writeTimelineSamples writes OUTDIR/timeline-samples.ipynb.
func writeTimelineSamples(dir string) {
	cells, err := timelineCells()
	if err == nil {
		err = write(dir, "timeline-samples.ipynb", cells)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
}
