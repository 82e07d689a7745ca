package views

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"strconv"

	"superstep/algo/bundle"
	"superstep/display"
)

// ChordLinesData is traffic between units on a circle, drawn as one
// bundled line per ordered pair (paper 003, Fig. 9).
type ChordLinesData struct {
	Title string
	// Units are the units in circular order, as for Chord.
	Units []Unit
	// Rings is the hierarchy of groups (innermost first), as for Chord.
	// Empty: blocks of about √n consecutive units.
	Rings []Ring
	// Src, Dst, Weight (messages, nil: 1 each) and Bytes (optional) are
	// one entry per pair or message; entries of the same ordered pair add
	// up. Self pairs are not drawn.
	Src, Dst      []int32
	Weight, Bytes []float64
	// Beta is Holten's bundling strength in (0, 1] (0: 0.85); 1 draws the
	// lines right through the group centres, smaller values straighten
	// them.
	Beta float64
	// Blend and Opacity are as for SenderReceiverData.
	Blend   string
	Opacity float64
}

// ChordLinesView is a chord diagram of bundled lines.
type ChordLinesView struct {
	Data ChordLinesData
}

// ChordLines draws the units on a circle at the angles of the chord
// diagram (ChordLayout) and one line per ordered pair inside it, bundled
// through the hierarchy (Holten's hierarchical edge bundling: the control
// polygon runs from the source up through its groups' centres towards the
// circle's centre and down through the target's groups), coloured from
// green at the source to red at the target. With additive light, pairs
// that exchange both ways turn yellow-brown. Hover shows "P→Q: N messages,
// B bytes"; live, a toggle switches blending and a slider sets the opacity.
func ChordLines(d ChordLinesData) *ChordLinesView { return &ChordLinesView{Data: d} }

const (
	clHeight   = 560.0
	clRadius   = 250.0
	clFrom     = "#1ec81e" // source green
	clTo       = "#c81e1e" // target red (R and G sum equally both ways)
	clDefaultB = 0.85
	clMaxRings = 100
)

func (d ChordLinesData) validate() error {
	n := len(d.Units)
	if err := checkPairs("ChordLines", n, d.Src, d.Dst, d.Weight, d.Bytes); err != nil {
		return err
	}
	if !finite(d.Beta) || d.Beta < 0 || d.Beta > 1 {
		return fmt.Errorf("views.ChordLines: beta %v (want 0..1)", d.Beta)
	}
	if len(d.Rings) > clMaxRings {
		return fmt.Errorf("views.ChordLines: %d rings (at most %d)", len(d.Rings), clMaxRings)
	}
	for r, ring := range d.Rings {
		for k, g := range ring.Groups {
			if g.First < 0 || g.Last >= n || g.First > g.Last {
				return fmt.Errorf("views.ChordLines: ring %d group %d spans units %d..%d of 0..%d", r, k, g.First, g.Last, n-1)
			}
		}
	}
	return checkBlend("ChordLines", d.Blend, d.Opacity)
}

// rings is the hierarchy drawn: Rings, or blocks of ⌈√n⌉ consecutive
// units when there are at least two such blocks.
func (d ChordLinesData) rings() []Ring {
	if len(d.Rings) > 0 {
		return d.Rings
	}
	n := len(d.Units)
	b := int(math.Ceil(math.Sqrt(float64(n))))
	if n < 4 || b >= n {
		return nil
	}
	ring := Ring{Name: "block"}
	for f := 0; f < n; f += b {
		ring.Groups = append(ring.Groups, RingGroup{ID: strconv.Itoa(f / b), First: f, Last: min(f+b, n) - 1})
	}
	return []Ring{ring}
}

