package views

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"image/png"
	"io"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"superstep/display"
)

func TestFitPositionsKeepsAspectAndMargin(t *testing.T) {
	// A 10×5 extent into 200×200 with margin 10: scale 18, centred vertically.
	fx, fy := FitPositions([]float64{0, 10, 5}, []float64{0, 5, 2.5}, 200, 200, 10)
	wantX, wantY := []float64{10, 190, 100}, []float64{55, 145, 100}
	for i := range fx {
		if math.Abs(fx[i]-wantX[i]) > eps || math.Abs(fy[i]-wantY[i]) > eps {
			t.Errorf("point %d at (%v, %v), want (%v, %v)", i, fx[i], fy[i], wantX[i], wantY[i])
		}
	}

	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.Intn(50)
		x, y := make([]float64, n), make([]float64, n)
		sx, sy := math.Exp(rng.NormFloat64()*2), math.Exp(rng.NormFloat64()*2)
		for i := range x {
			x[i], y[i] = rng.NormFloat64()*sx-40, rng.NormFloat64()*sy+1e3
		}
		w, h, m := 300+rng.Float64()*400, 200+rng.Float64()*300, 5+rng.Float64()*10
		fx, fy := FitPositions(x, y, w, h, m)
		// Inside the margins, touching them on the limiting axis, centred on the other.
		x0, x1, y0, y1 := slices.Min(fx), slices.Max(fx), slices.Min(fy), slices.Max(fy)
		if x0 < m-eps || x1 > w-m+eps || y0 < m-eps || y1 > h-m+eps {
			t.Fatalf("trial %d: box [%v,%v]×[%v,%v] outside the margins of %v×%v less %v", trial, x0, x1, y0, y1, w, h, m)
		}
		tight := math.Abs(x0-m) < 1e-6 && math.Abs(x1-(w-m)) < 1e-6 || math.Abs(y0-m) < 1e-6 && math.Abs(y1-(h-m)) < 1e-6
		if !tight {
			t.Errorf("trial %d: fills neither axis: [%v,%v]×[%v,%v] in %v×%v less %v", trial, x0, x1, y0, y1, w, h, m)
		}
		if math.Abs((x0-m)-(w-m-x1)) > 1e-6 || math.Abs((y0-m)-(h-m-y1)) > 1e-6 {
			t.Errorf("trial %d: not centred", trial)
		}
		// One scale for both axes: every displacement scales alike.
		s := (fx[1] - fx[0]) / (x[1] - x[0])
		for i := 1; i < n; i++ {
			if math.Abs((fx[i]-fx[0])-s*(x[i]-x[0])) > 1e-6 || math.Abs((fy[i]-fy[0])-s*(y[i]-y[0])) > 1e-6 {
				t.Fatalf("trial %d: point %d not on the uniform scale %v", trial, i, s)
			}
		}
	}

	fx, fy = FitPositions([]float64{3, 3}, []float64{-1, -1}, 100, 60, 4)
	if fx[0] != 50 || fy[1] != 30 {
		t.Errorf("equal points at (%v, %v), want the centre", fx[0], fy[1])
	}
	if fx, _ := FitPositions(nil, nil, 100, 100, 5); len(fx) != 0 {
		t.Error("no points")
	}
}

// circles returns the attributes of the node circles of an SVG drawing.
func circles(t *testing.T, svg string) []map[string]string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var out []map[string]string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "circle" {
			a := map[string]string{}
			for _, at := range se.Attr {
				a[at.Name.Local] = at.Value
			}
			if a["class"] == "ss-node" { // not the legend's swatches
				out = append(out, a)
			}
		}
	}
}

