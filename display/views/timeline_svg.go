package views

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"html"
	"math"
	"strings"

	"superstep/algo/bundle"
)

// svg is the whole timeline as SVG: small ones with every curve a path,
// large ones with the plot as an embedded PNG.
func (L *TimelineLayout) svg(p *timelinePicture) string { return L.svgDoc(p, true) }

// hex3 is a colour as "#rrggbb".
func hex3(c [3]uint8) string { return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2]) }

// niceTicks returns about n round values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	span := hi - lo
	if !(span > 0) || n < 1 {
		return []float64{lo}
	}
	step := math.Pow(10, math.Floor(math.Log10(span/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, roundSig(v, 12))
	}
	return out
}

// tickText prints a tick with the decimals its step needs.
func tickText(v, step float64) string {
	d := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	return secondsText(v, d)
}

// idPrefix makes ids unique to this picture (several timelines may share
// a page).
func (L *TimelineLayout) idPrefix() string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d|%d|%v|%v|%s", L.d.Title, len(L.d.Lanes), len(L.d.From), L.Start, L.End, L.Routing)
	return fmt.Sprintf("sstl%x", h.Sum32())
}

// svgDoc writes the picture; without the plot, only its frame (title, lane
// labels, time axis, legend), for the raster.
func (L *TimelineLayout) svgDoc(p *timelinePicture, plot bool) string {
	d := L.d
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(L.Width), n2(L.Height), n2(L.Width), n2(L.Height), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(L.Width), n2(L.Height))
	if d.Title != "" {
		w.text(4, 15, fitText(d.Title, L.Width-8, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	// Lane labels: clicking one hides its bundles (the runtime). A label
	// cut to fit keeps its start (a trace's rank) and shows the whole on
	// hover.
	for i := 0; i < len(d.Lanes); i += L.labelEvery {
		y := L.PlotY + L.Y(float64(i)) + smallFont*0.35
		s := fitText(d.Lanes[i], L.labelW-6, smallFont)
		w.f(`<text class="ss-lane" data-lane="%d" x="%s" y="%s" text-anchor="end" font-size="%s" fill="%s"%s>%s</text>`,
			i, n2(L.PlotX-4), n2(y), n2(smallFont), inkColor, cutTip(d.Lanes[i], s), html.EscapeString(s))
	}
	if plot {
		L.plotSVG(&w, p)
	}
	w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>`, n2(L.PlotX), n2(L.PlotY), n2(L.PlotW), n2(L.PlotH), gridColor)
	// Time axis.
	ticks := niceTicks(L.Start, L.End, max(2, int(L.PlotW/90)))
	step := 1.0
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	ay := L.PlotY + L.PlotH
	// The ticks in a group of their own: the runtime redraws them for the
	// time window a zoom shows.
	w.WriteString(`<g class="ss-axis">`)
	for _, t := range ticks {
		x := L.PlotX + L.X(t)
		if x < L.PlotX-0.5 || x > L.PlotX+L.PlotW+0.5 {
			continue
		}
		w.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, n2(x), n2(ay), n2(x), n2(ay+4), mutedInk)
		w.f(`<text x="%s" y="%s" text-anchor="middle" font-size="%s" fill="%s">%s</text>`, n2(x), n2(ay+14), n2(smallFont), mutedInk, tickText(t, step))
	}
	w.WriteString(`</g>`)
	w.f(`<text x="%s" y="%s" text-anchor="end" font-size="%s" fill="%s">time (s)</text>`, n2(L.PlotX+L.PlotW), n2(ay+24), n2(smallFont), mutedInk)
	// Legend: the gradient, then the interval classes.
	ly := L.Height - 6
	x := 4.0
	w.f(`<text x="%s" y="%s" font-size="%s" fill="%s">sender</text>`, n2(x), n2(ly), n2(smallFont), inkColor)
	x += textWidth("sender", smallFont) + 4
	for k := 0; k < 8; k++ {
		c := mix3(timelineFrom, timelineTo, float64(k)/7)
		w.f(`<rect x="%s" y="%s" width="5" height="8" fill="%s"/>`, n2(x+float64(k)*5), n2(ly-8), hex3(c))
	}
	x += 44
	w.f(`<text x="%s" y="%s" font-size="%s" fill="%s">receiver</text>`, n2(x), n2(ly), n2(smallFont), inkColor)
	x += textWidth("receiver", smallFont) + 14
	cols := L.classColors(false)
	for i, name := range d.ClassNames {
		if i >= 9 || x > L.Width-60 {
			break
		}
		w.f(`<rect x="%s" y="%s" width="10" height="8" fill="%s" stroke="%s" stroke-width="0.5"/>`, n2(x), n2(ly-8), hex3(cols[i]), gridColor)
		label := fitLabel(name, 110, smallFont)
		w.f(`<text x="%s" y="%s" font-size="%s" fill="%s">%s</text>`, n2(x+13), n2(ly), n2(smallFont), inkColor, html.EscapeString(label))
		x += 13 + textWidth(label, smallFont) + 10
	}
	w.close()
	return w.String()
}

// plotSVG writes the plot: small timelines as vectors (intervals as rects,
// each route a group of its messages' paths with the route's hover text
// and lanes), large ones as the Go-drawn PNG.
func (L *TimelineLayout) plotSVG(w *svgw, p *timelinePicture) {
	d := L.d
	w.f(`<svg class="ss-plot" x="%s" y="%s" width="%s" height="%s" viewBox="0 0 %s %s" overflow="hidden">`,
		n2(L.PlotX), n2(L.PlotY), n2(L.PlotW), n2(L.PlotH), n2(L.PlotW), n2(L.PlotH))
	w.WriteString(`<g class="ss-zoom">`)
	if len(d.From) > TimelineCanvasCurves || len(d.IntervalLane) > 20*TimelineCanvasCurves {
		b := p.alpha
		if L.Additive {
			b = p.add
		}
		pic, err := pngOf(p.field.image(b, L.ground(1, L.Additive)))
		if err == nil {
			w.f(`<image width="%s" height="%s" href="data:image/png;base64,%s"/>`, n2(L.PlotW), n2(L.PlotH), base64.StdEncoding.EncodeToString(pic))
		}
		w.WriteString(`</g></svg>`)
		return
	}
	bg := timelineLightBg
	if L.Additive {
		bg = timelineDarkBg
	}
	w.f(`<rect class="ss-ground" width="%s" height="%s" fill="%s"/>`, n2(L.PlotW), n2(L.PlotH), hex3(bg))
	cols := L.classColors(L.Additive)
	gap := 0.0
	if L.LaneH >= 4 {
		gap = 1
	}
	for i := range d.IntervalLane {
		x0, x1 := L.X(d.IntervalFrom[i]), L.X(d.IntervalTo[i])
		w.f(`<rect class="ss-interval" data-lane="%d" data-class="%d" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, d.IntervalLane[i], d.IntervalClass[i],
			n2(x0), n2(float64(d.IntervalLane[i])*L.LaneH), n2(max(x1-x0, 0.5)), n2(L.LaneH-gap), hex3(cols[d.IntervalClass[i]]))
	}
	id := L.idPrefix()
	byRoute := make([][]int, len(L.RouteFromLane))
	for i, r := range L.EdgeRoute {
		byRoute[r] = append(byRoute[r], i)
	}
	w.WriteString(`<defs>`)
	for r := range byRoute {
		a, b := L.routeEnds(r, byRoute[r])
		w.f(`<linearGradient id="%s-%d" gradientUnits="userSpaceOnUse" x1="%s" y1="%s" x2="%s" y2="%s"><stop offset="0" stop-color="%s"/><stop offset="1" stop-color="%s"/></linearGradient>`,
			id, r, n2(a[0]), n2(a[1]), n2(b[0]), n2(b[1]), hex3(timelineFrom), hex3(timelineTo))
	}
	w.WriteString(`</defs>`)
	op := L.svgOpacity(p)
	blendCSS := ""
	if L.Additive {
		blendCSS = ` style="mix-blend-mode:plus-lighter"`
	}
	w.f(`<g class="ss-curves" fill="none" stroke-width="1" stroke-opacity="%s"%s>`, n2(op), blendCSS)
	for r, msgs := range byRoute {
		w.f(`<g class="ss-bundle" data-route="%d" data-from="%d" data-to="%d" data-tip="%s" stroke="url(#%s-%d)">`,
			r, L.RouteFromLane[r], L.RouteToLane[r], html.EscapeString(L.RouteText(r)), id, r)
		for _, i := range msgs {
			var path strings.Builder
			first := true
			L.curve(i, func(q bundle.Quad, _, _ float64) {
				if first {
					fmt.Fprintf(&path, "M%s %s", n2(q.P0.X), n2(q.P0.Y))
					first = false
				}
				fmt.Fprintf(&path, "Q%s %s %s %s", n2(q.C.X), n2(q.C.Y), n2(q.P1.X), n2(q.P1.Y))
			})
			w.f(`<path data-from="%d" data-to="%d" d="%s"/>`, d.From[i], d.To[i], path.String())
		}
		w.WriteString(`</g>`)
	}
	w.WriteString(`</g></g></svg>`)
}

// routeEnds are where route r's gradient runs: from its first interior
// point to its last (straight lines: the first message's ends).
func (L *TimelineLayout) routeEnds(r int, msgs []int) (a, b [2]float64) {
	if L.Bundle != nil {
		in := L.interiors[r]
		a, b = in[0], in[len(in)-1]
	} else if len(msgs) > 0 {
		i := msgs[0]
		a = [2]float64{L.edges.FromX[i], L.Y(float64(L.d.From[i]))}
		b = [2]float64{L.edges.ToX[i], L.Y(float64(L.d.To[i]))}
	}
	if a == b {
		b[0] += 0.01 // a gradient needs a direction
	}
	return a, b
}

// svgOpacity is the stroke opacity of the vector curves: additive, one
// message as bright as the Go picture draws it; alpha, its coverage.
func (L *TimelineLayout) svgOpacity(p *timelinePicture) float64 {
	if L.Additive {
		return min(0.9, max(0.12, math.Log1p(float64(p.add.gain/p.add.knee))/math.Log1p(float64(p.add.sat/p.add.knee))))
	}
	return 1 - math.Exp(-float64(p.alpha.gain))
}
