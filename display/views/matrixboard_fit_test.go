package views

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fatTreeLikeBoard is a board shaped as sdk.FatTree lays a fat-tree out:
// pods panels of l1 top rows, bundles blocks of cols columns and l3
// bottom rows each; a cell per directed link (up into the column's In
// side, down out of its Out side, to and from the bundle's rows), six
// categories as the fat-tree's kinds, 6 bins with values that grow with
// the item's index.
func fatTreeLikeBoard(title string, pods, l1, bundles, cols, l3 int) MatrixBoardData {
	t0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	d := MatrixBoardData{Title: title, Unit: "B",
		Categories: []MatrixCategory{
			{"L0→L1", "L0–L1", "up"}, {"L1→L0", "L0–L1", "down"},
			{"L1→L2", "L1–L2", "up"}, {"L2→L1", "L1–L2", "down"},
			{"L2→L3", "L2–L3", "up"}, {"L3→L2", "L2–L3", "down"}}}
	for b := 0; b < 6; b++ {
		d.Bins = append(d.Bins, MatrixBin{t0.Add(time.Duration(b) * 10 * time.Minute), t0.Add(time.Duration(b+1) * 10 * time.Minute)})
	}
	add := func(p *MatrixPanel, name, from, to string, cat, block, col int, side MatrixSide, bottom bool, row int) {
		id := fmt.Sprintf("i%d", len(d.Items))
		d.Items = append(d.Items, MatrixItem{ID: id, Name: name, Category: cat, From: from, To: to})
		p.Cells = append(p.Cells, MatrixCell{Item: id, Category: cat, Block: block, Column: col, Side: side, Bottom: bottom, Row: row})
		v := float32(1e9 * float64(1+len(d.Items)%17))
		d.Values = append(d.Values, []float32{v, v, v, 2 * v, v, v})
	}
	for p := 0; p < pods; p++ {
		panel := MatrixPanel{Label: fmt.Sprintf("pod %d", p)}
		for i := 0; i < l1; i++ {
			panel.Top = append(panel.Top, MatrixHeader{ID: fmt.Sprintf("L1 p%d s%d", p, i), Category: 1})
		}
		for b := 0; b < bundles; b++ {
			blk := MatrixBlock{Label: fmt.Sprintf("bundle %d", b)}
			for c := 0; c < cols; c++ {
				blk.Columns = append(blk.Columns, MatrixHeader{ID: fmt.Sprintf("L2 p%d s%d", p, b*cols+c), Category: 2})
			}
			for j := 0; j < l3; j++ {
				blk.Bottom = append(blk.Bottom, MatrixHeader{ID: fmt.Sprintf("L3 b%d s%d", b, j), Category: 3})
			}
			panel.Blocks = append(panel.Blocks, blk)
		}
		for b, blk := range panel.Blocks {
			for c, col := range blk.Columns {
				for r, top := range panel.Top {
					add(&panel, top.ID+" → "+col.ID, top.ID, col.ID, 2, b, c, MatrixIn, false, r)
					add(&panel, col.ID+" → "+top.ID, col.ID, top.ID, 3, b, c, MatrixOut, false, r)
				}
				for r, bot := range blk.Bottom {
					add(&panel, col.ID+" → "+bot.ID, col.ID, bot.ID, 4, b, c, MatrixOut, true, r)
					add(&panel, bot.ID+" → "+col.ID, bot.ID, col.ID, 5, b, c, MatrixIn, true, r)
				}
			}
		}
		d.Panels = append(d.Panels, panel)
	}
	return d
}

