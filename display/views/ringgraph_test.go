package views

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// smallRing is 16 leaves, two tracks, 4 blocks and six links:
//
//	0–1 (intra, block 1), 3–4 (adjacent 1–2), 0–15 (adjacent 4–1 across
//	12 o'clock), 2–9 and 1–8 (far 1–3), 5–13 (far 2–4).
//
// Frame 1: link 0 sends 30 forward and 10 back (the largest sum), link 1
// 0 and 7, link 4 5 and 0; the rest nothing.
func smallRing() RingGraphData {
	d := RingGraphData{Title: "small", Levels: []int{4, 8}, GroupNames: []string{"x", "y"}}
	for i := range 16 {
		d.Leaves = append(d.Leaves, fmt.Sprintf("n%d", i))
	}
	d.Tracks = []RingGraphTrack{{Name: "x", Values: make([]int, 16)}, {Name: "y", Values: make([]int, 16)}}
	for i := range 16 {
		d.Tracks[0].Values[i] = i % 4
		d.Tracks[1].Values[i] = i / 4
	}
	for _, l := range [][3]int{{0, 1, 0}, {3, 4, 1}, {0, 15, 0}, {2, 9, 1}, {1, 8, 0}, {5, 13, 1}} {
		d.Links = append(d.Links, RingGraphLink{A: l[0], B: l[1], Group: l[2]})
	}
	d.Frames = []RingGraphFrame{
		{Label: "one", Forward: []float64{30, 0, 0, 0, 5, 0}, Backward: []float64{10, 7, 0, 0, 0, 0}},
		{Label: "two", Forward: []float64{1, 1, 1, 1, 1, 1}},
	}
	return d
}

func leafPos(i, n int) (float64, float64) {
	th := 2 * math.Pi * (float64(i) + 0.5) / float64(n)
	return 320 + 227*math.Sin(th), 340 - 227*math.Cos(th)
}

func TestRingGraphLayoutRadiiAnglesArcs(t *testing.T) {
	g, err := RingGraphLayout(smallRing())
	if err != nil {
		t.Fatal(err)
	}
	// Block ring 262–270, then 3 px, then two 14 px tracks 1 px apart
	// (outermost ends at 259), 2 px, links at 227 (1 px inside).
	if g.CX != 320 || g.CY != 340 || g.BlockRing != (RingSpan{262, 270}) {
		t.Errorf("centre (%v, %v), block ring %v", g.CX, g.CY, g.BlockRing)
	}
	if len(g.Tracks) != 2 || g.Tracks[0] != (RingSpan{230, 244}) || g.Tracks[1] != (RingSpan{245, 259}) {
		t.Errorf("tracks %v, want [230 244] [245 259]", g.Tracks)
	}
	if g.LinkRadius != 227 || g.LeafRing != (RingSpan{}) {
		t.Errorf("link radius %v, leaf ring %v", g.LinkRadius, g.LeafRing)
	}
	for i := range 16 {
		if want := math.Pi / 16 * (2*float64(i) + 1); math.Abs(g.Angles[i]-want) > 1e-12 {
			t.Errorf("angle %d = %v, want %v", i, g.Angles[i], want)
		}
		x, y := leafPos(i, 16)
		if math.Abs(g.X[i]-x) > 1e-9 || math.Abs(g.Y[i]-y) > 1e-9 {
			t.Errorf("leaf %d at (%v, %v), want (%v, %v)", i, g.X[i], g.Y[i], x, y)
		}
	}
	// Leaf 4 sits just clockwise of 3 o'clock: (320 + 227 cos(π/16), 340 + 227 sin(π/16)).
	if math.Abs(g.X[4]-(320+227*math.Cos(math.Pi/16))) > 1e-9 || math.Abs(g.Y[4]-(340+227*math.Sin(math.Pi/16))) > 1e-9 {
		t.Errorf("leaf 4 at (%v, %v)", g.X[4], g.Y[4])
	}
	if len(g.Levels) != 2 || g.Levels[0].Blocks != 4 || g.Levels[1].Blocks != 8 {
		t.Fatalf("levels %+v", g.Levels)
	}
	for b, a := range g.Levels[0].Arcs {
		if math.Abs(a.Start-float64(b)*math.Pi/2) > 1e-12 || math.Abs(a.End-float64(b+1)*math.Pi/2) > 1e-12 {
			t.Errorf("block %d arc %v", b, a)
		}
	}
	if c := g.Levels[0].Caption; c != "4 blocks of 4 leaves" {
		t.Errorf("caption %q", c)
	}
}