func (d ChordLinesData) layout() *curvePic {
	n := len(d.Units)
	rings := d.rings()
	geo := ChordLayout(ChordData{Units: d.Units, Rings: rings}, 0)
	src, dst, msgs, byt := pairs(d.Src, d.Dst, d.Weight, d.Bytes)
	// Self pairs are not drawn.
	k := 0
	for i := range src {
		if src[i] != dst[i] {
			src[k], dst[k], msgs[k] = src[i], dst[i], msgs[i]
			if byt != nil {
				byt[k] = byt[i]
			}
			k++
		}
	}
	src, dst, msgs = src[:k], dst[:k], msgs[:k]
	if byt != nil {
		byt = byt[:k]
	}
	labels := make([]string, n)
	for i, u := range d.Units {
		labels[i] = u.Name
		if labels[i] == "" {
			labels[i] = u.ID
		}
	}
	beta := d.Beta
	if beta == 0 {
		beta = clDefaultB
	}
	p := &curvePic{kind: "chordlines", title: d.Title, frameW: srWidth, additive: d.Blend != "alpha", beta: beta,
		gradient: true, grad: [2]string{clFrom, clTo}, src: src, dst: dst, msgs: msgs, bytes: byt, units: labels, tipArrowLast: true}
	if d.Title != "" {
		p.top = drawingTitleBand
	}
	p.w, p.h = srWidth, clHeight
	p.frameH = p.top + p.h + drawingCaptionBand
	total := 0.0
	for _, m := range msgs {
		total += m
	}
	p.caption = fmt.Sprintf("%d units, %s pairs, %s messages · green at the sender, red at the receiver · β = %s",
		n, display.FormatNumber(float64(len(src))), display.FormatNumber(total), strconv.FormatFloat(beta, 'f', -1, 64))
	p.alt = "Chord diagram of bundled lines"
	if d.Title != "" {
		p.alt += " " + strconv.Quote(d.Title)
	}
	p.alt += ": " + p.caption
	cx, cy := p.w/2, p.h/2
	at := func(r, th float64) bundle.Point {
		return bundle.Point{X: cx + r*math.Sin(th), Y: cy - r*math.Cos(th)}
	}
	for u := 0; u < n; u++ {
		a := geo.Arcs[u]
		p.pts = append(p.pts, at(clRadius, (a.In.Start+a.Out.End)/2))
	}
	// Group nodes, ring by ring, then the centre.
	L := len(rings)
	base := make([]int32, L)
	groupOf := make([][]int32, L)
	for r, ring := range rings {
		base[r] = int32(len(p.pts))
		rad := clRadius * (1 - float64(r+1)/float64(L+1))
		g := make([]int32, n)
		for i := range g {
			g[i] = -1
		}
		for k, grp := range ring.Groups {
			p.pts = append(p.pts, at(rad, geo.Rings[r][k].Mid()))
			for i := max(grp.First, 0); i <= grp.Last && i < n; i++ {
				g[i] = int32(k)
			}
		}
		groupOf[r] = g
	}
	centre := int32(len(p.pts))
	p.pts = append(p.pts, bundle.Point{X: cx, Y: cy})
	p.ca, p.cb, p.civ = src, dst, make([]int32, len(src))
	ids := map[string]int32{}
	var ix []int32
	key := make([]byte, 0, 64)
	for i := range src {
		s, t := src[i], dst[i]
		top := -1 // the lowest ring where s and t share a group
		for r := 0; r < L; r++ {
			if groupOf[r][s] >= 0 && groupOf[r][s] == groupOf[r][t] {
				top = r
				break
			}
		}
		ix = ix[:0]
		upTo := L - 1
		if top >= 0 {
			upTo = top
		}
		for r := 0; r <= upTo; r++ {
			if g := groupOf[r][s]; g >= 0 {
				ix = append(ix, base[r]+g)
			}
		}
		downFrom := L - 1
		if top >= 0 {
			downFrom = top - 1
		} else {
			ix = append(ix, centre)
		}
		for r := downFrom; r >= 0; r-- {
			if g := groupOf[r][t]; g >= 0 {
				ix = append(ix, base[r]+g)
			}
		}
		key = key[:0]
		for _, k := range ix {
			key = binary.LittleEndian.AppendUint32(key, uint32(k))
		}
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(p.interiors))
			ids[string(key)] = id
			p.interiors = append(p.interiors, append([]int32(nil), ix...))
		}
		p.civ[i] = id
	}
	// One curve per distinct pair, drawn without a cancellable context,
	// so finish cannot fail.
	_ = p.finish(context.Background(), d.Opacity)
	return p
}

// Curves returns where the plot lies in the picture (px from its top
// left corner) and the control polygon of every curve in px of the plot
// (after β), one per distinct pair sorted by sender, then receiver, as
// drawn. Nil when the data cannot be drawn.
func (v *ChordLinesView) Curves() (left, top float64, polys [][]bundle.Point) {
	if v.Data.validate() != nil {
		return 0, 0, nil
	}
	p := v.Data.layout()
	polys = make([][]bundle.Point, len(p.ca))
	for i := range polys {
		polys[i] = p.poly(i, nil)
	}
	return p.left, p.top, polys
}

// SVG is the diagram as an SVG document, or the reason it cannot be drawn.
func (v *ChordLinesView) SVG() string {
	if err := v.Data.validate(); err != nil {
		return errorSVG(err)
	}
	return v.Data.layout().svgDoc(true)
}

// PNG is the diagram as a PNG, one pixel per px.
func (v *ChordLinesView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *ChordLinesView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *ChordLinesView) figure() figure {
	if err := v.Data.validate(); err != nil {
		return figure{err: err}
	}
	return v.Data.layout().figure()
}

// image draws the static picture (for tests).
func (v *ChordLinesView) image() (*image.RGBA, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.render(1)
}
