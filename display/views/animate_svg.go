package views

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"superstep/display"
	"superstep/display/views/internal/raster"
)

// The animated run's pictures: the legend they share, the live frame (title,
// legend and caption around the empty plot area the runtime draws on) and
// the static small multiples, as SVG and drawn directly as a raster.

const (
	animateLegendRow = 18.0
	animateRampW     = 96.0 // the colour bar of the legend, px
	animateRampCells = 48
	animatePanelGap  = 10.0
	animatePanelHead = 16.0
	animateTrendGap  = 8.0
	animatePulseAt   = 0.7 // where a pulse at rest sits between sender and receiver
)

// animateLegendItem is one entry of the legend: the colour bar of the
// value, or a dot with a text.
type animateLegendItem struct {
	ramp         bool
	fill, stroke string
	sw           float64 // stroke width of the dot
	text         string  // the dot's text; the ramp's value name
	lo, hi, mid  string  // the ramp's labels (mid: diverging only)
	x, w         float64 // within its row
}

// legendItems lists the legend's entries: the value scale, the no-value
// grey (naming the non-finite values that occur), the vertex states, the
// message pulse and the groups.
func (d AnimateData) legendItems(L *animateLayout) []animateLegendItem {
	var out []animateLegendItem
	small := func(s string) float64 { return textWidth(s, smallFont) }
	if L.finite {
		it := animateLegendItem{ramp: true, text: d.valueName(), lo: display.FormatNumber(L.scale.Min), hi: display.FormatNumber(L.scale.Max)}
		if L.scale.Ramp.Diverging {
			it.mid = display.FormatNumber(L.scale.Mid)
		}
		it.w = small(it.text) + 6 + small(it.lo) + 4 + animateRampW + 4 + small(it.hi) + 14
		if it.mid != "" {
			it.w += small("centre "+it.mid) + 6
		}
		out = append(out, it)
	}
	dot := func(fill, stroke string, sw float64, text string) {
		out = append(out, animateLegendItem{fill: fill, stroke: stroke, sw: sw, text: text, w: 14 + small(text) + 12})
	}
	if len(L.noValue) > 0 {
		dot(animateNoValue, animateOutline, 0.6, "no value ("+strings.Join(L.noValue, ", ")+")")
	}
	dot("#ffffff", animateActiveRing, 2, "active")
	dot("#ffffff", animateWokenRing, 1, "woken")
	dot("#ffffff", animateOutline, 0.6, "halted")
	dot(animatePulseColor, "none", 0, "message")
	if L.groupIDs != nil {
		for k, g := range L.groupIDs {
			if k == animateMaxGroups {
				dot("#ffffff", drawingOtherColor, 2, plural(len(L.groupIDs)-k, "other "+d.groupName()))
				break
			}
			dot("#ffffff", L.groupClr[k], 2, d.groupName()+" "+strconv.Itoa(int(g)))
		}
	}
	return out
}

// legendRows places the legend's entries in rows that fit width px.
func legendRows(items []animateLegendItem, width float64) [][]animateLegendItem {
	var rows [][]animateLegendItem
	x := 0.0
	for _, it := range items {
		if len(rows) == 0 || x+it.w > width && x > 0 {
			rows = append(rows, nil)
			x = 0
		}
		it.x = x
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += it.w
	}
	return rows
}

