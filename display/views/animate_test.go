package views

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testSSSP is single-source shortest paths from vertex 0 on a side×side
// lattice (weights 1–1.4), run as Pregel runs it, for at most maxSteps
// supersteps: superstep 0 starts the wave, every vertex not yet reached
// holds +Inf.
func testSSSP(side, maxSteps int) AnimateData {
	n := side * side
	d := AnimateData{Title: "SSSP", ValueName: "distance", X: make([]float64, n), Y: make([]float64, n)}
	nbr := make([][]int32, n)
	for r := range side {
		for c := range side {
			i := int32(r*side + c)
			d.X[i], d.Y[i] = float64(c), float64(r)
			if c+1 < side {
				d.Edges = append(d.Edges, [2]int32{i, i + 1})
			}
			if r+1 < side {
				d.Edges = append(d.Edges, [2]int32{i, i + int32(side)})
			}
		}
	}
	for _, e := range d.Edges {
		nbr[e[0]] = append(nbr[e[0]], e[1])
		nbr[e[1]] = append(nbr[e[1]], e[0])
	}
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	inbox := make([][]float64, n)
	for s := 0; s < maxSteps; s++ {
		st := AnimateStep{Value: make([]float64, n), State: make([]uint8, n), Sent: make([]int32, n), Received: make([]int32, n)}
		next := make([][]float64, n)
		for i := range n {
			best := math.Inf(1)
			if s == 0 && i == 0 {
				best = 0
			}
			for _, m := range inbox[i] {
				best = math.Min(best, m)
			}
			switch {
			case s > 0 && len(inbox[i]) == 0:
			case best < dist[i]:
				dist[i] = best
				st.State[i] = StateActive
				for _, u := range nbr[i] {
					w := 1 + float64((int32(i)*7+u*13)%5)/10
					next[u] = append(next[u], best+w)
					st.Pulses = append(st.Pulses, Pulse{From: int32(i), To: u, Count: 1})
					st.Sent[i]++
					st.Received[u]++
				}
			default:
				st.State[i] = StateWoken
			}
		}
		copy(st.Value, dist)
		d.Steps = append(d.Steps, st)
		inbox = next
		if len(st.Pulses) == 0 {
			break
		}
	}
	return d
}

// dumpPicture writes the picture into $SUPERSTEP_ANIMATE_DUMP, if set,
// to look at.
func dumpPicture(t *testing.T, name string, v *AnimateView) {
	dir := os.Getenv("SUPERSTEP_ANIMATE_DUMP")
	if dir == "" {
		return
	}
	b, err := v.PNG()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644)
	os.WriteFile(filepath.Join(dir, name+".svg"), []byte(v.SVG()), 0o644)
}

