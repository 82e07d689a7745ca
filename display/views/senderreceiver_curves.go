package views

import (
	"cmp"
	"context"
	"fmt"
	"html"
	"image"
	"image/draw"
	"math"
	"runtime"
	"slices"
	"strings"

	"superstep/algo/bundle"
	"superstep/display"
	"superstep/display/views/internal/raster"
)

// The bundled-curve picture that SenderReceiver and ChordLines share: a
// frame (title, labels, caption) around a plot of weighted curves, each a
// uniform clamped quadratic B-spline through its control polygon
// (bundle.QuadChain), drawn with additive light on a dark ground (bundles
// glow) or alpha-composited on a white one. Small pictures are SVG paths;
// large ones a PNG drawn here (curveField) and a live canvas.

const (
	// CurveSVGMax is the most curves a sender/receiver or chord-lines view
	// draws as SVG paths; more are drawn on a canvas live, and the static
	// picture and SVG export come from Go.
	CurveSVGMax = 2000

	curveDarkGround  = "#111318"
	curveLightGround = "#ffffff"
	curveLevels      = 32   // amount levels of a curve (1..32)/32
	curveMinAmount   = 0.25 // the lightest curve's amount, the heaviest's is 1
	curveMaxGain     = 3.0  // opacity cap: a lone heaviest curve glows, does not burn
	curveSatShare    = 0.095
	curveSatLevel    = 249.5 // a channel this bright counts as saturated
)

// curvePic is what both views compute and draw from.
type curvePic struct {
	kind         string
	title        string
	caption      string
	alt          string
	left, top    float64 // the plot's place in the frame
	w, h         float64 // the plot's size
	frameW       float64
	frameH       float64
	decor        func(w *svgw) // labels in the frame, outside the plot
	pts          []bundle.Point
	interiors    [][]int32 // shared inner control points: indices into pts
	ca, cb, civ  []int32   // per curve: its end points (into pts) and interior
	dstOff       int32     // dst unit = cb − dstOff
	beta         float64   // Holten's straightening (1: none)
	gradient     bool      // colour from grad[0] (source) to grad[1] (target)
	grad         [2]string
	colors       []string // colour table (source colours)
	ci           []int32  // per curve colour index (not gradient)
	level        []uint8  // per curve amount level 1..curveLevels
	additive     bool
	gain         float64 // automatic opacity (per unit amount)
	src, dst     []int32
	msgs, bytes  []float64 // bytes nil: not shown
	units        []string
	light        *curveField // additive, gain 1, scale 1 (set by finish)
	tipArrowLast bool        // chord lines: "P→Q: N messages, …"; else "N messages, …, P→Q"
}

// curveAmount is the amount level of weight w when the heaviest is wmax:
// logarithmic from curveMinAmount to 1, so light curves stay visible and
// the heaviest is the brightest.
func curveAmount(w, wmax float64) uint8 {
	a := 1.0
	if wmax > 0 && w < wmax {
		a = curveMinAmount + (1-curveMinAmount)*math.Log1p(w)/math.Log1p(wmax)
	}
	return uint8(max(1, min(curveLevels, math.Round(a*curveLevels))))
}

// tip is the hover text of curve i, as the runtime writes it.
func (p *curvePic) tip(i int) string {
	n := p.msgs[i]
	m := display.FormatNumber(n) + " messages"
	if n == 1 {
		m = "1 message"
	}
	if p.bytes != nil {
		m += ", " + display.FormatNumber(p.bytes[i]) + " bytes"
	}
	pq := p.units[p.src[i]] + "→" + p.units[p.dst[i]]
	if p.tipArrowLast {
		return pq + ": " + m
	}
	return m + ", " + pq
}

// poly is curve i's control polygon in plot px, straightened by beta.
func (p *curvePic) poly(i int, buf []bundle.Point) []bundle.Point {
	buf = append(buf[:0], p.pts[p.ca[i]])
	for _, k := range p.interiors[p.civ[i]] {
		buf = append(buf, p.pts[k])
	}
	buf = append(buf, p.pts[p.cb[i]])
	if p.beta < 1 && len(buf) > 2 {
		a, b := buf[0], buf[len(buf)-1]
		n := float64(len(buf) - 1)
		for k := 1; k < len(buf)-1; k++ {
			s := float64(k) / n
			buf[k].X = p.beta*buf[k].X + (1-p.beta)*(a.X+s*(b.X-a.X))
			buf[k].Y = p.beta*buf[k].Y + (1-p.beta)*(a.Y+s*(b.Y-a.Y))
		}
	}
	return buf
}

