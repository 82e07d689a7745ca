package views

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"superstep/algo/bundle"
)

// handMade is the trace H as timeline data: A = 100 messages
// P0→P3 sent at 1.000 + 0.001·i s, received 0.4 s later; B = 50 messages
// P1→P2 sent at 5.000 + 0.002·i s, received 0.3 s later; D = P2→P1,
// 9.000 → 9.050 s; 1,000 B each.
func handMade() TimelineData {
	d := TimelineData{Title: "H", Lanes: []string{"P0", "P1", "P2", "P3"}, Start: 0, End: 10, Bandwidth: 0.02}
	add := func(from, to int32, send, recv float64) {
		d.From, d.To = append(d.From, from), append(d.To, to)
		d.Send, d.Recv = append(d.Send, send), append(d.Recv, recv)
		d.Bytes = append(d.Bytes, 1000)
	}
	for i := 0; i < 100; i++ {
		add(0, 3, 1+0.001*float64(i), 1.4+0.001*float64(i))
	}
	for i := 0; i < 50; i++ {
		add(1, 2, 5+0.002*float64(i), 5.3+0.002*float64(i))
	}
	add(2, 1, 9, 9.05)
	return d
}

func TestTimelineHandMadeBundles(t *testing.T) {
	v := mustTimeline(t, handMade())
	L, err := v.Layout()
	if err != nil {
		t.Fatal(err)
	}
	b := L.Bundle
	if len(b.ClusterX) != 6 {
		t.Fatalf("%d level-1 clusters, want 6", len(b.ClusterX))
	}
	want := map[int32][]float64{0: {1.0495}, 1: {5.049, 9.050}, 2: {5.349, 9.000}, 3: {1.4495}}
	for c := range b.ClusterX {
		lane := b.ClusterLane[c]
		got := L.Seconds(b.ClusterX[c])
		ok := false
		for _, w := range want[lane] {
			if math.Abs(got-w) <= 1e-9 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("cluster %d on lane %d at %.12f s; want one of %v within 1e-9 s", c, lane, got, want[lane])
		}
	}
	if n := b.NumRoutes(); n != 3 {
		t.Fatalf("%d distinct interior routes, want 3 (A, B, D)", n)
	}
	for i := range L.d.From {
		var first, last bundle.Point
		k := 0
		L.curve(i, func(q bundle.Quad, _, _ float64) {
			if k == 0 {
				first = q.P0
			}
			last = q.P1
			k++
		})
		send := bundle.Point{X: L.X(L.d.Send[i]), Y: L.Y(float64(L.d.From[i]))}
		recv := bundle.Point{X: L.X(L.d.Recv[i]), Y: L.Y(float64(L.d.To[i]))}
		if first != send || last != recv {
			t.Fatalf("curve %d runs %v → %v, want exactly %v → %v", i, first, last, send, recv)
		}
	}
	var all []string
	for r := 0; r < L.NumRoutes(); r++ {
		all = append(all, L.RouteText(r))
	}
	texts := strings.Join(all, "\n")
	for _, w := range []string{
		"100 messages, 100 kB, P0→P3, 1.000–1.499 s",
		"50 messages, 50.0 kB, P1→P2, 5.000–5.398 s",
		"1 message, 1.00 kB, P2→P1, 9.000–9.050 s",
	} {
		if !strings.Contains(texts, w) {
			t.Errorf("no bundle says %q; they say:\n%s", w, texts)
		}
	}
}

func TestTimelineHandMadeHierarchy(t *testing.T) {
	d := handMade()
	d.Routing = "hierarchy"
	L, err := mustTimeline(t, d).Layout()
	if err != nil {
		t.Fatal(err)
	}
	tr := L.Bundle.Tree
	if tr == nil {
		t.Fatal("hierarchy routing without a tree")
	}
	top := len(tr.Parent) - 1
	if n := len(tr.X[len(tr.X)-1]); n != 1 {
		t.Fatalf("the top level has %d nodes, want one root", n)
	}
	_ = top
	for r := 0; r < L.Bundle.NumRoutes(); r++ {
		s, q := L.Bundle.RouteFrom[r], L.Bundle.RouteTo[r]
		levels, nodes := tr.Route(s, q)
		// The highest level on the route is the lowest common ancestor:
		// the first level where the two ancestors agree.
		as, aq := s, q
		lca := 0
		for l := 0; l < len(tr.Parent); l++ {
			if as == aq {
				break
			}
			as, aq = tr.Parent[l][as], tr.Parent[l][aq]
			lca = l + 1
		}
		peak := 0
		for k, l := range levels {
			if l > levels[peak] {
				peak = k
			}
		}
		if levels[peak] != lca || nodes[peak] != as {
			t.Errorf("route %d peaks at level %d node %d; the LCA of clusters %d and %d is level %d node %d", r, levels[peak], nodes[peak], s, q, lca, as)
		}
	}
}