func TestRingGraphPairsCentresAndControls(t *testing.T) {
	d := smallRing()
	g, err := RingGraphLayout(d)
	if err != nil {
		t.Fatal(err)
	}
	lv := g.Levels[0]
	type pc struct {
		lo, hi, links int
		cls           RingGraphClass
		color         string
	}
	want := []pc{
		{0, 0, 1, RingGraphIntra, "#7b3294"},
		{0, 1, 1, RingGraphAdjacent, "#c2a04a"},
		{0, 2, 2, RingGraphFar, "#f28e2b"}, // the first far pair: orange
		{0, 3, 1, RingGraphAdjacent, "#c2a04a"},
		{1, 3, 1, RingGraphFar, "#4e79a7"}, // the second: blue
	}
	if len(lv.Pairs) != len(want) || lv.FarPairs != 2 {
		t.Fatalf("pairs %+v", lv.Pairs)
	}
	for i, w := range want {
		p := lv.Pairs[i]
		if p.Lo != w.lo || p.Hi != w.hi || p.Links != w.links || p.Class != w.cls || p.Color != w.color {
			t.Errorf("pair %d = %+v, want %+v", i, p, w)
		}
	}
	if got := []int32{0, 1, 3, 2, 2, 4}; fmt.Sprint(lv.PairOf) != fmt.Sprint(got) {
		t.Errorf("PairOf %v, want %v", lv.PairOf, got)
	}
	// Centre of far pair 1–3: the mean of leaves 2, 9, 1, 8. Leaves i and
	// i+8 are opposite, so it is the circle's centre plus (P2 − P0)/4.
	x0, y0 := leafPos(0, 16)
	x2, y2 := leafPos(2, 16)
	if p := lv.Pairs[2]; math.Abs(p.CX-(320+(x2-x0)/4)) > 1e-4 || math.Abs(p.CY-(340+(y2-y0)/4)) > 1e-4 {
		t.Errorf("far centre (%v, %v), want (%v, %v)", p.CX, p.CY, 320+(x2-x0)/4, 340+(y2-y0)/4)
	}
	// A pair with one link has its centre at that link's midpoint, and the
	// control point is the midpoint whatever β.
	x1, y1 := leafPos(1, 16)
	if cx, cy := g.Control(0, 0); math.Abs(cx-(x0+x1)/2) > 1e-4 || math.Abs(cy-(y0+y1)/2) > 1e-4 {
		t.Errorf("control of 0–1 (%v, %v), want the midpoint", cx, cy)
	}
	// Link 2–9: mix(midpoint, centre, 0.85).
	x9, y9 := leafPos(9, 16)
	mx, my := (x2+x9)/2, (y2+y9)/2
	ccx, ccy := 320+(x2-x0)/4, 340+(y2-y0)/4
	wx, wy := mx+0.85*(ccx-mx), my+0.85*(ccy-my)
	if cx, cy := g.Control(0, 3); math.Abs(cx-wx) > 1e-4 || math.Abs(cy-wy) > 1e-4 {
		t.Errorf("control of 2–9 (%v, %v), want (%v, %v)", cx, cy, wx, wy)
	}
	// The curve passes through its ends and, at t = ½, through
	// ¼A + ½C + ¼B.
	if x, y := g.Point(0, 3, 0); math.Abs(x-x2) > 1e-9 || math.Abs(y-y2) > 1e-9 {
		t.Errorf("t=0 at (%v, %v)", x, y)
	}
	if x, y := g.Point(0, 3, 1); math.Abs(x-x9) > 1e-9 || math.Abs(y-y9) > 1e-9 {
		t.Errorf("t=1 at (%v, %v)", x, y)
	}
	if x, y := g.Point(0, 3, 0.5); math.Abs(x-(x2/4+wx/2+x9/4)) > 1e-4 || math.Abs(y-(y2/4+wy/2+y9/4)) > 1e-4 {
		t.Errorf("t=½ at (%v, %v)", x, y)
	}
	// β = 0.5 (given) halves the pull.
	d.Beta = 0.5
	g2, _ := RingGraphLayout(d)
	if cx, _ := g2.Control(0, 3); math.Abs(cx-(mx+0.5*(ccx-mx))) > 1e-4 {
		t.Errorf("β=0.5 control x %v", cx)
	}
	// At 8 blocks (of 2 leaves), 0–15 joins blocks 1 and 8: adjacent.
	l8 := g.Levels[1]
	if p := l8.Pairs[l8.PairOf[2]]; p.Lo != 0 || p.Hi != 7 || p.Class != RingGraphAdjacent {
		t.Errorf("0–15 at 8 blocks: %+v", p)
	}
}

