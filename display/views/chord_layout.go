package views

import (
	"math"
)

// Interval is an angular interval in radians, clockwise from 12 o'clock.
type Interval struct{ Start, End float64 }

// Len is the interval's angle.
func (i Interval) Len() float64 { return i.End - i.Start }

// Mid is the interval's middle angle.
func (i Interval) Mid() float64 { return (i.Start + i.End) / 2 }

// ChordArc is the arc of one unit: incoming traffic first, then outgoing,
// clockwise, so In.End == Out.Start. Each interval's angle is proportional
// to the unit's total traffic in that direction (self traffic excluded).
type ChordArc struct {
	In, Out Interval
	// Thickness is the arc's radial thickness relative to the thickest arc
	// of any frame: MinChordThickness with no self traffic, growing linearly
	// to 1 for the largest self traffic of all units and frames. The part
	// above MinChordThickness is the self band, drawn dark over the whole
	// arc, so its height is in proportion to the unit's self traffic.
	Thickness float64
	// InTotal, OutTotal and Self are the unit's traffic from others, to
	// others and with itself.
	InTotal, OutTotal, Self float64
}

// ChordRibbon is the traffic from Src to Dst (Src ≠ Dst). Its ends have the
// same angle, proportional to Weight: Source lies in the source's Out
// interval and Target in the destination's In interval.
type ChordRibbon struct {
	Src, Dst       int
	Source, Target Interval
	Weight         float64
}

// ChordGeometry is the layout of one frame of a chord diagram.
type ChordGeometry struct {
	Arcs []ChordArc // one per unit, in the order of ChordData.Units
	// Ribbons holds one ribbon per ordered pair src ≠ dst with positive
	// weight, ordered by src, then dst.
	Ribbons []ChordRibbon
	// Rings[r][g] is the angle that group g of ring r spans: from its first
	// leaf's In.Start to its last leaf's Out.End.
	Rings [][]Interval
	// Gaps[i] is the empty angle between unit i and the next one clockwise
	// (the last one's gap wraps around 12 o'clock, where it is centred).
	Gaps []float64
	// Scale is the angle per unit of weight; 0 if the frame has no traffic
	// between units, in which case every unit gets an equal arc, half in and
	// half out, and there are no ribbons.
	Scale float64
	// Fill is the share of the circle (less the gaps) that the frame's
	// arcs and ribbons take: its traffic between units over the full
	// circle's (ChordData.FullCircle, or the busiest frame's), in [0, 1].
	Fill float64
	// Spare is the empty angle after each unit, beyond its gap, that the
	// rest of the circle leaves when Fill < 1.
	Spare float64
}

const (
	// MinChordThickness is the relative thickness of an arc without self
	// traffic: the in and out intervals; self traffic adds a band above.
	MinChordThickness = 0.4
	// ChordUnitGap is the gap (radians) between consecutive units of one group.
	ChordUnitGap = 0.02
	// ChordRingGap is the extra gap at a boundary between groups, once for
	// each ring that has a boundary there (so racks are set further apart
	// than hosts).
	ChordRingGap = 0.04
	// chordMaxGapShare caps the part of the circle that gaps may take.
	chordMaxGapShare = 0.3
)

// chordGaps returns the gap after each unit: ChordUnitGap, plus ChordRingGap
// for each ring with a group boundary there, scaled down if the gaps would
// take more than 30% of the circle.
func chordGaps(d ChordData) []float64 {
	n := len(d.Units)
	gaps := make([]float64, n)
	groupOf := make([][]int, len(d.Rings))
	for r, ring := range d.Rings {
		g := make([]int, n)
		for i := range g {
			g[i] = -1
		}
		for k, grp := range ring.Groups {
			for i := max(grp.First, 0); i <= grp.Last && i < n; i++ {
				g[i] = k
			}
		}
		groupOf[r] = g
	}
	total := 0.0
	for i := range gaps {
		gaps[i] = ChordUnitGap
		next := (i + 1) % n
		for r := range d.Rings {
			if next == 0 || groupOf[r][i] != groupOf[r][next] || groupOf[r][i] < 0 {
				gaps[i] += ChordRingGap
			}
		}
		total += gaps[i]
	}
	if limit := chordMaxGapShare * 2 * math.Pi; total > limit {
		for i := range gaps {
			gaps[i] *= limit / total
		}
	}
	return gaps
}

