package main

import (
	"fmt"
	"math"
	"strconv"

	"superstep/display/views"
)

// latticeSSSP is a made-up run of single-source shortest paths (Pregel's
// vertex program) on a side×side lattice, built here by hand: the source,
// vertex 0 in the top left corner, starts the wave; a vertex that receives
// a shorter distance takes it and sends it on, plus the edge's weight, to
// its neighbours. Weights are 1, 1.1, …, 1.4, so distances carry
// floating-point tails (2.4000000000000004) that the hover text must show
// as Go does. The vertices of the left and right halves run on workers 0
// and 1; the trend is their heartbeat. The run stops when no message is
// sent, or after maxSteps supersteps.
func latticeSSSP(side, maxSteps int) views.AnimateData {
	n := side * side
	d := views.AnimateData{
		Title: fmt.Sprintf("SSSP on a %d×%d lattice", side, side), ValueName: "distance",
		X: make([]float64, n), Y: make([]float64, n), Labels: make([]string, n), Group: make([]int32, n),
	}
	nbr := make([][]int32, n)
	weight := func(u, v int32) float64 { return 1 + float64((u*7+v*13)%5)/10 }
	for r := range side {
		for c := range side {
			i := r*side + c
			d.X[i], d.Y[i] = float64(c), float64(r)
			d.Labels[i] = fmt.Sprintf("v%d (%d,%d)", i, r, c)
			if c >= side/2 {
				d.Group[i] = 1
			}
			if c+1 < side {
				d.Edges = append(d.Edges, [2]int32{int32(i), int32(i + 1)})
			}
			if r+1 < side {
				d.Edges = append(d.Edges, [2]int32{int32(i), int32(i + side)})
			}
		}
	}
	for _, e := range d.Edges {
		nbr[e[0]] = append(nbr[e[0]], e[1])
		nbr[e[1]] = append(nbr[e[1]], e[0])
	}
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	inbox := make([][]float64, n)
	var active, msgsOut, msgsIn [][]float64 // [worker][step], for the trend
	for w := 0; w < 2; w++ {
		active, msgsOut, msgsIn = append(active, nil), append(msgsOut, nil), append(msgsIn, nil)
	}
	for s := 0; s < maxSteps; s++ {
		st := views.AnimateStep{Value: make([]float64, n), State: make([]uint8, n), Sent: make([]int32, n), Received: make([]int32, n)}
		next := make([][]float64, n)
		for w := range active {
			active[w], msgsOut[w], msgsIn[w] = append(active[w], 0), append(msgsOut[w], 0), append(msgsIn[w], 0)
		}
		sent := 0
		for i := range n {
			v := int32(i)
			best := math.Inf(1)
			if s == 0 && i == 0 {
				best = 0
			}
			for _, m := range inbox[i] {
				best = math.Min(best, m)
			}
			switch {
			case s > 0 && len(inbox[i]) == 0:
				st.State[i] = views.StateHalted
			case best < dist[i]:
				dist[i] = best
				st.State[i] = views.StateActive
				active[d.Group[i]][s]++
				for _, u := range nbr[i] {
					next[u] = append(next[u], best+weight(v, u))
					st.Pulses = append(st.Pulses, views.Pulse{From: v, To: u, Count: 1})
					st.Sent[i]++
					st.Received[u]++
					msgsOut[d.Group[i]][s]++
					msgsIn[d.Group[u]][s]++
					sent++
				}
			default:
				st.State[i] = views.StateWoken
			}
		}
		copy(st.Value, dist)
		d.Steps = append(d.Steps, st)
		inbox = next
		if sent == 0 {
			break
		}
	}
	frames := make([]string, len(d.Steps))
	for s := range frames {
		frames[s] = strconv.Itoa(s)
	}
	pal := views.Palette(2)
	d.Trend = &views.TrendData{
		Title:  "heartbeat",
		Frames: frames,
		Units:  []views.Unit{{ID: "w0", Name: "worker 0", Color: pal[0]}, {ID: "w1", Name: "worker 1", Color: pal[1]}},
		Panels: []views.TrendPanel{
			{Title: "active vertices", Out: active},
			{Title: "messages", Out: msgsOut, In: msgsIn},
		},
	}
	return d
}

// animateTip is the hover text of vertex i at superstep s, as Go's
// display formats it: the browser test expects exactly this.
func animateTip(d views.AnimateData, i, s int) string {
	st := d.Steps[s]
	state := [...]string{"halted", "woken", "active"}[st.State[i]]
	return fmt.Sprintf("%s\n%s = %s\n%s\nsent %d · received %d\nworker %d", d.Labels[i], d.ValueName,
		strconv.FormatFloat(st.Value[i], 'g', -1, 64), state, st.Sent[i], st.Received[i], d.Group[i])
}

// animateCell shows d and names a vertex for the browser test to hover,
// with its position as Go drew it and its hover text at every superstep.
func animateCell(source string, d views.AnimateData, vertex int) cell {
	v := views.Animate(d)
	x, y := v.Positions()
	w, h := v.PlotSize()
	tips := make([]string, len(d.Steps))
	for s := range tips {
		tips[s] = animateTip(d, vertex, s)
	}
	// A superstep whose tip differs from the one before, for the jump test.
	jump := -1
	for s := len(tips) / 2; s < len(tips) && jump < 0; s++ {
		if tips[s] != tips[s-1] {
			jump = s
		}
	}
	pulses := make([]int, len(d.Steps))
	for s, st := range d.Steps {
		pulses[s] = len(st.Pulses)
	}
	return cell{source, v, map[string]any{
		"kind":   "animate",
		"pulses": pulses,
		"n":      len(d.X),
		"steps":  len(d.Steps),
		"frames": v.Frames(),
		"w":      w,
		"h":      h,
		"vertex": map[string]any{"index": vertex, "x": x[vertex], "y": y[vertex], "tips": tips},
		"jump":   jump,
	}}
}

func animateCells() []cell {
	const side = 12
	d := latticeSSSP(side, 200)
	return []cell{
		animateCell(`views.Animate(sssp) // SSSP on a 12×12 lattice, 2 workers`, d, side*(side/2)+side/2),
		{`views.Animate(views.AnimateData{})`, views.Animate(views.AnimateData{}), map[string]any{"kind": "empty"}},
	}
}
