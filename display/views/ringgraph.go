package views

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"superstep/display"
)

// The ring graph, by concern: this file holds the data, the view and its
// figure; ringgraph_layout.go computes the geometry (RingGraphLayout:
// angles, track spans, blocks, bundle centres, control points, marks);
// ringgraph_spec.go packs what the runtime draws from (documented in
// ringgraph_spec.md); ringgraph_svg.go writes the static picture, as SVG or
// rasterised directly for large rings.

// RingGraphTrack is one concentric ring of per-leaf integer values (e.g.
// one coordinate of each leaf). Brightness falls with the value: the
// smallest value is the lightest grey, the largest the darkest.
type RingGraphTrack struct {
	Name   string
	Values []int // one per leaf, in the order of RingGraphData.Leaves
}

// RingGraphLink joins two leaves (A ≠ B). Its traffic has two directions:
// forward (A→B, the "+" direction of the link modes) and backward (B→A,
// "−"), given per frame.
type RingGraphLink struct {
	A, B int
	// Group is a caller's category of the link (e.g. the dimension it runs
	// along), 0-based: colouring by group and the per-group totals of the
	// text form use it. Names in RingGraphData.GroupNames.
	Group int
}

// RingGraphFrame is one frame (a region, a phase) of traffic.
type RingGraphFrame struct {
	Label string
	// Forward[k] and Backward[k] are link k's traffic A→B and B→A. Either
	// may be nil (no traffic); otherwise it has one entry per link.
	// Negative and non-finite values count as 0.
	Forward, Backward []float64
	// LeafValues colours the leaves (e.g. a node counter); nil or one per
	// leaf. Used only when some frame has them.
	LeafValues []float64
}

// RingGraphMode says which direction of a link's traffic the marks show.
type RingGraphMode int

const (
	// RingGraphSum shows both directions added (the default).
	RingGraphSum RingGraphMode = iota
	// RingGraphPlus shows only the forward (A→B, "+") direction.
	RingGraphPlus
	// RingGraphMinus shows only the backward (B→A, "−") direction.
	RingGraphMinus
	// RingGraphAverage shows the mean of both directions (Boxfish's
	// "average").
	RingGraphAverage
)

var ringGraphModeNames = [...]string{"sum", "plus", "minus", "avg"}

// String is the mode's name in the spec: "sum", "plus", "minus", "avg".
func (m RingGraphMode) String() string {
	if m < 0 || int(m) >= len(ringGraphModeNames) {
		return "sum"
	}
	return ringGraphModeNames[m]
}

func (m RingGraphMode) describe() string {
	switch m {
	case RingGraphPlus:
		return "+ direction only"
	case RingGraphMinus:
		return "− direction only"
	case RingGraphAverage:
		return "average of both directions"
	}
	return "sum of both directions"
}

// RingGraphData is what a ring graph shows: leaves on a circle, tracks of
// per-leaf values around it, and links across its interior, bundled by
// blocks of consecutive leaves.
type RingGraphData struct {
	Title string
	// Leaves are the leaf labels, already in the circular order to draw
	// (clockwise from 12 o'clock).
	Leaves []string
	// Tracks are concentric rings of per-leaf values, the first innermost.
	Tracks []RingGraphTrack
	// Levels are block counts (e.g. 4, 8, 16): a level of m blocks cuts
	// the circle into m runs of consecutive leaves whose sizes differ by at
	// most 1, the first N mod m one larger. Empty: one level of
	// min(8, N) blocks. Every m must be in 1..N.
	Levels []int
	// Level is the index in Levels of the level shown first.
	Level int
	// Links are the links between leaves, the same in every frame.
	Links []RingGraphLink
	// GroupName names what Link.Group counts (default "group"), and
	// GroupNames names each group (default "group 0", "group 1", …).
	GroupName  string
	GroupNames []string
	// ColorByGroup colours links by their Group (Palette) instead of by
	// class (intra-block, adjacent blocks, far pairs).
	ColorByGroup bool
	// Mode is the link mode shown first.
	Mode RingGraphMode
	// Beta is the bundling strength in [0, 1] (0: straight lines); 0
	// means the default, DefaultRingGraphBeta. Use a tiny positive value
	// for almost straight lines.
	Beta float64
	// Frames are the traffic frames; Selected is the one shown first.
	Frames   []RingGraphFrame
	Selected int
	// ScaleMax, when positive, is the least value the traffic scale runs
	// up to: a link of that value (in the mode shown) is drawn widest and
	// carries the largest mark. Each mode's scale runs to the larger of
	// ScaleMax and its largest value over all frames, so rings given one
	// ScaleMax (at least each one's largest value) share one scale and can
	// be compared side by side (sdk.CompareMappings does this). 0: each
	// mode's own largest value.
	ScaleMax float64
	// WeightName names what the weights count (default "packets").
	WeightName string
	// LeafValueName names the leaf colour values (default "leaf value").
	LeafValueName string
	// Summary is extra text for the text/plain form (e.g. totals the
	// caller computed); optional.
	Summary string
	// OrderNote says how the leaves were put in order and where that
	// order is not continuous, e.g. "Hilbert order of 6×5×4×3×2 padded to
	// 8×8×4×4×2: 5 jumps"; the caption, the alt text and the text form
	// carry it. Optional.
	OrderNote string
	// width, when positive, is the width in px the ring is laid out for
	// (a Row gives each ring its share): the circle, its rings and the
	// marks shrink with it, the fonts keep their size and the legend and
	// caption wrap. 0: ringWidth.
	width float64
	// modeMax[m], when positive, is the least top of mode m's traffic
	// scale: rings compared side by side in a Row share one scale per
	// mode.
	modeMax [4]float64
}

