package views

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"superstep/display"
)

const eps = 1e-9

// sampleChord is 6 units on 3 groups (hosts) on 2 outer groups (racks),
// with random traffic in 4 frames; frame 3 has no traffic between units.
func sampleChord(seed int64) ChordData {
	rng := rand.New(rand.NewSource(seed))
	d := ChordData{
		Rings: []Ring{
			{Name: "host", Groups: []RingGroup{{ID: "h0", First: 0, Last: 1}, {ID: "h1", First: 2, Last: 3}, {ID: "h2", First: 4, Last: 5}}},
			{Name: "rack", Groups: []RingGroup{{ID: "r0", First: 0, Last: 3}, {ID: "r1", First: 4, Last: 5}}},
		},
	}
	for i := 0; i < 6; i++ {
		d.Units = append(d.Units, Unit{ID: fmt.Sprintf("w%d", i), Name: fmt.Sprintf("w%d", i)})
	}
	for f := 0; f < 4; f++ {
		w := make([][]float64, 6)
		for s := range w {
			w[s] = make([]float64, 6)
			for t := range w[s] {
				if f == 3 && s != t {
					continue
				}
				if rng.Float64() < 0.8 {
					w[s][t] = math.Round(rng.Float64() * 1000)
				}
			}
		}
		w[2][2] = 0
		if f == 1 {
			w[4][4] = 5000 // the largest self traffic
		}
		d.Frames = append(d.Frames, ChordFrame{Label: fmt.Sprint(f + 1), Weight: w})
	}
	return d
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-7 }

func inside(inner, outer Interval) bool {
	return inner.Start >= outer.Start-eps && inner.End <= outer.End+eps
}

// cw is the clockwise angle from a to b in [0, 2π).
func cw(a, b float64) float64 {
	x := math.Mod(b-a, 2*math.Pi)
	if x < 0 {
		x += 2 * math.Pi
	}
	return x
}

// crosses reports whether the chords (a1, b1) and (a2, b2) cross: exactly
// one end of the second lies strictly on the clockwise arc from a1 to b1.
func crosses(a1, b1, a2, b2 float64) bool {
	in := func(x float64) bool { return cw(a1, x) > eps && cw(a1, x) < cw(a1, b1)-eps }
	return in(a2) != in(b2)
}

func TestChordLayoutArcs(t *testing.T) {
	d := sampleChord(1)
	for f := range d.Frames {
		g := ChordLayout(d, f)
		n := len(d.Units)
		if len(g.Arcs) != n || len(g.Gaps) != n {
			t.Fatalf("frame %d: %d arcs, %d gaps for %d units", f, len(g.Arcs), len(g.Gaps), n)
		}
		total := 0.0
		for u, a := range g.Arcs {
			// In first, then out, clockwise, contiguous.
			if !(a.In.Start <= a.In.End+eps && near(a.In.End, a.Out.Start) && a.Out.Start <= a.Out.End+eps) {
				t.Errorf("frame %d unit %d: in %v then out %v", f, u, a.In, a.Out)
			}
			// Interval angles are proportional to the totals.
			var in, out float64
			for s := 0; s < n; s++ {
				if s != u {
					in += d.weight(f, s, u)
					out += d.weight(f, u, s)
				}
			}
			if !near(a.InTotal, in) || !near(a.OutTotal, out) || !near(a.Self, d.weight(f, u, u)) {
				t.Errorf("frame %d unit %d: totals %v/%v/%v, want %v/%v", f, u, a.InTotal, a.OutTotal, a.Self, in, out)
			}
			if g.Scale > 0 && (!near(a.In.Len(), g.Scale*in) || !near(a.Out.Len(), g.Scale*out)) {
				t.Errorf("frame %d unit %d: in %.6f out %.6f rad for %v/%v at scale %v", f, u, a.In.Len(), a.Out.Len(), in, out, g.Scale)
			}
			// The next unit starts one gap (and the spare angle of a
			// frame lighter than the busiest) after this one ends.
			if u+1 < n && !near(a.Out.End+g.Gaps[u]+g.Spare, g.Arcs[u+1].In.Start) {
				t.Errorf("frame %d: unit %d ends at %v, gap %v, next starts at %v", f, u, a.Out.End, g.Gaps[u], g.Arcs[u+1].In.Start)
			}
			total += a.In.Len() + a.Out.Len() + g.Gaps[u] + g.Spare
		}
		if !near(total, 2*math.Pi) {
			t.Errorf("frame %d: arcs and gaps take %v rad, want 2π", f, total)
		}
		// The wrap-around gap is centred at 12 o'clock.
		if !near(g.Arcs[0].In.Start, (g.Gaps[n-1]+g.Spare)/2) || !near(g.Arcs[n-1].Out.End+(g.Gaps[n-1]+g.Spare)/2, 2*math.Pi) {
			t.Errorf("frame %d: circle starts at %v and ends at %v", f, g.Arcs[0].In.Start, g.Arcs[n-1].Out.End)
		}
	}
}

