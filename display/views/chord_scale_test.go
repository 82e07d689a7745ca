package views

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"superstep/display"
)

// Two diagrams with one FullCircle compare: half the traffic takes half the
// angle, and the arcs spread evenly round the circle.
func TestChordFullCircle(t *testing.T) {
	units := []Unit{{ID: "a"}, {ID: "b"}}
	frame := func(w float64) ChordFrame { return ChordFrame{Weight: [][]float64{{10, w}, {w, 40}}} }
	full := ChordLayout(ChordData{Units: units, Frames: []ChordFrame{frame(4)}, FullCircle: 16, FullThickness: 40}, 0)
	half := ChordLayout(ChordData{Units: units, Frames: []ChordFrame{frame(2)}, FullCircle: 16, FullThickness: 40}, 0)
	arcs := func(g ChordGeometry) float64 {
		s := 0.0
		for _, a := range g.Arcs {
			s += a.In.Len() + a.Out.Len()
		}
		return s
	}
	if r := arcs(half) / arcs(full); math.Abs(r-0.5) > 1e-9 {
		t.Fatalf("half the traffic takes %.3f of the angle", r)
	}
	// Even spread: the two arcs' midpoints are half a turn apart.
	mid := func(a ChordArc) float64 { return (a.In.Start + a.Out.End) / 2 }
	if d := mid(half.Arcs[1]) - mid(half.Arcs[0]); math.Abs(d-math.Pi) > 1e-9 {
		t.Fatalf("arcs %v apart", d)
	}
	// Thickness is relative to FullThickness across diagrams.
	if half.Arcs[1].Thickness != 1 || half.Arcs[0].Thickness >= half.Arcs[1].Thickness {
		t.Fatalf("thickness %v %v", half.Arcs[0].Thickness, half.Arcs[1].Thickness)
	}
}

func TestRowKeepsEachItemsPicture(t *testing.T) {
	b := Row(SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`), display.HTML("<b>x</b>")).WithCaptions("one", "two").MIMEBundle()
	html := b.Data["text/html"].(string)
	if !b.NeedsRuntime || !strings.Contains(html, "data:image/png;base64,") || !strings.Contains(html, "<b>x</b>") || !strings.Contains(html, ">one</div>") {
		t.Fatalf("%s", html)
	}
	if !strings.HasPrefix(b.Text(), "one\nSVG picture") {
		t.Fatalf("%q", b.Text())
	}
}

// chordAvail is the angle the units can take: the circle less the gaps.
func chordAvail(d ChordData) float64 {
	a := 2 * math.Pi
	for _, g := range chordGaps(d) {
		a -= g
	}
	return a
}

// Within one diagram the frames share a scale: the busiest frame's traffic
// between units fills the circle (less the gaps), a frame with half of it
// spans half, with its ribbons' ends covering exactly its arcs, and the
// rest of the circle stays empty.
func TestChordFramesShareOneScale(t *testing.T) {
	units := []Unit{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	m := func(k float64) [][]float64 {
		return [][]float64{{5, 4 * k, 2 * k}, {1 * k, 0, 3 * k}, {6 * k, 2 * k, 9}}
	}
	d := ChordData{Units: units, Frames: []ChordFrame{{Weight: m(0.5)}, {Weight: m(1)}, {Weight: m(0.1)}}}
	avail := chordAvail(d)
	for f, want := range []float64{0.5, 1, 0.1} {
		g := ChordLayout(d, f)
		arcs, ribbons := 0.0, 0.0
		for _, a := range g.Arcs {
			arcs += a.In.Len() + a.Out.Len()
		}
		for _, r := range g.Ribbons {
			ribbons += r.Source.Len() + r.Target.Len()
		}
		if math.Abs(arcs-want*avail) > 1e-9 || math.Abs(ribbons-want*avail) > 1e-9 {
			t.Errorf("frame %d: arcs span %.4f rad, ribbons %.4f; want %.4f (%.0f%% of %.4f)", f, arcs, ribbons, want*avail, 100*want, avail)
		}
		if math.Abs(g.Fill-want) > 1e-9 {
			t.Errorf("frame %d: Fill %v, want %v", f, g.Fill, want)
		}
		empty := 2*math.Pi - arcs
		for _, x := range g.Gaps {
			empty -= x
		}
		if math.Abs(empty-3*g.Spare) > 1e-9 {
			t.Errorf("frame %d: %v rad empty, %v spare per unit", f, empty, g.Spare)
		}
	}
	// The printed total of the light frame says how much it is.
	sp := buildChordSpec(d, 420, 450)
	if got := sp.Frames[2].Total; !strings.HasPrefix(got, display.FormatNumber(15.8)) || !strings.Contains(got, "10%") {
		t.Errorf("frame total %q", got)
	}
	if svg := chordSVG(sp); !strings.Contains(svg, sp.Frames[sp.Selected].Total) || !strings.Contains(svg, chordLegend2) {
		t.Errorf("the static picture lacks the frame total or the legend")
	}
}

// svgLabelBoxes are the boxes of the static picture's labels inside the
// circle's box (unit and ring labels, not the header or legend), read back
// from the SVG text: x, y and text-anchor, or the ring labels' transform.
func svgLabelBoxes(t *testing.T, svg string) (boxes []labelBox, names []string, ringLabels int) {
	t.Helper()
	unit := regexp.MustCompile(`<text x="([-\d.]+)" y="([-\d.]+)" text-anchor="(\w+)" fill="[^"]*">([^<]*)</text>`)
	ring := regexp.MustCompile(`<text transform="translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)"[^>]*>([^<]*)</text>`)
	f := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
	for _, m := range unit.FindAllStringSubmatch(svg, -1) {
		boxes = append(boxes, unitLabelBox(f(m[1]), f(m[2]), textWidth(m[4], fontSize), m[3]))
		names = append(names, m[4])
	}
	for _, m := range ring.FindAllStringSubmatch(svg, -1) {
		boxes = append(boxes, ringLabelBox(f(m[1]), f(m[2]), textWidth(m[4], smallFont), f(m[3])))
		names = append(names, m[4])
		ringLabels++
	}
	return
}