// In additive mode A's mid-route pixel is yellow and brighter than B's,
// which is brighter than D's.
func TestTimelineAdditiveHotPaths(t *testing.T) {
	v := mustTimeline(t, handMade())
	L, err := v.Layout()
	if err != nil {
		t.Fatal(err)
	}
	p := v.pic
	img := p.field.image(p.add, nil)
	mid := func(r int) (uint8, uint8, uint8) {
		in := L.interiorPoints(int32(r))
		q := bundle.InteriorQuads(in)
		var pt bundle.Point
		if len(q) > 0 {
			pt = q[len(q)/2].At(0.5)
		} else {
			pt = bundle.Point{X: (in[0].X + in[1].X) / 2, Y: (in[0].Y + in[1].Y) / 2}
		}
		// The brightest pixel within 1 px of the route's middle.
		var best [3]uint8
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				c := img.RGBAAt(int(pt.X)+dx, int(pt.Y)+dy)
				if int(c.R)+int(c.G) > int(best[0])+int(best[1]) {
					best = [3]uint8{c.R, c.G, c.B}
				}
			}
		}
		return best[0], best[1], best[2]
	}
	route := map[string]int{}
	for r := 0; r < L.NumRoutes(); r++ {
		tx := L.RouteText(r)
		route[strings.SplitN(tx, " ", 2)[0]] = r
	}
	ar, ag, ab := mid(route["100"])
	br, bg, _ := mid(route["50"])
	dr, dg, _ := mid(route["1"])
	if !(math.Abs(float64(ar)-float64(ag)) <= 0.15*float64(ar) && ar > 4*ab && ar > 150) {
		t.Errorf("A's mid-route pixel (%d,%d,%d) is not yellow (R ≈ G ≫ B)", ar, ag, ab)
	}
	if !(int(ar)+int(ag) > int(br)+int(bg) && int(br)+int(bg) > int(dr)+int(dg)) {
		t.Errorf("brightness A (%d,%d) > B (%d,%d) > D (%d,%d) does not hold", ar, ag, br, bg, dr, dg)
	}
	if int(dr)+int(dg) < 40 {
		t.Errorf("D's single message is barely visible: (%d,%d)", dr, dg)
	}
}