func TestChordLayoutRibbons(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		d := sampleChord(seed)
		for f := range d.Frames {
			g := ChordLayout(d, f)
			n := len(d.Units)
			want := 0
			for s := 0; s < n; s++ {
				for u := 0; u < n; u++ {
					if s != u && d.weight(f, s, u) > 0 {
						want++
					}
				}
			}
			if len(g.Ribbons) != want {
				t.Fatalf("seed %d frame %d: %d ribbons, want %d (one per pair with traffic)", seed, f, len(g.Ribbons), want)
			}
			outUsed := make([]float64, n)
			inUsed := make([]float64, n)
			for _, r := range g.Ribbons {
				if r.Src == r.Dst || r.Weight != d.weight(f, r.Src, r.Dst) {
					t.Fatalf("ribbon %+v", r)
				}
				// Ends lie in the right intervals and are as wide as the weight.
				if !inside(r.Source, g.Arcs[r.Src].Out) {
					t.Errorf("seed %d frame %d: ribbon %d→%d source %v outside out interval %v", seed, f, r.Src, r.Dst, r.Source, g.Arcs[r.Src].Out)
				}
				if !inside(r.Target, g.Arcs[r.Dst].In) {
					t.Errorf("seed %d frame %d: ribbon %d→%d target %v outside in interval %v", seed, f, r.Src, r.Dst, r.Target, g.Arcs[r.Dst].In)
				}
				if !near(r.Source.Len(), g.Scale*r.Weight) || !near(r.Target.Len(), g.Scale*r.Weight) {
					t.Errorf("ribbon %d→%d: ends %v and %v rad for weight %v", r.Src, r.Dst, r.Source.Len(), r.Target.Len(), r.Weight)
				}
				outUsed[r.Src] += r.Source.Len()
				inUsed[r.Dst] += r.Target.Len()
			}
			// The ribbons fill their intervals exactly, without overlap.
			for u := 0; u < n; u++ {
				if g.Scale > 0 && (!near(outUsed[u], g.Arcs[u].Out.Len()) || !near(inUsed[u], g.Arcs[u].In.Len())) {
					t.Errorf("unit %d: ribbons use %v of out %v and %v of in %v", u, outUsed[u], g.Arcs[u].Out.Len(), inUsed[u], g.Arcs[u].In.Len())
				}
			}
			for i, a := range g.Ribbons {
				for _, b := range g.Ribbons[i+1:] {
					for _, p := range [][2]Interval{{a.Source, b.Source}, {a.Target, b.Target}, {a.Source, b.Target}} {
						if p[0].Start < p[1].End-eps && p[1].Start < p[0].End-eps {
							t.Errorf("ribbon ends overlap: %d→%d %v and %d→%d %v", a.Src, a.Dst, p[0], b.Src, b.Dst, p[1])
						}
					}
					// Ribbons sharing an interval do not cross each other.
					if a.Src == b.Src || a.Dst == b.Dst {
						if crosses(a.Source.Mid(), a.Target.Mid(), b.Source.Mid(), b.Target.Mid()) {
							t.Errorf("seed %d frame %d: ribbons %d→%d and %d→%d cross", seed, f, a.Src, a.Dst, b.Src, b.Dst)
						}
					}
				}
				// A ribbon to the next unit clockwise spans the gap between them.
				if a.Dst == (a.Src+1)%n && (!near(a.Source.End, g.Arcs[a.Src].Out.End) || !near(a.Target.Start, g.Arcs[a.Dst].In.Start)) {
					t.Errorf("ribbon %d→%d to the next unit: source %v (out ends %v), target %v (in starts %v)",
						a.Src, a.Dst, a.Source, g.Arcs[a.Src].Out.End, a.Target, g.Arcs[a.Dst].In.Start)
				}
			}
		}
	}
}

