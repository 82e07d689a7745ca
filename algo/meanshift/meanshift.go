// Package meanshift clusters numbers by mean shift with a Gaussian kernel:
// in one dimension on sorted data (near-linear, for the per-lane event
// clusters of a bundled timeline, paper 003 section V) and in two
// dimensions with an anisotropic bandwidth (for the upper levels of a
// cluster hierarchy, where the points are a few thousand cluster centres).
//
// It knows columns of float64 and nothing else: no traces, no lanes, no
// display. Every function is deterministic: the same input gives the same
// clusters, labels and centres, bit for bit.
//
// The kernel is a Gaussian exp(−d²/2σ²) truncated symmetrically at
// Cutoff·σ (Cutoff = 4; the weight lost there is e⁻⁸ ≈ 3·10⁻⁴ of the peak).
// Symmetric truncation keeps the centre of a symmetric group exactly at
// its middle.
package meanshift

import (
	"fmt"
	"math"
	"sort"
)

// Cutoff is the multiple of the bandwidth at which the Gaussian kernel is
// truncated: points farther than Cutoff·σ from the current position do
// not pull it.
const Cutoff = 4.0

// maxIter bounds the steps of each phase of one climb (a guard; climbs
// take about a dozen).
const maxIter = 1000

// stopShift is the step or bracket width (in units of σ) below which a
// climb stops.
const stopShift = 1e-12

// Result1D is the outcome of Cluster1D.
type Result1D struct {
	// Centres holds the cluster centres (modes of the kernel density),
	// ascending.
	Centres []float64
	// Labels holds, per input point, the index of its cluster in Centres.
	// Clusters are contiguous runs of the sorted input.
	Labels []int32
	// Sizes holds the total weight of each cluster (its point count when
	// weights are nil).
	Sizes []float64
}

