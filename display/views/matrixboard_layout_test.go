package views

import (
	"fmt"
	"strings"
	"testing"
)

// Categories of the test's items: the four kinds of directed link between
// switches of a fat-tree, as plain numbers.
const (
	mbUp12   = iota // L1 → L2
	mbDown21        // L2 → L1
	mbUp23          // L2 → L3
	mbDown32        // L3 → L2
)

// mbLink is what the test knows of an item: its two ends.
type mbLink struct{ from, to string }

// mbPod describes one pod of a fat-tree as a generic panel: Top rows are
// its l1 L1 switches, one block per bundle, whose columns are the pod's l2
// L2 switches of that bundle and whose bottom rows are the bundle's l3 L3
// switches. Every L2 is linked both ways with every L1 of the pod and every
// L3 of its bundle. Links into an L2 go to its In side, links out of it to
// its Out side.
func mbPod(pod, l1, bundles, l2, l3 int, links map[string]mbLink) MatrixPanel {
	p := MatrixPanel{Label: fmt.Sprintf("pod %d", pod)}
	for i := range l1 {
		p.Top = append(p.Top, MatrixHeader{ID: fmt.Sprintf("p%d.L1.%d", pod, i), Category: 1})
	}
	add := func(c MatrixCell, from, to string) {
		c.Item = from + ">" + to
		links[c.Item] = mbLink{from, to}
		p.Cells = append(p.Cells, c)
	}
	for b := range bundles {
		blk := MatrixBlock{Label: fmt.Sprintf("bundle %d", b)}
		for j := range l2 {
			blk.Columns = append(blk.Columns, MatrixHeader{ID: fmt.Sprintf("p%d.L2.%d.%d", pod, b, j), Category: 2})
		}
		for t := range l3 {
			blk.Bottom = append(blk.Bottom, MatrixHeader{ID: fmt.Sprintf("L3.%d.%d", b, t), Category: 3})
		}
		p.Blocks = append(p.Blocks, blk)
		for j, sw2 := range blk.Columns {
			for i, sw1 := range p.Top {
				add(MatrixCell{Category: mbUp12, Block: b, Column: j, Side: MatrixIn, Row: i}, sw1.ID, sw2.ID)
				add(MatrixCell{Category: mbDown21, Block: b, Column: j, Side: MatrixOut, Row: i}, sw2.ID, sw1.ID)
			}
			for t, sw3 := range blk.Bottom {
				add(MatrixCell{Category: mbDown32, Block: b, Column: j, Side: MatrixIn, Bottom: true, Row: t}, sw3.ID, sw2.ID)
				add(MatrixCell{Category: mbUp23, Block: b, Column: j, Side: MatrixOut, Bottom: true, Row: t}, sw2.ID, sw3.ID)
			}
		}
	}
	return p
}

// The two fat-trees of the issue: k = 4 (a pod: 2 L1, 2 L2 in 2 bundles of
// 2 L3) and the paper's 1296-node machine (a pod: 18 L1, 18 L2 in 2 bundles
// of 18 L3).
var mbTrees = []struct {
	name                      string
	pods, l1, bundles, l2, l3 int
	w, h                      float64 // TreeScope's pod size, blocked, 7 px
	wInter                    float64 // our interleaved pod width
}{
	{"k4", 4, 2, 2, 1, 2, 132, 67, 124},
	{"paper1296", 4, 18, 2, 9, 18, 388, 323, 444},
}

func mbBoard(pods, l1, bundles, l2, l3 int) (MatrixBoardData, map[string]mbLink) {
	links := map[string]mbLink{}
	var d MatrixBoardData
	for p := range pods {
		d.Panels = append(d.Panels, mbPod(p, l1, bundles, l2, l3, links))
	}
	return d, links
}

