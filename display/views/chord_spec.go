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
	fs.Total = d.Frames[f].Total
	if fs.Total == "" {
		sum := 0.0
		for s := range d.Units {
			for t := range d.Units {
				sum += d.weight(f, s, t)
			}
		}
		fs.Total = display.FormatNumber(sum)
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
