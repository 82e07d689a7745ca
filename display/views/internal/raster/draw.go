package raster

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"
)

// tileSize bounds the rasterizer's area. golang.org/x/image/vector switches
// from integer to floating-point accumulation above 512 pixels; integer
// accumulation gives the same bytes on every machine, so shapes larger than
// a tile are drawn tile by tile.
const tileSize = 512

// fill is what rasterize paints with: a colour, or a pattern.
type fill struct {
	c       color.NRGBA64
	pattern *patternTile
}

// rasterize paints the union (nonzero winding) of the device-space polygons
// polys into dst, anti-aliased.
func (r *renderer) rasterize(dst draw.Image, polys [][]pt, f fill) {
	bb := emptyRect()
	boxes := make([]rect, len(polys))
	for i, p := range polys {
		boxes[i] = polyBounds(p)
		bb.x0 = math.Min(bb.x0, boxes[i].x0)
		bb.y0 = math.Min(bb.y0, boxes[i].y0)
		bb.x1 = math.Max(bb.x1, boxes[i].x1)
		bb.y1 = math.Max(bb.y1, boxes[i].y1)
	}
	db := dst.Bounds()
	// Clamp in float before converting, so that no coordinate overflows.
	clampX := func(v float64) int {
		return int(math.Max(float64(db.Min.X), math.Min(float64(db.Max.X), v)))
	}
	clampY := func(v float64) int {
		return int(math.Max(float64(db.Min.Y), math.Min(float64(db.Max.Y), v)))
	}
	if !(bb.x0 <= bb.x1 && bb.y0 <= bb.y1) {
		return
	}
	ib := image.Rect(clampX(math.Floor(bb.x0)), clampY(math.Floor(bb.y0)), clampX(math.Ceil(bb.x1)), clampY(math.Ceil(bb.y1)))
	if ib.Empty() {
		return
	}
	for ty := ib.Min.Y; ty < ib.Max.Y; ty += tileSize {
		for tx := ib.Min.X; tx < ib.Max.X; tx += tileSize {
			t := image.Rect(tx, ty, min(tx+tileSize, ib.Max.X), min(ty+tileSize, ib.Max.Y))
			if !r.fillTile(t, polys, boxes) {
				continue
			}
			mask := r.scratchMask(t.Dx(), t.Dy())
			r.z.DrawOp = draw.Src
			r.z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
			composite(dst, t, mask, f)
		}
	}
}

// composite paints f source-over into the rectangle t of dst through the
// coverage mask (whose origin is t.Min). Pixels the mask does not touch are
// skipped, which is most of a thin shape's bounding box.
func composite(dst draw.Image, t image.Rectangle, mask *image.Alpha, f fill) {
	sr, sg, sb, sa := f.c.RGBA()
	switch d := dst.(type) {
	case *image.RGBA:
		for y := 0; y < t.Dy(); y++ {
			mrow := mask.Pix[y*mask.Stride : y*mask.Stride+t.Dx()]
			i := d.PixOffset(t.Min.X, t.Min.Y+y)
			for x := 0; x < len(mrow); x++ {
				m := mrow[x]
				if m == 0 {
					// Skip empty runs eight pixels at a time.
					for x+8 < len(mrow) && binary.LittleEndian.Uint64(mrow[x+1:]) == 0 {
						x += 8
					}
					continue
				}
				if f.pattern != nil {
					sr, sg, sb, sa = f.pattern.at(t.Min.X+x, t.Min.Y+y)
				}
				p := d.Pix[i+4*x : i+4*x+4 : i+4*x+4]
				if m == 0xff && sa == 0xffff {
					p[0], p[1], p[2], p[3] = uint8(sr>>8), uint8(sg>>8), uint8(sb>>8), 0xff
					continue
				}
				// As image/draw and x/image/vector do it, in 16 bits.
				ma := uint32(m) * 0x101
				a := 0xffff - sa*ma/0xffff
				p[0] = uint8(((uint32(p[0])*0x101*a + sr*ma) / 0xffff) >> 8)
				p[1] = uint8(((uint32(p[1])*0x101*a + sg*ma) / 0xffff) >> 8)
				p[2] = uint8(((uint32(p[2])*0x101*a + sb*ma) / 0xffff) >> 8)
				p[3] = uint8(((uint32(p[3])*0x101*a + sa*ma) / 0xffff) >> 8)
			}
		}
	case *image.Alpha:
		for y := 0; y < t.Dy(); y++ {
			mrow := mask.Pix[y*mask.Stride : y*mask.Stride+t.Dx()]
			i := d.PixOffset(t.Min.X, t.Min.Y+y)
			for x, m := range mrow {
				if m == 0 {
					continue
				}
				ma := uint32(m) * 0x101
				a := 0xffff - sa*ma/0xffff
				d.Pix[i+x] = uint8(((uint32(d.Pix[i+x])*0x101*a + sa*ma) / 0xffff) >> 8)
			}
		}
	}
}