// DefaultRingGraphBeta is the bundling strength used when
// RingGraphData.Beta is 0.
const DefaultRingGraphBeta = 0.85

// Up to these sizes the static picture is drawn through SVG; above either,
// it is rasterised directly in Go (and live, the runtime draws on a
// canvas).
const (
	RingGraphSVGLeaves = 2000
	RingGraphSVGLinks  = 20000
)

// RingGraphView is a ring graph.
type RingGraphView struct {
	Data RingGraphData
}

// RingGraph shows links between leaves laid out on a circle (e.g. the
// nodes of a torus in Hilbert order, after Cheng et al. 2018): tracks of
// per-leaf values around the circle, links as quadratic curves bundled
// towards the centre of their block pair, coloured by class (purple inside
// a block, earth-yellow between ring-adjacent blocks, orange, blue, green,
// pink and then Palette for far block pairs) or by group. A link's stroke
// width grows with its traffic in the mode shown (in 8 steps, linearly up
// to the scale's maximum, RingGraphData.ScaleMax), and a link without
// traffic is drawn thin and faint (the live view can hide those). Each
// two-way link carries a circle of area proportional to its traffic near
// the end that sends more; a one-way link carries an arrow.
func RingGraph(d RingGraphData) *RingGraphView { return &RingGraphView{Data: d} }

// big says whether the static picture is rasterised directly.
func (d RingGraphData) big() bool {
	return len(d.Leaves) > RingGraphSVGLeaves || len(d.Links) > RingGraphSVGLinks
}

func (d RingGraphData) weightName() string {
	if d.WeightName == "" {
		return "packets"
	}
	return d.WeightName
}

func (d RingGraphData) groupName() string {
	if d.GroupName == "" {
		return "group"
	}
	return d.GroupName
}

func (d RingGraphData) groupLabel(g int) string {
	if g >= 0 && g < len(d.GroupNames) && d.GroupNames[g] != "" {
		return d.GroupNames[g]
	}
	return fmt.Sprintf("%s %d", d.groupName(), g)
}

func (d RingGraphData) leafValueName() string {
	if d.LeafValueName == "" {
		return "leaf value"
	}
	return d.LeafValueName
}

func (d RingGraphData) beta() float64 {
	if d.Beta == 0 || !finite(d.Beta) {
		return DefaultRingGraphBeta
	}
	return math.Max(0, math.Min(1, d.Beta))
}

// levels is Levels, or the default.
func (d RingGraphData) levels() []int {
	if len(d.Levels) > 0 {
		return d.Levels
	}
	return []int{max(1, min(8, len(d.Leaves)))}
}

