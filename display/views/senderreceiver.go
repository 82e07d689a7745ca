package views

import (
	"context"
	"fmt"
	"image"
	"math"
	"strconv"

	"superstep/algo/bundle"
	"superstep/display"
)

// The sender/receiver diagram (paper 003, Fig. 10), by concern: this file
// holds the data, the view and its layout; senderreceiver_curves.go holds
// what it shares with ChordLines (drawing, opacity, spec).

// SenderReceiverData is who sent messages to whom.
type SenderReceiverData struct {
	Title string
	// Units are the unit labels (processes), top to bottom.
	Units []string
	// Src and Dst are one entry per pair (or per message: entries with the
	// same pair add up), unit indices into Units.
	Src, Dst []int32
	// Weight is the messages of each entry (nil: 1 each); Bytes their
	// bytes (optional, shown on hover).
	Weight, Bytes []float64
	// Cols and Rows are the routing grid between the columns (0: 8 each;
	// Rows at most the number of units).
	Cols, Rows int
	// Blend is "additive" (the default: light adds up on a dark ground,
	// bundles glow) or "alpha" (curves composited over a white ground).
	Blend string
	// Opacity is the opacity of the heaviest curve (0: automatic, from the
	// weights and how the curves overlap).
	Opacity float64
}

// SenderReceiverView is a sender/receiver diagram.
type SenderReceiverView struct {
	Data SenderReceiverData
}

// SenderReceiver shows who sends to whom: senders in a column on the left,
// receivers on the right, one curve per pair (a uniform clamped quadratic
// B-spline through the cells of its route on a Cols×Rows grid, so that
// pairs between the same groups of rows bundle), coloured by the sender
// (the categorical Palette for up to 10 units, a hue ramp beyond). Heavier
// pairs are brighter. Hovering a curve shows "N messages, B bytes, P→Q";
// live, a toggle switches between additive and alpha blending and a slider
// sets the opacity. Up to CurveSVGMax curves are SVG paths; more are
// drawn on a canvas, the static picture in Go.
func SenderReceiver(d SenderReceiverData) *SenderReceiverView {
	return &SenderReceiverView{Data: d}
}

const (
	srWidth    = 640.0
	srPad      = 6.0
	srMaxLabel = 64 // units up to this many are labelled
	srRowPx    = 14.0
)

func (d SenderReceiverData) grid() (cols, rows int) {
	cols, rows = d.Cols, d.Rows
	if cols == 0 {
		cols = 8
	}
	if rows == 0 {
		rows = min(8, max(1, len(d.Units)))
	}
	return cols, rows
}

func (d SenderReceiverData) validate() error {
	if err := checkPairs("SenderReceiver", len(d.Units), d.Src, d.Dst, d.Weight, d.Bytes); err != nil {
		return err
	}
	cols, rows := d.grid()
	if cols < 1 || cols > 250 {
		return fmt.Errorf("views.SenderReceiver: %d grid columns (want 1..250)", cols)
	}
	if rows < 1 || (len(d.Units) > 0 && rows > len(d.Units)) {
		return fmt.Errorf("views.SenderReceiver: %d grid rows for %d units (want 1..units)", rows, len(d.Units))
	}
	return checkBlend("SenderReceiver", d.Blend, d.Opacity)
}

// sourceColors returns the colour table and each unit's entry: the
// Palette for up to 10 units, else up to 64 steps of a hue ramp (bright
// enough on the dark ground) over the unit index.
func sourceColors(n int) (table []string, of func(u int32) int32) {
	if n <= 10 {
		return Palette(max(n, 1)), func(u int32) int32 { return u }
	}
	k := min(n, 64)
	for i := 0; i < k; i++ {
		table = append(table, oklchToHex(0.74, 0.15, 20+300*float64(i)/float64(k-1)))
	}
	return table, func(u int32) int32 { return int32(int(u) * k / n) }
}

