package views

import (
	"crypto/sha256"
	"encoding/hex"

	"superstep/display"
)

// Picture is an SVG drawing. It is shown as a static PNG <img> (drawn from
// the SVG in Go), which survives sanitizers; when scripts run, the runtime
// swaps in the SVG itself, where elements with a data-tip attribute show it
// on hover. SVG shows what Superstep's views draw: shapes, paths, text,
// transforms, patterns and nested <svg>; an SVG using more (gradients,
// filters, images, CSS) shows the reason as text instead.
type Picture struct {
	SVG string // a complete <svg> element
	Alt string // the text alternative, also the text/plain form
}

// SVG shows an SVG document.
func SVG(svg string) Picture { return Picture{SVG: svg, Alt: "SVG picture"} }

// MIMEBundle implements Renderer: the live picture with its static PNG
// (text/html), and the SVG itself as image/svg+xml, as IPython's SVG
// shows one, for front ends and tools that take SVG.
func (p Picture) MIMEBundle() display.Bundle {
	b := p.figure().MIMEBundle()
	if _, ok := b.Data["text/html"]; ok {
		b.Data["image/svg+xml"] = p.SVG
	}
	return b
}

func (p Picture) figure() figure {
	alt := p.Alt
	if alt == "" {
		alt = "picture"
	}
	return figure{svg: p.SVG, alt: alt, kind: "svg"}
}

// contentID is the element id of a live display: derived from what it
// shows, so that a re-executed notebook stores the same bytes. Two equal
// displays share it; the runtime finds each by the script beside it.
func contentID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "ss-" + hex.EncodeToString(h.Sum(nil)[:12])
}
