package views

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"superstep/display"
)

// The static picture of a matrix board: a title strip (title and window),
// the panels with their labels, bars and cells, hot cells outlined, and a
// legend strip with each colour map's ramp and domain.

const (
	matrixTitleH  = 22.0 // the strip above the board
	matrixLegendH = 30.0 // the strip below it
	matrixHotInk  = "#000000"
	matrixBarEdge = "#bbbbbb"
	// matrixMissingFill is a missing item's cell, under the hatch: a grey
	// no colour ramp of the board reaches.
	matrixMissingFill = "#9e9e9e"
)

// matrixSize is the size of the whole picture.
func (m *matrixModel) matrixSize() (w, h float64) {
	return math.Max(m.picW, math.Max(m.geo.W, m.legendWidth())), m.geo.H + m.titleH + m.legendH
}

// legendKeys are the colour maps in the legend, cells' first.
func (m *matrixModel) legendKeys() []string {
	var keys []string
	for k := range m.scales {
		if k != "in" && k != "out" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return append(keys, "in", "out")
}

const matrixLegendEntry = 190.0 // px per map in the legend

func (m *matrixModel) legendWidth() float64 {
	if m.fit <= 0 {
		return float64(len(m.scales)) * matrixLegendEntry
	}
	w := 0.0
	for _, p := range m.legendPos {
		w = math.Max(w, p[0]+matrixLegendKeyW+matrixLegendRamp)
	}
	return w
}

// windowText says which bins the totals cover.
func (m *matrixModel) windowText() string {
	if len(m.d.Bins) == 0 || m.window[1] < m.window[0] {
		return "no data"
	}
	a, b := m.d.Bins[m.window[0]].Start.UTC(), m.d.Bins[m.window[1]].End.UTC()
	end := b.Format("2006-01-02 15:04")
	if a.Format("2006-01-02") == b.Format("2006-01-02") {
		end = b.Format("15:04") // the day once
	}
	return fmt.Sprintf("totals %s – %s (bins %d–%d of %d)", a.Format("2006-01-02 15:04"), end,
		m.window[0], m.window[1], len(m.d.Bins))
}

// windowTextIn is the window's text for w px: on a fitted board, the
// first of the whole text, the text without "totals" and the interval
// alone that fits (the live board chooses as this does); else the whole
// text, shortened with an ellipsis.
func (m *matrixModel) windowTextIn(w float64) string {
	full := m.windowText()
	if m.fit > 0 && strings.HasPrefix(full, "totals ") {
		short := strings.TrimPrefix(full, "totals ")
		dates := short
		if i := strings.Index(short, " (bins "); i >= 0 {
			dates = short[:i]
		}
		for _, s := range []string{full, short, dates} {
			if textWidth(s, smallFont) <= w {
				return s
			}
		}
		full = dates
	}
	return fitText(full, w, smallFont)
}

func matrixBoardSVG(m *matrixModel) string {
	W, H := m.matrixSize()
	var w svgw
	w.open(W, H, "hatch")
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	// The title and the window's totals fit the board's width (bold text
	// is wider than textWidth's estimate): on one line, or on a fitted
	// board too narrow for that, on two.
	for i, line := range m.titleRows() {
		w.text(0, 15+matrixTitleLine*float64(i), line, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	x, y, ww := m.windowPos()
	w.text(x, y, m.windowTextIn(ww), small)
	w.f(`<g transform="translate(0,%s)">`, n2(m.titleH))
	for p, pg := range m.geo.Panels {
		if p < len(m.d.Panels) && m.d.Panels[p].Label != "" {
			w.text(pg.Label.X, pg.Label.Y+pg.Label.H-6, fitText(m.d.Panels[p].Label, pg.Label.W, fontSize), fmt.Sprintf(` fill="%s"`, inkColor))
		}
		for _, b := range pg.Bars {
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" stroke-width="0.5"/>`,
				n2(b.X), n2(b.Y), n2(b.W), n2(b.H), hexColor(m.barColor(b)), matrixBarEdge)
		}
	}
	for _, l := range m.rowLabels() {
		w.text(l.X, l.Y, l.Text, fmt.Sprintf(` font-size="%s" text-anchor="end" fill="%s"`, n2(smallFont), inkColor))
	}
	for _, c := range m.cells {
		w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
			n2(c.box.X), n2(c.box.Y), n2(c.box.W), n2(c.box.H), hexColor(m.cellColor(c)))
		if m.d.Items[c.item].Missing {
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="url(#hatch)"/>`, n2(c.box.X), n2(c.box.Y), n2(c.box.W), n2(c.box.H))
		}
	}
	for _, c := range m.cells {
		if m.hot(c.item) {
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s" stroke-width="1.2"/>`,
				n2(c.box.X-0.6), n2(c.box.Y-0.6), n2(c.box.W+1.2), n2(c.box.H+1.2), matrixHotInk)
		}
	}
	w.WriteString(`</g>`)
	m.legendSVG(&w, m.geo.H+m.titleH+6)
	w.close()
	return w.String()
}

// legendSVG draws each colour map as 32 swatches from its ramp with its
// domain's ends (and middle, when diverging) below.
func (m *matrixModel) legendSVG(w *svgw, y float64) {
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	for _, key := range m.legendKeys() {
		s, ok := m.scales[key]
		if !ok {
			continue
		}
		x, y := m.legendPos[key][0], y+m.legendPos[key][1]
		w.text(x, y+9, key, small)
		const sw, n = 4.0, 32
		x0 := x + 34
		for i := 0; i < n; i++ {
			c := s.Ramp.Colors[i*255/(n-1)]
			w.f(`<rect x="%s" y="%s" width="%s" height="10" fill="%s"/>`, n2(x0+float64(i)*sw), n2(y), n2(sw), hexColor(c))
		}
		lo, hi := display.FormatValue(s.Min, m.d.Unit), display.FormatValue(s.Max, m.d.Unit)
		w.text(x0, y+21, lo, small)
		w.text(x0+n*sw-textWidth(hi, smallFont), y+21, hi, small)
		if s.Ramp.Diverging {
			mid := display.FormatValue(s.Mid, m.d.Unit)
			w.text(x0+n*sw/2-textWidth(mid, smallFont)/2, y+21, mid, small)
		}
	}
	if k := m.hotKey; k != nil {
		x, y := k[0], y+k[1]
		w.f(`<rect x="%s" y="%s" width="9" height="9" fill="#ffffff" stroke="%s" stroke-width="1.2"/>`, n2(x+0.6), n2(y+0.6), matrixHotInk)
		w.text(x+14, y+9, m.hotText(), small)
	}
	if k := m.missingKey; k != nil {
		x, y := k[0], y+k[1]
		w.f(`<rect x="%s" y="%s" width="10" height="10" fill="%s"/><rect x="%s" y="%s" width="10" height="10" fill="url(#hatch)"/>`,
			n2(x), n2(y), matrixMissingFill, n2(x), n2(y))
		w.text(x+14, y+9, m.missingText(), small)
	}
}
