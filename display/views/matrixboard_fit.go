package views

import (
	"fmt"
	"math"

	"superstep/display"
)

// A board laid out for a width (a board in a row, RowView): the largest
// cells, the most panels per row and the chrome that keep the picture
// within the width, the title and the window's totals on two lines when
// one is too narrow, and the legend's colour maps wrapped in rows. The
// live board draws the same geometry (the spec carries it) and keeps its
// charts and controls to the width.

// matrixFitMinCell is the smallest cell a fitted board uses: below, a
// board overflows its width rather than shrink further.
const matrixFitMinCell = 2.0

// matrixCompactOptions are the narrow chrome of a fitted board: bars four
// cells wide (TreeScope's seven take a seventh of a pod), half margins.
func matrixCompactOptions(o MatrixBoardOptions) MatrixBoardOptions {
	o.TopBar = math.Min(o.TopBar, 4)
	o.BottomBar = math.Min(o.BottomBar, 3)
	o.ColumnBar = math.Min(o.ColumnBar, 3)
	o.Margin = math.Min(o.Margin, 4)
	o.SideGap = math.Min(o.SideGap, 3)
	o.PanelGap = math.Min(o.PanelGap, 12)
	o.LabelHeight = math.Min(o.LabelHeight, 18)
	return o
}

// fitMatrixLayout is the layout of d within w px: for every whole cell
// (at most base's), the most panels per row that fit with base's chrome
// or the compact one; of those, the one of the largest cell over the
// square root of its rows of panels (the larger cell, then base's
// chrome, on a tie). Rows' labels stay where rows are 10 px apart. ok is
// false when nothing fits, with the smallest layout.
func fitMatrixLayout(d MatrixBoardData, base MatrixBoardOptions, w float64) (MatrixBoardOptions, bool) {
	n := len(d.Panels)
	best, bestScore, found := MatrixBoardOptions{}, 0.0, false
	for cell := math.Floor(math.Max(base.Cell, matrixFitMinCell)); cell >= matrixFitMinCell; cell-- {
		for _, chrome := range []MatrixBoardOptions{base, matrixCompactOptions(base)} {
			o := chrome
			o.Cell = cell
			if cell < 4 {
				o.Gap = math.Min(o.Gap, 0.5)
			}
			if !o.rowLabelsShown() {
				o.RowLabels = 0
			}
			for per := max(n, 1); per >= 1; per-- {
				o.PanelsPerRow = per
				if per >= n {
					o.PanelsPerRow = 0
				}
				g, err := MatrixBoardLayout(d, o)
				if err != nil {
					return base, false
				}
				if g.W > w {
					continue
				}
				// Large cells, few rows of panels: a px of cell is worth
				// trading for half the rows.
				rows := (n + per - 1) / per
				if score := cell / math.Sqrt(float64(rows)); !found || score > bestScore+1e-9 {
					best, bestScore, found = o, score, true
				}
				break
			}
		}
	}
	if !found {
		o := matrixCompactOptions(base)
		o.Cell, o.Gap, o.PanelsPerRow, o.RowLabels = matrixFitMinCell, math.Min(o.Gap, 0.5), 1, 0
		return o, false
	}
	return best, true
}

// fitWidth implements widthFitter: the board laid out for w px.
func (v *MatrixBoardView) fitWidth(w float64) display.Renderer {
	d := v.Data
	base := DefaultMatrixBoardOptions()
	if d.Layout != nil {
		base = *d.Layout
	}
	if g, err := MatrixBoardLayout(d, base); err == nil && g.W > w {
		o, _ := fitMatrixLayout(d, base, w)
		d.Layout = &o
	}
	return &MatrixBoardView{Data: d, fit: w}
}

// model is the board ready to draw, at its fitted width if it has one.
func (v *MatrixBoardView) model() (*matrixModel, error) {
	m, err := newMatrixModel(v.Data)
	if err != nil {
		return nil, err
	}
	m.fitTo(v.fit)
	return m, nil
}

// Legend geometry: an entry is the map's name, 32 swatches and the
// domain's ends below them.
const (
	matrixLegendSwatch = 4.0                     // px per swatch
	matrixLegendRamp   = 32 * matrixLegendSwatch // the ramp's width
	matrixLegendKeyW   = 34.0                    // the name's column
	matrixLegendRowH   = 28.0                    // a row of entries, fitted
	matrixFitEntry     = matrixLegendKeyW + matrixLegendRamp + 12
)

