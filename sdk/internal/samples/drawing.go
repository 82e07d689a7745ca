package main

import (
	"fmt"
	"math"
	"slices"

	"superstep/display/views"
)

// communityGraph is a made-up graph of k communities: Gaussian blobs of
// nodes (sizes growing with the community's index) on a spiral, edges
// mostly between nearby nodes of one community (in one grid square of the
// given side), a few between communities.
func communityGraph(n, k int, side float64, seed uint64) views.DrawingData {
	s := seed
	rnd := func() float64 { // an LCG: the same numbers on every machine
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / float64(1<<53)
	}
	gauss := func() float64 { return math.Sqrt(-2*math.Log(1-rnd())) * math.Cos(2*math.Pi*rnd()) }
	d := views.DrawingData{
		X: make([]float64, n), Y: make([]float64, n),
		Labels: make([]string, n), Groups: make([]int32, n),
	}
	weights, total := make([]float64, k), 0.0
	for c := range weights {
		weights[c] = float64(c + 2)
		total += weights[c]
	}
	type cellKey struct{ c, x, y int }
	cells := map[cellKey][]int{}
	members := make([][]int, k)
	i := 0
	for c := 0; c < k; c++ {
		size := int(math.Round(float64(n) * weights[c] / total))
		if c == k-1 {
			size = n - i
		}
		a := 2.4 * float64(c)
		cx, cy := 4*math.Sqrt(float64(c)+1)*math.Cos(a), 4*math.Sqrt(float64(c)+1)*math.Sin(a)
		sigma := 0.5 * math.Sqrt(weights[c])
		for j := 0; j < size; j++ {
			d.X[i], d.Y[i] = cx+sigma*gauss(), cy+0.8*sigma*gauss()
			d.Groups[i] = int32(c)
			d.Labels[i] = fmt.Sprintf("v%d", i)
			key := cellKey{c, int(math.Floor(d.X[i] / side)), int(math.Floor(d.Y[i] / side))}
			cells[key] = append(cells[key], i)
			members[c] = append(members[c], i)
			i++
		}
	}
	for v := 0; v < n; v++ {
		c := int(d.Groups[v])
		near := cells[cellKey{c, int(math.Floor(d.X[v] / side)), int(math.Floor(d.Y[v] / side))}]
		for e := 0; e < 2; e++ {
			u := near[int(rnd()*float64(len(near)))]
			switch r := rnd(); {
			case r < 0.04: // far in the community
				u = members[c][int(rnd()*float64(len(members[c])))]
			case r < 0.06: // another community
				u = int(rnd() * float64(n))
			}
			if u != v {
				d.Edges = append(d.Edges, [2]int32{int32(v), int32(u)})
			}
		}
	}
	return d
}

// drawingTip is the hover text the runtime shows for node i.
func drawingTip(d views.DrawingData, i int) string {
	return fmt.Sprintf("%s\ngroup %d", d.Labels[i], d.Groups[i])
}

// drawingCell draws d and picks a node for the browser test to hover: the
// first, in index order from the last, with no other node within 12 px in
// the drawing, so that it is the one under the pointer.
func drawingCell(source string, d views.DrawingData, mode string) cell {
	v := views.Drawing(d)
	x, y := v.Positions()
	w, h := v.PlotSize()
	pick := -1
	for i := len(x) - 1; i >= 0 && pick < 0; i-- {
		if x[i] < 0 || x[i] > w || y[i] < 0 || y[i] > h {
			continue // beyond the frame
		}
		alone := true
		for j := range x {
			if j != i && math.Hypot(x[j]-x[i], y[j]-y[i]) < 12 {
				alone = false
				break
			}
		}
		if alone {
			pick = i
		}
	}
	if pick < 0 {
		panic("samples: no isolated node in the drawing")
	}
	meta := map[string]any{
		"kind": "drawing",
		"mode": mode,
		"n":    len(x),
		"w":    w,
		"h":    h,
		"node": map[string]any{"index": pick, "x": x[pick], "y": y[pick], "tip": drawingTip(d, pick)},
	}
	for i := range x {
		if x[i] > w { // a node beyond the frame: the test zooms out to it
			meta["far"] = map[string]any{"index": i, "x": x[i], "y": y[i], "tip": drawingTip(d, i)}
		}
	}
	return cell{source, v, meta}
}

// withFarNode adds a node far to the right of d's nodes, joined to node
// 0: the drawing is framed on the others and the caption counts it.
func withFarNode(d views.DrawingData) views.DrawingData {
	x0, x1 := slices.Min(d.X), slices.Max(d.X)
	far := int32(len(d.X))
	d.X = append(d.X, x1+6*(x1-x0))
	d.Y = append(d.Y, d.Y[0])
	d.Labels = append(d.Labels, "a far node")
	d.Groups = append(d.Groups, 0)
	d.Edges = append(d.Edges, [2]int32{0, far})
	return d
}

func drawingCells() []cell {
	small := communityGraph(200, 5, 1.5, 11)
	small.Title = "200 nodes in 5 communities"
	large := withFarNode(communityGraph(20000, 8, 0.6, 12))
	large.Title = "20,001 nodes in 8 communities, one far out"
	return []cell{
		drawingCell(`views.Drawing(small) // 200 nodes, 5 communities`, small, "small"),
		drawingCell(`views.Drawing(large) // 20,001 nodes, 8 communities, one far out`, large, "large"),
	}
}
