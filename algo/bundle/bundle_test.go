package bundle_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"superstep/algo/bundle"
)

// traceH is issue 14's trace H: A, 100 messages lane 0 → lane 3 sent at
// 1.000+0.001i, received at 1.400+0.001i; B, 50 messages lane 1 → lane 2
// at 5.000+0.002i → 5.300+0.002i; D, one message lane 2 (9.000) → lane 1
// (9.050).
func traceH() *bundle.Edges {
	e := &bundle.Edges{}
	add := func(f, t int32, fx, tx float64) {
		e.FromLane = append(e.FromLane, f)
		e.ToLane = append(e.ToLane, t)
		e.FromX = append(e.FromX, fx)
		e.ToX = append(e.ToX, tx)
	}
	for i := 0; i < 100; i++ {
		add(0, 3, 1.000+0.001*float64(i), 1.400+0.001*float64(i))
	}
	for i := 0; i < 50; i++ {
		add(1, 2, 5.000+0.002*float64(i), 5.300+0.002*float64(i))
	}
	add(2, 1, 9.000, 9.050)
	return e
}

func near(a, b bundle.Point) bool {
	return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9
}

func TestGridRoute(t *testing.T) {
	type C = bundle.Cell
	cases := []struct {
		a, b C
		want []C
	}{
		{C{0, 0}, C{3, 1}, []C{{0, 0}, {1, 1}, {2, 1}, {3, 1}}},
		{C{5, 5}, C{2, 7}, []C{{5, 5}, {4, 6}, {3, 7}, {2, 7}}},
		{C{2, 3}, C{2, 3}, []C{{2, 3}}},
		{C{0, 4}, C{0, 0}, []C{{0, 4}, {0, 3}, {0, 2}, {0, 1}, {0, 0}}},
		{C{4, 0}, C{0, 4}, []C{{4, 0}, {3, 1}, {2, 2}, {1, 3}, {0, 4}}},
		{C{-1, 2}, C{3, 0}, []C{{-1, 2}, {0, 1}, {1, 0}, {2, 0}, {3, 0}}},
	}
	for _, c := range cases {
		got := bundle.GridRoute(c.a, c.b)
		if !slices.Equal(got, c.want) {
			t.Errorf("GridRoute(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if !slices.Equal(bundle.GridRoute(c.a, c.b), got) {
			t.Errorf("GridRoute(%v, %v) not deterministic", c.a, c.b)
		}
	}
	// Shortest 8-connected path: Chebyshev distance + 1 cells, unit steps.
	for ac := -3; ac <= 3; ac++ {
		for ar := -3; ar <= 3; ar++ {
			a, b := C{0, 0}, C{ac, ar}
			r := bundle.GridRoute(a, b)
			if len(r) != max(abs(ac), abs(ar))+1 || r[0] != a || r[len(r)-1] != b {
				t.Fatalf("route %v → %v = %v", a, b, r)
			}
			for i := 1; i < len(r); i++ {
				if abs(r[i].Col-r[i-1].Col) > 1 || abs(r[i].Row-r[i-1].Row) > 1 {
					t.Fatalf("route %v → %v jumps: %v", a, b, r)
				}
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestColumnRoute is Done-when 6 (8×8 grid).
func TestColumnRoute(t *testing.T) {
	type C = bundle.Cell
	cases := []struct {
		a, b int
		want []C
	}{
		{0, 7, []C{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}}},
		{2, 3, []C{{0, 2}, {1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 3}}},
		{5, 1, []C{{0, 5}, {1, 4}, {2, 3}, {3, 2}, {4, 1}, {5, 1}, {6, 1}, {7, 1}}},
		{4, 4, []C{{0, 4}, {1, 4}, {2, 4}, {3, 4}, {4, 4}, {5, 4}, {6, 4}, {7, 4}}},
	}
	for _, c := range cases {
		got, err := bundle.ColumnRoute(8, c.a, c.b)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ColumnRoute(8, %d, %d) = %v %v, want %v", c.a, c.b, got, err, c.want)
		}
	}
	// Too far for 3 columns: as close as it gets.
	got, _ := bundle.ColumnRoute(3, 0, 7)
	if !slices.Equal(got, []C{{0, 0}, {1, 1}, {2, 2}}) {
		t.Errorf("ColumnRoute(3, 0, 7) = %v", got)
	}
	if _, err := bundle.ColumnRoute(0, 0, 1); err == nil {
		t.Error("0 columns: no error")
	}
}

// TestSenderReceiver: 16 units on 8×8, two units per row.
func TestSenderReceiver(t *testing.T) {
	src := []int32{0, 1, 5, 10, 11, 4}
	dst := []int32{15, 14, 7, 3, 2, 6}
	w := []float64{1, 2, 3, 4, 5, 6}
	sr, err := bundle.NewSenderReceiver(16, 8, 8, src, dst, w)
	if err != nil {
		t.Fatal(err)
	}
	// Rows: 0→7 (edges 0, 1), 2→3 (edges 2, 5), 5→1 (edges 3, 4).
	if !slices.Equal(sr.FromRow, []int32{0, 2, 5}) || !slices.Equal(sr.ToRow, []int32{7, 3, 1}) {
		t.Fatalf("routes %v → %v", sr.FromRow, sr.ToRow)
	}
	if !slices.Equal(sr.Weight, []float64{3, 9, 9}) || !slices.Equal(sr.EdgeRoute, []int32{0, 0, 1, 2, 2, 1}) {
		t.Errorf("weights %v, edge routes %v", sr.Weight, sr.EdgeRoute)
	}
	want5to1 := []bundle.Cell{{0, 5}, {1, 4}, {2, 3}, {3, 2}, {4, 1}, {5, 1}, {6, 1}, {7, 1}}
	if !slices.Equal(sr.RouteCells(2), want5to1) {
		t.Errorf("route 2 cells %v", sr.RouteCells(2))
	}
	// Unit 10 (row 5) → unit 3 (row 1): (0, 10), cell centres
	// ((c+½)/8, middle of the row's two units), (1, 3).
	p := sr.Polygon(10, 3)
	want := []bundle.Point{{0, 10}}
	for _, c := range want5to1 {
		want = append(want, bundle.Point{X: (float64(c.Col) + 0.5) / 8, Y: float64(2*c.Row) + 0.5})
	}
	want = append(want, bundle.Point{X: 1, Y: 3})
	if !slices.Equal(p, want) {
		t.Errorf("polygon %v, want %v", p, want)
	}
	// 10 units on 4 rows: rows hold {0,1,2} {3,4} {5,6,7} {8,9}.
	sr, _ = bundle.NewSenderReceiver(10, 4, 4, nil, nil, nil)
	for u, r := range []int32{0, 0, 0, 1, 1, 2, 2, 2, 3, 3} {
		if sr.Row(int32(u)) != r {
			t.Errorf("unit %d row %d, want %d", u, sr.Row(int32(u)), r)
		}
	}
	for r, y := range []float64{1, 3.5, 6, 8.5} {
		if c := sr.CellCentre(bundle.Cell{Col: 0, Row: r}); c.Y != y {
			t.Errorf("row %d centre y %v, want %v", r, c.Y, y)
		}
	}
	if _, err := bundle.NewSenderReceiver(16, 8, 8, []int32{16}, []int32{0}, nil); err == nil {
		t.Error("unit out of range: no error")
	}
}

// TestTraceHGrid is Done-when 1/2 for the grid: 6 clusters, exactly 3
// distinct interior routes, and the hand-computed cells (cell width
// 4·0.02 = 0.08, one lane per row).
func TestTraceHGrid(t *testing.T) {
	e := traceH()
	b, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	wantX := []float64{1.0495, 5.049, 9.050, 5.349, 9.000, 1.4495}
	wantLane := []int32{0, 1, 1, 2, 2, 3}
	if len(b.ClusterX) != 6 {
		t.Fatalf("%d clusters %v, want 6", len(b.ClusterX), b.ClusterX)
	}
	for c := range wantX {
		if math.Abs(b.ClusterX[c]-wantX[c]) > 1e-9 || b.ClusterLane[c] != wantLane[c] {
			t.Errorf("cluster %d at (%v, %d), want (%v, %d)", c, b.ClusterX[c], b.ClusterLane[c], wantX[c], wantLane[c])
		}
	}
	if b.NumRoutes() != 3 || !slices.Equal(b.RouteWeight, []float64{100, 50, 1}) {
		t.Fatalf("%d routes, weights %v; want 3 of 100, 50, 1", b.NumRoutes(), b.RouteWeight)
	}
	for i := range e.FromLane {
		want := int32(0)
		if i >= 100 {
			want = 1
		}
		if i == 150 {
			want = 2
		}
		if b.EdgeRoute[i] != want {
			t.Fatalf("edge %d route %d, want %d", i, b.EdgeRoute[i], want)
		}
	}
	type C = bundle.Cell
	wantCells := [][]C{
		{{13, 0}, {14, 1}, {15, 2}, {16, 3}, {17, 3}, {18, 3}},
		{{63, 1}, {64, 2}, {65, 2}, {66, 2}},
		{{112, 2}, {113, 1}},
	}
	for r, w := range wantCells {
		if !slices.Equal(b.RouteCells(r), w) {
			t.Errorf("route %d cells %v, want %v", r, b.RouteCells(r), w)
		}
	}
	// Route 0's interior: level-1 centre, cell centres, level-1 centre.
	want := []bundle.Point{{1.0495, 0}, {1.08, 0}, {1.16, 1}, {1.24, 2}, {1.32, 3}, {1.40, 3}, {1.48, 3}, {1.4495, 3}}
	in := b.Interior(0)
	if len(in) != len(want) {
		t.Fatalf("interior %v, want %v", in, want)
	}
	for i := range want {
		if !near(in[i], want[i]) {
			t.Errorf("interior[%d] = %v, want %v", i, in[i], want[i])
		}
	}
	// Edge 7's polygon: its send point, the interior, its receive point.
	p := b.Polygon(e, 7)
	if p[0] != (bundle.Point{X: e.FromX[7], Y: 0}) || p[len(p)-1] != (bundle.Point{X: e.ToX[7], Y: 3}) || len(p) != len(want)+2 {
		t.Errorf("polygon of edge 7: %v", p)
	}
	// Same input, same bundle.
	b2, _ := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02})
	if !slices.Equal(b2.Points, b.Points) || !slices.Equal(b2.EdgeRoute, b.EdgeRoute) {
		t.Error("not deterministic")
	}
}

// TestTraceHHierarchy: one root; every route starts at the send cluster,
// climbs to the LCA of its two level-1 clusters (found here from the
// parent arrays) and descends to the receive cluster.
func TestTraceHHierarchy(t *testing.T) {
	e := traceH()
	for _, levels := range []int{2, 3, 4} {
		b, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, Routing: bundle.Hierarchy, Levels: levels})
		if err != nil {
			t.Fatal(err)
		}
		tr := b.Tree
		if len(tr.X) != levels || len(tr.X[levels-1]) != 1 {
			t.Fatalf("levels %d: top level has %d nodes", levels, len(tr.X[len(tr.X)-1]))
		}
		if b.NumRoutes() != 3 {
			t.Errorf("levels %d: %d routes, want 3", levels, b.NumRoutes())
		}
		for r := 0; r < b.NumRoutes(); r++ {
			s, d := b.RouteFrom[r], b.RouteTo[r]
			// Ancestor chains.
			as, ad := []int32{s}, []int32{d}
			for k := 0; k < levels-1; k++ {
				as = append(as, tr.Parent[k][as[k]])
				ad = append(ad, tr.Parent[k][ad[k]])
			}
			lca := 0
			for as[lca] != ad[lca] {
				lca++
			}
			lv, nodes := tr.Route(s, d)
			if len(nodes) != 2*lca+1 || lv[lca] != lca || nodes[lca] != as[lca] {
				t.Errorf("levels %d route %d: %v %v misses LCA level %d node %d", levels, r, lv, nodes, lca, as[lca])
			}
			for k := 0; k < lca; k++ {
				if nodes[k] != as[k] || nodes[len(nodes)-1-k] != ad[k] || lv[k] != k {
					t.Errorf("levels %d route %d: %v %v", levels, r, lv, nodes)
				}
			}
			in := b.Interior(r)
			if len(in) != len(nodes) || in[0] != b.ClusterPoint(s) || in[len(in)-1] != b.ClusterPoint(d) {
				t.Errorf("levels %d route %d interior %v", levels, r, in)
			}
		}
		if levels == 2 {
			// Level 2 is the root: the weighted mean of the six centres.
			var sx, sy float64
			for c := range b.ClusterX {
				sx += b.ClusterWeight[c] * b.ClusterX[c]
				sy += b.ClusterWeight[c] * float64(b.ClusterLane[c])
			}
			if root := tr.Root(); !near(root, bundle.Point{X: sx / 302, Y: sy / 302}) {
				t.Errorf("root %v", root)
			}
		}
	}
}

