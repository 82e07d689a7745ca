package display

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
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
			out = append(out, a)
		}
	}
}

func TestDrawingGroupsTakePaletteColours(t *testing.T) {
	d := DrawingData{X: []float64{0, 1, 2, 3}, Y: []float64{0, 1, 0, 1}, Groups: []int32{7, 2, 7, 5}, Labels: []string{"a", "b<&>", "", "d"}}
	pal := Palette(3) // groups 2, 5, 7 in that order
	cs := circles(t, Drawing(d).SVG())
	if len(cs) != 4 {
		t.Fatalf("%d circles, want 4", len(cs))
	}
	for i, want := range []string{pal[2], pal[0], pal[2], pal[1]} {
		if cs[i]["fill"] != want {
			t.Errorf("node %d (group %d) is %s, want %s", i, d.Groups[i], cs[i]["fill"], want)
		}
	}
	// Hover texts: the label (or "node i") and the group. XML turns the
	// &#10; in the attribute into a line break.
	for i, want := range []string{"a\ngroup 7", "b<&>\ngroup 2", "node 2\ngroup 7", "d\ngroup 5"} {
		if cs[i]["data-tip"] != want {
			t.Errorf("node %d tip %q, want %q", i, cs[i]["data-tip"], want)
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
	if !strings.Contains(cap, "1,002 edges, 100 drawn (a deterministic sample)") {
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

func TestWritePositionsTSV(t *testing.T) {
	var b bytes.Buffer
	err := WritePositionsTSV(&b, []string{"a", "tab\there", "line\nbreak"}, []float64{0, -1.5, 1e21}, []float64{0.1, 2, math.NaN()}, []int32{3, 0, -1})
	if err != nil {
		t.Fatal(err)
	}
	want := "id\tlabel\tx\ty\tgroup\n" +
		"0\ta\t0\t0.1\t3\n" +
		"1\ttab here\t-1.5\t2\t0\n" +
		"2\tline break\t1e+21\tNaN\t-1\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := WritePositionsTSV(&b, nil, []float64{1.25}, []float64{0.3333333333333333}, nil); err != nil || b.String() != "id\tlabel\tx\ty\tgroup\n0\t\t1.25\t0.3333333333333333\t\n" {
		t.Errorf("without labels and groups: %q, %v", b.String(), err)
	}
	if err := WritePositionsTSV(&b, nil, []float64{1}, nil, nil); err == nil {
		t.Error("mismatched x and y: no error")
	}
	if err := WritePositionsTSV(&b, []string{"a", "b"}, []float64{1}, []float64{1}, nil); err == nil {
		t.Error("mismatched labels: no error")
	}
}

var liveSpecRE = regexp.MustCompile(`superstep\.live\("[^"]+", "drawing", (.*)\);\n</script>`)

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

func TestDrawingBundleSmallIsSVG(t *testing.T) {
	d := randomDrawing(120, 200, 4)
	d.Title = "small <graph>"
	v := Drawing(d)
	b := v.MIMEBundle()
	html := b.Data["text/html"].(string)
	typ, raw := staticImg(t, html)
	if typ != "image/svg+xml" {
		t.Fatalf("static picture is %s, want SVG", typ)
	}
	if string(raw) != b.Data["image/svg+xml"] || string(raw) != v.SVG() {
		t.Error("the static picture differs from the bundle's SVG")
	}
	if cs := circles(t, string(raw)); len(cs) != 120 {
		t.Errorf("%d circles, want 120", len(cs))
	}
	for _, s := range []string{`class="ss-plot"`, `class="ss-zoom"`, `class="ss-edges"`, "small &lt;graph&gt;", "120 nodes · 200 edges · 6 groups"} {
		if !strings.Contains(string(raw), s) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
	m := liveSpecRE.FindStringSubmatch(html)
	if m == nil || !strings.Contains(html, `class="superstep-display"`) {
		t.Fatal("no live drawing call")
	}
	var sp map[string]any
	if err := json.Unmarshal([]byte(m[1]), &sp); err != nil || sp["mode"] != "svg" || sp["n"] != 120.0 {
		t.Errorf("spec %v (%v)", m[1], err)
	}
	// The picture's positions are Positions, inside the plot with its margin.
	x, y := v.Positions()
	w, h := v.PlotSize()
	cs := circles(t, string(raw))
	for i := range x {
		if cs[i]["cx"] != n2(x[i]) || cs[i]["cy"] != n2(y[i]) {
			t.Fatalf("node %d drawn at (%s, %s), Positions (%v, %v)", i, cs[i]["cx"], cs[i]["cy"], x[i], y[i])
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
	if !strings.Contains(b.Text(), `Graph drawing "small <graph>": 120 nodes`) {
		t.Errorf("text %q", b.Text())
	}
}

func TestDrawingBundleLargeIsPNGAndCanvas(t *testing.T) {
	d := randomDrawing(DrawingCanvasNodes, 9000, 5)
	d.Labels = make([]string, len(d.X))
	for i := range d.Labels {
		d.Labels[i] = fmt.Sprintf("n%d", i)
	}
	d.Title = "large"
	v := Drawing(d)
	b := v.MIMEBundle()
	html := b.Data["text/html"].(string)
	typ, raw := staticImg(t, html)
	if typ != "image/png" {
		t.Fatalf("static picture is %s, want PNG", typ)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	w, h := v.PlotSize()
	if r := img.Bounds(); r.Dx() != int(w)*drawingPNGScale || r.Dy() != int(math.Ceil(h))*drawingPNGScale {
		t.Errorf("PNG is %v, plot %v×%v", r, w, h)
	}
	if b.Data["image/png"] != base64.StdEncoding.EncodeToString(raw) {
		t.Error("the bundle's image/png differs from the static picture")
	}
	if _, ok := b.Data["image/svg+xml"]; ok {
		t.Error("a large drawing carries an SVG in its bundle")
	}
	// Every node's pixel has its group's colour (nodes are drawn last; a
	// later node may cover it, so most, not all).
	x, y := v.Positions()
	L := d.layout()
	hits := 0
	for i := range x {
		c := parseHex(L.colorOf(i))
		r, g, bl, _ := img.At(int(x[i]*drawingPNGScale), int(y[i]*drawingPNGScale)).RGBA()
		if uint8(r>>8) == c[0] && uint8(g>>8) == c[1] && uint8(bl>>8) == c[2] {
			hits++
		}
	}
	if hits < len(x)*3/4 {
		t.Errorf("only %d of %d nodes show their colour in the PNG", hits, len(x))
	}
	for _, s := range []string{"large", "5,000 nodes · 9,000 edges · 6 groups", `width="640"`} {
		if !strings.Contains(html, s) {
			t.Errorf("the HTML lacks %q", s)
		}
	}
	// The spec: positions as Float32, ranks, edges and labels.
	m := liveSpecRE.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no live drawing call")
	}
	var sp drawingSpec
	if err := json.Unmarshal([]byte(m[1]), &sp); err != nil {
		t.Fatal(err)
	}
	if sp.Mode != "canvas" || sp.N != len(x) || sp.GB != 1 || sp.EB != 2 || len(sp.Labels) != len(x) || sp.Labels[17] != "n17" {
		t.Fatalf("spec mode %s n %d gb %d eb %d labels %d", sp.Mode, sp.N, sp.GB, sp.EB, len(sp.Labels))
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
		fx := math.Float32frombits(binary.LittleEndian.Uint32(xs[4*i:]))
		fy := math.Float32frombits(binary.LittleEndian.Uint32(ys[4*i:]))
		if fx != float32(x[i]) || fy != float32(y[i]) {
			t.Fatalf("node %d at (%v, %v) in the spec, (%v, %v) in Positions", i, fx, fy, x[i], y[i])
		}
		if sp.Colors[gs[i]] != L.colorOf(i) || sp.GID[gs[i]] != d.Groups[i] {
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

func TestDrawingEmptyAndInvalid(t *testing.T) {
	b := Drawing(DrawingData{}).MIMEBundle()
	typ, raw := staticImg(t, b.Data["text/html"].(string))
	if typ != "image/svg+xml" || !strings.Contains(string(raw), "0 nodes") {
		t.Errorf("empty drawing: %s %q", typ, raw)
	}
	circles(t, string(raw)) // well-formed
	for name, d := range map[string]DrawingData{
		"y":      {X: []float64{1, 2}, Y: []float64{1}},
		"labels": {X: []float64{1}, Y: []float64{1}, Labels: []string{"a", "b"}},
		"groups": {X: []float64{1}, Y: []float64{1}, Groups: []int32{}},
		"nan":    {X: []float64{1, math.NaN()}, Y: []float64{1, 2}},
		"edge":   {X: []float64{1, 2}, Y: []float64{1, 2}, Edges: [][2]int32{{0, 2}}},
	} {
		v := Drawing(d)
		b := v.MIMEBundle()
		if _, ok := b.Data["text/html"]; ok || !strings.HasPrefix(b.Text(), "display.Drawing: ") {
			t.Errorf("%s: bundle %v", name, b.Data)
		}
		if svg := v.SVG(); !strings.Contains(svg, "display.Drawing: ") {
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
		if !strings.Contains(RuntimeJS, s) {
			t.Errorf("the runtime lacks %q", s)
		}
	}
}
