package raster

import (
	"fmt"
	"math"
)

// seg is one absolute path segment in user space.
//
//	'M', 'L': p[0] is the end point
//	'Q':      p[0] control, p[1] end
//	'C':      p[0], p[1] controls, p[2] end
//	'A':      p[0] end; the arc in centre form: centre (cx, cy), radii rx, ry,
//	          x-axis rotation phi (radians), start angle t0, sweep dt (radians)
//	'Z':      closes the subpath
type seg struct {
	op                          byte
	p                           [3]pt
	cx, cy, rx, ry, phi, t0, dt float64
}

// pathBuilder collects segments and tracks the current point the way SVG
// does: after Z the current point is the subpath's start, and a drawing
// command there starts a new subpath.
type pathBuilder struct {
	segs       []seg
	cur, start pt
	open       bool // a subpath is open (a moveto was given since the last Z)
}

func (b *pathBuilder) moveTo(p pt) {
	b.segs = append(b.segs, seg{op: 'M', p: [3]pt{p}})
	b.cur, b.start, b.open = p, p, true
}

func (b *pathBuilder) ensureOpen() {
	if !b.open {
		b.moveTo(b.cur)
	}
}

func (b *pathBuilder) lineTo(p pt) {
	b.ensureOpen()
	b.segs = append(b.segs, seg{op: 'L', p: [3]pt{p}})
	b.cur = p
}

func (b *pathBuilder) quadTo(c, p pt) {
	b.ensureOpen()
	b.segs = append(b.segs, seg{op: 'Q', p: [3]pt{c, p}})
	b.cur = p
}

func (b *pathBuilder) cubeTo(c1, c2, p pt) {
	b.ensureOpen()
	b.segs = append(b.segs, seg{op: 'C', p: [3]pt{c1, c2, p}})
	b.cur = p
}

func (b *pathBuilder) close() {
	if b.open {
		b.segs = append(b.segs, seg{op: 'Z'})
	}
	b.cur, b.open = b.start, false
}

// arcTo adds an elliptical arc from the current point to p, converting SVG's
// endpoint parametrisation to centre form as the SVG specification's
// implementation notes (F.6.5, F.6.6) say: out-of-range radii are scaled up
// until the ellipse reaches, zero radii make a straight line, and an arc to
// the current point is dropped.
func (b *pathBuilder) arcTo(rx, ry, xrot float64, large, sweep bool, p pt) {
	b.ensureOpen()
	p1 := b.cur
	if p1 == p {
		return
	}
	rx, ry = math.Abs(rx), math.Abs(ry)
	if rx == 0 || ry == 0 {
		b.lineTo(p)
		return
	}
	phi := math.Mod(xrot, 360) * math.Pi / 180
	sinPhi, cosPhi := math.Sincos(phi)
	dx2, dy2 := (p1.x-p.x)/2, (p1.y-p.y)/2
	x1p := cosPhi*dx2 + sinPhi*dy2
	y1p := -sinPhi*dx2 + cosPhi*dy2
	// In units of the radii (which keeps huge radii from overflowing when
	// squared): lambda > 1 means the ellipse cannot reach, and the radii are
	// scaled up until it just does (F.6.6).
	xn, yn := x1p/rx, y1p/ry
	lambda := xn*xn + yn*yn
	coef := 0.0
	if lambda > 1 {
		s := math.Sqrt(lambda)
		rx, ry = rx*s, ry*s
		xn, yn = xn/s, yn/s
	} else {
		// F.6.5.2's square root, divided through by rx²·ry².
		coef = math.Sqrt((1 - lambda) / lambda)
	}
	if large == sweep {
		coef = -coef
	}
	// The centre, in the rotated frame.
	cxp := coef * rx * yn
	cyp := -coef * ry * xn
	cx := cosPhi*cxp - sinPhi*cyp + (p1.x+p.x)/2
	cy := sinPhi*cxp + cosPhi*cyp + (p1.y+p.y)/2
	ux, uy := xn-cxp/rx, yn-cyp/ry
	vx, vy := -xn-cxp/rx, -yn-cyp/ry
	t0 := math.Atan2(uy, ux)
	dt := math.Atan2(vy, vx) - t0
	if sweep && dt < 0 {
		dt += 2 * math.Pi
	} else if !sweep && dt > 0 {
		dt -= 2 * math.Pi
	}
	if !finite(cx) || !finite(cy) || !finite(t0) || !finite(dt) {
		b.lineTo(p)
		return
	}
	b.segs = append(b.segs, seg{op: 'A', p: [3]pt{p}, cx: cx, cy: cy, rx: rx, ry: ry, phi: phi, t0: t0, dt: dt})
	b.cur = p
}

// ellipse adds a closed ellipse (a circle when rx == ry) as one arc segment.
func (b *pathBuilder) ellipse(cx, cy, rx, ry float64) {
	start := pt{cx + rx, cy}
	b.moveTo(start)
	b.segs = append(b.segs, seg{op: 'A', p: [3]pt{start}, cx: cx, cy: cy, rx: rx, ry: ry, dt: 2 * math.Pi})
	b.close()
}

