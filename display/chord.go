package display

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Ring is one concentric ring of a chord diagram's hierarchy (e.g. the
// hosts, then the racks), drawn outside the units' arcs.
type Ring struct {
	Name   string
	Groups []RingGroup
}

// RingGroup is one group of a ring: it spans the leaves (units) First to
// Last, inclusive, which must be consecutive in the circular order.
type RingGroup struct {
	ID, Name, Color string
	First, Last     int
}

// ChordFrame is the traffic of one time frame.
type ChordFrame struct {
	Label string
	// Weight[src][dst] sets the ribbon widths; the diagonal is a unit's
	// traffic with itself, shown as the thickness of its arc.
	Weight [][]float64
	// Details[src][dst] is the hover text of a ribbon, e.g. "1,234
	// messages, 9.9 KB" (may be nil: the weight is shown).
	Details [][]string
	// Total is the frame's whole traffic as printed on the picture, e.g.
	// "189 messages, 2.1 KiB"; empty: the sum of Weight (self traffic
	// included) followed by ChordData.WeightName.
	Total string
}

// ChordData is what a chord diagram (GiViP's Frame View) shows.
type ChordData struct {
	// Units are the leaves, already in the circular order to draw (the
	// caller minimises crossings; the order stays fixed over all frames).
	Units []Unit
	// Rings are the levels of the hierarchy, innermost first; may be empty.
	Rings []Ring
	// Frames holds one traffic matrix per time frame; a slider moves
	// between them.
	Frames []ChordFrame
	// Selected is the frame shown first and in the static picture.
	Selected int
	// WeightName names what Weight counts ("messages", "bytes"), for the
	// hover text of arcs; optional.
	WeightName string
	// FullCircle, if positive, is the traffic between units (counted at
	// both ends) that fills the circle; a frame with less leaves part of
	// the circle empty, in proportion. Zero: the busiest frame of these
	// Frames fills the circle, so the frames share one scale and a light
	// frame looks light. Give several diagrams the same FullCircle and
	// FullThickness to compare them (CompareChords does).
	FullCircle float64
	// FullThickness, if positive, is the self traffic drawn at full arc
	// thickness (zero: the largest self traffic in the data).
	FullThickness float64
}

// Interval is an angular interval in radians, clockwise from 12 o'clock.
type Interval struct{ Start, End float64 }

// Len is the interval's angle.
func (i Interval) Len() float64 { return i.End - i.Start }

// Mid is the interval's middle angle.
func (i Interval) Mid() float64 { return (i.Start + i.End) / 2 }

// ChordArc is the arc of one unit: incoming traffic first, then outgoing,
// clockwise, so In.End == Out.Start. Each interval's angle is proportional
// to the unit's total traffic in that direction (self traffic excluded).
type ChordArc struct {
	In, Out Interval
	// Thickness is the arc's radial thickness relative to the thickest arc
	// of any frame: MinChordThickness with no self traffic, growing linearly
	// to 1 for the largest self traffic of all units and frames.
	Thickness float64
	// InTotal, OutTotal and Self are the unit's traffic from others, to
	// others and with itself.
	InTotal, OutTotal, Self float64
}

// ChordRibbon is the traffic from Src to Dst (Src ≠ Dst). Its ends have the
// same angle, proportional to Weight: Source lies in the source's Out
// interval and Target in the destination's In interval.
type ChordRibbon struct {
	Src, Dst       int
	Source, Target Interval
	Weight         float64
}

// ChordGeometry is the layout of one frame of a chord diagram.
type ChordGeometry struct {
	Arcs []ChordArc // one per unit, in the order of ChordData.Units
	// Ribbons holds one ribbon per ordered pair src ≠ dst with positive
	// weight, ordered by src, then dst.
	Ribbons []ChordRibbon
	// Rings[r][g] is the angle that group g of ring r spans: from its first
	// leaf's In.Start to its last leaf's Out.End.
	Rings [][]Interval
	// Gaps[i] is the empty angle between unit i and the next one clockwise
	// (the last one's gap wraps around 12 o'clock, where it is centred).
	Gaps []float64
	// Scale is the angle per unit of weight; 0 if the frame has no traffic
	// between units, in which case every unit gets an equal arc, half in and
	// half out, and there are no ribbons.
	Scale float64
	// Fill is the share of the circle (less the gaps) that the frame's
	// arcs and ribbons take: its traffic between units over the full
	// circle's (ChordData.FullCircle, or the busiest frame's), in [0, 1].
	Fill float64
	// Spare is the empty angle after each unit, beyond its gap, that the
	// rest of the circle leaves when Fill < 1.
	Spare float64
}