// Cluster1D runs Gaussian mean shift with bandwidth σ on xs, which must be
// sorted ascending (no NaN). weights, when not nil, must have len(xs)
// non-negative finite entries; nil means every point weighs 1.
//
// Method. In 1-D every basin of attraction is an interval, so clusters
// are runs of the sorted data. Climb from the leftmost unassigned point to
// its mode m; every point up to m joins m's cluster. The following points
// join m while the mean shift at them points left; the first point whose
// shift points right (or nowhere: a lone point) starts the next climb.
// That point is found by probing ahead in steps of at most σ/2 (one shift
// evaluation per probe) and bisecting between the last left-pointing probe
// and the first other one, so a basin narrower than σ/2 squeezed between
// two probes is absorbed. After a gap of σ/2 or more between consecutive
// points a left-pointing shift is not trusted (a mode may sit in the gap,
// pulled off a lone point by its neighbours): the point climbs, and joins
// the current cluster only if its path goes back past the previous point.
// Modes closer than σ/2 to the previous one merge with it (the merged
// centre is the weight-averaged mode).
//
// A climb follows the mean-shift direction to the first zero of the
// density's derivative f′ there: steps of at least σ/16, doubling, at most
// σ/2, until the shift turns, then Newton's method on f′ inside that
// bracket (false position or bisection when Newton would leave it), to
// 10⁻¹²·σ. This lands on the mode textbook mean shift converges to (tested
// against a brute-force reference) in about a dozen window evaluations
// instead of hundreds on flat densities. Each evaluation uses the points
// within Cutoff·σ, found by binary search: with k points per window the
// cost is O((range/σ + g + modes·(12 + log n))·k + n), g being the number
// of points that follow a gap of σ/2 or more. Measured: 4,300 irregular
// points, 200σ wide, take about 1,000 window evaluations.
func Cluster1D(xs, weights []float64, bandwidth float64) (Result1D, error) {
	n := len(xs)
	if !(bandwidth > 0) || math.IsInf(bandwidth, 1) {
		return Result1D{}, fmt.Errorf("meanshift: bandwidth %v is not a positive finite number", bandwidth)
	}
	if weights != nil && len(weights) != n {
		return Result1D{}, fmt.Errorf("meanshift: %d weights for %d points", len(weights), n)
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(xs[i]) || math.IsInf(xs[i], 0) {
			return Result1D{}, fmt.Errorf("meanshift: point %d is %v", i, xs[i])
		}
		if i > 0 && xs[i] < xs[i-1] {
			return Result1D{}, fmt.Errorf("meanshift: points not sorted: x[%d] = %v < x[%d] = %v", i, xs[i], i-1, xs[i-1])
		}
		if weights != nil {
			if w := weights[i]; !(w >= 0) || math.IsInf(w, 1) {
				return Result1D{}, fmt.Errorf("meanshift: weight %d is %v, want a finite number ≥ 0", i, w)
			}
		}
	}
	res := Result1D{Labels: make([]int32, n)}
	if n == 0 {
		return res, nil
	}
	s := shifter{xs: xs, w: weights, sigma: bandwidth, reach: Cutoff * bandwidth, inv: 1 / (2 * bandwidth * bandwidth), exp: newExpTable()}
	mergeTol := bandwidth / 2
	var (
		modeSum  []float64 // Σ weight·mode per cluster, for merged centres
		nModes   []int     // modes merged into each cluster
		lastMode float64   // the latest mode of the current cluster
	)
	cur := -1 // current cluster
	join := func(i int, mode float64) {
		res.Labels[i] = int32(cur)
		res.Sizes[cur] += s.weight(i)
		modeSum[cur] += s.weight(i) * mode
	}
	for i := 0; i < n; {
		bigGap := i > 0 && xs[i]-xs[i-1] >= bandwidth/2
		if cur >= 0 && !bigGap && s.shiftSign(xs[i]) < 0 {
			// Probe ahead: j is the last point closer than σ/2 to x_i (so
			// no gap of σ/2 lies in between). If its shift points left
			// too, i…j all join cur.
			j := sort.SearchFloat64s(xs[i+1:], xs[i]+bandwidth/2) + i
			if j > i && s.shiftSign(xs[j]) >= 0 {
				// Bisect for the first non-left point in (i, j].
				lo, hi := i, j // sign(lo) < 0, sign(hi) ≥ 0
				for hi-lo > 1 {
					mid := (lo + hi) / 2
					if s.shiftSign(xs[mid]) < 0 {
						lo = mid
					} else {
						hi = mid
					}
				}
				j = lo
			}
			for k := i; k <= j; k++ {
				join(k, lastMode)
			}
			i = j + 1
			continue
		}
		bound := math.Inf(-1)
		if cur >= 0 {
			bound = xs[i-1]
		}
		m, crossed := s.climb(xs[i], bound)
		if crossed {
			// After a gap of σ/2 or more the climb went back past the
			// previous point: same basin as it.
			join(i, lastMode)
			i++
			continue
		}
		switch {
		case cur < 0 || m-lastMode > mergeTol:
			res.Centres = append(res.Centres, m)
			res.Sizes = append(res.Sizes, 0)
			modeSum = append(modeSum, 0)
			nModes = append(nModes, 1)
			cur = len(res.Centres) - 1
		case m != lastMode:
			nModes[cur]++
		}
		lastMode = m
		join(i, m) // m may lie left of x_i, in the gap before it
		for i++; i < n && xs[i] <= m; i++ {
			join(i, m)
		}
	}
	// A cluster with one mode keeps it exactly; a merged one gets the
	// weight-averaged mode.
	for c := range res.Centres {
		if nModes[c] > 1 && res.Sizes[c] > 0 {
			res.Centres[c] = modeSum[c] / res.Sizes[c]
		}
	}
	return res, nil
}

// shifter evaluates the truncated Gaussian mean shift on sorted data.
type shifter struct {
	xs, w        []float64
	sigma, reach float64
	inv          float64 // 1/(2σ²)
	exp          *expTable
}

// expSteps is the resolution of expTable.
const expSteps = 64

// expTable evaluates the kernel exp(−u), 0 ≤ u ≤ Cutoff²/2, as
// exp(−j/64)·exp(−r) with j = ⌊64u⌋: the first factor from a table of
// math.Exp values, the second (r < 1/64) from its degree-6 Taylor
// polynomial. Relative error below 4·10⁻¹⁶ (measured against math.Exp),
// about 1.5 times faster.
type expTable [expSteps*Cutoff*Cutoff/2 + 2]float64

func newExpTable() *expTable {
	t := new(expTable)
	for j := range t {
		t[j] = math.Exp(-float64(j) / expSteps)
	}
	return t
}

// at returns exp(−u) for 0 ≤ u ≤ Cutoff²/2, and 0 beyond.
func (t *expTable) at(u float64) float64 {
	v := u * expSteps
	j := int(v)
	if j >= len(t)-1 {
		return 0
	}
	r := (v - float64(j)) * (1.0 / expSteps)
	p := 1 - r*(1-r*0.5*(1-r*(1.0/3)*(1-r*0.25*(1-r*0.2*(1-r*(1.0/6))))))
	return t[j] * p
}

func (s *shifter) weight(i int) float64 {
	if s.w == nil {
		return 1
	}
	return s.w[i]
}

