package views

import (
	"fmt"
	"html"
	"image"
	"math"
	"strings"

	"superstep/display"
	"superstep/display/views/internal/raster"
)

// trackGrey is the grey of value v on a track whose values run from lo to
// hi: 235 (lightest) at lo down to 65 at hi; 235 for a constant track.
func trackGrey(v, lo, hi int) uint8 {
	if hi <= lo {
		return 235
	}
	return uint8(math.Round(235 - 170*float64(v-lo)/float64(hi-lo)))
}

func greyHex(g uint8) string { return fmt.Sprintf("#%02x%02x%02x", g, g, g) }

// trackRange is the smallest and largest value of a track (0, 0 if empty).
func trackRange(v []int) (lo, hi int) {
	for i, x := range v {
		if i == 0 || x < lo {
			lo = x
		}
		if i == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi
}

// leafScale is the colour scale of frame f's leaf values (of all frames
// when f < 0). Each frame has its own: a whole-run frame and a short
// region's can differ by orders of magnitude, and one common scale would
// leave the short region in a single colour.
func (d RingGraphData) leafScale(f int) ColorScale {
	r, _ := RampByName("greens")
	s := ColorScale{Ramp: r, Min: math.Inf(1), Max: math.Inf(-1)}
	for i, fr := range d.Frames {
		if f >= 0 && i != f {
			continue
		}
		for _, v := range fr.LeafValues {
			if finite(v) {
				s.Min, s.Max = math.Min(s.Min, v), math.Max(s.Max, v)
			}
		}
	}
	if s.Min > s.Max {
		s.Min, s.Max = 0, 0
	}
	return s
}

// ringLegendItem is one swatch of the legend: a line, a circle, an arrow,
// a grey ramp or plain text, then its text.
type ringLegendItem struct {
	Kind  string // "line", "stroke", "circle", "arrow", "greys", "text"
	Color string
	R     float64 // circle and arrow: radius; stroke: width
	Op    float64 // stroke: opacity
	Text  string
	X     float64 // within its row
}

func (it ringLegendItem) width() float64 {
	sw := 14.0
	switch it.Kind {
	case "text":
		sw = 0
	case "stroke":
		sw = 22
	case "circle", "arrow":
		sw = 2*math.Max(it.R, 2) + 4
	case "greys":
		sw = 34
	}
	return sw + textWidth(it.Text, smallFont) + 10
}

// legendRows lays out the legend of the static picture in the selected
// level and mode: the link colours (classes with the far pairs, or
// groups), the mark sizes, the tracks and the leaf colours.
func (d RingGraphData) legendRows(g *RingGraphGeometry) [][]ringLegendItem {
	var rows [][]ringLegendItem
	avail := g.Width - 8
	wrap := func(items []ringLegendItem) {
		x := 0.0
		start := len(rows)
		for _, it := range items {
			w := it.width()
			if len(rows) == start || x+w > avail && x > 0 {
				rows = append(rows, nil)
				x = 0
			}
			if w > avail && it.Text != "" {
				// Too wide for a row of its own: its text wraps, the
				// further lines under the first.
				sw := w - textWidth(it.Text, smallFont) - 10
				lines := wrapWords(it.Text, avail-sw-10)
				it.Text, it.X = lines[0], x
				rows[len(rows)-1] = append(rows[len(rows)-1], it)
				for _, l := range lines[1:] {
					rows = append(rows, []ringLegendItem{{Kind: "text", Text: l, X: sw}})
				}
				x = avail // the next item starts a row
				continue
			}
			it.X = x
			rows[len(rows)-1] = append(rows[len(rows)-1], it)
			x += w
		}
	}
	var links []ringLegendItem
	if d.ColorByGroup {
		links = append(links, ringLegendItem{Kind: "text", Text: "links by " + d.groupName() + ":"})
		for i, c := range d.groupColors() {
			links = append(links, ringLegendItem{Kind: "line", Color: c, Text: d.groupLabel(i)})
		}
	} else if lv := g.level(); lv != nil {
		links = append(links, ringLegendItem{Kind: "line", Color: RingGraphIntraColor, Text: "intra-block"},
			ringLegendItem{Kind: "line", Color: RingGraphAdjacentColor, Text: "adjacent blocks"})
		shown := 0
		for _, p := range lv.Pairs {
			if p.Class != RingGraphFar {
				continue
			}
			if shown == 12 {
				links = append(links, ringLegendItem{Kind: "text", Text: fmt.Sprintf("+%d more far pairs", lv.FarPairs-shown)})
				break
			}
			links = append(links, ringLegendItem{Kind: "line", Color: p.Color, Text: fmt.Sprintf("blocks %d–%d", p.Lo+1, p.Hi+1)})
			shown++
		}
	}
	wrap(links)
	if d.selected() >= 0 {
		// Widths: the load steps and the idle links, in the selected mode.
		wn := d.weightName()
		var ws []ringLegendItem
		if mx := g.MarkMax[d.Mode]; mx > 0 {
			ws = append(ws, ringLegendItem{Kind: "text", Text: fmt.Sprintf("link width: %s (%s), scale 0–%s:", wn, d.Mode.describe(), display.FormatNumber(mx))})
			for _, st := range []int{1, ringWidthSteps / 2, ringWidthSteps} {
				ws = append(ws, ringLegendItem{Kind: "stroke", Color: ringLegendInk, R: g.stepWidth(st), Op: g.LinkOpacity,
					Text: "≤ " + display.FormatNumber(mx*float64(st)/ringWidthSteps)})
			}
		}
		ws = append(ws, ringLegendItem{Kind: "stroke", Color: ringLegendInk, R: g.IdleWidth, Op: g.IdleOpacity,
			Text: fmt.Sprintf("idle (0 %s): %s, thin and faint", wn, plural(d.idleLinks(d.Mode), "link"))})
		wrap(ws)
	}
	if mx := g.MarkMax[d.Mode]; mx > 0 {
		wn := d.weightName()
		wrap([]ringLegendItem{
			{Kind: "circle", Color: ringLegendInk, R: g.MarkRadius, Text: display.FormatNumber(mx) + " " + wn},
			{Kind: "circle", Color: ringLegendInk, R: g.MarkRadius / 2, Text: display.FormatNumber(mx/4) + " (circle area proportional to " + wn + ", nearer the end that sends more)"},
			{Kind: "arrow", Color: ringLegendInk, R: math.Max(ringArrowMinR, g.MarkRadius/2), Text: "one way"},
		})
	}
	var tracks []ringLegendItem
	if len(d.Tracks) > 0 {
		names := make([]string, len(d.Tracks))
		for i, t := range d.Tracks {
			names[i] = t.Name
			if names[i] == "" {
				names[i] = fmt.Sprintf("track %d", i+1)
			}
		}
		tracks = append(tracks, ringLegendItem{Kind: "greys", Text: "tracks, inside → out: " + strings.Join(names, ", ") + " (brighter = smaller)"})
	}
	if d.hasLeafValues() {
		s := d.leafScale(d.selected())
		tracks = append(tracks, ringLegendItem{Kind: "line", Color: hexRGBA(s.Ramp.Colors[200]),
			Text: fmt.Sprintf("inner ring: %s %s–%s", d.leafValueName(), display.FormatNumber(s.Min), display.FormatNumber(s.Max))})
	}
	wrap(tracks)
	return rows
}

// ringLegendInk is the one colour of the size legends (widths, marks): a
// neutral grey that no link, track or leaf colour means anything by.
const ringLegendInk = "#555555"

func hexRGBA(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// caption is the line under the legend.
func (d RingGraphData) caption(g *RingGraphGeometry) string {
	s := plural(len(d.Leaves), "leaf") + " · " + plural(len(d.Links), "link")
	if lv := g.level(); lv != nil {
		s += " · " + lv.Caption
	}
	if d.OrderNote != "" {
		s += " · " + d.OrderNote
	}
	s += fmt.Sprintf(" · bundling β = %s", display.FormatNumber(g.Beta))
	return strings.ReplaceAll(s, "leafs", "leaves")
}

// captionLines is the caption wrapped to the picture's width.
func (d RingGraphData) captionLines(g *RingGraphGeometry) []string {
	return wrapWords(d.caption(g), g.Width-8)
}

// longestHead is the longest frame-and-mode line the picture or the
// live view shows (any frame, any mode).
func (d RingGraphData) longestHead() string {
	head := "no frames"
	for f := range d.Frames {
		if h := fmt.Sprintf("frame %s (%d of %d)", d.frameLabel(f), f+1, len(d.Frames)); len([]rune(h)) > len([]rune(head)) {
			head = h
		}
	}
	return head + " · mode: " + RingGraphAverage.describe()
}

// svg writes the picture in mode m; without the plot, only its frame
// (title, block ring and numbers, legend, caption), for the raster.
func (d RingGraphData) svg(g *RingGraphGeometry, m RingGraphMode, plot bool) string {
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(g.Width), n2(g.Height), n2(g.Width), n2(g.Height), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(g.Width), n2(g.Height))
	for i, l := range g.TitleLines {
		w.text(4, 15+16*float64(i), l, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	head := "no frames"
	if f := d.selected(); f >= 0 {
		head = fmt.Sprintf("frame %s (%d of %d)", d.frameLabel(f), f+1, len(d.Frames))
	}
	mode := "mode: " + m.describe()
	if len(g.HeadY) == 1 {
		w.text(4, g.HeadY[0], fitText(head+" · "+mode, g.Width-8, smallFont), fmt.Sprintf(` class="ss-head" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	} else {
		w.text(4, g.HeadY[0], fitText(head, g.Width-8, smallFont), fmt.Sprintf(` class="ss-head" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
		w.text(4, g.HeadY[1], mode, fmt.Sprintf(` class="ss-head-mode" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	}
	if len(d.Leaves) == 0 {
		w.text(g.CX, g.CY, "no leaves", fmt.Sprintf(` text-anchor="middle" fill="%s"`, mutedInk))
	}
	if lv := g.level(); lv != nil {
		w.WriteString(`<g class="ss-blocks">`)
		for b, a := range lv.Arcs {
			col := ringColors[0][b%2]
			if p := ringAnnulus(g.CX, g.CY, g.BlockRing.Inner, g.BlockRing.Outer, a.Start, a.End); p != "" {
				w.f(`<path d="%s" fill="%s" stroke="#ffffff" stroke-width="0.5"/>`, p, col)
			}
			label := fmt.Sprint(b + 1)
			if a.Len()*g.BlockLabelRadius >= textWidth(label, smallFont)+4 {
				x, y := pt(g.CX, g.CY, g.BlockLabelRadius, a.Mid())
				w.f(`<text x="%s" y="%s" text-anchor="middle" dy="0.35em" font-size="%s" fill="%s">%s</text>`, n2(x), n2(y), n2(smallFont), inkColor, label)
			}
		}
		w.WriteString(`</g>`)
	}
	if plot {
		d.plotSVG(&w, g, m)
	}
	d.legendSVG(&w, g)
	// The caption, one <text> a line (the rasteriser takes no <tspan>).
	lines := d.captionLines(g)
	for i, l := range lines {
		w.text(4, g.Height-5-ringCaptionLine*float64(len(lines)-1-i), l, fmt.Sprintf(` class="ss-caption" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	}
	w.close()
	return w.String()
}

// ringAnnulus is annulusPath, split in two when it is a whole circle (an
// SVG arc cannot end where it starts).
func ringAnnulus(cx, cy, r0, r1, a0, a1 float64) string {
	if a1-a0 > 2*math.Pi-1e-9 {
		mid := (a0 + a1) / 2
		return annulusPath(cx, cy, r0, r1, a0, mid) + annulusPath(cx, cy, r0, r1, mid, a1)
	}
	return annulusPath(cx, cy, r0, r1, a0, a1)
}

// runs calls f for each run [i, j) of consecutive leaves with equal keys.
func runs(n int, key func(i int) string, f func(i, j int, k string)) {
	for i := 0; i < n; {
		k := key(i)
		j := i + 1
		for j < n && key(j) == k {
			j++
		}
		f(i, j, k)
		i = j
	}
}

// plotSVG writes the tracks, the leaf ring, the links (one path per
// colour) and the marks.
func (d RingGraphData) plotSVG(w *svgw, g *RingGraphGeometry, m RingGraphMode) {
	n := len(d.Leaves)
	if n == 0 {
		return
	}
	cell := 2 * math.Pi / float64(n)
	for t, tr := range d.Tracks {
		lo, hi := trackRange(tr.Values)
		sp := g.Tracks[t]
		w.f(`<g class="ss-track" data-track="%d" data-name="%s">`, t, html.EscapeString(tr.Name))
		runs(n, func(i int) string { return greyHex(trackGrey(tr.Values[i], lo, hi)) }, func(i, j int, col string) {
			w.f(`<path d="%s" fill="%s"/>`, ringAnnulus(g.CX, g.CY, sp.Inner, sp.Outer, float64(i)*cell, float64(j)*cell), col)
		})
		w.WriteString(`</g>`)
	}
	if f := d.selected(); f >= 0 && g.LeafRing.Outer > 0 && d.Frames[f].LeafValues != nil {
		s := d.leafScale(f)
		vals := d.Frames[f].LeafValues
		w.WriteString(`<g class="ss-leafring">`)
		runs(n, func(i int) string { return hexRGBA(s.Color(vals[i])) }, func(i, j int, col string) {
			w.f(`<path d="%s" fill="%s"/>`, ringAnnulus(g.CX, g.CY, g.LeafRing.Inner, g.LeafRing.Outer, float64(i)*cell, float64(j)*cell), col)
		})
		w.WriteString(`</g>`)
	}
	lv := g.Level
	colors, order := d.linkColorOrder(g)
	// One path per load step and colour: idle links first, then the busy
	// ones thinnest first, each step in colour order.
	type key struct {
		step  int
		color string
	}
	steps := d.linkSteps(g, m)
	paths := map[key]*strings.Builder{}
	for k := range d.Links {
		kk := key{-1, g.linkColor(&d, colors, lv, k)}
		if steps != nil {
			kk.step = int(steps[k])
		}
		b := paths[kk]
		if b == nil {
			b = &strings.Builder{}
			paths[kk] = b
		}
		cx, cy := g.Control(lv, k)
		a, bb := g.a[k], g.b[k]
		fmt.Fprintf(b, "M%s %sQ%s %s %s %s", n2(g.X[a]), n2(g.Y[a]), n2(cx), n2(cy), n2(g.X[bb]), n2(g.Y[bb]))
	}
	w.f(`<g class="ss-links" fill="none" stroke-width="%s" stroke-opacity="%s">`, n2(g.LinkWidth), n2(g.LinkOpacity))
	for _, st := range ringStepOrder(steps != nil) {
		for _, c := range order {
			b := paths[key{st, c}]
			switch {
			case b == nil:
			case st < 0:
				w.f(`<path class="ss-bundle" stroke="%s" d="%s"/>`, c, b.String())
			case st == 0:
				w.f(`<path class="ss-bundle" stroke="%s" data-step="0" stroke-width="%s" stroke-opacity="%s" d="%s"/>`, c, n2(g.IdleWidth), n2(g.IdleOpacity), b.String())
			default:
				w.f(`<path class="ss-bundle" stroke="%s" data-step="%d" stroke-width="%s" d="%s"/>`, c, st, n2(g.stepWidth(st)), b.String())
			}
		}
	}
	w.WriteString(`</g>`)
	f := d.selected()
	if f < 0 {
		return
	}
	w.WriteString(`<g class="ss-marks" fill-opacity="0.85">`)
	for k := range d.Links {
		fw, bw := d.weights(f, k)
		mk := g.Mark(lv, k, m, fw, bw)
		col := darken(g.linkColor(&d, colors, lv, k), 0.25)
		switch mk.Kind {
		case RingGraphCircle:
			w.f(`<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, n2(mk.X), n2(mk.Y), n2(mk.R), col)
		case RingGraphArrow:
			p := mk.arrowPoints()
			w.f(`<path class="ss-arrow" d="M%s %sL%s %sL%s %sZ" fill="%s"/>`, n2(p[0][0]), n2(p[0][1]), n2(p[1][0]), n2(p[1][1]), n2(p[2][0]), n2(p[2][1]), col)
		}
	}
	w.WriteString(`</g>`)
}

// linkSteps is every link's load step (RingGraphGeometry.LinkStroke) in
// the selected frame and mode m; nil without frames (every link is then
// drawn alike).
func (d RingGraphData) linkSteps(g *RingGraphGeometry, m RingGraphMode) []int8 {
	f := d.selected()
	if f < 0 {
		return nil
	}
	out := make([]int8, len(d.Links))
	for k := range d.Links {
		fw, bw := d.weights(f, k)
		out[k] = int8(g.loadStep(m, fw, bw))
	}
	return out
}

// ringStepOrder is the order the load steps are drawn in: idle, then
// thinnest to widest; just -1 (no steps) without frames.
func ringStepOrder(frames bool) []int {
	if !frames {
		return []int{-1}
	}
	out := make([]int, 0, ringWidthSteps+1)
	for s := 0; s <= ringWidthSteps; s++ {
		out = append(out, s)
	}
	return out
}

// idleLinks counts the links of value 0 in the selected frame and mode m.
func (d RingGraphData) idleLinks(m RingGraphMode) int {
	f := d.selected()
	if f < 0 {
		return 0
	}
	n := 0
	for k := range d.Links {
		if fw, bw := d.weights(f, k); ringValue(m, fw, bw) <= 0 {
			n++
		}
	}
	return n
}

// linkColorOrder returns the group colours and the order in which link
// colours are drawn: intra, adjacent, then the far pairs (or the groups in
// order), so that far bundles lie on top.
func (d RingGraphData) linkColorOrder(g *RingGraphGeometry) (groupColors, order []string) {
	groupColors = d.groupColors()
	if d.ColorByGroup {
		return groupColors, groupColors
	}
	order = []string{RingGraphIntraColor, RingGraphAdjacentColor}
	if lv := g.level(); lv != nil {
		for _, p := range lv.Pairs {
			if p.Class == RingGraphFar {
				order = append(order, p.Color)
			}
		}
	}
	return groupColors, order
}

// legendSVG writes the legend rows from g.LegendTop.
func (d RingGraphData) legendSVG(w *svgw, g *RingGraphGeometry) {
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), inkColor)
	y := g.LegendTop
	w.WriteString(`<g class="ss-legend">`)
	for _, row := range d.legendRows(g) {
		for _, it := range row {
			x := 4 + it.X
			cy := y + 8
			tx := x + 14
			switch it.Kind {
			case "line":
				w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="3"/>`, n2(x), n2(cy), n2(x+10), n2(cy), it.Color)
			case "stroke":
				w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" stroke-opacity="%s"/>`, n2(x), n2(cy), n2(x+18), n2(cy), it.Color, n2(it.R), n2(it.Op))
				tx = x + 22
			case "circle":
				r := it.R
				w.f(`<circle cx="%s" cy="%s" r="%s" fill="%s" fill-opacity="0.85"/>`, n2(x+math.Max(r, 2)), n2(cy), n2(r), it.Color)
				tx = x + 2*math.Max(r, 2) + 4
			case "arrow":
				mk := RingGraphMark{X: x + math.Max(it.R, 2), Y: cy, R: it.R, DX: 1}
				p := mk.arrowPoints()
				w.f(`<path d="M%s %sL%s %sL%s %sZ" fill="%s"/>`, n2(p[0][0]), n2(p[0][1]), n2(p[1][0]), n2(p[1][1]), n2(p[2][0]), n2(p[2][1]), it.Color)
				tx = x + 2*math.Max(it.R, 2) + 4
			case "greys":
				for i := range 4 {
					w.f(`<rect x="%s" y="%s" width="7" height="10" fill="%s"/>`, n2(x+7*float64(i)), n2(cy-5), greyHex(trackGrey(i, 0, 3)))
				}
				tx = x + 34
			case "text":
				tx = x
			}
			w.text(tx, y+12, it.Text, small)
		}
		y += ringLegendRow
	}
	w.WriteString(`</g>`)
}

// render draws the picture at scale pixels per px: its frame through the
// SVG rasteriser, the tracks, links and marks directly (a ring of tens of
// thousands of leaves and links would make an SVG slow to parse).
func (d RingGraphData) render(g *RingGraphGeometry, m RingGraphMode, scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(d.svg(g, m, false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views.RingGraph: %w", err)
	}
	n := len(d.Leaves)
	if n == 0 {
		return img, nil
	}
	plot := rasterPlot{img: img}
	// Tracks and the leaf ring, pixel by pixel.
	type band struct {
		r0, r1 float64
		col    [][3]uint8 // per leaf
	}
	var bands []band
	for t, tr := range d.Tracks {
		lo, hi := trackRange(tr.Values)
		c := make([][3]uint8, n)
		for i, v := range tr.Values {
			gr := trackGrey(v, lo, hi)
			c[i] = [3]uint8{gr, gr, gr}
		}
		bands = append(bands, band{g.Tracks[t].Inner, g.Tracks[t].Outer, c})
	}
	if f := d.selected(); f >= 0 && g.LeafRing.Outer > 0 && d.Frames[f].LeafValues != nil {
		s := d.leafScale(f)
		c := make([][3]uint8, n)
		for i, v := range d.Frames[f].LeafValues {
			rgba := s.Color(v)
			c[i] = [3]uint8{rgba.R, rgba.G, rgba.B}
		}
		bands = append(bands, band{g.LeafRing.Inner, g.LeafRing.Outer, c})
	}
	if len(bands) > 0 {
		rmax := 0.0
		for _, b := range bands {
			rmax = math.Max(rmax, b.r1)
		}
		cx, cy := g.CX*scale, g.CY*scale
		R := rmax * scale
		for py := int(math.Floor(cy - R)); py <= int(math.Ceil(cy+R)); py++ {
			for px := int(math.Floor(cx - R)); px <= int(math.Ceil(cx+R)); px++ {
				dx, dy := float64(px)+0.5-cx, float64(py)+0.5-cy
				r := math.Hypot(dx, dy) / scale
				for _, b := range bands {
					if r >= b.r0 && r < b.r1 {
						th := math.Atan2(dx, -dy)
						if th < 0 {
							th += 2 * math.Pi
						}
						i := min(n-1, int(th/(2*math.Pi)*float64(n)))
						plot.blend(px, py, b.col[i], 1)
						break
					}
				}
			}
		}
	}
	colors, _ := d.linkColorOrder(g)
	cache := map[string][3]uint8{}
	rgb := func(c string) [3]uint8 {
		v, ok := cache[c]
		if !ok {
			v = parseHex(c)
			cache[c] = v
		}
		return v
	}
	lv := g.Level
	steps := d.linkSteps(g, m)
	order := d.drawOrder(g, colors, steps)
	for _, k := range order {
		c := rgb(g.linkColor(&d, colors, lv, k))
		// The stroke: a width of w device px is drawn as round(w) parallel
		// anti-aliased lines 1 px apart (one line, fainter, below 1 px).
		width, op := g.LinkWidth, g.LinkOpacity
		if steps != nil {
			switch st := int(steps[k]); st {
			case 0:
				width, op = g.IdleWidth, g.IdleOpacity
			default:
				width = g.stepWidth(st)
			}
		}
		lines := max(1, int(math.Round(width*scale)))
		alpha := op * math.Min(1, width*scale)
		a, b := g.a[k], g.b[k]
		x0, y0 := g.X[a], g.Y[a]
		qx, qy := g.Control(lv, k)
		x2, y2 := g.X[b], g.Y[b]
		l := math.Hypot(qx-x0, qy-y0) + math.Hypot(x2-qx, y2-qy)
		segs := max(2, min(32, int(math.Ceil(l*scale/8))))
		px, py := x0, y0
		for s := 1; s <= segs; s++ {
			t := float64(s) / float64(segs)
			u := 1 - t
			nx, ny := u*u*x0+2*u*t*qx+t*t*x2, u*u*y0+2*u*t*qy+t*t*y2
			if lines == 1 {
				plot.line(px*scale, py*scale, nx*scale, ny*scale, c, alpha)
			} else {
				dx, dy := (nx-px)*scale, (ny-py)*scale
				dl := math.Hypot(dx, dy)
				if dl == 0 {
					dl = 1
				}
				ox, oy := -dy/dl, dx/dl
				for j := range lines {
					o := float64(j) - float64(lines-1)/2
					plot.line(px*scale+o*ox, py*scale+o*oy, nx*scale+o*ox, ny*scale+o*oy, c, alpha)
				}
			}
			px, py = nx, ny
		}
	}
	if f := d.selected(); f >= 0 {
		dark := map[string][3]uint8{}
		for k := range d.Links {
			fw, bw := d.weights(f, k)
			mk := g.Mark(lv, k, m, fw, bw)
			if mk.Kind == RingGraphNoMark {
				continue
			}
			lc := g.linkColor(&d, colors, lv, k)
			c, ok := dark[lc]
			if !ok {
				c = parseHex(darken(lc, 0.25))
				dark[lc] = c
			}
			if mk.Kind == RingGraphCircle {
				plot.discAlpha(mk.X*scale, mk.Y*scale, mk.R*scale, c, 0.85)
			} else {
				plot.triangle(mk.arrowPoints(), scale, c, 0.85)
			}
		}
	}
	return img, nil
}

// drawOrder is the order links are drawn in, as in the SVG: by load step
// (idle first; steps is nil without frames), then by colour (intra,
// adjacent, far pairs; or by group), link order within a colour.
func (d RingGraphData) drawOrder(g *RingGraphGeometry, groupColors []string, steps []int8) []int {
	_, order := d.linkColorOrder(g)
	rank := map[string]int{}
	for i, c := range order {
		if _, ok := rank[c]; !ok {
			rank[c] = i
		}
	}
	buckets := make([][]int, len(order)*(ringWidthSteps+1))
	for k := range d.Links {
		r := rank[g.linkColor(&d, groupColors, g.Level, k)]
		if steps != nil {
			r += int(steps[k]) * len(order)
		}
		buckets[r] = append(buckets[r], k)
	}
	out := make([]int, 0, len(d.Links))
	for _, b := range buckets {
		out = append(out, b...)
	}
	return out
}

// discAlpha fills an anti-aliased disc of opacity a.
func (r rasterPlot) discAlpha(cx, cy, rad float64, c [3]uint8, a float64) {
	for y := int(math.Floor(cy - rad - 1)); y <= int(math.Ceil(cy+rad+1)); y++ {
		for x := int(math.Floor(cx - rad - 1)); x <= int(math.Ceil(cx+rad+1)); x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			dd := math.Sqrt(dx*dx + dy*dy)
			r.blend(x, y, c, a*math.Max(0, math.Min(1, rad+0.5-dd)))
		}
	}
}

// triangle fills a triangle (px corners times scale) of opacity a, with
// 2×2 supersampling for its edges.
func (r rasterPlot) triangle(p [3][2]float64, scale float64, c [3]uint8, a float64) {
	var q [3][2]float64
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range p {
		q[i] = [2]float64{p[i][0] * scale, p[i][1] * scale}
		x0, y0 = math.Min(x0, q[i][0]), math.Min(y0, q[i][1])
		x1, y1 = math.Max(x1, q[i][0]), math.Max(y1, q[i][1])
	}
	edge := func(a, b [2]float64, x, y float64) float64 {
		return (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
	}
	in := func(x, y float64) bool {
		e0, e1, e2 := edge(q[0], q[1], x, y), edge(q[1], q[2], x, y), edge(q[2], q[0], x, y)
		return e0 >= 0 && e1 >= 0 && e2 >= 0 || e0 <= 0 && e1 <= 0 && e2 <= 0
	}
	for y := int(math.Floor(y0)); y <= int(math.Ceil(y1)); y++ {
		for x := int(math.Floor(x0)); x <= int(math.Ceil(x1)); x++ {
			cov := 0
			for sy := range 2 {
				for sx := range 2 {
					if in(float64(x)+(float64(sx)+0.5)/2, float64(y)+(float64(sy)+0.5)/2) {
						cov++
					}
				}
			}
			r.blend(x, y, c, a*float64(cov)/4)
		}
	}
}