func TestRingGraphMarks(t *testing.T) {
	d := smallRing()
	g, _ := RingGraphLayout(d)
	x0, y0 := leafPos(0, 16)
	x1, y1 := leafPos(1, 16)
	// lowbias32(0) = 0, so link 0's mark sits at t = 0.2 exactly; its
	// curve is straight (lone link), so 20% of the way from leaf 0.
	if RingGraphMarkT(0) != 0.2 {
		t.Fatalf("MarkT(0) = %v", RingGraphMarkT(0))
	}
	if g.MarkRadius != 6 || g.MarkMax != [4]float64{40, 30, 10, 20} {
		t.Fatalf("mark radius %v, max %v", g.MarkRadius, g.MarkMax)
	}
	mk := g.Mark(0, 0, RingGraphSum, 30, 10)
	if mk.Kind != RingGraphCircle || mk.FromB || math.Abs(mk.X-(x0+0.2*(x1-x0))) > 1e-4 || math.Abs(mk.Y-(y0+0.2*(y1-y0))) > 1e-4 || mk.R != 6 {
		t.Errorf("sum mark %+v, want a circle of r 6 at 20%% from leaf 0", mk)
	}
	// B dominant: 20% from leaf 1; area ∝ value: 20 of 40 is r 6/√2.
	mk = g.Mark(0, 0, RingGraphSum, 5, 15)
	if mk.Kind != RingGraphCircle || !mk.FromB || math.Abs(mk.X-(x1+0.2*(x0-x1))) > 1e-4 || math.Abs(mk.R-6/math.Sqrt2) > 1e-9 {
		t.Errorf("B-dominant mark %+v", mk)
	}
	// One way: an arrow from the sender, pointing at the receiver.
	mk = g.Mark(0, 0, RingGraphSum, 0, 30)
	ux, uy := (x0-x1)/math.Hypot(x0-x1, y0-y1), (y0-y1)/math.Hypot(x0-x1, y0-y1)
	if mk.Kind != RingGraphArrow || !mk.FromB || math.Abs(mk.DX-ux) > 1e-6 || math.Abs(mk.DY-uy) > 1e-6 {
		t.Errorf("one-way mark %+v, want an arrow towards leaf 0 (%v, %v)", mk, ux, uy)
	}
	// Mode +: forward only, an arrow from A sized by 30 of 30; mode −:
	// from B; average: a circle of (30+10)/2 = 20 of 20.
	if mk = g.Mark(0, 0, RingGraphPlus, 30, 10); mk.Kind != RingGraphArrow || mk.FromB || mk.Value != 30 || mk.R != 6 {
		t.Errorf("+ mark %+v", mk)
	}
	if mk = g.Mark(0, 0, RingGraphMinus, 30, 10); mk.Kind != RingGraphArrow || !mk.FromB || mk.Value != 10 {
		t.Errorf("− mark %+v", mk)
	}
	if mk = g.Mark(0, 0, RingGraphAverage, 30, 10); mk.Kind != RingGraphCircle || mk.Value != 20 || mk.R != 6 {
		t.Errorf("average mark %+v", mk)
	}
	if mk = g.Mark(0, 0, RingGraphPlus, 0, 10); mk.Kind != RingGraphNoMark {
		t.Errorf("no forward traffic in mode +: %+v", mk)
	}
	// Curved link 2–9: the mark is on the curve at T from A.
	mk = g.Mark(0, 3, RingGraphSum, 3, 1)
	px, py := g.Point(0, 3, RingGraphMarkT(3))
	if mk.X != px || mk.Y != py || mk.T != RingGraphMarkT(3) {
		t.Errorf("mark of 2–9 at (%v, %v), want (%v, %v)", mk.X, mk.Y, px, py)
	}
	// Offsets: deterministic, in [0.2, 0.4), spread.
	seen := map[float64]bool{}
	for k := range 1000 {
		tk := RingGraphMarkT(k)
		if tk < 0.2 || tk >= 0.4 || tk != RingGraphMarkT(k) {
			t.Fatalf("MarkT(%d) = %v", k, tk)
		}
		seen[math.Floor(tk*100)] = true
	}
	if len(seen) != 20 {
		t.Errorf("offsets fill %d of 20 hundredths", len(seen))
	}
	// Run to run: two layouts, the same marks and the same SVG.
	g2, _ := RingGraphLayout(smallRing())
	for k := range d.Links {
		fw, bw := d.weights(0, k)
		if g.Mark(0, k, RingGraphSum, fw, bw) != g2.Mark(0, k, RingGraphSum, fw, bw) {
			t.Errorf("link %d: marks differ between runs", k)
		}
	}
	first := RingGraph(smallRing()).SVG()
	if second := RingGraph(smallRing()).SVG(); first != second {
		t.Error("SVG differs between runs")
	}
}