const (
	// MinChordThickness is the relative thickness of an arc without self
	// traffic.
	MinChordThickness = 0.25
	// ChordUnitGap is the gap (radians) between consecutive units of one group.
	ChordUnitGap = 0.02
	// ChordRingGap is the extra gap at a boundary between groups, once for
	// each ring that has a boundary there (so racks are set further apart
	// than hosts).
	ChordRingGap = 0.04
	// chordMaxGapShare caps the part of the circle that gaps may take.
	chordMaxGapShare = 0.3
)

// weight returns Frames[f].Weight[s][d], 0 where missing or invalid.
func (d ChordData) weight(f, s, t int) float64 {
	if f < 0 || f >= len(d.Frames) {
		return 0
	}
	w := d.Frames[f].Weight
	if s >= len(w) || t >= len(w[s]) {
		return 0
	}
	return clean(w[s][t])
}

func (d ChordData) details(f, s, t int) string {
	if f < 0 || f >= len(d.Frames) {
		return ""
	}
	x := d.Frames[f].Details
	if s >= len(x) || t >= len(x[s]) {
		return ""
	}
	return x[s][t]
}

// between is frame f's traffic between units, counted at both ends.
func (d ChordData) between(f int) float64 {
	t := 0.0
	for s := range d.Units {
		for u := range d.Units {
			if s != u {
				t += 2 * d.weight(f, s, u)
			}
		}
	}
	return t
}

// fullCircle is the traffic between units that fills the circle:
// FullCircle, or the busiest frame's.
func (d ChordData) fullCircle() float64 {
	if d.FullCircle > 0 {
		return d.FullCircle
	}
	m := 0.0
	for f := range d.Frames {
		m = math.Max(m, d.between(f))
	}
	return m
}

// ChordCommonScale sets the same FullCircle and FullThickness on every one
// of ds: the busiest frame's traffic between units, and the largest self
// traffic, over all of them. Their chord diagrams then compare.
func ChordCommonScale(ds []ChordData) {
	var full, thick float64
	for _, d := range ds {
		full = math.Max(full, d.fullCircle())
		thick = math.Max(thick, math.Max(d.FullThickness, d.maxSelf()))
	}
	for i := range ds {
		ds[i].FullCircle, ds[i].FullThickness = full, thick
	}
}

// maxSelf is the largest self traffic of any unit in any frame.
func (d ChordData) maxSelf() float64 {
	m := 0.0
	for f := range d.Frames {
		for u := range d.Units {
			m = math.Max(m, d.weight(f, u, u))
		}
	}
	return m
}

// chordGaps returns the gap after each unit: ChordUnitGap, plus ChordRingGap
// for each ring with a group boundary there, scaled down if the gaps would
// take more than 30% of the circle.
func chordGaps(d ChordData) []float64 {
	n := len(d.Units)
	gaps := make([]float64, n)
	groupOf := make([][]int, len(d.Rings))
	for r, ring := range d.Rings {
		g := make([]int, n)
		for i := range g {
			g[i] = -1
		}
		for k, grp := range ring.Groups {
			for i := max(grp.First, 0); i <= grp.Last && i < n; i++ {
				g[i] = k
			}
		}
		groupOf[r] = g
	}
	total := 0.0
	for i := range gaps {
		gaps[i] = ChordUnitGap
		next := (i + 1) % n
		for r := range d.Rings {
			if next == 0 || groupOf[r][i] != groupOf[r][next] || groupOf[r][i] < 0 {
				gaps[i] += ChordRingGap
			}
		}
		total += gaps[i]
	}
	if limit := chordMaxGapShare * 2 * math.Pi; total > limit {
		for i := range gaps {
			gaps[i] *= limit / total
		}
	}
	return gaps
}