// fitTo lays out the title and legend strips: one row of legend entries
// 190 px apart when w is 0 (no width), else as many entries per row as
// fit in the wider of w and the board, and the window's totals on a line
// of their own when they do not fit beside the title.
func (m *matrixModel) fitTo(w float64) {
	m.fit, m.picW, m.titleLines, m.winOwnLine, m.hotKey, m.missingKey = w, 0, nil, false, nil, nil
	m.titleH = matrixTitleH
	keys := m.legendKeys()
	m.legendPos = map[string][2]float64{}
	k := 0
	if w <= 0 {
		for _, key := range keys {
			if _, ok := m.scales[key]; ok {
				m.legendPos[key] = [2]float64{float64(k) * matrixLegendEntry, 0}
				k++
			}
		}
		m.legendH = matrixLegendH
		m.placeHotKey(28)
		m.placeMissingKey(28)
		return
	}
	avail := math.Max(w, m.geo.W)
	per := max(1, int((avail+12)/matrixFitEntry))
	for _, key := range keys {
		if _, ok := m.scales[key]; ok {
			m.legendPos[key] = [2]float64{float64(k%per) * matrixFitEntry, float64(k/per) * matrixLegendRowH}
			k++
		}
	}
	rows := (k + per - 1) / per
	m.legendH = matrixLegendH + float64(max(rows-1, 0))*matrixLegendRowH
	m.placeHotKey(float64(rows) * matrixLegendRowH)
	m.placeMissingKey(float64(rows) * matrixLegendRowH)
	// The picture is as wide as the board and its legend, or as its title
	// within w; a title wider than that wraps at its spaces.
	W := math.Max(m.geo.W, m.legendWidth())
	title := m.titleText()
	want := math.Ceil(textWidth(title, boldFont)) + 4
	if m.hotKey != nil {
		want = math.Max(want, math.Ceil(14+textWidth(m.hotText(), smallFont)))
	}
	if m.missingKey != nil {
		want = math.Max(want, math.Ceil(14+textWidth(m.missingText(), smallFont)))
	}
	m.picW = math.Max(W, math.Min(math.Floor(w), want))
	m.titleLines = wrapWordsFont(title, m.picW-4, boldFont)
	n := len(m.titleLines)
	m.titleH = matrixTitleH + matrixTitleLine*float64(n-1)
	last := m.titleLines[n-1]
	if n > 1 || textWidth(last, boldFont)+12+textWidth(m.windowText(), smallFont) > m.picW {
		m.winOwnLine = true
		m.titleH += 14
	}
}

// matrixTitleLine is the distance between two lines of a wrapped title.
const matrixTitleLine = 16.0

// titleText is the board's title, or "Matrix board".
func (m *matrixModel) titleText() string {
	if m.d.Title == "" {
		return "Matrix board"
	}
	return m.d.Title
}

// titleRows are the lines of the title as drawn.
func (m *matrixModel) titleRows() []string {
	if len(m.titleLines) > 0 {
		return m.titleLines
	}
	W, _ := m.matrixSize()
	return []string{fitText(m.titleText(), W-4, boldFont)}
}

// windowPos is where the window's text starts and how wide it may be.
func (m *matrixModel) windowPos() (x, y, w float64) {
	W, _ := m.matrixSize()
	rows := m.titleRows()
	if m.winOwnLine {
		return 0, 15 + matrixTitleLine*float64(len(rows)-1) + 14, W
	}
	x = math.Ceil(textWidth(rows[len(rows)-1], boldFont)) + 12
	return x, 15, W - x
}

// placeHotKey puts the key of the hot outline (when there is a
// threshold) y px below the legend's top, and grows the legend strip.
func (m *matrixModel) placeHotKey(y float64) {
	if m.d.Threshold <= 0 {
		return
	}
	m.hotKey = &[2]float64{0, y}
	m.legendH += 16
}

// placeMissingKey puts the key of the missing cells (when there are any)
// below the hot outline's key, or y px below the legend's top without
// one, and grows the legend strip.
func (m *matrixModel) placeMissingKey(y float64) {
	if m.missingCells() == 0 {
		return
	}
	if m.hotKey != nil {
		y = m.hotKey[1] + 16
	}
	m.missingKey = &[2]float64{0, y}
	m.legendH += 16
}

// missingName is what the board calls a missing item.
func (m *matrixModel) missingName() string {
	if m.d.MissingName == "" {
		return "missing"
	}
	return m.d.MissingName
}

// missingText says what the grey hatched cells are. The live board words
// it the same way.
func (m *matrixModel) missingText() string {
	n := m.missingCells()
	cells := "cells"
	if n == 1 {
		cells = "cell"
	}
	return fmt.Sprintf("%s: %d %s, not drawn to scale", m.missingName(), n, cells)
}

// hotText says what the outline means: the threshold and how many cells
// (and what share of them) reach it over the window. The live board
// words it the same way.
func (m *matrixModel) hotText() string {
	n := 0
	for _, c := range m.cells {
		if m.hot(c.item) {
			n++
		}
	}
	pct := 0.0
	if all := len(m.cells) - m.missingCells(); all > 0 {
		pct = 100 * float64(n) / float64(all)
	}
	return fmt.Sprintf("outlined: ≥ %s (%d cells, %.1f %%)", display.FormatValue(m.d.Threshold, m.d.Unit), n, pct)
}

// matrixRowLabel is a row's name left of its top-row bar: the text ends
// at X, its baseline at Y (board px, below the title strip).
type matrixRowLabel struct {
	X, Y float64
	Text string
}

// rowLabels are the rows' names, when the layout has room for them.
func (m *matrixModel) rowLabels() []matrixRowLabel {
	if !m.opt.rowLabelsShown() {
		return nil
	}
	var out []matrixRowLabel
	for _, pg := range m.geo.Panels {
		for _, b := range pg.Bars {
			if b.Kind != MatrixTopBar || b.Side == MatrixOut {
				continue
			}
			out = append(out, matrixRowLabel{X: b.X - 3, Y: b.Y + b.H/2 + 3.5,
				Text: fitText(b.ID, m.opt.RowLabels-3, smallFont)})
		}
	}
	return out
}
