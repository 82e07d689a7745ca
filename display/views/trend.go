package views

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"superstep/display"
)

// TrendPanel is one small multiple of a trend view: one row per unit.
type TrendPanel struct {
	Title string      // e.g. "compute time (s)", "messages", "bytes"
	Out   [][]float64 // [unit][frame]
	// In is [unit][frame], or nil for a single-series panel; it is drawn
	// stacked on Out, hatched.
	In [][]float64
	// Quantity names what the panel measures, with its unit (e.g. "time
	// (ms)"): trends side by side in a Row share one scale per quantity.
	// "": the Title.
	Quantity string
	// Clip, when in (0, 1), clips a noisy panel's scale: it runs to the
	// Clip quantile of the panel's values (out + in, every unit and frame)
	// when the largest is more than twice that; the higher values are
	// drawn to the row's top under a red clip mark and the scale's label
	// says so. 0: the scale runs to the largest value.
	Clip float64
}

// quantity is the panel's scale key.
func (p TrendPanel) quantity() string {
	if p.Quantity != "" {
		return p.Quantity
	}
	return p.Title
}

// TrendData is what a trend view (GiViP's Trend View) shows.
type TrendData struct {
	Title  string
	Frames []string // frame labels on the shared time axis ("1", "2–5", …)
	Units  []Unit
	Panels []TrendPanel
	// FramesPerPage paginates the live view's time axis; 0 means 20. The
	// static picture shows every frame.
	FramesPerPage int
}

// TrendView is stacked small multiples over a shared, paginated time axis.
type TrendView struct {
	Data TrendData
	// Width of the picture in px (default 640).
	Width float64
	// share, when set, is what the trends of a Row have in common.
	share *trendShare
}

// trendShare is what trends compared side by side share: the plots' left
// edge, the number of frame columns, and each quantity's scale.
type trendShare struct {
	left  float64
	slots int
	max   map[string]float64
}

// Trend shows, for each panel (e.g. time, messages, bytes), one area chart
// per unit over the frames, in the unit's colour; a panel with In stacks the
// incoming series, hatched, on the outgoing one. Live, the time axis is
// paginated and hovering a point shows the unit, frame and values.
func Trend(d TrendData) *TrendView { return &TrendView{Data: d, Width: 640} }

// trendLayout places a trend view's rows; the runtime uses it too.
type trendLayout struct {
	Width     ang   `json:"width"`
	Height    ang   `json:"height"`
	Left      ang   `json:"left"`      // x where the plots start
	PlotWidth ang   `json:"plotWidth"` // width of the plots
	RowHeight ang   `json:"rowHeight"`
	PanelTop  []ang `json:"panelTop"` // y of each panel's first row
	AxisY     ang   `json:"axisY"`    // baseline of the frame labels
	PerPage   int   `json:"perPage"`  // frames per page, live
	// Slots is the number of frame columns of the static picture: the
	// frames, or more when trends compared side by side have more.
	Slots int `json:"slots"`
}

type trendPanelSpec struct {
	Title    string  `json:"title"`
	Out      [][]num `json:"out"`
	In       [][]num `json:"in"` // null for a single series
	Max      num     `json:"max"`
	MaxLabel string  `json:"maxLabel"`
	// Clipped says that some values exceed Max: they are drawn to the
	// row's top under a clip mark.
	Clipped bool `json:"clipped"`
	// TitleAbove says that the title sits a line (13 px) above the scale
	// label: the two do not fit one line side by side.
	TitleAbove bool `json:"titleAbove,omitempty"`
}

// trendSpec is what the runtime's trend view draws from.
type trendSpec struct {
	Title  string           `json:"title"`
	Frames []string         `json:"frames"`
	Units  []unitJSON       `json:"units"`
	Labels []string         `json:"labels"` // row labels, shortened to fit
	Panels []trendPanelSpec `json:"panels"`
	Layout trendLayout      `json:"layout"`
	// TitleLines, when set, are the title wrapped to the width left of
	// the legend (baselines 16 px apart from 16): a trend shown on its
	// own (not in a dashboard) wraps a title too long for one line.
	TitleLines []string `json:"titleLines,omitempty"`
}