// ChordLayout computes the geometry of one frame of a chord diagram (angles
// in radians, clockwise from 12 o'clock).
//
// Each unit gets an in interval and, clockwise after it, an out interval;
// their angles are proportional to the unit's traffic from and to other
// units. All units together take the share of the circle (less the gaps)
// that the frame's traffic between units is of the full circle's (see
// ChordData.FullCircle: by default the busiest frame fills the circle); the
// rest is left empty, shared out after every unit. A unit's
// self traffic sets its arc's thickness instead. Each ribbon src→dst has its
// source end in src's out interval and its target end in dst's in interval,
// both as wide as its weight. Within an interval, the ribbons are ordered by
// how far clockwise their other end lies, farthest first, so that ribbons
// sharing an interval do not cross one another (the bimodal layout of
// GiViP, after Di Giacomo et al.).
func ChordLayout(d ChordData, frame int) ChordGeometry {
	n := len(d.Units)
	g := ChordGeometry{Arcs: make([]ChordArc, n), Gaps: chordGaps(d)}
	if n == 0 {
		return g
	}
	in := make([]float64, n)
	out := make([]float64, n)
	total := 0.0
	for s := 0; s < n; s++ {
		for t := 0; t < n; t++ {
			if s == t {
				continue
			}
			w := d.weight(frame, s, t)
			out[s] += w
			in[t] += w
			total += 2 * w
		}
	}
	gapSum := 0.0
	for _, x := range g.Gaps {
		gapSum += x
	}
	avail := 2*math.Pi - gapSum
	if total > 0 {
		g.Scale = avail / math.Max(total, d.fullCircle())
		g.Fill = total * g.Scale / avail
	}
	maxSelf := d.maxSelf()
	if d.FullThickness > 0 {
		maxSelf = math.Max(d.FullThickness, maxSelf)
	}
	// Traffic below FullCircle leaves room, shared out after every unit.
	spare := 0.0
	if total > 0 {
		spare = (avail - total*g.Scale) / float64(n)
	}
	g.Spare = spare
	theta := (g.Gaps[n-1] + spare) / 2
	for u := 0; u < n; u++ {
		li, lo := in[u]*g.Scale, out[u]*g.Scale
		if total == 0 {
			li, lo = avail/float64(2*n), avail/float64(2*n)
		}
		a := ChordArc{InTotal: in[u], OutTotal: out[u], Self: d.weight(frame, u, u), Thickness: MinChordThickness}
		a.In = Interval{theta, theta + li}
		a.Out = Interval{a.In.End, a.In.End + lo}
		if maxSelf > 0 {
			a.Thickness += (1 - MinChordThickness) * a.Self / maxSelf
		}
		g.Arcs[u] = a
		theta = a.Out.End + g.Gaps[u] + spare
	}
	if total > 0 {
		// Source ends: within src's out interval, destinations farthest
		// clockwise first; target ends likewise within dst's in interval.
		srcEnd := make(map[[2]int]Interval)
		dstEnd := make(map[[2]int]Interval)
		for u := 0; u < n; u++ {
			at := g.Arcs[u].Out.Start
			for k := n - 1; k >= 1; k-- {
				t := (u + k) % n
				w := d.weight(frame, u, t) * g.Scale
				srcEnd[[2]int{u, t}] = Interval{at, at + w}
				at += w
			}
			at = g.Arcs[u].In.Start
			for k := n - 1; k >= 1; k-- {
				s := (u + k) % n
				w := d.weight(frame, s, u) * g.Scale
				dstEnd[[2]int{s, u}] = Interval{at, at + w}
				at += w
			}
		}
		for s := 0; s < n; s++ {
			for t := 0; t < n; t++ {
				if w := d.weight(frame, s, t); s != t && w > 0 {
					g.Ribbons = append(g.Ribbons, ChordRibbon{Src: s, Dst: t, Weight: w,
						Source: srcEnd[[2]int{s, t}], Target: dstEnd[[2]int{s, t}]})
				}
			}
		}
	}
	g.Rings = make([][]Interval, len(d.Rings))
	for r, ring := range d.Rings {
		g.Rings[r] = make([]Interval, len(ring.Groups))
		for k, grp := range ring.Groups {
			f, l := max(grp.First, 0), min(grp.Last, n-1)
			if f > l {
				continue
			}
			g.Rings[r][k] = Interval{g.Arcs[f].In.Start, g.Arcs[l].Out.End}
		}
	}
	return g
}

// ---------------------------------------------------------------------------
// Drawing: the dimensions, the spec the runtime draws from, the static SVG.

