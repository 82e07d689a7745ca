package views

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"runtime"

	"superstep/algo/bundle"
	"superstep/display/views/internal/raster"
)

// timelinePicture is what the timeline's pictures are drawn from: the
// curves' light at one pixel per px and the two blends, with their
// automatic parameters.
type timelinePicture struct {
	field      *curveField
	add, alpha blend
	// saturated is the share of drawn pixels whose red and green both
	// saturate in the additive picture.
	saturated float64
}

// picture draws the curves at scale 1 and fits the blends to them.
func (L *TimelineLayout) picture(ctx context.Context) (*timelinePicture, error) {
	field, err := L.curves(ctx, 1)
	if err != nil {
		return nil, err
	}
	p := &timelinePicture{field: field}
	f := p.field
	// Additive: logarithmic with a knee of a twentieth of a message, so a single
	// message shows; the brightest tenth of the drawn pixels (by their
	// brightest channel) may reach white, the rest stay below 250: sat is
	// where the 90th percentile q maps to 249/255.
	const knee = 0.05
	q := f.quantile(0.9, func(a []float32) float32 { return max(a[0], a[1], a[2]) })
	sat := float32(knee * math.Expm1(math.Log1p(float64(max(q, knee))/knee)*255/249))
	gain := float32(1)
	if L.d.Gain > 0 {
		gain = float32(L.d.Gain)
	}
	p.add = blend{additive: true, gain: gain, logScale: true, sat: sat, knee: knee, bg: timelineDarkBg}
	// Alpha: a coverage gain that shows one message clearly (at least
	// 1 − e^(−0.8·½) = 33 % where it crosses a pixel) and lets the densest
	// tenth of the pixels go nearly opaque.
	cov := f.quantile(0.9, func(a []float32) float32 { return a[3] })
	ag := float32(1)
	if cov > 0 {
		ag = min(max(3/cov, 0.8), 1.5)
	}
	if L.d.Gain > 0 {
		ag = float32(L.d.Gain)
	}
	p.alpha = blend{gain: ag, bg: timelineLightBg}
	drawn, both := 0, 0
	for i := 0; i < f.w*f.h; i++ {
		if f.acc[4*i+3] <= 0 {
			continue
		}
		drawn++
		if c := f.pixel(i, p.add, timelineDarkBg); c[0] >= 250 && c[1] >= 250 {
			both++
		}
	}
	if drawn > 0 {
		p.saturated = float64(both) / float64(drawn)
	}
	return p, nil
}

// curves rasterises every curve into a field of the plot's size at scale:
// each message's two end pieces with weight 1, each route's shared
// interior once with its message count as weight. Large timelines are
// drawn in parts on several goroutines (drawParts), each part's messages
// and routes a fixed share of them.
func (L *TimelineLayout) curves(ctx context.Context, scale float64) (*curveField, error) {
	w, h := int(math.Ceil(L.PlotW*scale)), int(math.Ceil(L.PlotH*scale))
	m, r := len(L.d.From), len(L.RouteMessages)
	parts := 1
	if m+r > 20000 {
		parts = max(1, min(runtime.GOMAXPROCS(0), 4))
	}
	return drawParts(ctx, parts, func() *curveField { return newCurveField(w, h, timelineFrom, timelineTo) }, func(f *curveField, k int) error {
		return L.drawCurves(ctx, f, scale, k*m/parts, (k+1)*m/parts, k*r/parts, (k+1)*r/parts)
	})
}

