package views

import (
	"fmt"
	"html"
	"strings"
)

// top is the height of the title band above the plot.
func (d DrawingData) top() float64 {
	if d.Title != "" {
		return drawingTitleBand
	}
	return 0
}

// height is the whole picture's height: title, plot, legend, caption.
func (d DrawingData) height(L *drawingLayout) float64 {
	return d.top() + L.h + float64(len(L.legendRows))*drawingLegendRow + drawingCaptionBand
}

// svg is the drawing as an SVG document.
func (d DrawingData) svg(L *drawingLayout) string { return d.svgDoc(L, true) }

// svgDoc writes the picture; without the plot, only its frame (title,
// legend and caption around an empty plot area), for the raster.
func (d DrawingData) svgDoc(L *drawingLayout, plot bool) string {
	top := d.top()
	height := d.height(L)
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(L.w), n2(height), n2(L.w), n2(height), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(L.w), n2(height))
	if d.Title != "" {
		w.text(4, 15, fitText(d.Title, L.w-8, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	if plot {
		d.plotSVG(&w, L, top)
	}
	y := top + L.h
	for _, row := range L.legendRows {
		for _, e := range row {
			w.f(`<circle cx="%s" cy="%s" r="5" fill="%s"/>`, n2(4+e.X+5), n2(y+8), e.Color)
			w.text(4+e.X+14, y+12, e.Text, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), inkColor))
		}
		y += drawingLegendRow
	}
	w.text(4, height-5, fitText(d.caption(L), L.w-8, smallFont), fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	w.close()
	return w.String()
}

// plotSVG writes the plot at y = top: the edges as one path under the
// nodes, each node a circle with its hover text, in drawing order.
func (d DrawingData) plotSVG(w *svgw, L *drawingLayout, top float64) {
	w.f(`<svg class="ss-plot" x="0" y="%s" width="%s" height="%s" viewBox="0 0 %s %s" overflow="hidden">`, n2(top), n2(L.w), n2(L.h), n2(L.w), n2(L.h))
	if len(L.edges) > 0 {
		w.f(`<path class="ss-edges" fill="none" stroke="%s" stroke-opacity="%s" stroke-width="%s" d="`,
			drawingEdgeColor, n2(L.opacity), n2(drawingEdgeWidth))
		for k := 0; k < len(L.edges); k += 2 {
			a, b := L.edges[k], L.edges[k+1]
			w.f("M%s %sL%s %s", n2(L.x[a]), n2(L.y[a]), n2(L.x[b]), n2(L.y[b]))
		}
		w.WriteString(`"/>`)
	}
	w.f(`<g class="ss-nodes">`)
	for _, i := range L.order {
		tip := strings.ReplaceAll(html.EscapeString(d.tip(L, int(i))), "\n", "&#10;")
		w.f(`<circle class="ss-node" cx="%s" cy="%s" r="%s" fill="%s" data-tip="%s"/>`,
			n2(L.x[i]), n2(L.y[i]), n2(L.r), L.colorOf(int(i)), tip)
	}
	w.WriteString(`</g></svg>`)
}
