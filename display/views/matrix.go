package views

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"

	"superstep/display"
)

// The heat matrix, by concern: this file holds the data, the value format,
// the view and its figure; matrix_layout.go sorts the cells, colours them
// and places labels and plot; matrix_svg.go writes the SVG and rasterises
// the large ones; matrix_spec.go packs what the runtime draws from.

// MatrixEntry is one non-zero cell of a sparse matrix (MatrixData.Cells).
type MatrixEntry struct {
	Row, Col int32
	Value    float64
}

// MatrixData is a heat matrix: one value per (row, column) pair, such as
// the messages or bytes each sender sent each receiver (rows are senders,
// columns receivers).
type MatrixData struct {
	Title string
	// Rows and Cols are the labels of the rows and columns; the matrix is
	// len(Rows) × len(Cols) and both must be non-empty.
	Rows, Cols []string
	// RowName and ColName are the axis captions (default "sender" and
	// "receiver").
	RowName, ColName string
	// Values, if set, is the dense matrix, row-major: len(Rows)·len(Cols)
	// entries.
	Values []float64
	// Cells, if set instead of Values, is the sparse matrix: the non-zero
	// cells, in any order, each pair at most once (zero values are allowed
	// and left out).
	Cells []MatrixEntry
	// ValueName says what the values are ("messages", "bytes", "bytes/s"):
	// it names the colour legend, and ends the hover text when Unit is "".
	ValueName string
	// Unit, if set ("B", "B/s"), makes values print with SI prefixes and
	// the unit (FormatMatrixValue).
	Unit string
	// Ramp is the colour ramp's name (RampNames; default "oranges"); it
	// must be a sequential one, not diverging.
	Ramp string
	// Log colours by the logarithm of the values, from the smallest
	// non-zero value to the largest.
	Log bool
}

// MatrixSVGCells is the largest matrix (rows × columns) drawn as SVG, one
// rect per non-zero cell carrying its hover text, provided neither side
// has more than 320 rows or columns (so a cell is at least 2 px). Larger
// ones are drawn as a PNG (rasterised in Go) and live on a canvas.
const MatrixSVGCells = 40000

// MatrixView is a heat matrix.
type MatrixView struct {
	Data MatrixData
}

// Matrix shows a heat matrix (paper 003's Fig. 8, the communication
// matrix): the title, column labels on top and row labels on the left
// (every k-th one when they would overlap, k in 1, 2, 5, 10, 20, 50, …),
// the axis captions, the cells coloured by the ramp (zero cells stay
// white) and a colour legend with the value range and name. Hovering a cell
// shows "row → col: value" (Tip). Small matrices are SVG; large ones
// (above MatrixSVGCells) a PNG made in Go, live on a canvas, where a pixel
// that covers several cells shows and names the largest of them.
func Matrix(d MatrixData) *MatrixView { return &MatrixView{Data: d} }

// FormatMatrixValue is how a matrix prints a value v ≥ 0 (the legend, the
// hover text); the runtime follows the same rule (matrix.js) and a test
// checks that both agree:
//
//   - v below 999.5: a whole number as it is ("0", "42"); otherwise with
//     d decimals, d = 2 below 9.995, 1 below 99.95, else 0, rounded as
//     floor(v·10^d + 0.5)/10^d ("0.50", "12.3", "999");
//   - from 999.5, unit "": rounded to a whole number with thousands
//     separators ("1,234", "60,515");
//   - from 999.5, any other unit: v/1000^p for the smallest p ≥ 1 (prefix
//     k, M, G, T, P, E) that brings it below 999.5, with d decimals as
//     above ("1.23 kB", "45.6 MB/s", "789 GB").
//
// A unit follows after a space. NaN, infinities and negative values print
// as Go prints them.
func FormatMatrixValue(v float64, unit string) string {
	num, prefix := matrixNumber(v, unit)
	if unit == "" && prefix == "" {
		return num
	}
	return num + " " + prefix + unit
}

