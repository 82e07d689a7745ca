package views

import (
	"fmt"
	"math"
	"time"
)

// A matrix board is a set of panels; each panel is a row of blocks; each
// block is two matrices stacked around a strip of column bars:
//
//	 top bars │ block 0 columns        │        │ block 1 columns
//	──────────┼────────────────────────┤        ├─────────────────
//	 T0 ▬▬▬▬▬ │ cells: Top × Columns   │        │ cells: Top × Columns
//	 T1 ▬▬▬▬▬ │                        │        │
//	          │ ▮▮ column bars ▮▮      │        │ ▮▮ column bars ▮▮
//	   B0 ▬▬▬ │ cells: Bottom × Columns│  B0 ▬▬ │ cells: Bottom × Columns
//
// The panel's Top rows run across every block and have one bar each at the
// panel's left; each block's Bottom rows are its own, with their bars just
// left of the block. Every column has two sides, In and Out: with the
// blocked layout (the default) a block shows all its In columns, a gap, then
// all its Out columns, and each column bar is repeated over both; with the
// interleaved layout each column's In and Out sides sit side by side under
// one bar split in two halves. A cell is one item (keyed by its id, with a
// category) at one row, one column and one side.
//
// This is the geometry of TreeScope's matrix view (Bhatia et al., "TreeScope:
// Visual Analysis of Network Traffic on Fat-Tree Networks"), where a panel is
// a pod, Top rows are its L1 switches, a block is a bundle, Columns are the
// bundle's L2 switches of the pod, Bottom rows are the bundle's L3 switches
// and a cell is a directed link: every In column holds the links into its
// switch, every Out column the links out of it. The layout itself knows
// nothing of fat-trees. matrixboard_treescope.md beside this file records
// how TreeScope v1.0 lays a pod out (constants and formulas, with line
// references to its code) and the points where this layout departs from it.

// MatrixSide is the side of a column a cell sits in, or the part of a
// header a bar stands for.
type MatrixSide uint8

const (
	// MatrixIn is a column's first side (in TreeScope: items into the
	// column's header); for a split bar, its left half.
	MatrixIn MatrixSide = iota
	// MatrixOut is a column's second side; for a split bar, its right half.
	MatrixOut
	// MatrixWhole is a bar that is not split.
	MatrixWhole
)

// MatrixHeader is one row or column: an id and a category.
type MatrixHeader struct {
	ID       string
	Category int
}

// MatrixCell is one item drawn as a cell. Its row is Top[Row] of its panel,
// or Bottom[Row] of its block when Bottom is set; its column is
// Columns[Column] of Blocks[Block]; Side is MatrixIn or MatrixOut.
type MatrixCell struct {
	Item     string // unique on the board
	Category int
	Block    int
	Column   int
	Side     MatrixSide
	Bottom   bool
	Row      int
}

// MatrixBlock is a set of columns and the rows below their bars that only
// this block has.
type MatrixBlock struct {
	Label   string
	Columns []MatrixHeader
	Bottom  []MatrixHeader
}

// MatrixPanel is a row of blocks sharing the Top rows.
type MatrixPanel struct {
	Label  string
	Top    []MatrixHeader
	Blocks []MatrixBlock
	Cells  []MatrixCell
}

// MatrixBoardData is what a matrix board shows: its panels (all that
// MatrixBoardLayout reads), and for the view (MatrixBoard) the items the
// cells stand for, their values over time, and how to colour them.
type MatrixBoardData struct {
	Panels []MatrixPanel

	Title string
	// Layout is the geometry; nil means DefaultMatrixBoardOptions.
	Layout *MatrixBoardOptions
	// Categories classify the items (a cell's or header's Category is an
	// index into them too).
	Categories []MatrixCategory
	// Items are everything with values; every cell's Item names one.
	Items []MatrixItem
	// Bins are the time bins, in order; Values[i][b] is item i's value in
	// bin b (missing entries are 0). A board without bins shows zeros.
	Bins   []MatrixBin
	Values [][]float32
	// Unit is the values' unit: "B" prints sizes ("1.23 GB"); other
	// strings follow the number.
	Unit string
	// Window is the first and last bin whose sum a cell shows; the zero
	// value means every bin.
	Window [2]int
	// Maps colour the cells by their category's Direction ("up", "down")
	// and the bar halves ("in", "out"); a missing key gets Greens (up),
	// Oranges (down), Purples (in) or white→#e7298a (out).
	Maps map[string]MatrixColorMap
	// Threshold, if positive, outlines every cell whose window total is at
	// least Threshold (a hotspot).
	Threshold float64
	// HotShare, when Threshold is 0, sets it to the least window total
	// that at most this share of the cells reach (0.03: the top 3 %);
	// ties at the top larger than the share outline nothing. The legend
	// says what the outline means.
	HotShare float64
	// MissingName is what the legend and the tooltips call a missing item
	// (MatrixItem.Missing); "" means "missing".
	MissingName string
	// Stat is the time chart's statistic over items per bin: "max" (the
	// default) or "mean".
	Stat string
	// Jobs fill the job table. MinJobDuration is its initial duration
	// filter (0: one minute; negative: none).
	Jobs           []MatrixJob
	MinJobDuration time.Duration
	// MaxBins is the most bins the live board ships: more are merged in
	// runs of equal length. 0 means MatrixBoardMaxBins, lowered so that
	// the values stay within MatrixBoardPayload bytes.
	MaxBins int
	// Routes, if set, let the live board trace routes on click (sources)
	// and shift-click (destinations); tables over MatrixRoutesPayload are
	// left out. RoutesNote is what a click says when Routes is nil.
	Routes     *MatrixRoutes
	RoutesNote string
}

