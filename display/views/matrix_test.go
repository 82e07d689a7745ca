package views

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// threeByThree is the hand-made matrix of the tests:
//
//	       P0     P1    P2
//	P0      0  2,240    10
//	P1  1,120      0     0
//	P2      0    560     0
func threeByThree() MatrixData {
	return MatrixData{
		Title: "messages", Rows: []string{"P0", "P1", "P2"}, Cols: []string{"P0", "P1", "P2"},
		Values:    []float64{0, 2240, 10, 1120, 0, 0, 0, 560, 0},
		ValueName: "messages",
	}
}

var heatRect = regexp.MustCompile(`<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#[0-9a-f]{6})" data-tip="([^"]*)"/>`)

func TestMatrixThreeByThree(t *testing.T) {
	v := Matrix(threeByThree())
	left, top, s := v.Plot()
	if s != 24 { // min(24, floor(640/3))
		t.Fatalf("cell side %v, want 24", s)
	}
	oranges, _ := RampByName("oranges")
	// Entries: hmLow + floor(v/max·224), the largest clamped to 255.
	want := []struct {
		r, c  int
		entry int
		tip   string
	}{
		{0, 1, 255, "P0 → P1: 2,240 messages"},
		{0, 2, 33, "P0 → P2: 10 messages"},     // 32 + floor(10/2240·224 = 1)
		{1, 0, 144, "P1 → P0: 1,120 messages"}, // 32 + 112
		{2, 1, 88, "P2 → P1: 560 messages"},    // 32 + 56
	}
	svg := v.SVG()
	rects := heatRect.FindAllStringSubmatch(svg, -1)
	if len(rects) != len(want) {
		t.Fatalf("%d cell rects, want %d:\n%s", len(rects), len(want), svg)
	}
	for i, w := range want {
		g := rects[i]
		x, _ := strconv.ParseFloat(g[1], 64)
		y, _ := strconv.ParseFloat(g[2], 64)
		if x != left+float64(w.c)*24 || y != top+float64(w.r)*24 || g[3] != "24" || g[4] != "24" {
			t.Errorf("cell %d at (%s, %s) %s×%s, want (%v, %v) 24×24", i, g[1], g[2], g[3], g[4], left+float64(w.c)*24, top+float64(w.r)*24)
		}
		if g[5] != hexColor(oranges.Colors[w.entry]) {
			t.Errorf("cell %d fill %s, want oranges[%d] = %s", i, g[5], w.entry, hexColor(oranges.Colors[w.entry]))
		}
		if g[6] != w.tip || v.Tip(w.r, w.c) != w.tip {
			t.Errorf("cell %d tip %q / Tip %q, want %q", i, g[6], v.Tip(w.r, w.c), w.tip)
		}
		if r, c, ok := v.CellAt(x+12, y+12); !ok || r != w.r || c != w.c {
			t.Errorf("CellAt centre of cell %d = (%d, %d, %v)", i, r, c, ok)
		}
	}
	if _, _, ok := v.CellAt(left+12, top+12); ok {
		t.Error("CellAt names the empty cell (0, 0)")
	}
	if v.Tip(0, 0) != "P0 → P0: 0 messages" || v.Tip(3, 0) != "" {
		t.Errorf("Tip(0,0) = %q, Tip(3,0) = %q", v.Tip(0, 0), v.Tip(3, 0))
	}
	// Each label twice (row and column), the captions, the legend's ends.
	for _, l := range []string{"P0", "P1", "P2"} {
		if n := strings.Count(svg, ">"+l+"</text>"); n != 2 {
			t.Errorf("label %s drawn %d times, want 2", l, n)
		}
	}
	for _, s := range []string{">sender</text>", ">receiver</text>", ">messages</text>", ">0</text>", ">2,240</text>", ">none</text>"} {
		if !strings.Contains(svg, s) {
			t.Errorf("SVG lacks %s", s)
		}
	}
	if got := v.Summary(); got != "3 × 3 matrix of messages (sender × receiver), 4 non-zero cells, largest 2,240 messages (P0 → P1)" {
		t.Errorf("summary %q", got)
	}
	b := v.MIMEBundle()
	if b.Data["text/plain"] != v.Summary() || !strings.Contains(b.Data["text/html"].(string), `data-kind="matrix"`) {
		t.Errorf("bundle %v", b.Data["text/plain"])
	}
	// The static picture: the cell (0, 1) centre is the ramp's last colour.
	raw, err := v.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	r, g, bl, _ := img.At(int(left+24+12), int(top+12)).RGBA()
	if c := oranges.Colors[255]; uint8(r>>8) != c.R || uint8(g>>8) != c.G || uint8(bl>>8) != c.B {
		t.Errorf("PNG at cell (0,1) is %d,%d,%d, want %v", r>>8, g>>8, bl>>8, c)
	}
}

