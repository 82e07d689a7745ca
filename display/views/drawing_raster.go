package views

import (
	"fmt"
	"image"
	"image/draw"
	"math"

	"superstep/display/views/internal/raster"
)

// render draws the drawing at scale pixels per px: its frame (title,
// legend, caption) through the SVG rasteriser, the plot directly (a
// 100,000-node SVG would be slow to parse): edges as anti-aliased lines
// under the nodes, nodes as anti-aliased discs in drawing order, as the
// live canvas draws them.
func (d DrawingData) render(L *drawingLayout, scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(d.svgDoc(L, false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views.Drawing: %w", err)
	}
	top := int(math.Round(d.top() * scale))
	pw, ph := int(math.Ceil(L.w*scale)), int(math.Ceil(L.h*scale))
	plot := rasterPlot{img: whiteRGBA(pw, ph)}
	ec := parseHex(drawingEdgeColor)
	alpha := L.opacity * drawingEdgeWidth
	for k := 0; k < len(L.edges); k += 2 {
		a, b := L.edges[k], L.edges[k+1]
		plot.line(L.x[a]*scale, L.y[a]*scale, L.x[b]*scale, L.y[b]*scale, ec, alpha*scale)
	}
	cols := make([][3]uint8, len(L.colors))
	for i, c := range L.colors {
		cols[i] = parseHex(c)
	}
	for _, i := range L.order {
		c := cols[0]
		if L.rank != nil {
			c = cols[L.colorIndex(L.rank[i])]
		}
		plot.disc(L.x[i]*scale, L.y[i]*scale, L.r*scale, c)
	}
	draw.Draw(img, image.Rect(0, top, pw, top+ph), plot.img, image.Point{}, draw.Src)
	return img, nil
}

func parseHex(hex string) [3]uint8 {
	var r, g, b uint8
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return [3]uint8{r, g, b}
}

// rasterPlot draws on an opaque RGBA image (so premultiplied equals straight
// alpha) by blending.
type rasterPlot struct{ img *image.RGBA }

func (r rasterPlot) blend(x, y int, c [3]uint8, a float64) {
	b := r.img.Bounds()
	if x < 0 || y < 0 || x >= b.Dx() || y >= b.Dy() || a <= 0 {
		return
	}
	if a > 1 {
		a = 1
	}
	p := r.img.Pix[y*r.img.Stride+4*x:]
	for k := 0; k < 3; k++ {
		p[k] = uint8(float64(p[k])*(1-a) + float64(c[k])*a + 0.5)
	}
}

// line draws an anti-aliased line (Xiaolin Wu's) of opacity a; coordinates
// are pixel centres at +0.5.
func (r rasterPlot) line(x0, y0, x1, y1 float64, c [3]uint8, a float64) {
	x0, y0, x1, y1 = x0-0.5, y0-0.5, x1-0.5, y1-0.5
	steep := math.Abs(y1-y0) > math.Abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	dx := x1 - x0
	grad := 0.0
	if dx > 0 {
		grad = (y1 - y0) / dx
	}
	plot := func(x, y int, f float64) {
		if steep {
			r.blend(y, x, c, a*f)
		} else {
			r.blend(x, y, c, a*f)
		}
	}
	for x := int(math.Round(x0)); x <= int(math.Round(x1)); x++ {
		y := y0 + grad*(float64(x)-x0)
		fy := math.Floor(y)
		f := y - fy
		plot(x, int(fy), 1-f)
		plot(x, int(fy)+1, f)
	}
}

// disc fills an anti-aliased disc of radius rad centred at (cx, cy).
func (r rasterPlot) disc(cx, cy, rad float64, c [3]uint8) {
	for y := int(math.Floor(cy - rad - 1)); y <= int(math.Ceil(cy+rad+1)); y++ {
		for x := int(math.Floor(cx - rad - 1)); x <= int(math.Ceil(cx+rad+1)); x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			r.blend(x, y, c, rad+0.5-d)
		}
	}
}
