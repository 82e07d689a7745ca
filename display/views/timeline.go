package views

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"superstep/display"
)

// The message timeline, by concern: this file holds the data, the view and
// its figure; timeline_layout.go maps time and lanes to pixels and bundles
// the curves (algo/bundle); timeline_raster.go draws the picture in Go;
// timeline_svg.go writes the SVG of small timelines; timeline_spec.go packs
// what the runtime draws from.

// TimelineData is a timeline of lanes (processes) over time with curves
// between them (messages), after paper 003: the curves bundled through the
// clusters of their end points and a grid, coloured from the sender's
// colour to the receiver's, so dominant paths show as bundles instead of a
// hairball. It knows no traces: lanes, intervals and curves are numbers.
type TimelineData struct {
	Title string
	// Lanes are the lanes' labels, top to bottom.
	Lanes []string
	// Start and End are the time range shown, in seconds; both 0: from the
	// data.
	Start, End float64
	// The background: intervals of a lane, each of a class (a region:
	// "compute", "MPI_Send"), columns of equal length. Inner intervals
	// come after the intervals they lie in, or on top of them.
	IntervalLane  []int32
	IntervalFrom  []float64
	IntervalTo    []float64
	IntervalClass []int32
	ClassNames    []string
	// The curves: one per message, columns of equal length: from lane
	// (sender) at time Send to lane (receiver) at time Recv, in seconds.
	// Bytes, if given, are summed on hover.
	From, To   []int32
	Send, Recv []float64
	Bytes      []float64
	// Routing is "grid" (default: the paper's grid bundling with
	// diagonals), "hierarchy" (Holten's hierarchical bundling, the paper's
	// first attempt) or "straight" (one straight line per message, the
	// baseline of Fig. 5a).
	Routing string
	// Beta straightens hierarchical routes (Holten's β in (0, 1]; 0: 1).
	Beta float64
	// Bandwidth is the level-1 mean-shift bandwidth in seconds; 0: an
	// automatic one of BandwidthPx pixels at this picture's scale.
	Bandwidth float64
	// BandwidthPx is the automatic bandwidth in px (0: 3).
	BandwidthPx float64
	// Blend is "additive" (default: hot paths glow yellow on a dark
	// ground) or "alpha" (translucent lines on a light ground).
	Blend string
	// Gain scales the light (additive) or the coverage (alpha); 0: an
	// automatic value from the picture's own light (see Timeline).
	Gain float64
	// Width is the picture's width in px (0: 888, which with the download
	// button beside it fits a JupyterLab output at a normal window width).
	Width float64
}

const (
	timelineWidth     = 888.0
	timelineTitleBand = 22.0
	timelineAxisBand  = 26.0
	timelineLegend    = 18.0
	timelineLabelMax  = 120.0
	timelineLaneMin   = 14.0  // px per lane at most lanes×this…
	timelinePlotMin   = 120.0 // …within these heights
	timelinePlotMax   = 640.0
	// Timelines with more curves than this draw on a canvas over a PNG
	// rasterised in Go; smaller ones as SVG.
	TimelineCanvasCurves = 5000
	// timelineHoverRoutes caps the bundles a canvas timeline can name on
	// hover: the heaviest.
	timelineHoverRoutes = 4000
)

// The colours: curves run from green (sender) to red (receiver), as in the
// paper.
var (
	timelineFrom    = [3]uint8{20, 235, 0}
	timelineTo      = [3]uint8{245, 20, 0}
	timelineDarkBg  = [3]uint8{18, 18, 24}
	timelineLightBg = [3]uint8{255, 255, 255}
)

// TimelineView is a message timeline, laid out and drawn: Timeline makes
// one.
type TimelineView struct {
	Data TimelineData

	layout *TimelineLayout
	pic    *timelinePicture
}

