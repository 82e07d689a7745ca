package raster

import (
	"errors"
	"math"
)

const (
	capButt = iota
	capRound
	capSquare
)

const (
	joinMiter = iota
	joinRound
	joinBevel
)

// strokeStyle says how to outline polylines. All lengths are in the space of
// the polylines (user space, or device space for non-scaling strokes).
type strokeStyle struct {
	hw      float64 // half the stroke width
	cap     int
	join    int
	miter   float64 // miter limit
	tol     float64 // flattening tolerance for round joins and caps
	dash    []float64
	dashOff float64
}

// maxDashes bounds how many dashes one stroke may have.
const maxDashes = 200000

var errTooManyDashes = errors.New("stroke-dasharray makes more than 200000 dashes")

// strokePolys outlines polys as polygons whose union is the stroke: one quad
// per segment, a wedge per join, a cap per open end. Every polygon has the
// same orientation, so that where they overlap the rasterizer's winding sums
// add up instead of cancelling.
func strokePolys(polys []poly, ss strokeStyle) ([][]pt, error) {
	var out outline
	out.ss = ss
	eps := ss.tol * 1e-3
	dashes := 0
	for _, p := range polys {
		pts := dedupe(p.pts, p.closed, eps)
		if len(ss.dash) > 0 && len(pts) > 1 {
			pieces, n, err := dashPoly(pts, p.closed, ss.dash, ss.dashOff, maxDashes-dashes)
			if err != nil {
				return nil, err
			}
			dashes += n
			for _, d := range pieces {
				out.strokeOne(dedupe(d, false, eps), false)
			}
			continue
		}
		out.strokeOne(pts, p.closed)
	}
	return out.polys, nil
}

// dedupe drops points closer than eps to their predecessor (and, for closed
// polylines, a last point equal to the first).
func dedupe(pts []pt, closed bool, eps float64) []pt {
	out := make([]pt, 0, len(pts))
	for _, p := range pts {
		if n := len(out); n > 0 && math.Abs(p.x-out[n-1].x) <= eps && math.Abs(p.y-out[n-1].y) <= eps {
			continue
		}
		out = append(out, p)
	}
	if closed && len(out) > 1 {
		if f, l := out[0], out[len(out)-1]; math.Abs(f.x-l.x) <= eps && math.Abs(f.y-l.y) <= eps {
			out = out[:len(out)-1]
		}
	}
	return out
}

// dashPoly cuts a polyline into dashes. limit bounds the number of dashes;
// n is how many it made.
func dashPoly(pts []pt, closed bool, dash []float64, offset float64, limit int) (out [][]pt, n int, err error) {
	period := 0.0
	for _, d := range dash {
		period += d
	}
	if !(period > 0) || !finite(period) {
		return [][]pt{pts}, 0, nil
	}
	if closed {
		pts = append(pts[:len(pts):len(pts)], pts[0])
	}
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += math.Hypot(pts[i].x-pts[i-1].x, pts[i].y-pts[i-1].y)
	}
	if total/period*float64(len(dash)) > float64(limit) {
		return nil, 0, errTooManyDashes
	}
	// Find where the pattern starts.
	i := 0
	rem := dash[0]
	off := math.Mod(offset, period)
	if off < 0 {
		off += period
	}
	for off > 0 {
		if off >= rem {
			off -= rem
			i = (i + 1) % len(dash)
			rem = dash[i]
		} else {
			rem -= off
			off = 0
		}
	}
	on := i%2 == 0
	var cur []pt
	if on {
		cur = []pt{pts[0]}
	}
	for k := 0; k+1 < len(pts); k++ {
		a, b := pts[k], pts[k+1]
		segLen := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for segLen-pos > rem {
			pos += rem
			t := pos / segLen
			q := pt{a.x + t*(b.x-a.x), a.y + t*(b.y-a.y)}
			if on {
				out = append(out, append(cur, q))
				cur = nil
				n++
				if n > limit {
					return nil, n, errTooManyDashes
				}
			} else {
				cur = []pt{q}
			}
			on = !on
			i = (i + 1) % len(dash)
			rem = dash[i]
		}
		rem -= segLen - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 0 {
		out = append(out, cur)
		n++
	}
	return out, n, nil
}

// outline accumulates stroke polygons.
type outline struct {
	ss    strokeStyle
	polys [][]pt
}

// add appends a polygon, reversed if needed so that every polygon winds the
// same way. Degenerate polygons are dropped.
func (o *outline) add(pts []pt) {
	a := signedArea(pts)
	if !(math.Abs(a) > 0) {
		return
	}
	if a > 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	o.polys = append(o.polys, pts)
}