// TestBeta: β straightening moves each inner route point to
// β·P_i + (1−β)·(P_0 + i/(N−1)·(P_{N−1} − P_0)).
func TestBeta(t *testing.T) {
	e := traceH()
	b1, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, Routing: bundle.Hierarchy})
	if err != nil {
		t.Fatal(err)
	}
	b2, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, Routing: bundle.Hierarchy, Beta: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < b1.NumRoutes(); r++ {
		p, q := b1.Interior(r), b2.Interior(r)
		n := len(p)
		for i := range p {
			f := float64(i) / float64(n-1)
			want := bundle.Point{
				X: 0.25*p[i].X + 0.75*(p[0].X+f*(p[n-1].X-p[0].X)),
				Y: 0.25*p[i].Y + 0.75*(p[0].Y+f*(p[n-1].Y-p[0].Y)),
			}
			if !near(q[i], want) {
				t.Errorf("route %d point %d: %v, want %v", r, i, q[i], want)
			}
		}
	}
}

// TestSplineEnds: for every edge of trace H, every degree and both
// routings, the sampled spline and the quadratic chain start exactly at
// the send point and end exactly at the receive point, and the split
// (end pieces + interior pieces) equals the chain of the whole polygon.
func TestSplineEnds(t *testing.T) {
	e := traceH()
	for _, rt := range []bundle.Routing{bundle.Grid, bundle.Hierarchy} {
		b, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, Routing: rt})
		if err != nil {
			t.Fatal(err)
		}
		for i := range e.FromLane {
			poly := b.Polygon(e, i)
			s, r := poly[0], poly[len(poly)-1]
			for deg := 1; deg <= 5; deg++ {
				pts, err := bundle.SampleBSpline(poly, deg, 17)
				if err != nil {
					t.Fatal(err)
				}
				if pts[0] != s || pts[16] != r {
					t.Fatalf("edge %d degree %d: ends %v %v, want %v %v", i, deg, pts[0], pts[16], s, r)
				}
			}
			qs, err := bundle.QuadChain(poly)
			if err != nil {
				t.Fatal(err)
			}
			if qs[0].P0 != s || qs[len(qs)-1].P1 != r {
				t.Fatalf("edge %d: chain ends %v %v", i, qs[0].P0, qs[len(qs)-1].P1)
			}
			in := b.Interior(int(b.EdgeRoute[i]))
			head, tail, err := bundle.EndQuads(s, in, r)
			if err != nil {
				t.Fatal(err)
			}
			split := append(append([]bundle.Quad{head}, bundle.InteriorQuads(in)...), tail)
			if !slices.Equal(split, qs) {
				t.Fatalf("edge %d: split %v, chain %v", i, split, qs)
			}
		}
	}
}

