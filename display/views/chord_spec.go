package views

import (
	"fmt"
	"math"
	"strings"

	"superstep/display"
)

// What the runtime draws a chord diagram from: its dimensions, and per
// frame the angles of ChordLayout, totals, hover texts and which labels fit.

// chordDims are the radii of a chord diagram drawn in a box.
type chordDims struct {
	Width     ang   `json:"width"`
	Height    ang   `json:"height"`
	CX        ang   `json:"cx"`
	CY        ang   `json:"cy"`
	R0        ang   `json:"r0"`      // ribbons end here; arcs start here
	ArcMax    ang   `json:"arcMax"`  // thickness of an arc at Thickness 1
	ArcBase   ang   `json:"arcBase"` // in/out part of an arc; the self band lies above
	Rings     []ang `json:"rings"`   // inner radius of each ring
	RingWidth ang   `json:"ringWidth"`
	LabelR    ang   `json:"labelR"` // unit labels
}

const (
	chordRingWidth = 14.0
	chordRingSep   = 3.0
	chordHeader    = 46.0 // the frame label, total and volume bar above the circle
	// chordBarY and chordBarH place the volume bar under the total.
	chordBarY   = 35.0
	chordBarH   = 5.0
	chordFooter = 42.0 // the legend below it, three lines
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
		CY: a4(chordHeader + (height-chordHeader-chordFooter)/2), R0: a4(r0), ArcMax: a4(arcMax), ArcBase: a4(arcMax * MinChordThickness),
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
	// SelfShare is the part of the frame's traffic within units, in [0, 1].
	SelfShare num `json:"selfShare"`
	// Volume is the volume bar: the frame's traffic between units and
	// within them, each as a part of the full bar (the busiest frame's
	// total, or ChordData.FullTotal); VolumeTip its hover text.
	Volume    [2]ang `json:"volume"`
	VolumeTip string `json:"volumeTip"`
	// SelfTips[u] is the hover text of unit u's self band ("" without
	// self traffic).
	SelfTips []string `json:"selfTips"`
}

// ringColors are the fills of ring groups without a colour of their own:
// alternating greys, darker further out.
var ringColors = [][2]string{{"#d9d9d9", "#bdbdbd"}, {"#bfbfbf", "#a3a3a3"}, {"#a6a6a6", "#8c8c8c"}}

func buildChordSpec(d ChordData, width, height float64) chordSpec {
	// One scale for all frames, computed once.
	d.FullCircle = d.fullCircle()
	d.FullThickness = math.Max(d.FullThickness, d.maxSelf())
	d.FullTotal = d.fullTotal()
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
		Rings: [][][2]ang{}, RingLabels: []string{}, SelfTips: []string{}}
	unitName := ""
	if d.WeightName != "" {
		unitName = " " + d.WeightName
	}
	for u, a := range g.Arcs {
		fs.Arcs = append(fs.Arcs, [4]ang{a4(a.In.Start), a4(a.In.End), a4(a.Out.End), a4(a.Thickness)})
		fs.Totals = append(fs.Totals, [3]num{num(a.InTotal), num(a.OutTotal), num(a.Self)})
		tip := ""
		if a.Self > 0 {
			tip = fmt.Sprintf("%s, within itself: %s%s\n%s of what it sends (in %s · out %s · self %s)", sp.Units[u].Name,
				display.FormatNumber(a.Self), unitName, percent(a.Self/(a.Self+a.OutTotal)),
				display.FormatNumber(a.InTotal), display.FormatNumber(a.OutTotal), display.FormatNumber(a.Self))
		}
		fs.SelfTips = append(fs.SelfTips, tip)
	}
	for _, rb := range g.Ribbons {
		fs.Ribbons = append(fs.Ribbons, [6]ang{ang(rb.Src), ang(rb.Dst), a4(rb.Source.Start), a4(rb.Source.End), a4(rb.Target.Start), a4(rb.Target.End)})
		det := d.details(f, rb.Src, rb.Dst)
		if det == "" {
			det = display.FormatNumber(rb.Weight)
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
	sum, self := d.total(f), d.self(f)
	fs.Total = d.Frames[f].Total
	if fs.Total == "" {
		fs.Total = display.FormatNumber(sum) + unitName
	}
	selfShare := 0.0
	if sum > 0 {
		selfShare = self / sum
	}
	fs.SelfShare = num(math.Round(selfShare*1e4) / 1e4)
	fs.Total = chordTotalLine(fs.Total, percent(selfShare), percent(g.Fill), float64(sp.Dims.Width)-8)
	if full := d.FullTotal; full > 0 {
		fs.Volume = [2]ang{a4((sum - self) / full), a4(self / full)}
	}
	fs.VolumeTip = fmt.Sprintf("this frame: %s%s, %s of the busiest frame's %s\nbetween units %s (%s) · within units %s (%s)",
		display.FormatNumber(sum), unitName, percent(sum/math.Max(d.FullTotal, 1e-300)), display.FormatNumber(d.FullTotal),
		display.FormatNumber(sum-self), percent(1-selfShare), display.FormatNumber(self), percent(selfShare))
	if sum == 0 {
		fs.VolumeTip = "this frame: no traffic; the busiest frame's: " + display.FormatNumber(d.FullTotal) + unitName
	}
	return fs
}

// percent formats a share in [0, 1] as "78%", never rounding a part to
// 0% or 100%.
func percent(x float64) string {
	s := fmt.Sprintf("%.0f%%", 100*x)
	switch {
	case x > 0 && s == "0%":
		return "under 1%"
	case x < 1 && s == "100%":
		return "over 99%"
	}
	return s
}

// chordTotalLine is the header's second line: the frame's total, the share
// of it within units and the part of the circle its ribbons take, as short
// as needed to fit width px.
func chordTotalLine(total, self, fill string, width float64) string {
	for _, s := range []string{
		total + " · self " + self + " · ribbons: " + fill + " of the circle",
		total + " · self " + self + " · ribbons " + fill,
		total + " · self " + self,
	} {
		if textWidth(s, fontSize) <= width {
			return s
		}
	}
	return fitText(total+" · self "+self, width, fontSize)
}