// arc returns points on the circle of radius hw around c from angle a0
// sweeping da (radians), both ends included.
func (o *outline) arc(c pt, a0, da float64) []pt {
	hw := o.ss.hw
	step := math.Pi / 4
	if hw > o.ss.tol {
		step = math.Min(step, 2*math.Acos(1-o.ss.tol/hw))
	}
	n := segCount(math.Abs(da) / step)
	g := areaGain(math.Abs(da) / float64(n))
	pts := make([]pt, 0, n+2)
	for k := 0; k <= n; k++ {
		s, co := math.Sincos(a0 + da*float64(k)/float64(n))
		r := hw * g
		if k == 0 || k == n {
			r = hw // the ends meet the segments' quads
		}
		pts = append(pts, pt{c.x + r*co, c.y + r*s})
	}
	return pts
}

func (o *outline) strokeOne(pts []pt, closed bool) {
	hw := o.ss.hw
	n := len(pts)
	if n == 0 {
		return
	}
	if n == 1 {
		// A zero-length subpath: only caps show.
		p := pts[0]
		switch o.ss.cap {
		case capRound:
			o.add(o.arc(p, 0, 2*math.Pi))
		case capSquare:
			o.add([]pt{{p.x - hw, p.y - hw}, {p.x + hw, p.y - hw}, {p.x + hw, p.y + hw}, {p.x - hw, p.y + hw}})
		}
		return
	}
	segs := n - 1
	if closed {
		segs = n
	}
	dirs := make([]pt, segs)
	for i := 0; i < segs; i++ {
		a, b := pts[i], pts[(i+1)%n]
		l := math.Hypot(b.x-a.x, b.y-a.y)
		d := pt{(b.x - a.x) / l, (b.y - a.y) / l}
		dirs[i] = d
		nx, ny := -d.y*hw, d.x*hw
		o.add([]pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
	}
	if closed {
		for i := 0; i < n; i++ {
			o.joinAt(pts[i], dirs[(i-1+segs)%segs], dirs[i])
		}
		return
	}
	for i := 1; i < n-1; i++ {
		o.joinAt(pts[i], dirs[i-1], dirs[i])
	}
	o.capAt(pts[0], pt{-dirs[0].x, -dirs[0].y})
	o.capAt(pts[n-1], dirs[segs-1])
}

// capAt draws the cap at end point p of a stroke leaving in direction d.
func (o *outline) capAt(p, d pt) {
	hw := o.ss.hw
	nx, ny := -d.y*hw, d.x*hw
	switch o.ss.cap {
	case capRound:
		a0 := math.Atan2(ny, nx)
		o.add(append(o.arc(p, a0, -math.Pi), p))
	case capSquare:
		ex, ey := d.x*hw, d.y*hw
		o.add([]pt{{p.x + nx, p.y + ny}, {p.x + nx + ex, p.y + ny + ey}, {p.x - nx + ex, p.y - ny + ey}, {p.x - nx, p.y - ny}})
	}
}

// joinAt fills the gap on the outer side of the corner at p between a
// segment arriving in direction d1 and one leaving in direction d2.
func (o *outline) joinAt(p, d1, d2 pt) {
	hw := o.ss.hw
	cosA := d1.x*d2.x + d1.y*d2.y
	cross := d1.x*d2.y - d1.y*d2.x
	if cross == 0 && cosA > 0 {
		return
	}
	s := hw
	if cross > 0 {
		s = -hw
	}
	n1 := pt{-d1.y, d1.x}
	n2 := pt{-d2.y, d2.x}
	a := pt{p.x + s*n1.x, p.y + s*n1.y}
	b := pt{p.x + s*n2.x, p.y + s*n2.y}
	half := math.Sqrt(math.Max(0, (1+cosA)/2)) // cos of half the turning angle
	switch o.ss.join {
	case joinRound:
		if hw*(1-half) <= o.ss.tol {
			break // the wedge is as good as the arc
		}
		a0 := math.Atan2(a.y-p.y, a.x-p.x)
		da := math.Atan2(b.y-p.y, b.x-p.x) - a0
		for da > math.Pi {
			da -= 2 * math.Pi
		}
		for da < -math.Pi {
			da += 2 * math.Pi
		}
		o.add(append(o.arc(p, a0, da), p))
		return
	case joinMiter:
		if half > 1e-9 && 1/half <= o.ss.miter {
			bx, by := n1.x+n2.x, n1.y+n2.y
			l := math.Hypot(bx, by)
			k := s / half / l
			tip := pt{p.x + bx*k, p.y + by*k}
			o.add([]pt{p, a, tip, b})
			return
		}
	}
	o.add([]pt{p, a, b})
}
