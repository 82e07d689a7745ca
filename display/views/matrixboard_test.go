package views

import (
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"superstep/display"
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
		if got := display.FormatValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

// smallRoutes forwards on smallBoard: endpoint e0 hangs from t0, e1 from
// t1; t0 sends e1's traffic by i0 (t0→c0), c0 by i2 (c0→t1); c1 sends
// e0's by i1 (c1→t0), t1 by i3 (t1→c1).
func smallRoutes() *MatrixRoutes {
	return &MatrixRoutes{
		Endpoints: []MatrixEndpoint{{ID: "e0", Header: "t0"}, {ID: "e1", Header: "t1"}},
		Headers:   []string{"t0", "c0", "t1", "c1"},
		Next:      [][]int32{{-1, 0}, {-1, 2}, {3, -1}, {1, -1}},
	}
}

// Routes by hand on the small board: e0 → e1 is t0 i0 c0 i2 t1, e1 → e0
// is t1 i3 c1 i1 t0.
func TestMatrixBoardRouteItems(t *testing.T) {
	d := smallBoard()
	d.Routes = smallRoutes()
	d.Jobs = []MatrixJob{{ID: "j", Endpoints: []string{"e0"}}}
	v := MatrixBoard(d)
	for _, c := range []struct {
		name           string
		src, dst       MatrixSelection
		jobs           []string
		items, headers string
	}{
		{"from t0", MatrixSelection{Headers: []string{"t0"}}, MatrixSelection{}, nil, "i0 i2", "t0 c0 t1"},
		{"into t0", MatrixSelection{}, MatrixSelection{Headers: []string{"t0"}}, nil, "i1 i3", "t0 t1 c1"},
		{"t0 to c0", MatrixSelection{Headers: []string{"t0"}}, MatrixSelection{Headers: []string{"c0"}}, nil, "i0", "t0 c0"},
		{"from i2", MatrixSelection{Items: []string{"i2"}}, MatrixSelection{}, nil, "i2", "t1"},
		{"i3 to i1", MatrixSelection{Items: []string{"i3"}}, MatrixSelection{Items: []string{"i1"}}, nil, "i1 i3", "c1"},
		{"backwards", MatrixSelection{Items: []string{"i1"}}, MatrixSelection{Items: []string{"i3"}}, nil, "", ""},
		{"one endpoint: no pairs", MatrixSelection{Headers: []string{"t0"}}, MatrixSelection{}, []string{"j"}, "", ""},
		{"nothing", MatrixSelection{}, MatrixSelection{}, nil, "", ""},
	} {
		items, headers, err := v.RouteItems(c.src, c.dst, c.jobs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Join(items, " "); got != c.items {
			t.Errorf("%s: items %q, want %q", c.name, got, c.items)
		}
		sortHeaders := func(s string) string { f := strings.Fields(s); sort.Strings(f); return strings.Join(f, " ") }
		if got := sortHeaders(strings.Join(headers, " ")); got != sortHeaders(c.headers) {
			t.Errorf("%s: headers %q, want %q", c.name, got, c.headers)
		}
	}
	if b := MatrixBoard(d).MIMEBundle(); !b.NeedsRuntime {
		t.Errorf("a board with routes does not go live: %q", b.Text())
	}
}

// Every inconsistency between the routes and the board is an error
// naming it.
func TestMatrixBoardRoutesErrors(t *testing.T) {
	for name, c := range map[string]struct {
		mod  func(d *MatrixBoardData)
		want string
	}{
		"dup endpoint":   {func(d *MatrixBoardData) { d.Routes.Endpoints[1].ID = "e0" }, `"e0" is empty or appears twice`},
		"unknown header": {func(d *MatrixBoardData) { d.Routes.Endpoints[0].Header = "x" }, `hangs from header "x"`},
		"bad in":         {func(d *MatrixBoardData) { d.Routes.Endpoints[0].In = "i0" }, `In "i0" is not an item into "t0"`},
		"rows":           {func(d *MatrixBoardData) { d.Routes.Next = d.Routes.Next[:3] }, "3 rows of Next for 4 headers"},
		"short row":      {func(d *MatrixBoardData) { d.Routes.Next[0] = []int32{-1} }, `header "t0" has 1 entries for 2 endpoints`},
		"wrong item":     {func(d *MatrixBoardData) { d.Routes.Next[0][1] = 2 }, `header "t0" sends endpoint "e1" by item 2, which does not leave it`},
		"item range":     {func(d *MatrixBoardData) { d.Routes.Next[0][1] = 9 }, "by item 9"},
		"dup header":     {func(d *MatrixBoardData) { d.Routes.Headers[1] = "t0" }, `header "t0" appears twice`},
		"job endpoint":   {func(d *MatrixBoardData) { d.Jobs = []MatrixJob{{ID: "j", Endpoints: []string{"e7"}}} }, `job "j": endpoint "e7"`},
		"job, no routes": {func(d *MatrixBoardData) { d.Routes = nil; d.Jobs = []MatrixJob{{ID: "j", Endpoints: []string{"e0"}}} }, "no routes"},
		"job item":       {func(d *MatrixBoardData) { d.Jobs = []MatrixJob{{ID: "j", Items: []string{"zz"}}} }, `job "j": item "zz"`},
		"job stack":      {func(d *MatrixBoardData) { d.Jobs = []MatrixJob{{ID: "j", Stacks: map[string]int{"zz": 1}}} }, `header "zz"`},
	} {
		d := smallBoard()
		d.Routes = smallRoutes()
		c.mod(&d)
		_, err := newMatrixModel(d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to say %q", name, err, c.want)
		}
	}
}

// The spec ships the table as item positions among each header's
// outgoing items, and leaves out a table over the budget with a note.
func TestMatrixBoardRoutesSpec(t *testing.T) {
	d := smallBoard()
	d.Routes = smallRoutes()
	m, err := newMatrixModel(d)
	if err != nil {
		t.Fatal(err)
	}
	rs, note := m.routesSpec()
	if rs == nil || note != "" {
		t.Fatalf("no table: %q", note)
	}
	raw, _ := base64.StdEncoding.DecodeString(rs.Next)
	// Rows in header order (t0 t1 c0 c1 as the board meets them); t0's
	// only outgoing item is i0 (position 0), c0's is i2, t1's i3, c1's i1.
	if got := fmt.Sprint(raw); got != "[255 0 0 255 255 0 0 255]" {
		t.Errorf("next %s (rows %v)", got, rs.Rows)
	}
	d.RoutesNote = "n/a"
	d.Routes = nil
	m, _ = newMatrixModel(d)
	if rs, note := m.routesSpec(); rs != nil || note != "n/a" {
		t.Errorf("no routes: %v %q", rs, note)
	}
}