func TestAnimateValidateNamesWhatAndWhere(t *testing.T) {
	good := func() AnimateData {
		return AnimateData{X: []float64{0, 1}, Y: []float64{0, 1}, Edges: [][2]int32{{0, 1}},
			Steps: []AnimateStep{{Value: []float64{0, 1}, State: []uint8{2, 0}, Pulses: []Pulse{{0, 1, 1}}}}}
	}
	if err := good().validate(); err != nil {
		t.Fatalf("valid data: %v", err)
	}
	cases := []struct {
		change func(d *AnimateData)
		want   string
	}{
		{func(d *AnimateData) { d.Y = d.Y[:1] }, "2 x positions but 1 y positions"},
		{func(d *AnimateData) { d.Labels = []string{"a"} }, "1 labels for 2 vertices"},
		{func(d *AnimateData) { d.Group = []int32{1, 2, 3} }, "3 groups for 2 vertices"},
		{func(d *AnimateData) { d.X[1] = math.NaN() }, "vertex 1 has position (NaN, 1)"},
		{func(d *AnimateData) { d.Edges = append(d.Edges, [2]int32{1, 2}) }, "edge 1 (1, 2) names a vertex outside 0..1"},
		{func(d *AnimateData) { d.Scale = "rainbow" }, `unknown scale "rainbow"`},
		{func(d *AnimateData) { d.Center = math.Inf(1) }, "center +Inf is not a finite number"},
		{func(d *AnimateData) { d.MaxPulses = -1 }, "MaxPulses -1 is negative"},
		{func(d *AnimateData) { d.Steps[0].Value = []float64{1} }, "step 0 has 1 values for 2 vertices"},
		{func(d *AnimateData) { d.Steps[0].State = nil }, "step 0 has 0 states for 2 vertices"},
		{func(d *AnimateData) { d.Steps[0].State[1] = 7 }, "vertex 1 of step 0 has state 7"},
		{func(d *AnimateData) { d.Steps[0].Sent = []int32{1} }, "step 0 has 1 sent counts for 2 vertices"},
		{func(d *AnimateData) { d.Steps[0].Received = []int32{0, -3} }, "vertex 1 of step 0 has received count -3"},
		{func(d *AnimateData) { d.Steps[0].Pulses[0].From = 5 }, "pulse 0 of step 0 comes from vertex 5 of 2"},
		{func(d *AnimateData) { d.Steps[0].Pulses[0].To = -1 }, "pulse 0 of step 0 goes to vertex -1 of 2"},
		{func(d *AnimateData) { d.Steps[0].Pulses[0].Count = -2 }, "pulse 0 of step 0 has count -2"},
		{func(d *AnimateData) { d.Frames = []int{0, 3} }, "frame 1 is superstep 3, outside 0..0"},
		{func(d *AnimateData) { d.Trend = &TrendData{Frames: []string{"0", "1"}} }, "the trend has 2 frames for 1 supersteps"},
	}
	for _, c := range cases {
		d := good()
		c.change(&d)
		err := d.validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "views.Animate: ") {
			t.Errorf("want an error with %q, got %v", c.want, err)
			continue
		}
		// An invalid view shows why, and draws nothing.
		v := Animate(d)
		if !strings.Contains(v.SVG(), html.EscapeString(c.want)) || v.Frames() != nil {
			t.Errorf("%q: the SVG does not say why, or frames are given", c.want)
		}
		if _, err := v.PNG(); err == nil {
			t.Errorf("%q: PNG without an error", c.want)
		}
		if txt := v.MIMEBundle().Data["text/plain"]; !strings.Contains(fmt.Sprint(txt), c.want) {
			t.Errorf("%q: the bundle says %v", c.want, txt)
		}
	}
}

func TestDefaultFrames(t *testing.T) {
	cases := []struct {
		steps    int
		messages []int64
		want     []int
	}{
		{10, nil, []int{0, 2, 4, 5, 7, 9}},
		{10, []int64{1, 1, 1, 9, 1, 1, 1, 1, 1, 1}, []int{0, 2, 3, 4, 5, 7, 9}}, // the busiest, 3, inserted
		{10, []int64{1, 1, 1, 1, 9, 1, 1, 1, 1, 9}, []int{0, 2, 4, 5, 7, 9}},    // busiest (first, 4) already there
		{10, []int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []int{0, 2, 4, 5, 7, 9}},    // no messages: no busiest
		{40, append(make([]int64, 30), 5), []int{0, 8, 16, 23, 30, 31, 39}},
		{6, []int64{0, 9}, []int{0, 1, 2, 3, 4, 5}},
		{3, nil, []int{0, 1, 2}},
		{1, nil, []int{0}},
		{0, nil, []int{}},
	}
	for _, c := range cases {
		if got := DefaultFrames(c.steps, c.messages); !slices.Equal(got, c.want) {
			t.Errorf("DefaultFrames(%d, %v) = %v, want %v", c.steps, c.messages, got, c.want)
		}
	}
	// The view uses them, unless told otherwise.
	d := testSSSP(6, 100)
	v := Animate(d)
	L := d.layout()
	if want := DefaultFrames(len(d.Steps), L.messages); !slices.Equal(v.Frames(), want) {
		t.Errorf("Frames() = %v, want %v", v.Frames(), want)
	}
	d.Frames = []int{3, 1}
	if got := Animate(d).Frames(); !slices.Equal(got, []int{3, 1}) {
		t.Errorf("chosen frames: %v", got)
	}
}