func TestRingGraphBlocksUneven(t *testing.T) {
	if s := RingGraphBlocks(10, 4); fmt.Sprint(s) != "[0 3 6 8 10]" {
		t.Errorf("10 leaves in 4 blocks: starts %v", s)
	}
	s := RingGraphBlocks(512, 12)
	for b := range 12 {
		want := 42
		if b < 8 { // 512 = 12·42 + 8
			want = 43
		}
		if s[b+1]-s[b] != want {
			t.Errorf("block %d of 12 on 512 has %d leaves, want %d", b, s[b+1]-s[b], want)
		}
	}
	if s[12] != 512 || RingGraphBlocks(5, 6) != nil || RingGraphBlocks(5, 0) != nil {
		t.Errorf("bounds: %v", s)
	}
	d := RingGraphData{Levels: []int{12}}
	for i := range 512 {
		d.Leaves = append(d.Leaves, fmt.Sprint(i))
	}
	g, err := RingGraphLayout(d)
	if err != nil {
		t.Fatal(err)
	}
	want := "12 blocks of 42 or 43 leaves (12 does not divide 512: the first 8 are one larger)"
	if c := g.Levels[0].Caption; c != want || !g.Levels[0].Uneven {
		t.Errorf("caption %q, want %q", c, want)
	}
	if !strings.Contains(RingGraph(d).SVG(), "12 does not divide 512") {
		t.Error("the picture's caption does not say the blocks are uneven")
	}
}

func TestRingGraphClassesAndFarColours(t *testing.T) {
	for _, c := range []struct {
		lo, hi, m int
		want      RingGraphClass
	}{{0, 0, 4, RingGraphIntra}, {0, 1, 4, RingGraphAdjacent}, {0, 3, 4, RingGraphAdjacent}, {0, 2, 4, RingGraphFar},
		{0, 1, 2, RingGraphAdjacent}, {3, 4, 8, RingGraphAdjacent}, {1, 7, 8, RingGraphFar}, {0, 7, 8, RingGraphAdjacent}} {
		if got := ringClass(c.lo, c.hi, c.m); got != c.want {
			t.Errorf("pair %d–%d of %d: %v, want %v", c.lo, c.hi, c.m, got, c.want)
		}
	}
	// 8 blocks of one leaf: far links given out of order get colours in
	// the order of their pairs (lower block first).
	d := RingGraphData{Levels: []int{8}}
	for i := range 8 {
		d.Leaves = append(d.Leaves, fmt.Sprint(i))
	}
	for _, l := range [][2]int{{6, 2}, {5, 1}, {0, 4}, {7, 3}, {2, 4}, {1, 3}, {0, 2}, {0, 1}} {
		d.Links = append(d.Links, RingGraphLink{A: l[0], B: l[1]})
	}
	g, _ := RingGraphLayout(d)
	var got []string
	for _, p := range g.Levels[0].Pairs {
		if p.Class == RingGraphFar {
			got = append(got, fmt.Sprintf("%d-%d %s", p.Lo, p.Hi, p.Color))
		}
	}
	want := []string{"0-2 #f28e2b", "0-4 #4e79a7", "1-3 #59a14f", "1-5 #e377c2", "2-4 #88ccee", "2-6 #cc6677", "3-7 #117733"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("far pairs %v, want %v", got, want)
	}
	if c := ringFarColors(20); len(c) != 20 || c[3] != "#e377c2" || c[4] != Palette(16)[0] {
		t.Errorf("20 far colours %v", c)
	}
}

