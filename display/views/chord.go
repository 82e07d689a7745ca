package views

import (
	"fmt"
	"math"

	"superstep/display"
)

// The chord diagram, by concern: this file holds the data and the view;
// chord_layout.go computes a frame's angles (ChordLayout); chord_spec.go
// packs what the runtime draws from; chord_labels.go places the labels;
// chord_svg.go writes the static picture.

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
	// FullTotal, if positive, is a frame's whole traffic (self included,
	// each message counted once) that fills the volume bar above the
	// circle; zero: the busiest frame's of these Frames. The bar shows the
	// frame's total on that scale, split into traffic between units and
	// traffic within them (self).
	FullTotal float64
}

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

// total is frame f's whole traffic, self included, each message once.
func (d ChordData) total(f int) float64 {
	t := 0.0
	for s := range d.Units {
		for u := range d.Units {
			t += d.weight(f, s, u)
		}
	}
	return t
}

// self is frame f's traffic within units (the diagonal).
func (d ChordData) self(f int) float64 {
	t := 0.0
	for u := range d.Units {
		t += d.weight(f, u, u)
	}
	return t
}

// fullTotal is the frame total that fills the volume bar: FullTotal, or
// the busiest frame's.
func (d ChordData) fullTotal() float64 {
	if d.FullTotal > 0 {
		return d.FullTotal
	}
	m := 0.0
	for f := range d.Frames {
		m = math.Max(m, d.total(f))
	}
	return m
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

// ChordCommonScale sets the same FullCircle, FullThickness and FullTotal
// on every one of ds: the busiest frame's traffic between units, the
// largest self traffic, and the busiest frame's whole traffic, over all of
// them. Their chord diagrams then compare.
func ChordCommonScale(ds []ChordData) {
	var full, thick, tot float64
	for _, d := range ds {
		full = math.Max(full, d.fullCircle())
		thick = math.Max(thick, math.Max(d.FullThickness, d.maxSelf()))
		tot = math.Max(tot, d.fullTotal())
	}
	for i := range ds {
		ds[i].FullCircle, ds[i].FullThickness, ds[i].FullTotal = full, thick, tot
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

// ChordView is a chord diagram: GiViP's Frame View.
type ChordView struct {
	Data ChordData
	// Width and Height of the picture in px (default 480×500).
	Width, Height float64
}

// Chord shows the traffic between units as a hierarchical chord diagram:
// concentric rings for the hierarchy, each unit's arc split into incoming
// (hatched) and outgoing traffic, self traffic as a dark band on the arc
// (its height in proportion to the unit's self traffic), ribbons in the
// source's colour. Every frame is drawn on one scale, the busiest frame's:
// its header prints the frame's total and the share within units ("self
// 78%"), over a volume bar whose length is the frame's total against the
// busiest frame's, its dark part the traffic within units. Live, a slider moves between frames with animated
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
func (v *ChordView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *ChordView) figure() figure {
	sp := v.spec()
	alt := v.alt()
	name := orDefault(v.Data.WeightName, "traffic")
	scales := map[string][2]float64{
		name + " between units (circle)": {0, v.Data.fullCircle()},
		name + " per frame (volume bar)": {0, v.Data.fullTotal()},
	}
	return figure{svg: chordSVG(sp), alt: alt, text: alt + "\n" + v.text(sp), kind: "chord", spec: sp, scales: scales}
}

// text is a table of the selected frame's totals per unit.
func (v *ChordView) text(sp chordSpec) string {
	if len(sp.Frames) == 0 {
		return ""
	}
	fr := sp.Frames[sp.Selected]
	rows := make([][]any, len(sp.Units))
	for u := range sp.Units {
		rows[u] = []any{sp.Units[u].Name, display.FormatNumber(float64(fr.Totals[u][0])), display.FormatNumber(float64(fr.Totals[u][1])), display.FormatNumber(float64(fr.Totals[u][2]))}
	}
	return display.Table([]string{"unit", "in", "out", "self"}, rows).MIMEBundle().Text()
}
