package views

import (
	"fmt"
	"math"
	"strings"

	"superstep/display"
)

// Stat is one headline number of a dashboard ("supersteps", "42").
type Stat struct {
	Label, Value string
	// Sums, if set, is the title of the trend panel whose outgoing values
	// (over every frame and unit) the statistic totals, as "messages"
	// totals the messages sent. Live, a filter in the cluster view re-sums
	// it over the units the filter keeps ("1,204 of 5,310"); a statistic
	// without Sums is of the whole job and says so while a filter is on.
	Sums string
	// Bytes formats a re-summed value as a byte size (kB, MB, …).
	Bytes bool
}

// DashboardLevel is one level of hierarchy aggregation ("worker", "host",
// "rack"): the trend and the chord diagram of the units at that level.
type DashboardLevel struct {
	Name  string
	Trend TrendData
	Chord ChordData
}

// DashboardData is what a dashboard shows.
type DashboardData struct {
	Title  string
	Stats  []Stat
	Levels []DashboardLevel
	// Tree is the cluster hierarchy for the cluster view; a tile's ID is
	// matched against the units' IDs and Parents when filtering.
	Tree TreeNode
}

// DashboardView is GiViP's interface (its Figure 1): an aggregation panel
// (statistics and a switch between hierarchy levels), the cluster view (a
// treemap), the trend view and the frame view (a chord diagram), linked.
type DashboardView struct {
	Data DashboardData
}

// Dashboard shows linked views of a distributed computation. Live, the
// level switch swaps the trend and chord to that level's data, one frame
// slider drives the chord diagram and the trend's frame marker, and clicking
// a treemap tile hides every unit whose ID or any parent's ID is the tile's
// from the trend and the chord (clicking again shows them).
func Dashboard(d DashboardData) *DashboardView { return &DashboardView{Data: d} }

type statJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
	// Sums is the index of the trend panel the statistic totals (-1:
	// none), the same at every level.
	Sums  int  `json:"sums"`
	Bytes bool `json:"bytes,omitempty"`
}

type dashLevelSpec struct {
	Name  string    `json:"name"`
	Trend trendSpec `json:"trend"`
	Chord chordSpec `json:"chord"`
}

// dashLayout places the panels of the static picture; the runtime lays the
// live panels out with CSS (wrapping in narrow notebooks) at the same sizes.
type dashLayout struct {
	Width     ang `json:"width"`
	Height    ang `json:"height"`
	LeftWidth ang `json:"leftWidth"`
	TreeY     ang `json:"treeY"` // top of the treemap in the left column
	TrendX    ang `json:"trendX"`
	ChordX    ang `json:"chordX"`
	PanelY    ang `json:"panelY"` // top of the trend and chord panels
}

type dashboardSpec struct {
	Title    string          `json:"title"`
	Stats    []statJSON      `json:"stats"`
	Levels   []dashLevelSpec `json:"levels"`
	Tree     treemapSpec     `json:"tree"`
	Selected int             `json:"selected"`
	Layout   dashLayout      `json:"layout"`
}

// The panels' sizes: side by side they are DefaultRowWidth wide, so a
// dashboard fits JupyterLab's output area at a normal window width.
const (
	dashLeftW   = 200.0
	dashTrendW  = 380.0
	dashChordW  = 288.0
	dashChordH  = 320.0
	dashGap     = 16.0
	dashCaption = 18.0 // the grey caption above each view
	dashTitleH  = 26.0
	dashStatH   = 17.0
	dashSwitchH = 24.0
)

// statRows is how many rows of the aggregation panel a statistic takes:
// two, the value under its label, when they do not fit side by side (the
// live panel is a table that wraps the same way).
func statRows(s statJSON) int {
	const boldWidth = 1.1 // bold glyphs are wider
	if textWidth(s.Label, fontSize)+12+textWidth(s.Value, fontSize)*boldWidth > dashLeftW-4 {
		return 2
	}
	return 1
}

func (v *DashboardView) spec() dashboardSpec {
	d := v.Data
	sp := dashboardSpec{Title: d.Title, Stats: []statJSON{}, Levels: []dashLevelSpec{}}
	for _, s := range d.Stats {
		sums := -1
		if s.Sums != "" && len(d.Levels) > 0 {
			for k, p := range d.Levels[0].Trend.Panels {
				if p.Title == s.Sums {
					sums = k
				}
			}
		}
		sp.Stats = append(sp.Stats, statJSON{Label: s.Label, Value: s.Value, Sums: sums, Bytes: s.Bytes})
	}
	for _, l := range d.Levels {
		sp.Levels = append(sp.Levels, dashLevelSpec{Name: l.Name,
			Trend: buildTrendSpec(l.Trend, dashTrendW),
			Chord: buildChordSpec(l.Chord, dashChordW, dashChordH)})
	}
	if len(sp.Levels) > 0 {
		sp.Selected = sp.Levels[0].Chord.Selected
	}
	// Left column: title, stats, level switch, then the treemap.
	rows := 0
	for _, s := range sp.Stats {
		rows += statRows(s)
	}
	y := dashTitleH + dashCaption + float64(rows)*dashStatH + 8 + dashSwitchH + 12 + dashCaption
	sp.Tree = buildTreemapSpec(d.Tree, dashLeftW, dashLeftW)
	lay := dashLayout{LeftWidth: dashLeftW, TreeY: ang(y), TrendX: dashLeftW + dashGap, PanelY: ang(dashTitleH + dashCaption)}
	lay.ChordX = lay.TrendX + dashTrendW + dashGap
	lay.Width = lay.ChordX + dashChordW
	h := y + dashLeftW
	if len(sp.Levels) > 0 {
		h = math.Max(h, float64(lay.PanelY)+math.Max(float64(sp.Levels[0].Trend.Layout.Height), dashChordH))
	}
	lay.Height = ang(h + 4)
	sp.Layout = lay
	return sp
}

