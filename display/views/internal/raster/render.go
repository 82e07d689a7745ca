package raster

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/vector"
)

// tol is the flattening tolerance in device pixels.
const tol = 0.2

// renderer holds one rendering's state and scratch space.
type renderer struct {
	src    []byte
	ids    map[string]*node // patterns by id
	scale  float64          // device pixels per document px (non-scaling strokes)
	z      vector.Rasterizer
	clip   clipper
	mask   *image.Alpha
	fbuf   sfnt.Buffer
	glyphs map[glyphKey][]sfnt.Segment
	active map[*node]bool // patterns being drawn, against self-reference
	tiles  map[tileKey]*tileImage
}

// viewport is the size percentages refer to.
type viewport struct{ w, h float64 }

func (r *renderer) errAt(n *node, attrName string, format string, args ...any) error {
	return posError(r.src, n.off, "%s: %s", describe(n, attrName), fmt.Sprintf(format, args...))
}

// indexPatterns records every <pattern> with an id, wherever it is.
func (r *renderer) indexPatterns(n *node) {
	if n.name == "pattern" {
		if id, ok := n.attr("id"); ok && r.ids[id] == nil {
			r.ids[id] = n
		}
	}
	for _, k := range n.kids {
		r.indexPatterns(k)
	}
}

// lengthAttr reads a length attribute of n; ref is what percentages refer to
// (< 0: not allowed). A missing attribute is def.
func (r *renderer) lengthAttr(n *node, name string, st *style, ref, def float64) (float64, error) {
	v, ok := n.attr(name)
	if !ok {
		return def, nil
	}
	l, err := parseLength(v)
	if err != nil {
		return 0, r.errAt(n, name, "%v", err)
	}
	x, err := l.resolve(st.fontSize, ref)
	if err != nil {
		return 0, r.errAt(n, name, "%v", err)
	}
	return x, nil
}

// nonNegative reads a length attribute that must not be negative.
func (r *renderer) nonNegative(n *node, name string, st *style, def float64) (float64, error) {
	x, err := r.lengthAttr(n, name, st, -1, def)
	if _, ok := n.attr(name); ok && err == nil && x < 0 {
		err = r.errAt(n, name, "negative %s", name)
	}
	return x, err
}

