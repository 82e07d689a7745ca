package views

import (
	"fmt"
	"html"
	"image"
	"image/draw"
	"math"
	"strings"

	"superstep/display/views/internal/raster"
)

// svg writes the picture; without plot, only its frame (title, captions,
// labels, legend around an empty plot area), for the raster and the
// runtime's canvas.
func (m *matrixHeat) svg(plot bool) string {
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(m.W), n2(m.H), n2(m.W), n2(m.H), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(m.W), n2(m.H))
	if m.d.Title != "" {
		w.text(hmPad, 15, fitText(m.d.Title, m.W-2*hmPad, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), inkColor)
	muted := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	gw, gh := float64(m.gw), float64(m.gh)
	// Axis captions: the column name over the column labels, the row name
	// turned along the row labels.
	w.text(m.left+gw/2, m.titleBand()+11, m.d.ColName, muted+` text-anchor="middle" font-style="italic"`)
	rx, ry := hmPad+10, m.top+gh/2
	w.text(rx, ry, m.d.RowName, muted+fmt.Sprintf(` text-anchor="middle" font-style="italic" transform="rotate(-90 %s %s)"`, n2(rx), n2(ry)))
	for i := 0; i < m.n; i += m.step {
		s := shownLabel(m.d.Rows[i])
		w.text(m.left-3, m.top+(float64(i)+0.5)*m.s+3.5, s, small+` text-anchor="end"`+cutTip(m.d.Rows[i], s))
	}
	for j := 0; j < m.m; j += m.step {
		x, y := m.left+(float64(j)+0.5)*m.s+3.5, m.top-3
		s := shownLabel(m.d.Cols[j])
		w.text(x, y, s, small+fmt.Sprintf(` transform="rotate(-90 %s %s)"`, n2(x), n2(y))+cutTip(m.d.Cols[j], s))
	}
	w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>`, n2(m.left-0.5), n2(m.top-0.5), n2(gw+1), n2(gh+1), gridColor)
	if plot {
		m.cellsSVG(&w)
	}
	m.legendSVG(&w, m.top+gh+hmLegendGap)
	w.close()
	return w.String()
}

// cellsSVG writes one rect per non-zero cell with its hover text.
func (m *matrixHeat) cellsSVG(w *svgw) {
	w.WriteString(`<g class="ss-cells" shape-rendering="crispEdges">`)
	for r := 0; r < m.n; r++ {
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			c := int(m.col[k])
			tip := strings.ReplaceAll(html.EscapeString(m.tip(r, c, m.val[k])), "\n", "&#10;")
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" data-tip="%s"/>`,
				n2(m.left+float64(c)*m.s), n2(m.top+float64(r)*m.s), n2(m.s), n2(m.s), hexColor(m.ramp.Colors[m.ci[k]]), tip)
		}
	}
	w.WriteString(`</g>`)
}

// legendSVG writes the key at y: the value name, a white swatch for no
// value, and the ramp's entries hmLow..255 (56 swatches of 4 px) with the
// range's ends below.
func (m *matrixHeat) legendSVG(w *svgw, y float64) {
	muted := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	name := m.d.ValueName
	if name == "" {
		name = "value"
	}
	if m.d.Log {
		name += " (log scale)"
	}
	w.text(hmPad, y+10, name, muted)
	w.f(`<rect x="%s" y="%s" width="10" height="10" fill="#ffffff" stroke="#bbbbbb"/>`, n2(hmPad+0.5), n2(y+14.5))
	w.text(hmPad+14, y+23, "none", muted)
	if m.maxK < 0 {
		w.text(hmRampX, y+23, "no non-zero values", muted)
		return
	}
	const sw = 4.0
	n := int(hmRampW / sw)
	for i := 0; i < n; i++ {
		c := m.ramp.Colors[hmLow+i*(255-hmLow)/(n-1)]
		w.f(`<rect x="%s" y="%s" width="%s" height="10" fill="%s"/>`, n2(hmRampX+float64(i)*sw), n2(y+14), n2(sw), hexColor(c))
	}
	lo := 0.0
	if m.d.Log {
		lo = m.minNZ
	}
	loT, hiT := FormatMatrixValue(lo, m.d.Unit), FormatMatrixValue(m.max, m.d.Unit)
	w.text(hmRampX, y+36, loT, muted)
	w.text(hmRampX+hmRampW-textWidth(hiT, smallFont), y+36, hiT, muted)
}

// render draws a large matrix at scale pixels per px: its frame through the
// SVG rasteriser, the plot pixel by pixel (pool), each plot pixel scale ×
// scale pixels, as the live canvas draws it.
func (m *matrixHeat) render(scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(m.svg(false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views.Matrix: %w", err)
	}
	win := m.pool()
	plot := whiteRGBA(m.gw, m.gh)
	for y := 0; y < m.gh; y++ {
		row := plot.Pix[y*plot.Stride:]
		for x := 0; x < m.gw; x++ {
			if k := win[y*m.gw+x]; k >= 0 {
				c := m.ramp.Colors[m.ci[k]]
				row[4*x], row[4*x+1], row[4*x+2] = c.R, c.G, c.B
			}
		}
	}
	x0, y0 := int(math.Round(m.left*scale)), int(math.Round(m.top*scale))
	if scale == 1 {
		draw.Draw(img, image.Rect(x0, y0, x0+m.gw, y0+m.gh), plot, image.Point{}, draw.Src)
		return img, nil
	}
	pw, ph := int(math.Round(float64(m.gw)*scale)), int(math.Round(float64(m.gh)*scale))
	b := img.Bounds()
	for y := 0; y < ph; y++ {
		sy := min(m.gh-1, int(float64(y)/scale))
		for x := 0; x < pw; x++ {
			sx := min(m.gw-1, int(float64(x)/scale))
			if x0+x < b.Max.X && y0+y < b.Max.Y {
				img.SetRGBA(x0+x, y0+y, plot.RGBAAt(sx, sy))
			}
		}
	}
	return img, nil
}