func TestDrawingGroupsTakePaletteColours(t *testing.T) {
	d := DrawingData{X: []float64{0, 1, 2, 3}, Y: []float64{0, 1, 0, 1}, Groups: []int32{7, 2, 7, 5}, Labels: []string{"a", "b<&>", "", "d"}}
	pal := Palette(3) // by size: group 7 (2 nodes), then 2 and 5 (1 each, by id)
	cs := circles(t, Drawing(d).SVG())
	if len(cs) != 4 {
		t.Fatalf("%d circles, want 4", len(cs))
	}
	// Hover texts: the label (or "node i") and the group. XML turns the
	// &#10; in the attribute into a line break.
	fill := map[string]string{}
	for _, c := range cs {
		fill[c["data-tip"]] = c["fill"]
	}
	for tip, want := range map[string]string{"a\ngroup 7": pal[0], "b<&>\ngroup 2": pal[1], "node 2\ngroup 7": pal[0], "d\ngroup 5": pal[2]} {
		if got, ok := fill[tip]; !ok || got != want {
			t.Errorf("node with tip %q: fill %q (drawn %v), want %s", tip, got, ok, want)
		}
	}
	// The first nine groups are the colour-blind-safe scheme.
	if !slices.Equal(Palette(3), paletteBase[:3]) {
		t.Error("Palette(3) is not Tol's muted prefix")
	}
	d.Groups = nil
	for i, c := range circles(t, Drawing(d).SVG()) {
		if c["fill"] != drawingNodeColor || strings.Contains(c["data-tip"], "group") {
			t.Errorf("ungrouped node %d: %v", i, c)
		}
	}
}

func randomDrawing(n, m int, seed int64) DrawingData {
	rng := rand.New(rand.NewSource(seed))
	d := DrawingData{X: make([]float64, n), Y: make([]float64, n), Groups: make([]int32, n)}
	for i := range d.X {
		d.X[i], d.Y[i] = rng.Float64()*100, rng.Float64()*70
		d.Groups[i] = int32(rng.Intn(6))
	}
	for k := 0; k < m; k++ {
		d.Edges = append(d.Edges, [2]int32{int32(rng.Intn(n)), int32(rng.Intn(n))})
	}
	return d
}

func edgeSet(L drawingLayout) map[[2]int32]int {
	s := map[[2]int32]int{}
	for k := 0; k < len(L.edges); k += 2 {
		u, v := L.edges[k], L.edges[k+1]
		s[[2]int32{min(u, v), max(u, v)}]++
	}
	return s
}

func TestDrawingEdgeCapIsDeterministic(t *testing.T) {
	d := randomDrawing(300, 1000, 1)
	d.Edges = append(d.Edges, [2]int32{4, 4}, [2]int32{4, 4}) // self-loops: never drawn
	d.MaxEdges = 100
	a := d.layout()
	if got := len(a.edges) / 2; got != 100 {
		t.Fatalf("%d edges drawn, want the cap 100", got)
	}
	if b := d.layout(); !slices.Equal(a.edges, b.edges) {
		t.Fatal("two layouts of the same data drew different edges")
	}
	// The sample depends on the endpoints, not on the order or direction.
	e := slices.Clone(d.Edges)
	slices.Reverse(e)
	for k := range e {
		if k%2 == 0 {
			e[k][0], e[k][1] = e[k][1], e[k][0]
		}
	}
	d2 := d
	d2.Edges = e
	if s1, s2 := edgeSet(a), edgeSet(d2.layout()); fmt.Sprint(s1) != fmt.Sprint(s2) {
		t.Error("reordering the edges changed the sample")
	}
	cap := d.caption(&a)
	if !strings.Contains(cap, "1,002 edges, 100 drawn (sampled)") {
		t.Errorf("caption %q does not say the edges are sampled", cap)
	}
	// Duplicates (equal keys) still give exactly the cap.
	d.Edges = slices.Repeat([][2]int32{{1, 2}, {2, 3}, {3, 1}}, 50)
	d.MaxEdges = 10
	if L := d.layout(); len(L.edges) != 20 {
		t.Errorf("%d edges drawn from duplicates, want 10", len(L.edges)/2)
	}
	// Under the cap every edge but the loops is drawn, in order; no sample noted.
	d = randomDrawing(50, 40, 2)
	d.Edges[3] = [2]int32{7, 7}
	L := d.layout()
	if len(L.edges) != 2*39 || L.edges[0] != d.Edges[0][0] || L.edges[7] != d.Edges[4][1] {
		t.Errorf("under the cap: %d edges drawn", len(L.edges)/2)
	}
	if c := d.caption(&L); strings.Contains(c, "sample") || !strings.Contains(c, "40 edges") {
		t.Errorf("caption %q", c)
	}
	// The defaults: 20,000 as SVG, 200,000 on canvas.
	if L := randomDrawing(DrawingCanvasNodes-1, 25000, 3).layout(); len(L.edges) != 2*drawingMaxSVGEdges {
		t.Errorf("an SVG drawing draws %d edges by default, want 20,000", len(L.edges)/2)
	}
}