func TestAnimatePulseSampleIsDeterministic(t *testing.T) {
	d := testSSSP(20, 60)
	busiest, most := 0, 0
	for s, st := range d.Steps {
		if len(st.Pulses) > most {
			busiest, most = s, len(st.Pulses)
		}
	}
	d.MaxPulses = most / 3
	L1, L2 := d.layout(), d.layout()
	if !L1.sampled || !strings.Contains(L1.caption, fmt.Sprintf("message pulses sampled: at most %d per superstep drawn", d.MaxPulses)) {
		t.Errorf("caption %q does not say the pulses are sampled", L1.caption)
	}
	for s := range d.Steps {
		if !slices.Equal(L1.pulses[s], L2.pulses[s]) {
			t.Fatalf("superstep %d: two samples differ", s)
		}
		if len(L1.pulses[s]) > d.MaxPulses {
			t.Errorf("superstep %d: %d pulses drawn, cap %d", s, len(L1.pulses[s]), d.MaxPulses)
		}
		if !slices.IsSorted(L1.pulses[s]) {
			t.Errorf("superstep %d: sample not in input order", s)
		}
	}
	if len(L1.pulses[busiest]) != d.MaxPulses {
		t.Errorf("busiest superstep: %d drawn, want the cap %d", len(L1.pulses[busiest]), d.MaxPulses)
	}
	// The same pulses whatever their order.
	rev := slices.Clone(d.Steps[busiest].Pulses)
	slices.Reverse(rev)
	var a, b []Pulse
	for _, k := range L1.pulses[busiest] {
		a = append(a, d.Steps[busiest].Pulses[k])
	}
	for _, k := range samplePulses(rev, d.MaxPulses, busiest) {
		b = append(b, rev[k])
	}
	key := func(p Pulse) string { return fmt.Sprint(p.From, p.To) }
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		ka[i] = key(a[i])
	}
	for i := range b {
		kb[i] = key(b[i])
	}
	slices.Sort(ka)
	slices.Sort(kb)
	if !slices.Equal(ka, kb) {
		t.Error("the sample depends on the pulses' order")
	}
	// Same data, same bytes.
	if Animate(d).MIMEBundle().Data["text/html"] != Animate(d).MIMEBundle().Data["text/html"] {
		t.Error("two bundles of the same data differ")
	}
	// Under the cap: everything, and the caption says nothing.
	d.MaxPulses = 0
	if L := d.layout(); L.sampled || strings.Contains(L.caption, "sampled") {
		t.Errorf("nothing sampled, caption %q", L.caption)
	}
}

func TestAnimateTip(t *testing.T) {
	d := AnimateData{
		X: []float64{0, 1, 2}, Y: []float64{0, 0, 0}, Labels: []string{"a", "", "c"},
		Group: []int32{4, 4, 7}, GroupName: "host",
		Steps: []AnimateStep{
			{Value: []float64{0, math.Inf(1), 1e-05}, State: []uint8{StateActive, StateWoken, StateHalted},
				Pulses: []Pulse{{0, 1, 2}, {0, 2, 1}}},
			{Value: []float64{0.25, 2.4000000000000004, 1.5e6}, State: []uint8{0, 2, 1},
				Sent: []int32{0, 3, 0}, Received: []int32{1, 0, 2}},
		},
	}
	cases := []struct {
		i, s int
		want string
	}{
		{0, 0, "a\nvalue = 0\nactive\nsent 3 · received 0\nhost 4"},
		{1, 0, "vertex 1\nvalue = +Inf\nwoken\nsent 0 · received 2\nhost 4"},
		{2, 0, "c\nvalue = 1e-05\nhalted\nsent 0 · received 1\nhost 7"},
		{0, 1, "a\nvalue = 0.25\nhalted\nsent 0 · received 1\nhost 4"},
		{1, 1, "vertex 1\nvalue = 2.4000000000000004\nactive\nsent 3 · received 0\nhost 4"},
		{2, 1, "c\nvalue = 1.5e+06\nwoken\nsent 0 · received 2\nhost 7"},
	}
	for _, c := range cases {
		if got := d.tip(c.i, c.s); got != c.want {
			t.Errorf("tip(%d, %d) = %q, want %q", c.i, c.s, got, c.want)
		}
	}
	d.ValueName, d.Group = "rank", nil
	if got := d.tip(0, 1); got != "a\nrank = 0.25\nhalted\nsent 0 · received 1" {
		t.Errorf("without groups: %q", got)
	}
}

