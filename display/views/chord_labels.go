package views

import (
	"math"
	"sort"
)

// chordLabel places a unit label at angle theta: the position and anchor
// that the runtime's chord view uses too.
func chordLabel(cx, cy, r, theta float64) (x, y float64, anchor string) {
	s, c := math.Sin(theta), math.Cos(theta)
	x, y = cx+r*s, cy-r*c+4-5*c
	switch {
	case s > 0.15:
		anchor = "start"
	case s < -0.15:
		anchor = "end"
	default:
		anchor = "middle"
	}
	return
}

// labelBox is the rectangle a label covers: its four corners, clockwise
// (rotated for a ring label).
type labelBox [4][2]float64

// unitLabelBox is the box of a unit label of width w at (x, y) with anchor.
func unitLabelBox(x, y, w float64, anchor string) labelBox {
	x0 := x
	switch anchor {
	case "end":
		x0 = x - w
	case "middle":
		x0 = x - w/2
	}
	y0, y1 := y-fontSize+1, y+2
	return labelBox{{x0, y0}, {x0 + w, y0}, {x0 + w, y1}, {x0, y1}}
}

// ringLabelBox is the box of a ring label of width w centred at (x, y),
// rotated by deg degrees (as ringLabel draws it).
func ringLabelBox(x, y, w, deg float64) labelBox {
	s, c := math.Sincos(deg * math.Pi / 180)
	h := smallFont + 1
	var b labelBox
	for i, p := range [4][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
		b[i] = [2]float64{x + p[0]*c - p[1]*s, y + p[0]*s + p[1]*c}
	}
	return b
}

// ringLabelAngle is the rotation (degrees) of a ring label at angle theta:
// along the ring, upright.
func ringLabelAngle(theta float64) float64 {
	deg := theta * 180 / math.Pi
	if math.Cos(theta) < 0 {
		deg += 180
	}
	return deg
}

// overlaps reports whether two label boxes come closer than sep (the
// separating axis test on the boxes' edge normals).
func (b labelBox) overlaps(o labelBox, sep float64) bool {
	for _, poly := range [2]labelBox{b, o} {
		for i := 0; i < 2; i++ {
			ax, ay := poly[i+1][0]-poly[i][0], poly[i+1][1]-poly[i][1]
			l := math.Hypot(ax, ay)
			if l == 0 {
				continue
			}
			ax, ay = ax/l, ay/l
			lo1, hi1 := math.Inf(1), math.Inf(-1)
			lo2, hi2 := math.Inf(1), math.Inf(-1)
			for k := 0; k < 4; k++ {
				p := b[k][0]*ax + b[k][1]*ay
				q := o[k][0]*ax + o[k][1]*ay
				lo1, hi1 = math.Min(lo1, p), math.Max(hi1, p)
				lo2, hi2 = math.Min(lo2, q), math.Max(hi2, q)
			}
			if hi1+sep <= lo2 || hi2+sep <= lo1 {
				return false
			}
		}
	}
	return true
}

// chordLabelBoxes are the boxes of every label a frame could show: unit
// labels (units[u]) and ring labels (rings[r][g]).
func chordLabelBoxes(g ChordGeometry, sp chordSpec) (units []labelBox, rings [][]labelBox) {
	cx, cy := float64(sp.Dims.CX), float64(sp.Dims.CY)
	for u, a := range g.Arcs {
		x, y, anchor := chordLabel(cx, cy, float64(sp.Dims.LabelR), (a.In.Start+a.Out.End)/2)
		units = append(units, unitLabelBox(x, y, textWidth(sp.Units[u].Name, fontSize), anchor))
	}
	for r, ring := range g.Rings {
		rr := float64(sp.Dims.Rings[r]) + chordRingWidth/2
		var bs []labelBox
		for k, iv := range ring {
			x, y := pt(cx, cy, rr, iv.Mid())
			bs = append(bs, ringLabelBox(x, y, textWidth(sp.Rings[r].Groups[k].Name, smallFont), ringLabelAngle(iv.Mid())))
		}
		rings = append(rings, bs)
	}
	return
}

// chordLabelsShown chooses the labels a frame shows, so that no two come
// closer than chordLabelSep: first the ring labels, outermost ring first
// (a rack names more than a host), each only where its group's arc is
// longer than the label; then the unit labels, largest arc first. A label
// that would overlap one already kept is left out (its group or unit still
// shows its name on hover). It returns '1'/'0' per unit and per ring group.
func chordLabelsShown(g ChordGeometry, sp chordSpec) (units string, rings []string) {
	ub, rb := chordLabelBoxes(g, sp)
	var kept []labelBox
	keep := func(b labelBox) bool {
		for _, k := range kept {
			if b.overlaps(k, chordLabelSep) {
				return false
			}
		}
		kept = append(kept, b)
		return true
	}
	rings = make([]string, len(g.Rings))
	for r := len(g.Rings) - 1; r >= 0; r-- {
		rr := float64(sp.Dims.Rings[r]) + chordRingWidth/2
		shown := make([]byte, len(g.Rings[r]))
		for k, iv := range g.Rings[r] {
			shown[k] = '0'
			if textWidth(sp.Rings[r].Groups[k].Name, smallFont)+6 < iv.Len()*rr && keep(rb[r][k]) {
				shown[k] = '1'
			}
		}
		rings[r] = string(shown)
	}
	n := len(g.Arcs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	size := func(u int) float64 { return g.Arcs[u].Out.End - g.Arcs[u].In.Start }
	sort.SliceStable(order, func(a, b int) bool { return size(order[a]) > size(order[b]) })
	shown := make([]byte, n)
	for _, u := range order {
		shown[u] = '0'
		if keep(ub[u]) {
			shown[u] = '1'
		}
	}
	return string(shown), rings
}