// layout computes the picture.
func (d SenderReceiverData) layout() (*curvePic, error) {
	n := len(d.Units)
	cols, rows := d.grid()
	src, dst, msgs, byt := pairs(d.Src, d.Dst, d.Weight, d.Bytes)
	p := &curvePic{kind: "senderreceiver", title: d.Title, frameW: srWidth, additive: d.Blend != "alpha", beta: 1,
		src: src, dst: dst, msgs: msgs, bytes: byt, units: d.Units}
	if d.Title != "" {
		p.top = drawingTitleBand
	}
	lm := 0.0
	if n <= srMaxLabel {
		for _, u := range d.Units {
			lm = max(lm, textWidth(u, smallFont))
		}
		lm = min(math.Ceil(lm)+8, 80)
	}
	p.left, p.w = lm, srWidth-2*lm
	p.h = min(max(float64(n)*srRowPx, 240), 560)
	p.frameH = p.top + p.h + drawingCaptionBand
	total := 0.0
	for _, m := range msgs {
		total += m
	}
	p.caption = fmt.Sprintf("%d units, %s pairs, %s messages · senders left, receivers right, coloured by sender · %d×%d grid",
		n, display.FormatNumber(float64(len(src))), display.FormatNumber(total), cols, rows)
	p.alt = "Sender/receiver diagram"
	if d.Title != "" {
		p.alt += " " + strconv.Quote(d.Title)
	}
	p.alt += ": " + p.caption
	var table []string
	var of func(int32) int32
	table, of = sourceColors(n)
	p.colors = table
	X := func(x float64) float64 { return srPad + x*(p.w-2*srPad) }
	Y := func(y float64) float64 {
		if n == 0 {
			return p.h / 2
		}
		return srPad + (y+0.5)*(p.h-2*srPad)/float64(n)
	}
	if n <= srMaxLabel && n > 0 {
		p.decor = func(w *svgw) {
			ink := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), inkColor)
			// A label fits its margin (capped at 80 px; "Master thread
			// (rank 10)" ran out of the picture), a little more narrowly
			// than textWidth estimates, so that a wider font fits too;
			// the curves' hover text names units in full.
			for u, s := range d.Units {
				y := p.top + Y(float64(u)) + 3.5
				shown := fitText(s, p.left-8, 1.12*smallFont)
				w.text(p.left-4, y, shown, ink+` text-anchor="end"`+cutTip(s, shown))
				w.text(p.left+p.w+4, y, shown, ink+cutTip(s, shown))
			}
		}
	}
	for u := 0; u < n; u++ {
		p.pts = append(p.pts, bundle.Point{X: X(0), Y: Y(float64(u))})
	}
	for u := 0; u < n; u++ {
		p.pts = append(p.pts, bundle.Point{X: X(1), Y: Y(float64(u))})
	}
	if n > 0 {
		sr, err := bundle.NewSenderReceiver(n, cols, rows, src, dst, nil)
		if err != nil {
			return nil, fmt.Errorf("views.SenderReceiver: %w", err)
		}
		base := int32(len(p.pts))
		for _, q := range sr.Points {
			p.pts = append(p.pts, bundle.Point{X: X(q.X), Y: Y(q.Y)})
		}
		for r := range sr.FromRow {
			ix := make([]int32, cols)
			for k := range ix {
				ix[k] = base + int32(r*cols+k)
			}
			p.interiors = append(p.interiors, ix)
		}
		p.ca, p.cb, p.civ, p.ci = src, make([]int32, len(src)), sr.EdgeRoute, make([]int32, len(src))
		p.dstOff = int32(n)
		for i := range src {
			p.cb[i] = int32(n) + dst[i]
			p.ci[i] = of(src[i])
		}
	}
	// Drawing here is not cancellable: the curves are few next to a
	// timeline's (one per distinct pair).
	if err := p.finish(context.Background(), d.Opacity); err != nil {
		return nil, err
	}
	return p, nil
}

// Curves returns where the plot lies in the picture (px from its top
// left corner) and the control polygon of every curve in px of the plot
// (after β), one per distinct pair sorted by sender, then receiver, as
// drawn. Nil when the data cannot be drawn.
func (v *SenderReceiverView) Curves() (left, top float64, polys [][]bundle.Point) {
	if v.Data.validate() != nil {
		return 0, 0, nil
	}
	p, err := v.Data.layout()
	if err != nil {
		return 0, 0, nil
	}
	polys = make([][]bundle.Point, len(p.ca))
	for i := range polys {
		polys[i] = p.poly(i, nil)
	}
	return p.left, p.top, polys
}

// SVG is the diagram as an SVG document (each curve a path with its hover
// text in data-tip), or the reason it cannot be drawn.
func (v *SenderReceiverView) SVG() string {
	if err := v.Data.validate(); err != nil {
		return errorSVG(err)
	}
	p, err := v.Data.layout()
	if err != nil {
		return errorSVG(err)
	}
	return p.svgDoc(true)
}

// PNG is the diagram as a PNG, one pixel per px.
func (v *SenderReceiverView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *SenderReceiverView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *SenderReceiverView) figure() figure {
	if err := v.Data.validate(); err != nil {
		return figure{err: err}
	}
	p, err := v.Data.layout()
	if err != nil {
		return figure{err: err}
	}
	return p.figure()
}

// image draws the static picture (for tests).
func (v *SenderReceiverView) image() (*image.RGBA, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.render(1)
}