func TestAnimateStaticPicture(t *testing.T) {
	d := testSSSP(12, 200)
	v := Animate(d)
	frames := v.Frames()
	if len(frames) < 6 {
		t.Fatalf("frames %v", frames)
	}
	svg := v.SVG()
	panels := regexp.MustCompile(`<svg class="ss-panel" data-step="(\d+)"[^>]*>(.*?)</svg>`).FindAllStringSubmatch(svg, -1)
	if len(panels) != len(frames) {
		t.Fatalf("%d panels for frames %v", len(panels), frames)
	}
	L := d.layout()
	for k, p := range panels {
		if p[1] != fmt.Sprint(frames[k]) {
			t.Errorf("panel %d shows superstep %s, want %d", k, p[1], frames[k])
		}
		s := frames[k]
		if got := strings.Count(p[2], `<circle cx=`); got != 144 {
			t.Errorf("panel %d: %d vertex circles, want 144", k, got)
		}
		if got, want := strings.Count(p[2], `class="ss-ring"`), L.active[s]+L.woken[s]; got != want {
			t.Errorf("panel %d: %d rings, want %d (active and woken)", k, got, want)
		}
		if got := strings.Count(p[2], `class="ss-pulse"`); got != len(d.Steps[s].Pulses) {
			t.Errorf("panel %d: %d pulses, want %d", k, got, len(d.Steps[s].Pulses))
		}
		head, note := L.panelHead(s)
		if !strings.Contains(svg, ">"+head+"</text>") || !strings.Contains(svg, ">"+html.EscapeString(note)+"</text>") {
			t.Errorf("no header %q, %q", head, note)
		}
	}
	// +Inf (not reached yet) is the no-value grey, and the legend says so.
	if !strings.Contains(panels[0][2], `fill="`+animateNoValue+`"`) {
		t.Error("superstep 0: no vertex in the no-value grey")
	}
	if strings.Contains(panels[len(panels)-1][2], `fill="`+animateNoValue+`"`) {
		t.Error("last superstep: a vertex still grey")
	}
	if !strings.Contains(svg, ">no value (+Inf)</text>") {
		t.Error("the legend does not name +Inf")
	}
	for _, s := range []string{">distance</text>", ">0</text>", ">active</text>", ">woken</text>", ">message</text>", html.EscapeString(L.caption)} {
		if !strings.Contains(svg, s) {
			t.Errorf("the picture lacks %q", s)
		}
	}
	if strings.Count(svg, ">distance</text>") != 1 {
		t.Error("want one legend")
	}
	// The PNG: as big as the SVG, one pixel per px.
	b, err := v.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	w, h, err := rasterSize(svg)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != int(math.Ceil(w)) || img.Bounds().Dy() != int(math.Ceil(h)) || w != 640 {
		t.Errorf("PNG %v, SVG %v×%v", img.Bounds(), w, h)
	}
	// In the raster, each vertex's centre has its value's colour: +Inf
	// (not reached yet) the no-value grey.
	P := d.panels(&L)
	greys := func(k int) int {
		x0, y0 := P.origin(k)
		c := 0
		for i := range L.n {
			x, y := int(x0+L.x[i]*P.s), int(y0+L.y[i]*P.s)
			r, g, b, _ := img.At(x, y).RGBA()
			got := fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
			v := d.Steps[frames[k]].Value[i]
			if want := L.fill(v); got != want {
				t.Errorf("panel %d vertex %d (value %v): centre %s, want %s", k, i, v, got, want)
			}
			if got == animateNoValue {
				c++
			}
		}
		return c
	}
	if c := greys(0); c != 143 {
		t.Errorf("first panel: %d vertices in the no-value grey, want 143", c)
	}
	if c := greys(len(frames) - 1); c != 0 {
		t.Errorf("last panel: %d vertices in the no-value grey", c)
	}
	dumpPicture(t, "sssp12", v)
}