// The rack label and the host labels never overlap, nor two ring labels: the notebook's case
// (1 rack of 4 hosts, host level, a frame where one host sends to one
// other, so the idle hosts' labels meet at the rack label), and every frame
// of a worker-level diagram with host and rack rings.
func TestChordRingAndUnitLabelsDoNotOverlap(t *testing.T) {
	hosts := []Unit{{ID: "r0h0", Name: "r0h0"}, {ID: "r0h1", Name: "r0h1"}, {ID: "r0h2", Name: "r0h2"}, {ID: "r0h3", Name: "r0h3"}}
	rack := []Ring{{Name: "rack", Groups: []RingGroup{{ID: "r0", Name: "r0", First: 0, Last: 3}}}}
	z := func() [][]float64 {
		return [][]float64{make([]float64, 4), make([]float64, 4), make([]float64, 4), make([]float64, 4)}
	}
	one, busy := z(), z()
	one[2][3] = 189
	for s := range busy {
		for d := range busy {
			busy[s][d] = float64(100 + 10*s + d)
		}
	}
	cases := []ChordData{
		{Units: hosts, Rings: rack, Frames: []ChordFrame{{Label: "0", Weight: one}}},
		{Units: hosts, Rings: rack, Frames: []ChordFrame{{Label: "0", Weight: one}, {Label: "1", Weight: busy}}},
	}
	for seed := int64(1); seed <= 5; seed++ {
		cases = append(cases, sampleChord(seed))
	}
	for c, d := range cases {
		for f := range d.Frames {
			d.Selected = f
			for _, size := range [][2]float64{{480, 500}, {420, 450}, {360, 390}} {
				v := &ChordView{Data: d, Width: size[0], Height: size[1]}
				boxes, names, ringShown := svgLabelBoxes(t, v.SVG())
				for i := range boxes {
					for j := i + 1; j < len(boxes); j++ {
						if boxes[i].overlaps(boxes[j], 1) {
							t.Errorf("case %d frame %d at %v: labels %q and %q overlap", c, f, size, names[i], names[j])
						}
					}
				}
				// Not by showing nothing: the outermost ring's labels and
				// at least half the units' stay.
				unitShown := len(names) - ringShown
				if ringShown == 0 || 2*unitShown < len(d.Units) {
					t.Errorf("case %d frame %d at %v: only %q shown", c, f, size, names)
				}
			}
		}
	}
}

// CompareChords puts its diagrams side by side in one row on one scale.
func TestCompareChordsLayout(t *testing.T) {
	units := []Unit{{ID: "a"}, {ID: "b"}}
	fr := func(w float64) ChordFrame { return ChordFrame{Weight: [][]float64{{3, w}, {w, 0}}} }
	heavy := ChordData{Units: units, Frames: []ChordFrame{fr(10), fr(40)}}
	light := ChordData{Units: units, Frames: []ChordFrame{fr(20), fr(5)}}
	v := CompareChords([]string{"heavy", "light"}, heavy, light)
	sp := v.spec()
	if len(sp.Items) != 2 || sp.X[0] != 0 || float64(sp.X[1]) < float64(sp.Items[0].Dims.Width) || sp.Items[0].Dims.Width != 420 {
		t.Fatalf("not side by side: x %v, widths %v", sp.X, sp.Items[0].Dims.Width)
	}
	if float64(sp.Width) != float64(sp.X[1])+float64(sp.Items[1].Dims.Width) || float64(sp.Height) > 500 {
		t.Errorf("picture %v×%v", sp.Width, sp.Height)
	}
	// One scale: the light job's first frame (20 against the heavy job's
	// 40) fills half, its second an eighth; the busiest frame is shown.
	for i, want := range [][]float64{{0.25, 1}, {0.5, 0.125}} {
		for f, w := range want {
			if got := float64(sp.Items[i].Frames[f].Fill); math.Abs(got-w) > 1e-4 {
				t.Errorf("item %d frame %d fills %v, want %v", i, f, got, w)
			}
		}
		if sp.Items[i].Selected != 1 || sp.Selected != 1 {
			t.Errorf("item %d shows frame %d first", i, sp.Items[i].Selected)
		}
	}
	// The static picture: both diagrams, translated along one row.
	svg := v.SVG()
	if !strings.Contains(svg, `<g class="ss-chord-item" transform="translate(0,20)">`) ||
		!strings.Contains(svg, fmt.Sprintf(`<g class="ss-chord-item" transform="translate(%s,20)">`, n2(float64(sp.X[1])))) {
		t.Errorf("static picture not in one row")
	}
	b := v.MIMEBundle()
	if h := b.Data["text/html"].(string); !strings.Contains(h, `data-kind="chords"`) {
		t.Errorf("html kind")
	}
}
