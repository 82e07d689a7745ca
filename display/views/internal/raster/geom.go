package raster

import "math"

// pt is a point, in whichever space the caller says.
type pt struct{ x, y float64 }

// mat is the affine map (x, y) ↦ (a·x + c·y + e, b·x + d·y + f), SVG's
// matrix(a b c d e f).
//
// The products are converted explicitly before they are summed: a Go
// compiler may otherwise fuse them into multiply-adds on some architectures
// and the geometry would differ in its last bits from machine to machine.
type mat struct{ a, b, c, d, e, f float64 }

var identity = mat{a: 1, d: 1}

func (m mat) apply(p pt) pt {
	return pt{
		float64(m.a*p.x) + float64(m.c*p.y) + m.e,
		float64(m.b*p.x) + float64(m.d*p.y) + m.f,
	}
}

// mul returns m∘n: n is applied first.
func (m mat) mul(n mat) mat {
	return mat{
		a: float64(m.a*n.a) + float64(m.c*n.b),
		b: float64(m.b*n.a) + float64(m.d*n.b),
		c: float64(m.a*n.c) + float64(m.c*n.d),
		d: float64(m.b*n.c) + float64(m.d*n.d),
		e: float64(m.a*n.e) + float64(m.c*n.f) + m.e,
		f: float64(m.b*n.e) + float64(m.d*n.f) + m.f,
	}
}

func (m mat) det() float64 { return float64(m.a*m.d) - float64(m.b*m.c) }

// invert returns m's inverse; ok is false when m is (nearly) singular.
func (m mat) invert() (mat, bool) {
	det := m.det()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) || math.Abs(det) < 1e-300 {
		return mat{}, false
	}
	inv := mat{a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det}
	inv.e = -(float64(inv.a*m.e) + float64(inv.c*m.f))
	inv.f = -(float64(inv.b*m.e) + float64(inv.d*m.f))
	return inv, true
}

// maxScale is m's largest singular value: how much m stretches a length at
// most.
func (m mat) maxScale() float64 {
	t := float64(m.a*m.a) + float64(m.b*m.b) + float64(m.c*m.c) + float64(m.d*m.d)
	det := m.det()
	disc := float64(t*t) - float64(4*det*det)
	if disc < 0 {
		disc = 0
	}
	return math.Sqrt((t + math.Sqrt(disc)) / 2)
}

func translate(x, y float64) mat { return mat{a: 1, d: 1, e: x, f: y} }
func scaling(sx, sy float64) mat { return mat{a: sx, d: sy} }

func rotation(deg float64) mat {
	s, c := sincos(deg * math.Pi / 180)
	return mat{a: c, b: s, c: -s, d: c}
}

// sincos is math.Sincos with exact values at multiples of 90°, so that
// rotate(-90) text lands on whole pixels as it does in a browser.
func sincos(rad float64) (s, c float64) {
	q := rad / (math.Pi / 2)
	if r := math.Round(q); math.Abs(q-r) < 1e-12 {
		switch int64(math.Mod(r, 4)+4) % 4 {
		case 0:
			return 0, 1
		case 1:
			return 1, 0
		case 2:
			return 0, -1
		default:
			return -1, 0
		}
	}
	return math.Sincos(rad)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (m mat) finite() bool {
	return finite(m.a) && finite(m.b) && finite(m.c) && finite(m.d) && finite(m.e) && finite(m.f)
}

// rect is an axis-aligned box in float coordinates.
type rect struct{ x0, y0, x1, y1 float64 }

func emptyRect() rect {
	return rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
}

func (r *rect) add(p pt) {
	r.x0 = math.Min(r.x0, p.x)
	r.y0 = math.Min(r.y0, p.y)
	r.x1 = math.Max(r.x1, p.x)
	r.y1 = math.Max(r.y1, p.y)
}

func (r rect) overlaps(s rect) bool {
	return r.x0 <= s.x1 && s.x0 <= r.x1 && r.y0 <= s.y1 && s.y0 <= r.y1
}

func (r rect) inside(s rect) bool {
	return r.x0 >= s.x0 && r.x1 <= s.x1 && r.y0 >= s.y0 && r.y1 <= s.y1
}

func (r rect) grow(d float64) rect { return rect{r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d} }

func polyBounds(pts []pt) rect {
	b := emptyRect()
	for _, p := range pts {
		b.add(p)
	}
	return b
}

// signedArea is twice the shoelace area of the closed polygon pts.
func signedArea(pts []pt) float64 {
	var s float64
	for i := range pts {
		p, q := pts[i], pts[(i+1)%len(pts)]
		s += float64(p.x*q.y) - float64(q.x*p.y)
	}
	return s
}

// clip clips the closed polygon pts to the box c (Sutherland–Hodgman).
// Inside c the winding number of every point is unchanged, which is all the
// rasterizer needs; the edges it adds run along c's border. The result lives
// in k's scratch space until the next call.
func (k *clipper) clip(pts []pt, c rect) []pt {
	cur := append(k.a[:0], pts...)
	tmp := k.b
	for edge := 0; edge < 4 && len(cur) > 0; edge++ {
		in := func(p pt) bool {
			switch edge {
			case 0:
				return p.x >= c.x0
			case 1:
				return p.x <= c.x1
			case 2:
				return p.y >= c.y0
			}
			return p.y <= c.y1
		}
		cross := func(p, q pt) pt {
			var t float64
			switch edge {
			case 0:
				t = (c.x0 - p.x) / (q.x - p.x)
				return pt{c.x0, p.y + t*(q.y-p.y)}
			case 1:
				t = (c.x1 - p.x) / (q.x - p.x)
				return pt{c.x1, p.y + t*(q.y-p.y)}
			case 2:
				t = (c.y0 - p.y) / (q.y - p.y)
				return pt{p.x + t*(q.x-p.x), c.y0}
			}
			t = (c.y1 - p.y) / (q.y - p.y)
			return pt{p.x + t*(q.x-p.x), c.y1}
		}
		next := tmp[:0]
		for i := range cur {
			p, q := cur[i], cur[(i+1)%len(cur)]
			pin, qin := in(p), in(q)
			if pin {
				next = append(next, p)
			}
			// Interpolate from the inside end: from a far-away outside end
			// the result would lose all its precision.
			if pin && !qin {
				next = append(next, cross(p, q))
			} else if qin && !pin {
				next = append(next, cross(q, p))
			}
		}
		cur, tmp = next, cur
	}
	k.a, k.b = cur, tmp
	return cur
}

// clipper holds clipPoly's scratch buffers.
type clipper struct{ a, b []pt }