// quads is curve i as quadratic Béziers in plot px.
func (p *curvePic) quads(i int, buf []bundle.Point) []bundle.Quad {
	q, err := bundle.QuadChain(p.poly(i, buf))
	if err != nil {
		return nil
	}
	return q
}

// Mid is the middle of curve i (the middle piece at t = ½), in plot px.
func (p *curvePic) mid(i int) bundle.Point {
	q := p.quads(i, nil)
	if len(q) == 0 {
		return bundle.Point{}
	}
	return q[len(q)/2].At(0.5)
}

func (p *curvePic) ground() string {
	if p.additive {
		return curveDarkGround
	}
	return curveLightGround
}

// field draws the curves at scale pixels per px, each with amount
// level/curveLevels (the opacity is applied when the field becomes a
// picture).
func (p *curvePic) field(ctx context.Context, scale float64) (*curveField, error) {
	pw, ph := int(math.Ceil(p.w*scale)), int(math.Ceil(p.h*scale))
	var g0, g1 [3]uint8
	if p.gradient {
		g0, g1 = parseHex(p.grad[0]), parseHex(p.grad[1])
	}
	cols := make([][3]float32, len(p.colors))
	for k, c := range p.colors {
		rgb := parseHex(c)
		cols[k] = [3]float32{float32(rgb[0]) / 255, float32(rgb[1]) / 255, float32(rgb[2]) / 255}
	}
	// The light adds up: parts of the curves are drawn into fields of
	// their own in parallel, then summed.
	parts := max(1, min(runtime.GOMAXPROCS(0), 4, len(p.ca)/2000))
	n := len(p.ca)
	return drawParts(ctx, parts, func() *curveField { return newCurveField(pw, ph, g0, g1) }, func(f *curveField, part int) error {
		var buf []bundle.Point
		for i := part * n / parts; i < (part+1)*n/parts; i++ {
			if i%curveCheckEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if !p.gradient {
				f.from, f.to = cols[p.ci[i]], cols[p.ci[i]]
			}
			amount := float32(p.level[i]) / curveLevels
			buf = p.poly(i, buf)
			qs, err := bundle.QuadChain(buf)
			if err != nil {
				continue
			}
			m := float32(len(qs))
			for k, q := range qs {
				f.quad([2]float64{q.P0.X * scale, q.P0.Y * scale}, [2]float64{q.C.X * scale, q.C.Y * scale},
					[2]float64{q.P1.X * scale, q.P1.Y * scale}, float32(k)/m, float32(k+1)/m, amount)
			}
		}
		return nil
	})
}

// autoGain is the automatic opacity of an additive field drawn with gain
// 1: the largest (up to curveMaxGain, in steps of 15 %) for which at most
// curveSatShare of the drawn pixels are saturated in both red and green.
func autoGain(f *curveField) float64 {
	var satT, drawT [3]float64
	bg := parseHex(curveDarkGround)
	for c := 0; c < 3; c++ {
		room := 255 - float64(bg[c])
		satT[c] = math.Inf(1)
		if room > 255-curveSatLevel {
			satT[c] = -math.Log((255 - curveSatLevel) / room)
		}
		drawT[c] = math.Inf(1)
		if room > 0.5 {
			drawT[c] = -math.Log(1 - 0.5/room)
		}
	}
	g := curveMaxGain
	for it := 0; it < 80; it++ {
		drawn, sat := 0, 0
		for i := 0; i+3 < len(f.acc); i += 4 {
			r, gr, b := g*float64(f.acc[i]), g*float64(f.acc[i+1]), g*float64(f.acc[i+2])
			if r >= drawT[0] || gr >= drawT[1] || b >= drawT[2] {
				drawn++
				if r >= satT[0] && gr >= satT[1] {
					sat++
				}
			}
		}
		if float64(sat) <= curveSatShare*float64(drawn) {
			break
		}
		g *= 0.85
	}
	return g
}