// MatrixBoardOptions are the layout's sizes, in px unless said otherwise.
type MatrixBoardOptions struct {
	Cell float64 // side of a cell
	Gap  float64 // space between adjacent cells (cell pitch = Cell + Gap)
	// Bar sizes in cells: the width of top-row bars, the height of column
	// bars, the width of bottom-row bars. Every bar is one cell thick.
	TopBar, ColumnBar, BottomBar float64
	// Margin separates bars from the matrices they head, the top matrix
	// from the column bars, and one block from the next bottom bars.
	Margin float64
	// SideGap is added to Gap between a block's In and Out column sets
	// (blocked), or between one column's In/Out pair and the next
	// (interleaved).
	SideGap float64
	// Interleaved puts each column's In and Out sides side by side.
	Interleaved bool
	// SplitRowBars draws every row bar as two halves, In then Out.
	SplitRowBars bool
	// PanelsPerRow wraps the panels on the board; 0 puts all in one row.
	PanelsPerRow int
	// PanelGap is the space between panels on the board; LabelHeight the
	// strip above each panel for its label.
	PanelGap, LabelHeight float64
	// RowLabels is the width of a column left of each panel's top-row
	// bars that names the rows (their header ids), drawn when a row is
	// at least 10 px high (Cell + Gap); 0: none.
	RowLabels float64
}

// DefaultMatrixBoardOptions are TreeScope's: cell 7, gap 1, bars 7/3/3
// cells, margin 8, up/down gap 4, blocked, split row bars, a 20 px label
// strip above each panel (TreeScope's pod title). PanelGap (16) is ours:
// TreeScope leaves the placement of pods to the browser.
func DefaultMatrixBoardOptions() MatrixBoardOptions {
	return MatrixBoardOptions{
		Cell: 7, Gap: 1,
		TopBar: 7, ColumnBar: 3, BottomBar: 3,
		Margin: 8, SideGap: 4,
		SplitRowBars: true,
		PanelGap:     16, LabelHeight: 20,
	}
}

// MatrixRect is an axis-aligned rectangle in px, y down.
type MatrixRect struct{ X, Y, W, H float64 }

// MatrixBarKind says which headers a bar stands for.
type MatrixBarKind uint8

const (
	MatrixTopBar    MatrixBarKind = iota // a panel's Top row
	MatrixColumnBar                      // a block's column
	MatrixBottomBar                      // a block's Bottom row
)

// MatrixBar is one bar (or half a bar, or one of a column bar's two
// repeats).
type MatrixBar struct {
	MatrixRect
	Kind     MatrixBarKind
	Block    int // -1 for a top bar
	Index    int // in the panel's Top, or the block's Columns or Bottom
	Side     MatrixSide
	ID       string
	Category int
}

// MatrixCellBox is the rectangle of one cell.
type MatrixCellBox struct {
	MatrixRect
	Item     string
	Category int
}

// MatrixPanelGeometry is the layout of one panel, in board coordinates.
type MatrixPanelGeometry struct {
	Label MatrixRect // the strip above Frame
	// Frame holds every bar and cell of the panel; its size is TreeScope's
	// pod size.
	Frame MatrixRect
	// Blocks[b] spans block b's columns, from the frame's top to the end of
	// its bottom rows.
	Blocks []MatrixRect
	// Bars: top bars in row order, then for each block its column bars
	// (in column order, In before Out) and its bottom bars.
	Bars []MatrixBar
	// Cells[i] is the box of the panel's Cells[i].
	Cells []MatrixCellBox
}

// MatrixBoardGeometry is the layout of a whole board.
type MatrixBoardGeometry struct {
	W, H   float64
	Panels []MatrixPanelGeometry
}