// fillTile loads the parts of polys that fall into the device rectangle t
// into the rasterizer; it reports whether any did. Polygons reaching out of
// the tile are clipped to it first: the rasterizer's fixed-point stepping
// drifts along long edges, and far-away coordinates would overflow it.
func (r *renderer) fillTile(t image.Rectangle, polys [][]pt, boxes []rect) bool {
	r.z.Reset(t.Dx(), t.Dy())
	ox, oy := float64(t.Min.X), float64(t.Min.Y)
	lim := rect{ox - 1, oy - 1, float64(t.Max.X) + 1, float64(t.Max.Y) + 1}
	some := false
	for i, p := range polys {
		if len(p) < 3 || !boxes[i].overlaps(lim) {
			continue
		}
		q := p
		if !boxes[i].inside(lim) {
			q = r.clip.clip(p, lim)
			if len(q) < 3 {
				continue
			}
		}
		r.z.MoveTo(quantize(q[0].x-ox), quantize(q[0].y-oy))
		for _, v := range q[1:] {
			r.z.LineTo(quantize(v.x-ox), quantize(v.y-oy))
		}
		r.z.ClosePath()
		some = true
	}
	return some
}

// quantize rounds a tile coordinate to 1/256 pixel. Geometry computed with
// different floating-point contractions on different machines then still
// reaches the rasterizer as the same numbers (short of landing exactly on a
// rounding boundary).
func quantize(v float64) float32 { return float32(math.Round(v*256) / 256) }

func (r *renderer) scratchMask(w, h int) *image.Alpha {
	n := w * h
	if r.mask == nil || cap(r.mask.Pix) < n {
		r.mask = &image.Alpha{Pix: make([]uint8, n)}
	}
	m := r.mask
	m.Pix = m.Pix[:n]
	clear(m.Pix)
	m.Stride = w
	m.Rect = image.Rect(0, 0, w, h)
	return m
}

// patternTile is one rendered tile of a pattern and the map from device
// pixels to it.
type patternTile struct {
	img     *image.RGBA // premultiplied, tw×th
	inv     mat         // device space → tile pixels
	opacity float64
}

// maxPatternNesting bounds patterns whose content uses other patterns, and
// maxPatternTiles the tiles one rendering may draw (patterns referring to
// patterns could otherwise multiply the work without bound).
const (
	maxPatternNesting = 4
	maxPatternTiles   = 2000
)

// tileKey identifies a drawn tile: a pattern and the linear part of the
// map from its user space to the device.
type tileKey struct {
	pat        *node
	a, b, c, d float64
}

// patternTile returns the pattern pat as seen from the user space that m
// maps to the device (patternUnits="userSpaceOnUse": the tile's x, y, width
// and height are in that user space, then patternTransform applies); nil
// means the pattern paints nothing. Tiles are drawn once per pattern and
// linear part of m: translations only move the tiling.
func (r *renderer) patternTile(pat *node, m mat) (*patternTile, error) {
	key := tileKey{pat, m.a, m.b, m.c, m.d}
	ti, ok := r.tiles[key]
	if !ok {
		if len(r.tiles) >= maxPatternTiles {
			return nil, r.errAt(pat, "id", "more than %d pattern tiles to draw", maxPatternTiles)
		}
		var err error
		if ti, err = r.drawTile(pat, mat{a: m.a, b: m.b, c: m.c, d: m.d}); err != nil {
			return nil, err
		}
		r.tiles[key] = ti
	}
	if ti == nil {
		return nil, nil
	}
	inv, ok := m.mul(ti.transform).invert()
	if !ok {
		return nil, nil
	}
	return &patternTile{img: ti.img, inv: ti.toTile.mul(inv)}, nil
}

// tileImage is a pattern's tile drawn for one linear transform.
type tileImage struct {
	img       *image.RGBA
	toTile    mat // pattern space → tile pixels
	transform mat // patternTransform
}