// drawCurves draws curves lo..hi (their ends, or whole straight lines)
// and the interiors of routes rlo..rhi into f, looking at ctx every
// curveCheckEvery curves.
func (L *TimelineLayout) drawCurves(ctx context.Context, f *curveField, scale float64, lo, hi, rlo, rhi int) error {
	sc := func(p bundle.Point) [2]float64 { return [2]float64{p.X * scale, p.Y * scale} }
	amount := float32(1 / scale) // light per px of length: the same picture at every scale
	draw := func(q bundle.Quad, t0, t1 float64, a float32) {
		f.quad(sc(q.P0), sc(q.C), sc(q.P1), float32(t0), float32(t1), a)
	}
	if L.Bundle == nil {
		for i := lo; i < hi; i++ {
			if (i-lo)%curveCheckEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			L.curve(i, func(q bundle.Quad, t0, t1 float64) { draw(q, t0, t1, amount) })
		}
		return nil
	}
	in := make([]bundle.Point, 0, 16)
	for i := lo; i < hi; i++ {
		if (i-lo)%curveCheckEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		send := bundle.Point{X: L.edges.FromX[i], Y: L.Y(float64(L.d.From[i]))}
		recv := bundle.Point{X: L.edges.ToX[i], Y: L.Y(float64(L.d.To[i]))}
		in = L.appendInterior(in[:0], L.EdgeRoute[i])
		head, tail, err := bundle.EndQuads(send, in, recv)
		if err != nil {
			continue
		}
		m := float64(len(in))
		draw(head, 0, 1/m, amount)
		draw(tail, (m-1)/m, 1, amount)
	}
	for r := rlo; r < rhi; r++ {
		if (r-rlo)%curveCheckEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		in = L.appendInterior(in[:0], int32(r))
		m := float64(len(in))
		for k, q := range bundle.InteriorQuads(in) {
			draw(q, float64(k+1)/m, float64(k+2)/m, amount*float32(L.RouteMessages[r]))
		}
	}
	return nil
}

// classColors are the background colours of the interval classes: the
// categorical palette, washed out towards the ground so the curves stay
// in front; classes beyond the palette are grey.
func (L *TimelineLayout) classColors(additive bool) [][3]uint8 {
	pal := Palette(min(len(L.d.ClassNames), 9))
	out := make([][3]uint8, len(L.d.ClassNames))
	for i := range out {
		c := [3]uint8{150, 150, 150}
		if i < len(pal) {
			c = parseHex(pal[i])
		}
		if additive {
			out[i] = mix3(c, timelineDarkBg, 0.78)
		} else {
			out[i] = mix3(c, timelineLightBg, 0.72)
		}
	}
	return out
}

func mix3(a, b [3]uint8, t float64) [3]uint8 {
	var o [3]uint8
	for c := 0; c < 3; c++ {
		o[c] = uint8(math.Round(float64(a[c])*(1-t) + float64(b[c])*t))
	}
	return o
}

// ground paints the intervals into an image of the plot at scale: each
// lane a strip (with a one-pixel gap between lanes of 4 px or more), each
// interval over the columns it covers (at least one), later intervals on
// top of earlier ones.
func (L *TimelineLayout) ground(scale float64, additive bool) *image.RGBA {
	w, h := int(math.Ceil(L.PlotW*scale)), int(math.Ceil(L.PlotH*scale))
	bg := timelineLightBg
	if additive {
		bg = timelineDarkBg
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{bg[0], bg[1], bg[2], 255}}, image.Point{}, draw.Src)
	cols := L.classColors(additive)
	laneH := L.LaneH * scale
	gap := 0
	if laneH >= 4 {
		gap = 1
	}
	d := L.d
	for i := range d.IntervalLane {
		y0 := int(math.Floor(float64(d.IntervalLane[i]) * laneH))
		y1 := max(y0+1, int(math.Floor(float64(d.IntervalLane[i]+1)*laneH))-gap)
		x0 := int(math.Floor(L.X(d.IntervalFrom[i]) * scale))
		x1 := max(x0+1, int(math.Ceil(L.X(d.IntervalTo[i])*scale)))
		x0, x1 = max(x0, 0), min(x1, w)
		c := cols[d.IntervalClass[i]]
		for y := max(y0, 0); y < min(y1, h); y++ {
			row := img.Pix[y*img.Stride:]
			for x := x0; x < x1; x++ {
				row[4*x], row[4*x+1], row[4*x+2] = c[0], c[1], c[2]
			}
		}
	}
	return img
}