// matrixNumber is FormatMatrixValue's number and SI prefix.
func matrixNumber(v float64, unit string) (num, prefix string) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Sprint(v), ""
	}
	if v < 999.5 {
		if v == math.Trunc(v) {
			return strconv.FormatFloat(v, 'f', 0, 64), ""
		}
		return matrixFixed(v), ""
	}
	if unit == "" {
		return groupDigits(int64(math.Floor(v + 0.5))), ""
	}
	prefixes := []string{"k", "M", "G", "T", "P", "E"}
	p := 0
	v /= 1000
	for v >= 999.5 && p < len(prefixes)-1 {
		v /= 1000
		p++
	}
	return matrixFixed(v), prefixes[p]
}

// matrixFixed prints 0 ≤ v < 999.5 with 2, 1 or 0 decimals (below 9.995,
// below 99.95, else), rounding half up in integers so that JavaScript gets
// the same digits.
func matrixFixed(v float64) string {
	d, f := 0, 1.0
	switch {
	case v < 9.995:
		d, f = 2, 100
	case v < 99.95:
		d, f = 1, 10
	}
	n := int64(math.Floor(float64(v*f) + 0.5))
	if d == 0 {
		return strconv.FormatInt(n, 10)
	}
	p := int64(f)
	return fmt.Sprintf("%d.%0*d", n/p, d, n%p)
}

// Tip is the hover text of cell (row, col): "P3 → P7: 1,234 messages"
// (the value name ends it only when Unit is "", else the unit does:
// "P3 → P7: 1.23 MB"). It is "" for a cell outside the matrix.
func (v *MatrixView) Tip(row, col int) string {
	d := v.Data
	if row < 0 || row >= len(d.Rows) || col < 0 || col >= len(d.Cols) {
		return ""
	}
	m, err := newHeatModel(d)
	if err != nil {
		return ""
	}
	return m.tip(row, col, m.value(row, col))
}

// SVG is the matrix as an SVG document (for a large matrix, one rect per
// non-zero cell, which can be big); or the reason it cannot be drawn.
func (v *MatrixView) SVG() string {
	m, err := newHeatModel(v.Data)
	if err != nil {
		return errorSVG(err)
	}
	return m.svg(true)
}

// PNG is the matrix as a PNG, one pixel per px.
func (v *MatrixView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// Summary is the text form: size, non-zero cells, the largest value and
// its pair.
func (v *MatrixView) Summary() string {
	m, err := newHeatModel(v.Data)
	if err != nil {
		return err.Error()
	}
	return m.summary()
}

// MIMEBundle implements Renderer.
func (v *MatrixView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *MatrixView) figure() figure {
	m, err := newHeatModel(v.Data)
	if err != nil {
		return figure{err: err}
	}
	f := figure{alt: m.alt(), text: m.summary(), kind: "matrix"}
	if m.canvas {
		f.makeSVG = func() string { return m.svg(true) }
		f.spec = m.spec()
		f.raster = func(scale float64) (*image.RGBA, error) { return m.render(scale) }
	} else {
		f.svg = m.svg(true)
	}
	return f
}

// newHeatModel checks d and sorts its non-zero cells row-major.
func newHeatModel(d MatrixData) (*matrixHeat, error) {
	n, mm := len(d.Rows), len(d.Cols)
	if n == 0 || mm == 0 {
		return nil, fmt.Errorf("views.Matrix: %d rows × %d columns: need at least one of each", n, mm)
	}
	if d.Values != nil && d.Cells != nil {
		return nil, fmt.Errorf("views.Matrix: both Values (dense) and Cells (sparse) are set")
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	var cells []MatrixEntry
	if d.Values != nil {
		if len(d.Values) != n*mm {
			return nil, fmt.Errorf("views.Matrix: %d values for %d rows × %d columns (want %d)", len(d.Values), n, mm, n*mm)
		}
		for k, v := range d.Values {
			if bad(v) {
				return nil, fmt.Errorf("views.Matrix: value %v at row %d, column %d: values must be finite and ≥ 0", v, k/mm, k%mm)
			}
			if v != 0 {
				cells = append(cells, MatrixEntry{Row: int32(k / mm), Col: int32(k % mm), Value: v})
			}
		}
	} else {
		cells = make([]MatrixEntry, 0, len(d.Cells))
		for k, c := range d.Cells {
			if c.Row < 0 || int(c.Row) >= n || c.Col < 0 || int(c.Col) >= mm {
				return nil, fmt.Errorf("views.Matrix: cell %d at (%d, %d) is outside %d rows × %d columns", k, c.Row, c.Col, n, mm)
			}
			if bad(c.Value) {
				return nil, fmt.Errorf("views.Matrix: cell %d (%d, %d) has value %v: values must be finite and ≥ 0", k, c.Row, c.Col, c.Value)
			}
			if c.Value != 0 {
				cells = append(cells, c)
			}
		}
		slices.SortFunc(cells, func(a, b MatrixEntry) int {
			return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col))
		})
		for k := 1; k < len(cells); k++ {
			if cells[k].Row == cells[k-1].Row && cells[k].Col == cells[k-1].Col {
				return nil, fmt.Errorf("views.Matrix: cell (%d, %d) is given twice", cells[k].Row, cells[k].Col)
			}
		}
	}
	name := d.Ramp
	if name == "" {
		name = "oranges"
	}
	ramp, err := RampByName(name)
	if err != nil {
		return nil, fmt.Errorf("views.Matrix: %w", err)
	}
	if ramp.Diverging {
		return nil, fmt.Errorf("views.Matrix: ramp %q is diverging; a matrix of values ≥ 0 takes a sequential one (greens, oranges, purples, pink)", name)
	}
	if d.RowName == "" {
		d.RowName = "sender"
	}
	if d.ColName == "" {
		d.ColName = "receiver"
	}
	m := &matrixHeat{d: d, n: n, m: mm, ramp: ramp}
	m.index(cells)
	m.colour()
	m.layout()
	return m, nil
}