// Timeline shows messages between lanes over time, bundled (paper 003):
// each message is a quadratic B-spline from its send point through the
// centre of its sender's level-1 cluster (mean shift of the lane's send
// and receive times), a route through a fixed grid (8-connected shortest
// path, diagonal first) or the cluster hierarchy, and the centre of its
// receiver's cluster to its receive point. Messages sharing their two
// clusters share their route, drawn once with their count as weight.
//
// Automatic parameters (the paper's open problem): the bandwidth is
// BandwidthPx pixels at the picture's scale, the grid cell 4 bandwidths
// wide and ceil(lanes/32) lanes high, and the additive tone mapping is
// logarithmic, saturating at the 90th percentile of the drawn pixels'
// brightest channel, so at most a tenth of the drawn pixels saturate while
// a single message stays visible and the busiest route is the brightest.
//
// Live: Ctrl/⌘ + wheel zooms time about the pointer (a notch 1.25×) and
// dragging pans in time, the axis following and the lanes staying level
// with their labels; the control bar names the window shown and the
// download is the zoomed view. Hovering says the lane, region and time
// under the pointer, after "N messages, B bytes, P→Q, t0–t1 s" on a
// bundle; clicking a lane's label hides the bundles to and from it; a
// toggle switches additive and alpha blending and a slider sets the
// opacity. Window re-bundles a time window at the picture's full
// resolution, where the wheel zoom only stretches the picture.
//
// Timeline does the work (bundling and drawing the curves, seconds for
// millions of messages) and stops when ctx is cancelled; showing the
// view afterwards only encodes what it drew.
func Timeline(ctx context.Context, d TimelineData) (*TimelineView, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	L, err := d.layout(ctx)
	if err != nil {
		return nil, err
	}
	pic, err := L.picture(ctx)
	if err != nil {
		return nil, fmt.Errorf("views.Timeline: drawing: %w", err)
	}
	return &TimelineView{Data: d, layout: L, pic: pic}, nil
}

// errNoLayout is the error of a TimelineView not made by Timeline.
var errNoLayout = errors.New("views.Timeline: the view has no layout: make it with views.Timeline(ctx, data)")

// Window returns the timeline of the messages and intervals between from
// and to seconds, bundled anew at the picture's resolution under ctx:
// zooming that keeps the bundles' detail, where wheel zoom only
// magnifies.
func (v *TimelineView) Window(ctx context.Context, from, to float64) (*TimelineView, error) {
	if !(to > from) || !finite(from) || !finite(to) {
		return nil, fmt.Errorf("views.Timeline: window %v–%v s is empty", from, to)
	}
	d := v.Data
	w := d
	w.Start, w.End = from, to
	w.From, w.To, w.Send, w.Recv, w.Bytes = nil, nil, nil, nil, nil
	for i := range d.From {
		lo, hi := min(d.Send[i], d.Recv[i]), max(d.Send[i], d.Recv[i])
		if lo <= to && hi >= from {
			w.From, w.To = append(w.From, d.From[i]), append(w.To, d.To[i])
			w.Send, w.Recv = append(w.Send, d.Send[i]), append(w.Recv, d.Recv[i])
			if d.Bytes != nil {
				w.Bytes = append(w.Bytes, d.Bytes[i])
			}
		}
	}
	w.IntervalLane, w.IntervalFrom, w.IntervalTo, w.IntervalClass = nil, nil, nil, nil
	for i := range d.IntervalLane {
		if d.IntervalFrom[i] <= to && d.IntervalTo[i] >= from {
			w.IntervalLane = append(w.IntervalLane, d.IntervalLane[i])
			w.IntervalFrom = append(w.IntervalFrom, max(d.IntervalFrom[i], from))
			w.IntervalTo = append(w.IntervalTo, min(d.IntervalTo[i], to))
			w.IntervalClass = append(w.IntervalClass, d.IntervalClass[i])
		}
	}
	return Timeline(ctx, w)
}

// Validate reports why d cannot be drawn (lengths, lanes, times, options),
// or nil; it is cheap next to drawing.
func (d TimelineData) Validate() error { return d.validate() }

