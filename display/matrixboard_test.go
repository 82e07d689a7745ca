package display

import (
	"math"
	"strings"
	"testing"
	"time"
)

// smallBoard is one panel of 2 top rows × 1 block of 2 columns, 4 cells
// (top row r, column c, side In for r == c, Out otherwise), 3 bins an
// hour long: cell i carries i+1 in bin 0, 10·(i+1) in bin 1, 100·(i+1)
// in bin 2; one up and one down category.
func smallBoard() MatrixBoardData {
	t0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	d := MatrixBoardData{
		Categories: []MatrixCategory{{"a→b", "A–B", "up"}, {"b→a", "A–B", "down"}},
		Panels: []MatrixPanel{{Label: "p",
			Top:    []MatrixHeader{{ID: "t0"}, {ID: "t1"}},
			Blocks: []MatrixBlock{{Columns: []MatrixHeader{{ID: "c0"}, {ID: "c1"}}}}}},
	}
	for i := 0; i < 4; i++ {
		r, c := i/2, i%2
		side, cat := MatrixIn, 0
		from, to := "t"+string(rune('0'+r)), "c"+string(rune('0'+c))
		if r != c {
			side, cat = MatrixOut, 1
			from, to = to, from
		}
		id := "i" + string(rune('0'+i))
		d.Items = append(d.Items, MatrixItem{ID: id, Name: from + "→" + to, Category: cat, From: from, To: to})
		d.Panels[0].Cells = append(d.Panels[0].Cells, MatrixCell{Item: id, Category: cat, Column: c, Side: side, Row: r})
		k := float32(i + 1)
		d.Values = append(d.Values, []float32{k, 10 * k, 100 * k})
	}
	for b := 0; b < 3; b++ {
		d.Bins = append(d.Bins, MatrixBin{t0.Add(time.Duration(b) * time.Hour), t0.Add(time.Duration(b+1) * time.Hour)})
	}
	return d
}

func TestMatrixBoardWindowAndColours(t *testing.T) {
	d := smallBoard()
	d.Window = [2]int{1, 2}
	d.Threshold = 330
	m, err := newMatrixModel(d)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{110, 220, 330, 440} {
		if m.total[i] != want {
			t.Fatalf("item %d: total %v, want %v", i, m.total[i], want)
		}
	}
	// Up cells are items 0 and 3 (110, 440); down cells 1 and 2 (220, 330);
	// single-hue ramps start at 0, so 110 is entry ⌊110/440·256⌋ = 64.
	up, down := m.scales["up"], m.scales["down"]
	if up.Min != 0 || up.Max != 440 || down.Min != 0 || down.Max != 330 {
		t.Fatalf("up %v–%v, down %v–%v", up.Min, up.Max, down.Min, down.Max)
	}
	svg := matrixBoardSVG(m)
	greens, _ := RampByName("greens")
	for _, want := range []string{hexColor(greens.Colors[64]), hexColor(greens.Colors[255])} {
		if !strings.Contains(svg, `fill="`+want+`"`) {
			t.Fatalf("no cell of colour %s", want)
		}
	}
	// Bars: t0's In half holds nothing entering t0 but item 1 (c1→t0, 220).
	if v := m.barValue(m.hdrIndex["t0"], MatrixIn); v != 220 {
		t.Fatalf("t0 in: %v", v)
	}
	if v := m.barValue(m.hdrIndex["c1"], MatrixIn); v != 440 {
		t.Fatalf("c1 in: %v", v)
	}
	s, err := MatrixBoard(d).Summary()
	if err != nil {
		t.Fatal(err)
	}
	if s.Max != 440 || s.MaxItem != "i3" || len(s.Hot) != 2 || strings.Count(svg, `fill="none" stroke="#000000"`) != 2 {
		t.Fatalf("summary %+v", s)
	}
}

