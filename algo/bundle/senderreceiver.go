package bundle

import (
	"fmt"
	"math"
)

// SenderReceiver is the geometry of a sender/receiver diagram: units
// (processes) stand in two columns, senders at x = 0 and receivers at
// x = 1, unit u at y = u; a grid of Cols columns × Rows rows lies between
// them, row r holding the units u with ⌊u·Rows/Units⌋ = r (Units/Rows each
// when that divides). An edge from unit a to unit b follows
// ColumnRoute(Cols, row(a), row(b)); edges sharing the row pair share the
// route.
type SenderReceiver struct {
	Units, Cols, Rows int
	// Distinct routes in order of first use: rows, weight (sum of the edge
	// weights), and Cols cells / cell centres each: route i's are
	// Cells[i·Cols:(i+1)·Cols] and Points[i·Cols:(i+1)·Cols].
	FromRow, ToRow []int32
	Weight         []float64
	Cells          []Cell
	Points         []Point
	// EdgeRoute is each edge's route.
	EdgeRoute []int32
}

// NewSenderReceiver routes the edges src[i] → dst[i] (units in
// 0…units−1) with weights weight[i] (nil: 1 each) on a cols × rows grid.
func NewSenderReceiver(units, cols, rows int, src, dst []int32, weight []float64) (*SenderReceiver, error) {
	if units < 1 || cols < 1 || rows < 1 || rows > units {
		return nil, fmt.Errorf("bundle: sender/receiver grid of %d×%d for %d units, want ≥ 1 each and rows ≤ units", cols, rows, units)
	}
	if len(dst) != len(src) || (weight != nil && len(weight) != len(src)) {
		return nil, fmt.Errorf("bundle: columns differ in length: %d sources, %d destinations, %d weights", len(src), len(dst), len(weight))
	}
	sr := &SenderReceiver{Units: units, Cols: cols, Rows: rows, EdgeRoute: make([]int32, len(src))}
	ids := make(map[[2]int32]int32)
	for i := range src {
		a, b := src[i], dst[i]
		if a < 0 || int(a) >= units || b < 0 || int(b) >= units {
			return nil, fmt.Errorf("bundle: edge %d joins units %d and %d, want 0…%d", i, a, b, units-1)
		}
		w := 1.0
		if weight != nil {
			w = weight[i]
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("bundle: edge %d has weight %v", i, w)
			}
		}
		key := [2]int32{sr.Row(a), sr.Row(b)}
		id, ok := ids[key]
		if !ok {
			id = int32(len(sr.FromRow))
			ids[key] = id
			cells, _ := ColumnRoute(cols, int(key[0]), int(key[1]))
			sr.FromRow = append(sr.FromRow, key[0])
			sr.ToRow = append(sr.ToRow, key[1])
			sr.Weight = append(sr.Weight, 0)
			sr.Cells = append(sr.Cells, cells...)
			for _, c := range cells {
				sr.Points = append(sr.Points, sr.CellCentre(c))
			}
		}
		sr.Weight[id] += w
		sr.EdgeRoute[i] = id
	}
	return sr, nil
}

// Row is the grid row of unit u.
func (sr *SenderReceiver) Row(u int32) int32 {
	return int32(int64(u) * int64(sr.Rows) / int64(sr.Units))
}

// CellCentre is the centre of a cell: x = (col + ½)/Cols, y = the middle
// of the row's first and last unit.
func (sr *SenderReceiver) CellCentre(c Cell) Point {
	U, R := int64(sr.Units), int64(sr.Rows)
	first := (int64(c.Row)*U + R - 1) / R  // ⌈row·U/R⌉
	last := ((int64(c.Row)+1)*U+R-1)/R - 1 // ⌈(row+1)·U/R⌉ − 1
	return Point{(float64(c.Col) + 0.5) / float64(sr.Cols), float64(first+last) / 2}
}

// RouteCells returns the cells of route i (shared, do not modify).
func (sr *SenderReceiver) RouteCells(i int) []Cell {
	return sr.Cells[i*sr.Cols : (i+1)*sr.Cols]
}

// Polygon returns the control polygon of an edge from unit a to unit b:
// (0, a), the centres of its route's cells, (1, b).
func (sr *SenderReceiver) Polygon(a, b int32) []Point {
	ra, rb := sr.Row(a), sr.Row(b)
	cells, _ := ColumnRoute(sr.Cols, int(ra), int(rb))
	out := make([]Point, 0, len(cells)+2)
	out = append(out, Point{0, float64(a)})
	for _, c := range cells {
		out = append(out, sr.CellCentre(c))
	}
	return append(out, Point{1, float64(b)})
}
