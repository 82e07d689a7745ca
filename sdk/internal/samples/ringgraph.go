package main

import (
	"fmt"
	"os"

	"superstep/algo/hilbert"
	"superstep/display/views"
	"superstep/topology/torus"
)

// hilbert4x4 is the Hilbert order of the 4×4 torus in (first, second)
// coordinates (issue 13, Done-when 2): rank r is node hilbert4x4[r].
var hilbert4x4 = [16][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 2}, {0, 3}, {1, 3}, {1, 2},
	{2, 2}, {2, 3}, {3, 3}, {3, 2}, {3, 1}, {2, 1}, {2, 0}, {3, 0}}

// torusRingData lays out a torus of the given extents on a ring: order[r]
// is the coordinate of leaf r. Each node links to its + neighbour along
// every dimension of extent ≥ 3 (A = the node, B = the neighbour, so
// forward is the + direction); tracks are the coordinates. Weights come
// from weight(frame, link, A, B) per direction.
func torusRingData(title string, ext []int, order [][]int, levels []int, frames []string,
	weight func(f, k int, fwd bool) float64) views.RingGraphData {
	rank := map[string]int{}
	d := views.RingGraphData{Title: title, Levels: levels, GroupName: "dimension"}
	names := []string{"x", "y", "z", "a", "b"}
	for t := range ext {
		d.Tracks = append(d.Tracks, views.RingGraphTrack{Name: names[t], Values: make([]int, len(order))})
		d.GroupNames = append(d.GroupNames, names[t])
	}
	for r, c := range order {
		rank[fmt.Sprint(c)] = r
		s := "("
		for t, v := range c {
			d.Tracks[t].Values[r] = v
			if t > 0 {
				s += ","
			}
			s += fmt.Sprint(v)
		}
		d.Leaves = append(d.Leaves, s+")")
	}
	for r, c := range order {
		for t, e := range ext {
			if e < 3 {
				continue
			}
			nb := append([]int(nil), c...)
			nb[t] = (c[t] + 1) % e
			d.Links = append(d.Links, views.RingGraphLink{A: r, B: rank[fmt.Sprint(nb)], Group: t})
		}
	}
	for f, label := range frames {
		fr := views.RingGraphFrame{Label: label, Forward: make([]float64, len(d.Links)), Backward: make([]float64, len(d.Links))}
		for k := range d.Links {
			fr.Forward[k] = weight(f, k, true)
			fr.Backward[k] = weight(f, k, false)
		}
		d.Frames = append(d.Frames, fr)
	}
	return d
}

// ringgraphCells are the samples of ringgraph-samples.ipynb: the 4×4
// torus in Hilbert order (two tracks, 4 blocks, two frames, the paper's
// one-way traffic [2,2]→[2,1]) and an 8×8×8 torus (512 leaves, row-major)
// at 8, 12 and 16 blocks. Each cell's metadata holds what Go computed, for
// display/browsertest's checks: per level the bundle count, block starts,
// and control points and marks of a few links; per leaf its links.
func ringgraphCells() []cell {
	order := make([][]int, 16)
	for r, c := range hilbert4x4 {
		order[r] = []int{c[0], c[1]}
	}
	small := torusRingData("4×4 torus, Hilbert order", []int{4, 4}, order, []int{2, 4, 8}, []string{"phase 1", "phase 2"},
		func(f, k int, fwd bool) float64 {
			v := (7*k + 3*f + map[bool]int{true: 0, false: 4}[fwd]) % 9
			if v < 3 {
				return 0 // idle one way (or both)
			}
			return float64(10 * v)
		})
	// The paper's Fig. 5/6 example: packets from [2,2] (rank 8) to [2,1]
	// (rank 13) only. The link joins A = (2,1) to its + neighbour (2,2).
	for k, l := range small.Links {
		if l.A == 13 && l.B == 8 {
			small.Frames[0].Forward[k], small.Frames[0].Backward[k] = 0, 40
		}
	}
	small.Level = 1 // 4 blocks
	big := torusRingData("8×8×8 torus, row-major", []int{8, 8, 8}, rowMajor([]int{8, 8, 8}), []int{8, 12, 16}, []string{"region 1", "region 2"},
		func(f, k int, fwd bool) float64 {
			if (k+f)%5 == 0 {
				return 0
			}
			v := float64((k*37+f*11)%97) * 10
			if fwd {
				return v
			}
			return float64((k*53+f*7)%89) * 10
		})
	big.Level = 1
	cells := []cell{
		{`views.RingGraph(torus4x4) // 16 leaves in Hilbert order, 32 links, 4 blocks, 2 frames`, views.RingGraph(small), ringExpect(small)},
		{`views.RingGraph(torus8x8x8) // 512 leaves, 1,536 links, 8/12/16 blocks`, views.RingGraph(big), ringExpect(big)},
		{`views.RingGraph(views.RingGraphData{})`, views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}},
	}
	cells = append(cells, bgqRingCell(), canvasRingCell())
	cells = append(cells, idleRingCells()...)
	if os.Getenv("SUPERSTEP_RINGGRAPH_BENCH") != "" {
		cells = append(cells, bgqBenchCell())
	}
	return cells
}

