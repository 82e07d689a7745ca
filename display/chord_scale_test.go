package display

import (
	"math"
	"strings"
	"testing"
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
	b := Row(SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`), HTML("<b>x</b>")).WithCaptions("one", "two").MIMEBundle()
	html := b.Data["text/html"].(string)
	if !strings.Contains(html, "data:image/svg+xml;base64,") || !strings.Contains(html, "<b>x</b>") || !strings.Contains(html, ">one</div>") {
		t.Fatalf("%s", html)
	}
	if !strings.HasPrefix(b.Text(), "one\nSVG picture") {
		t.Fatalf("%q", b.Text())
	}
}
