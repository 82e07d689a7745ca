package views

import (
	"fmt"
	"html"
	"math"
)

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
	// The volume bar: the frame's total on the busiest frame's scale,
	// traffic between units then within them (dark).
	barW := float64(dm.Width) - 8
	w.f(`<rect class="ss-volume-track" x="4" y="%s" width="%s" height="%s" fill="%s"/>`, n2(chordBarY), n2(barW), n2(chordBarH), chordBarTrack)
	b0, b1 := barW*float64(fr.Volume[0]), barW*float64(fr.Volume[1])
	w.f(`<rect class="ss-volume-between" x="4" y="%s" width="%s" height="%s" fill="%s"/>`, n2(chordBarY), n2(b0), n2(chordBarH), chordBarBetween)
	w.f(`<rect class="ss-volume-self" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, n2(4+b0), n2(chordBarY), n2(b1), n2(chordBarH), chordSelfInk)
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
		rb := float64(dm.R0) + float64(dm.ArcBase)
		if p := annulusPath(cx, cy, float64(dm.R0), rb, float64(a[0]), float64(a[1])); p != "" {
			w.f(`<path d="%s" fill="%s"/><path d="%s" fill="url(#%s)"/>`, p, col, p, hatch)
		}
		if p := annulusPath(cx, cy, float64(dm.R0), rb, float64(a[1]), float64(a[2])); p != "" {
			w.f(`<path d="%s" fill="%s"/>`, p, col)
		}
		// The self band, above the in and out intervals, as high as the
		// unit's self traffic.
		if r1 > rb+0.01 {
			if p := annulusPath(cx, cy, rb, r1, float64(a[0]), float64(a[2])); p != "" {
				w.f(`<path class="ss-self" data-unit="%d" d="%s" fill="%s"/>`, u, p, darken(col, chordSelfDarken))
			}
		}
		if fr.Labels[u] == '1' {
			x, y, anchor := chordLabel(cx, cy, float64(dm.LabelR), (float64(a[0])+float64(a[2]))/2)
			w.text(x, y, sp.Units[u].Name, fmt.Sprintf(` text-anchor="%s" fill="%s"`, anchor, inkColor))
		}
	}
	h := float64(dm.Height)
	legend(w, 4, h-30, hatch, chordLegend)
	w.f(`<rect x="4" y="%s" width="10" height="10" fill="%s"/>`, n2(h-26), chordSelfInk)
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	w.text(17, h-17, chordLegend2, small)
	w.text(4, h-4, chordLegend3, small)
}

// The chord legend's words, after the in/out swatches, its second line
// after the self swatch, and its third (the runtime's chord.js says the
// same).
const (
	chordLegend  = " · ribbon colour: the sender's"
	chordLegend2 = "self: traffic within a unit (dark band on arcs and bar)"
	chordLegend3 = "top bar: the frame's total; full: the busiest frame's"
)

// The volume bar's and the self band's colours (the runtime's chord.js
// uses the same).
const (
	chordBarTrack   = "#eeeeee"
	chordBarBetween = "#9e9e9e"
	chordSelfInk    = "#333333"
	chordSelfDarken = 0.55
)

// ringLabel writes a group's name along its ring, upright, in colour ink.
func ringLabel(w *svgw, cx, cy, r, theta float64, name, ink string) {
	x, y := pt(cx, cy, r, theta)
	deg := ringLabelAngle(theta)
	w.f(`<text transform="translate(%s,%s) rotate(%s)" text-anchor="middle" dy="0.35em" font-size="%s" fill="%s">%s</text>`,
		n2(x), n2(y), n2(deg), n2(smallFont), ink, html.EscapeString(name))
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