// validate reports why d cannot be drawn, or nil.
func (d RingGraphData) validate() error {
	n := len(d.Leaves)
	for t, tr := range d.Tracks {
		if len(tr.Values) != n {
			return fmt.Errorf("views.RingGraph: track %d (%q) has %d values for %d leaves", t, tr.Name, len(tr.Values), n)
		}
	}
	if n > 0 {
		for i, m := range d.levels() {
			if m < 1 || m > n {
				return fmt.Errorf("views.RingGraph: level %d has %d blocks; want 1..%d (the leaves)", i, m, n)
			}
		}
	}
	for k, l := range d.Links {
		if l.A < 0 || l.A >= n || l.B < 0 || l.B >= n {
			return fmt.Errorf("views.RingGraph: link %d (%d, %d) names a leaf outside 0..%d", k, l.A, l.B, n-1)
		}
		if l.A == l.B {
			return fmt.Errorf("views.RingGraph: link %d joins leaf %d to itself", k, l.A)
		}
		if l.Group < 0 || l.Group > 65535 {
			return fmt.Errorf("views.RingGraph: link %d has group %d; want 0..65535", k, l.Group)
		}
	}
	for f, fr := range d.Frames {
		if fr.Forward != nil && len(fr.Forward) != len(d.Links) {
			return fmt.Errorf("views.RingGraph: frame %d (%q) has %d forward weights for %d links", f, fr.Label, len(fr.Forward), len(d.Links))
		}
		if fr.Backward != nil && len(fr.Backward) != len(d.Links) {
			return fmt.Errorf("views.RingGraph: frame %d (%q) has %d backward weights for %d links", f, fr.Label, len(fr.Backward), len(d.Links))
		}
		if fr.LeafValues != nil && len(fr.LeafValues) != n {
			return fmt.Errorf("views.RingGraph: frame %d (%q) has %d leaf values for %d leaves", f, fr.Label, len(fr.LeafValues), n)
		}
	}
	if d.Mode < RingGraphSum || d.Mode > RingGraphAverage {
		return fmt.Errorf("views.RingGraph: unknown link mode %d", d.Mode)
	}
	return nil
}

// weights returns frame f's forward and backward weight of link k,
// cleaned (0 where missing, negative or not finite).
func (d RingGraphData) weights(f, k int) (fwd, bwd float64) {
	if f < 0 || f >= len(d.Frames) {
		return 0, 0
	}
	fr := d.Frames[f]
	if fr.Forward != nil {
		fwd = clean(fr.Forward[k])
	}
	if fr.Backward != nil {
		bwd = clean(fr.Backward[k])
	}
	return fwd, bwd
}

// selected is the frame shown first, clamped (-1 without frames).
func (d RingGraphData) selected() int {
	if len(d.Frames) == 0 {
		return -1
	}
	return clampInt(d.Selected, 0, len(d.Frames)-1)
}

// SVG is the ring graph as an SVG document (the selected frame, level and
// mode), or the reason it cannot be drawn.
func (v *RingGraphView) SVG() string {
	g, err := RingGraphLayout(v.Data)
	if err != nil {
		return errorSVG(err)
	}
	return v.Data.svg(g, v.Data.Mode, true)
}

// PNG is the static picture as a PNG, one pixel per px.
func (v *RingGraphView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *RingGraphView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *RingGraphView) figure() figure {
	d := v.Data
	g, err := RingGraphLayout(d)
	if err != nil {
		return figure{err: err}
	}
	alt := d.alt(g)
	top := d.modeTops()
	f := figure{alt: alt, text: alt + "\n" + d.text(), kind: "ringgraph", spec: d.spec(g),
		scales: map[string][2]float64{fmt.Sprintf("%s on a link (%s)", d.weightName(), d.Mode): {0, top[d.Mode]}}}
	if d.big() {
		f.makeSVG = func() string { return d.svg(g, d.Mode, true) }
		f.raster = func(scale float64) (*image.RGBA, error) { return d.render(g, d.Mode, scale) }
	} else {
		f.svg = d.svg(g, d.Mode, true)
	}
	return f
}

// alt is the one-line description: counts, the level and the frame.
func (d RingGraphData) alt(g *RingGraphGeometry) string {
	s := "Ring graph"
	if d.Title != "" {
		s += " " + fmt.Sprintf("%q", d.Title)
	}
	s += ": " + plural(len(d.Leaves), "leaf")
	s = strings.Replace(s, "leafs", "leaves", 1)
	s += ", " + plural(len(d.Links), "link")
	if lv := g.level(); lv != nil {
		s += ", " + lv.Caption
	}
	if d.OrderNote != "" {
		s += ", " + d.OrderNote
	}
	if f := d.selected(); f >= 0 {
		s += fmt.Sprintf(", frame %s (%d of %d)", d.frameLabel(f), f+1, len(d.Frames))
	}
	return s
}

func (d RingGraphData) frameLabel(f int) string {
	if d.Frames[f].Label != "" {
		return d.Frames[f].Label
	}
	return fmt.Sprint(f + 1)
}