// MatrixBoardLayout lays out a board. It fails if a cell's block, column or
// row is out of range, its side is not MatrixIn or MatrixOut, its item is
// empty or repeated on the board, or two cells of a panel share a place;
// otherwise no two cells or bars of the board overlap.
func MatrixBoardLayout(d MatrixBoardData, o MatrixBoardOptions) (MatrixBoardGeometry, error) {
	o = o.clean()
	var g MatrixBoardGeometry
	seen := map[string]bool{}
	x, y, rowH := 0.0, 0.0, 0.0
	for p, panel := range d.Panels {
		if err := checkMatrixPanel(panel, seen); err != nil {
			return MatrixBoardGeometry{}, fmt.Errorf("panel %d: %w", p, err)
		}
		if o.PanelsPerRow > 0 && p > 0 && p%o.PanelsPerRow == 0 {
			x, y, rowH = 0, y+rowH+o.PanelGap, 0
		} else if p > 0 {
			x += o.PanelGap
		}
		pg := layoutMatrixPanel(panel, o, x, y+o.LabelHeight)
		pg.Label = MatrixRect{x, y, pg.Frame.W, o.LabelHeight}
		g.Panels = append(g.Panels, pg)
		x += pg.Frame.W
		rowH = math.Max(rowH, o.LabelHeight+pg.Frame.H)
		g.W = math.Max(g.W, x)
		g.H = math.Max(g.H, y+rowH)
	}
	return g, nil
}

func (o MatrixBoardOptions) clean() MatrixBoardOptions {
	for _, v := range []*float64{&o.Cell, &o.Gap, &o.TopBar, &o.ColumnBar, &o.BottomBar,
		&o.Margin, &o.SideGap, &o.PanelGap, &o.LabelHeight, &o.RowLabels} {
		if !(*v > 0) { // negative or NaN
			*v = 0
		}
	}
	return o
}

func checkMatrixPanel(p MatrixPanel, seen map[string]bool) error {
	type place struct {
		block, col int
		side       MatrixSide
		bottom     bool
		row        int
	}
	taken := map[place]string{}
	for i, c := range p.Cells {
		switch {
		case c.Item == "":
			return fmt.Errorf("cell %d has no item id", i)
		case seen[c.Item]:
			return fmt.Errorf("item %q appears twice", c.Item)
		case c.Block < 0 || c.Block >= len(p.Blocks):
			return fmt.Errorf("item %q: block %d out of range", c.Item, c.Block)
		case c.Column < 0 || c.Column >= len(p.Blocks[c.Block].Columns):
			return fmt.Errorf("item %q: column %d out of range", c.Item, c.Column)
		case c.Side != MatrixIn && c.Side != MatrixOut:
			return fmt.Errorf("item %q: side must be MatrixIn or MatrixOut", c.Item)
		case c.Row < 0 || !c.Bottom && c.Row >= len(p.Top) ||
			c.Bottom && c.Row >= len(p.Blocks[c.Block].Bottom):
			return fmt.Errorf("item %q: row %d out of range", c.Item, c.Row)
		}
		seen[c.Item] = true
		k := place{c.Block, c.Column, c.Side, c.Bottom, c.Row}
		if other, ok := taken[k]; ok {
			return fmt.Errorf("items %q and %q share a cell", other, c.Item)
		}
		taken[k] = c.Item
	}
	return nil
}

// matrixBand is the height (or width) of n cells in a row.
func matrixBand(n int, o MatrixBoardOptions) float64 {
	if n == 0 {
		return 0
	}
	return float64(n)*(o.Cell+o.Gap) - o.Gap
}

// matrixBlockWidth is the width of a block with n columns.
func matrixBlockWidth(n int, o MatrixBoardOptions) float64 {
	if n == 0 {
		return 0
	}
	if o.Interleaved {
		return float64(n)*(2*o.Cell+o.Gap) + float64(n-1)*(o.Gap+o.SideGap)
	}
	return 2*matrixBand(n, o) + o.Gap + o.SideGap
}

// matrixColumnX is the left of side s of column j of a block with n
// columns starting at x0.
func matrixColumnX(x0 float64, n, j int, s MatrixSide, o MatrixBoardOptions) float64 {
	box := o.Cell + o.Gap
	if o.Interleaved {
		x := x0 + float64(j)*(2*box+o.SideGap)
		if s == MatrixOut {
			x += box
		}
		return x
	}
	x := x0 + float64(j)*box
	if s == MatrixOut {
		x += float64(n)*box + o.SideGap
	}
	return x
}

