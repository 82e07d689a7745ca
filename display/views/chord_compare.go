package views

import (
	"fmt"
	"strings"

	"superstep/display"
)

// ChordsView shows several chord diagrams side by side in one row, on one
// scale (ChordCommonScale), with one frame slider that moves them all: a
// comparison of jobs that ran on the same cluster.
type ChordsView struct {
	Datas    []ChordData
	Captions []string // one above each diagram; optional
	// Width and Height of each diagram in px (default 420×450).
	Width, Height float64
}

const (
	chordsGap      = 16.0 // between two diagrams
	chordsCaptionH = 20.0 // the captions' line above the diagrams
)

// CompareChords shows the chord diagrams of datas side by side on one scale:
// the circle is the busiest frame's traffic between units over all of them
// and the thickest arc the largest self traffic, so a lighter job draws less
// of the circle. The frames line up by index: one slider shows frame f of
// every diagram (a diagram with fewer frames stays on its last). Each
// diagram's Selected is replaced by the busiest frame over all of them.
func CompareChords(captions []string, datas ...ChordData) *ChordsView {
	ds := append([]ChordData(nil), datas...)
	ChordCommonScale(ds)
	// The frame shown first: where the traffic summed over the diagrams
	// (self included) is largest.
	var sums []float64
	for _, d := range ds {
		for f := range d.Frames {
			for len(sums) <= f {
				sums = append(sums, 0)
			}
			for s := range d.Units {
				for t := range d.Units {
					sums[f] += d.weight(f, s, t)
				}
			}
		}
	}
	sel := 0
	for f, x := range sums {
		if x > sums[sel] {
			sel = f
		}
	}
	for i := range ds {
		ds[i].Selected = clampInt(sel, 0, len(ds[i].Frames)-1)
	}
	return &ChordsView{Datas: ds, Captions: captions, Width: 420, Height: 450}
}

// chordsSpec is what the runtime's "chords" view draws from.
type chordsSpec struct {
	Items    []chordSpec `json:"items"`
	Captions []string    `json:"captions"`
	// X[i] is the left edge of diagram i; every diagram's top is Top.
	X        []ang `json:"x"`
	Top      ang   `json:"top"`
	Width    ang   `json:"width"`
	Height   ang   `json:"height"`
	Selected int   `json:"selected"`
}

func (v *ChordsView) spec() chordsSpec {
	w, h := v.Width, v.Height
	if w <= 0 {
		w = 420
	}
	if h <= 0 {
		h = 450
	}
	sp := chordsSpec{Items: []chordSpec{}, Captions: []string{}, X: []ang{}, Top: chordsCaptionH, Height: a4(chordsCaptionH + h)}
	for i, d := range v.Datas {
		sp.Items = append(sp.Items, buildChordSpec(d, w, h))
		c := ""
		if i < len(v.Captions) {
			c = v.Captions[i]
		}
		sp.Captions = append(sp.Captions, c)
		sp.X = append(sp.X, a4(float64(i)*(w+chordsGap)))
		if len(d.Frames) > 0 {
			sp.Selected = d.Selected
		}
	}
	if n := len(v.Datas); n > 0 {
		sp.Width = a4(float64(n)*w + float64(n-1)*chordsGap)
	}
	return sp
}

func chordsSVG(sp chordsSpec) string {
	var w svgw
	w.open(max(float64(sp.Width), 1), float64(sp.Height), "hatch")
	for i, it := range sp.Items {
		x := float64(sp.X[i])
		w.text(x+4, 14, sp.Captions[i], fmt.Sprintf(` class="ss-caption" font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
		w.f(`<g class="ss-chord-item" transform="translate(%s,%s)">`, n2(x), n2(float64(sp.Top)))
		drawChord(&w, it, it.Selected, "hatch")
		w.WriteString(`</g>`)
	}
	w.close()
	return w.String()
}

// SVG is the static picture: the diagrams side by side at their selected
// frame.
func (v *ChordsView) SVG() string { return chordsSVG(v.spec()) }

// MIMEBundle implements Renderer.
func (v *ChordsView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *ChordsView) figure() figure {
	sp := v.spec()
	alt := fmt.Sprintf("%d chord diagrams side by side on one scale", len(sp.Items))
	if len(sp.Captions) > 0 {
		alt += ": " + strings.Join(sp.Captions, ", ")
	}
	var text strings.Builder
	text.WriteString(alt)
	for i, it := range sp.Items {
		fmt.Fprintf(&text, "\n\n%s\n", sp.Captions[i])
		cv := &ChordView{Data: v.Datas[i]}
		text.WriteString(cv.text(it))
	}
	return figure{svg: chordsSVG(sp), alt: alt, text: text.String(), kind: "chords", spec: sp}
}