func TestChordLayoutSelfTrafficIsThickness(t *testing.T) {
	d := sampleChord(3)
	for f := range d.Frames {
		g := ChordLayout(d, f)
		for u, a := range g.Arcs {
			want := MinChordThickness + (1-MinChordThickness)*d.weight(f, u, u)/5000
			if !near(a.Thickness, want) {
				t.Errorf("frame %d unit %d: thickness %v for self traffic %v, want %v", f, u, a.Thickness, a.Self, want)
			}
		}
	}
	if g := ChordLayout(d, 1); g.Arcs[4].Thickness != 1 || g.Arcs[2].Thickness != MinChordThickness {
		t.Errorf("largest self traffic: thickness %v; none: %v", g.Arcs[4].Thickness, g.Arcs[2].Thickness)
	}
	// Self traffic takes no angle: changing it moves nothing.
	d2 := sampleChord(3)
	d2.Frames[0].Weight[0][0] *= 3
	a, b := ChordLayout(d, 0), ChordLayout(d2, 0)
	for u := range a.Arcs {
		if a.Arcs[u].In != b.Arcs[u].In || a.Arcs[u].Out != b.Arcs[u].Out {
			t.Fatalf("self traffic moved unit %d: %v → %v", u, a.Arcs[u], b.Arcs[u])
		}
	}
}

func TestChordLayoutGaps(t *testing.T) {
	g := ChordLayout(sampleChord(1), 0)
	// w0|w1 same host; w1|w2 new host, same rack; w3|w4 new host and rack;
	// w5|w0 wraps around: every ring has a boundary there.
	want := []float64{ChordUnitGap, ChordUnitGap + ChordRingGap, ChordUnitGap, ChordUnitGap + 2*ChordRingGap, ChordUnitGap, ChordUnitGap + 2*ChordRingGap}
	for i := range want {
		if !near(g.Gaps[i], want[i]) {
			t.Errorf("gap after unit %d: %v, want %v", i, g.Gaps[i], want[i])
		}
	}
	// Rings span their groups.
	for r, ring := range sampleChord(1).Rings {
		for k, grp := range ring.Groups {
			iv := g.Rings[r][k]
			if iv.Start != g.Arcs[grp.First].In.Start || iv.End != g.Arcs[grp.Last].Out.End {
				t.Errorf("ring %d group %d: %v", r, k, iv)
			}
		}
	}
	// Without rings every gap is the unit gap.
	d := sampleChord(1)
	d.Rings = nil
	for i, x := range ChordLayout(d, 0).Gaps {
		if !near(x, ChordUnitGap) {
			t.Errorf("no rings: gap %d is %v", i, x)
		}
	}
	// Many units: the gaps are capped at 30% of the circle.
	d = ChordData{}
	for i := 0; i < 400; i++ {
		d.Units = append(d.Units, Unit{ID: fmt.Sprint(i)})
	}
	sum := 0.0
	for _, x := range ChordLayout(d, 0).Gaps {
		sum += x
	}
	if sum > 0.3*2*math.Pi+eps {
		t.Errorf("400 units: gaps take %v rad", sum)
	}
}

func TestChordLayoutNoTrafficAndBadInput(t *testing.T) {
	d := sampleChord(1)
	g := ChordLayout(d, 3) // no traffic between units
	if g.Scale != 0 || len(g.Ribbons) != 0 {
		t.Fatalf("no traffic: scale %v, %d ribbons", g.Scale, len(g.Ribbons))
	}
	for u, a := range g.Arcs {
		if !near(a.In.Len(), g.Arcs[0].In.Len()) || !near(a.In.Len(), a.Out.Len()) || a.In.Len() <= 0 {
			t.Errorf("no traffic: unit %d arcs %v %v, want equal halves", u, a.In, a.Out)
		}
	}
	// Ragged, nil, negative and NaN weights count as 0; no panic.
	bad := ChordData{Units: make([]Unit, 3), Frames: []ChordFrame{{Weight: [][]float64{{0, math.NaN(), -4}, {7}, nil}}}}
	g = ChordLayout(bad, 0)
	if len(g.Ribbons) != 1 || g.Ribbons[0].Src != 1 || g.Ribbons[0].Dst != 0 {
		t.Fatalf("bad input: ribbons %+v", g.Ribbons)
	}
	if g := ChordLayout(bad, 5); len(g.Arcs) != 3 || len(g.Ribbons) != 0 {
		t.Fatalf("missing frame: %+v", g)
	}
	if g := ChordLayout(ChordData{}, 0); len(g.Arcs) != 0 {
		t.Fatal("no units")
	}
}