func TestMatrixLogAndCaptions(t *testing.T) {
	d := threeByThree()
	d.Values = []float64{0, 1000, 10, 100, 0, 0, 0, 1, 0}
	d.Log, d.RowName, d.ColName, d.Ramp = true, "from", "to", "greens"
	m, err := newHeatModel(d)
	if err != nil {
		t.Fatal(err)
	}
	// log10 spans 0..3: 1 → 32, 10 → 32 + floor(224/3) = 106, 100 → 32 + 149 = 181, 1000 → 255.
	for v, want := range map[float64]uint8{1: 32, 10: 106, 100: 181, 1000: 255} {
		if got := m.colorIndex(v); got != want {
			t.Errorf("log entry of %v = %d, want %d", v, got, want)
		}
	}
	svg := m.svg(true)
	for _, s := range []string{">from</text>", ">to</text>", ">messages (log scale)</text>", ">1</text>", ">1,000</text>"} {
		if !strings.Contains(svg, s) {
			t.Errorf("SVG lacks %s", s)
		}
	}
}

func TestMatrixSparseEqualsDense(t *testing.T) {
	dense := threeByThree()
	sparse := threeByThree()
	sparse.Values = nil
	sparse.Cells = []MatrixEntry{{2, 1, 560}, {0, 2, 10}, {1, 1, 0}, {1, 0, 1120}, {0, 1, 2240}}
	if a, b := Matrix(dense).SVG(), Matrix(sparse).SVG(); a != b {
		t.Errorf("sparse and dense SVGs differ:\n%s\n%s", a, b)
	}
	pa, err1 := Matrix(dense).PNG()
	pb, err2 := Matrix(sparse).PNG()
	if err1 != nil || err2 != nil || !bytes.Equal(pa, pb) {
		t.Errorf("sparse and dense PNGs differ (%v, %v)", err1, err2)
	}
	// A large one too (canvas): same picture, same spec.
	dl, sl := seededMatrix(300, 300, 7, 2000), seededMatrix(300, 300, 7, 2000)
	dl.Values = make([]float64, 300*300)
	for _, c := range sl.Cells {
		dl.Values[int(c.Row)*300+int(c.Col)] = c.Value
	}
	dl.Cells = nil
	fa, fb := Matrix(dl).figure(), Matrix(sl).figure()
	if fa.specJSON() != fb.specJSON() {
		t.Error("sparse and dense specs differ")
	}
	ia, _ := fa.png(1)
	ib, _ := fb.png(1)
	if !bytes.Equal(ia, ib) {
		t.Error("sparse and dense large PNGs differ")
	}
}

// seededMatrix is made-up traffic: rows below n/2 talk to about 90
// partners, the others to about 28 (about 60,000 pairs at 1,024), values
// 1..maxV messages, deterministic for the seed.
func seededMatrix(n, m int, seed uint64, maxV int) MatrixData {
	d := MatrixData{Title: "made-up traffic", ValueName: "messages"}
	for i := range n {
		d.Rows = append(d.Rows, fmt.Sprintf("P%d", i))
	}
	for j := range m {
		d.Cols = append(d.Cols, fmt.Sprintf("P%d", j))
	}
	x := seed*6364136223846793005 + 1442695040888963407
	rnd := func(k int) int {
		x = x*6364136223846793005 + 1442695040888963407
		return int((x >> 33) % uint64(k))
	}
	for r := range n {
		partners := 30
		if r < n/2 {
			partners = 92
		}
		seen := map[int]bool{}
		for range partners {
			c := rnd(m)
			if seen[c] {
				continue
			}
			seen[c] = true
			d.Cells = append(d.Cells, MatrixEntry{Row: int32(r), Col: int32(c), Value: float64(1 + rnd(maxV))})
		}
	}
	return d
}