// plotImage is the plot as drawn in the static picture.
func (p *curvePic) plotImage(scale float64) (*image.RGBA, error) {
	f := p.light
	if scale != 1 || f == nil {
		var err error
		if f, err = p.field(context.Background(), scale); err != nil {
			return nil, err
		}
	}
	return f.image(blend{additive: p.additive, gain: float32(p.gain), bg: parseHex(p.ground())}, nil), nil
}

// render draws the whole picture: the frame through the SVG rasteriser,
// the plot from curveField.
func (p *curvePic) render(scale float64) (*image.RGBA, error) {
	img, err := raster.Render([]byte(p.svgDoc(false)), scale)
	if err != nil {
		return nil, fmt.Errorf("views: %s: %w", p.kind, err)
	}
	plot, err := p.plotImage(scale)
	if err != nil {
		return nil, fmt.Errorf("views: %s: %w", p.kind, err)
	}
	x0, y0 := int(math.Round(p.left*scale)), int(math.Round(p.top*scale))
	draw.Draw(img, plot.Bounds().Add(image.Pt(x0, y0)), plot, image.Point{}, draw.Src)
	return img, nil
}

// svgDoc writes the picture; without the plot, only its frame and the
// plot's ground.
func (p *curvePic) svgDoc(plot bool) string {
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(p.frameW), n2(p.frameH), n2(p.frameW), n2(p.frameH), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(p.frameW), n2(p.frameH))
	if p.title != "" {
		w.text(4, 15, fitText(p.title, p.frameW-8, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	if p.decor != nil {
		p.decor(&w)
	}
	w.f(`<rect class="ss-ground" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, n2(p.left), n2(p.top), n2(p.w), n2(p.h), p.ground())
	if plot {
		p.plotSVG(&w)
	}
	w.text(4, p.frameH-5, fitText(p.caption, p.frameW-8, smallFont), fmt.Sprintf(` class="ss-caption" font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	w.close()
	return w.String()
}

// plotSVG writes the curves: one path each, with its hover text.
func (p *curvePic) plotSVG(w *svgw) {
	w.f(`<svg class="ss-plot" x="%s" y="%s" width="%s" height="%s" viewBox="0 0 %s %s" overflow="hidden">`,
		n2(p.left), n2(p.top), n2(p.w), n2(p.h), n2(p.w), n2(p.h))
	blend := ""
	if p.additive {
		blend = ` style="isolation:isolate"`
	}
	w.f(`<g class="ss-curves" fill="none" stroke-width="1"%s>`, blend)
	var buf []bundle.Point
	for i := range p.ca {
		qs := p.quads(i, buf)
		if len(qs) == 0 {
			continue
		}
		op := float64(p.level[i]) / curveLevels * p.gain
		stroke := ""
		if p.gradient {
			a, b := qs[0].P0, qs[len(qs)-1].P1
			w.f(`<linearGradient id="%s-g%d" gradientUnits="userSpaceOnUse" x1="%s" y1="%s" x2="%s" y2="%s"><stop offset="0" stop-color="%s"/><stop offset="1" stop-color="%s"/></linearGradient>`,
				p.kind, i, n2(a.X), n2(a.Y), n2(b.X), n2(b.Y), p.grad[0], p.grad[1])
			stroke = fmt.Sprintf("url(#%s-g%d)", p.kind, i)
		} else {
			stroke = p.colors[p.ci[i]]
		}
		style := ""
		if p.additive {
			style = ` style="mix-blend-mode:plus-lighter"`
		}
		w.f(`<path class="ss-curve" d="%s" stroke="%s" stroke-opacity="%s" data-level="%d"%s data-tip="%s"/>`,
			quadPath(qs), stroke, n4(min(op, 1)), p.level[i], style, html.EscapeString(p.tip(i)))
	}
	w.WriteString(`</g></svg>`)
}

func n4(x float64) string { return fmt.Sprint(float64(a4(x))) }

// quadPath is the SVG path of a quadratic chain.
func quadPath(qs []bundle.Quad) string {
	var b strings.Builder
	fmt.Fprintf(&b, "M%s %s", n2(qs[0].P0.X), n2(qs[0].P0.Y))
	for _, q := range qs {
		fmt.Fprintf(&b, "Q%s %s %s %s", n2(q.C.X), n2(q.C.Y), n2(q.P1.X), n2(q.P1.Y))
	}
	return b.String()
}

// curveSpec is what the runtime's curve views draw from; see
// runtime/src/senderreceiver.js. A small picture is its SVG (Plot), whose
// paths carry their hover text; a large one is drawn from the curves'
// arrays, in Bin (an arrayPack).
type curveSpec struct {
	Frame  string   `json:"frame"`
	Plot   string   `json:"plot,omitempty"` // the plot's SVG (small pictures)
	Left   ang      `json:"left"`
	Top    ang      `json:"top"`
	W      ang      `json:"w"`
	H      ang      `json:"h"`
	Blend  string   `json:"blend"`
	Gain   ang      `json:"gain"`
	Levels int      `json:"levels"`
	Dark   string   `json:"dark"`
	Light  string   `json:"light"`
	N      int      `json:"n"`
	Bin    string   `json:"bin,omitempty"`
	Pts    arrayRef `json:"pts,omitzero"`   // x, y pairs, plot px
	IL     arrayRef `json:"il,omitzero"`    // interior lengths
	IA     arrayRef `json:"ia,omitzero"`    // interiors' point indices, concatenated
	AN     arrayRef `json:"an,omitzero"`    // per point: curves starting there (in order)
	B      arrayRef `json:"b,omitzero"`     // per curve: last point
	IV     arrayRef `json:"iv,omitzero"`    // per curve: interior
	DstOff int      `json:"dstOff"`         // destination unit = b − dstOff
	Beta   ang      `json:"beta,omitempty"` // straightening (absent: none)
	Grad   []string `json:"grad,omitempty"`
	Colors []string `json:"colors,omitempty"`
	CI     arrayRef `json:"ci,omitzero"` // colour indices
	// LevelSteps give each curve its amount level from its messages
	// (classSteps: curveAmount grows with the messages).
	LevelSteps [][2]float64 `json:"levelSteps,omitempty"`
	Msgs       arrayRef     `json:"msgs,omitzero"`
	Bytes      arrayRef     `json:"bytes,omitzero"`
	Units      []string     `json:"units,omitempty"`
	TipFirst   bool         `json:"tipFirst,omitempty"` // "P→Q: …" rather than "…, P→Q"
}

func (p *curvePic) spec() curveSpec {
	sp := curveSpec{Frame: p.svgDoc(false), Left: a4(p.left), Top: a4(p.top), W: a4(p.w), H: a4(p.h),
		Blend: "alpha", Gain: a4(p.gain), Levels: curveLevels, Dark: curveDarkGround, Light: curveLightGround, N: len(p.ca)}
	if p.additive {
		sp.Blend = "additive"
	}
	if len(p.ca) <= CurveSVGMax {
		var w svgw
		p.plotSVG(&w)
		sp.Plot = w.String()
		return sp
	}
	var pack arrayPack
	pts := make([]float32, 0, 2*len(p.pts))
	for _, q := range p.pts {
		pts = append(pts, float32(q.X), float32(q.Y))
	}
	sp.Pts = pack.f32s(pts)
	il := make([]int32, len(p.interiors))
	var ia []int32
	for i, ix := range p.interiors {
		il[i] = int32(len(ix))
		ia = append(ia, ix...)
	}
	sp.IL, sp.IA = pack.ints(il), pack.ints(ia)
	// The curves are sorted by their first point: how many start at each.
	starts := make([]int32, len(p.pts))
	for _, a := range p.ca {
		starts[a]++
	}
	sp.AN, sp.B, sp.IV = pack.ints(starts), pack.ints(p.cb), pack.ints(p.civ)
	sp.DstOff = int(p.dstOff)
	if p.beta < 1 {
		sp.Beta = a4(p.beta)
	}
	if p.gradient {
		sp.Grad = p.grad[:]
	} else {
		sp.Colors = p.colors
		sp.CI = pack.ints(p.ci)
	}
	sp.LevelSteps = classSteps(p.msgs, func(i int) int { return int(p.level[i]) })
	sp.Msgs = pack.counts(p.msgs)
	if p.bytes != nil {
		sp.Bytes = pack.counts(p.bytes)
	}
	sp.Bin = pack.String()
	sp.Units = p.units
	sp.TipFirst = p.tipArrowLast
	return sp
}

// figure is the picture for the figure mechanism.
func (p *curvePic) figure() figure {
	return figure{
		makeSVG: func() string { return p.svgDoc(true) },
		alt:     p.alt,
		kind:    p.kind,
		spec:    p.spec(),
		raster:  p.render,
	}
}

// pairs sums duplicate (src, dst) entries: the distinct pairs sorted by
// src, then dst, with their messages and bytes.
func pairs(src, dst []int32, weight, bytes []float64) (s, d []int32, msgs, byt []float64) {
	index := make(map[[2]int32]int, len(src))
	for i := range src {
		k := [2]int32{src[i], dst[i]}
		j, ok := index[k]
		if !ok {
			j = len(s)
			index[k] = j
			s = append(s, src[i])
			d = append(d, dst[i])
			msgs = append(msgs, 0)
			if bytes != nil {
				byt = append(byt, 0)
			}
		}
		w := 1.0
		if weight != nil {
			w = weight[i]
		}
		msgs[j] += w
		if bytes != nil {
			byt[j] += bytes[i]
		}
	}
	// Sorted by sender, then receiver: the hover order of the runtime,
	// and arrays that compress well.
	ord := make([]int, len(s))
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, func(a, b int) int {
		if c := cmp.Compare(s[a], s[b]); c != 0 {
			return c
		}
		return cmp.Compare(d[a], d[b])
	})
	s2, d2, m2 := make([]int32, len(s)), make([]int32, len(s)), make([]float64, len(s))
	var b2 []float64
	if byt != nil {
		b2 = make([]float64, len(s))
	}
	for k, i := range ord {
		s2[k], d2[k], m2[k] = s[i], d[i], msgs[i]
		if byt != nil {
			b2[k] = byt[i]
		}
	}
	return s2, d2, m2, b2
}

// checkPairs reports why src, dst, weight, bytes cannot be drawn for n units.
func checkPairs(view string, n int, src, dst []int32, weight, bytes []float64) error {
	if len(src) != len(dst) {
		return fmt.Errorf("views.%s: %d sources but %d destinations", view, len(src), len(dst))
	}
	if weight != nil && len(weight) != len(src) {
		return fmt.Errorf("views.%s: %d weights for %d pairs", view, len(weight), len(src))
	}
	if bytes != nil && len(bytes) != len(src) {
		return fmt.Errorf("views.%s: %d byte counts for %d pairs", view, len(bytes), len(src))
	}
	for i := range src {
		if src[i] < 0 || int(src[i]) >= n || dst[i] < 0 || int(dst[i]) >= n {
			return fmt.Errorf("views.%s: pair %d (%d→%d) names a unit outside 0..%d", view, i, src[i], dst[i], n-1)
		}
		if weight != nil && (!finite(weight[i]) || weight[i] < 0) {
			return fmt.Errorf("views.%s: pair %d has weight %v", view, i, weight[i])
		}
		if bytes != nil && (!finite(bytes[i]) || bytes[i] < 0) {
			return fmt.Errorf("views.%s: pair %d has %v bytes", view, i, bytes[i])
		}
	}
	return nil
}

// checkBlend reports a bad Blend or Opacity.
func checkBlend(view, blend string, opacity float64) error {
	if blend != "" && blend != "additive" && blend != "alpha" {
		return fmt.Errorf("views.%s: blend %q (want \"additive\" or \"alpha\")", view, blend)
	}
	if !finite(opacity) || opacity < 0 {
		return fmt.Errorf("views.%s: opacity %v", view, opacity)
	}
	return nil
}

// finish sets the amounts and the opacity: automatic unless opacity > 0,
// which draws the curves (looking at ctx).
func (p *curvePic) finish(ctx context.Context, opacity float64) error {
	wmax := 0.0
	for _, m := range p.msgs {
		wmax = max(wmax, m)
	}
	p.level = make([]uint8, len(p.msgs))
	for i, m := range p.msgs {
		p.level[i] = curveAmount(m, wmax)
	}
	if opacity > 0 {
		p.gain = opacity
		return nil
	}
	light, err := p.field(ctx, 1)
	if err != nil {
		return err
	}
	p.light, p.gain = light, autoGain(light)
	return nil
}