// layoutMatrixPanel lays out one panel with its frame's top left at (ox, oy).
func layoutMatrixPanel(p MatrixPanel, o MatrixBoardOptions, ox, oy float64) MatrixPanelGeometry {
	box := o.Cell + o.Gap
	nTop := len(p.Top)
	maxBottom, anyColumns := 0, false
	for _, b := range p.Blocks {
		maxBottom = max(maxBottom, len(b.Bottom))
		anyColumns = anyColumns || len(b.Columns) > 0
	}
	topBarW, bottomBarW := 0.0, 0.0
	if nTop > 0 {
		topBarW = o.TopBar * o.Cell
	}
	if maxBottom > 0 {
		bottomBarW = o.BottomBar * o.Cell
	}

	// Vertical: top rows, margin, column bars, margin, bottom rows.
	colBarY, colBarH := matrixBand(nTop, o), 0.0
	if nTop > 0 {
		colBarY += o.Margin
	}
	if anyColumns {
		colBarH = o.ColumnBar * o.Cell
	}
	bottomY := colBarY + colBarH + o.Margin
	h := colBarY + colBarH
	if maxBottom > 0 {
		h = bottomY + matrixBand(maxBottom, o)
	} else if !anyColumns {
		h = matrixBand(nTop, o)
	}

	// Horizontal: row bars, margin, block 0, margin, bottom bars of
	// block 1, margin, block 1, …
	left := math.Max(topBarW, bottomBarW)
	if left > 0 {
		left += o.Margin
	}
	if nTop > 0 && o.rowLabelsShown() {
		left += o.RowLabels
	}
	stride := o.Margin
	if bottomBarW > 0 {
		stride += bottomBarW + o.Margin
	}

	g := MatrixPanelGeometry{Blocks: make([]MatrixRect, len(p.Blocks))}
	rect := func(x, y, w, h float64) MatrixRect { return MatrixRect{ox + x, oy + y, w, h} }
	rowBars := func(kind MatrixBarKind, block int, rows []MatrixHeader, x, y, w float64) {
		for i, r := range rows {
			ry := y + float64(i)*box
			if o.SplitRowBars {
				g.Bars = append(g.Bars,
					MatrixBar{rect(x, ry, w/2, o.Cell), kind, block, i, MatrixIn, r.ID, r.Category},
					MatrixBar{rect(x+w/2, ry, w/2, o.Cell), kind, block, i, MatrixOut, r.ID, r.Category})
			} else {
				g.Bars = append(g.Bars, MatrixBar{rect(x, ry, w, o.Cell), kind, block, i, MatrixWhole, r.ID, r.Category})
			}
		}
	}
	rowBars(MatrixTopBar, -1, p.Top, left-o.Margin-topBarW, 0, topBarW)

	x0s := make([]float64, len(p.Blocks))
	w, x0 := topBarW, left
	for b, blk := range p.Blocks {
		if b > 0 {
			x0 += stride
		}
		n := len(blk.Columns)
		x0s[b] = x0
		bw := matrixBlockWidth(n, o)
		bh := h
		if len(blk.Bottom) > 0 {
			bh = bottomY + matrixBand(len(blk.Bottom), o)
		}
		g.Blocks[b] = rect(x0, 0, bw, bh)
		for j, c := range blk.Columns {
			in := matrixColumnX(x0, n, j, MatrixIn, o)
			if o.Interleaved {
				half := (2*o.Cell + o.Gap) / 2
				g.Bars = append(g.Bars,
					MatrixBar{rect(in, colBarY, half, colBarH), MatrixColumnBar, b, j, MatrixIn, c.ID, c.Category},
					MatrixBar{rect(in+half, colBarY, half, colBarH), MatrixColumnBar, b, j, MatrixOut, c.ID, c.Category})
			} else {
				out := matrixColumnX(x0, n, j, MatrixOut, o)
				g.Bars = append(g.Bars,
					MatrixBar{rect(in, colBarY, o.Cell, colBarH), MatrixColumnBar, b, j, MatrixIn, c.ID, c.Category},
					MatrixBar{rect(out, colBarY, o.Cell, colBarH), MatrixColumnBar, b, j, MatrixOut, c.ID, c.Category})
			}
		}
		rowBars(MatrixBottomBar, b, blk.Bottom, x0-o.Margin-bottomBarW, bottomY, bottomBarW)
		x0 += bw
		w = math.Max(w, x0)
	}

	g.Cells = make([]MatrixCellBox, len(p.Cells))
	for i, c := range p.Cells {
		x := matrixColumnX(x0s[c.Block], len(p.Blocks[c.Block].Columns), c.Column, c.Side, o)
		y := float64(c.Row) * box
		if c.Bottom {
			y += bottomY
		}
		g.Cells[i] = MatrixCellBox{rect(x, y, o.Cell, o.Cell), c.Item, c.Category}
	}
	g.Frame = MatrixRect{ox, oy, w, h}
	return g
}

// rowLabelsShown reports whether the rows' labels are drawn: a label
// column, and rows at least 10 px apart (a 10 px font).
func (o MatrixBoardOptions) rowLabelsShown() bool {
	return o.RowLabels > 0 && o.Cell+o.Gap >= 10
}