// Two processes, 50 messages each way at the same times (sent together,
// received 1 ms later, well within the bandwidth: one cluster per lane,
// one path travelled both ways): additive mixing turns the bundle R ≈ G
// all along (the paper's brown).
func TestTimelineOppositeMixesBrown(t *testing.T) {
	d := TimelineData{Lanes: []string{"P0", "P1"}, Start: 0, End: 2, Bandwidth: 0.02}
	for i := 0; i < 50; i++ {
		s := 0.5 + 0.002*float64(i)
		d.From, d.To, d.Send, d.Recv = append(d.From, 0, 1), append(d.To, 1, 0), append(d.Send, s, s), append(d.Recv, s+0.001, s+0.001)
	}
	L, err := mustTimeline(t, d).Layout()
	if err != nil {
		t.Fatal(err)
	}
	p, err := L.picture(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := p.field
	n, off := 0, 0
	for i := 0; i < f.w*f.h; i++ {
		r, g := f.acc[4*i], f.acc[4*i+1]
		if r+g > 5 { // the bundles, not the faint end fans
			n++
			if math.Abs(float64(r-g)) > 0.1*float64(r+g) {
				off++
			}
		}
	}
	if n == 0 || off > n/50 {
		t.Errorf("%d of %d bright pixels are not R ≈ G", off, n)
	}
}

func TestTimelineRefusesBadData(t *testing.T) {
	for _, tc := range []struct {
		d    TimelineData
		want string
	}{
		{TimelineData{}, "no lanes"},
		{TimelineData{Lanes: []string{"a"}, From: []int32{0}, To: []int32{1}, Send: []float64{0}, Recv: []float64{1}}, "curve 0 runs from lane 0 to lane 1, outside 0..0"},
		{TimelineData{Lanes: []string{"a"}, From: []int32{0}, To: []int32{0}, Send: []float64{math.NaN()}, Recv: []float64{1}}, "curve 0 has times NaN → 1"},
		{TimelineData{Lanes: []string{"a"}, From: []int32{0}, Send: []float64{0}}, "curve columns of different lengths"},
		{TimelineData{Lanes: []string{"a"}, IntervalLane: []int32{0}, IntervalFrom: []float64{2}, IntervalTo: []float64{1}, IntervalClass: []int32{0}, ClassNames: []string{"x"}}, "interval 0 runs 2 → 1"},
		{TimelineData{Lanes: []string{"a"}, Routing: "spiral"}, `routing "spiral"`},
		{TimelineData{Lanes: []string{"a"}, Start: 3, End: 1}, "time range 3–1 s is empty"},
	} {
		v, err := Timeline(context.Background(), tc.d)
		if err == nil || v != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
		if s := (&TimelineView{Data: tc.d}).SVG(); !strings.Contains(s, "views.Timeline") {
			t.Errorf("SVG of a view made without Timeline does not say why: %.100s", s)
		}
	}
}

func mustTimeline(t *testing.T, d TimelineData) *TimelineView {
	t.Helper()
	v, err := Timeline(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A cancelled context stops the bundling and the drawing alike: Timeline
// returns the context's error, not a view.
func TestTimelineStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, err := Timeline(ctx, handMade())
	if !errors.Is(err, context.Canceled) || v != nil {
		t.Fatalf("cancelled: %v, %v", v, err)
	}
	d := handMade()
	d.Routing = "straight"
	if v, err := Timeline(ctx, d); !errors.Is(err, context.Canceled) || v != nil {
		t.Fatalf("cancelled, straight lines: %v, %v", v, err)
	}
}

// manyMessages is a canvas timeline's data: n messages between 6 lanes
// from start on, over span seconds, with bytes, one region class.
func manyMessages(n int, start, span float64, blend string) TimelineData {
	d := TimelineData{Title: "many", Lanes: []string{"a", "b", "c", "d", "e", "f"}, Blend: blend, ClassNames: []string{"work"}}
	for i := 0; i < n; i++ {
		f := float64(i) / float64(n)
		d.From, d.To = append(d.From, int32(i%6)), append(d.To, int32((i+1+i/7)%6))
		d.Send, d.Recv = append(d.Send, start+span*f*0.9), append(d.Recv, start+span*(f*0.9+0.05))
		d.Bytes = append(d.Bytes, float64(1+i%5)*1500)
	}
	for lane := int32(0); lane < 6; lane++ {
		d.IntervalLane, d.IntervalClass = append(d.IntervalLane, lane), append(d.IntervalClass, 0)
		d.IntervalFrom, d.IntervalTo = append(d.IntervalFrom, start+span*0.2), append(d.IntervalTo, start+span*0.6)
	}
	return d
}

// hoverTexts are a canvas timeline spec's hover texts as the runtime
// builds them (timeline.js routeTexts), and its routes' point counts.
func hoverTexts(t *testing.T, sp timelineSpec) (texts []string, points []float64) {
	t.Helper()
	h := sp.hoverSpec
	points = unpack(t, h.Bin, h.RN)
	if h.RText != nil {
		return h.RText, points
	}
	msgs, byt, t0, dur := unpack(t, h.Bin, h.RMsgs), unpack(t, h.Bin, h.RBytes), unpack(t, h.Bin, h.RT0), unpack(t, h.Bin, h.RDur)
	from, to := unpack(t, h.Bin, h.RFrom), unpack(t, h.Bin, h.RTo)
	for r := range msgs {
		texts = append(texts, routeText(int64(msgs[r]), int(byt[r]), sp.LaneNames[int(from[r])], sp.LaneNames[int(to[r])], t0[r], t0[r]+dur[r], h.TDec))
	}
	return texts, points
}

// A canvas timeline's spec holds the curves of the blend the static
// picture does not show (the runtime takes the other from the static
// picture's plot, StaticPlot), and the heaviest routes' hover: their
// interior points and the numbers their text is built from, which say
// exactly RouteText.
func TestTimelineCanvasSpec(t *testing.T) {
	for _, blend := range []string{"additive", "alpha"} {
		v := mustTimeline(t, manyMessages(6000, 10, 80, blend))
		L, _ := v.Layout()
		sp := L.spec(v.pic)
		if sp.Mode != "canvas" {
			t.Fatalf("%s: mode %q, want canvas", blend, sp.Mode)
		}
		if (sp.ImgCurvesAdd == "") != (blend == "additive") || (sp.ImgCurvesAlpha == "") != (blend == "alpha") {
			t.Errorf("%s: the spec's curve layers are add %t, alpha %t; want only the other blend's", blend, sp.ImgCurvesAdd != "", sp.ImgCurvesAlpha != "")
		}
		// The static plot is where render draws the plot: its pixels are
		// the picture of the plot alone.
		img, err := L.render(v.pic, StaticScale)
		if err != nil {
			t.Fatal(err)
		}
		b := v.pic.alpha
		if L.Additive {
			b = v.pic.add
		}
		plot := v.pic.field.image(b, L.ground(1, L.Additive))
		r := sp.StaticPlot
		if r[2] != plot.Rect.Dx() || r[3] != plot.Rect.Dy() {
			t.Fatalf("%s: static plot %v, the plot is %v", blend, r, plot.Rect)
		}
		for y := 0; y < r[3]; y++ {
			for x := 0; x < r[2]; x++ {
				if img.RGBAAt(r[0]+x, r[1]+y) != plot.RGBAAt(x, y) {
					t.Fatalf("%s: static pixel (%d, %d) is not the plot's (%d, %d)", blend, r[0]+x, r[1]+y, x, y)
				}
			}
		}
		texts, points := hoverTexts(t, sp)
		if sp.RText != nil {
			t.Errorf("%s: the spec holds the hover texts, not their numbers", blend)
		}
		heavy := L.heaviest(timelineHoverRoutes)
		if len(texts) != len(heavy) {
			t.Fatalf("%s: %d hover texts for %d routes", blend, len(texts), len(heavy))
		}
		for k, r := range heavy {
			if texts[k] != L.RouteText(int(r)) {
				t.Fatalf("%s: route %d says %q, want %q", blend, r, texts[k], L.RouteText(int(r)))
			}
			if int(points[k]) != len(L.interiors[r]) {
				t.Errorf("%s: route %d has %v points, want %d", blend, r, points[k], len(L.interiors[r]))
			}
		}
	}
}

// Times whose last digit a float64 cannot hold (a microsecond window 10⁸
// s in: nanoseconds past 2⁵³) are sent as Go's hover texts.
func TestTimelineHoverTextFallback(t *testing.T) {
	d := manyMessages(6000, 1e8, 5e-6, "")
	d.Start, d.End = 1e8, 1e8+5e-6
	v := mustTimeline(t, d)
	L, _ := v.Layout()
	sp := L.spec(v.pic)
	texts, _ := hoverTexts(t, sp)
	if sp.RText == nil {
		t.Fatal("no hover texts in the spec")
	}
	if want := L.RouteText(int(L.heaviest(1)[0])); texts[0] != want || !strings.Contains(want, "100000000.000000") {
		t.Errorf("the heaviest route says %q, want %q", texts[0], want)
	}
}

func TestBytesCode(t *testing.T) {
	for _, c := range []struct {
		s    string
		code int
	}{{"0 B", 1}, {"999 B", 1 + 999*32}, {"1.00 kB", 1 + 100*32 + 2*8 + 1}, {"47.1 MB", 1 + 471*32 + 8 + 2}, {"688 kB", 1 + 688*32 + 1}, {"5 EB", 1 + 5*32 + 6},
		{"-5.70 MB", -1}, {"12 XB", -1}, {"1.234 kB", -1}} {
		if got := bytesCode(c.s); got != c.code {
			t.Errorf("bytesCode(%q) = %d, want %d", c.s, got, c.code)
		}
		if c.code > 0 {
			if got := routeText(2, c.code, "a", "b", 5, 15, 1); got != "2 messages, "+c.s+", a→b, 0.5–1.5 s" {
				t.Errorf("routeText of %q: %q", c.s, got)
			}
		}
	}
	for _, c := range []struct {
		v   float64
		dec int
		s   string
	}{{-150, 2, "-1.50"}, {5, 3, "0.005"}, {0, 3, "0.000"}, {1234, 0, "1234"}} {
		if got := pointed(c.v, c.dec); got != c.s {
			t.Errorf("pointed(%v, %d) = %q, want %q", c.v, c.dec, got, c.s)
		}
	}
}
