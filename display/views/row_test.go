package views

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// svgText is one run of text of a static picture: its estimated extent
// and its font size.
type svgText struct {
	text      string
	x0, x1, y float64
	size      float64
}

var (
	svgRootRe  = regexp.MustCompile(`<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"[^>]*font-size="([0-9.]+)"`)
	svgTextRe  = regexp.MustCompile(`<(text|tspan)((?: [a-z-]+="[^"]*")*)>([^<]*)<`)
	svgAttrRe  = regexp.MustCompile(` ([a-z-]+)="([^"]*)"`)
	imgWidthRe = regexp.MustCompile(`<img alt="[^"]*" width="(\d+)" height="(\d+)"`)
)

// svgTexts lists the text of an SVG picture with each run's extent
// (textWidth, by its anchor) and size; a <text> holding <tspan>s counts
// through them. It returns the picture's width too.
func svgTexts(t *testing.T, svg string) (width float64, out []svgText) {
	t.Helper()
	m := svgRootRe.FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no <svg> root with width and font-size")
	}
	width, _ = strconv.ParseFloat(m[1], 64)
	base, _ := strconv.ParseFloat(m[3], 64)
	size := base
	anchor := "start"
	for _, tm := range svgTextRe.FindAllStringSubmatch(svg, -1) {
		attrs := map[string]string{}
		for _, a := range svgAttrRe.FindAllStringSubmatch(tm[2], -1) {
			attrs[a[1]] = a[2]
		}
		if tm[1] == "text" {
			size, anchor = base, "start"
			if v, ok := attrs["font-size"]; ok {
				size, _ = strconv.ParseFloat(v, 64)
			}
			if v, ok := attrs["text-anchor"]; ok {
				anchor = v
			}
		}
		s := html.UnescapeString(tm[3])
		if strings.TrimSpace(s) == "" {
			continue
		}
		x, _ := strconv.ParseFloat(attrs["x"], 64)
		y, _ := strconv.ParseFloat(attrs["y"], 64)
		w := textWidth(s, size)
		x0 := x
		switch anchor {
		case "middle":
			x0 = x - w/2
		case "end":
			x0 = x - w
		}
		out = append(out, svgText{text: s, x0: x0, x1: x0 + w, y: y, size: size})
	}
	return width, out
}

// checkTextFits fails when a text of the picture runs outside its width
// or is smaller than 10 px.
func checkTextFits(t *testing.T, name, svg string) float64 {
	t.Helper()
	w, texts := svgTexts(t, svg)
	if len(texts) == 0 {
		t.Fatalf("%s: no text", name)
	}
	for _, tx := range texts {
		if tx.size < smallFont {
			t.Errorf("%s: %q at %v px, want ≥ %v", name, tx.text, tx.size, smallFont)
		}
		if tx.x0 < -0.5 || tx.x1 > w+0.5 {
			t.Errorf("%s: %q spans x %.1f–%.1f, outside 0–%v", name, tx.text, tx.x0, tx.x1, w)
		}
		if strings.HasSuffix(tx.text, "…") {
			t.Errorf("%s: %q is cut", name, tx.text)
		}
	}
	// No two texts on one line overlap.
	for i, a := range texts {
		for _, b := range texts[i+1:] {
			if math.Abs(a.y-b.y) < 8 && a.x0 < b.x1-0.5 && b.x0 < a.x1-0.5 {
				t.Errorf("%s: %q (x %.1f–%.1f) overlaps %q (x %.1f–%.1f)", name, a.text, a.x0, a.x1, b.text, b.x0, b.x1)
			}
		}
	}
	return w
}

// compareRings are two tori of different sizes and traffic, titled like
// notebook 04's.
func compareRings() (RingGraphData, RingGraphData) {
	a := torusRing([]int{4, 4, 4, 4}, []int{8, 12, 16}, 2)
	a.Title = "pF3D 32×16×16 on the 4×4×4×4×1 torus"
	a.WeightName = "packets"
	b := torusRing([]int{4, 4, 4, 4, 2}, []int{8, 12, 16}, 2)
	b.Title = "pF3D 32×32×16 on the 4×4×4×4×2 torus"
	b.WeightName = "packets"
	for k := range b.Frames[0].Forward {
		b.Frames[0].Forward[k] *= 3 // b is the busier
	}
	return a, b
}