func TestChordLabelsDoNotOverlap(t *testing.T) {
	d := ChordData{}
	for i := 0; i < 60; i++ {
		d.Units = append(d.Units, Unit{ID: fmt.Sprint(i), Name: fmt.Sprintf("worker-%02d", i)})
	}
	w := make([][]float64, 60)
	for s := range w {
		w[s] = make([]float64, 60)
		for t := range w[s] {
			w[s][t] = float64((s*7 + t*3) % 11)
		}
	}
	d.Frames = []ChordFrame{{Weight: w}}
	sp := buildChordSpec(d, 480, 500)
	labels := sp.Frames[0].Labels
	if !strings.Contains(labels, "1") || !strings.Contains(labels, "0") {
		t.Fatalf("60 long labels on a small circle: shown %q (want some, not all)", labels)
	}
	type box struct{ x0, y0, x1, y1 float64 }
	var kept []box
	g := ChordLayout(d, 0)
	for u := range d.Units {
		if labels[u] != '1' {
			continue
		}
		x, y, anchor := chordLabel(float64(sp.Dims.CX), float64(sp.Dims.CY), float64(sp.Dims.LabelR), (g.Arcs[u].In.Start+g.Arcs[u].Out.End)/2)
		wd := textWidth(d.Units[u].Name, fontSize)
		b := box{x, y - fontSize + 1, x + wd, y + 2}
		if anchor == "end" {
			b.x0, b.x1 = x-wd, x
		} else if anchor == "middle" {
			b.x0, b.x1 = x-wd/2, x+wd/2
		}
		for _, k := range kept {
			if b.x0 < k.x1 && k.x0 < b.x1 && b.y0 < k.y1 && k.y0 < b.y1 {
				t.Fatalf("label %d overlaps another", u)
			}
		}
		kept = append(kept, b)
		if b.x0 < 0 || b.x1 > 480 || b.y0 < 0 || b.y1 > 500 {
			t.Errorf("label %d outside the picture: %+v", u, b)
		}
	}
}

// sampleTree is 2 racks of hosts of workers with uneven values.
func sampleTree() TreeNode {
	root := TreeNode{ID: "cluster", Name: "cluster", Value: 12345} // its own value is ignored
	v := 1.0
	for r := 0; r < 2; r++ {
		rack := TreeNode{ID: fmt.Sprintf("r%d", r)}
		for h := 0; h < 3; h++ {
			host := TreeNode{ID: fmt.Sprintf("r%dh%d", r, h)}
			for w := 0; w < 2+h; w++ {
				v = math.Mod(v*7.3+3, 50) + 1
				host.Children = append(host.Children, TreeNode{ID: fmt.Sprintf("r%dh%dw%d", r, h, w), Value: v})
			}
			rack.Children = append(rack.Children, host)
		}
		root.Children = append(root.Children, rack)
	}
	root.Children[1].Children[2].Children = append(root.Children[1].Children[2].Children, TreeNode{ID: "empty", Value: 0})
	return root
}

func TestSquarifiedLayout(t *testing.T) {
	const W, H = 480.0, 320.0
	root := sampleTree()
	tiles := SquarifiedLayout(root, W, H)
	if tiles[0].Parent != -1 || tiles[0].X != 0 || tiles[0].Y != 0 || tiles[0].W != W || tiles[0].H != H {
		t.Fatalf("root tile %+v", tiles[0])
	}
	if !near(tiles[0].Value, treeValue(root)) || tiles[0].Value == 12345 {
		t.Fatalf("root value %v, want the sum of the leaves %v", tiles[0].Value, treeValue(root))
	}
	for _, tl := range tiles {
		if tl.ID == "empty" {
			t.Fatal("a node of value 0 got a tile")
		}
	}
	children := map[int][]int{}
	for i, tl := range tiles {
		if tl.Parent >= i {
			t.Fatalf("tile %d comes before its parent %d", i, tl.Parent)
		}
		if tl.Parent >= 0 {
			children[tl.Parent] = append(children[tl.Parent], i)
		}
		if tl.W <= 0 || tl.H <= 0 {
			t.Errorf("tile %s is empty: %+v", tl.ID, tl)
		}
	}
	for p, kids := range children {
		pt := tiles[p]
		if pt.Leaf {
			t.Fatalf("leaf %s has children", pt.ID)
		}
		pad := math.Min(treemapPad, math.Min(pt.W, pt.H)/10)
		cx0, cy0, cx1, cy1 := pt.X+pad, pt.Y+pt.Header, pt.X+pt.W-pad, pt.Y+pt.H-pad
		content := (cx1 - cx0) * (cy1 - cy0)
		sum := 0.0
		for _, k := range kids {
			c := tiles[k]
			// Inside the parent, below its header band.
			if c.X < cx0-eps || c.Y < cy0-eps || c.X+c.W > cx1+1e-6 || c.Y+c.H > cy1+1e-6 {
				t.Errorf("tile %s %+v outside its parent's content %v,%v–%v,%v", c.ID, c, cx0, cy0, cx1, cy1)
			}
			// Area proportional to value.
			if a, want := c.W*c.H, c.Value/pt.Value*content; math.Abs(a-want) > 1e-6*content {
				t.Errorf("tile %s: area %v, want %v", c.ID, a, want)
			}
			sum += c.W * c.H
		}
		if math.Abs(sum-content) > 1e-6*content {
			t.Errorf("children of %s cover %v of %v", pt.ID, sum, content)
		}
		// Siblings do not overlap.
		for i, a := range kids {
			for _, b := range kids[i+1:] {
				x := math.Min(tiles[a].X+tiles[a].W, tiles[b].X+tiles[b].W) - math.Max(tiles[a].X, tiles[b].X)
				y := math.Min(tiles[a].Y+tiles[a].H, tiles[b].Y+tiles[b].H) - math.Max(tiles[a].Y, tiles[b].Y)
				if x > 1e-6 && y > 1e-6 {
					t.Errorf("tiles %s and %s overlap", tiles[a].ID, tiles[b].ID)
				}
			}
		}
	}
	if tiles[0].Header != treemapHeader {
		t.Errorf("root header %v", tiles[0].Header)
	}
}