// TestQuadChainMatchesDeBoor: the quadratic chain evaluated at piece i,
// local t, equals de Boor at global parameter i + t, and a three-point
// polygon (0,0) (1,1) (2,0) has its middle at (1, ½).
func TestQuadChainMatchesDeBoor(t *testing.T) {
	poly := []bundle.Point{{0, 0}, {1, 3}, {4, 2}, {5, -1}, {7, 0}, {8, 4}}
	qs, _ := bundle.QuadChain(poly)
	if len(qs) != 4 {
		t.Fatalf("%d pieces, want 4", len(qs))
	}
	const k = 41 // parameter range 0…4 in steps of 0.1
	pts, _ := bundle.SampleBSpline(poly, 2, k)
	for s := 0; s < k; s++ {
		u := 4 * float64(s) / float64(k-1)
		piece := min(int(u), 3)
		if q := qs[piece].At(u - float64(piece)); math.Abs(q.X-pts[s].X) > 1e-12 || math.Abs(q.Y-pts[s].Y) > 1e-12 {
			t.Errorf("u = %v: chain %v, de Boor %v", u, q, pts[s])
		}
	}
	pts, _ = bundle.SampleBSpline([]bundle.Point{{0, 0}, {1, 1}, {2, 0}}, 2, 3)
	if pts[1] != (bundle.Point{X: 1, Y: 0.5}) {
		t.Errorf("middle %v, want (1, 0.5)", pts[1])
	}
	// Degree 1 is the polygon; degree 5 on 3 points is clamped to 2.
	pts, _ = bundle.SampleBSpline([]bundle.Point{{0, 0}, {2, 2}, {4, 0}}, 1, 5)
	if !slices.Equal(pts, []bundle.Point{{0, 0}, {1, 1}, {2, 2}, {3, 1}, {4, 0}}) {
		t.Errorf("degree 1: %v", pts)
	}
	pts, _ = bundle.SampleBSpline([]bundle.Point{{0, 0}, {1, 1}, {2, 0}}, 5, 3)
	if pts[1] != (bundle.Point{X: 1, Y: 0.5}) {
		t.Errorf("degree 5 clamped: middle %v", pts[1])
	}
	if _, err := bundle.SampleBSpline(poly, 6, 3); err == nil {
		t.Error("degree 6: no error")
	}
	if _, err := bundle.QuadChain(poly[:1]); err == nil {
		t.Error("one point: no error")
	}
}

