package views

import (
	"fmt"
	"image"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/algo/bundle"
	"superstep/display"
)

// fd4Pairs is seeded made-up traffic at the scale of the paper's FD4 trace:
// units ranks, about pairs distinct ordered pairs, mostly between
// neighbours (within ±4), some far.
func fd4Pairs(units, pairs int, seed uint64) (src, dst []int32, weight, bytes []float64) {
	s := seed
	rnd := func() float64 {
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / float64(1<<53)
	}
	seen := map[[2]int32]bool{}
	for len(src) < pairs {
		a := int32(rnd() * float64(units))
		var b int32
		if rnd() < 0.8 {
			b = (a + int32(units) + int32(rnd()*9) - 4) % int32(units)
		} else {
			b = int32(rnd() * float64(units))
		}
		if a == b || seen[[2]int32{a, b}] {
			if len(seen) > units*units/2 {
				break
			}
			continue
		}
		seen[[2]int32{a, b}] = true
		m := math.Floor(1 + 1000*math.Pow(rnd(), 6))
		src, dst = append(src, a), append(dst, b)
		weight, bytes = append(weight, m), append(bytes, m*64)
	}
	return
}

func rankNames(n int) []string {
	u := make([]string, n)
	for i := range u {
		u[i] = "r" + strconv.Itoa(i)
	}
	return u
}

func chordUnits(n int) []Unit {
	u := make([]Unit, n)
	for i := range u {
		u[i] = Unit{ID: "u" + strconv.Itoa(i), Name: "r" + strconv.Itoa(i)}
	}
	return u
}

var quadNums = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

// pathControls returns the control points of the Q commands of an SVG path.
func pathControls(d string) [][2]float64 {
	var out [][2]float64
	for _, seg := range strings.Split(d, "Q")[1:] {
		f := quadNums.FindAllString(seg, -1)
		x, _ := strconv.ParseFloat(f[0], 64)
		y, _ := strconv.ParseFloat(f[1], 64)
		out = append(out, [2]float64{x, y})
	}
	return out
}