// drawTile draws one tile of pat at twice the device resolution under the
// linear map m, clipped to the tile's box as SVG clips pattern content.
func (r *renderer) drawTile(pat *node, m mat) (*tileImage, error) {
	if r.active[pat] {
		return nil, r.errAt(pat, "id", "the pattern uses itself")
	}
	if len(r.active) >= maxPatternNesting {
		return nil, r.errAt(pat, "id", "patterns nest deeper than %d", maxPatternNesting)
	}
	if u, _ := pat.attr("patternUnits"); u != "userSpaceOnUse" {
		return nil, r.errAt(pat, "patternUnits", "only patternUnits=\"userSpaceOnUse\" is supported")
	}
	if u, ok := pat.attr("patternContentUnits"); ok && u != "userSpaceOnUse" {
		return nil, r.errAt(pat, "patternContentUnits", "only userSpaceOnUse is supported")
	}
	if _, ok := pat.attr("viewBox"); ok {
		return nil, r.errAt(pat, "viewBox", "a pattern's viewBox is not supported")
	}
	st, err := r.styleOf(pat)
	if err != nil {
		return nil, err
	}
	var box [4]float64
	for i, name := range []string{"x", "y", "width", "height"} {
		if box[i], err = r.lengthAttr(pat, name, &st, -1, 0); err != nil {
			return nil, err
		}
	}
	x, y, w, h := box[0], box[1], box[2], box[3]
	if w < 0 || h < 0 {
		return nil, r.errAt(pat, "", "negative width or height")
	}
	if w == 0 || h == 0 {
		return nil, nil
	}
	ptm := identity
	if t, ok := pat.attr("patternTransform"); ok {
		if ptm, err = parseTransform(t); err != nil {
			return nil, r.errAt(pat, "patternTransform", "%v", err)
		}
	}
	k := 2 * m.mul(ptm).maxScale()
	size := func(v float64) int {
		return int(math.Max(2, math.Min(512, math.Ceil(v*k))))
	}
	tw, th := size(w), size(h)
	toTile := scaling(float64(tw)/w, float64(th)/h).mul(translate(-x, -y))
	if !toTile.finite() {
		return nil, nil
	}
	img := image.NewRGBA(image.Rect(0, 0, tw, th))
	r.active[pat] = true
	defer delete(r.active, pat)
	if err := r.drawKids(img, pat, &st, toTile, viewport{w, h}, 0); err != nil {
		return nil, err
	}
	return &tileImage{img: img, toTile: toTile, transform: ptm}, nil
}

// styleOf computes n's style from the root down (pattern content inherits
// from the pattern's ancestors, not from where the pattern is used).
func (r *renderer) styleOf(n *node) (style, error) {
	var chain []*node
	for p := n; p != nil; p = p.parent {
		chain = append(chain, p)
	}
	st := defaultStyle()
	for i := len(chain) - 1; i >= 0; i-- {
		next, _, err := r.cascade(chain[i], &st)
		if err != nil {
			return st, err
		}
		st = next
	}
	return st, nil
}

// at samples the tiled pattern at device pixel (x, y), premultiplied, in
// 16 bits: the mean of four bilinear samples, wrapping around the tile.
func (p *patternTile) at(x, y int) (r, g, b, a uint32) {
	tw, th := p.img.Rect.Dx(), p.img.Rect.Dy()
	ftw, fth := float64(tw), float64(th)
	pix, stride := p.img.Pix, p.img.Stride
	var acc [4]float64
	for _, o := range [4]pt{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
		q := p.inv.apply(pt{float64(x) + o.x, float64(y) + o.y})
		u, v := wrap(q.x-0.5, ftw), wrap(q.y-0.5, fth)
		x0, y0 := int(u), int(v)
		fx, fy := u-float64(x0), v-float64(y0)
		x1, y1 := x0+1, y0+1
		if x1 == tw {
			x1 = 0
		}
		if y1 == th {
			y1 = 0
		}
		r0, r1 := pix[y0*stride:], pix[y1*stride:]
		// (The conversions keep the products from fusing into
		// multiply-adds, which would change the rounding on some machines.)
		for c := 0; c < 4; c++ {
			top := float64(float64(r0[4*x0+c])*(1-fx)) + float64(float64(r0[4*x1+c])*fx)
			bot := float64(float64(r1[4*x0+c])*(1-fx)) + float64(float64(r1[4*x1+c])*fx)
			acc[c] += float64(top*(1-fy)) + float64(bot*fy)
		}
	}
	k := p.opacity * 0x101 / 4
	ch := func(v float64) uint32 { return uint32(math.Min(0xffff, math.Round(v*k))) }
	return ch(acc[0]), ch(acc[1]), ch(acc[2]), ch(acc[3])
}

// wrap reduces v into [0, n).
func wrap(v, n float64) float64 {
	v -= n * math.Floor(v/n)
	if !(v >= 0 && v < n) { // NaN, or rounding up to n
		return 0
	}
	return v
}