func rowMajor(ext []int) [][]int {
	n := 1
	for _, e := range ext {
		n *= e
	}
	out := make([][]int, n)
	for i := range out {
		c := make([]int, len(ext))
		r := i
		for t, e := range ext {
			c[t] = r % e
			r /= e
		}
		out[i] = c
	}
	return out
}

// ringExpect is what the browser test checks a ring graph against, from
// Go's layout.
func ringExpect(d views.RingGraphData) map[string]any {
	g, err := views.RingGraphLayout(d)
	if err != nil {
		return map[string]any{"kind": "ringgraph", "error": err.Error()}
	}
	levels := []map[string]any{}
	probe := []int{0, 1, len(d.Links) / 2, len(d.Links) - 1}
	for lv, l := range g.Levels {
		ctrl, marks := [][3]float64{}, []map[string]any{}
		for _, k := range probe {
			x, y := g.Control(lv, k)
			ctrl = append(ctrl, [3]float64{float64(k), x, y})
			for f := range d.Frames {
				mk := g.Mark(lv, k, d.Mode, d.Frames[f].Forward[k], d.Frames[f].Backward[k])
				marks = append(marks, map[string]any{"link": k, "frame": f, "kind": int(mk.Kind), "x": mk.X, "y": mk.Y, "r": mk.R})
			}
		}
		levels = append(levels, map[string]any{"blocks": l.Blocks, "starts": l.Starts, "bundles": len(l.Pairs),
			"farPairs": l.FarPairs, "caption": l.Caption, "controls": ctrl, "marks": marks})
	}
	perLeaf := make([]int, len(d.Leaves))
	for _, l := range d.Links {
		perLeaf[l.A]++
		perLeaf[l.B]++
	}
	totals := [][]map[string]any{}
	for f := range d.Frames {
		var row []map[string]any
		for _, t := range d.Totals(f) {
			row = append(row, map[string]any{"name": t.Name, "links": t.Links, "forward": t.Forward, "backward": t.Backward, "idle": t.Idle})
		}
		totals = append(totals, row)
	}
	return map[string]any{"kind": "ringgraph", "leaves": len(d.Leaves), "links": len(d.Links), "level": g.Level,
		"levels": levels, "linksPerLeaf": perLeaf, "totals": totals, "modes": []string{"sum", "plus", "minus", "avg"}}
}

// torusHilbertRing lays out the torus of the given extents (dimensions a,
// b, c, …) on a ring in Hilbert order (hilbert.Order): one track per
// dimension (the coordinates), one link per neighbour pair (t.Pairs(),
// A = the lower node id, so forward is A→B) or, with perChannel, one per
// node and dimension towards its + neighbour (an extent-2 dimension then
// gives two links between the same nodes, like Blue Gene/Q's E channels).
// Weights are deterministic made-up packet counts per frame.
func torusHilbertRing(title string, ext []int, levels []int, frames []string, perChannel bool) (views.RingGraphData, error) {
	names := []string{"a", "b", "c", "d", "e"}[:len(ext)]
	t, err := torus.New(names, ext)
	if err != nil {
		return views.RingGraphData{}, err
	}
	order, err := hilbert.Order(ext)
	if err != nil {
		return views.RingGraphData{}, err
	}
	n := t.Nodes()
	rank := make([]int, n)
	for r, v := range order {
		rank[v] = r
	}
	d := views.RingGraphData{Title: title, Levels: levels, GroupName: "dimension", GroupNames: names, WeightName: "packets"}
	for dim, name := range names {
		tr := views.RingGraphTrack{Name: name, Values: make([]int, n)}
		for r, v := range order {
			tr.Values[r] = t.Coord(v)[dim]
		}
		d.Tracks = append(d.Tracks, tr)
	}
	for _, v := range order {
		c := t.Coord(v)
		s := "("
		for i, x := range c {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprint(x)
		}
		d.Leaves = append(d.Leaves, s+")")
	}
	if perChannel {
		for v := 0; v < n; v++ {
			for dim := range ext {
				if w, ok := t.Step(v, dim, +1); ok {
					d.Links = append(d.Links, views.RingGraphLink{A: rank[v], B: rank[w], Group: dim})
				}
			}
		}
	} else {
		for _, p := range t.Pairs() {
			d.Links = append(d.Links, views.RingGraphLink{A: rank[p.A], B: rank[p.B], Group: p.Dim})
		}
	}
	for f, label := range frames {
		fr := views.RingGraphFrame{Label: label, Forward: make([]float64, len(d.Links)), Backward: make([]float64, len(d.Links))}
		for k := range d.Links {
			fv := (k*31 + f*17 + 5) % 23
			bv := (k*13 + f*29 + 3) % 19
			if fv < 4 {
				fv = 0
			}
			if bv < 5 {
				bv = 0
			}
			fr.Forward[k], fr.Backward[k] = float64(fv*100), float64(bv*100)
		}
		d.Frames = append(d.Frames, fr)
	}
	return d, nil
}