func TestMatrixBoardViewErrors(t *testing.T) {
	for name, mod := range map[string]func(*MatrixBoardData){
		"no item":       func(d *MatrixBoardData) { d.Panels[0].Cells[0].Item = "nope" },
		"dup item":      func(d *MatrixBoardData) { d.Items[1].ID = "i0" },
		"bad category":  func(d *MatrixBoardData) { d.Items[0].Category = 7 },
		"too many bins": func(d *MatrixBoardData) { d.Values[0] = append(d.Values[0], 1) },
		"window":        func(d *MatrixBoardData) { d.Window = [2]int{2, 5} },
		"ramp":          func(d *MatrixBoardData) { d.Maps = map[string]MatrixColorMap{"up": {Ramp: "viridis"}} },
		"domain":        func(d *MatrixBoardData) { d.Maps = map[string]MatrixColorMap{"up": {Domain: []float64{3, 1}}} },
		"direction":     func(d *MatrixBoardData) { d.Categories[0].Direction = "in" },
	} {
		d := smallBoard()
		mod(&d)
		if _, err := newMatrixModel(d); err == nil {
			t.Errorf("%s: no error", name)
		}
		if b := MatrixBoard(d).MIMEBundle(); b.NeedsRuntime || !strings.Contains(b.Text(), "matrix board") {
			t.Errorf("%s: bundle %q", name, b.Text())
		}
	}
}

func TestMatrixBoardMergesBins(t *testing.T) {
	d := smallBoard()
	d.MaxBins = 2
	m, err := newMatrixModel(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.d.Bins) != 2 || m.value(3, 0) != 44 || m.value(3, 1) != 400 || m.d.Bins[1].End != d.Bins[2].End {
		t.Fatalf("bins %v, values %v", m.d.Bins, m.d.Values[3])
	}
}

func TestCompareMatrixBoards(t *testing.T) {
	a, b := smallBoard(), smallBoard()
	for i := range b.Values {
		for j := range b.Values[i] {
			b.Values[i][j] *= 2
		}
	}
	b.Values[2][0] = 0 // item 2 loses its first bin: 3 → 0
	row, err := CompareMatrixBoards(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(row.Items) != 3 {
		t.Fatalf("%d boards", len(row.Items))
	}
	ma, _ := newMatrixModel(row.Items[0].(*MatrixBoardView).Data)
	mb, _ := newMatrixModel(row.Items[1].(*MatrixBoardView).Data)
	md, _ := newMatrixModel(row.Items[2].(*MatrixBoardView).Data)
	// One scale: both boards get the union domain of each map.
	if ma.scales["up"] != mb.scales["up"] || ma.scales["up"].Max != 2*444 || ma.scales["up"].Min != 0 {
		t.Fatalf("up scales %v / %v", ma.scales["up"], mb.scales["up"])
	}
	for i, want := range []float64{111, 222, 333 - 3 - 3, 444} {
		if md.total[i] != want {
			t.Fatalf("difference of item %d: %v, want %v", i, md.total[i], want)
		}
	}
	s := md.scales["up"]
	if s.Mid != 0 || s.Max != 444 || s.Min != -444 || !s.Ramp.Diverging || hexColor(s.Color(0)) != "#ffffbf" {
		t.Fatalf("difference scale %+v", s)
	}
	if _, err := CompareMatrixBoards(a, MatrixBoardData{}); err == nil {
		t.Fatal("boards with different items compared")
	}
}

func TestFormatValue(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0, "B", "0 B"}, {999.4, "B", "999 B"}, {999.5, "B", "1.00 kB"}, {1234, "B", "1.23 kB"},
		{9994, "B", "9.99 kB"}, {9996, "B", "10.0 kB"}, {99940, "B", "99.9 kB"}, {99960, "B", "100 kB"},
		{999_400, "B", "999 kB"}, {999_600, "B", "1.00 MB"}, {1.5e12, "B", "1.50 TB"}, {-2048, "B", "-2.05 kB"},
		{math.Inf(1), "B", "+Inf"}, {1234, "", "1,234"},
	} {
		if got := FormatValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}