// arcPoint is the point at angle t on the arc's ellipse scaled by g about
// its centre.
func (s *seg) arcPoint(t, g float64) pt {
	sinT, cosT := math.Sincos(t)
	sinPhi, cosPhi := math.Sincos(s.phi)
	x, y := g*s.rx*cosT, g*s.ry*sinT
	return pt{s.cx + float64(cosPhi*x) - float64(sinPhi*y), s.cy + float64(sinPhi*x) + float64(cosPhi*y)}
}

// parsePath parses path data (every command of SVG 1.1, absolute and
// relative). It stops at the first error, which names the offending
// character's offset in d.
func parsePath(d string) ([]seg, error) {
	var b pathBuilder
	sc := scanner{s: d}
	var cmd byte
	var prevCmd byte // the previous command, upper case, for S and T
	var lastCtrl pt  // the previous curve's last control point
	first := true
	sc.skipSpace()
	for !sc.done() {
		c := d[sc.i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			pos := sc.i
			sc.i++
			switch c {
			case 'M', 'm', 'L', 'l', 'H', 'h', 'V', 'v', 'C', 'c', 'S', 's', 'Q', 'q', 'T', 't', 'A', 'a', 'Z', 'z':
			default:
				return b.segs, fmt.Errorf("unknown command %q at %d", c, pos)
			}
			if first && c != 'M' && c != 'm' {
				return b.segs, fmt.Errorf("path data must start with M or m, not %q at %d", c, pos)
			}
			first = false
			cmd = c
			if c == 'Z' || c == 'z' {
				b.close()
				prevCmd = 'Z'
				sc.skipSep()
				continue
			}
		case cmd == 0:
			return b.segs, fmt.Errorf("path data must start with M or m, not %q at %d", c, sc.i)
		case cmd == 'Z' || cmd == 'z':
			return b.segs, fmt.Errorf("expected a command at %d, found %q", sc.i, c)
		}
		sc.skipSpace()
		rel := cmd >= 'a'
		base := b.cur
		if !rel {
			base = pt{}
		}
		var err error
		num := func() float64 {
			if err != nil {
				return 0
			}
			var v float64
			v, err = sc.number()
			sc.skipSep()
			return v
		}
		pair := func() pt {
			x := num()
			y := num()
			return pt{base.x + x, base.y + y}
		}
		flag := func() bool {
			if err != nil {
				return false
			}
			if sc.done() || (d[sc.i] != '0' && d[sc.i] != '1') {
				err = fmt.Errorf("expected an arc flag (0 or 1) at %d", sc.i)
				return false
			}
			f := d[sc.i] == '1'
			sc.i++
			sc.skipSep()
			return f
		}
		upper := cmd &^ 0x20
		switch upper {
		case 'M':
			p := pair()
			if err == nil {
				b.moveTo(p)
				// Further pairs are implicit linetos.
				cmd = 'L' | cmd&0x20
			}
		case 'L':
			p := pair()
			if err == nil {
				b.lineTo(p)
			}
		case 'H':
			x := num()
			if err == nil {
				b.lineTo(pt{base.x + x, b.cur.y})
			}
		case 'V':
			y := num()
			if err == nil {
				b.lineTo(pt{b.cur.x, base.y + y})
			}
		case 'C':
			c1, c2, p := pair(), pair(), pair()
			if err == nil {
				b.cubeTo(c1, c2, p)
				lastCtrl = c2
			}
		case 'S':
			c2, p := pair(), pair()
			if err == nil {
				c1 := b.cur
				if prevCmd == 'C' || prevCmd == 'S' {
					c1 = pt{2*b.cur.x - lastCtrl.x, 2*b.cur.y - lastCtrl.y}
				}
				b.cubeTo(c1, c2, p)
				lastCtrl = c2
			}
		case 'Q':
			c1, p := pair(), pair()
			if err == nil {
				b.quadTo(c1, p)
				lastCtrl = c1
			}
		case 'T':
			p := pair()
			if err == nil {
				c1 := b.cur
				if prevCmd == 'Q' || prevCmd == 'T' {
					c1 = pt{2*b.cur.x - lastCtrl.x, 2*b.cur.y - lastCtrl.y}
				}
				b.quadTo(c1, p)
				lastCtrl = c1
			}
		case 'A':
			rx, ry, rot := num(), num(), num()
			large, sweep := flag(), flag()
			p := pair()
			if err == nil {
				b.arcTo(rx, ry, rot, large, sweep, p)
			}
		}
		if err != nil {
			return b.segs, err
		}
		prevCmd = upper
		if upper == 'M' {
			prevCmd = 'L'
		}
		if !sc.done() && !sc.startsNumber() {
			c := d[sc.i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return b.segs, fmt.Errorf("unexpected %q at %d", c, sc.i)
			}
		}
	}
	return b.segs, nil
}

