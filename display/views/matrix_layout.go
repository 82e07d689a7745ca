package views

import "math"

// Geometry and colours of a heat matrix: all in px of the picture, whole
// px for the plot's origin and size so that a canvas or PNG pixel is a
// pixel.

const (
	hmPlotMax     = 640.0 // px: the plot's longer side, at most
	hmMaxCell     = 24.0  // px: the largest cell
	hmSVGSide     = 320   // rows or columns: at most this many for SVG
	hmPad         = 4.0
	hmTitleBand   = 22.0
	hmCaptionBand = 14.0 // the axis captions
	hmLabelPitch  = 12.0 // px between two labels, at least
	hmLabelMax    = 90.0 // px: labels are cut to this width
	hmLegendGap   = 8.0
	hmLegendH     = 40.0
	hmRampX       = 50.0 // the legend's ramp, from the left edge
	hmRampW       = 224.0
	// hmLow is the ramp entry of the smallest non-zero value: entries
	// below are too close to white to tell from an empty cell, so values
	// take entries hmLow..255.
	hmLow = 32
)

// matrixHeat is a checked matrix: its non-zero cells row-major (CSR),
// their colours and the picture's geometry.
type matrixHeat struct {
	d    MatrixData // RowName, ColName filled in
	n, m int
	ramp Ramp

	rowStart []int32   // n+1: row r's cells are rowStart[r] ≤ k < rowStart[r+1]
	col      []int32   // column of cell k, increasing within a row
	val      []float64 // value of cell k, > 0
	ci       []uint8   // ramp entry of cell k
	maxK     int       // the first largest cell, -1 when there is none
	minNZ    float64   // smallest value
	max      float64   // largest value

	canvas           bool    // large: PNG and canvas, not SVG rects
	s                float64 // cell side, px
	gw, gh           int     // plot size, px: ceil(m·s), ceil(n·s)
	left, top        float64 // plot origin, whole px
	W, H             float64 // the picture
	step             int     // every step-th row and column is labelled
	rowLabW, colLabH float64
}

// index stores the sorted non-zero cells.
func (m *matrixHeat) index(cells []MatrixEntry) {
	m.rowStart = make([]int32, m.n+1)
	m.col = make([]int32, len(cells))
	m.val = make([]float64, len(cells))
	m.maxK = -1
	for k, c := range cells {
		m.rowStart[c.Row+1]++
		m.col[k], m.val[k] = c.Col, c.Value
		if m.maxK < 0 || c.Value > m.max {
			m.maxK, m.max = k, c.Value
		}
		if k == 0 || c.Value < m.minNZ {
			m.minNZ = c.Value
		}
	}
	for r := 0; r < m.n; r++ {
		m.rowStart[r+1] += m.rowStart[r]
	}
}

// colour gives each cell its ramp entry (colorIndex).
func (m *matrixHeat) colour() {
	m.ci = make([]uint8, len(m.val))
	for k, v := range m.val {
		m.ci[k] = m.colorIndex(v)
	}
}

// colorIndex is the ramp entry of v > 0: hmLow + floor(x·224) clamped to
// [hmLow, 255], where x is v/max (linear) or
// (log v − log min)/(log max − log min) (Log; 255 when min = max).
func (m *matrixHeat) colorIndex(v float64) uint8 {
	x, lo, hi := v, 0.0, m.max
	if m.d.Log {
		x, lo, hi = math.Log10(v), math.Log10(m.minNZ), math.Log10(m.max)
	}
	if hi == lo {
		return 255
	}
	return uint8(hmLow + rampBucket(x, lo, hi, 256-hmLow))
}

// heatLabelStep is the smallest of 1, 2, 5, 10, 20, 50, … that keeps labels
// of cells of side s at least hmLabelPitch apart.
func heatLabelStep(s float64) int {
	for k := 1; ; k *= 10 {
		for _, f := range []int{1, 2, 5} {
			if float64(f*k)*s >= hmLabelPitch-1e-9 {
				return f * k
			}
		}
	}
}

// cellSide is the side of a cell in px for a matrix whose longer side has
// L cells: a whole number up to hmMaxCell while the plot can be 640 px,
// else 640/L (rounded to four decimals, as the runtime gets it).
func cellSide(L int) float64 {
	if L <= int(hmPlotMax) {
		return math.Min(hmMaxCell, math.Floor(hmPlotMax/float64(L)))
	}
	return float64(a4(hmPlotMax / float64(L)))
}