func aspect(t Tile) float64 { return math.Max(t.W/t.H, t.H/t.W) }

func TestSquarifiedAspectRatios(t *testing.T) {
	// 16 equal leaves in a square: a 4×4 grid of squares.
	var root TreeNode
	for i := 0; i < 16; i++ {
		root.Children = append(root.Children, TreeNode{ID: fmt.Sprint(i), Value: 1})
	}
	rects := squarify(func() []float64 {
		a := make([]float64, 16)
		for i := range a {
			a[i] = 100 * 100 / 16.0
		}
		return a
	}(), 0, 0, 100, 100)
	for i, r := range rects {
		if ar := math.Max(r[2]/r[3], r[3]/r[2]); ar > 1+1e-9 {
			t.Errorf("equal area %d: aspect ratio %v", i, ar)
		}
	}
	// Through SquarifiedLayout (with its header and padding): near 1.
	for _, tl := range SquarifiedLayout(root, 400, 415) {
		if tl.Depth == 1 && aspect(tl) > 1.1 {
			t.Errorf("equal leaf %s: aspect ratio %v", tl.ID, aspect(tl))
		}
	}
	// The paper's example (6, 6, 4, 3, 2, 2, 1 in 6×4): worst ratio 3, where
	// slicing gives 36 (Bruls et al., figure 2).
	vals := []float64{6, 6, 4, 3, 2, 2, 1}
	worst := 0.0
	for _, r := range squarify(vals, 0, 0, 6, 4) {
		worst = math.Max(worst, math.Max(r[2]/r[3], r[3]/r[2]))
	}
	if worst > 3+1e-9 {
		t.Errorf("Bruls et al.'s example: worst aspect ratio %v, want ≤ 3", worst)
	}
	if tiles := SquarifiedLayout(TreeNode{ID: "none"}, 10, 10); len(tiles) != 1 || !tiles[0].Leaf {
		t.Errorf("empty tree: %+v", tiles)
	}
}

// Machado, Oliveira and Fernandes (2009) full-severity simulation matrices
// for linear RGB.
var cvdSims = map[string][9]float64{
	"protanopia":   {0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998},
	"deuteranopia": {0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881},
	"tritanopia":   {1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900},
	"normal":       {1, 0, 0, 0, 1, 0, 0, 0, 1},
}