// drawKids draws n's children.
func (r *renderer) drawKids(dst *image.RGBA, n *node, st *style, m mat, vp viewport, depth int) error {
	for _, k := range n.kids {
		if err := r.drawNode(dst, k, st, m, vp, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// drawNode draws one element and its children.
func (r *renderer) drawNode(dst *image.RGBA, n *node, parent *style, m mat, vp viewport, depth int) error {
	if depth > maxDepth+2 {
		return r.errAt(n, "", "elements nest deeper than %d", maxDepth)
	}
	switch n.name {
	case "defs", "pattern":
		return nil // drawn only where referenced
	}
	st, lp, err := r.cascade(n, parent)
	if err != nil {
		return err
	}
	if lp.hidden {
		return nil
	}
	if t, ok := n.attr("transform"); ok {
		tm, err := parseTransform(t)
		if err != nil {
			return r.errAt(n, "transform", "%v", err)
		}
		m = m.mul(tm)
	}
	if !m.finite() {
		return r.errAt(n, "transform", "the transform overflows")
	}
	switch n.name {
	case "g":
		return r.group(dst, lp.opacity, nil, func(dst *image.RGBA) error {
			return r.drawKids(dst, n, &st, m, vp, depth)
		})
	case "svg":
		return r.nestedSVG(dst, n, &st, lp, m, vp, depth)
	case "text":
		segs, err := r.textPath(n, &st)
		if err != nil {
			return err
		}
		return r.paintShape(dst, n, segs, false, &st, lp, m)
	}
	segs, err := r.shapeSegs(n, &st)
	if err != nil {
		return err
	}
	return r.paintShape(dst, n, segs, n.name == "line", &st, lp, m)
}

// group runs drawFn on a transparent layer and composites the layer onto
// dst with the given opacity, clipped to the device-space polygon clip when
// clip is not nil. With neither, drawFn draws straight into dst.
func (r *renderer) group(dst *image.RGBA, opacity float64, clip []pt, drawFn func(*image.RGBA) error) error {
	if opacity <= 0 {
		return nil
	}
	if opacity >= 1 && clip == nil {
		return drawFn(dst)
	}
	b := dst.Bounds()
	if clip != nil {
		cb := polyBounds(clip)
		round := [4]func(float64) float64{math.Floor, math.Floor, math.Ceil, math.Ceil}
		pixelBox := isPixelBox(clip)
		if pixelBox {
			round = [4]func(float64) float64{math.Round, math.Round, math.Round, math.Round}
		}
		// Clamp in float before converting, so that no coordinate overflows.
		cx := func(v float64) int { return int(math.Max(float64(b.Min.X), math.Min(float64(b.Max.X), v))) }
		cy := func(v float64) int { return int(math.Max(float64(b.Min.Y), math.Min(float64(b.Max.Y), v))) }
		b = image.Rect(cx(round[0](cb.x0)), cy(round[1](cb.y0)), cx(round[2](cb.x1)), cy(round[3](cb.y1)))
		if b.Empty() || !(cb.x0 <= cb.x1 && cb.y0 <= cb.y1) {
			return nil
		}
		// A clip on whole pixels needs no mask: draw into that part of dst.
		if opacity >= 1 && pixelBox {
			return drawFn(dst.SubImage(b).(*image.RGBA))
		}
	}
	layer := image.NewRGBA(b)
	if err := drawFn(layer); err != nil {
		return err
	}
	var mask image.Image
	if clip != nil {
		am := image.NewAlpha(b)
		r.rasterize(am, [][]pt{clip}, fill{c: color.NRGBA64{0xffff, 0xffff, 0xffff, 0xffff}})
		if opacity < 1 {
			k := uint32(math.Round(opacity * 255))
			for i, v := range am.Pix {
				am.Pix[i] = uint8((uint32(v)*k + 127) / 255)
			}
		}
		mask = am
	} else {
		mask = image.NewUniform(color.Alpha16{A: uint16(math.Round(opacity * 0xffff))})
	}
	draw.DrawMask(dst, b, layer, b.Min, mask, b.Min, draw.Over)
	return nil
}

// isPixelBox reports whether the quadrilateral q is an axis-aligned box
// with corners on whole pixels.
func isPixelBox(q []pt) bool {
	if len(q) != 4 {
		return false
	}
	b := polyBounds(q)
	whole := func(v float64) bool { return math.Abs(v-math.Round(v)) < 1e-6 }
	if !whole(b.x0) || !whole(b.y0) || !whole(b.x1) || !whole(b.y1) {
		return false
	}
	for _, p := range q {
		if (p.x != b.x0 && p.x != b.x1) || (p.y != b.y0 && p.y != b.y1) {
			return false
		}
	}
	return true
}

// viewBoxTransform maps a viewBox onto a w×h viewport at the origin,
// honouring preserveAspectRatio.
func viewBoxTransform(vb [4]float64, w, h float64, par string) (mat, error) {
	fields := strings.Fields(par)
	align, slice := "xMidYMid", false
	if len(fields) > 0 && fields[0] == "defer" {
		fields = fields[1:]
	}
	if len(fields) > 0 {
		align = fields[0]
	}
	if len(fields) > 1 {
		switch fields[1] {
		case "meet":
		case "slice":
			slice = true
		default:
			return mat{}, fmt.Errorf("bad preserveAspectRatio %q", par)
		}
	}
	if len(fields) > 2 {
		return mat{}, fmt.Errorf("bad preserveAspectRatio %q", par)
	}
	sx, sy := w/vb[2], h/vb[3]
	if align == "none" {
		return scaling(sx, sy).mul(translate(-vb[0], -vb[1])), nil
	}
	if len(align) != 8 || align[0] != 'x' || align[4] != 'Y' {
		return mat{}, fmt.Errorf("bad preserveAspectRatio %q", par)
	}
	pos := map[string]float64{"Min": 0, "Mid": 0.5, "Max": 1}
	ax, okx := pos[align[1:4]]
	ay, oky := pos[align[5:8]]
	if !okx || !oky {
		return mat{}, fmt.Errorf("bad preserveAspectRatio %q", par)
	}
	s := math.Min(sx, sy)
	if slice {
		s = math.Max(sx, sy)
	}
	tx := (w - vb[2]*s) * ax
	ty := (h - vb[3]*s) * ay
	return translate(tx, ty).mul(scaling(s, s)).mul(translate(-vb[0], -vb[1])), nil
}

// parseViewBox reads n's viewBox; ok is false when there is none.
func (r *renderer) parseViewBox(n *node) (vb [4]float64, ok bool, err error) {
	v, ok := n.attr("viewBox")
	if !ok {
		return vb, false, nil
	}
	nums, err := parseNumbers(v)
	if err != nil || len(nums) != 4 {
		return vb, false, r.errAt(n, "viewBox", "a viewBox is four numbers")
	}
	if nums[2] <= 0 || nums[3] <= 0 {
		return vb, false, r.errAt(n, "viewBox", "the viewBox's width and height must be positive")
	}
	copy(vb[:], nums)
	return vb, true, nil
}

// nestedSVG draws an inner <svg>: a new viewport at (x, y) of size
// width×height, its viewBox mapped onto it, clipped to it unless overflow
// is visible.
func (r *renderer) nestedSVG(dst *image.RGBA, n *node, st *style, lp local, m mat, vp viewport, depth int) error {
	x, err := r.lengthAttr(n, "x", st, vp.w, 0)
	if err != nil {
		return err
	}
	y, err := r.lengthAttr(n, "y", st, vp.h, 0)
	if err != nil {
		return err
	}
	w, err := r.lengthAttr(n, "width", st, vp.w, vp.w)
	if err != nil {
		return err
	}
	h, err := r.lengthAttr(n, "height", st, vp.h, vp.h)
	if err != nil {
		return err
	}
	if w < 0 || h < 0 {
		return r.errAt(n, "", "negative width or height")
	}
	if w == 0 || h == 0 {
		return nil
	}
	inner := m.mul(translate(x, y))
	ivp := viewport{w, h}
	vb, ok, err := r.parseViewBox(n)
	if err != nil {
		return err
	}
	if ok {
		par, _ := n.attr("preserveAspectRatio")
		t, err := viewBoxTransform(vb, w, h, par)
		if err != nil {
			return r.errAt(n, "preserveAspectRatio", "%v", err)
		}
		inner = inner.mul(t)
		ivp = viewport{vb[2], vb[3]}
	}
	var clip []pt
	switch lp.overflow {
	case "visible", "auto":
	default:
		for _, p := range []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}} {
			clip = append(clip, m.apply(p))
		}
	}
	return r.group(dst, lp.opacity, clip, func(dst *image.RGBA) error {
		return r.drawKids(dst, n, st, inner, ivp, depth)
	})
}

// shapeSegs builds the path of a basic shape or <path>.
func (r *renderer) shapeSegs(n *node, st *style) ([]seg, error) {
	var b pathBuilder
	num := func(name string) (float64, error) { return r.lengthAttr(n, name, st, -1, 0) }
	switch n.name {
	case "path":
		d, _ := n.attr("d")
		segs, err := parsePath(d)
		if err != nil {
			return nil, r.errAt(n, "d", "%v", err)
		}
		return segs, nil
	case "rect":
		x, err := num("x")
		if err != nil {
			return nil, err
		}
		y, err := num("y")
		if err != nil {
			return nil, err
		}
		w, err := r.nonNegative(n, "width", st, 0)
		if err != nil {
			return nil, err
		}
		h, err := r.nonNegative(n, "height", st, 0)
		if err != nil {
			return nil, err
		}
		rx, err := r.nonNegative(n, "rx", st, -1)
		if err != nil {
			return nil, err
		}
		ry, err := r.nonNegative(n, "ry", st, -1)
		if err != nil {
			return nil, err
		}
		if w == 0 || h == 0 {
			return nil, nil
		}
		if _, ok := n.attr("rx"); !ok {
			rx = ry
		}
		if _, ok := n.attr("ry"); !ok {
			ry = rx
		}
		rx, ry = math.Min(math.Max(rx, 0), w/2), math.Min(math.Max(ry, 0), h/2)
		if rx == 0 || ry == 0 {
			b.moveTo(pt{x, y})
			b.lineTo(pt{x + w, y})
			b.lineTo(pt{x + w, y + h})
			b.lineTo(pt{x, y + h})
			b.close()
			return b.segs, nil
		}
		b.moveTo(pt{x + rx, y})
		b.lineTo(pt{x + w - rx, y})
		b.arcTo(rx, ry, 0, false, true, pt{x + w, y + ry})
		b.lineTo(pt{x + w, y + h - ry})
		b.arcTo(rx, ry, 0, false, true, pt{x + w - rx, y + h})
		b.lineTo(pt{x + rx, y + h})
		b.arcTo(rx, ry, 0, false, true, pt{x, y + h - ry})
		b.lineTo(pt{x, y + ry})
		b.arcTo(rx, ry, 0, false, true, pt{x + rx, y})
		b.close()
		return b.segs, nil
	case "circle", "ellipse":
		cx, err := num("cx")
		if err != nil {
			return nil, err
		}
		cy, err := num("cy")
		if err != nil {
			return nil, err
		}
		var rx, ry float64
		if n.name == "circle" {
			if rx, err = r.nonNegative(n, "r", st, 0); err != nil {
				return nil, err
			}
			ry = rx
		} else {
			if rx, err = r.nonNegative(n, "rx", st, 0); err != nil {
				return nil, err
			}
			if ry, err = r.nonNegative(n, "ry", st, 0); err != nil {
				return nil, err
			}
		}
		if rx == 0 || ry == 0 {
			return nil, nil
		}
		b.ellipse(cx, cy, rx, ry)
		return b.segs, nil
	case "line":
		var c [4]float64
		for i, name := range []string{"x1", "y1", "x2", "y2"} {
			v, err := num(name)
			if err != nil {
				return nil, err
			}
			c[i] = v
		}
		b.moveTo(pt{c[0], c[1]})
		b.lineTo(pt{c[2], c[3]})
		return b.segs, nil
	case "polyline", "polygon":
		v, _ := n.attr("points")
		nums, err := parseNumbers(v)
		if err != nil {
			return nil, r.errAt(n, "points", "%v", err)
		}
		if len(nums)%2 == 1 {
			return nil, r.errAt(n, "points", "odd number of coordinates")
		}
		for i := 0; i+1 < len(nums); i += 2 {
			p := pt{nums[i], nums[i+1]}
			if i == 0 {
				b.moveTo(p)
			} else {
				b.lineTo(p)
			}
		}
		if n.name == "polygon" && len(nums) > 0 {
			b.close()
		}
		return b.segs, nil
	}
	return nil, r.errAt(n, "", "is not supported")
}

// paintShape fills and then strokes segs (user space) under m.
func (r *renderer) paintShape(dst *image.RGBA, n *node, segs []seg, noFill bool, st *style, lp local, m mat) error {
	if len(segs) == 0 || !st.visible || lp.opacity <= 0 {
		return nil
	}
	fillOn := !noFill && st.fill.kind != paintNone && st.fillOpacity > 0
	strokeOn := st.stroke.kind != paintNone && st.strokeOpacity > 0 && st.strokeWidth > 0
	if !fillOn && !strokeOn {
		return nil
	}
	opacity := lp.opacity
	if fillOn && strokeOn && opacity < 1 {
		// Fill and stroke overlap: composite them together.
		inner := lp
		inner.opacity = 1
		return r.group(dst, opacity, nil, func(dst *image.RGBA) error {
			return r.paintShape(dst, n, segs, noFill, st, inner, m)
		})
	}
	b := dst.Bounds()
	view := rect{float64(b.Min.X), float64(b.Min.Y), float64(b.Max.X), float64(b.Max.Y)}
	if fillOn {
		polys := flatten(segs, m, tol, true, view.grow(2))
		pp := make([][]pt, 0, len(polys))
		for _, p := range polys {
			pp = append(pp, p.pts)
		}
		if err := r.paint(dst, n, "fill", pp, st.fill, st, st.fillOpacity*opacity, m); err != nil {
			return err
		}
	}
	if strokeOn {
		ss := strokeStyle{
			hw:      st.strokeWidth / 2,
			cap:     st.linecap,
			join:    st.linejoin,
			miter:   st.miterLimit,
			dash:    st.dash,
			dashOff: st.dashOffset,
		}
		var out [][]pt
		var err error
		if lp.nonScaling {
			// The width (and the dashes) are in document px, whatever the
			// transform: stroke in device space.
			k := r.scale
			ss.hw *= k
			ss.dashOff *= k
			if ss.dash != nil {
				ss.dash = append([]float64(nil), ss.dash...)
				for i := range ss.dash {
					ss.dash[i] *= k
				}
			}
			ss.tol = tol
			polys := flatten(segs, m, tol, true, view.grow(ss.hw*2+2))
			out, err = strokePolys(polys, ss)
		} else {
			s := m.maxScale()
			if !(s > 0) {
				return nil
			}
			ss.tol = tol / s
			polys := flatten(segs, m, tol, false, view.grow(ss.hw*2*s+2))
			out, err = strokePolys(polys, ss)
			for _, p := range out {
				for i := range p {
					p[i] = m.apply(p[i])
				}
			}
		}
		if err != nil {
			return r.errAt(n, "stroke-dasharray", "%v", err)
		}
		if err := r.paint(dst, n, "stroke", out, st.stroke, st, st.strokeOpacity*opacity, m); err != nil {
			return err
		}
	}
	return nil
}

// paint fills device-space polygons with a paint at an opacity; m is the
// user space a pattern is laid out in.
func (r *renderer) paint(dst *image.RGBA, n *node, prop string, polys [][]pt, p paint, st *style, opacity float64, m mat) error {
	for _, q := range polys {
		for _, v := range q {
			if !finite(v.x) || !finite(v.y) {
				return r.errAt(n, "", "coordinates overflow")
			}
		}
	}
	switch p.kind {
	case paintColor, paintCurrent:
		c := p.c
		if p.kind == paintCurrent {
			c = st.color
		}
		a := c.a * opacity
		if a <= 0 {
			return nil
		}
		r.rasterize(dst, polys, fill{c: color.NRGBA64{
			R: uint16(c.r) * 0x101, G: uint16(c.g) * 0x101, B: uint16(c.b) * 0x101,
			A: uint16(math.Round(math.Min(a, 1) * 0xffff)),
		}})
	case paintPattern:
		tile, err := r.patternTile(p.pat, m)
		if err != nil {
			return err
		}
		if tile == nil {
			return nil
		}
		t := *tile
		t.opacity = opacity
		r.rasterize(dst, polys, fill{pattern: &t})
	}
	return nil
}