// chordDims are the radii of a chord diagram drawn in a box.
type chordDims struct {
	Width     ang   `json:"width"`
	Height    ang   `json:"height"`
	CX        ang   `json:"cx"`
	CY        ang   `json:"cy"`
	R0        ang   `json:"r0"`     // ribbons end here; arcs start here
	ArcMax    ang   `json:"arcMax"` // thickness of an arc at Thickness 1
	Rings     []ang `json:"rings"`  // inner radius of each ring
	RingWidth ang   `json:"ringWidth"`
	LabelR    ang   `json:"labelR"` // unit labels
}

const (
	chordRingWidth = 14.0
	chordRingSep   = 3.0
	chordHeader    = 38.0 // the frame label and total above the circle
	chordFooter    = 30.0 // the legend below it, two lines
	// chordLabelSep is the least distance kept between two labels.
	chordLabelSep = 3.0
)

func newChordDims(d ChordData, width, height float64) chordDims {
	maxLabel := 0.0
	for _, u := range unitsJSON(d.Units) {
		maxLabel = math.Max(maxLabel, textWidth(u.Name, fontSize))
	}
	labelW := math.Min(90, maxLabel+8)
	rOut := math.Min(width/2-labelW-4, (height-chordHeader-chordFooter)/2-16)
	nr := float64(len(d.Rings))
	ringsW := nr * (chordRingWidth + chordRingSep)
	// The arcs take about a ninth of the radius, at least 10 px.
	arcMax := math.Max(10, math.Min(22, rOut/9))
	r0 := rOut - ringsW - arcMax - 4
	if r0 < 30 {
		r0 = 30
	}
	dm := chordDims{Width: a4(width), Height: a4(height), CX: a4(width / 2),
		CY: a4(chordHeader + (height-chordHeader-chordFooter)/2), R0: a4(r0), ArcMax: a4(arcMax),
		RingWidth: chordRingWidth, LabelR: a4(r0 + arcMax + 4 + ringsW + 8)}
	for r := range d.Rings {
		dm.Rings = append(dm.Rings, a4(r0+arcMax+4+float64(r)*(chordRingWidth+chordRingSep)))
	}
	return dm
}

// chordSpec is what the runtime's chord view draws from.
type chordSpec struct {
	Units      []unitJSON       `json:"units"`
	Rings      []chordRingSpec  `json:"rings"`
	Frames     []chordFrameSpec `json:"frames"`
	Selected   int              `json:"selected"`
	WeightName string           `json:"weightName"`
	Dims       chordDims        `json:"dims"`
}

type chordRingSpec struct {
	Name   string          `json:"name"`
	Groups []chordRingItem `json:"groups"`
}

type chordRingItem struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
	Ink   string `json:"ink"` // label colour on Color
	First int    `json:"first"`
	Last  int    `json:"last"`
}

type chordFrameSpec struct {
	Label string `json:"label"`
	// Arcs[u] = [in start, in end (= out start), out end, thickness].
	Arcs [][4]ang `json:"arcs"`
	// Totals[u] = [in, out, self].
	Totals [][3]num `json:"totals"`
	// Ribbons[k] = [src, dst, source start, source end, target start, target end].
	Ribbons [][6]ang `json:"ribbons"`
	// Tips[k] is ribbon k's hover text.
	Tips []string `json:"tips"`
	// Rings[r][g] = [start, end].
	Rings [][][2]ang `json:"rings"`
	// Labels[u] is '1' where unit u's label is drawn; RingLabels[r][g] too.
	Labels     string   `json:"labels"`
	RingLabels []string `json:"ringLabels"`
	// Total is the frame's traffic as printed under its label, with the
	// share of the circle its ribbons take.
	Total string `json:"total"`
	// Fill is ChordGeometry.Fill.
	Fill num `json:"fill"`
}

// ringColors are the fills of ring groups without a colour of their own:
// alternating greys, darker further out.
var ringColors = [][2]string{{"#d9d9d9", "#bdbdbd"}, {"#bfbfbf", "#a3a3a3"}, {"#a6a6a6", "#8c8c8c"}}