// validate reports why d cannot be drawn, or nil.
func (d TimelineData) validate() error {
	n := len(d.Lanes)
	if n == 0 {
		return fmt.Errorf("views.Timeline: no lanes")
	}
	m := len(d.From)
	if len(d.To) != m || len(d.Send) != m || len(d.Recv) != m || (d.Bytes != nil && len(d.Bytes) != m) {
		return fmt.Errorf("views.Timeline: curve columns of different lengths (from %d, to %d, send %d, recv %d, bytes %d)",
			m, len(d.To), len(d.Send), len(d.Recv), len(d.Bytes))
	}
	for i := 0; i < m; i++ {
		if d.From[i] < 0 || int(d.From[i]) >= n || d.To[i] < 0 || int(d.To[i]) >= n {
			return fmt.Errorf("views.Timeline: curve %d runs from lane %d to lane %d, outside 0..%d", i, d.From[i], d.To[i], n-1)
		}
		if !finite(d.Send[i]) || !finite(d.Recv[i]) {
			return fmt.Errorf("views.Timeline: curve %d has times %v → %v", i, d.Send[i], d.Recv[i])
		}
	}
	k := len(d.IntervalLane)
	if len(d.IntervalFrom) != k || len(d.IntervalTo) != k || len(d.IntervalClass) != k {
		return fmt.Errorf("views.Timeline: interval columns of different lengths (lane %d, from %d, to %d, class %d)",
			k, len(d.IntervalFrom), len(d.IntervalTo), len(d.IntervalClass))
	}
	for i := 0; i < k; i++ {
		if d.IntervalLane[i] < 0 || int(d.IntervalLane[i]) >= n {
			return fmt.Errorf("views.Timeline: interval %d on lane %d, outside 0..%d", i, d.IntervalLane[i], n-1)
		}
		if c := d.IntervalClass[i]; c < 0 || int(c) >= len(d.ClassNames) {
			return fmt.Errorf("views.Timeline: interval %d of class %d, but %d class names", i, c, len(d.ClassNames))
		}
		if !finite(d.IntervalFrom[i]) || !finite(d.IntervalTo[i]) || d.IntervalTo[i] < d.IntervalFrom[i] {
			return fmt.Errorf("views.Timeline: interval %d runs %v → %v", i, d.IntervalFrom[i], d.IntervalTo[i])
		}
	}
	switch d.Routing {
	case "", "grid", "hierarchy", "straight":
	default:
		return fmt.Errorf("views.Timeline: routing %q (want grid, hierarchy or straight)", d.Routing)
	}
	switch d.Blend {
	case "", "additive", "alpha":
	default:
		return fmt.Errorf("views.Timeline: blend %q (want additive or alpha)", d.Blend)
	}
	if d.Start != 0 || d.End != 0 {
		if !finite(d.Start) || !finite(d.End) || d.End <= d.Start {
			return fmt.Errorf("views.Timeline: time range %v–%v s is empty", d.Start, d.End)
		}
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"bandwidth", d.Bandwidth}, {"bandwidth px", d.BandwidthPx}, {"gain", d.Gain}, {"width", d.Width}, {"beta", d.Beta}} {
		if !finite(v.v) || v.v < 0 {
			return fmt.Errorf("views.Timeline: %s %v, want ≥ 0", v.name, v.v)
		}
	}
	if d.Beta > 1 {
		return fmt.Errorf("views.Timeline: beta %v, want ≤ 1", d.Beta)
	}
	return nil
}

// secondsText formats t with the decimals the time range needs.
func secondsText(t float64, decimals int) string {
	return strconv.FormatFloat(t, 'f', decimals, 64)
}

// timeDecimals is how many decimals show a time in a range of span
// seconds: 3 for spans of a second or more, one more per decade below.
func timeDecimals(span float64) int {
	if !(span > 0) {
		return 3
	}
	return min(9, max(3, 3-int(math.Floor(math.Log10(span)))))
}

// hoverText is what hovering a bundle says.
func hoverText(messages int64, bytes float64, from, to string, t0, t1 float64, decimals int) string {
	var b strings.Builder
	b.WriteString(groupDigits(messages))
	if messages == 1 {
		b.WriteString(" message")
	} else {
		b.WriteString(" messages")
	}
	if bytes > 0 {
		b.WriteString(", " + display.FormatBytes(bytes))
	}
	b.WriteString(", " + from + "→" + to)
	b.WriteString(", " + secondsText(t0, decimals) + "–" + secondsText(t1, decimals) + " s")
	return b.String()
}

// SVG is the timeline as an SVG document (small timelines: every curve a
// path; large ones: the Go-drawn picture embedded as an image).
func (v *TimelineView) SVG() string {
	f := v.figure()
	if f.err != nil {
		return errorSVG(f.err)
	}
	if f.makeSVG != nil {
		return f.makeSVG()
	}
	return f.svg
}