// bgqRingCell is the paper's 1×4×4×4×2 torus (128 nodes, 448 neighbour
// pairs) in Hilbert order at 4, 8 and 16 blocks, with three regions. Its
// metadata adds, for display/browsertest/ringgraph.test.mjs, the links
// that touch (either end) or lie within (both ends) value 3 of the third
// track, c (the paper's Dim2 = 3).
func bgqRingCell() cell {
	d, err := torusHilbertRing("1×4×4×4×2 torus, Hilbert order", []int{1, 4, 4, 4, 2}, []int{4, 8, 16},
		[]string{"region 1", "region 2", "region 3"}, false)
	if err != nil {
		return cell{`// 1×4×4×4×2: ` + err.Error(), views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}}
	}
	touch, within := 0, 0
	c := d.Tracks[2].Values
	for _, l := range d.Links {
		if c[l.A] == 3 || c[l.B] == 3 {
			touch++
		}
		if c[l.A] == 3 && c[l.B] == 3 {
			within++
		}
	}
	exp := ringExpect(d)
	exp["name"] = "bgq128"
	exp["dimValue"] = map[string]any{"track": 2, "value": 3, "touching": touch, "within": within}
	return cell{`views.RingGraph(torus1x4x4x4x2) // 128 leaves in Hilbert order, 448 links, 4/8/16 blocks, 3 regions`, views.RingGraph(d), exp}
}

// canvasRingCell is a ring above the SVG limit, so the live view draws its
// links on a canvas: a 16×16×16 torus (4,096 leaves, 12,288 links) in
// Hilbert order at 8 and 16 blocks, two regions.
func canvasRingCell() cell {
	d, err := torusHilbertRing("16×16×16 torus, Hilbert order (canvas)", []int{16, 16, 16}, []int{8, 16},
		[]string{"region 1", "region 2"}, false)
	if err != nil {
		return cell{`// 16×16×16: ` + err.Error(), views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}}
	}
	exp := ringExpect(d)
	exp["name"] = "canvas"
	return cell{`views.RingGraph(torus16x16x16) // 4,096 leaves, 12,288 links: drawn on a canvas`, views.RingGraph(d), exp}
}

// bgqBenchCell is the browser benchmark's ring (display/browsertest/
// ringgraph-bench.mjs): a 4×12×16×16×2 torus, 24,576 nodes in Hilbert
// order, one link per channel direction (122,880 links) with counters in
// two regions, at 8, 16 and 32 blocks (16 first). Only with
// $SUPERSTEP_RINGGRAPH_BENCH set: it is big.
func bgqBenchCell() cell {
	d, err := torusHilbertRing("4×12×16×16×2 torus, Hilbert order", []int{4, 12, 16, 16, 2}, []int{8, 16, 32},
		[]string{"region 1", "region 2"}, true)
	if err != nil {
		return cell{`// 4×12×16×16×2: ` + err.Error(), views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}}
	}
	d.Level = 1
	return cell{`views.RingGraph(torus4x12x16x16x2) // 24,576 leaves, 122,880 links, 16 blocks`, views.RingGraph(d),
		map[string]any{"kind": "ringgraph", "name": "bench", "leaves": len(d.Leaves), "links": len(d.Links)}}
}

// idleRingCells are two 4×4×4 tori in Hilbert order (192 links) whose
// dimension a carries no packets, b many and c few (issue 27: an idle
// dimension must not look busy), the second with a quarter of the first's
// packets, both on the first's scale (ScaleMax), as CompareMappings draws
// its rings: the same link is narrower in the second.
func idleRingCells() []cell {
	var cells []cell
	var top float64
	for i, share := range []float64{1, 0.25} {
		d, err := torusHilbertRing("4×4×4 torus, a idle", []int{4, 4, 4}, []int{4, 8}, []string{"region 1"}, false)
		if err != nil {
			return []cell{{`// 4×4×4: ` + err.Error(), views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}}}
		}
		d.ColorByGroup = true
		idle := 0
		fr := d.Frames[0]
		for k, l := range d.Links {
			switch l.Group {
			case 0:
				fr.Forward[k], fr.Backward[k] = 0, 0
				idle++
			case 1:
				fr.Forward[k], fr.Backward[k] = float64(400+k%5*100)*share, float64(200+k%3*100)*share
			default:
				fr.Forward[k], fr.Backward[k] = float64(10+k%4*10)*share, 0
			}
			if i == 0 {
				top = max(top, fr.Forward[k]+fr.Backward[k])
			}
		}
		d.ScaleMax = top
		exp := ringExpect(d)
		exp["name"] = []string{"idle-heavy", "idle-light"}[i]
		exp["idle"] = idle
		exp["scaleMax"] = top
		cells = append(cells, cell{fmt.Sprintf(`views.RingGraph(torus4x4x4) // dimension a idle, %v of the packets, scale 0–%v`, share, top), views.RingGraph(d), exp})
	}
	return cells
}