// TestOvershoot by hand. (0,0) (−1,1) (2,0): x(t) = −2t + 4t², minimum
// −¼ at t = ¼, so 0.25 left of [0, 2]; the polygon itself reaches −1.
// (0,0) (−2,0) (4,0) (2,0): pieces x = −4t + 5t² (min −0.8 at t = 0.4)
// and x = 1 + 6t − 5t² (max 2.8 at t = 0.6): 0.8 + 0.8.
func TestOvershoot(t *testing.T) {
	cases := []struct {
		poly []bundle.Point
		deg  int
		want float64
	}{
		{[]bundle.Point{{0, 0}, {-1, 1}, {2, 0}}, 2, 0.25},
		{[]bundle.Point{{0, 0}, {-1, 1}, {2, 0}}, 1, 1},
		{[]bundle.Point{{0, 0}, {-2, 0}, {4, 0}, {2, 0}}, 2, 1.6},
		{[]bundle.Point{{0, 0}, {1, 5}, {2, 0}}, 2, 0},
		{[]bundle.Point{{2, 0}, {1, 5}, {0, 0}}, 2, 0}, // receive before send
	}
	for _, c := range cases {
		got, err := bundle.Overshoot(c.poly, c.deg)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Overshoot(%v, %d) = %v %v, want %v", c.poly, c.deg, got, err, c.want)
		}
	}
	// Degree 3 (sampled) on a symmetric polygon: the cubic's extremes are
	// within the sampled bound, and positive.
	got, _ := bundle.Overshoot([]bundle.Point{{0, 0}, {-2, 0}, {4, 0}, {2, 0}}, 3)
	// One cubic Bézier, x(t) = −6t(1−t)² + 12t²(1−t) + 2t³, symmetric
	// about x = 1: equal left and right excess.
	if math.Abs(got-2*cubicExcess()) > 1e-3 {
		t.Errorf("degree 3 overshoot %v, want ≈ %v", got, 2*cubicExcess())
	}
}

