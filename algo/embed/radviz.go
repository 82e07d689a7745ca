package embed

import (
	"fmt"
	"math"
)

// RadVizOptions configures RadViz. The zero value uses the raw values.
type RadVizOptions struct {
	// Normalise maps every column to [0, 1] by (v − min) / (max − min)
	// before weighting. A constant column becomes ConstantValue.
	Normalise bool
	// ConstantValue is the value a constant column takes under
	// Normalise: 0 by default, so that the column pulls no row. Paper
	// 004's Fig. 3 is reproduced by 1: there the extent-1 dimension
	// Dim0 then pulls every node and the origin node, all of whose
	// other coordinates are 0, lands on the Dim0 anchor. Must lie in
	// [0, 1].
	ConstantValue float64
}

// Anchors returns the n RadViz anchors on the unit circle: anchor i at
// angle 2πi/n measured clockwise from 12 o'clock, in a y-up frame, i.e.
// (sin 2πi/n, cos 2πi/n). Anchor 0 is (0, 1); with 4 anchors anchor 1
// is (1, 0) (3 o'clock). A display with y pointing down flips y.
func Anchors(n int) [][]float64 {
	a := make([][]float64, max(n, 0))
	for i := range a {
		t := 2 * math.Pi * float64(i) / float64(n)
		a[i] = []float64{math.Sin(t), math.Cos(t)}
	}
	// Exact values on the axes, so hand-checked points compare exactly.
	for i := range a {
		for k, v := range a[i] {
			if math.Abs(v) < 1e-15 {
				a[i][k] = 0
			}
		}
	}
	return a
}

// RadViz places each row of x (n ≥ 1 columns, all rows of equal length)
// in the plane by eq. 6 of paper 004:
//
//	P = Σ_i w_i v_i,  w_i = x_i / Σ_j x_j,
//
// with v_i = Anchors(n)[i]. A row of weight 1 on column i lands on
// anchor i; equal weights on columns i and i+1 land midway between
// their anchors (inside the circle); a row whose coordinates are all 0
// has no weights and goes to the centre (0, 0) by convention.
//
// Values must be finite; without Normalise they must also be ≥ 0 (a
// negative value would pull away from its anchor and may make Σ x_j
// vanish). The result has one (x, y) pair per row, in the y-up frame of
// Anchors.
func RadViz(x [][]float64, opts RadVizOptions) ([][]float64, error) {
	if len(x) == 0 {
		return nil, fmt.Errorf("embed: RadViz: no rows")
	}
	n := len(x[0])
	if n == 0 {
		return nil, fmt.Errorf("embed: RadViz: rows have no columns")
	}
	if c := opts.ConstantValue; !(c >= 0 && c <= 1) {
		return nil, fmt.Errorf("embed: RadViz: ConstantValue %v, want a value in [0, 1]", c)
	}
	for r, row := range x {
		if len(row) != n {
			return nil, fmt.Errorf("embed: RadViz: row %d has %d columns, want %d", r, len(row), n)
		}
		for k, v := range row {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("embed: RadViz: x[%d][%d] = %v is not finite", r, k, v)
			case v < 0 && !opts.Normalise:
				return nil, fmt.Errorf("embed: RadViz: x[%d][%d] = %v is negative (set Normalise)", r, k, v)
			}
		}
	}
	lo := make([]float64, n)
	hi := make([]float64, n)
	if opts.Normalise {
		copy(lo, x[0])
		copy(hi, x[0])
		for _, row := range x[1:] {
			for k, v := range row {
				lo[k] = math.Min(lo[k], v)
				hi[k] = math.Max(hi[k], v)
			}
		}
	}
	anchors := Anchors(n)
	w := make([]float64, n)
	out := make([][]float64, len(x))
	for r, row := range x {
		total := 0.0
		for k, v := range row {
			if opts.Normalise {
				if hi[k] > lo[k] {
					v = (v - lo[k]) / (hi[k] - lo[k])
				} else {
					v = opts.ConstantValue
				}
			}
			w[k] = v
			total += v
		}
		p := []float64{0, 0}
		if total > 0 {
			for k, v := range w {
				p[0] += v / total * anchors[k][0]
				p[1] += v / total * anchors[k][1]
			}
		}
		out[r] = p
	}
	return out, nil
}