// RingGraphTotals are one group's traffic in one frame.
type RingGraphTotals struct {
	Group             int
	Name              string
	Links             int     // links of the group
	Forward, Backward float64 // A→B and B→A traffic
	Idle              int     // links without traffic either way
}

// Totals returns frame f's traffic per link group, in group order (every
// group from 0 to the largest Group of any link, and any named in
// GroupNames).
func (d RingGraphData) Totals(f int) []RingGraphTotals {
	ng := len(d.GroupNames)
	for _, l := range d.Links {
		ng = max(ng, l.Group+1)
	}
	out := make([]RingGraphTotals, ng)
	for g := range out {
		out[g] = RingGraphTotals{Group: g, Name: d.groupLabel(g)}
	}
	for k, l := range d.Links {
		if l.Group < 0 || l.Group >= ng {
			continue
		}
		fw, bw := d.weights(f, k)
		t := &out[l.Group]
		t.Links++
		t.Forward += fw
		t.Backward += bw
		if fw == 0 && bw == 0 {
			t.Idle++
		}
	}
	return out
}

// text is the selected frame's totals per group, then the Summary.
func (d RingGraphData) text() string {
	f := d.selected()
	var b strings.Builder
	if f >= 0 {
		wn := d.weightName()
		rows := [][]any{}
		var all RingGraphTotals
		for _, t := range d.Totals(f) {
			rows = append(rows, []any{t.Name, display.FormatNumber(float64(t.Links)), display.FormatNumber(t.Forward), display.FormatNumber(t.Backward),
				display.FormatNumber(t.Forward + t.Backward), display.FormatNumber(float64(t.Idle))})
			all.Links += t.Links
			all.Forward += t.Forward
			all.Backward += t.Backward
			all.Idle += t.Idle
		}
		rows = append(rows, []any{"total", display.FormatNumber(float64(all.Links)), display.FormatNumber(all.Forward), display.FormatNumber(all.Backward),
			display.FormatNumber(all.Forward + all.Backward), display.FormatNumber(float64(all.Idle))})
		b.WriteString(display.Table([]string{d.groupName(), "links", "+ " + wn, "− " + wn, "total " + wn, "idle links"}, rows).MIMEBundle().Text())
	}
	for _, extra := range []string{d.OrderNote, d.Summary} {
		if extra == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(extra)
	}
	return b.String()
}

// fitWidth lays the ring out for w px (a Row's share): see
// RingGraphData.width.
func (v *RingGraphView) fitWidth(w float64) display.Renderer {
	c := *v
	c.Data.width = w
	return &c
}

// modeTops is the top of each mode's traffic scale before rounding: the
// largest value of the mode over all frames, at least ScaleMax and
// modeMax.
func (d RingGraphData) modeTops() [4]float64 {
	var top [4]float64
	for f := range d.Frames {
		for k := range d.Links {
			if d.Frames[f].Forward == nil && d.Frames[f].Backward == nil {
				break
			}
			fw, bw := d.weights(f, k)
			for m := RingGraphSum; m <= RingGraphAverage; m++ {
				top[m] = math.Max(top[m], ringValue(m, fw, bw))
			}
		}
	}
	for m := range top {
		if d.ScaleMax > 0 && finite(d.ScaleMax) {
			top[m] = math.Max(top[m], d.ScaleMax)
		}
		if d.modeMax[m] > 0 && finite(d.modeMax[m]) {
			top[m] = math.Max(top[m], d.modeMax[m])
		}
	}
	return top
}

// shareRingScales gives the rings among items that count the same thing
// (WeightName) one traffic scale per mode, the largest of theirs: a link
// of the same traffic is as wide in each. Other items are left alone.
func shareRingScales(items []display.Renderer) []display.Renderer {
	byName := map[string][]int{}
	for i, it := range items {
		if r, ok := it.(*RingGraphView); ok && r != nil && r.Data.validate() == nil {
			byName[r.Data.weightName()] = append(byName[r.Data.weightName()], i)
		}
	}
	out := slices.Clone(items)
	for _, idx := range byName {
		if len(idx) < 2 {
			continue
		}
		var top [4]float64
		for _, i := range idx {
			t := items[i].(*RingGraphView).Data.modeTops()
			for m := range top {
				top[m] = math.Max(top[m], t[m])
			}
		}
		for _, i := range idx {
			c := *items[i].(*RingGraphView)
			c.Data.modeMax = top
			out[i] = &c
		}
	}
	return out
}