// poly is a flattened subpath.
type poly struct {
	pts    []pt
	closed bool
}

// maxCurveSegs bounds how many line segments one curve becomes.
const maxCurveSegs = 2048

// flatten turns segs into polylines whose distance from the true curves is
// at most tol device pixels under m. With dev the points are in device space
// (m applied), otherwise in user space. Curves whose control points lie
// wholly outside cull (device space) become straight lines: between such a
// curve and its chord no visible pixel changes winding number. A subpath
// with no drawing command (a lone moveto) is dropped; a zero-length one is
// kept as a single point, since round and square caps draw it.
func flatten(segs []seg, m mat, tol float64, dev bool, cull rect) []poly {
	var out []poly
	var cur []pt
	drawn := false
	sMax := m.maxScale()
	emit := func(p pt) {
		if dev {
			p = m.apply(p)
		}
		if n := len(cur); n > 0 && cur[n-1] == p {
			return
		}
		cur = append(cur, p)
	}
	finish := func(closed bool) {
		if drawn && len(cur) > 0 {
			out = append(out, poly{pts: cur, closed: closed})
		}
		cur, drawn = nil, false
	}
	var cp pt
	for i := range segs {
		s := &segs[i]
		switch s.op {
		case 'M':
			finish(false)
			emit(s.p[0])
			cp = s.p[0]
		case 'L':
			emit(s.p[0])
			drawn = true
			cp = s.p[0]
		case 'Q':
			d0, d1, d2 := m.apply(cp), m.apply(s.p[0]), m.apply(s.p[1])
			n := 1
			if b := polyBounds([]pt{d0, d1, d2}); b.overlaps(cull) {
				l := math.Hypot(d0.x-2*d1.x+d2.x, d0.y-2*d1.y+d2.y)
				n = segCount(math.Sqrt(l / (4 * tol)))
			}
			for k := 1; k < n; k++ {
				t := float64(k) / float64(n)
				u := 1 - t
				emit(pt{
					float64(u*u*cp.x) + float64(2*u*t*s.p[0].x) + float64(t*t*s.p[1].x),
					float64(u*u*cp.y) + float64(2*u*t*s.p[0].y) + float64(t*t*s.p[1].y),
				})
			}
			emit(s.p[1])
			drawn = true
			cp = s.p[1]
		case 'C':
			d0, d1, d2, d3 := m.apply(cp), m.apply(s.p[0]), m.apply(s.p[1]), m.apply(s.p[2])
			n := 1
			if b := polyBounds([]pt{d0, d1, d2, d3}); b.overlaps(cull) {
				l := math.Max(
					math.Hypot(d0.x-2*d1.x+d2.x, d0.y-2*d1.y+d2.y),
					math.Hypot(d1.x-2*d2.x+d3.x, d1.y-2*d2.y+d3.y))
				n = segCount(math.Sqrt(0.75 * l / tol))
			}
			for k := 1; k < n; k++ {
				t := float64(k) / float64(n)
				u := 1 - t
				a, bb, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
				emit(pt{
					float64(a*cp.x) + float64(bb*s.p[0].x) + float64(c*s.p[1].x) + float64(d*s.p[2].x),
					float64(a*cp.y) + float64(bb*s.p[0].y) + float64(c*s.p[1].y) + float64(d*s.p[2].y),
				})
			}
			emit(s.p[2])
			drawn = true
			cp = s.p[2]
		case 'A':
			r := math.Max(s.rx, s.ry) * sMax
			c := m.apply(pt{s.cx, s.cy})
			n := 1
			if (rect{c.x - r, c.y - r, c.x + r, c.y + r}).overlaps(cull) {
				step := math.Pi / 2
				if r > tol {
					step = math.Min(step, 2*math.Acos(1-tol/r))
				}
				n = segCount(math.Abs(s.dt) / step)
			}
			// Inner points sit slightly outside the ellipse, so that the
			// polygon's area equals the ellipse's instead of falling short
			// (an inscribed 9-gon loses 8% of a small circle).
			g := areaGain(math.Abs(s.dt) / float64(n))
			for k := 1; k < n; k++ {
				emit(s.arcPoint(s.t0+s.dt*float64(k)/float64(n), g))
			}
			emit(s.p[0])
			drawn = true
			cp = s.p[0]
		case 'Z':
			drawn = true
			finish(true)
		}
	}
	finish(false)
	return out
}

func segCount(v float64) int {
	if !(v > 1) {
		return 1
	}
	if v >= maxCurveSegs {
		return maxCurveSegs
	}
	return int(math.Ceil(v))
}

// areaGain is the factor by which to push the vertices of a polygon
// approximating a circle out, step radians apart, so that the polygon and
// the circle have equal areas: a sector's triangle has area r²·sin(step)/2,
// the sector r²·step/2.
func areaGain(step float64) float64 {
	if !(step > 1e-6) || step >= math.Pi {
		return 1
	}
	return math.Sqrt(step / math.Sin(step))
}