func buildChordSpec(d ChordData, width, height float64) chordSpec {
	// One scale for all frames, computed once.
	d.FullCircle = d.fullCircle()
	d.FullThickness = math.Max(d.FullThickness, d.maxSelf())
	sp := chordSpec{Units: unitsJSON(d.Units), Selected: clampInt(d.Selected, 0, len(d.Frames)-1),
		WeightName: d.WeightName, Dims: newChordDims(d, width, height), Rings: []chordRingSpec{}, Frames: []chordFrameSpec{}}
	if sp.Dims.Rings == nil {
		sp.Dims.Rings = []ang{}
	}
	for r, ring := range d.Rings {
		rs := chordRingSpec{Name: ring.Name, Groups: []chordRingItem{}}
		for k, g := range ring.Groups {
			it := chordRingItem{ID: g.ID, Name: g.Name, Color: g.Color, First: g.First, Last: g.Last}
			if it.Name == "" {
				it.Name = it.ID
			}
			if it.Color == "" {
				it.Color = ringColors[min(r, len(ringColors)-1)][k%2]
			}
			it.Ink = labelInk(it.Color)
			rs.Groups = append(rs.Groups, it)
		}
		sp.Rings = append(sp.Rings, rs)
	}
	for f := range d.Frames {
		sp.Frames = append(sp.Frames, chordFrame(d, sp, f))
	}
	return sp
}

func chordFrame(d ChordData, sp chordSpec, f int) chordFrameSpec {
	g := ChordLayout(d, f)
	fs := chordFrameSpec{Label: d.Frames[f].Label, Ribbons: [][6]ang{}, Tips: []string{}, Arcs: [][4]ang{}, Totals: [][3]num{},
		Rings: [][][2]ang{}, RingLabels: []string{}}
	for _, a := range g.Arcs {
		fs.Arcs = append(fs.Arcs, [4]ang{a4(a.In.Start), a4(a.In.End), a4(a.Out.End), a4(a.Thickness)})
		fs.Totals = append(fs.Totals, [3]num{num(a.InTotal), num(a.OutTotal), num(a.Self)})
	}
	for _, rb := range g.Ribbons {
		fs.Ribbons = append(fs.Ribbons, [6]ang{ang(rb.Src), ang(rb.Dst), a4(rb.Source.Start), a4(rb.Source.End), a4(rb.Target.Start), a4(rb.Target.End)})
		det := d.details(f, rb.Src, rb.Dst)
		if det == "" {
			det = FormatNumber(rb.Weight)
			if d.WeightName != "" {
				det += " " + d.WeightName
			}
		}
		src, dst := sp.Units[rb.Src].Name, sp.Units[rb.Dst].Name
		if !strings.Contains(det, src) || !strings.Contains(det, dst) {
			det = src + " → " + dst + "\n" + det
		}
		fs.Tips = append(fs.Tips, det)
	}
	for _, ring := range g.Rings {
		ivs := [][2]ang{}
		for _, iv := range ring {
			ivs = append(ivs, [2]ang{a4(iv.Start), a4(iv.End)})
		}
		fs.Rings = append(fs.Rings, ivs)
	}
	fs.Labels, fs.RingLabels = chordLabelsShown(g, sp)
	fs.Fill = num(math.Round(g.Fill*1e4) / 1e4)
	fs.Total = d.Frames[f].Total
	if fs.Total == "" {
		sum := 0.0
		for s := range d.Units {
			for t := range d.Units {
				sum += d.weight(f, s, t)
			}
		}
		fs.Total = FormatNumber(sum)
		if d.WeightName != "" {
			fs.Total += " " + d.WeightName
		}
	}
	share := fmt.Sprintf("%.0f%%", 100*g.Fill)
	if g.Fill > 0 && share == "0%" {
		share = "under 1%"
	}
	fs.Total += " · ribbons: " + share + " of the circle"
	return fs
}

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

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return max(lo, min(v, hi))
}

// pt is the point at radius r and angle theta around (cx, cy).
func pt(cx, cy, r, theta float64) (float64, float64) {
	return cx + r*math.Sin(theta), cy - r*math.Cos(theta)
}

// annulusPath is the path of an annular sector (the runtime's arcPath).
func annulusPath(cx, cy, r0, r1, a0, a1 float64) string {
	if a1-a0 < 1e-9 {
		return ""
	}
	large := 0
	if a1-a0 > math.Pi {
		large = 1
	}
	x0, y0 := pt(cx, cy, r1, a0)
	x1, y1 := pt(cx, cy, r1, a1)
	x2, y2 := pt(cx, cy, r0, a1)
	x3, y3 := pt(cx, cy, r0, a0)
	return fmt.Sprintf("M%s,%sA%s,%s 0 %d 1 %s,%sL%s,%sA%s,%s 0 %d 0 %s,%sZ",
		n2(x0), n2(y0), n2(r1), n2(r1), large, n2(x1), n2(y1), n2(x2), n2(y2), n2(r0), n2(r0), large, n2(x3), n2(y3))
}

