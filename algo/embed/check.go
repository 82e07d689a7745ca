package embed

import (
	"fmt"
	"math"
)

// checkDist validates a distance matrix: square, n ≥ 1, zero diagonal,
// no NaN, no −Inf, no negative entry, symmetric (exactly for +Inf
// entries, to a relative 1e-9 otherwise). allowInf says whether +Inf is
// accepted off the diagonal.
func checkDist(d [][]float64, allowInf bool) error {
	n := len(d)
	if n == 0 {
		return fmt.Errorf("empty distance matrix")
	}
	for i, row := range d {
		if len(row) != n {
			return fmt.Errorf("distance matrix is not square: row %d has %d entries, want %d", i, len(row), n)
		}
	}
	for i, row := range d {
		for j, v := range row {
			switch {
			case i == j && v != 0:
				return fmt.Errorf("d[%d][%d] = %v, want 0 on the diagonal", i, j, v)
			case math.IsNaN(v):
				return fmt.Errorf("d[%d][%d] is NaN", i, j)
			case math.IsInf(v, -1) || v < 0:
				return fmt.Errorf("d[%d][%d] = %v is negative", i, j, v)
			case math.IsInf(v, 1) && !allowInf:
				return fmt.Errorf("d[%d][%d] is +Inf: classical MDS needs every distance (SMACOF takes infinite pairs)", i, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := d[i][j], d[j][i]
			if math.IsInf(a, 1) != math.IsInf(b, 1) || (!math.IsInf(a, 1) && math.Abs(a-b) > 1e-9*math.Max(1, math.Max(a, b))) {
				return fmt.Errorf("distance matrix is not symmetric: d[%d][%d] = %v, d[%d][%d] = %v", i, j, a, j, i, b)
			}
		}
	}
	return nil
}

// checkDim validates the target dimension for n points.
func checkDim(dim, n int) error {
	if dim < 1 {
		return fmt.Errorf("dimension %d, want ≥ 1", dim)
	}
	if dim > n {
		return fmt.Errorf("dimension %d exceeds the number of points %d", dim, n)
	}
	return nil
}