const (
	trendTitleH      = 24.0 // the view title
	trendPanelTitleH = 16.0
	// trendPanelTitleLine is the extra line of a panel title above its
	// scale label; trendPanelTitleBold the width of its bold fontSize
	// text as textWidth estimates it.
	trendPanelTitleLine = 13.0
	trendPanelTitleBold = fontSize * 1.1
	trendPanelGap       = 8.0
	trendAxisH          = 20.0
)

func trendRowHeight(units int) float64 {
	if units <= 0 {
		return 26
	}
	return math.Max(11, math.Min(26, math.Floor(150/float64(units))))
}

// trendClipColor marks the values a clipped scale cuts.
const trendClipColor = "#d62728"

// trendScale is panel p's scale: its largest value (out + in), or, when
// p.Clip asks for it and the largest is more than twice the Clip
// quantile, that quantile.
func trendScale(p TrendPanel, nu, nf int) float64 {
	get := func(m [][]float64, u, f int) float64 {
		if u < len(m) && f < len(m[u]) {
			return clean(m[u][f])
		}
		return 0
	}
	vals := make([]float64, 0, nu*nf)
	mx := 0.0
	for u := 0; u < nu; u++ {
		for f := 0; f < nf; f++ {
			v := get(p.Out, u, f) + get(p.In, u, f)
			mx = math.Max(mx, v)
			vals = append(vals, v)
		}
	}
	if p.Clip <= 0 || p.Clip >= 1 || len(vals) == 0 {
		return mx
	}
	sort.Float64s(vals)
	q := vals[min(len(vals)-1, int(math.Ceil(p.Clip*float64(len(vals))))-1)]
	if q > 0 && mx > 2*q {
		return q
	}
	return mx
}

// trendLeft is where the plots of d start: room for the longest unit
// name.
func trendLeft(d TrendData) float64 {
	maxName := 0.0
	for _, u := range unitsJSON(d.Units) {
		maxName = math.Max(maxName, textWidth(u.Name, fontSize))
	}
	return math.Max(48, math.Min(140, maxName+22))
}

func buildTrendSpec(d TrendData, width float64) trendSpec {
	return buildSharedTrendSpec(d, width, nil, false)
}