// cubicExcess is −min x(t) of x(t) = −6t(1−t)² + 12t²(1−t) + 2t³ on
// [0, 1], by a fine scan (independent of the package).
func cubicExcess() float64 {
	m := 0.0
	for i := 0; i <= 1e6; i++ {
		t := float64(i) / 1e6
		x := -6*t*(1-t)*(1-t) + 12*t*t*(1-t) + 2*t*t*t
		m = math.Min(m, x)
	}
	return -m
}

// TestMeanOvershoot: the route-based mean equals the mean of per-edge
// Overshoot of full polygons.
func TestMeanOvershoot(t *testing.T) {
	e := traceH()
	for _, deg := range []int{2, 3} {
		b, err := bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, Degree: deg})
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.MeanOvershoot(e)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := range e.FromLane {
			o, _ := bundle.Overshoot(b.Polygon(e, i), deg)
			sum += o
		}
		if want := sum / float64(len(e.FromLane)); math.Abs(got-want) > 1e-12 {
			t.Errorf("degree %d: mean %v, want %v", deg, got, want)
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	e := traceH()
	bad := []bundle.Options{{Bandwidth: -1}, {Levels: 1}, {Degree: 6}, {Beta: 2}, {Routing: 7}, {Lanes: 2}, {CellHeight: -1}}
	for _, o := range bad {
		if _, err := bundle.New(ctx, e, o); err == nil {
			t.Errorf("options %+v: no error", o)
		}
	}
	short := &bundle.Edges{FromLane: []int32{0}, ToLane: []int32{1}, FromX: []float64{0}}
	if _, err := bundle.New(ctx, short, bundle.Options{}); err == nil {
		t.Error("short column: no error")
	}
	neg := &bundle.Edges{FromLane: []int32{-1}, ToLane: []int32{1}, FromX: []float64{0}, ToX: []float64{1}}
	if _, err := bundle.New(ctx, neg, bundle.Options{}); err == nil {
		t.Error("negative lane: no error")
	}
	nan := &bundle.Edges{FromLane: []int32{0}, ToLane: []int32{1}, FromX: []float64{math.NaN()}, ToX: []float64{1}}
	if _, err := bundle.New(ctx, nan, bundle.Options{}); err == nil {
		t.Error("NaN x: no error")
	}
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := bundle.New(c, synth(20000, 16, 1), bundle.Options{}); err == nil {
		t.Error("cancelled: no error")
	}
	// Empty input is fine.
	b, err := bundle.New(ctx, &bundle.Edges{}, bundle.Options{})
	if err != nil || b.NumRoutes() != 0 {
		t.Errorf("empty: %v %v", b, err)
	}
}