func TestAnimateLiveSpec(t *testing.T) {
	d := testSSSP(20, 200)
	pal := Palette(2)
	d.Trend = &TrendData{Frames: make([]string, len(d.Steps)), Units: []Unit{{ID: "job", Color: pal[0]}},
		Panels: []TrendPanel{{Title: "messages", Out: [][]float64{make([]float64, len(d.Steps))}}}}
	for s, st := range d.Steps {
		d.Trend.Frames[s] = fmt.Sprint(s)
		d.Trend.Panels[0].Out[0][s] = float64(len(st.Pulses))
	}
	v := Animate(d)
	b := v.MIMEBundle()
	h := b.Data["text/html"].(string)
	if !b.NeedsRuntime || !strings.Contains(h, `data-kind="animate"`) || !strings.Contains(h, `src="data:image/png;base64,`) {
		t.Fatal("not a live figure with a PNG picture")
	}
	t.Logf("20×20 lattice SSSP: %d vertices, %d supersteps: output %d bytes (PNG and spec)", len(d.X), len(d.Steps), len(h))
	// A notebook holds several of these under 2 MB: well under 150 kB
	// (some 50 kB today, a third of it the packed spec).
	if len(h) > 100000 {
		t.Errorf("output %d bytes, want under 100 kB", len(h))
	}
	// The spec decodes to what Go has: the values exactly.
	L := d.layout()
	sp := d.spec(&L)
	raw, _ := json.Marshal(sp)
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if int(back["steps"].(float64)) != len(d.Steps) || int(back["n"].(float64)) != 400 {
		t.Errorf("steps %v n %v", back["steps"], back["n"])
	}
	vals := decodeF64(t, sp.Vals)
	idx := decodeLE(t, sp.V0, sp.VB)
	cv, ci := decodeLE(t, sp.CV, sp.IB), decodeLE(t, sp.CI, sp.VB)
	k := 0
	for s, st := range d.Steps {
		if s > 0 {
			for j := 0; j < sp.CN[s]; j++ {
				idx[cv[k]] = ci[k]
				k++
			}
		}
		for i, x := range st.Value {
			if got := vals[idx[i]]; math.Float64bits(got) != math.Float64bits(x) {
				t.Fatalf("superstep %d vertex %d: value %v, want %v", s, i, got, x)
			}
		}
	}
	st := decodeLE(t, sp.St, 1)
	for s, step := range d.Steps {
		for i, x := range step.State {
			k := s*400 + i
			if got := st[k/4] >> (2 * (k % 4)) & 3; got != int(x) {
				t.Fatalf("superstep %d vertex %d: state %d, want %d", s, i, got, x)
			}
		}
	}
	if sum := func() (t int) {
		for _, x := range sp.PN {
			t += x
		}
		return
	}(); sum != len(decodeLE(t, sp.PF, sp.IB)) {
		t.Errorf("%d pulses counted, %d given", sum, len(decodeLE(t, sp.PF, sp.IB)))
	}
}

func decodeF64(t *testing.T, s string) []float64 {
	b := decodeLE(t, s, 1)
	out := make([]float64, len(b)/8)
	for i := range out {
		var u uint64
		for k := 7; k >= 0; k-- {
			u = u<<8 | uint64(b[8*i+k])
		}
		out[i] = math.Float64frombits(u)
	}
	return out
}

// decodeLE decodes a base64 little-endian array of size-byte integers.
func decodeLE(t *testing.T, s string, size int) []int {
	t.Helper()
	var raw []byte
	if s != "" {
		var err error
		raw, err = base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
	}
	out := make([]int, len(raw)/size)
	for i := range out {
		v := 0
		for k := size - 1; k >= 0; k-- {
			v = v<<8 | int(raw[size*i+k])
		}
		out[i] = v
	}
	return out
}

func TestAnimateLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 vertices")
	}
	d := testSSSP(141, 50)
	v := Animate(d)
	h := v.MIMEBundle().Data["text/html"].(string)
	L := d.layout()
	raw, _ := json.Marshal(d.spec(&L))
	t.Logf("141×141 lattice SSSP: %d vertices, %d supersteps: output %d bytes, spec %d bytes (packed %d)", len(d.X), len(d.Steps), len(h), len(raw), len(packSpec(string(raw))))
	dumpPicture(t, "sssp141", v)
}

func TestAnimateEmpty(t *testing.T) {
	v := Animate(AnimateData{})
	if len(v.Frames()) != 0 {
		t.Errorf("frames %v", v.Frames())
	}
	if _, err := v.PNG(); err != nil {
		t.Fatal(err)
	}
	if h := fmt.Sprint(v.MIMEBundle().Data["text/html"]); !strings.Contains(h, "data:image/png;base64,") {
		t.Error("no picture for empty data")
	}
}

func TestAnimateDivergingCentre(t *testing.T) {
	d := AnimateData{X: []float64{0, 1, 2, 3}, Y: []float64{0, 0, 0, 0}, Scale: "diverging", Center: 1,
		Steps: []AnimateStep{{Value: []float64{-3, 1, 2, math.NaN()}, State: make([]uint8, 4)}}}
	L := d.layout()
	ramp, _ := RampByName(animateDivRamp)
	hex := func(i int) string {
		c := ramp.Colors[i]
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{1, hex(128)}, {-3, hex(0)}, {5, hex(255)}, {math.NaN(), animateNoValue}} {
		if got := L.fill(c.v); got != c.want {
			t.Errorf("fill(%v) = %s, want %s", c.v, got, c.want)
		}
	}
	svg := Animate(d).SVG()
	for _, s := range []string{">centre 1</text>", ">no value (NaN)</text>", ">-3</text>", ">5</text>"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the legend lacks %q", s)
		}
	}
}