// ribbonPath is the path of a ribbon between two arcs of radius r around
// the origin, exactly as d3-chord's ribbon (with d3-path) draws it in the
// runtime: M, an arc unless empty, a quadratic curve through the centre to
// the target end, its arc unless empty, a curve back, Z.
func ribbonPath(r, a0, a1, b0, b1 float64) string {
	p := func(a float64) string {
		x, y := pt(0, 0, r, a)
		return n2(x) + "," + n2(y)
	}
	arc := func(s, e float64) string {
		da := e - s
		if da < 0 {
			da = math.Mod(da, 2*math.Pi) + 2*math.Pi
		}
		if da <= 1e-6 { // d3-path draws nothing for an empty arc
			return ""
		}
		large := 0
		if da >= math.Pi {
			large = 1
		}
		return fmt.Sprintf("A%s,%s,0,%d,1,%s", n2(r), n2(r), large, p(e))
	}
	return "M" + p(a0) + arc(a0, a1) + "Q0,0," + p(b0) + arc(b0, b1) + "Q0,0," + p(a0) + "Z"
}

// drawChord writes frame f of a chord diagram at the origin of the current
// user space; hatch is the id of the in-traffic pattern.
func drawChord(w *svgw, sp chordSpec, f int, hatch string) {
	dm := sp.Dims
	cx, cy := float64(dm.CX), float64(dm.CY)
	if len(sp.Frames) == 0 {
		w.text(cx, cy, "no frames", ` text-anchor="middle" fill="#666666"`)
		return
	}
	fr := sp.Frames[f]
	head := "frame " + fr.Label
	if fr.Label == "" {
		head = fmt.Sprintf("frame %d", f+1)
	}
	w.text(4, 15, head, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont-1), inkColor))
	w.text(float64(dm.Width)-4, 15, fmt.Sprintf("%d of %d", f+1, len(sp.Frames)), fmt.Sprintf(` text-anchor="end" fill="%s"`, mutedInk))
	w.text(4, 31, fr.Total, fmt.Sprintf(` class="ss-total" fill="%s"`, inkColor))
	// Rings, innermost first.
	for r, ring := range sp.Rings {
		ri := float64(dm.Rings[r])
		for k, g := range ring.Groups {
			iv := fr.Rings[r][k]
			p := annulusPath(cx, cy, ri, ri+chordRingWidth, float64(iv[0]), float64(iv[1]))
			if p == "" {
				continue
			}
			w.f(`<path d="%s" fill="%s" stroke="#ffffff" stroke-width="0.5"/>`, p, g.Color)
			if fr.RingLabels[r][k] == '1' {
				ringLabel(w, cx, cy, ri+chordRingWidth/2, (float64(iv[0])+float64(iv[1]))/2, g.Name, g.Ink)
			}
		}
	}
	// Ribbons, under the arcs, around the centre as the runtime draws them.
	r := float64(dm.R0) - 1
	w.f(`<g class="ss-ribbons" transform="translate(%s,%s)">`, n2(cx), n2(cy))
	for _, rb := range fr.Ribbons {
		s := int(rb[0])
		w.f(`<path data-key="%d-%d" d="%s" fill="%s" fill-opacity="0.62" stroke="%s" stroke-opacity="0.8" stroke-width="0.5"/>`,
			s, int(rb[1]), ribbonPath(r, float64(rb[2]), float64(rb[3]), float64(rb[4]), float64(rb[5])), sp.Units[s].Color, darken(sp.Units[s].Color, 0.3))
	}
	w.WriteString(`</g>`)
	// Arcs: in (hatched), then out.
	for u, a := range fr.Arcs {
		col := sp.Units[u].Color
		r1 := float64(dm.R0) + float64(dm.ArcMax)*float64(a[3])
		if p := annulusPath(cx, cy, float64(dm.R0), r1, float64(a[0]), float64(a[1])); p != "" {
			w.f(`<path d="%s" fill="%s"/><path d="%s" fill="url(#%s)"/>`, p, col, p, hatch)
		}
		if p := annulusPath(cx, cy, float64(dm.R0), r1, float64(a[1]), float64(a[2])); p != "" {
			w.f(`<path d="%s" fill="%s"/>`, p, col)
		}
		if fr.Labels[u] == '1' {
			x, y, anchor := chordLabel(cx, cy, float64(dm.LabelR), (float64(a[0])+float64(a[2]))/2)
			w.text(x, y, sp.Units[u].Name, fmt.Sprintf(` text-anchor="%s" fill="%s"`, anchor, inkColor))
		}
	}
	legend(w, 4, float64(dm.Height)-18, hatch, chordLegend)
	w.text(4, float64(dm.Height)-4, chordLegend2, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
}