// buildSharedTrendSpec lays d out for width px, on what the trends of a
// Row share when share is set; with wrapTitle a title too long for one
// line wraps (TitleLines).
func buildSharedTrendSpec(d TrendData, width float64, share *trendShare, wrapTitle bool) trendSpec {
	units := unitsJSON(d.Units)
	nu, nf := len(units), len(d.Frames)
	sp := trendSpec{Title: d.Title, Frames: d.Frames, Units: units, Panels: []trendPanelSpec{}}
	if sp.Frames == nil {
		sp.Frames = []string{}
	}
	get := func(m [][]float64, u, f int) float64 {
		if u < len(m) && f < len(m[u]) {
			return clean(m[u][f])
		}
		return 0
	}
	series := func(m [][]float64) [][]num {
		out := make([][]num, nu)
		for u := range out {
			out[u] = make([]num, nf)
			for f := range out[u] {
				out[u][f] = num(get(m, u, f))
			}
		}
		return out
	}
	for _, p := range d.Panels {
		ps := trendPanelSpec{Title: p.Title, Out: series(p.Out)}
		if p.In != nil {
			ps.In = series(p.In)
		}
		mx, scale := 0.0, trendScale(p, nu, nf)
		if share != nil {
			scale = math.Max(scale, share.max[p.quantity()])
		}
		for u := 0; u < nu; u++ {
			for f := 0; f < nf; f++ {
				mx = math.Max(mx, get(p.Out, u, f)+get(p.In, u, f))
			}
		}
		ps.Max = num(scale)
		ps.MaxLabel = "max " + compactNumber(mx)
		if mx > scale {
			ps.Clipped = true
			ps.MaxLabel = "scale 0–" + compactNumber(scale) + ", clipped · " + ps.MaxLabel
		} else if compactNumber(scale) != compactNumber(mx) {
			ps.MaxLabel = "scale 0–" + compactNumber(scale) + " · " + ps.MaxLabel
		}
		sp.Panels = append(sp.Panels, ps)
	}
	left := trendLeft(d)
	slots := nf
	if share != nil {
		left = math.Max(left, share.left)
		slots = max(slots, share.slots)
	}
	rowH := trendRowHeight(nu)
	per := d.FramesPerPage
	if per <= 0 {
		per = 20
	}
	per = max(1, min(per, slots)) // all frames on one page when they fit

	lay := trendLayout{Width: a4(width), Left: a4(left), PlotWidth: a4(width - left - 8), RowHeight: a4(rowH), PerPage: per, Slots: max(slots, 1), PanelTop: []ang{}}
	y := trendTitleH
	if wrapTitle && textWidth(d.Title, boldFont) > width-104 {
		sp.TitleLines = wrapWordsFont(d.Title, width-104, boldFont)
		y += 16 * float64(len(sp.TitleLines)-1)
	}
	for p := range d.Panels {
		// A panel title and scale label that do not fit one line side by
		// side take two: the title above the label.
		ps := &sp.Panels[p]
		if textWidth(ps.Title, trendPanelTitleBold)+textWidth(ps.MaxLabel, smallFont)+12 > width-8 {
			ps.TitleAbove = true
			y += trendPanelTitleLine
		}
		y += trendPanelTitleH
		lay.PanelTop = append(lay.PanelTop, a4(y))
		y += float64(nu)*rowH + trendPanelGap
	}
	lay.AxisY = a4(y + 4)
	lay.Height = a4(y + trendAxisH)
	sp.Layout = lay
	sw := math.Min(10, rowH-3)
	sp.Labels = make([]string, nu)
	for u, un := range units {
		sp.Labels[u] = fitText(un.Name, left-sw-8, fontSize)
	}
	return sp
}

// trendX returns the left edge and width of frame column j (0-based on the
// page) for a page of per frames: the runtime's column geometry.
func trendX(lay trendLayout, per, j int) (x, step float64) {
	step = float64(lay.PlotWidth) / float64(max(per, 1))
	return float64(lay.Left) + float64(j)*step, step
}

// trendArea is the path of the area between the series lo and hi (values
// over the page's frames), in a row whose baseline is at yb and whose
// height is h, for a panel scaled to mx.
func trendArea(lay trendLayout, per int, lo, hi []float64, yb, h, mx float64) string {
	if len(hi) == 0 || mx <= 0 {
		return ""
	}
	y := func(v float64) float64 { return yb - math.Min(v, mx)/mx*h }
	var top, bot []string
	x0, step := trendX(lay, per, 0)
	xEnd := x0 + float64(len(hi))*step
	top = append(top, fmt.Sprintf("M%s,%s", n2(x0), n2(y(hi[0]))))
	bot = append(bot, fmt.Sprintf("L%s,%s", n2(xEnd), n2(y(lo[len(lo)-1]))))
	for j := range hi {
		xc := x0 + (float64(j)+0.5)*step
		top = append(top, fmt.Sprintf("L%s,%s", n2(xc), n2(y(hi[j]))))
	}
	top = append(top, fmt.Sprintf("L%s,%s", n2(xEnd), n2(y(hi[len(hi)-1]))))
	for j := len(lo) - 1; j >= 0; j-- {
		xc := x0 + (float64(j)+0.5)*step
		bot = append(bot, fmt.Sprintf("L%s,%s", n2(xc), n2(y(lo[j]))))
	}
	bot = append(bot, fmt.Sprintf("L%s,%s", n2(x0), n2(y(lo[0]))))
	return strings.Join(top, "") + strings.Join(bot, "") + "Z"
}

// labelStep is how many frames apart the axis labels are, so that they do
// not overlap.
func labelStep(frames []string, step float64) int {
	w := 0.0
	for _, f := range frames {
		w = math.Max(w, textWidth(f, smallFont))
	}
	return max(1, int(math.Ceil((w+6)/math.Max(step, 1e-9))))
}