// caption writes a view's grey caption.
func caption(w *svgw, x, y float64, s string) {
	w.text(x, y, strings.ToUpper(s), fmt.Sprintf(` font-size="%s" letter-spacing="0.6" fill="#888888"`, n2(smallFont)))
}

func dashboardSVG(sp dashboardSpec) string {
	lay := sp.Layout
	var w svgw
	w.open(float64(lay.Width), float64(lay.Height), "hatch")
	w.text(0, 18, sp.Title, fmt.Sprintf(` font-size="16" font-weight="bold" fill="%s"`, inkColor))
	// Aggregation panel.
	y := dashTitleH + 12
	caption(&w, 0, y, "aggregation")
	for _, s := range sp.Stats {
		y += dashStatH
		w.text(0, y, s.Label, fmt.Sprintf(` fill="%s"`, mutedInk))
		if statRows(s) == 2 {
			y += dashStatH
		}
		// A value wider than the column is shortened, never cut by the edge.
		w.text(dashLeftW-4, y, fitText(s.Value, (dashLeftW-4)/1.1, fontSize), fmt.Sprintf(` text-anchor="end" font-weight="bold" fill="%s"`, inkColor))
	}
	y += 10
	if len(sp.Levels) > 0 {
		bw := (dashLeftW - 4) / float64(len(sp.Levels))
		for i, l := range sp.Levels {
			fill, ink := "#ffffff", inkColor
			if i == 0 {
				fill, ink = "#444444", "#ffffff"
			}
			w.f(`<rect x="%s" y="%s" width="%s" height="20" rx="3" fill="%s" stroke="#888888"/>`, n2(float64(i)*bw), n2(y), n2(bw-2), fill)
			w.text(float64(i)*bw+bw/2-1, y+14, l.Name, fmt.Sprintf(` text-anchor="middle" fill="%s"`, ink))
		}
	}
	caption(&w, 0, float64(lay.TreeY)-6, "cluster view")
	w.f(`<g transform="translate(0,%s)">`, n2(float64(lay.TreeY)))
	drawTreemap(&w, sp.Tree)
	w.f(`</g>`)
	if len(sp.Levels) > 0 {
		lv := sp.Levels[0]
		caption(&w, float64(lay.TrendX), float64(lay.PanelY)-6, "trend view · "+lv.Name)
		w.f(`<g transform="translate(%s,%s)">`, n2(float64(lay.TrendX)), n2(float64(lay.PanelY)))
		drawTrend(&w, lv.Trend, sp.Selected, "hatch")
		w.f(`</g>`)
		caption(&w, float64(lay.ChordX), float64(lay.PanelY)-6, "frame view · "+lv.Name)
		w.f(`<g transform="translate(%s,%s)">`, n2(float64(lay.ChordX)), n2(float64(lay.PanelY)))
		if len(lv.Chord.Frames) > 0 {
			drawChord(&w, lv.Chord, lv.Chord.Selected, "hatch")
		}
		w.f(`</g>`)
	}
	w.close()
	return w.String()
}

// SVG is the static picture: the first level, its selected frame.
func (v *DashboardView) SVG() string { return dashboardSVG(v.spec()) }

// MIMEBundle implements Renderer.
func (v *DashboardView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *DashboardView) figure() figure {
	sp := v.spec()
	for i, s := range v.Data.Stats {
		if s.Sums != "" && sp.Stats[i].Sums < 0 {
			return figure{err: fmt.Errorf("views: dashboard: statistic %q sums trend panel %q, which the trend does not have", s.Label, s.Sums)}
		}
	}
	var names []string
	for _, l := range sp.Levels {
		names = append(names, l.Name)
	}
	alt := fmt.Sprintf("Dashboard %q: cluster treemap, trend and chord views at levels %s", sp.Title, strings.Join(names, ", "))
	var text strings.Builder
	text.WriteString(alt)
	for _, s := range sp.Stats {
		fmt.Fprintf(&text, "\n%s: %s", s.Label, s.Value)
	}
	return figure{svg: dashboardSVG(sp), alt: alt, text: text.String(), kind: "dashboard", spec: sp}
}