// The chord legend's words, after the in/out swatches, and its second line
// (the runtime's chord.js says the same).
const (
	chordLegend  = " · ribbon colour: the sender's"
	chordLegend2 = "arc thickness: traffic a unit sends to itself"
)

// ringLabel writes a group's name along its ring, upright, in colour ink.
func ringLabel(w *svgw, cx, cy, r, theta float64, name, ink string) {
	x, y := pt(cx, cy, r, theta)
	deg := ringLabelAngle(theta)
	w.f(`<text transform="translate(%s,%s) rotate(%s)" text-anchor="middle" dy="0.35em" font-size="%s" fill="%s">%s</text>`,
		n2(x), n2(y), n2(deg), n2(smallFont), ink, htmlEscape(name))
}

// labelInk is black or white, whichever reads better on fill.
func labelInk(fill string) string {
	var r, g, b int
	if _, err := fmt.Sscanf(fill, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return inkColor
	}
	if 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 140 {
		return "#ffffff"
	}
	return inkColor
}

// ChordView is a chord diagram: GiViP's Frame View.
type ChordView struct {
	Data ChordData
	// Width and Height of the picture in px (default 480×500).
	Width, Height float64
}

// Chord shows the traffic between units as a hierarchical chord diagram:
// concentric rings for the hierarchy, each unit's arc split into incoming
// (hatched) and outgoing traffic, self traffic as arc thickness, ribbons in
// the source's colour. Live, a slider moves between frames with animated
// transitions and hovering a ribbon shows its details.
func Chord(d ChordData) *ChordView { return &ChordView{Data: d, Width: 480, Height: 500} }

func (v *ChordView) spec() chordSpec {
	w, h := v.Width, v.Height
	if w <= 0 {
		w = 480
	}
	if h <= 0 {
		h = 500
	}
	return buildChordSpec(v.Data, w, h)
}

func chordSVG(sp chordSpec) string {
	var w svgw
	w.open(float64(sp.Dims.Width), float64(sp.Dims.Height), "hatch")
	drawChord(&w, sp, sp.Selected, "hatch")
	w.close()
	return w.String()
}

// SVG is the static picture: the selected frame.
func (v *ChordView) SVG() string { return chordSVG(v.spec()) }

func (v *ChordView) alt() string {
	d := v.Data
	s := fmt.Sprintf("Chord diagram of %d units over %d frames", len(d.Units), len(d.Frames))
	if len(d.Frames) > 0 {
		f := clampInt(d.Selected, 0, len(d.Frames)-1)
		s += fmt.Sprintf(" (frame %s shown)", d.Frames[f].Label)
	}
	return s
}

// MIMEBundle implements Renderer.
func (v *ChordView) MIMEBundle() Bundle { return v.figure().MIMEBundle() }

func (v *ChordView) figure() figure {
	sp := v.spec()
	alt := v.alt()
	return figure{svg: chordSVG(sp), alt: alt, text: alt + "\n" + v.text(sp), kind: "chord", spec: sp}
}

// text is a table of the selected frame's totals per unit.
func (v *ChordView) text(sp chordSpec) string {
	if len(sp.Frames) == 0 {
		return ""
	}
	fr := sp.Frames[sp.Selected]
	rows := make([][]any, len(sp.Units))
	for u := range sp.Units {
		rows[u] = []any{sp.Units[u].Name, FormatNumber(float64(fr.Totals[u][0])), FormatNumber(float64(fr.Totals[u][1])), FormatNumber(float64(fr.Totals[u][2]))}
	}
	return Table([]string{"unit", "in", "out", "self"}, rows).MIMEBundle().Text()
}