func mbOverlap(a, b MatrixRect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func mbInside(a, f MatrixRect) bool {
	return a.X >= f.X && a.Y >= f.Y && a.X+a.W <= f.X+f.W && a.Y+a.H <= f.Y+f.H
}

func TestMatrixBoardTreeScopePodSizes(t *testing.T) {
	for _, tr := range mbTrees {
		d, _ := mbBoard(tr.pods, tr.l1, tr.bundles, tr.l2, tr.l3)
		o := DefaultMatrixBoardOptions()
		g, err := MatrixBoardLayout(d, o)
		if err != nil {
			t.Fatal(err)
		}
		for p, pg := range g.Panels {
			if pg.Frame.W != tr.w || pg.Frame.H != tr.h {
				t.Errorf("%s pod %d: %v × %v px, TreeScope draws %v × %v", tr.name, p, pg.Frame.W, pg.Frame.H, tr.w, tr.h)
			}
		}
		o.Interleaved = true
		g, err = MatrixBoardLayout(d, o)
		if err != nil {
			t.Fatal(err)
		}
		if f := g.Panels[0].Frame; f.W != tr.wInter || f.H != tr.h {
			t.Errorf("%s interleaved: %v × %v px, want %v × %v", tr.name, f.W, f.H, tr.wInter, tr.h)
		}
	}
}

// TestMatrixBoardTreeScopeCoordinates pins a k = 4 pod to the coordinates
// of TreeScope's layout.js (layout_idea 3, blocked, pixel size 7).
func TestMatrixBoardTreeScopeCoordinates(t *testing.T) {
	d, _ := mbBoard(1, 2, 2, 1, 2)
	o := DefaultMatrixBoardOptions()
	o.LabelHeight = 0
	g, err := MatrixBoardLayout(d, o)
	if err != nil {
		t.Fatal(err)
	}
	pg := g.Panels[0]
	bar := func(kind MatrixBarKind, block, index int, side MatrixSide) MatrixRect {
		for _, b := range pg.Bars {
			if b.Kind == kind && b.Block == block && b.Index == index && b.Side == side {
				return b.MatrixRect
			}
		}
		t.Fatalf("no bar %v %v %v %v", kind, block, index, side)
		return MatrixRect{}
	}
	for _, c := range []struct {
		what      string
		got, want MatrixRect
	}{
		{"L1 #1 left half", bar(MatrixTopBar, -1, 1, MatrixIn), MatrixRect{0, 8, 24.5, 7}},
		{"L1 #1 right half", bar(MatrixTopBar, -1, 1, MatrixOut), MatrixRect{24.5, 8, 24.5, 7}},
		{"L2 bundle 0 in", bar(MatrixColumnBar, 0, 0, MatrixIn), MatrixRect{57, 23, 7, 21}},
		{"L2 bundle 0 out", bar(MatrixColumnBar, 0, 0, MatrixOut), MatrixRect{69, 23, 7, 21}},
		{"L2 bundle 1 in", bar(MatrixColumnBar, 1, 0, MatrixIn), MatrixRect{113, 23, 7, 21}},
		{"L3 bundle 0 #0 left half", bar(MatrixBottomBar, 0, 0, MatrixIn), MatrixRect{28, 52, 10.5, 7}},
		{"L3 bundle 1 #1 left half", bar(MatrixBottomBar, 1, 1, MatrixIn), MatrixRect{84, 60, 10.5, 7}},
		{"block 1", pg.Blocks[1], MatrixRect{113, 0, 19, 67}},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.what, c.got, c.want)
		}
	}
	cell := map[string]MatrixRect{}
	for _, c := range pg.Cells {
		cell[c.Item] = c.MatrixRect
	}
	for item, want := range map[string]MatrixRect{
		"p0.L1.1>p0.L2.1.0": {113, 8, 7, 7},  // up: in column
		"p0.L2.1.0>p0.L1.1": {125, 8, 7, 7},  // down: out column
		"L3.0.1>p0.L2.0.0":  {57, 60, 7, 7},  // down: in column
		"p0.L2.0.0>L3.0.1":  {69, 60, 7, 7},  // up: out column
		"p0.L2.1.0>L3.1.0":  {125, 52, 7, 7}, // up: out column
	} {
		if cell[item] != want {
			t.Errorf("cell %s: %+v, want %+v", item, cell[item], want)
		}
	}
}

