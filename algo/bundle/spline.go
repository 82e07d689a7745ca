package bundle

import (
	"fmt"
	"math"
)

// MaxDegree is the highest B-spline degree accepted.
const MaxDegree = 5

// Quad is one quadratic Bézier piece: from P0 with control C to P1 (SVG
// "M P0 Q C P1", canvas quadraticCurveTo(C, P1)).
type Quad struct{ P0, C, P1 Point }

// At evaluates the piece at t ∈ [0, 1].
func (q Quad) At(t float64) Point {
	s := 1 - t
	return Point{
		s*s*q.P0.X + 2*s*t*q.C.X + t*t*q.P1.X,
		s*s*q.P0.Y + 2*s*t*q.C.Y + t*t*q.P1.Y,
	}
}

// XRange returns the exact smallest and largest x the piece reaches
// (its ends and, if inside, the extremum where x′(t) = 0).
func (q Quad) XRange() (lo, hi float64) {
	lo, hi = math.Min(q.P0.X, q.P1.X), math.Max(q.P0.X, q.P1.X)
	den := q.P0.X - 2*q.C.X + q.P1.X
	if den != 0 {
		t := (q.P0.X - q.C.X) / den
		if t > 0 && t < 1 {
			x := q.At(t).X
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi
}

func mid(a, b Point) Point { return Point{(a.X + b.X) / 2, (a.Y + b.Y) / 2} }

// EffectiveDegree is the degree actually used for a polygon of n points:
// degree clamped to n − 1 (a B-spline of degree p needs p + 1 points).
func EffectiveDegree(degree, n int) int {
	if degree > n-1 {
		return n - 1
	}
	return degree
}

// QuadChain returns the uniform clamped quadratic B-spline of poly as a
// chain of n − 2 quadratic Béziers: P0 → M(P1,P2) with control P1, then
// M(P_i,P_{i+1}) → M(P_{i+1},P_{i+2}) with control P_{i+1}, the last ending
// exactly at P_{n−1}. Two points give one straight piece (control at their
// midpoint). Fewer than two points is an error.
func QuadChain(poly []Point) ([]Quad, error) {
	n := len(poly)
	switch {
	case n < 2:
		return nil, fmt.Errorf("bundle: control polygon of %d points, want ≥ 2", n)
	case n == 2:
		return []Quad{{poly[0], mid(poly[0], poly[1]), poly[1]}}, nil
	}
	out := make([]Quad, 0, n-2)
	for i := 0; i < n-2; i++ {
		a, b := mid(poly[i], poly[i+1]), mid(poly[i+1], poly[i+2])
		if i == 0 {
			a = poly[0]
		}
		if i == n-3 {
			b = poly[n-1]
		}
		out = append(out, Quad{a, poly[i+1], b})
	}
	return out, nil
}

// InteriorQuads returns the pieces of the quadratic chain of
// send, interior…, recv that depend only on the interior (m points, m ≥ 2):
// the m − 2 pieces from M(I0,I1) to M(I_{m−2},I_{m−1}). They are shared by
// every message routed through the same interior.
func InteriorQuads(interior []Point) []Quad {
	m := len(interior)
	if m < 3 {
		return nil
	}
	out := make([]Quad, 0, m-2)
	for i := 0; i < m-2; i++ {
		out = append(out, Quad{mid(interior[i], interior[i+1]), interior[i+1], mid(interior[i+1], interior[i+2])})
	}
	return out
}

// EndQuads returns the two pieces of the quadratic chain of
// send, interior…, recv that depend on the message's own end points:
// send → M(I0,I1) with control I0, and M(I_{m−2},I_{m−1}) → recv with
// control I_{m−1}. With InteriorQuads between them they are exactly
// QuadChain of the whole polygon. The interior needs m ≥ 2 points.
func EndQuads(send Point, interior []Point, recv Point) (head, tail Quad, err error) {
	m := len(interior)
	if m < 2 {
		return Quad{}, Quad{}, fmt.Errorf("bundle: interior route of %d points, want ≥ 2", m)
	}
	head = Quad{send, interior[0], mid(interior[0], interior[1])}
	tail = Quad{mid(interior[m-2], interior[m-1]), interior[m-1], recv}
	return head, tail, nil
}

// SampleBSpline returns k ≥ 2 points of the uniform clamped B-spline of the
// given degree (1…MaxDegree, clamped to len(poly) − 1) at equally spaced
// parameters, by de Boor's algorithm. The first sample is exactly poly[0]
// and the last exactly poly[len−1].
func SampleBSpline(poly []Point, degree, k int) ([]Point, error) {
	n := len(poly)
	if n < 2 {
		return nil, fmt.Errorf("bundle: control polygon of %d points, want ≥ 2", n)
	}
	if degree < 1 || degree > MaxDegree {
		return nil, fmt.Errorf("bundle: spline degree %d, want 1…%d", degree, MaxDegree)
	}
	if k < 2 {
		return nil, fmt.Errorf("bundle: %d samples, want ≥ 2", k)
	}
	p := EffectiveDegree(degree, n)
	// Knots u_0…u_{n+p}: p+1 zeros, 1…n−p−1, p+1 times n−p.
	knot := func(i int) float64 {
		switch {
		case i <= p:
			return 0
		case i >= n:
			return float64(n - p)
		}
		return float64(i - p)
	}
	tmax := float64(n - p)
	out := make([]Point, k)
	d := make([]Point, p+1)
	for s := 0; s < k; s++ {
		t := tmax * float64(s) / float64(k-1)
		span := p + int(t) // u_span ≤ t < u_{span+1}
		if span > n-1 {
			span = n - 1
		}
		copy(d, poly[span-p:span+1])
		for r := 1; r <= p; r++ {
			for j := p; j >= r; j-- {
				i := j + span - p
				a := (t - knot(i)) / (knot(i+p-r+1) - knot(i))
				d[j] = Point{(1-a)*d[j-1].X + a*d[j].X, (1-a)*d[j-1].Y + a*d[j].Y}
			}
		}
		out[s] = d[p]
	}
	out[0], out[k-1] = poly[0], poly[n-1]
	return out, nil
}

// Overshoot measures how far the spline of poly (degree clamped as in
// SampleBSpline) goes in x beyond [min(x0, xn), max(x0, xn)] of its end
// points: left excess + right excess. Exact for degree 1 (the polygon)
// and 2 (via the Bézier pieces' x extrema); for degrees 3…5 it is taken
// from 64 samples per polygon point, a lower bound.
func Overshoot(poly []Point, degree int) (float64, error) {
	n := len(poly)
	if n < 2 {
		return 0, fmt.Errorf("bundle: control polygon of %d points, want ≥ 2", n)
	}
	if degree < 1 || degree > MaxDegree {
		return 0, fmt.Errorf("bundle: spline degree %d, want 1…%d", degree, MaxDegree)
	}
	lo := math.Min(poly[0].X, poly[n-1].X)
	hi := math.Max(poly[0].X, poly[n-1].X)
	minX, maxX := lo, hi
	switch EffectiveDegree(degree, n) {
	case 1:
		for _, q := range poly {
			minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
		}
	case 2:
		qs, _ := QuadChain(poly)
		for _, q := range qs {
			a, b := q.XRange()
			minX, maxX = math.Min(minX, a), math.Max(maxX, b)
		}
	default:
		pts, err := SampleBSpline(poly, degree, 64*n)
		if err != nil {
			return 0, err
		}
		for _, q := range pts {
			minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
		}
	}
	return (lo - minX) + (maxX - hi), nil
}