// TestRowOfRingsFits: two rings in a 900 px row are laid out for their
// share, not drawn at 640 px and shrunk: their pictures and gaps add up
// to at most 900 px, every text is inside its picture and at least 10 px,
// and the rings share one traffic scale per mode.
func TestRowOfRingsFits(t *testing.T) {
	a, b := compareRings()
	row := Row(RingGraph(a), RingGraph(b))
	items := row.fitted()
	total := rowGap * float64(len(items)-1)
	var tops [][4]float64
	for i, it := range items {
		v, ok := it.(*RingGraphView)
		if !ok {
			t.Fatalf("item %d is %T", i, it)
		}
		g, err := RingGraphLayout(v.Data)
		if err != nil {
			t.Fatal(err)
		}
		w := checkTextFits(t, fmt.Sprint("ring ", i), v.SVG())
		if w != g.Width || w > 440 {
			t.Errorf("ring %d is %v px wide (layout %v), want its share of 900 px", i, w, g.Width)
		}
		total += w + downloadGutter
		// The circle and its block numbers inside the picture.
		if g.CX-g.BlockLabelRadius-6 < 0 || g.CX+g.BlockLabelRadius+6 > g.Width {
			t.Errorf("ring %d: block labels at r %v around x %v leave the %v px picture", i, g.BlockLabelRadius, g.CX, g.Width)
		}
		// The legend and caption below the circle, in the height.
		if g.LegendTop < g.CY+g.BlockLabelRadius || g.Height < g.LegendTop {
			t.Errorf("ring %d: legend at %v, circle to %v, height %v", i, g.LegendTop, g.CY+g.BlockLabelRadius, g.Height)
		}
		tops = append(tops, g.MarkMax)
	}
	if total > DefaultRowWidth {
		t.Errorf("the row is %v px wide, want ≤ %d", total, DefaultRowWidth)
	}
	if tops[0] != tops[1] {
		t.Errorf("scales %v and %v: rings compared side by side share one", tops[0], tops[1])
	}
	// The row's static pictures are as wide as their layout.
	h, _ := row.MIMEBundle().Data["text/html"].(string)
	sum := 0.0
	for _, m := range imgWidthRe.FindAllStringSubmatch(h, -1) {
		w, _ := strconv.ParseFloat(m[1], 64)
		sum += w
	}
	if n := len(imgWidthRe.FindAllString(h, -1)); n != 2 || sum+rowGap+2*downloadGutter > DefaultRowWidth {
		t.Errorf("%d pictures, %v px wide in all; want 2 within %d px with the gap and gutters", n, sum, DefaultRowWidth)
	}
}

// TestRingFitsThree: three rings (sdk.CompareMappings' mappings) fit a
// 900 px row with their text whole.
func TestRingFitsThree(t *testing.T) {
	a, b := compareRings()
	c := a
	c.Title = "node id"
	items := Row(RingGraph(a), RingGraph(b), RingGraph(c)).fitted()
	total := rowGap * 2.0
	for i, it := range items {
		v := it.(*RingGraphView)
		total += checkTextFits(t, fmt.Sprint("ring ", i), v.SVG()) + downloadGutter
		if _, err := v.PNG(); err != nil {
			t.Errorf("ring %d: no static picture: %v", i, err)
		}
		if b := v.MIMEBundle(); !b.NeedsRuntime {
			t.Errorf("ring %d: %s", i, b.Text())
		}
	}
	if total > DefaultRowWidth {
		t.Errorf("three rings: %v px, want ≤ %d", total, DefaultRowWidth)
	}
}

// TestRingDefaultWidthUnchanged: a ring shown on its own keeps its 640 px
// layout.
func TestRingDefaultWidthUnchanged(t *testing.T) {
	a, _ := compareRings()
	g, err := RingGraphLayout(a)
	if err != nil {
		t.Fatal(err)
	}
	if g.Width != ringWidth || g.CX != 320 || g.CY != 340 || g.BlockRing.Outer != ringOuter || g.LegendTop != 640 {
		t.Errorf("default layout moved: width %v, centre %v,%v, outer %v, legend %v", g.Width, g.CX, g.CY, g.BlockRing.Outer, g.LegendTop)
	}
	checkTextFits(t, "ring", RingGraph(a).SVG())
}

// TestRingSpecFollowsWidth: the live view draws from the fitted spec.
func TestRingSpecFollowsWidth(t *testing.T) {
	a, _ := compareRings()
	v := RingGraph(a).fitWidth(420).(*RingGraphView)
	g, _ := RingGraphLayout(v.Data)
	sp := v.Data.spec(g)
	if float64(sp.W) != 420 || float64(sp.CX) != 210 || float64(sp.BlockRing[1]) > 180 || float64(sp.LegendTop) != 420 {
		t.Errorf("spec w %v cx %v block ring %v legend %v", sp.W, sp.CX, sp.BlockRing, sp.LegendTop)
	}
}