// mbCheck asserts the layout's invariants on a fat-tree board.
func mbCheck(t *testing.T, name string, d MatrixBoardData, links map[string]mbLink, g MatrixBoardGeometry, o MatrixBoardOptions) {
	t.Helper()
	if len(g.Panels) != len(d.Panels) {
		t.Fatalf("%s: %d panels laid out, want %d", name, len(g.Panels), len(d.Panels))
	}
	board := MatrixRect{0, 0, g.W, g.H}
	items := map[string]bool{}
	var frames []MatrixRect
	for p, pg := range g.Panels {
		panel := d.Panels[p]
		frames = append(frames, pg.Frame, pg.Label)
		if !mbInside(pg.Frame, board) || !mbInside(pg.Label, board) {
			t.Errorf("%s panel %d: frame %+v or label %+v outside the board %v × %v", name, p, pg.Frame, pg.Label, g.W, g.H)
		}
		// One cell per item, with its item's id and category.
		if len(pg.Cells) != len(panel.Cells) {
			t.Fatalf("%s panel %d: %d cells, want %d", name, p, len(pg.Cells), len(panel.Cells))
		}
		for i, c := range pg.Cells {
			if c.Item != panel.Cells[i].Item || c.Category != panel.Cells[i].Category {
				t.Errorf("%s panel %d cell %d: %s/%d, want %s/%d", name, p, i, c.Item, c.Category, panel.Cells[i].Item, panel.Cells[i].Category)
			}
			if items[c.Item] {
				t.Errorf("%s: item %s drawn twice", name, c.Item)
			}
			items[c.Item] = true
			if c.W != o.Cell || c.H != o.Cell {
				t.Errorf("%s: cell %s is %v × %v", name, c.Item, c.W, c.H)
			}
		}
		// Nothing overlaps, everything lies in the frame.
		var rects []MatrixRect
		var what []string
		for _, c := range pg.Cells {
			rects, what = append(rects, c.MatrixRect), append(what, c.Item)
		}
		for _, b := range pg.Bars {
			rects, what = append(rects, b.MatrixRect), append(what, fmt.Sprintf("bar %d/%d/%d/%d %s", b.Kind, b.Block, b.Index, b.Side, b.ID))
		}
		for i, r := range rects {
			if !mbInside(r, pg.Frame) {
				t.Errorf("%s panel %d: %s %+v outside the frame %+v", name, p, what[i], r, pg.Frame)
			}
			for j := i + 1; j < len(rects); j++ {
				if mbOverlap(r, rects[j]) {
					t.Fatalf("%s panel %d: %s %+v overlaps %s %+v", name, p, what[i], r, what[j], rects[j])
				}
			}
		}
		// Columns: every cell lies under exactly one column bar (same x
		// span, within its block); In columns hold only links into the
		// column's switch, Out columns only links out of it. Rows: every
		// cell has exactly one row bar on its line (same y and height) to
		// its left, whose switch is the link's other end.
		for _, c := range pg.Cells {
			link := links[c.Item]
			var cols, rows []MatrixBar
			for _, b := range pg.Bars {
				switch {
				case b.Kind == MatrixColumnBar && b.X <= c.X && c.X+c.W <= b.X+b.W:
					cols = append(cols, b)
				case b.Kind != MatrixColumnBar && b.Y == c.Y && b.H == c.H && b.X+b.W < c.X &&
					(b.Side == MatrixIn || b.Side == MatrixWhole):
					rows = append(rows, b)
				}
			}
			if len(cols) != 1 {
				t.Fatalf("%s: cell %s under %d column bars", name, c.Item, len(cols))
			}
			col := cols[0]
			if !mbInside(c.MatrixRect, pg.Blocks[col.Block]) {
				t.Errorf("%s: cell %s outside its block %+v", name, c.Item, pg.Blocks[col.Block])
			}
			into := c.Category == mbUp12 || c.Category == mbDown32
			switch {
			case col.Side == MatrixIn && (!into || link.to != col.ID):
				t.Errorf("%s: in column of %s holds %s (%s → %s)", name, col.ID, c.Item, link.from, link.to)
			case col.Side == MatrixOut && (into || link.from != col.ID):
				t.Errorf("%s: out column of %s holds %s (%s → %s)", name, col.ID, c.Item, link.from, link.to)
			}
			// The row bar nearest to the left is the cell's row.
			var row *MatrixBar
			for i := range rows {
				if (rows[i].Kind == MatrixTopBar || rows[i].Block == col.Block) && (row == nil || rows[i].X > row.X) {
					row = &rows[i]
				}
			}
			other := link.from
			if other == col.ID {
				other = link.to
			}
			if row == nil || row.ID != other {
				t.Errorf("%s: cell %s (%s → %s) not on the row of %s", name, c.Item, link.from, link.to, other)
			}
			if row != nil && (row.Kind == MatrixTopBar) != strings.Contains(other, ".L1.") {
				t.Errorf("%s: cell %s in the wrong band", name, c.Item)
			}
		}
		// Blocked: in each block, every In column lies left of every Out
		// column. Interleaved: a column's Out side right after its In side.
		for _, a := range pg.Bars {
			for _, b := range pg.Bars {
				if a.Kind != MatrixColumnBar || b.Kind != MatrixColumnBar || a.Block != b.Block ||
					a.Side != MatrixIn || b.Side != MatrixOut {
					continue
				}
				if !o.Interleaved && a.X+a.W > b.X {
					t.Errorf("%s: in column %s right of out column %s", name, a.ID, b.ID)
				}
				if o.Interleaved && a.Index == b.Index && a.X+a.W != b.X {
					t.Errorf("%s: halves of %s apart", name, a.ID)
				}
			}
		}
	}
	for i := range frames {
		for j := i + 1; j < len(frames); j++ {
			if mbOverlap(frames[i], frames[j]) {
				t.Errorf("%s: panels overlap: %+v %+v", name, frames[i], frames[j])
			}
		}
	}
	if len(items) != len(links) {
		t.Errorf("%s: %d items drawn, %d links", name, len(items), len(links))
	}
}

