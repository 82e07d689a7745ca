package views

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ribbonAngle is the angle all of a frame's ribbon ends take.
func ribbonAngle(g ChordGeometry) float64 {
	s := 0.0
	for _, r := range g.Ribbons {
		s += r.Source.Len() + r.Target.Len()
	}
	return s
}

// svgRectWidth is the width of the static picture's rect of class c.
func svgRectWidth(t *testing.T, svg, c string) float64 {
	t.Helper()
	m := regexp.MustCompile(`<rect class="` + c + `" x="[-\d.]+" y="[-\d.]+" width="([-\d.]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no rect of class %s in the picture", c)
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	return x
}

// One diagram, two frames, the second with ten times the first's traffic,
// 78% of it within units (the intra-host share): the frames share
// one scale (the heavy frame's ribbons take ten times the angle, its volume
// bar is ten times as long and full), every frame prints its total and
// "self 78%", the bar's dark part is 78% of it, and each unit's self band
// is as high as its self traffic.
func TestChordSelfShareAndVolumeBar(t *testing.T) {
	units := []Unit{{ID: "a"}, {ID: "b"}}
	m := func(k float64) [][]float64 { return [][]float64{{39 * k, 11 * k}, {11 * k, 39 * k}} }
	d := ChordData{Units: units, WeightName: "messages", Frames: []ChordFrame{{Label: "light", Weight: m(1)}, {Label: "heavy", Weight: m(10)}}}
	light, heavy := ChordLayout(d, 0), ChordLayout(d, 1)
	if r := ribbonAngle(heavy) / ribbonAngle(light); math.Abs(r-10) > 1e-9 {
		t.Errorf("ten times the traffic takes %.3f times the angle", r)
	}
	// Self bands: the part of an arc above MinChordThickness, in
	// proportion to the unit's self traffic (39 against the largest, 390).
	for u := range units {
		band := func(g ChordGeometry) float64 {
			return (g.Arcs[u].Thickness - MinChordThickness) / (1 - MinChordThickness)
		}
		if math.Abs(band(heavy)-1) > 1e-9 || math.Abs(band(light)-0.1) > 1e-9 {
			t.Errorf("unit %d: self bands %.3f and %.3f of the full band, want 1 and 0.1", u, band(heavy), band(light))
		}
	}
	sp := buildChordSpec(d, 420, 450)
	for f, want := range [][2]float64{{0.022, 0.078}, {0.22, 0.78}} {
		fr := sp.Frames[f]
		if !strings.HasPrefix(fr.Total, []string{"100 messages", "1,000 messages"}[f]) || !strings.Contains(fr.Total, "self 78%") {
			t.Errorf("frame %d: header %q lacks the total or the self share", f, fr.Total)
		}
		if math.Abs(float64(fr.SelfShare)-0.78) > 1e-9 {
			t.Errorf("frame %d: self share %v", f, fr.SelfShare)
		}
		if math.Abs(float64(fr.Volume[0])-want[0]) > 1e-4 || math.Abs(float64(fr.Volume[1])-want[1]) > 1e-4 {
			t.Errorf("frame %d: volume bar %v, want %v", f, fr.Volume, want)
		}
		if !strings.Contains(fr.VolumeTip, "within units 780") && !strings.Contains(fr.VolumeTip, "within units 78 ") {
			t.Errorf("frame %d: bar tip %q", f, fr.VolumeTip)
		}
		for u := range units {
			if !strings.Contains(fr.SelfTips[u], fmt.Sprintf("within itself: %s messages", []string{"39", "390"}[f])) || !strings.Contains(fr.SelfTips[u], "78% of what it sends") {
				t.Errorf("frame %d unit %d: self tip %q", f, u, fr.SelfTips[u])
			}
		}
	}
	// The static picture: the bar's parts and a self band per unit.
	for f := range d.Frames {
		d.Selected = f
		svg := (&ChordView{Data: d, Width: 420, Height: 450}).SVG()
		track := svgRectWidth(t, svg, "ss-volume-track")
		self := svgRectWidth(t, svg, "ss-volume-self")
		between := svgRectWidth(t, svg, "ss-volume-between")
		want := []float64{0.1, 1}[f]
		if math.Abs((self+between)/track-want) > 0.001 || math.Abs(self/(self+between)-0.78) > 0.001 {
			t.Errorf("frame %d: bar %.2f+%.2f of %.2f px, want %.2f of it, 78%% dark", f, between, self, track, want)
		}
		if n := strings.Count(svg, `class="ss-self"`); n != 2 {
			t.Errorf("frame %d: %d self bands, want 2", f, n)
		}
		if !strings.Contains(svg, "self 78%") {
			t.Errorf("frame %d: the picture does not print the self share", f)
		}
	}
}

// The case: buggy SSSP's 964,640-message frame and SSSP's
// 2,913-message one compared side by side share the volume bar's scale, and
// a frame without self traffic says "self 0%" and draws no band.
func TestCompareChordsShareTheVolumeScale(t *testing.T) {
	units := []Unit{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	fr := func(ab, bc, self float64) ChordFrame {
		return ChordFrame{Weight: [][]float64{{self, ab, 0}, {0, 0, bc}, {0, 0, 0}}}
	}
	buggy := ChordData{Units: units, WeightName: "messages", Frames: []ChordFrame{fr(500000, 464640, 0)}}
	sssp := ChordData{Units: units, WeightName: "messages", Frames: []ChordFrame{fr(2000, 913, 0)}}
	sp := CompareChords([]string{"buggy", "sssp"}, buggy, sssp).spec()
	b, s := sp.Items[0].Frames[0], sp.Items[1].Frames[0]
	if math.Abs(float64(b.Volume[0])-1) > 1e-4 || math.Abs(float64(s.Volume[0])-2913.0/964640) > 1e-4 {
		t.Errorf("bars %v and %v, want 1 and %.4f", b.Volume, s.Volume, 2913.0/964640)
	}
	if math.Abs(float64(s.Fill)-2913.0/964640) > 1e-4 {
		t.Errorf("the light job fills %v of the circle", s.Fill)
	}
	if !strings.HasPrefix(b.Total, "964,640 messages · self 0%") || !strings.HasPrefix(s.Total, "2,913 messages · self 0%") {
		t.Errorf("headers %q, %q", b.Total, s.Total)
	}
	if svg := chordsSVG(sp); strings.Contains(svg, `class="ss-self"`) {
		t.Errorf("a self band without self traffic")
	}
}

// The header's lines and the volume bar fit the picture's width and stay
// above every label round the circle.
func TestChordHeaderFitsAboveTheLabels(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		d := sampleChord(seed)
		d.Frames[0].Total = "964,640 messages, 7.4 MiB"
		for f := range d.Frames {
			d.Selected = f
			for _, size := range [][2]float64{{480, 500}, {420, 450}, {360, 390}} {
				v := &ChordView{Data: d, Width: size[0], Height: size[1]}
				sp := v.spec()
				if w := textWidth(sp.Frames[f].Total, fontSize); w > size[0]-8 {
					t.Errorf("seed %d frame %d at %v: header %q is %.0f px wide", seed, f, size, sp.Frames[f].Total, w)
				}
				boxes, names, _ := svgLabelBoxes(t, v.SVG())
				for i, b := range boxes {
					if regexp.MustCompile(`^\d+ of \d+$`).MatchString(names[i]) {
						continue // the header's frame count
					}
					for _, p := range b {
						if p[1] < chordBarY+chordBarH {
							t.Errorf("seed %d frame %d at %v: label %q reaches y %.1f, into the header", seed, f, size, names[i], p[1])
						}
					}
				}
			}
		}
	}
}