// axisLabelAt places a label of width tw centred at x on an axis running
// from left to right: centred where it fits, else flush with the end it
// would cross, so that no label is clipped by the picture's edge or runs
// into the axis title left of it. The runtime places its labels alike.
func axisLabelAt(x, tw, left, right float64) (float64, string) {
	switch {
	case x+tw/2 > right:
		return right, "end"
	case x-tw/2 < left:
		return left, "start"
	}
	return x, "middle"
}

// drawTrend writes the static trend: every frame on one page, and a frame
// marker at frame marker (none if < 0).
func drawTrend(w *svgw, sp trendSpec, marker int, hatch string) {
	lay := sp.Layout
	nf := len(sp.Frames)
	per := max(lay.Slots, nf, 1)
	// The title stops short of the legend at the top right.
	if len(sp.TitleLines) > 0 {
		for i, l := range sp.TitleLines {
			w.text(0, 16+16*float64(i), l, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
		}
	} else {
		w.text(0, 16, fitText(sp.Title, float64(lay.Width)-104, boldFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	legend(w, float64(lay.Width)-96, 16, hatch, "")
	if len(sp.Panels) == 0 {
		return
	}
	_, step := trendX(lay, per, 0)
	every := labelStep(sp.Frames, step)
	rowH := float64(lay.RowHeight)
	top0 := float64(lay.PanelTop[0])
	bottom := float64(lay.AxisY) - 12
	// Grid at labelled frames; a label that its move away from the edge
	// would run into the one before is left out ("110–111120–121").
	lastRight := math.Inf(-1)
	for j := 0; j < nf; j += every {
		x, st := trendX(lay, per, j)
		w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#eeeeee"/>`, n2(x+st/2), n2(top0), n2(x+st/2), n2(bottom))
		tw := textWidth(sp.Frames[j], smallFont)
		lx, anchor := axisLabelAt(x+st/2, tw, float64(lay.Left), float64(lay.Width))
		left := map[string]float64{"start": lx, "middle": lx - tw/2, "end": lx - tw}[anchor]
		if left < lastRight+4 {
			continue
		}
		lastRight = left + tw
		w.text(lx, float64(lay.AxisY), sp.Frames[j], fmt.Sprintf(` text-anchor="%s" font-size="%s" fill="%s"`, anchor, n2(smallFont), mutedInk))
	}
	w.text(float64(lay.Left)-6, float64(lay.AxisY), "frame", fmt.Sprintf(` text-anchor="end" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	for p, ps := range sp.Panels {
		top := float64(lay.PanelTop[p])
		ty := top - 4
		if ps.TitleAbove {
			ty -= trendPanelTitleLine
		}
		w.text(0, ty, ps.Title, fmt.Sprintf(` font-weight="bold" fill="%s"`, inkColor))
		w.text(float64(lay.Width)-8, top-4, ps.MaxLabel, fmt.Sprintf(` text-anchor="end" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
		for u, un := range sp.Units {
			yt := top + float64(u)*rowH
			yb := yt + rowH - 1
			sw := math.Min(10, rowH-3)
			w.f(`<rect x="0" y="%s" width="%s" height="%s" fill="%s"/>`, n2(yt+(rowH-sw)/2), n2(sw), n2(sw), un.Color)
			if rowH >= 10 {
				w.text(sw+4, yt+rowH/2+3.5, sp.Labels[u], fmt.Sprintf(` fill="%s"`, inkColor))
			}
			w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="0.6"/>`, n2(float64(lay.Left)), n2(yb), n2(float64(lay.Left+lay.PlotWidth)), n2(yb), gridColor)
			out := make([]float64, nf)
			zero := make([]float64, nf)
			for f := range out {
				out[f] = float64(ps.Out[u][f])
			}
			h := rowH - 3
			if a := trendArea(lay, per, zero, out, yb, h, float64(ps.Max)); a != "" {
				w.f(`<path d="%s" fill="%s"/>`, a, un.Color)
			}
			tot := out
			if ps.In != nil {
				tot = make([]float64, nf)
				for f := range tot {
					tot[f] = out[f] + float64(ps.In[u][f])
				}
				if a := trendArea(lay, per, out, tot, yb, h, float64(ps.Max)); a != "" {
					w.f(`<path d="%s" fill="%s"/><path d="%s" fill="url(#%s)"/>`, a, darken(un.Color, 0.15), a, hatch)
				}
			}
			if ps.Clipped {
				// A clip mark on each value above the scale.
				for f, v := range tot {
					if v > float64(ps.Max) {
						x, st := trendX(lay, per, f)
						w.f(`<rect class="ss-clip" x="%s" y="%s" width="%s" height="2" fill="%s"/>`, n2(x), n2(yb-h-1), n2(st), trendClipColor)
					}
				}
			}
		}
	}
	if marker >= 0 && marker < nf {
		x, st := trendX(lay, per, marker)
		w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="4 2"/>`,
			n2(x+st/2), n2(top0-2), n2(x+st/2), n2(bottom), inkColor)
	}
}

func (v *TrendView) spec() trendSpec {
	w := v.Width
	if w <= 0 {
		w = 640
	}
	return buildSharedTrendSpec(v.Data, w, v.share, true)
}

// fitWidth lays the trend out for w px (a Row's share).
func (v *TrendView) fitWidth(w float64) display.Renderer {
	c := *v
	c.Width = math.Floor(math.Max(trendMinWidth, w))
	return &c
}

// trendMinWidth is the narrowest a trend is laid out for.
const trendMinWidth = 240

// shareTrendScales gives the trends among items one layout for the time
// axis (the plots' left edge, the frame columns) and one scale per
// quantity (TrendPanel.Quantity): the same value is as high in each, and
// the same frame sits at the same x. Other items are left alone.
func shareTrendScales(items []display.Renderer) []display.Renderer {
	var idx []int
	for i, it := range items {
		if t, ok := it.(*TrendView); ok && t != nil {
			idx = append(idx, i)
		}
	}
	out := slices.Clone(items)
	if len(idx) < 2 {
		return out
	}
	sh := &trendShare{max: map[string]float64{}}
	for _, i := range idx {
		d := items[i].(*TrendView).Data
		sh.left = math.Max(sh.left, trendLeft(d))
		sh.slots = max(sh.slots, len(d.Frames))
		for _, p := range d.Panels {
			q := p.quantity()
			sh.max[q] = math.Max(sh.max[q], trendScale(p, len(d.Units), len(d.Frames)))
		}
	}
	for _, i := range idx {
		c := *items[i].(*TrendView)
		c.share = sh
		out[i] = &c
	}
	return out
}

func trendSVG(sp trendSpec, marker int) string {
	var w svgw
	w.open(float64(sp.Layout.Width), float64(sp.Layout.Height), "hatch")
	drawTrend(&w, sp, marker, "hatch")
	w.close()
	return w.String()
}

// SVG is the static picture: every frame on one axis.
func (v *TrendView) SVG() string { return trendSVG(v.spec(), -1) }

// MIMEBundle implements Renderer.
func (v *TrendView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *TrendView) figure() figure {
	sp := v.spec()
	svg := trendSVG(sp, -1)
	var titles []string
	for _, p := range sp.Panels {
		titles = append(titles, p.Title)
	}
	alt := fmt.Sprintf("Trend view of %d units over %d frames: %s", len(sp.Units), len(sp.Frames), strings.Join(titles, ", "))
	if sp.Title != "" {
		alt = sp.Title + ". " + alt
	}
	scales := map[string][2]float64{}
	for k, p := range sp.Panels {
		if k < len(v.Data.Panels) {
			scales[v.Data.Panels[k].quantity()] = [2]float64{0, float64(p.Max)}
		}
	}
	return figure{svg: svg, alt: alt, kind: "trend", spec: sp, scales: scales}
}
