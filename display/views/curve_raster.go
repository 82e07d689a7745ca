package views

import (
	"context"
	"image"
	"image/color"
	"math"
	"slices"

	"superstep/internal/parallel"
)

// curveField accumulates weighted curves whose colour runs along them from
// one colour to another (sender to receiver), the picture of bundled
// message lines. It keeps, per pixel, the light of every curve summed per
// channel and the summed coverage, so both blends come from one pass and
// neither depends on drawing order: additive sums light and tone-maps it
// (where many curves overlap the channels saturate, and a green-to-red
// bundle glows yellow); alpha mixes the curves' mean colour over the
// background by their coverage, 1 − e^(−opacity·coverage).
type curveField struct {
	w, h     int
	acc      []float32  // 4 per pixel: light R, G, B and coverage
	from, to [3]float32 // the gradient's colours, 0..1
}

// newCurveField returns an empty field of w×h pixels.
func newCurveField(w, h int, from, to [3]uint8) *curveField {
	f := &curveField{w: w, h: h, acc: make([]float32, 4*w*h)}
	for c := 0; c < 3; c++ {
		f.from[c], f.to[c] = float32(from[c])/255, float32(to[c])/255
	}
	return f
}

// drawParts draws a picture's curves in parts, each into a field of its
// own made by newField, on up to parts goroutines (internal/parallel: a
// panic in a part comes back to the caller), and returns their sum. The
// parts are fixed by their index, not by which goroutine drew them, and
// summed in part order, so the picture is the same bytes on every run.
// draw looks at ctx every few thousand curves and returns its error.
func drawParts(ctx context.Context, parts int, newField func() *curveField, draw func(f *curveField, part int) error) (*curveField, error) {
	parts = max(parts, 1)
	fields := make([]*curveField, parts)
	errs := make([]error, parts)
	err := parallel.For(ctx, parts, parts, func(_, k int) {
		fields[k] = newField()
		errs[k] = draw(fields[k], k)
	})
	if err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	f := fields[0]
	for _, g := range fields[1:] {
		for i, v := range g.acc {
			f.acc[i] += v
		}
	}
	return f, nil
}

// curveCheckEvery is how many curves a part draws between two looks at
// its context.
const curveCheckEvery = 4096

// deposit adds amount of the gradient colour at parameter t to pixel
// (x, y).
func (f *curveField) deposit(x, y int, t, amount float32) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h || amount <= 0 {
		return
	}
	i := 4 * (y*f.w + x)
	for c := 0; c < 3; c++ {
		f.acc[i+c] += amount * (f.from[c] + t*(f.to[c]-f.from[c]))
	}
	f.acc[i+3] += amount
}

// segment draws an anti-aliased one-pixel line from (x0, y0) to (x1, y1)
// (Wu's algorithm: each step along the major axis splits its amount
// between the two nearest pixels across), the gradient running from t0 to
// t1 along it.
func (f *curveField) segment(x0, y0, x1, y1 float64, t0, t1, amount float32) {
	dx, dy := x1-x0, y1-y0
	steep := math.Abs(dy) > math.Abs(dx)
	if steep {
		x0, y0, x1, y1, dx, dy = y0, x0, y1, x1, dy, dx
	}
	if x1 < x0 {
		x0, y0, x1, y1, t0, t1 = x1, y1, x0, y0, t1, t0
		dx, dy = -dx, -dy
	}
	// The pixels whose centres lie in [x0, x1).
	xs := int(math.Ceil(x0 - 0.5))
	n := int(math.Ceil(x1-0.5)) - xs
	if dx < 1e-9 || n <= 0 {
		// Shorter than a pixel along its major axis: one deposit.
		xm, ym := (x0+x1)/2, (y0+y1)/2
		if steep {
			xm, ym = ym, xm
		}
		f.plot(xm, ym, false, (t0+t1)/2, amount*float32(max(math.Hypot(dx, dy), 0.25)))
		return
	}
	grad := dy / dx
	// Amount per step: the line's length per unit of the major axis.
	per := amount * float32(math.Sqrt(1+grad*grad))
	for k := 0; k < n; k++ {
		x := float64(xs+k) + 0.5
		y := y0 + grad*(x-x0)
		t := t0 + (t1-t0)*float32((x-x0)/dx)
		f.plot(x, y, steep, t, per)
	}
}