// shownLabel is label i as drawn: cut to hmLabelMax px.
func shownLabel(s string) string { return fitText(s, hmLabelMax, smallFont) }

func (m *matrixHeat) layout() {
	L := max(m.n, m.m)
	m.canvas = m.n*m.m > MatrixSVGCells || L > hmSVGSide
	m.s = cellSide(L)
	m.step = heatLabelStep(m.s)
	for i := 0; i < m.n; i += m.step {
		m.rowLabW = max(m.rowLabW, textWidth(shownLabel(m.d.Rows[i]), smallFont))
	}
	for j := 0; j < m.m; j += m.step {
		m.colLabH = max(m.colLabH, textWidth(shownLabel(m.d.Cols[j]), smallFont))
	}
	m.gw = int(math.Ceil(float64(m.m)*m.s - 1e-9))
	m.gh = int(math.Ceil(float64(m.n)*m.s - 1e-9))
	m.left = math.Ceil(hmPad + hmCaptionBand + m.rowLabW + 4)
	m.top = math.Ceil(m.titleBand() + hmCaptionBand + m.colLabH + 4)
	m.W = math.Max(m.left+float64(m.gw)+hmPad, hmRampX+hmRampW+hmPad+20)
	m.W = math.Max(m.W, m.left+float64(m.gw)/2+textWidth(m.d.ColName, smallFont)/2+hmPad)
	m.H = m.top + float64(m.gh) + hmLegendGap + hmLegendH
}

func (m *matrixHeat) titleBand() float64 {
	if m.d.Title != "" {
		return hmTitleBand
	}
	return 0
}

// cellRange is the pixels [a, b) of the plot that cell index i (a row or
// a column) covers: floor(i·s) to ceil((i+1)·s), at least one, within
// limit. The runtime computes the same.
func cellRange(i int, s float64, limit int) (a, b int) {
	a = int(math.Floor(float64(i) * s))
	b = int(math.Ceil(float64(i+1) * s))
	if b > limit {
		b = limit
	}
	if b <= a {
		b = a + 1
	}
	return a, b
}

// pool is the cell shown at each plot pixel (gw × gh, row-major; -1 for
// none): of the cells covering a pixel, the largest value, the first in
// row-major order among equals. The runtime's canvas computes the same.
func (m *matrixHeat) pool() []int32 {
	win := make([]int32, m.gw*m.gh)
	for i := range win {
		win[i] = -1
	}
	for r := 0; r < m.n; r++ {
		y0, y1 := cellRange(r, m.s, m.gh)
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			x0, x1 := cellRange(int(m.col[k]), m.s, m.gw)
			v := m.val[k]
			for y := y0; y < y1; y++ {
				row := win[y*m.gw : (y+1)*m.gw]
				for x := x0; x < x1; x++ {
					if w := row[x]; w < 0 || v > m.val[w] {
						row[x] = k
					}
				}
			}
		}
	}
	return win
}

// Plot is where the cells are in the picture: the plot's top-left corner
// and the side of a cell, in px; cell (r, c) covers
// [x + c·cell, x + (c+1)·cell) × [y + r·cell, y + (r+1)·cell). All are 0
// when the data cannot be drawn.
func (v *MatrixView) Plot() (x, y, cell float64) {
	m, err := newHeatModel(v.Data)
	if err != nil {
		return 0, 0, 0
	}
	return m.left, m.top, m.s
}

// CellAt is the non-zero cell shown at point (x, y) px of the picture,
// which hovering there names: on an SVG matrix the cell under the point;
// on a large one the cell shown by the pixel (the largest of the cells
// the pixel covers, see Matrix). ok is false outside the plot, on an
// empty cell or pixel, and when the data cannot be drawn.
func (v *MatrixView) CellAt(x, y float64) (row, col int, ok bool) {
	m, err := newHeatModel(v.Data)
	if err != nil {
		return 0, 0, false
	}
	px, py := math.Floor(x-m.left), math.Floor(y-m.top)
	if !m.canvas {
		r, c := int(math.Floor((y-m.top)/m.s)), int(math.Floor((x-m.left)/m.s))
		if r < 0 || r >= m.n || c < 0 || c >= m.m || m.find(r, c) < 0 {
			return 0, 0, false
		}
		return r, c, true
	}
	if px < 0 || py < 0 || px >= float64(m.gw) || py >= float64(m.gh) {
		return 0, 0, false
	}
	k := m.pool()[int(py)*m.gw+int(px)]
	if k < 0 {
		return 0, 0, false
	}
	return m.rowOf(int(k)), int(m.col[k]), true
}