// ChordLayout computes the geometry of one frame of a chord diagram (angles
// in radians, clockwise from 12 o'clock).
//
// Each unit gets an in interval and, clockwise after it, an out interval;
// their angles are proportional to the unit's traffic from and to other
// units. All units together take the share of the circle (less the gaps)
// that the frame's traffic between units is of the full circle's (see
// ChordData.FullCircle: by default the busiest frame fills the circle); the
// rest is left empty, shared out after every unit. A unit's
// self traffic sets its arc's thickness instead. Each ribbon src→dst has its
// source end in src's out interval and its target end in dst's in interval,
// both as wide as its weight. Within an interval, the ribbons are ordered by
// how far clockwise their other end lies, farthest first, so that ribbons
// sharing an interval do not cross one another (the bimodal layout of
// GiViP, after Di Giacomo et al.).
func ChordLayout(d ChordData, frame int) ChordGeometry {
	n := len(d.Units)
	g := ChordGeometry{Arcs: make([]ChordArc, n), Gaps: chordGaps(d)}
	if n == 0 {
		return g
	}
	in := make([]float64, n)
	out := make([]float64, n)
	total := 0.0
	for s := 0; s < n; s++ {
		for t := 0; t < n; t++ {
			if s == t {
				continue
			}
			w := d.weight(frame, s, t)
			out[s] += w
			in[t] += w
			total += 2 * w
		}
	}
	gapSum := 0.0
	for _, x := range g.Gaps {
		gapSum += x
	}
	avail := 2*math.Pi - gapSum
	if total > 0 {
		g.Scale = avail / math.Max(total, d.fullCircle())
		g.Fill = total * g.Scale / avail
	}
	maxSelf := d.maxSelf()
	if d.FullThickness > 0 {
		maxSelf = math.Max(d.FullThickness, maxSelf)
	}
	// Traffic below FullCircle leaves room, shared out after every unit.
	spare := 0.0
	if total > 0 {
		spare = (avail - total*g.Scale) / float64(n)
	}
	g.Spare = spare
	theta := (g.Gaps[n-1] + spare) / 2
	for u := 0; u < n; u++ {
		li, lo := in[u]*g.Scale, out[u]*g.Scale
		if total == 0 {
			li, lo = avail/float64(2*n), avail/float64(2*n)
		}
		a := ChordArc{InTotal: in[u], OutTotal: out[u], Self: d.weight(frame, u, u), Thickness: MinChordThickness}
		a.In = Interval{theta, theta + li}
		a.Out = Interval{a.In.End, a.In.End + lo}
		if maxSelf > 0 {
			a.Thickness += (1 - MinChordThickness) * a.Self / maxSelf
		}
		g.Arcs[u] = a
		theta = a.Out.End + g.Gaps[u] + spare
	}
	if total > 0 {
		// Source ends: within src's out interval, destinations farthest
		// clockwise first; target ends likewise within dst's in interval.
		srcEnd := make(map[[2]int]Interval)
		dstEnd := make(map[[2]int]Interval)
		for u := 0; u < n; u++ {
			at := g.Arcs[u].Out.Start
			for k := n - 1; k >= 1; k-- {
				t := (u + k) % n
				w := d.weight(frame, u, t) * g.Scale
				srcEnd[[2]int{u, t}] = Interval{at, at + w}
				at += w
			}
			at = g.Arcs[u].In.Start
			for k := n - 1; k >= 1; k-- {
				s := (u + k) % n
				w := d.weight(frame, s, u) * g.Scale
				dstEnd[[2]int{s, u}] = Interval{at, at + w}
				at += w
			}
		}
		for s := 0; s < n; s++ {
			for t := 0; t < n; t++ {
				if w := d.weight(frame, s, t); s != t && w > 0 {
					g.Ribbons = append(g.Ribbons, ChordRibbon{Src: s, Dst: t, Weight: w,
						Source: srcEnd[[2]int{s, t}], Target: dstEnd[[2]int{s, t}]})
				}
			}
		}
	}
	g.Rings = make([][]Interval, len(d.Rings))
	for r, ring := range d.Rings {
		g.Rings[r] = make([]Interval, len(ring.Groups))
		for k, grp := range ring.Groups {
			f, l := max(grp.First, 0), min(grp.Last, n-1)
			if f > l {
				continue
			}
			g.Rings[r][k] = Interval{g.Arcs[f].In.Start, g.Arcs[l].Out.End}
		}
	}
	return g
}