var (
	mbSVGRoot  = regexp.MustCompile(`^<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"`)
	mbSVGText  = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"((?: [a-z-]+="[^"]*")*)>([^<]*)</text>`)
	mbSVGGroup = regexp.MustCompile(`<g transform="translate\(0,([0-9.]+)\)">`)
)

// mbText is a text of a board's static picture: its box as textWidth
// estimates it, in picture px, and its font size.
type mbText struct {
	s                 string
	x0, x1, top, base float64
	size              float64
}

// boardTexts lists the texts of a board's static SVG (the board group's
// offset added) and the picture's size.
func boardTexts(t *testing.T, svg string) (w, h float64, out []mbText) {
	t.Helper()
	m := mbSVGRoot.FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("no <svg> root")
	}
	w, _ = strconv.ParseFloat(m[1], 64)
	h, _ = strconv.ParseFloat(m[2], 64)
	gStart, gEnd, dy := -1, -1, 0.0
	if g := mbSVGGroup.FindStringSubmatchIndex(svg); g != nil {
		gStart = g[0]
		gEnd = gStart + strings.Index(svg[gStart:], "</g>")
		dy, _ = strconv.ParseFloat(svg[g[2]:g[3]], 64)
	}
	for _, tm := range mbSVGText.FindAllStringSubmatchIndex(svg, -1) {
		x, _ := strconv.ParseFloat(svg[tm[2]:tm[3]], 64)
		y, _ := strconv.ParseFloat(svg[tm[4]:tm[5]], 64)
		if tm[0] > gStart && tm[0] < gEnd {
			y += dy
		}
		attrs := svg[tm[6]:tm[7]]
		size := fontSize
		if a := regexp.MustCompile(`font-size="([0-9.]+)"`).FindStringSubmatch(attrs); a != nil {
			size, _ = strconv.ParseFloat(a[1], 64)
		}
		if strings.Contains(attrs, `font-weight="bold"`) {
			size = boldFont // textWidth's estimate of bold text
		}
		s := html.UnescapeString(svg[tm[8]:tm[9]])
		tw := textWidth(s, size)
		x0 := x
		if strings.Contains(attrs, `text-anchor="end"`) {
			x0 = x - tw
		} else if strings.Contains(attrs, `text-anchor="middle"`) {
			x0 = x - tw/2
		}
		out = append(out, mbText{s: s, x0: x0, x1: x0 + tw, top: y - 0.8*size, base: y, size: size})
	}
	return w, h, out
}

// checkBoardTexts fails when a text of the picture is under 10 px, cut,
// outside the picture or over another text.
func checkBoardTexts(t *testing.T, name, svg string) (w, h float64) {
	t.Helper()
	w, h, texts := boardTexts(t, svg)
	for i, a := range texts {
		if a.size < smallFont {
			t.Errorf("%s: %q at %v px", name, a.s, a.size)
		}
		if strings.HasSuffix(a.s, "…") {
			t.Errorf("%s: %q is cut", name, a.s)
		}
		if a.x0 < -0.5 || a.x1 > w+0.5 || a.top < -0.5 || a.base > h+0.5 {
			t.Errorf("%s: %q spans x %.1f–%.1f, y %.1f–%.1f: outside %v × %v", name, a.s, a.x0, a.x1, a.top, a.base, w, h)
		}
		for _, b := range texts[i+1:] {
			if a.x0 < b.x1-0.5 && b.x0 < a.x1-0.5 && a.top < b.base-0.5 && b.top < a.base-0.5 {
				t.Errorf("%s: %q (x %.1f–%.1f) and %q (x %.1f–%.1f) overlap", name, a.s, a.x0, a.x1, b.s, b.x0, b.x1)
			}
		}
	}
	return w, h
}

// TestCompareMatrixBoardsFitRow: the comparison of two fat-tree boards
// (a k = 4 tree, and the 1,296-node machine's four pods of 18 L1) in a
// 900 px row is three pictures side by side: their widths and the gaps
// add up to at most 900 px, every text is inside its picture, at least
// 10 px, whole and clear of the others, A and B keep one colour domain
// per map, the cells are as large as the share allows, and the live
// board is laid out as the static one.
func TestCompareMatrixBoardsFitRow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a        MatrixBoardData
		minCell  float64
		maxTallH float64
	}{
		{"k4", fatTreeLikeBoard("4 pods × 2 L1 × 2 nodes, 2 bundles × 2 L3", 4, 2, 2, 1, 2), 7, 400},
		{"paper1296", fatTreeLikeBoard("D-mod-k", 4, 18, 2, 9, 18), 4, 1400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.a
			b.Title = "random (seed 7)"
			b.Values = make([][]float32, len(tc.a.Values))
			for i, row := range tc.a.Values {
				b.Values[i] = append([]float32(nil), row...)
				b.Values[i][i%6] *= 3
			}
			row, err := CompareMatrixBoards(tc.a, b)
			if err != nil {
				t.Fatal(err)
			}
			row = row.WithWidth(900)
			items := row.fitted()
			total := rowGap * float64(len(items)-1)
			var specs []matrixSpec
			for k, it := range items {
				v, ok := it.(*MatrixBoardView)
				if !ok {
					t.Fatalf("item %d is a %T", k, it)
				}
				name := fmt.Sprintf("board %d", k)
				w, h := checkBoardTexts(t, name, v.SVG())
				total += w
				if h > tc.maxTallH {
					t.Errorf("%s: %v px tall, want ≤ %v", name, h, tc.maxTallH)
				}
				m, err := v.model()
				if err != nil {
					t.Fatal(err)
				}
				if m.opt.Cell < tc.minCell {
					t.Errorf("%s: cells of %v px, want ≥ %v", name, m.opt.Cell, tc.minCell)
				}
				sp := m.spec()
				t.Logf("%s: %v × %v px, cells of %v px, %d panels per row", name, w, h, m.opt.Cell, m.opt.PanelsPerRow)
				if math.Abs(float64(sp.W)-w) > 0.01 || math.Abs(float64(sp.H)-h) > 0.01 {
					t.Errorf("%s: live board %v × %v, static %v × %v", name, sp.W, sp.H, w, h)
				}
				if sp.Fit <= 0 || float64(sp.Fit) > row.itemWidth()+0.01 || w > float64(sp.Fit)+0.01 {
					t.Errorf("%s: fitted to %v px, picture %v px, share %v px", name, sp.Fit, w, row.itemWidth())
				}
				specs = append(specs, sp)
			}
			if total > 900 {
				t.Errorf("three boards and gaps: %v px, want ≤ 900", total)
			}
			for key, da := range specs[0].Domain {
				if db := specs[1].Domain[key]; da != db {
					t.Errorf("map %s: A's domain %v, B's %v", key, da, db)
				}
			}
		})
	}
}

// TestMatrixBoardFitKeepsUnfitted: a board not in a row is drawn as
// before (one legend row, TreeScope's cells), and fitting a board to a
// width it already fits keeps its layout.
func TestMatrixBoardFitKeepsUnfitted(t *testing.T) {
	d := fatTreeLikeBoard("k = 4", 4, 2, 2, 1, 2)
	m, err := newMatrixModel(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.titleH != matrixTitleH || m.legendH != matrixLegendH || m.opt.Cell != 7 {
		t.Fatalf("unfitted board: title %v, legend %v, cell %v", m.titleH, m.legendH, m.opt.Cell)
	}
	wide := MatrixBoard(d).fitWidth(2000).(*MatrixBoardView)
	if wide.Data.Layout != nil {
		t.Fatalf("a board that fits was laid out again: %+v", *wide.Data.Layout)
	}
	if w, _ := checkBoardTexts(t, "wide", wide.SVG()); w > 2000 || math.IsNaN(w) {
		t.Fatalf("width %v", w)
	}
}

// TestHotThreshold: the threshold by share outlines at most the share,
// steps above ties at the top, and outlines nothing on a uniform board.
func TestHotThreshold(t *testing.T) {
	ts := make([]float64, 100)
	for i := range ts {
		ts[i] = float64(i + 1)
	}
	if got := hotThreshold(ts, 0.03); got != 98 {
		t.Errorf("1…100, top 3 %%: %v, want 98", got)
	}
	tied := append([]float64{100, 99, 99, 99}, ts[:96]...) // 99 three times: the top 3 would be 4 cells
	if got := hotThreshold(tied, 0.03); got != 100 {
		t.Errorf("with ties: %v, want 100", got)
	}
	uniform := []float64{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}
	if got := hotThreshold(uniform, 0.03); got != 0 {
		t.Errorf("uniform: %v, want 0 (none)", got)
	}
	top := []float64{9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	if got := hotThreshold(top, 0.03); got != 9 {
		t.Errorf("three of 100 at the top: %v, want 9", got)
	}
}