// Sixteen units on an 8×8 grid: the curve from a unit of row 5 to one of
// row 1 is drawn through the cells (0,5)(1,4)(2,3)(3,2)(4,1)(5,1)(6,1)(7,1)
// (diagonals first), the controls of its quadratic pieces.
func TestSenderReceiverRoute(t *testing.T) {
	d := SenderReceiverData{Units: rankNames(16), Src: []int32{10}, Dst: []int32{3}}
	svg := SenderReceiver(d).SVG()
	m := regexp.MustCompile(`<path class="ss-curve" d="([^"]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no curve in %s", svg)
	}
	p, _ := d.layout()
	// Cell (c, r) in plot px: x = pad + (c+½)/8·(w−2pad); y = the middle of
	// units 2r and 2r+1 = pad + (2r+1)·(h−2pad)/16.
	want := [][2]int{{0, 5}, {1, 4}, {2, 3}, {3, 2}, {4, 1}, {5, 1}, {6, 1}, {7, 1}}
	got := pathControls(m[1])
	if len(got) != len(want) {
		t.Fatalf("%d quadratic pieces, want %d: %s", len(got), len(want), m[1])
	}
	for k, c := range want {
		x := srPad + (float64(c[0])+0.5)/8*(p.w-2*srPad)
		y := srPad + float64(2*c[1]+1)*(p.h-2*srPad)/16
		if math.Abs(got[k][0]-x) > 0.01 || math.Abs(got[k][1]-y) > 0.01 {
			t.Errorf("control %d at (%.2f, %.2f), want cell %v at (%.2f, %.2f)", k, got[k][0], got[k][1], c, x, y)
		}
	}
	// Ends: the sender on the left at unit 10, the receiver on the right at 3.
	if !strings.HasPrefix(m[1], fmt.Sprintf("M%s %s", n2(srPad), n2(srPad+10.5*(p.h-2*srPad)/16))) {
		t.Errorf("path starts %q", m[1][:20])
	}
	if !strings.Contains(svg, `data-tip="1 message, r10→r3"`) {
		t.Errorf("no hover text 1 message, r10→r3")
	}
}

// brightNear returns the brightest pixel (largest channel sum) within r px of
// (x, y) and its colour.
func brightNear(img *image.RGBA, x, y float64, r int) (best [3]int) {
	bs := -1
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			px, py := int(x)+dx, int(y)+dy
			if !image.Pt(px, py).In(img.Bounds()) {
				continue
			}
			c := img.RGBAAt(px, py)
			if s := int(c.R) + int(c.G) + int(c.B); s > bs {
				bs, best = s, [3]int{int(c.R), int(c.G), int(c.B)}
			}
		}
	}
	return best
}

// Colour by source: two senders in distinct palette colours, each curve's
// pixels have its sender's hue (hand-checked against Palette).
func TestSenderReceiverColourBySource(t *testing.T) {
	d := SenderReceiverData{Units: rankNames(4), Src: []int32{0, 3}, Dst: []int32{0, 3}, Rows: 4, Blend: "alpha", Opacity: 8}
	v := SenderReceiver(d)
	img, err := v.image()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := d.layout()
	pal := Palette(4)
	for i, u := range []int{0, 3} {
		mid := p.mid(i)
		got := brightNear(img, p.left+mid.X, p.top+mid.Y, 0)
		want := parseHex(pal[u])
		for c := 0; c < 3; c++ {
			if math.Abs(float64(got[c])-float64(want[c])) > 40 {
				t.Errorf("curve from unit %d is %v at its middle, want about %v (%s)", u, got, want, pal[u])
				break
			}
		}
	}
}

// Two units exchanging equally both ways: green→red one way, red→green
// the other, so along the shared line red and green add up equally (the
// paper's brown/yellow).
func TestChordLinesBothWays(t *testing.T) {
	d := ChordLinesData{Units: chordUnits(2), Src: []int32{0, 1}, Dst: []int32{1, 0}, Weight: []float64{5, 5}, Bytes: []float64{10, 10}}
	v := ChordLines(d)
	img, err := v.image()
	if err != nil {
		t.Fatal(err)
	}
	p := d.layout()
	if len(p.ca) != 2 {
		t.Fatalf("%d lines, want 2", len(p.ca))
	}
	qs := p.quads(0, nil)
	checked := 0
	for k, q := range qs {
		for _, s := range []float64{0.2, 0.5, 0.8} {
			if (k == 0 && s < 0.5) || (k == len(qs)-1 && s > 0.5) {
				continue // near the units the ends are not drawn over
			}
			pt := q.At(s)
			c := brightNear(img, pt.X, p.top+pt.Y, 0)
			if c[0] < 60 || math.Abs(float64(c[0]-c[1])) > 0.12*float64(c[0]) {
				t.Errorf("at (%.1f, %.1f): %v, want red ≈ green (bright)", pt.X, pt.Y, c)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	// One way only: green at the source, red at the target.
	one := ChordLinesData{Units: chordUnits(2), Src: []int32{0}, Dst: []int32{1}}
	img1, _ := ChordLines(one).image()
	p1 := one.layout()
	q1 := p1.quads(0, nil)
	a, b := q1[0].At(0.25), q1[len(q1)-1].At(0.75)
	ca, cb := brightNear(img1, a.X, p1.top+a.Y, 0), brightNear(img1, b.X, p1.top+b.Y, 0)
	if !(ca[1] > ca[0]+40 && cb[0] > cb[1]+40) {
		t.Errorf("one way: %v near the source, %v near the target; want green, then red", ca, cb)
	}
	if !strings.Contains(v.SVG(), `data-tip="r0→r1: 5 messages, 10 bytes"`) {
		t.Error("no hover text r0→r1: 5 messages, 10 bytes")
	}
}

// Holten's polygon: with blocks of 3 units (9 units), a pair in one block
// runs through its block's centre only; a pair across blocks through both
// block centres and the circle's centre.
func TestChordLinesHierarchy(t *testing.T) {
	d := ChordLinesData{Units: chordUnits(9), Src: []int32{0, 0}, Dst: []int32{2, 5}, Beta: 1}
	p := d.layout()
	if got := len(p.poly(0, nil)); got != 3 {
		t.Errorf("same block: %d control points, want 3", got)
	}
	if got := len(p.poly(1, nil)); got != 5 {
		t.Errorf("across blocks: %d control points, want 5", got)
	}
	if c := p.poly(1, nil)[2]; c.X != p.w/2 || c.Y != p.h/2 {
		t.Errorf("middle control point %v, want the centre (%v, %v)", c, p.w/2, p.h/2)
	}
	// β straightens towards the chord: β = 0.5 moves the centre halfway.
	d.Beta = 0.5
	_, _, polys := ChordLines(d).Curves()
	poly := polys[1]
	a, b := poly[0], poly[4]
	want := bundle.Point{X: 0.5*p.w/2 + 0.5*(a.X+(b.X-a.X)/2), Y: 0.5*p.h/2 + 0.5*(a.Y+(b.Y-a.Y)/2)}
	if math.Hypot(poly[2].X-want.X, poly[2].Y-want.Y) > 1e-9 {
		t.Errorf("β = 0.5: centre control %v, want %v", poly[2], want)
	}
}

// picStats counts the drawn pixels of the plot (any channel off the
// ground) and those saturated in both red and green (≥ 250).
func picStats(img *image.RGBA, p *curvePic) (drawn, sat int) {
	bg := parseHex(p.ground())
	for y := int(p.top); y < int(p.top+p.h); y++ {
		for x := int(p.left); x < int(p.left+p.w); x++ {
			c := img.RGBAAt(x, y)
			if c.R != bg[0] || c.G != bg[1] || c.B != bg[2] {
				drawn++
				if c.R >= 250 && c.G >= 250 {
					sat++
				}
			}
		}
	}
	return
}

// Automatic opacity: at most 10 % of the drawn pixels saturated in both R
// and G, every curve visible, the heaviest route the brightest.
func TestCurveAutoOpacity(t *testing.T) {
	src, dst, w, b := fd4Pairs(256, 4000, 3)
	for _, v := range []interface {
		image() (*image.RGBA, error)
	}{
		SenderReceiver(SenderReceiverData{Units: rankNames(256), Src: src, Dst: dst, Weight: w, Bytes: b}),
		ChordLines(ChordLinesData{Units: chordUnits(256), Src: src, Dst: dst, Weight: w, Bytes: b}),
	} {
		img, err := v.image()
		if err != nil {
			t.Fatal(err)
		}
		var p *curvePic
		switch x := v.(type) {
		case *SenderReceiverView:
			p, _ = x.Data.layout()
		case *ChordLinesView:
			p = x.Data.layout()
		}
		drawn, sat := picStats(img, p)
		if drawn == 0 || float64(sat) > 0.1*float64(drawn) {
			t.Errorf("%s: %d of %d drawn pixels saturated in R and G (gain %.3g)", p.kind, sat, drawn, p.gain)
		}
	}
	// Three separate routes of 1, 10 and 100 messages (8 units, 8 rows):
	// each visible, brighter with more messages.
	d := SenderReceiverData{Units: rankNames(8), Src: []int32{0, 3, 6}, Dst: []int32{0, 3, 6}, Weight: []float64{1, 10, 100}}
	img, _ := SenderReceiver(d).image()
	p, _ := d.layout()
	drawn, sat := picStats(img, p)
	if float64(sat) > 0.1*float64(drawn) {
		t.Errorf("3 routes: %d of %d drawn pixels saturated", sat, drawn)
	}
	bg := parseHex(curveDarkGround)
	prev := 0
	for i := range 3 {
		m := p.mid(i)
		c := brightNear(img, p.left+m.X, p.top+m.Y, 1)
		light := c[0] + c[1] + c[2] - int(bg[0]) - int(bg[1]) - int(bg[2])
		if light < 60 {
			t.Errorf("route %d (%v messages) barely visible: %v", i, d.Weight[i], c)
		}
		if light <= prev {
			t.Errorf("route %d (%v messages) not brighter than the lighter one: %d ≤ %d", i, d.Weight[i], light, prev)
		}
		prev = light
	}
}

func TestCurveBadInput(t *testing.T) {
	for name, d := range map[string]SenderReceiverData{
		"lengths":   {Units: rankNames(2), Src: []int32{0}, Dst: nil},
		"range":     {Units: rankNames(2), Src: []int32{0}, Dst: []int32{2}},
		"negative":  {Units: rankNames(2), Src: []int32{-1}, Dst: []int32{0}},
		"weights":   {Units: rankNames(2), Src: []int32{0}, Dst: []int32{1}, Weight: []float64{1, 2}},
		"nan":       {Units: rankNames(2), Src: []int32{0}, Dst: []int32{1}, Weight: []float64{math.NaN()}},
		"bytes":     {Units: rankNames(2), Src: []int32{0}, Dst: []int32{1}, Bytes: []float64{-1}},
		"rows":      {Units: rankNames(2), Rows: 3},
		"cols":      {Units: rankNames(2), Cols: -1},
		"blend":     {Units: rankNames(2), Blend: "screen"},
		"opacity":   {Units: rankNames(2), Opacity: math.Inf(1)},
		"opacity<0": {Units: rankNames(2), Opacity: -1},
	} {
		v := SenderReceiver(d)
		if _, err := v.PNG(); err == nil {
			t.Errorf("%s: no error", name)
		}
		if b := v.MIMEBundle(); b.Data["text/html"] != nil {
			t.Errorf("%s: a picture", name)
		}
		if !strings.Contains(v.SVG(), "views.SenderReceiver") {
			t.Errorf("%s: SVG does not say why", name)
		}
	}
	for name, d := range map[string]ChordLinesData{
		"range": {Units: chordUnits(2), Src: []int32{0}, Dst: []int32{5}},
		"beta":  {Units: chordUnits(2), Beta: 1.5},
		"ring":  {Units: chordUnits(2), Rings: []Ring{{Groups: []RingGroup{{First: 0, Last: 3}}}}},
		"blend": {Units: chordUnits(2), Blend: "x"},
	} {
		if _, err := ChordLines(d).PNG(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// Empty data still draws.
	for _, v := range []interface{ PNG() ([]byte, error) }{SenderReceiver(SenderReceiverData{}), ChordLines(ChordLinesData{})} {
		if _, err := v.PNG(); err != nil {
			t.Errorf("empty: %v", err)
		}
	}
}

// Duplicate entries add up into one curve.
func TestCurveDuplicatesAddUp(t *testing.T) {
	d := SenderReceiverData{Units: rankNames(3), Src: []int32{0, 0, 1}, Dst: []int32{2, 2, 0}, Weight: []float64{2, 3, 1}, Bytes: []float64{1000, 500, 8}}
	svg := SenderReceiver(d).SVG()
	if n := strings.Count(svg, `class="ss-curve"`); n != 2 {
		t.Errorf("%d curves, want 2", n)
	}
	if !strings.Contains(svg, `data-tip="5 messages, 1,500 bytes, r0→r2"`) {
		t.Error("no summed hover text 5 messages, 1,500 bytes, r0→r2")
	}
}

// FD4 scale: 1,024 units, 60,515 pairs. Small pictures are SVG; this one
// is a canvas with a PNG, within the size budget (the benchmarks time it).
func TestCurveFD4Scale(t *testing.T) {
	if testing.Short() {
		t.Skip("FD4 scale")
	}
	src, dst, w, b := fd4Pairs(1024, 60515, 1)
	if len(src) != 60515 {
		t.Fatalf("%d pairs", len(src))
	}
	for _, c := range []struct {
		name   string
		r      display.Renderer
		budget time.Duration
	}{
		{"senderreceiver", SenderReceiver(SenderReceiverData{Units: rankNames(1024), Src: src, Dst: dst, Weight: w, Bytes: b}), time.Second},
		{"chordlines", ChordLines(ChordLinesData{Units: chordUnits(1024), Src: src, Dst: dst, Weight: w, Bytes: b}), time.Second / 2},
	} {
		start := time.Now()
		bd := c.r.MIMEBundle()
		el := time.Since(start)
		html, _ := bd.Data["text/html"].(string)
		t.Logf("%s: %v, %d bytes", c.name, el, len(html))
		if len(html) > 3<<20 {
			t.Errorf("%s: %d bytes of HTML, want ≤ 3 MB", c.name, len(html))
		}
		if strings.Contains(html, "ss-curve") {
			t.Errorf("%s: SVG paths at FD4 scale", c.name)
		}
		// The time is logged, not asserted: the machine is shared, and
		// BenchmarkSenderReceiverFD4 / BenchmarkChordLinesFD4 measure it
		// against c.budget.
		_ = c.budget
	}
}

func BenchmarkSenderReceiverFD4(b *testing.B) {
	src, dst, w, by := fd4Pairs(1024, 60515, 1)
	v := SenderReceiver(SenderReceiverData{Units: rankNames(1024), Src: src, Dst: dst, Weight: w, Bytes: by})
	for b.Loop() {
		v.MIMEBundle()
	}
}

func BenchmarkChordLinesFD4(b *testing.B) {
	src, dst, w, by := fd4Pairs(1024, 60515, 1)
	v := ChordLines(ChordLinesData{Units: chordUnits(1024), Src: src, Dst: dst, Weight: w, Bytes: by})
	for b.Loop() {
		v.MIMEBundle()
	}
}

// Four units on a 4-column, 2-row grid: unit 0 (row 0) sends to unit 3
// (row 1). The plot is 640 − 2·14 = 612 px wide (labels of one letter take
// 14 px each side) and 240 high; inside a 6 px padding, x runs over 600 px
// and each unit takes 228/4 = 57 px. The curve runs from the sender
// (6, 6 + 0.5·57) through the cells (0,0), (1,1), (2,1), (3,1), at
// x = 6 + 600·(c+½)/4 and y = the middle of their row's two units, to the
// receiver (606, 6 + 3.5·57).
func ExampleSenderReceiver() {
	v := SenderReceiver(SenderReceiverData{Units: []string{"a", "b", "c", "d"}, Src: []int32{0}, Dst: []int32{3}, Cols: 4, Rows: 2})
	_, _, polys := v.Curves()
	for _, p := range polys[0] {
		fmt.Printf("(%.1f, %.1f) ", p.X, p.Y)
	}
	fmt.Println()
	// Output:
	// (6.0, 34.5) (81.0, 63.0) (231.0, 177.0) (381.0, 177.0) (531.0, 177.0) (606.0, 205.5)
}

// A canvas picture's spec holds the curves' arrays packed, with no
// amount levels: the runtime derives each curve's from its messages by
// the spec's steps (classSteps), and they are Go's. A small picture's
// spec is its SVG, without the arrays.
func TestCurveSpecArrays(t *testing.T) {
	src, dst, w, b := fd4Pairs(256, 5000, 2)
	p, err := SenderReceiverData{Units: rankNames(256), Src: src, Dst: dst, Weight: w, Bytes: b}.layout()
	if err != nil {
		t.Fatal(err)
	}
	sp := p.spec()
	if sp.Plot != "" || sp.Bin == "" {
		t.Fatalf("%d curves: plot SVG %t, arrays %t; want the arrays only", sp.N, sp.Plot != "", sp.Bin != "")
	}
	msgs := unpack(t, sp.Bin, sp.Msgs)
	byt := unpack(t, sp.Bin, sp.Bytes)
	if len(msgs) != len(p.msgs) || len(byt) != len(p.bytes) {
		t.Fatalf("%d messages and %d bytes for %d curves", len(msgs), len(byt), len(p.msgs))
	}
	for i, m := range msgs {
		if m != p.msgs[i] || byt[i] != p.bytes[i] {
			t.Fatalf("curve %d: %v messages, %v bytes; want %v, %v", i, m, byt[i], p.msgs[i], p.bytes[i])
		}
		level := 0
		for _, s := range sp.LevelSteps {
			if s[0] <= m {
				level = int(s[1])
			}
		}
		if level != int(p.level[i]) {
			t.Fatalf("curve %d of %v messages: level %d by the steps, want %d", i, m, level, p.level[i])
		}
	}
	small, err := SenderReceiverData{Units: rankNames(4), Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 0}}.layout()
	if err != nil {
		t.Fatal(err)
	}
	if sp := small.spec(); sp.Plot == "" || sp.Bin != "" || sp.LevelSteps != nil {
		t.Errorf("a small picture's spec: plot SVG %t, arrays %t", sp.Plot != "", sp.Bin != "")
	}
}