// labOf converts "#rrggbb" seen through sim to CIELAB.
func labOf(hex string, sim [9]float64) [3]float64 {
	var c [3]int
	fmt.Sscanf(hex, "#%02x%02x%02x", &c[0], &c[1], &c[2])
	var lin, s [3]float64
	for i := range c {
		v := float64(c[i]) / 255
		if v <= 0.04045 {
			lin[i] = v / 12.92
		} else {
			lin[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	for i := range s {
		s[i] = math.Max(0, math.Min(1, sim[3*i]*lin[0]+sim[3*i+1]*lin[1]+sim[3*i+2]*lin[2]))
	}
	x := (0.4124*s[0] + 0.3576*s[1] + 0.1805*s[2]) / 0.95047
	y := 0.2126*s[0] + 0.7152*s[1] + 0.0722*s[2]
	z := (0.0193*s[0] + 0.1192*s[1] + 0.9505*s[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func deltaE(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func TestPalette(t *testing.T) {
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	if Palette(0) != nil || Palette(-3) != nil {
		t.Error("Palette of no colours")
	}
	for n := 1; n <= 64; n++ {
		p := Palette(n)
		if len(p) != n {
			t.Fatalf("Palette(%d) has %d colours", n, len(p))
		}
		seen := map[string]bool{}
		for _, c := range p {
			if !hex.MatchString(c) || seen[c] {
				t.Fatalf("Palette(%d): bad or repeated colour %q in %v", n, c, p)
			}
			seen[c] = true
		}
		if q := Palette(n); strings.Join(q, "") != strings.Join(p, "") {
			t.Fatalf("Palette(%d) is not deterministic", n)
		}
		if n <= 9 && strings.Join(p, "") != strings.Join(Palette(9)[:n], "") {
			t.Errorf("Palette(%d) is not a prefix of Palette(9)", n)
		}
	}
	// Up to 9 colours stay apart for readers with any common colour-vision
	// deficiency (CIELAB distance of the simulated colours).
	p := Palette(9)
	for name, sim := range cvdSims {
		for i := range p {
			for j := i + 1; j < len(p); j++ {
				if d := deltaE(labOf(p[i], sim), labOf(p[j], sim)); d < 15 {
					t.Errorf("%s: %s and %s are only %.1f apart", name, p[i], p[j], d)
				}
			}
		}
	}
	// Larger palettes stay distinguishable with normal vision.
	p = Palette(24)
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			if d := deltaE(labOf(p[i], cvdSims["normal"]), labOf(p[j], cvdSims["normal"])); d < 8 {
				t.Errorf("Palette(24): %s and %s are only %.1f apart", p[i], p[j], d)
			}
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {12, "12"}, {1234, "1,234"}, {-1234567, "-1,234,567"}, {1234.6, "1,235"}, {0.012345, "0.0123"},
		{4.5678, "4.57"}, {123.456, "123"}, {0.5, "0.5"}, {999.9, "1000"}} {
		if got := display.FormatNumber(c.v); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	if compactNumber(13456) != "13k" || compactNumber(2.5e6) != "2.5M" || compactNumber(0.617) != "0.617" {
		t.Errorf("compactNumber: %s %s %s", compactNumber(13456), compactNumber(2.5e6), compactNumber(0.617))
	}
}

func sampleTrend() TrendData {
	d := TrendData{Title: "heartbeat", Frames: []string{"1", "2", "3", "4"}}
	for u := 0; u < 3; u++ {
		d.Units = append(d.Units, Unit{ID: fmt.Sprint("u", u)})
	}
	m := func(k float64) [][]float64 {
		x := make([][]float64, 3)
		for u := range x {
			x[u] = []float64{k * float64(u+1), 2 * k, 0, k}
		}
		return x
	}
	d.Panels = []TrendPanel{{Title: "time", Out: m(0.5)}, {Title: "messages", Out: m(100), In: m(50)}}
	return d
}

func TestTrendLayout(t *testing.T) {
	sp := buildTrendSpec(sampleTrend(), 640)
	if sp.Panels[1].Max != 450 || sp.Panels[0].Max != 1.5 {
		t.Errorf("panel maxima %v, %v (in stacks on out)", sp.Panels[0].Max, sp.Panels[1].Max)
	}
	if sp.Layout.PerPage != 4 {
		t.Errorf("4 frames fit on one page, per page %d", sp.Layout.PerPage)
	}
	if sp.Units[0].Name != "u0" || sp.Units[2].Color != Palette(3)[2] {
		t.Errorf("defaults: %+v", sp.Units)
	}
	// Panels do not overlap and the axis is below them.
	rows := float64(len(sp.Units)) * float64(sp.Layout.RowHeight)
	for p := 1; p < len(sp.Panels); p++ {
		if float64(sp.Layout.PanelTop[p]) < float64(sp.Layout.PanelTop[p-1])+rows+trendPanelTitleH {
			t.Errorf("panel %d overlaps panel %d", p, p-1)
		}
	}
	if float64(sp.Layout.AxisY) < float64(sp.Layout.PanelTop[1])+rows || sp.Layout.Height < sp.Layout.AxisY {
		t.Errorf("axis at %v, height %v", sp.Layout.AxisY, sp.Layout.Height)
	}
	// Axis labels are thinned so that they do not overlap.
	frames := make([]string, 500)
	for i := range frames {
		frames[i] = fmt.Sprint(i + 1)
	}
	_, step := trendX(sp.Layout, 500, 0)
	k := labelStep(frames, step)
	if float64(k)*step < textWidth("500", smallFont)+6 {
		t.Errorf("every %d-th label of 500 at %.2f px apart overlaps", k, step)
	}
	// Bad values count as 0 and ragged input does not panic.
	d := sampleTrend()
	d.Panels[0].Out[0] = []float64{math.NaN()}
	d.Panels[1].In = [][]float64{{math.Inf(1), -2}}
	buildTrendSpec(d, 300)
	Trend(d).MIMEBundle()
}

// checkBundle checks the display contract of a view's bundle: the
// picture stored once, as a PNG <img> of the picture's size in the
// text/html (no image/svg+xml beside it), the view's SVG well-formed, a
// live call with a JSON spec, and the runtime left to the kernel.
func checkBundle(t *testing.T, name string, v display.Renderer, kind string) {
	t.Helper()
	b := v.MIMEBundle()
	html, _ := b.Data["text/html"].(string)
	if _, ok := b.Data["image/svg+xml"]; ok {
		t.Errorf("%s: the picture is stored twice (image/svg+xml beside the text/html)", name)
	}
	if b.Text() == "" {
		t.Errorf("%s: no text/plain", name)
	}
	if !b.NeedsRuntime || strings.Contains(html, display.RuntimeJS[:200]) {
		t.Errorf("%s: NeedsRuntime %v; the runtime must come from the kernel's Carrier, not each display", name, b.NeedsRuntime)
	}
	typ, raw := staticImg(t, html)
	if typ != "image/png" {
		t.Fatalf("%s: static picture is %s, want image/png (nbconvert --sanitize-html strips SVG data URLs)", name, typ)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: the static picture is not a PNG: %v", name, err)
	}
	if m := regexp.MustCompile(`<img [^>]*width="(\d+)" height="(\d+)"`).FindStringSubmatch(html); m == nil || m[1] != strconv.Itoa(cfg.Width/StaticScale) || m[2] != strconv.Itoa(cfg.Height/StaticScale) {
		t.Errorf("%s: <img> size %v, PNG %d×%d", name, m, cfg.Width, cfg.Height)
	}
	// The SVG (Save, the download menu's source) is well-formed XML.
	f, ok := figureOf(v)
	if !ok {
		t.Fatalf("%s: a %T is not a picture", name, v)
	}
	checkSVG(t, name, f.SVG())
	call := liveCallRE(kind).FindStringSubmatch(html)
	if call == nil {
		t.Fatalf("%s: no live call for kind %q", name, kind)
	}
	if !strings.Contains(html, `id="`+call[2]+`"`) {
		t.Fatalf("%s: the live call names no display", name)
	}
	if strings.Contains(call[1], "</") {
		t.Fatalf("%s: the spec could close the <script>", name)
	}
	specText := unpackSpec(t, call[1])
	var spec map[string]any
	if err := json.Unmarshal([]byte(specText), &spec); err != nil {
		t.Fatalf("%s: the spec is not JSON: %v", name, err)
	}
	// The runtime iterates over every list: none may be null (only a
	// single-series trend panel's "in" is).
	for _, m := range regexp.MustCompile(`"(\w+)":null`).FindAllStringSubmatch(specText, -1) {
		if m[1] != "in" {
			t.Errorf("%s: %q is null in the spec", name, m[1])
		}
	}
}

// unpackSpec returns a live call's spec as JSON, inflated if packed.
func unpackSpec(t *testing.T, spec string) string {
	t.Helper()
	var packed struct{ Deflate string }
	if !strings.HasPrefix(spec, `{"deflate":`) {
		return spec
	}
	if err := json.Unmarshal([]byte(spec), &packed); err != nil {
		t.Fatalf("packed spec: %v", err)
	}
	z, err := base64.StdEncoding.DecodeString(packed.Deflate)
	if err != nil {
		t.Fatalf("packed spec: %v", err)
	}
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatalf("packed spec: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("packed spec: %v", err)
	}
	if len(out) < packedSpecMin {
		t.Errorf("a spec of %d bytes was packed (from %d on)", len(out), packedSpecMin)
	}
	return string(out)
}

func TestPackSpec(t *testing.T) {
	small := `{"a":[1,2,3]}`
	if packSpec(small) != small {
		t.Error("a small spec was packed")
	}
	big := `{"x":[` + strings.Repeat("0.1234,", 2000) + `0]}`
	p := packSpec(big)
	if len(p) > len(big)/4 || unpackSpec(t, p) != big {
		t.Errorf("packed %d bytes into %d, or not back", len(big), len(p))
	}
}

// checkSVG checks that a view's SVG is a well-formed <svg> document.
func checkSVG(t *testing.T, name, svg string) {
	t.Helper()
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") {
		t.Fatalf("%s: not an <svg>: %.80s", name, svg)
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: the SVG is not well-formed: %v", name, err)
		}
	}
}

// liveCallRE matches a live display's call of the runtime (liveCall):
// its spec (1) and id (2).
func liveCallRE(kind string) *regexp.Regexp {
	return regexp.MustCompile(`<script type="` + regexp.QuoteMeta(SpecMIME) + `">([^<]*)</script><script type="text/javascript">\(function\(c\)\{var j=c\.previousElementSibling,a=\["(ss-[0-9a-f]+)","` + regexp.QuoteMeta(kind) + `",JSON\.parse`)
}

func TestViewBundles(t *testing.T) {
	chord := sampleChord(1)
	chord.Selected = 1
	chord.Units[0].Name = "</script><b>"
	trend := sampleTrend()
	tree := sampleTree()
	dash := Dashboard(DashboardData{Title: "job", Stats: []Stat{{Label: "supersteps", Value: "4"}},
		Levels: []DashboardLevel{{Name: "worker", Trend: trend, Chord: chord}, {Name: "host", Trend: trend, Chord: chord}}, Tree: tree})
	checkBundle(t, "trend", Trend(trend), "trend")
	checkBundle(t, "chord", Chord(chord), "chord")
	checkBundle(t, "treemap", Treemap(tree), "treemap")
	checkBundle(t, "dashboard", dash, "dashboard")
	// Empty data still makes a picture.
	checkBundle(t, "empty trend", Trend(TrendData{}), "trend")
	checkBundle(t, "empty chord", Chord(ChordData{}), "chord")
	checkBundle(t, "empty treemap", Treemap(TreeNode{}), "treemap")
	checkBundle(t, "empty dashboard", Dashboard(DashboardData{}), "dashboard")
	// The static chord shows the selected frame and every ribbon of it.
	svg := Chord(chord).SVG()
	if !strings.Contains(svg, ">frame 2<") || strings.Count(svg, "data-key=") != len(ChordLayout(chord, 1).Ribbons) {
		t.Errorf("static chord: frame label or ribbons missing")
	}
	// A Bundle is a Renderer.
	var r display.Renderer = display.TextBundle("x")
	if display.BundleOf(r).Text() != "x" {
		t.Error("Bundle as Renderer")
	}
}

func TestFitLabel(t *testing.T) {
	if got := fitLabel("worker 12", 200, fontSize); got != "worker 12" {
		t.Errorf("fits: %q", got)
	}
	if got := fitLabel("worker 12", 20, fontSize); got != "" {
		t.Errorf("a stub: %q", got)
	}
	long := "node-a23.cluster.example.org"
	if got := fitLabel(long, textWidth(long, fontSize)*0.8, fontSize); !strings.HasSuffix(got, "…") || len([]rune(got)) < 17 {
		t.Errorf("mostly kept: %q", got)
	}
}

// The runtime is stored once per notebook: keep it small all the same, and
// built from the sources (go generate), with every view registered. The
// matrix board brought d3-brush (with d3-transition and d3-drag): about
// 30 kB of the budget; the message views (timeline, matrix, bundled
// chord, sender/receiver) raised it from 150 to 230 kB.
func TestRuntimeBundle(t *testing.T) {
	if n := len(display.RuntimeJS); n > 230000 {
		t.Errorf("the runtime is %d bytes; keep it under 230,000", n)
	}
	if !strings.HasPrefix(display.RuntimeJS, "// Code generated by display/runtime/build") {
		t.Error("runtime/superstep.js is not the generated bundle; run go generate ./display")
	}
	for _, s := range []string{"superstep", "ss-ribbon", "ss-tile", "ss-row", "data-busy", "svg:", "trend:", "chord:", "treemap:", "dashboard:", "drawing:", "matrixboard:", "superstepPending", "ss-download"} {
		if !strings.Contains(display.RuntimeJS, s) {
			t.Errorf("the runtime lacks %q", s)
		}
	}
}