func TestMatrixLabelThinning(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want int
	}{{24, 1}, {12, 1}, {11, 2}, {6, 2}, {5, 5}, {3, 5}, {2, 10}, {0.625, 20}, {0.2, 60 / 1}} {
		if c.want == 60 {
			c.want = 100 // 12/0.2 = 60 → the next of 1-2-5 is 100
		}
		if got := heatLabelStep(c.s); got != c.want {
			t.Errorf("heatLabelStep(%v) = %d, want %d", c.s, got, c.want)
		}
	}
	d := seededMatrix(1024, 1024, 1, 100)
	m, err := newHeatModel(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.s != 0.625 || m.step != 20 || !m.canvas {
		t.Fatalf("cell %v, step %d, canvas %v; want 0.625, 20, true", m.s, m.step, m.canvas)
	}
	frame := m.svg(false)
	rowLabel := regexp.MustCompile(`<text x="[\d.]+" y="([\d.]+)" font-size="10" fill="#222222" text-anchor="end">P(\d+)</text>`)
	rows := rowLabel.FindAllStringSubmatch(frame, -1)
	if len(rows) != 52 { // 0, 20, …, 1020
		t.Fatalf("%d row labels, want 52", len(rows))
	}
	prev := -1.0
	for i, r := range rows {
		y, _ := strconv.ParseFloat(r[1], 64)
		if r[2] != strconv.Itoa(20*i) {
			t.Errorf("row label %d is P%s, want P%d", i, r[2], 20*i)
		}
		if prev >= 0 && y-prev < hmLabelPitch {
			t.Errorf("row labels %d and %d are %v px apart", i-1, i, y-prev)
		}
		prev = y
	}
	if n := strings.Count(frame, `transform="rotate(-90`); n != 52+1 { // column labels + the row caption
		t.Errorf("%d rotated texts, want 53", n)
	}
}

func TestMatrixLargeBudget(t *testing.T) {
	d := seededMatrix(1024, 1024, 1, 5000)
	if len(d.Cells) < 55000 || len(d.Cells) > 65000 {
		t.Fatalf("%d cells, want about 60,000", len(d.Cells))
	}
	start := time.Now()
	b := Matrix(d).MIMEBundle()
	took := time.Since(start)
	html, _ := b.Data["text/html"].(string)
	t.Logf("1,024² with %d cells: %d bytes of HTML in %v", len(d.Cells), len(html), took)
	if len(html) == 0 || len(html) > 3<<20 {
		t.Errorf("HTML is %d bytes, want 1..3 MB", len(html))
	}
	if !strings.Contains(html, `{"deflate":"`) || !strings.Contains(html, "data:image/png;base64,") {
		t.Error("no packed spec or no PNG")
	}
	// The pixel pool: each pixel shows the largest cell covering it.
	m, _ := newHeatModel(d)
	win := m.pool()
	for r := 0; r < 40; r++ {
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			x0, x1 := cellRange(int(m.col[k]), m.s, m.gw)
			y0, y1 := cellRange(r, m.s, m.gh)
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					if w := win[y*m.gw+x]; w < 0 || m.val[w] < m.val[k] {
						t.Fatalf("pixel (%d, %d) shows %d, not the larger cell %d", x, y, w, k)
					}
				}
			}
		}
	}
	// CellAt names the pixel's cell.
	v := Matrix(d)
	k := int(m.maxK)
	r, c := m.rowOf(k), int(m.col[k])
	x0, _ := cellRange(c, m.s, m.gw)
	y0, _ := cellRange(r, m.s, m.gh)
	if gr, gc, ok := v.CellAt(m.left+float64(x0)+0.5, m.top+float64(y0)+0.5); !ok || gr != r || gc != c {
		t.Errorf("CellAt over the largest cell (%d, %d) = (%d, %d, %v)", r, c, gr, gc, ok)
	}
}

func BenchmarkMatrix1024(b *testing.B) {
	d := seededMatrix(1024, 1024, 1, 5000)
	for b.Loop() {
		Matrix(d).MIMEBundle()
	}
}

func TestMatrixBadInput(t *testing.T) {
	good := threeByThree
	cases := map[string]MatrixData{}
	d := good()
	d.Values = d.Values[:8]
	cases["8 values for 3 rows × 3 columns"] = d
	d = good()
	d.Values, d.Cells = nil, []MatrixEntry{{0, 3, 1}}
	cases["cell 0 at (0, 3) is outside"] = d
	d = good()
	d.Values, d.Cells = nil, []MatrixEntry{{-1, 0, 1}}
	cases["cell 0 at (-1, 0) is outside"] = d
	d = good()
	d.Values[4] = math.NaN()
	cases["value NaN at row 1, column 1"] = d
	d = good()
	d.Values[5] = -1
	cases["value -1 at row 1, column 2"] = d
	d = good()
	d.Values, d.Cells = nil, []MatrixEntry{{0, 1, 1}, {0, 1, 2}}
	cases["cell (0, 1) is given twice"] = d
	d = good()
	d.Cells = []MatrixEntry{{0, 1, 1}}
	cases["both Values"] = d
	d = good()
	d.Ramp = "rdylbu"
	cases["is diverging"] = d
	d = good()
	d.Ramp = "rainbow"
	cases["unknown colour ramp"] = d
	cases["0 rows × 0 columns"] = MatrixData{}
	for want, d := range cases {
		v := Matrix(d)
		if svg := v.SVG(); !strings.Contains(svg, want) || !strings.HasPrefix(svg, "<svg") {
			t.Errorf("%s: SVG %q", want, svg)
		}
		if _, err := v.PNG(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: PNG error %v", want, err)
		}
		if txt, _ := v.MIMEBundle().Data["text/plain"].(string); !strings.Contains(txt, want) {
			t.Errorf("%s: bundle %q", want, txt)
		}
		if _, _, ok := v.CellAt(50, 50); ok || v.Tip(0, 0) != "" {
			t.Errorf("%s: CellAt or Tip answer", want)
		}
	}
}