// PNG is the timeline as a PNG, one pixel per px.
func (v *TimelineView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *TimelineView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

// Layout is the timeline's geometry as drawn: the level-1 clusters, the
// routes and where every curve goes, in px of the plot (see
// TimelineLayout). It fails when the data cannot be drawn.
func (v *TimelineView) Layout() (*TimelineLayout, error) {
	if v.layout == nil {
		return nil, errNoLayout
	}
	return v.layout, nil
}

func (v *TimelineView) figure() figure {
	d := v.Data
	L, pic := v.layout, v.pic
	if L == nil {
		return figure{err: errNoLayout}
	}
	fig := figure{
		alt:    d.alt(L),
		text:   d.text(L),
		kind:   "timeline",
		raster: func(scale float64) (*image.RGBA, error) { return L.render(pic, scale) },
	}
	fig.makeSVG = func() string { return L.svg(pic) }
	fig.spec = L.spec(pic)
	return fig
}

// alt is the text alternative: what the picture shows.
func (d TimelineData) alt(L *TimelineLayout) string {
	s := "Message timeline"
	if d.Title != "" {
		s += " " + strconv.Quote(d.Title)
	}
	return s + ": " + L.caption()
}

// text is the text/plain form: the caption and the heaviest bundles.
func (d TimelineData) text(L *TimelineLayout) string {
	var b strings.Builder
	b.WriteString(d.alt(L))
	for i, r := range L.heaviest(5) {
		if i == 0 {
			b.WriteString("\nheaviest bundles:")
		}
		b.WriteString("\n  " + L.RouteText(int(r)))
	}
	return b.String()
}

// Image is the whole picture at scale pixels per px, as the static
// picture draws it.
func (v *TimelineView) Image(scale float64) (*image.RGBA, error) {
	if v.layout == nil {
		return nil, errNoLayout
	}
	if !(scale > 0) || scale > 8 {
		return nil, fmt.Errorf("views.Timeline: scale %v, want (0, 8]", scale)
	}
	return v.layout.render(v.pic, scale)
}

// TimelineStats measure a timeline's picture (the plot at one pixel per
// px, in its blend): the paper's open problem of automatic parameters,
// as numbers.
type TimelineStats struct {
	// Drawn is the number of plot pixels any curve touches.
	Drawn int
	// Saturated is the share of the drawn pixels whose red and green both
	// saturate (≥ 250) in the additive picture.
	Saturated float64
	// Bundles is the number of routes; Invisible counts those whose
	// middle is not visible (no pixel within 1 px of it at least 40 levels
	// brighter, additive, or darker, alpha, than the ground).
	Bundles, Invisible int
	// Steps counts the distinct steps between consecutive points of the
	// routes (grid cells, tree nodes; straight lines: one per pair). The
	// curves of every route through a step pass exactly through its
	// midpoint, so the light there is the step's traffic: BusiestLight is
	// the light (additive, the brighter of red and green, 0–255) at the
	// midpoint of the step carrying most messages, BrightestLight the
	// most at any step's midpoint. The busiest path is the brightest when
	// they are equal.
	Steps                        int
	BusiestLight, BrightestLight int
	// Overshoot is the mean horizontal overshoot of the curves beyond
	// their end points' time span, in seconds (0 for straight lines).
	Overshoot float64
}

// Stats measures the picture.
func (v *TimelineView) Stats() (TimelineStats, error) {
	L, p := v.layout, v.pic
	if L == nil {
		return TimelineStats{}, errNoLayout
	}
	f := p.field
	s := TimelineStats{Saturated: p.saturated, Bundles: L.NumRoutes()}
	for i := 0; i < f.w*f.h; i++ {
		if f.acc[4*i+3] > 0 {
			s.Drawn++
		}
	}
	b := p.alpha
	ground := timelineLightBg
	if L.Additive {
		b, ground = p.add, timelineDarkBg
	}
	// near calls at for the pixels within 1 px of (x, y).
	near := func(x, y float64, at func(i int)) {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				px, py := int(x)+dx, int(y)+dy
				if px >= 0 && py >= 0 && px < f.w && py < f.h {
					at(py*f.w + px)
				}
			}
		}
	}
	for r := 0; r < L.NumRoutes(); r++ {
		x, y := L.routeMiddle(r)
		contrast := 0
		near(x, y, func(i int) {
			c := f.pixel(i, b, ground)
			for ch := 0; ch < 3; ch++ {
				contrast = max(contrast, iabs(int(c[ch])-int(ground[ch])))
			}
		})
		if contrast < 40 {
			s.Invisible++
		}
	}
	// The steps' traffic, both directions together, keyed by midpoint.
	load := map[[2]float64]int64{}
	for r := 0; r < L.NumRoutes(); r++ {
		if L.Bundle == nil {
			x, y := L.routeMiddle(r)
			load[[2]float64{x, y}] += L.RouteMessages[r]
			continue
		}
		in := L.interiors[r]
		for k := 0; k+1 < len(in); k++ {
			m := [2]float64{(in[k][0] + in[k+1][0]) / 2, (in[k][1] + in[k+1][1]) / 2}
			load[m] += L.RouteMessages[r]
		}
	}
	s.Steps = len(load)
	var busiest int64 = -1
	for m, n := range load {
		light := 0
		near(m[0], m[1], func(i int) {
			c := f.pixel(i, p.add, timelineDarkBg)
			light = max(light, int(max(c[0], c[1])))
		})
		s.BrightestLight = max(s.BrightestLight, light)
		if n > busiest || (n == busiest && light > s.BusiestLight) {
			busiest, s.BusiestLight = n, light
		}
	}
	if L.Bundle != nil && len(L.d.From) > 0 {
		o, err := L.Bundle.MeanOvershoot(L.edges)
		if err != nil {
			return s, err
		}
		s.Overshoot = o / L.PlotW * (L.End - L.Start)
	}
	return s, nil
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BusiestIsBrightest says whether the step carrying most messages is
// drawn as bright as any step, within 8 of 255 levels: a midpoint falls
// between pixel centres, and anti-aliasing splits its light.
func (s TimelineStats) BusiestIsBrightest() bool { return s.BusiestLight >= s.BrightestLight-8 }