// compareTrends are two trends of one job on different clusters: other
// unit names, frame counts and maxima.
func compareTrends() (TrendData, TrendData) {
	a := sampleTrend()
	b := sampleTrend()
	b.Title = "PageRank on 4elt, 4 MPI ranks — heartbeat per worker" // wraps, not cut
	// A panel title too long to sit beside its scale label ("scale 0–4.5
	// · max 1.5": a's scale is b's) at 420 px.
	a.Panels[0].Title = "time (ms, measured): compute + communication"
	b.Panels[0].Quantity = "time"
	a.Panels[0].Quantity = "time"
	b.Units = append(b.Units, Unit{ID: "rack-07/host-12"})
	b.Frames = append(b.Frames, "5", "6")
	for p := range b.Panels {
		b.Panels[p].Out = append(b.Panels[p].Out, []float64{1, 1, 1, 1, 1, 1})
		for u := range b.Panels[p].Out {
			for len(b.Panels[p].Out[u]) < 6 {
				b.Panels[p].Out[u] = append(b.Panels[p].Out[u], 3*b.Panels[p].Out[u][0])
			}
		}
		if b.Panels[p].In != nil {
			b.Panels[p].In = append(b.Panels[p].In, []float64{1, 1, 1, 1, 1, 1})
			for u := range b.Panels[p].In {
				for len(b.Panels[p].In[u]) < 6 {
					b.Panels[p].In[u] = append(b.Panels[p].In[u], 0)
				}
			}
		}
	}
	return a, b
}

// TestRowOfTrendsShares: trends side by side share each panel's scale,
// the plots' left and right edges and the frame columns, and fit the
// row with their text whole.
func TestRowOfTrendsShares(t *testing.T) {
	a, b := compareTrends()
	if sa, sb := buildTrendSpec(a, 640), buildTrendSpec(b, 640); sa.Panels[0].Max == sb.Panels[0].Max || sa.Layout.Left == sb.Layout.Left {
		t.Fatalf("the sample trends should differ on their own")
	}
	items := Row(Trend(a), Trend(b)).fitted()
	var specs []trendSpec
	total := rowGap * 1.0
	for i, it := range items {
		v, ok := it.(*TrendView)
		if !ok {
			t.Fatalf("item %d is %T", i, it)
		}
		specs = append(specs, v.spec())
		total += checkTextFits(t, fmt.Sprint("trend ", i), v.SVG()) + downloadGutter
	}
	if total > DefaultRowWidth {
		t.Errorf("the row is %v px wide, want ≤ %d", total, DefaultRowWidth)
	}
	la, lb := specs[0].Layout, specs[1].Layout
	if la.Left != lb.Left || la.PlotWidth != lb.PlotWidth || la.Width != lb.Width {
		t.Errorf("plots at %v+%v and %v+%v: want one x-range", la.Left, la.PlotWidth, lb.Left, lb.PlotWidth)
	}
	if la.Slots != 6 || lb.Slots != 6 || la.PerPage != lb.PerPage {
		t.Errorf("frame columns %d and %d, per page %d and %d: want 6 each, one paging", la.Slots, lb.Slots, la.PerPage, lb.PerPage)
	}
	for p := range specs[0].Panels {
		if specs[0].Panels[p].Max != specs[1].Panels[p].Max {
			t.Errorf("panel %d: scales %v and %v, want one", p, specs[0].Panels[p].Max, specs[1].Panels[p].Max)
		}
	}
	if !specs[0].Panels[0].TitleAbove || specs[1].Panels[0].TitleAbove {
		t.Errorf("time panel titles above their labels: %v, %v; want the long one only", specs[0].Panels[0].TitleAbove, specs[1].Panels[0].TitleAbove)
	}
	// Frame 2's column is at the same x in both pictures.
	xa, _ := trendX(la, la.Slots, 2)
	xb, _ := trendX(lb, lb.Slots, 2)
	if xa != xb {
		t.Errorf("frame 3 at x %v and %v", xa, xb)
	}
}

// TestTrendClipsNoisyPanel: a panel with Clip scales to its quantile when
// one frame is far above the rest, marks the clipped values and says so.
func TestTrendClipsNoisyPanel(t *testing.T) {
	d := sampleTrend()
	d.Panels[0].Out[1][0] = 40 // a noisy first frame
	d.Panels[0].Clip = 0.9
	sp := buildTrendSpec(d, 640)
	p := sp.Panels[0]
	if !p.Clipped || float64(p.Max) >= 40 || float64(p.Max) < 1 {
		t.Errorf("clipped %v at %v; want a scale at the 90th percentile, below the outlier 40", p.Clipped, p.Max)
	}
	if !strings.Contains(p.MaxLabel, "clipped") || !strings.Contains(p.MaxLabel, "max 40") {
		t.Errorf("label %q", p.MaxLabel)
	}
	svg := trendSVG(sp, -1)
	if n := strings.Count(svg, `class="ss-clip"`); n != 1 {
		t.Errorf("%d clip marks, want 1", n)
	}
	checkTextFits(t, "clipped trend", svg)
	// Without an outlier the scale is the largest value.
	d.Panels[0].Out[1][0] = 1
	if sp := buildTrendSpec(d, 640); sp.Panels[0].Clipped || math.Abs(float64(sp.Panels[0].Max)-1.5) > 1e-9 {
		t.Errorf("quiet panel clipped %v at %v", sp.Panels[0].Clipped, sp.Panels[0].Max)
	}
}