// value is the value of cell (r, c), 0 when it is not stored.
func (m *matrixHeat) value(r, c int) float64 {
	k := m.find(r, c)
	if k < 0 {
		return 0
	}
	return m.val[k]
}

// find is the index of cell (r, c) among the non-zero cells, or -1.
func (m *matrixHeat) find(r, c int) int {
	lo, hi := int(m.rowStart[r]), int(m.rowStart[r+1])
	k, ok := slices.BinarySearch(m.col[lo:hi], int32(c))
	if !ok {
		return -1
	}
	return lo + k
}

func (m *matrixHeat) tip(r, c int, v float64) string {
	return fmt.Sprintf("%s → %s: %s", m.d.Rows[r], m.d.Cols[c], m.valueText(v))
}

// valueText is v as the hover text prints it: with its unit, or else
// followed by the value name.
func (m *matrixHeat) valueText(v float64) string {
	s := FormatMatrixValue(v, m.d.Unit)
	if m.d.Unit == "" && m.d.ValueName != "" {
		s += " " + m.d.ValueName
	}
	return s
}

func (m *matrixHeat) alt() string {
	s := "Matrix"
	if m.d.Title != "" {
		s += " " + strconv.Quote(m.d.Title)
	}
	return s + ": " + m.summary()
}

// summary: "16 × 16 matrix of messages (sender × receiver), 48 non-zero
// cells, largest 3,510 messages (P0 → P1)".
func (m *matrixHeat) summary() string {
	what := ""
	if m.d.ValueName != "" {
		what = " of " + m.d.ValueName
	}
	s := fmt.Sprintf("%d × %d matrix%s (%s × %s), %s non-zero cells", m.n, m.m, what, m.d.RowName, m.d.ColName, groupDigits(int64(len(m.val))))
	if m.maxK >= 0 {
		r := m.rowOf(m.maxK)
		c := int(m.col[m.maxK])
		s += fmt.Sprintf(", largest %s (%s → %s)", m.valueText(m.val[m.maxK]), m.d.Rows[r], m.d.Cols[c])
	}
	return s
}

// rowOf is the row of the k-th non-zero cell.
func (m *matrixHeat) rowOf(k int) int {
	r, _ := slices.BinarySearchFunc(m.rowStart, int32(k), func(a, b int32) int {
		if a <= b {
			return -1
		}
		return 1
	})
	return r - 1
}