func TestRingGraphStaticPicture(t *testing.T) {
	d := smallRing()
	v := RingGraph(d)
	svg := v.SVG()
	checkSVG(t, "ringgraph", svg)
	for _, want := range []string{
		`class="ss-track" data-track="0" data-name="x"`, `class="ss-track" data-track="1" data-name="y"`,
		`class="ss-bundle" stroke="#7b3294"`, `class="ss-bundle" stroke="#f28e2b"`, `class="ss-bundle" stroke="#4e79a7"`,
		">intra-block<", ">adjacent blocks<", ">blocks 1–3<", ">blocks 2–4<",
		">40 packets<", ">one way<", "tracks, inside → out: x, y (brighter = smaller)",
		"4 blocks of 4 leaves", "frame one (1 of 2)", "mode: sum of both directions",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// One circle (link 0: both ways) and two arrows (links 1 and 4).
	marks := svg[strings.Index(svg, `class="ss-marks"`):]
	marks = marks[:strings.Index(marks, "</g>")]
	if c, a := strings.Count(marks, "<circle"), strings.Count(marks, "ss-arrow"); c != 1 || a != 2 {
		t.Errorf("%d circles and %d arrows, want 1 and 2", c, a)
	}
	// Tracks merge runs of equal values: track y has 4 runs, x 16.
	tr := svg[strings.Index(svg, `data-track="1"`):]
	if n := strings.Count(tr[:strings.Index(tr, "</g>")], "<path"); n != 4 {
		t.Errorf("track y has %d runs, want 4", n)
	}
	if strings.Contains(svg, "<script") || strings.Contains(svg, "<foreignObject") {
		t.Error("the static SVG holds a script")
	}
	checkBundle(t, "ringgraph", v, "ringgraph")
	b := v.MIMEBundle()
	html := b.Data["text/html"].(string)
	// What a sanitizer keeps: the <div> with the PNG <img>, no script in
	// it (the only scripts are the spec and the live call after it).
	static := html[:strings.Index(html, "<script")]
	if !strings.Contains(static, `<img alt="Ring graph &#34;small&#34;: 16 leaves, 6 links, 4 blocks of 4 leaves, frame one (1 of 2)"`) {
		t.Errorf("static part %.200q", static)
	}
	if strings.Count(html, "<script") != 2 || strings.Count(html, `<script type="`+SpecMIME+`">`) != 1 {
		t.Errorf("%d scripts, want the spec and the call", strings.Count(html, "<script"))
	}
	// Text: per-group totals of the selected frame.
	txt := b.Text()
	for _, want := range []string{"x", "y", "total", "+ packets", "idle links"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	tot := d.Totals(0)
	// x: links 0, 2, 4: forward 30+0+5, backward 10, idle 1 (link 2).
	// y: links 1, 3, 5: backward 7, idle 2.
	if tot[0] != (RingGraphTotals{Group: 0, Name: "x", Links: 3, Forward: 35, Backward: 10, Idle: 1}) ||
		tot[1] != (RingGraphTotals{Group: 1, Name: "y", Links: 3, Forward: 0, Backward: 7, Idle: 2}) {
		t.Errorf("totals %+v", tot)
	}
	// Colour by group: the legend names the groups.
	d.ColorByGroup = true
	if s := RingGraph(d).SVG(); !strings.Contains(s, ">links by group:<") || !strings.Contains(s, `stroke="`+Palette(2)[1]+`"`) {
		t.Error("colour by group: no group legend or colour")
	}
}

func TestRingGraphSpec(t *testing.T) {
	d := smallRing()
	d.Frames[0].LeafValues = make([]float64, 16)
	d.Frames[0].LeafValues[3] = 9
	g, err := RingGraphLayout(d)
	if err != nil {
		t.Fatal(err)
	}
	sp := d.spec(g)
	if sp.N != 16 || sp.Links.Count != 6 || sp.Links.IB != 2 || sp.WB != "u8" || len(sp.Frames) != 2 || !sp.LeafRing.On {
		t.Errorf("spec %+v", sp)
	}
	// Leaf values push the links in: leaf ring 220–228, links at 217.
	if g.LeafRing != (RingSpan{220, 228}) || g.LinkRadius != 217 {
		t.Errorf("leaf ring %v, link radius %v", g.LeafRing, g.LinkRadius)
	}
	// a = [0 3 0 2 1 5] as uint16 little-endian.
	if sp.Links.A != leInts([]int32{0, 3, 0, 2, 1, 5}, 2) || sp.Levels[0].Cls != leInts([]int32{0, 1, 1, 2, 2, 2}, 1) {
		t.Errorf("links a %s, cls %s", sp.Links.A, sp.Levels[0].Cls)
	}
	if sp.Frames[0].Totals[0] != [4]float64{3, 35, 10, 1} {
		t.Errorf("totals %v", sp.Frames[0].Totals)
	}
	// Each frame's leaf ring spans its own range: frame 1's values are a
	// thousand times frame 0's.
	d.Frames[1].LeafValues = make([]float64, 16)
	d.Frames[1].LeafValues[5] = 9000
	sp = d.spec(g)
	if f0, f1 := sp.Frames[0], sp.Frames[1]; f0.LeafMin != 0 || f0.LeafMax != 9 || f1.LeafMin != 0 || f1.LeafMax != 9000 || sp.LeafRing.Max != 9000 {
		t.Errorf("leaf ranges: frame 0 %v–%v, frame 1 %v–%v, all %v–%v", f0.LeafMin, f0.LeafMax, f1.LeafMin, f1.LeafMax, sp.LeafRing.Min, sp.LeafRing.Max)
	}
	if top := d.leafScale(0).Color(9); top != d.leafScale(1).Color(9000) {
		t.Errorf("frame 0's largest value is %v, frame 1's %v; want the same colour", top, d.leafScale(1).Color(9000))
	}
	d.Frames[1].Forward[0] = 0.5
	if sp := d.spec(g); sp.WB != "f32" {
		t.Errorf("fractional weights travel as %s", sp.WB)
	}
}

func TestRingGraphRejectsBadData(t *testing.T) {
	for name, mod := range map[string]func(d *RingGraphData){
		"track":    func(d *RingGraphData) { d.Tracks[0].Values = d.Tracks[0].Values[:3] },
		"level":    func(d *RingGraphData) { d.Levels = []int{17} },
		"zero":     func(d *RingGraphData) { d.Levels = []int{0} },
		"endpoint": func(d *RingGraphData) { d.Links[0].B = 16 },
		"self":     func(d *RingGraphData) { d.Links[0].B = 0 },
		"weights":  func(d *RingGraphData) { d.Frames[0].Forward = []float64{1} },
		"leaves":   func(d *RingGraphData) { d.Frames[0].LeafValues = []float64{1} },
		"mode":     func(d *RingGraphData) { d.Mode = 9 },
	} {
		d := smallRing()
		mod(&d)
		if _, err := RingGraphLayout(d); err == nil {
			t.Errorf("%s: no error", name)
		}
		if b := RingGraph(d).MIMEBundle(); !strings.HasPrefix(b.Text(), "views.RingGraph: ") {
			t.Errorf("%s: bundle %q", name, b.Text())
		}
	}
	// Bad weights count as 0; empty data draws.
	d := smallRing()
	d.Frames[0].Forward[0] = math.NaN()
	d.Frames[0].Backward[0] = -3
	RingGraph(d).MIMEBundle()
	checkBundle(t, "empty ringgraph", RingGraph(RingGraphData{}), "ringgraph")
}

func TestRingGraphLargeIsRasterised(t *testing.T) {
	d := torusRing([]int{16, 16, 12}, []int{12}, 1)
	if !d.big() {
		t.Fatal("3,072 leaves should be big")
	}
	v := RingGraph(d)
	f := v.figure()
	if f.svg != "" || f.raster == nil || f.makeSVG == nil {
		t.Fatal("a big ring graph should be rasterised directly")
	}
	img, err := f.render(1)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 640 {
		t.Errorf("width %d", img.Bounds().Dx())
	}
	// The pixel just right of 12 o'clock in the middle of the innermost
	// track (its centre at angle atan(0.5/r)) shows the leaf under that
	// angle (cells are 0.45 px wide there): leaf 1, first coordinate 1 of
	// 0..15, grey round(235 − 170/15) = 224.
	g, _ := RingGraphLayout(d)
	r := math.Floor(g.CY-(g.Tracks[0].Inner+g.Tracks[0].Outer)/2) + 0.5
	if leaf := int(math.Atan2(0.5, g.CY-r) / (2 * math.Pi) * 3072); leaf != 1 {
		t.Fatalf("leaf %d", leaf)
	}
	if px := img.RGBAAt(320, int(r)); px.R != 224 || px.G != 224 || px.B != 224 {
		t.Errorf("track pixel %v, want grey 224", px)
	}
	checkBundle(t, "big ringgraph", v, "ringgraph")
}

// torusRing is a torus of the given extents with leaves in row-major order
// (first coordinate fastest): one link per neighbour pair along each
// dimension of extent ≥ 3, two parallel links on extent 2; tracks are the
// coordinates, weights a fixed pseudo-random texture over frames.
func torusRing(ext []int, levels []int, frames int) RingGraphData {
	n := 1
	for _, e := range ext {
		n *= e
	}
	d := RingGraphData{Levels: levels, Level: len(levels) - 1, GroupName: "dimension"}
	d.Leaves = make([]string, n)
	for t := range ext {
		d.Tracks = append(d.Tracks, RingGraphTrack{Name: fmt.Sprintf("d%d", t), Values: make([]int, n)})
		d.GroupNames = append(d.GroupNames, fmt.Sprintf("d%d", t))
	}
	coord := make([]int, len(ext))
	for i := range n {
		r := i
		for t, e := range ext {
			coord[t] = r % e
			r /= e
			d.Tracks[t].Values[i] = coord[t]
		}
		d.Leaves[i] = fmt.Sprint(coord)
		stride := 1
		for t, e := range ext {
			if e >= 2 {
				c := coord[t]
				j := i + ((c+1)%e-c)*stride
				if e >= 3 || c == 0 {
					d.Links = append(d.Links, RingGraphLink{A: i, B: j, Group: t})
					if e == 2 {
						d.Links = append(d.Links, RingGraphLink{A: i, B: j, Group: t})
					}
				}
			}
			stride *= e
		}
	}
	s := uint32(12345)
	rnd := func() float64 { s = s*1664525 + 1013904223; return float64(s >> 20) }
	for f := range frames {
		fr := RingGraphFrame{Label: fmt.Sprint(f + 1), Forward: make([]float64, len(d.Links)), Backward: make([]float64, len(d.Links))}
		for k := range d.Links {
			if rnd() < 3500 {
				fr.Forward[k] = rnd()
			}
			if rnd() < 3500 {
				fr.Backward[k] = rnd()
			}
		}
		d.Frames = append(d.Frames, fr)
	}
	return d
}

func TestTorusRingCounts(t *testing.T) {
	// 4×4: 32 neighbour pairs; 2×3×4 with two parallel links on extent 2:
	// 12 + 24 + 24 = 60 pairs, 72 links.
	if d := torusRing([]int{4, 4}, []int{4}, 1); len(d.Links) != 32 {
		t.Errorf("4×4: %d links", len(d.Links))
	}
	if d := torusRing([]int{2, 3, 4}, []int{4}, 1); len(d.Links) != 72 {
		t.Errorf("2×3×4: %d links", len(d.Links))
	}
}

// BenchmarkRingGraphBundle builds the bundle of a 4×12×16×16×2 torus:
// 24,576 leaves, 122,880 two-way links (245,760 channels), levels 4, 8
// and 16 (16 shown), five tracks, one frame.
func BenchmarkRingGraphBundle(b *testing.B) {
	d := torusRing([]int{4, 12, 16, 16, 2}, []int{4, 8, 16}, 1)
	if len(d.Leaves) != 24576 || len(d.Links) != 122880 {
		b.Fatalf("%d leaves, %d links", len(d.Leaves), len(d.Links))
	}
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		bd := RingGraph(d).MIMEBundle()
		size = len(bd.Data["text/html"].(string)) + len(bd.Text())
	}
	b.ReportMetric(float64(size), "bundle-bytes")
}

// ringBundle is one link path of a ring graph's static SVG: its colour,
// effective stroke (its own width and opacity, else the links group's)
// and how many curves it draws.
type ringBundle struct {
	color          string
	width, opacity float64
	curves         int
}

func ringBundles(t *testing.T, svg string) []ringBundle {
	t.Helper()
	attr := func(tag, name string) (float64, bool) {
		i := strings.Index(tag, " "+name+`="`)
		if i < 0 {
			return 0, false
		}
		v := tag[i+len(name)+3:]
		var x float64
		if _, err := fmt.Sscan(v[:strings.Index(v, `"`)], &x); err != nil {
			t.Fatalf("%s in %.80q: %v", name, tag, err)
		}
		return x, true
	}
	g := svg[strings.Index(svg, `<g class="ss-links"`):]
	g = g[:strings.Index(g, "</g>")]
	head := g[:strings.Index(g, ">")]
	w0, _ := attr(head, "stroke-width")
	o0, _ := attr(head, "stroke-opacity")
	var out []ringBundle
	for _, p := range strings.Split(g, "<path")[1:] {
		b := ringBundle{width: w0, opacity: o0, curves: strings.Count(p, "M")}
		if w, ok := attr(p, "stroke-width"); ok {
			b.width = w
		}
		if o, ok := attr(p, "stroke-opacity"); ok {
			b.opacity = o
		}
		s := p[strings.Index(p, `stroke="`)+8:]
		b.color = s[:strings.Index(s, `"`)]
		out = append(out, b)
	}
	return out
}

// loadRing is 16 leaves and 8 links coloured by dimension: dimension a's
// four links (0–1, 2–3, 4–5, 6–7) carry no packets, b's 8–9 and 10–11
// carry 100 each, 12–13 and 14–15 carry 20 (issue 27: an idle dimension
// beside busy ones).
func loadRing(scale float64) RingGraphData {
	d := RingGraphData{Title: "load", Levels: []int{4}, GroupNames: []string{"a", "b"}, ColorByGroup: true}
	for i := range 16 {
		d.Leaves = append(d.Leaves, fmt.Sprintf("n%d", i))
	}
	fw := []float64{}
	for i := 0; i < 16; i += 2 {
		g := 0
		if i >= 8 {
			g = 1
		}
		d.Links = append(d.Links, RingGraphLink{A: i, B: i + 1, Group: g})
		switch {
		case i < 8:
			fw = append(fw, 0)
		case i < 12:
			fw = append(fw, 100*scale)
		default:
			fw = append(fw, 20*scale)
		}
	}
	d.Frames = []RingGraphFrame{{Label: "one", Forward: fw}}
	return d
}

// TestRingGraphIdleLinksFaint: idle links are drawn thinner and fainter
// than every busy link, and busier links wider (issue 27, item 2).
func TestRingGraphIdleLinksFaint(t *testing.T) {
	d := loadRing(1)
	colA, colB := Palette(2)[0], Palette(2)[1]
	bs := ringBundles(t, RingGraph(d).SVG())
	minBusyW, minBusyO, maxBusyW := math.Inf(1), math.Inf(1), 0.0
	idle, busy := 0, 0
	busyWidths := map[float64]int{}
	for _, b := range bs {
		if b.color == colB {
			busy += b.curves
			busyWidths[b.width] += b.curves
			minBusyW, minBusyO, maxBusyW = math.Min(minBusyW, b.width), math.Min(minBusyO, b.opacity), math.Max(maxBusyW, b.width)
		}
	}
	for _, b := range bs {
		if b.color != colA {
			continue
		}
		idle += b.curves
		if b.width >= minBusyW || b.opacity >= minBusyO || b.width*b.opacity > 0.5*minBusyW*minBusyO {
			t.Errorf("idle links drawn %v wide at opacity %v; the thinnest busy link %v at %v", b.width, b.opacity, minBusyW, minBusyO)
		}
	}
	if idle != 4 || busy != 4 {
		t.Fatalf("%d idle and %d busy curves, want 4 and 4: %+v", idle, busy, bs)
	}
	// 100 packets: the widest step; 20: step ⌈8·20/100⌉ = 2.
	g, _ := RingGraphLayout(d)
	if len(busyWidths) != 2 || busyWidths[g.LinkMaxWidth] != 2 || busyWidths[g.stepWidth(2)] != 2 || g.stepWidth(2) >= g.LinkMaxWidth {
		t.Errorf("busy widths %v, want 2 links at %v and 2 at %v", busyWidths, g.LinkMaxWidth, g.stepWidth(2))
	}
	if w, o, s := g.LinkStroke(RingGraphSum, 0, 0); s != 0 || w != g.IdleWidth || o != g.IdleOpacity {
		t.Errorf("idle stroke %v %v step %d", w, o, s)
	}
	if _, _, s := g.LinkStroke(RingGraphSum, 0.001, 0); s != 1 {
		t.Errorf("a tiny load: step %d, want 1", s)
	}
	if _, _, s := g.LinkStroke(RingGraphPlus, 0, 50); s != 0 {
		t.Errorf("mode +, backward traffic only: step %d, want 0 (idle in the mode)", s)
	}
	// The legend says what width means, and how many links are idle.
	svg := RingGraph(d).SVG()
	for _, want := range []string{"link width: packets (sum of both directions), scale 0–100:", "≤ 100", "idle (0 packets): 4 links, thin and faint"} {
		if !strings.Contains(svg, want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	// The raster draws the same: a busy link's pixels are darker than an
	// idle one's.
	d2 := d
	img, err := d2.render(g, d.Mode, 1)
	if err != nil {
		t.Fatal(err)
	}
	ink := func(k int) float64 {
		x, y := g.Point(g.Level, k, 0.5)
		px := img.RGBAAt(int(x), int(y))
		return 3*255 - float64(px.R) - float64(px.G) - float64(px.B)
	}
	if ink(0) >= ink(4)/2 {
		t.Errorf("raster: idle link ink %v, busy %v", ink(0), ink(4))
	}
	// Without frames every link is drawn alike, as before.
	d.Frames = nil
	for _, b := range ringBundles(t, RingGraph(d).SVG()) {
		if b.width != 1 || b.opacity != g.LinkOpacity {
			t.Errorf("no frames: a path %v wide at %v", b.width, b.opacity)
		}
	}
}

// TestRingGraphSharedScale: two rings given one ScaleMax draw the same
// link of different loads at different widths; each on its own scale,
// they would look alike.
func TestRingGraphSharedScale(t *testing.T) {
	heavy, light := loadRing(1), loadRing(0.25)
	widest := func(d RingGraphData) float64 {
		w := 0.0
		for _, b := range ringBundles(t, RingGraph(d).SVG()) {
			w = math.Max(w, b.width)
		}
		return w
	}
	if a, b := widest(heavy), widest(light); a != b {
		t.Errorf("own scales: widest %v and %v, want equal", a, b)
	}
	heavy.ScaleMax, light.ScaleMax = 100, 100
	if a, b := widest(heavy), widest(light); b >= a {
		t.Errorf("one scale: the light ring's widest link %v, the heavy one's %v", b, a)
	}
	gh, _ := RingGraphLayout(heavy)
	gl, _ := RingGraphLayout(light)
	if gh.MarkMax != gl.MarkMax || gl.MarkMax[RingGraphSum] != 100 {
		t.Errorf("scales %v and %v, want one of 100", gh.MarkMax, gl.MarkMax)
	}
	// Link 4 (100 packets heavy, 25 light): step 8 and step 2.
	if _, _, s := gl.LinkStroke(RingGraphSum, 25, 0); s != 2 {
		t.Errorf("25 of 100: step %d", s)
	}
	if sp := light.spec(gl); sp.MarkMax["sum"] != 100 || sp.WidthSteps != 8 || sp.LinkMaxWidth != ang(gl.LinkMaxWidth) || sp.IdleOpacity >= sp.LinkOpacity {
		t.Errorf("spec: markMax %v, steps %d, max width %v, idle opacity %v", sp.MarkMax, sp.WidthSteps, sp.LinkMaxWidth, sp.IdleOpacity)
	}
	// A ScaleMax below the data changes nothing.
	heavy.ScaleMax = 10
	if g, _ := RingGraphLayout(heavy); g.MarkMax[RingGraphSum] != 100 {
		t.Errorf("ScaleMax 10 under data of 100: scale %v", g.MarkMax[RingGraphSum])
	}
}