// render draws the whole picture at scale pixels per px: the frame through
// the SVG rasteriser, the plot (ground and curves) directly.
func (L *TimelineLayout) render(p *timelinePicture, scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(L.svgDoc(p, false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views.Timeline: %w", err)
	}
	f := p.field
	if scale != 1 {
		// Another scale (Save's, Image's) is drawn anew: drawing, not
		// layout, so with no cell's context.
		if f, err = L.curves(context.Background(), scale); err != nil {
			return nil, fmt.Errorf("views.Timeline: %w", err)
		}
	}
	b := p.alpha
	if L.Additive {
		b = p.add
	}
	plot := f.image(b, L.ground(scale, L.Additive))
	x0, y0 := int(math.Round(L.PlotX*scale)), int(math.Round(L.PlotY*scale))
	draw.Draw(img, image.Rect(x0, y0, x0+plot.Bounds().Dx(), y0+plot.Bounds().Dy()), plot, image.Point{}, draw.Src)
	return img, nil
}

// layers are the canvas view's pictures of the plot, one pixel per px:
// the ground of each blend, and the curves of each blend as RGBA over
// transparency (additive: the light, opaque where drawn, for a "lighter"
// composite; alpha: the mean colour with the coverage as alpha, both
// rounded to alphaLayerLevels).
func (L *TimelineLayout) layers(p *timelinePicture) (groundAdd, groundAlpha, curvesAdd, curvesAlpha *image.RGBA) {
	groundAdd, groundAlpha = L.ground(1, true), L.ground(1, false)
	f := p.field
	curvesAdd = image.NewRGBA(image.Rect(0, 0, f.w, f.h))
	curvesAlpha = image.NewRGBA(image.Rect(0, 0, f.w, f.h))
	black := [3]uint8{}
	// The mean colour lies on the gradient: its place there, from the
	// channel the gradient changes most.
	k := 0
	for c := 1; c < 3; c++ {
		if math.Abs(float64(f.to[c]-f.from[c])) > math.Abs(float64(f.to[k]-f.from[k])) {
			k = c
		}
	}
	round := func(v float64) float64 { return math.Round(min(max(v, 0), 1)*alphaLayerLevels) / alphaLayerLevels }
	for i := 0; i < f.w*f.h; i++ {
		a := f.acc[4*i : 4*i+4]
		if a[3] <= 0 {
			continue
		}
		c := f.pixel(i, p.add, black)
		copy(curvesAdd.Pix[4*i:], []uint8{c[0], c[1], c[2], 255})
		cov := round(1 - math.Exp(float64(-p.alpha.gain*a[3])))
		t := 0.0
		if d := f.to[k] - f.from[k]; d != 0 {
			t = round(float64((a[k]/a[3] - f.from[k]) / d))
		}
		// RGBA is premultiplied.
		for ch := 0; ch < 3; ch++ {
			mean := float64(f.from[ch]) + t*float64(f.to[ch]-f.from[ch])
			curvesAlpha.Pix[4*i+ch] = uint8(math.Round(mean * cov * 255))
		}
		curvesAlpha.Pix[4*i+3] = uint8(math.Round(cov * 255))
	}
	return
}

// alphaLayerLevels is how finely the alpha layer keeps the coverage and
// the place of the mean colour on the gradient: 63 steps, each at most 4
// RGB levels, which the eye does not tell apart among curves. So rounded,
// the layer's pixels take far fewer colours, its palette (compactPNG: the
// 256 most frequent) holds more of them, and it is both smaller and
// nearer the exact picture (notebook 05's FD4: a third smaller, no pixel
// more than 56 levels off where 117 were).
const alphaLayerLevels = 63