// plot deposits amount at the point (major, minor) split between the two
// pixels nearest across the line (swapped back when steep).
func (f *curveField) plot(x, y float64, steep bool, t, amount float32) {
	yc := y - 0.5
	yi := math.Floor(yc)
	frac := float32(yc - yi)
	xi := int(math.Floor(x))
	if steep {
		f.deposit(int(yi), xi, t, amount*(1-frac))
		f.deposit(int(yi)+1, xi, t, amount*frac)
		return
	}
	f.deposit(xi, int(yi), t, amount*(1-frac))
	f.deposit(xi, int(yi)+1, t, amount*frac)
}

// quad draws the quadratic Bézier p0 → p1 with control c, flattened into
// segments of about 2 pixels, its gradient running from t0 to t1.
func (f *curveField) quad(p0, c, p1 [2]float64, t0, t1, amount float32) {
	l := math.Hypot(c[0]-p0[0], c[1]-p0[1]) + math.Hypot(p1[0]-c[0], p1[1]-c[1])
	n := max(1, min(int(l/2), 512))
	px, py := p0[0], p0[1]
	for k := 1; k <= n; k++ {
		s := float64(k) / float64(n)
		u := 1 - s
		x := u*u*p0[0] + 2*u*s*c[0] + s*s*p1[0]
		y := u*u*p0[1] + 2*u*s*c[1] + s*s*p1[1]
		ta := t0 + (t1-t0)*float32(float64(k-1)/float64(n))
		tb := t0 + (t1-t0)*float32(s)
		f.segment(px, py, x, y, ta, tb, amount)
		px, py = x, y
	}
}

// blend says how a curveField becomes a picture.
type blend struct {
	additive bool
	// gain scales the light (additive) or the coverage (alpha).
	gain float32
	// logScale, for additive light: a channel sum v shows as
	// log(1 + gain·v/knee) / log(1 + sat/knee), clipped at 1, so one
	// message (light about knee…1 on its pixels) stays visible next to
	// bundles of thousands and light sat is white; without it as
	// 1 − e^(−gain·v).
	logScale  bool
	sat, knee float32
	bg        [3]uint8
}

// pixel is the colour of pixel i under b over the background colour bgc.
func (f *curveField) pixel(i int, b blend, bgc [3]uint8) [3]uint8 {
	a := f.acc[4*i : 4*i+4]
	var out [3]uint8
	for c := 0; c < 3; c++ {
		bg := float32(bgc[c]) / 255
		var v float32
		if b.additive {
			var s float32
			if b.logScale {
				s = float32(math.Log1p(float64(b.gain*a[c]/b.knee)) / math.Log1p(float64(b.sat/b.knee)))
			} else {
				s = 1 - float32(math.Exp(float64(-b.gain*a[c])))
			}
			v = bg + (1-bg)*min(s, 1)
		} else {
			v = bg
			if a[3] > 0 {
				cov := 1 - float32(math.Exp(float64(-b.gain*a[3])))
				v = bg*(1-cov) + a[c]/a[3]*cov
			}
		}
		out[c] = uint8(min(max(v, 0), 1)*255 + 0.5)
	}
	return out
}

// image returns the picture under b, over b.bg or, where given, the
// pixels of ground (an image of the field's size).
func (f *curveField) image(b blend, ground *image.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, f.w, f.h))
	for i := 0; i < f.w*f.h; i++ {
		bgc := b.bg
		if ground != nil {
			g := ground.Pix[4*i : 4*i+3]
			bgc = [3]uint8{g[0], g[1], g[2]}
		}
		p := f.pixel(i, b, bgc)
		img.SetRGBA(i%f.w, i/f.w, color.RGBA{p[0], p[1], p[2], 255})
	}
	return img
}

// quantile is the q-quantile (0..1) of v over the drawn pixels, for a
// channel value v(acc of a pixel); 0 when nothing is drawn.
func (f *curveField) quantile(q float64, v func(a []float32) float32) float32 {
	var vals []float32
	for i := 0; i < f.w*f.h; i++ {
		a := f.acc[4*i : 4*i+4]
		if a[3] > 0 {
			vals = append(vals, v(a))
		}
	}
	if len(vals) == 0 {
		return 0
	}
	slices.Sort(vals)
	return vals[min(len(vals)-1, int(q*float64(len(vals))))]
}
