package bundle

import "fmt"

// Point is a position in bundle coordinates: X is time (any unit) in a
// timeline, Y a lane index (lane i at y = i).
type Point struct{ X, Y float64 }

// Cell is a grid cell: Col counts along x, Row along y.
type Cell struct{ Col, Row int }

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// GridRoute returns the cells of the 8-connected shortest path from a to
// b, both included: it moves diagonally while both the column and the row
// still differ, then straight. Its length is the Chebyshev distance + 1.
// It works in every direction (b left of a too).
func GridRoute(a, b Cell) []Cell {
	return AppendGridRoute(nil, a, b)
}

// AppendGridRoute appends GridRoute(a, b) to dst and returns it.
func AppendGridRoute(dst []Cell, a, b Cell) []Cell {
	c := a
	dst = append(dst, c)
	for c != b {
		c.Col += sign(b.Col - c.Col)
		c.Row += sign(b.Row - c.Row)
		dst = append(dst, c)
	}
	return dst
}

// ColumnRoute is the sender/receiver diagram's routing on a grid of cols
// columns ("YX routing preferring diagonals"): it starts at (0, fromRow),
// always moves one column forward, and moves one row toward toRow while
// not there, so it visits each column once. If toRow is more than cols−1
// rows away the route ends as close to it as it got.
func ColumnRoute(cols, fromRow, toRow int) ([]Cell, error) {
	if cols < 1 {
		return nil, fmt.Errorf("bundle: %d grid columns, want ≥ 1", cols)
	}
	out := make([]Cell, cols)
	r := fromRow
	for c := 0; c < cols; c++ {
		if c > 0 {
			r += sign(toRow - r)
		}
		out[c] = Cell{c, r}
	}
	return out, nil
}