func TestMatrixEmpty(t *testing.T) {
	v := Matrix(MatrixData{Rows: []string{"a"}, Cols: []string{"b", "c"}, Values: []float64{0, 0}})
	svg := v.SVG()
	if heatRect.MatchString(svg) || !strings.Contains(svg, "no non-zero values") {
		t.Errorf("empty matrix SVG:\n%s", svg)
	}
	if got := v.Summary(); got != "1 × 2 matrix (sender × receiver), 0 non-zero cells" {
		t.Errorf("summary %q", got)
	}
	if _, err := v.PNG(); err != nil {
		t.Error(err)
	}
}

// matrixFormatCases are hand-checked; the browser test checks the runtime
// against the same rule (samples write them into the canvas sample).
var matrixFormatCases = []struct {
	v    float64
	unit string
	want string
}{
	{0, "", "0"}, {42, "", "42"}, {42, "B", "42 B"}, {0.5, "", "0.50"}, {1.125, "", "1.13"}, {9.994, "", "9.99"},
	{9.995, "", "10.0"}, {12.34, "B/s", "12.3 B/s"}, {99.96, "", "100"}, {999.4, "", "999"},
	{999.5, "", "1,000"}, {1234, "", "1,234"}, {60515, "", "60,515"}, {2.2e6, "", "2,200,000"},
	{999.5, "B", "1.00 kB"}, {1234, "B", "1.23 kB"}, {45.6e6, "B/s", "45.6 MB/s"}, {789e9, "B", "789 GB"},
	{999499, "B", "999 kB"}, {999500, "B", "1.00 MB"}, {1.5e18, "B", "1.50 EB"},
}

func TestFormatMatrixValue(t *testing.T) {
	for _, c := range matrixFormatCases {
		if got := FormatMatrixValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatMatrixValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

func ExampleMatrix() {
	v := Matrix(MatrixData{
		Rows: []string{"P0", "P1"}, Cols: []string{"P0", "P1"},
		Values: []float64{0, 1234, 56, 0}, ValueName: "messages",
	})
	fmt.Println(v.Summary())
	fmt.Println(v.Tip(0, 1))
	fmt.Println(FormatMatrixValue(45.6e6, "B/s"))
	// Output:
	// 2 × 2 matrix of messages (sender × receiver), 2 non-zero cells, largest 1,234 messages (P0 → P1)
	// P0 → P1: 1,234 messages
	// 45.6 MB/s
}

// A large matrix's spec holds its cells packed, and no ramp entries: the
// runtime derives each cell's from its value by the spec's steps
// (classSteps), and they are Go's, linear or logarithmic.
func TestMatrixSpecRampSteps(t *testing.T) {
	for _, log := range []bool{false, true} {
		d := seededMatrix(600, 600, 3, 3000)
		d.Log = log
		m, err := newHeatModel(d)
		if err != nil {
			t.Fatal(err)
		}
		sp := m.spec()
		val := unpack(t, sp.Bin, sp.Val)
		col := unpack(t, sp.Bin, sp.Col)
		if len(val) != len(m.val) || len(col) != len(m.col) {
			t.Fatalf("%d values and %d columns for %d cells", len(val), len(col), len(m.val))
		}
		for k, v := range val {
			if v != m.val[k] || int32(col[k]) != m.col[k] {
				t.Fatalf("cell %d: %v in column %v, want %v in %d", k, v, col[k], m.val[k], m.col[k])
			}
			e := 0
			for _, s := range sp.RampSteps {
				if s[0] <= v {
					e = int(s[1])
				}
			}
			if e != int(m.ci[k]) {
				t.Fatalf("log %t: cell %d of %v: ramp entry %d by the steps, want %d", log, k, v, e, m.ci[k])
			}
		}
	}
}