// ExampleColumnRoute prints the sender/receiver route from row 5 to row 1
// on an 8×8 grid: four diagonal steps up, then straight.
func ExampleColumnRoute() {
	r, _ := bundle.ColumnRoute(8, 5, 1)
	fmt.Println(r)
	// Output: [{0 5} {1 4} {2 3} {3 2} {4 1} {5 1} {6 1} {7 1}]
}

// TestDefaultsAndRows: the zero Options resolve as documented, and two
// lanes per row group lanes {0,1} and {2,3} with row centres y = 0.5 and
// 2.5.
func TestDefaultsAndRows(t *testing.T) {
	e := traceH()
	b, err := bundle.New(context.Background(), e, bundle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := b.Opts
	bw := (9.050 - 1.000) / 200
	if math.Abs(o.Bandwidth-bw) > 1e-15 || o.CellWidth != 4*o.Bandwidth || o.CellHeight != 1 || o.Degree != 2 ||
		o.Levels != 3 || o.Beta != 1 || o.Growth != 4 || o.Lanes != 4 || o.Routing != bundle.Grid {
		t.Errorf("resolved options %+v", o)
	}
	b, err = bundle.New(context.Background(), e, bundle.Options{Bandwidth: 0.02, CellHeight: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []bundle.Cell{{13, 0}, {14, 1}, {15, 1}, {16, 1}, {17, 1}, {18, 1}}
	if !slices.Equal(b.RouteCells(0), want) {
		t.Errorf("route 0 cells %v, want %v", b.RouteCells(0), want)
	}
	in := b.Interior(0)
	if !near(in[1], bundle.Point{X: 1.08, Y: 0.5}) || !near(in[2], bundle.Point{X: 1.16, Y: 2.5}) {
		t.Errorf("interior %v", in)
	}
}

// ExampleQuadChain: the quadratic B-spline of (0,0) (2,2) (4,0) (6,2) is
// two Béziers joined at the midpoint (3,1) of the inner edge.
func ExampleQuadChain() {
	qs, _ := bundle.QuadChain([]bundle.Point{{X: 0, Y: 0}, {X: 2, Y: 2}, {X: 4, Y: 0}, {X: 6, Y: 2}})
	for _, q := range qs {
		fmt.Printf("M %v,%v Q %v,%v %v,%v\n", q.P0.X, q.P0.Y, q.C.X, q.C.Y, q.P1.X, q.P1.Y)
	}
	// Output:
	// M 0,0 Q 2,2 3,1
	// M 3,1 Q 4,0 6,2
}