// legendSVG writes the legend's rows from y; it returns their height.
func (L *animateLayout) legendSVG(w *svgw, rows [][]animateLegendItem, y float64) float64 {
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), inkColor)
	for _, row := range rows {
		for _, it := range row {
			x := 4 + it.x
			if !it.ramp {
				stroke := ""
				if it.stroke != "none" {
					stroke = fmt.Sprintf(` stroke="%s" stroke-width="%s"`, it.stroke, n2(it.sw))
				}
				w.f(`<circle cx="%s" cy="%s" r="4.5" fill="%s"%s/>`, n2(x+5), n2(y+9), it.fill, stroke)
				w.text(x+14, y+13, it.text, small)
				continue
			}
			w.text(x, y+13, it.text, small)
			x += textWidth(it.text, smallFont) + 6
			w.text(x, y+13, it.lo, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
			x += textWidth(it.lo, smallFont) + 4
			cw := animateRampW / animateRampCells
			for k := 0; k < animateRampCells; k++ {
				c := L.scale.Ramp.Colors[L.rampEntry(min(255, (k*256+128)/animateRampCells))]
				w.f(`<rect x="%s" y="%s" width="%s" height="10" fill="#%02x%02x%02x"/>`, n2(x+float64(k)*cw), n2(y+4), n2(cw+0.3), c.R, c.G, c.B)
			}
			w.f(`<rect x="%s" y="%s" width="%s" height="10" fill="none" stroke="%s" stroke-width="0.5"/>`, n2(x), n2(y+4), n2(animateRampW), mutedInk)
			if it.mid != "" {
				w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, n2(x+animateRampW/2), n2(y+2), n2(x+animateRampW/2), n2(y+16), inkColor)
			}
			x += animateRampW + 4
			w.text(x, y+13, it.hi, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
			if it.mid != "" {
				x += textWidth(it.hi, smallFont) + 6
				w.text(x, y+13, "centre "+it.mid, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
			}
		}
		y += animateLegendRow
	}
	return float64(len(rows)) * animateLegendRow
}

// top is the height of the title band.
func (d AnimateData) top() float64 {
	if d.Title != "" {
		return drawingTitleBand
	}
	return 0
}

func (d AnimateData) titleSVG(w *svgw, width float64) {
	if d.Title != "" {
		w.text(4, 15, fitText(d.Title, width-8, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
}

// liveFrame is the live view's frame: title, the empty plot area (the
// runtime's canvas goes over it), legend and caption. The trend and the
// controls are the runtime's.
func (d AnimateData) liveFrame(L *animateLayout) string {
	rows := legendRows(d.legendItems(L), L.w-8)
	top := d.top()
	height := top + L.h + float64(len(rows))*animateLegendRow + drawingCaptionBand
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(L.w), n2(height), n2(L.w), n2(height), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(L.w), n2(height))
	d.titleSVG(&w, L.w)
	L.legendSVG(&w, rows, top+L.h)
	w.text(4, height-5, fitText(L.caption, L.w-8, smallFont), fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	w.close()
	return w.String()
}

// animatePanels is the geometry of the static small multiples.
type animatePanels struct {
	cols, rows int
	pw, ph     float64 // a panel's plot, px
	s          float64 // panel px per live plot px
	r          float64 // vertex radius in a panel
	top        float64 // y of the grid
	height     float64 // of the grid
}

func (d AnimateData) panels(L *animateLayout) animatePanels {
	k := len(L.frames)
	P := animatePanels{top: d.top()}
	switch {
	case k == 0:
		P.height = 24 // for "no supersteps"
		return P
	case k <= 3:
		P.cols = k
	case k == 4:
		P.cols = 2
	default:
		P.cols = 3
	}
	P.rows = (k + P.cols - 1) / P.cols
	P.pw = math.Floor((L.w - float64(P.cols-1)*animatePanelGap) / float64(P.cols))
	P.s = P.pw / L.w
	P.ph = math.Round(L.h * P.s)
	P.r = math.Round(math.Max(1, math.Min(L.r, 1.5*L.r*P.s))*100) / 100
	P.height = float64(P.rows)*(animatePanelHead+P.ph) + float64(P.rows-1)*animatePanelGap + animatePanelGap
	return P
}

// origin is the top left corner of panel k's plot.
func (P animatePanels) origin(k int) (x, y float64) {
	c, r := k%P.cols, k/P.cols
	return float64(c) * (P.pw + animatePanelGap), P.top + float64(r)*(animatePanelHead+P.ph+animatePanelGap) + animatePanelHead
}

// stepText says what superstep s did, for the live view's label under
// "superstep s (0–last)": "12 active · 48 messages".
func (L *animateLayout) stepText(s int) string {
	return fmt.Sprintf("%s active · %s", display.FormatNumber(float64(L.active[s])), plural(int(L.messages[s]), "message"))
}

// panelHead is a panel's header: "superstep 3", and "12 active · 48
// msgs" (compact numbers) at its right.
func (L *animateLayout) panelHead(s int) (head, note string) {
	return "superstep " + strconv.Itoa(s), compactNumber(float64(L.active[s])) + " active · " + compactNumber(float64(L.messages[s])) + " msgs"
}

// staticHeight is the height of the static picture.
func (d AnimateData) staticHeight(L *animateLayout, P animatePanels, rows int) float64 {
	h := P.top + P.height + float64(rows)*animateLegendRow
	if L.trend != nil {
		h += animateTrendGap + float64(L.trend.Layout.Height)
	}
	return h + drawingCaptionBand
}

// staticSVG is the static picture: the small multiples of L.frames, each
// headed by its superstep, then the legend, the trend and the caption.
// With standalone false the panels are left empty (their headers and
// borders drawn): the frame that render draws the panels into.
func (d AnimateData) staticSVG(L *animateLayout, standalone bool) string {
	P := d.panels(L)
	rows := legendRows(d.legendItems(L), L.w-8)
	height := d.staticHeight(L, P, len(rows))
	var w svgw
	w.open(L.w, height, "hatch")
	d.titleSVG(&w, L.w)
	for k, s := range L.frames {
		x, y := P.origin(k)
		head, note := L.panelHead(s)
		w.text(x+2, y-4, head, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(smallFont), inkColor))
		w.text(x+P.pw-2, y-4, fitText(note, P.pw-8-textWidth(head, smallFont), smallFont), fmt.Sprintf(` text-anchor="end" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
		w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s" stroke-width="0.6"/>`, n2(x), n2(y), n2(P.pw), n2(P.ph), gridColor)
		if standalone {
			d.panelSVG(&w, L, P, s, x, y)
		}
	}
	if len(L.frames) == 0 {
		w.text(4, P.top+14, "no supersteps", fmt.Sprintf(` fill="%s"`, mutedInk))
	}
	y := P.top + P.height
	y += L.legendSVG(&w, rows, y)
	if L.trend != nil {
		y += animateTrendGap
		w.f(`<g transform="translate(0,%s)">`, n2(y))
		drawTrend(&w, *L.trend, -1, "hatch")
		w.WriteString(`</g>`)
	}
	w.text(4, height-5, fitText(L.caption, L.w-8, smallFont), fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	w.close()
	return w.String()
}

// panelStyle is how a panel draws its vertices: radius, outline and ring
// widths.
type panelStyle struct {
	r, outline, ring, gap, dot, pulseW float64
	woken                              bool // woken vertices are ringed
}

// animateTiny is the radius below which vertices are dots: no outline
// (it would hide the fill) and no ring for woken ones.
const animateTiny = 2.0

func (L *animateLayout) panelStyle(r float64) panelStyle {
	st := panelStyle{r: r, outline: 0.6, ring: math.Max(0.8, math.Min(2, 0.35*r)), gap: 0.4, woken: r >= animateTiny}
	switch {
	case r < animateTiny:
		st.outline = 0
	case L.groupRank != nil:
		st.outline = math.Max(0.8, math.Min(1.8, 0.3*r))
	}
	st.dot = math.Max(1.2, 0.6*r)
	st.pulseW = math.Max(0.6, math.Min(1.5, 0.25*r))
	return st
}

// pulseDot is where a pulse at rest sits, from a to b.
func pulseDot(ax, ay, bx, by float64) (float64, float64) {
	return ax + animatePulseAt*(bx-ax), ay + animatePulseAt*(by-ay)
}

// panelSVG writes superstep s into the panel whose plot starts at (ox,
// oy): edges, the superstep's message lines, the vertices (fill by value,
// outline by group, ring by state), the pulses' dots.
func (d AnimateData) panelSVG(w *svgw, L *animateLayout, P animatePanels, s int, ox, oy float64) {
	st := d.Steps[s]
	ps := L.panelStyle(P.r)
	X := func(i int32) float64 { return L.x[i] * P.s }
	Y := func(i int32) float64 { return L.y[i] * P.s }
	w.f(`<svg class="ss-panel" data-step="%d" x="%s" y="%s" width="%s" height="%s" viewBox="0 0 %s %s" overflow="hidden">`,
		s, n2(ox), n2(oy), n2(P.pw), n2(P.ph), n2(P.pw), n2(P.ph))
	if len(L.edges) > 0 {
		w.f(`<path fill="none" stroke="%s" stroke-opacity="%s" stroke-width="%s" d="`, drawingEdgeColor, n2(L.opacity), n2(drawingEdgeWidth))
		for k := 0; k < len(L.edges); k += 2 {
			a, b := L.edges[k], L.edges[k+1]
			w.f("M%s %sL%s %s", n2(X(a)), n2(Y(a)), n2(X(b)), n2(Y(b)))
		}
		w.WriteString(`"/>`)
	}
	if len(L.pulses[s]) > 0 {
		w.f(`<path fill="none" stroke="%s" stroke-opacity="0.7" stroke-width="%s" d="`, animatePulseColor, n2(ps.pulseW))
		for _, k := range L.pulses[s] {
			p := st.Pulses[k]
			w.f("M%s %sL%s %s", n2(X(p.From)), n2(Y(p.From)), n2(X(p.To)), n2(Y(p.To)))
		}
		w.WriteString(`"/>`)
	}
	w.WriteString(`<g class="ss-vertices">`)
	for i := range L.n {
		stroke, sw := animateOutline, ps.outline
		if L.groupRank != nil {
			stroke = L.groupColor(i)
		}
		cx, cy := X(int32(i)), Y(int32(i))
		if sw == 0 {
			w.f(`<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, n2(cx), n2(cy), n2(ps.r), L.fill(st.Value[i]))
		} else {
			w.f(`<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="%s"/>`,
				n2(cx), n2(cy), n2(ps.r-sw/2), L.fill(st.Value[i]), stroke, n2(sw))
		}
		if c, rw := ringOf(st.State[i], ps); c != "" {
			w.f(`<circle class="ss-ring" cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"/>`,
				n2(cx), n2(cy), n2(ps.r+ps.gap+rw/2), c, n2(rw))
		}
	}
	w.WriteString(`</g>`)
	if len(L.pulses[s]) > 0 {
		w.f(`<g fill="%s">`, animatePulseColor)
		for _, k := range L.pulses[s] {
			p := st.Pulses[k]
			x, y := pulseDot(X(p.From), Y(p.From), X(p.To), Y(p.To))
			w.f(`<circle class="ss-pulse" cx="%s" cy="%s" r="%s"/>`, n2(x), n2(y), n2(ps.dot))
		}
		w.WriteString(`</g>`)
	}
	w.WriteString(`</svg>`)
}

// ringOf is the ring of a vertex in a state: its colour ("" for none) and
// width.
func ringOf(state uint8, ps panelStyle) (string, float64) {
	switch state {
	case StateActive:
		return animateActiveRing, ps.ring
	case StateWoken:
		if ps.woken {
			return animateWokenRing, math.Max(0.6, ps.ring/2)
		}
	}
	return "", 0
}

// render draws the static picture at scale pixels per px: the frame
// (title, headers, legend, trend, caption) through the SVG rasteriser, the
// panels directly (a 20,000-vertex run has 140,000 circles), as panelSVG
// draws them.
func (d AnimateData) render(L *animateLayout, scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(d.staticSVG(L, false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views.Animate: %w", err)
	}
	P := d.panels(L)
	ps := L.panelStyle(P.r)
	plot := rasterPlot{img: img}
	ec, pc := parseHex(drawingEdgeColor), parseHex(animatePulseColor)
	fills := map[string][3]uint8{}
	hexOf := func(s string) [3]uint8 {
		c, ok := fills[s]
		if !ok {
			c = parseHex(s)
			fills[s] = c
		}
		return c
	}
	k2 := P.s * scale
	for k, s := range L.frames {
		st := d.Steps[s]
		ox, oy := P.origin(k)
		ox, oy = ox*scale, oy*scale
		// Centres snapped to pixel centres: alike vertices get alike pixels,
		// which the PNG's compression finds again.
		X := func(i int32) float64 { return math.Floor(ox+L.x[i]*k2) + 0.5 }
		Y := func(i int32) float64 { return math.Floor(oy+L.y[i]*k2) + 0.5 }
		for e := 0; e < len(L.edges); e += 2 {
			a, b := L.edges[e], L.edges[e+1]
			plot.line(X(a), Y(a), X(b), Y(b), ec, L.opacity*drawingEdgeWidth*scale)
		}
		for _, q := range L.pulses[s] {
			p := st.Pulses[q]
			plot.line(X(p.From), Y(p.From), X(p.To), Y(p.To), pc, 0.7*math.Min(1, ps.pulseW*scale))
		}
		for i := range L.n {
			cx, cy := X(int32(i)), Y(int32(i))
			if c, rw := ringOf(st.State[i], ps); c != "" {
				plot.ring(cx, cy, (ps.r+ps.gap)*scale, (ps.r+ps.gap+rw)*scale, hexOf(c))
			}
			stroke := animateOutline
			if L.groupRank != nil {
				stroke = L.groupColor(i)
			}
			if ps.outline > 0 {
				plot.disc(cx, cy, ps.r*scale, hexOf(stroke))
			}
			plot.disc(cx, cy, (ps.r-ps.outline)*scale, hexOf(L.fill(st.Value[i])))
		}
		for _, q := range L.pulses[s] {
			p := st.Pulses[q]
			x, y := pulseDot(X(p.From), Y(p.From), X(p.To), Y(p.To))
			plot.disc(x, y, ps.dot*scale, pc)
		}
	}
	return img, nil
}

// ring fills an anti-aliased annulus between radii rin and rout.
func (r rasterPlot) ring(cx, cy, rin, rout float64, c [3]uint8) {
	for y := int(math.Floor(cy - rout - 1)); y <= int(math.Ceil(cy+rout+1)); y++ {
		for x := int(math.Floor(cx - rout - 1)); x <= int(math.Ceil(cx+rout+1)); x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			a := math.Min(1, math.Max(0, rout+0.5-d)) - math.Min(1, math.Max(0, rin+0.5-d))
			r.blend(x, y, c, a)
		}
	}
}