// window returns the index range [lo, hi) of points within reach of x.
func (s *shifter) window(x float64) (int, int) {
	lo := sort.SearchFloat64s(s.xs, x-s.reach)
	hi := lo + sort.Search(len(s.xs)-lo, func(k int) bool { return s.xs[lo+k] > x+s.reach })
	return lo, hi
}

// sums returns Σ w·K, Σ w·K·d and Σ w·K·d² over the window of x, with
// d = x_j − x.
func (s *shifter) sums(x float64) (den, num, sq float64) {
	lo, hi := s.window(x)
	for j := lo; j < hi; j++ {
		d := s.xs[j] - x
		k := s.exp.at(d * d * s.inv)
		if s.w != nil {
			k *= s.w[j]
		}
		den += k
		num += k * d
		sq += k * d * d
	}
	return den, num, sq
}

// shiftSign is the sign of the mean shift at x: −1 left, 0 none, +1 right.
func (s *shifter) shiftSign(x float64) int {
	lo, hi := s.window(x)
	var num float64
	for j := lo; j < hi; j++ {
		d := s.xs[j] - x
		k := s.exp.at(d * d * s.inv)
		if s.w != nil {
			k *= s.w[j]
		}
		num += k * d
	}
	switch {
	case num > 0:
		return 1
	case num < 0:
		return -1
	}
	return 0
}

// climb moves from x uphill to the nearest mode of the density f in the
// direction of the mean shift at x, and returns it. It follows the
// mean-shift direction with growing steps (the mean-shift step, doubled
// each time, capped at σ/4) until the shift changes direction, then finds
// the zero of f′ in that bracket by Newton's method on f′, falling back to
// bisection when a Newton step leaves the bracket or f is not concave.
// It stops when the bracket or the step is below 10⁻¹²·σ. If the path
// reaches bound or below, climb stops and reports crossed.
func (s *shifter) climb(x, bound float64) (mode float64, crossed bool) {
	den, num, sq := s.sums(x)
	if den == 0 || num == 0 {
		return x, false
	}
	dir := 1.0
	if num < 0 {
		dir = -1
	}
	tol := stopShift * s.sigma
	// Bracket: a has f′ pointing dir, b does not. Where f is concave at a
	// the step is Newton's, capped at σ/4, or the mean-shift step if
	// longer; where
	// f is convex (no mode within about σ: the density must turn concave
	// before it peaks) the step grows geometrically from σ/16, capped at
	// σ/4, and is at least the mean-shift step.
	a, b := x, x
	ga := num // Σw·K·d at a
	h := s.sigma / 16
	for it := 0; ; it++ {
		if it == maxIter {
			return a, false
		}
		ms := math.Abs(num / den)
		if ms <= tol {
			return a, false
		}
		step := ms
		if g1 := den - sq/(s.sigma*s.sigma); g1 > 0 {
			nt := math.Abs(num) / g1
			if nt <= tol {
				return a + dir*nt, false
			}
			step = math.Max(step, math.Min(nt, s.sigma/4))
		} else {
			step = math.Max(step, math.Min(h, s.sigma/4))
			h *= 2
		}
		b = a + dir*step
		if b <= bound {
			return b, true
		}
		den, num, sq = s.sums(b)
		if den > 0 && num*dir > 0 {
			a, ga = b, num
			continue
		}
		break
	}
	gb := num
	if den == 0 {
		gb = 0
	}
	if den > 0 && num == 0 {
		return b, false
	}
	// Refine in the bracket between a (f′ towards dir) and b.
	c := b
	side := 0 // which end moved last: +1 a, −1 b
	for it := 0; it < maxIter; it++ {
		var next float64
		newton := false
		if g1 := den - sq/(s.sigma*s.sigma); den > 0 && g1 > 0 {
			st := num / g1
			if math.Abs(st) <= tol {
				return c + st, false
			}
			next = c + st
			newton = (next-a)*dir > 0 && (b-next)*dir > 0
		}
		if !newton {
			// False position (Illinois), else bisection.
			next = (a + b) / 2
			if fp := (a*gb - b*ga) / (gb - ga); gb != ga && (fp-a)*dir > 0 && (b-fp)*dir > 0 {
				next = fp
			}
		}
		if math.Abs(b-a) <= tol {
			return next, false
		}
		c = next
		den, num, sq = s.sums(c)
		switch {
		case den > 0 && num == 0:
			return c, false
		case den > 0 && num*dir > 0:
			if side > 0 {
				gb /= 2
			}
			a, ga, side = c, num, 1
		default:
			if side < 0 {
				ga /= 2
			}
			b, gb, side = c, num, -1
			if den == 0 {
				gb = 0
			}
		}
	}
	return c, false
}