func TestMatrixBoardInvariants(t *testing.T) {
	for _, tr := range mbTrees {
		d, links := mbBoard(tr.pods, tr.l1, tr.bundles, tr.l2, tr.l3)
		if tr.name == "paper1296" {
			d.Panels = d.Panels[:2] // the all-pairs checks are quadratic
		}
		for _, inter := range []bool{false, true} {
			for _, split := range []bool{false, true} {
				o := DefaultMatrixBoardOptions()
				o.Interleaved, o.SplitRowBars, o.PanelsPerRow = inter, split, 2
				g, err := MatrixBoardLayout(d, o)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]mbLink{}
				for _, p := range d.Panels {
					for _, c := range p.Cells {
						want[c.Item] = links[c.Item]
					}
				}
				mbCheck(t, fmt.Sprintf("%s interleaved=%v split=%v", tr.name, inter, split), d, want, g, o)
			}
		}
	}
}

func TestMatrixBoardCellCounts(t *testing.T) {
	// One cell per directed inter-switch link: per pod, 2·l1·l2 + 2·l2·l3
	// per bundle.
	for _, tr := range mbTrees {
		d, _ := mbBoard(tr.pods, tr.l1, tr.bundles, tr.l2, tr.l3)
		g, err := MatrixBoardLayout(d, DefaultMatrixBoardOptions())
		if err != nil {
			t.Fatal(err)
		}
		want := tr.bundles * (2*tr.l1*tr.l2 + 2*tr.l2*tr.l3)
		for p, pg := range g.Panels {
			if len(pg.Cells) != want {
				t.Errorf("%s pod %d: %d cells, want %d", tr.name, p, len(pg.Cells), want)
			}
		}
	}
}

func TestMatrixBoardBoardWrap(t *testing.T) {
	d, _ := mbBoard(4, 2, 2, 1, 2)
	o := DefaultMatrixBoardOptions()
	o.PanelsPerRow = 3
	g, err := MatrixBoardLayout(d, o)
	if err != nil {
		t.Fatal(err)
	}
	// Three pods of 132 × (20 + 67) and two gaps of 16 in the first row,
	// one pod in the second.
	if g.W != 3*132+2*16 || g.H != 2*87+16 {
		t.Errorf("board %v × %v, want %v × %v", g.W, g.H, 3*132+2*16, 2*87+16)
	}
	if f := g.Panels[3].Frame; f.X != 0 || f.Y != 87+16+20 {
		t.Errorf("fourth pod's frame at %v, %v", f.X, f.Y)
	}
}

func TestMatrixBoardErrors(t *testing.T) {
	base := func() MatrixBoardData {
		d, _ := mbBoard(2, 2, 2, 1, 2)
		return d
	}
	for _, c := range []struct {
		name  string
		edit  func(d *MatrixBoardData)
		inErr string
	}{
		{"repeated item", func(d *MatrixBoardData) { d.Panels[1].Cells[0].Item = d.Panels[0].Cells[0].Item }, "twice"},
		{"empty item", func(d *MatrixBoardData) { d.Panels[0].Cells[3].Item = "" }, "no item"},
		{"block", func(d *MatrixBoardData) { d.Panels[0].Cells[0].Block = 2 }, "block"},
		{"column", func(d *MatrixBoardData) { d.Panels[0].Cells[0].Column = -1 }, "column"},
		{"top row", func(d *MatrixBoardData) { d.Panels[0].Cells[0].Row = 2 }, "row"},
		{"bottom row", func(d *MatrixBoardData) {
			d.Panels[0].Blocks[0].Bottom = d.Panels[0].Blocks[0].Bottom[:1]
		}, "row"},
		{"side", func(d *MatrixBoardData) { d.Panels[0].Cells[0].Side = MatrixWhole }, "side"},
		{"same place", func(d *MatrixBoardData) { d.Panels[0].Cells[1].Side = d.Panels[0].Cells[0].Side }, "share"},
	} {
		d := base()
		c.edit(&d)
		if _, err := MatrixBoardLayout(d, DefaultMatrixBoardOptions()); err == nil || !strings.Contains(err.Error(), c.inErr) {
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.inErr)
		}
	}
	if _, err := MatrixBoardLayout(base(), DefaultMatrixBoardOptions()); err != nil {
		t.Errorf("valid board: %v", err)
	}
}

func TestMatrixBoardEmpty(t *testing.T) {
	g, err := MatrixBoardLayout(MatrixBoardData{Panels: []MatrixPanel{{}, {Top: []MatrixHeader{{ID: "a"}}}}}, DefaultMatrixBoardOptions())
	if err != nil {
		t.Fatal(err)
	}
	if f := g.Panels[0].Frame; f.W != 0 || f.H != 0 {
		t.Errorf("empty panel %+v", f)
	}
	if f := g.Panels[1].Frame; f.W != 49 || f.H != 7 || len(g.Panels[1].Bars) != 2 {
		t.Errorf("panel with one row and no blocks: %+v, %d bars", f, len(g.Panels[1].Bars))
	}
}