// liveSpec returns the spec of the drawing's live call in html.
func liveSpec(t *testing.T, html string) drawingSpec {
	t.Helper()
	m := liveCallRE("drawing").FindStringSubmatch(html)
	if m == nil || !strings.Contains(html, `class="superstep-display"`) {
		t.Fatal("no live drawing call")
	}
	var sp drawingSpec
	if err := json.Unmarshal([]byte(unpackSpec(t, m[1])), &sp); err != nil {
		t.Fatal(err)
	}
	return sp
}

// staticImg returns the media type and decoded bytes of the single <img>
// data URL in html.
func staticImg(t *testing.T, html string) (string, []byte) {
	t.Helper()
	m := regexp.MustCompile(`<img [^>]*src="data:(image/[a-z+]+);base64,([^"]+)"`).FindAllStringSubmatch(html, -1)
	if len(m) != 1 {
		t.Fatalf("%d static <img> data URLs, want 1", len(m))
	}
	raw, err := base64.StdEncoding.DecodeString(m[0][2])
	if err != nil {
		t.Fatalf("the data URL does not decode: %v", err)
	}
	return m[0][1], raw
}

func TestDrawingSmall(t *testing.T) {
	d := randomDrawing(120, 200, 4)
	d.Title = "small <graph>"
	v := Drawing(d)
	checkBundle(t, "drawing", v, "drawing")
	svg := v.SVG()
	if cs := circles(t, svg); len(cs) != 120 {
		t.Errorf("%d node circles, want 120", len(cs))
	}
	for _, s := range []string{`class="ss-plot"`, `class="ss-edges"`, "small &lt;graph&gt;", "120 nodes · 200 edges · 6 groups"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
	// The picture's positions are Positions, inside the plot with its margin.
	x, y := v.Positions()
	w, h := v.PlotSize()
	L := d.layout()
	drawn := map[string]bool{}
	for _, c := range circles(t, svg) {
		drawn[c["cx"]+" "+c["cy"]] = true
	}
	for i := range x {
		if !drawn[n2(x[i])+" "+n2(y[i])] {
			t.Fatalf("node %d at Positions (%v, %v) is not drawn there", i, x[i], y[i])
		}
		if x[i] < 5 || x[i] > w-5 || y[i] < 5 || y[i] > h-5 {
			t.Fatalf("node %d at (%v, %v) outside the margin of %v×%v", i, x[i], y[i], w, h)
		}
	}
	// About a 100×70 extent: the plot's aspect follows it (margin 11 px).
	aspect := (slices.Max(d.Y) - slices.Min(d.Y)) / (slices.Max(d.X) - slices.Min(d.X))
	if w != drawingWidth || math.Abs(h-(aspect*(w-22)+22)) > 0.5 {
		t.Errorf("plot %v×%v for a layout of aspect %v", w, h, aspect)
	}
	b := v.MIMEBundle()
	if !strings.Contains(b.Text(), `Graph drawing "small <graph>": 120 nodes`) {
		t.Errorf("text %q", b.Text())
	}
	// The static picture is the whole picture: title, plot, legend, caption.
	_, raw := staticImg(t, b.Data["text/html"].(string))
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != int(w) || r.Dy() != int(math.Ceil(d.height(&L))) {
		t.Errorf("PNG %v, picture %v×%v", r, w, d.height(&L))
	}
}

func TestDrawingLarge(t *testing.T) {
	d := randomDrawing(DrawingCanvasNodes, 9000, 5)
	d.Labels = make([]string, len(d.X))
	for i := range d.Labels {
		d.Labels[i] = fmt.Sprintf("n%d", i)
	}
	d.Title = "large"
	v := Drawing(d)
	checkBundle(t, "large drawing", v, "drawing")
	b := v.MIMEBundle()
	html := b.Data["text/html"].(string)
	_, raw := staticImg(t, html)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	// Every node's pixel has its group's colour (a later node may cover
	// it, so most, not all); the plot starts under the title.
	x, y := v.Positions()
	L := d.layout()
	top := d.top()
	hits := 0
	for i := range x {
		c := parseHex(L.colorOf(i))
		r, g, bl, _ := img.At(int(x[i]), int(y[i]+top)).RGBA()
		if uint8(r>>8) == c[0] && uint8(g>>8) == c[1] && uint8(bl>>8) == c[2] {
			hits++
		}
	}
	if hits < len(x)*3/4 {
		t.Errorf("only %d of %d nodes show their colour in the PNG", hits, len(x))
	}
	// The spec: the frame, positions in hundredths of a px, ranks, edges, labels.
	sp := liveSpec(t, html)
	if sp.N != len(x) || sp.GB != 1 || sp.EB != 2 || len(sp.Labels) != len(x) || sp.Labels[17] != "n17" || float64(sp.Top) != top {
		t.Fatalf("spec n %d gb %d eb %d labels %d top %v", sp.N, sp.GB, sp.EB, len(sp.Labels), sp.Top)
	}
	for _, s := range []string{"large", "5,000 nodes · 9,000 edges · 6 groups"} {
		if !strings.Contains(sp.Frame, s) {
			t.Errorf("the frame lacks %q", s)
		}
	}
	if strings.Contains(sp.Frame, "<circle class=\"ss-node\"") {
		t.Error("the frame holds the nodes")
	}
	dec := func(s string) []byte {
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	xs, ys, gs, es := dec(sp.X), dec(sp.Y), dec(sp.G), dec(sp.E)
	for i := range x {
		fx := float64(binary.LittleEndian.Uint16(xs[2*i:])) / 100
		fy := float64(binary.LittleEndian.Uint16(ys[2*i:])) / 100
		if math.Abs(fx-x[i]) > 1e-9 || math.Abs(fy-y[i]) > 1e-9 {
			t.Fatalf("node %d at (%v, %v) in the spec, (%v, %v) in Positions", i, fx, fy, x[i], y[i])
		}
		if sp.Colors[min(int(gs[i]), len(sp.Colors)-1)] != L.colorOf(i) || sp.GID[gs[i]] != d.Groups[i] {
			t.Fatalf("node %d: rank %d", i, gs[i])
		}
	}
	loops := 0
	for _, e := range d.Edges {
		if e[0] == e[1] {
			loops++
		}
	}
	if len(es) != 4*(9000-loops) {
		t.Errorf("%d bytes of edges", len(es))
	}
	if binary.LittleEndian.Uint16(es[0:]) != uint16(d.Edges[0][0]) || binary.LittleEndian.Uint16(es[2:]) != uint16(d.Edges[0][1]) {
		t.Error("the first edge differs")
	}
}

// Twelve groups of sizes 12, 11, …, 1: the nine largest get the palette's
// nine colours in order of size, the three smallest one grey; the legend
// names the coloured ones with their sizes and counts the rest; hover and
// the caption say "community".
func TestDrawingColoursLargestGroups(t *testing.T) {
	var d DrawingData
	d.GroupName = "community"
	for g := 0; g < 12; g++ {
		for k := 0; k < 12-g; k++ {
			d.X = append(d.X, float64(g))
			d.Y = append(d.Y, float64(k))
			d.Groups = append(d.Groups, int32(100+g)) // group 100 is the largest
		}
	}
	L := d.layout()
	pal := Palette(9)
	for i, g := range d.Groups {
		want := drawingOtherColor
		if r := int(g - 100); r < 9 {
			want = pal[r]
		}
		if got := L.colorOf(i); got != want {
			t.Fatalf("node %d of community %d: colour %s, want %s", i, g, got, want)
		}
	}
	var legend []string
	for _, row := range L.legendRows {
		for _, e := range row {
			legend = append(legend, e.Text)
		}
	}
	if len(legend) != 10 || legend[0] != "community 100 · 12" || legend[8] != "community 108 · 4" || legend[9] != "3 other communities · 6" {
		t.Errorf("legend %q", legend)
	}
	if tip := d.tip(&L, 0); tip != "node 0\ncommunity 100" {
		t.Errorf("tip %q", tip)
	}
	if c := d.caption(&L); !strings.Contains(c, "12 communities") {
		t.Errorf("caption %q", c)
	}
	// The grey ones are drawn first, the largest community last (on top).
	if first, last := L.order[0], L.order[len(L.order)-1]; d.Groups[first] != 111 || d.Groups[last] != 100 {
		t.Errorf("drawing order from community %d to %d", d.Groups[first], d.Groups[last])
	}
	svg := Drawing(d).SVG()
	for _, s := range legend {
		if !strings.Contains(svg, html.EscapeString(s)) {
			t.Errorf("the SVG lacks the legend entry %q", s)
		}
	}
	// Fewer colours when asked.
	d.ColoredGroups = 3
	if L := d.layout(); L.colorOf(0) != pal[0] || L.colorOf(len(d.X)-1) != drawingOtherColor || len(L.colors) != 4 {
		t.Errorf("three coloured: %v", L.colors)
	}
}

func TestDrawingEmptyAndInvalid(t *testing.T) {
	empty := Drawing(DrawingData{})
	checkBundle(t, "empty drawing", empty, "drawing")
	if svg := empty.SVG(); !strings.Contains(svg, "0 nodes") {
		t.Errorf("empty drawing: %q", svg)
	}
	for name, d := range map[string]DrawingData{
		"y":      {X: []float64{1, 2}, Y: []float64{1}},
		"labels": {X: []float64{1}, Y: []float64{1}, Labels: []string{"a", "b"}},
		"groups": {X: []float64{1}, Y: []float64{1}, Groups: []int32{}},
		"nan":    {X: []float64{1, math.NaN()}, Y: []float64{1, 2}},
		"edge":   {X: []float64{1, 2}, Y: []float64{1, 2}, Edges: [][2]int32{{0, 2}}},
	} {
		v := Drawing(d)
		b := v.MIMEBundle()
		if _, ok := b.Data["text/html"]; ok || !strings.HasPrefix(b.Text(), "views.Drawing: ") {
			t.Errorf("%s: bundle %v", name, b.Data)
		}
		if svg := v.SVG(); !strings.Contains(svg, "views.Drawing: ") {
			t.Errorf("%s: the SVG does not say what is wrong", name)
		}
		if _, err := v.PNG(); err == nil {
			t.Errorf("%s: PNG without error", name)
		}
		if x, _ := v.Positions(); x != nil {
			t.Errorf("%s: positions", name)
		}
	}
}

func TestRuntimeHasDrawing(t *testing.T) {
	for _, s := range []string{"drawing:", "ss-canvas", "data-view"} {
		if !strings.Contains(display.RuntimeJS, s) {
			t.Errorf("the runtime lacks %q", s)
		}
	}
}

// A drawing is framed on its vertices, not on its extremes: 1,000 points
// in the unit square and one at (100, 100) are framed on the square (the
// far point counted, the caption saying so, the live spec keeping its
// place beyond the plot), while 100 points and the same far one are framed
// whole.
func TestFrameOnTheVertices(t *testing.T) {
	var x, y []float64
	for i := range 1000 {
		x = append(x, float64(i%32)/31)
		y = append(y, float64(i/32)/31)
	}
	x, y = append(x, 100), append(y, 100)
	f := FrameOf(x, y)
	if f.Outside != 1 || f.X1 > 1.2 || f.Y1 > 1.2 || f.X0 > 0 || f.Y0 > 0 {
		t.Errorf("frame %+v, want about the unit square with 1 outside", f)
	}
	if small := FrameOf(x[900:], y[900:]); small.Outside != 0 || small.X1 != 100 {
		t.Errorf("101 points framed %+v, want all", small)
	}
	v := Drawing(DrawingData{X: x, Y: y})
	if cap := v.Data.caption(ptr(v.Data.layout())); !strings.Contains(cap, "1 node beyond the frame") {
		t.Errorf("caption %q does not count the far node", cap)
	}
	L := v.Data.layout()
	sp := v.Data.spec(&L)
	if sp.PS == 0 || sp.PO != 0 || sp.ZMin == 0 || sp.ZMin >= 0.5 {
		t.Errorf("spec scale %v offset %v zoom-out %v, want a scale for the far node and a zoom out to it", sp.PS, sp.PO, sp.ZMin)
	}
	// The far node decodes where the layout put it, far right of the plot.
	if L.x[1000] < 10*L.w {
		t.Errorf("far node at x = %.0f px in a plot %.0f px wide", L.x[1000], L.w)
	}
}

func ptr[T any](v T) *T { return &v }
