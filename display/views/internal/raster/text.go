package raster

import (
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// faces holds the parsed Go Regular and Go Bold fonts. Parsed fonts are
// immutable and safe for concurrent use (each call brings its own
// sfnt.Buffer).
var faces = sync.OnceValues(func() ([2]*sfnt.Font, error) {
	var fs [2]*sfnt.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			return fs, err
		}
		fs[i] = f
	}
	return fs, nil
})

type glyphKey struct {
	bold bool
	g    sfnt.GlyphIndex
}

// glyph returns a glyph's outline in font units (26.6 fixed point, y down).
func (r *renderer) glyph(f *sfnt.Font, bold bool, g sfnt.GlyphIndex, ppem fixed.Int26_6) []sfnt.Segment {
	key := glyphKey{bold, g}
	if s, ok := r.glyphs[key]; ok {
		return s
	}
	segs, err := f.LoadGlyph(&r.fbuf, g, ppem, nil)
	if err != nil {
		segs = nil
	}
	s := append([]sfnt.Segment(nil), segs...)
	r.glyphs[key] = s
	return s
}

// collapseSpace applies SVG's default white-space handling (as browsers do
// it: line breaks and tabs become spaces, runs of spaces become one,
// leading and trailing spaces go); with preserve, only the replacement.
func collapseSpace(s string, preserve bool) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
	if preserve {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// textPosition reads a single x, y, dx or dy length; lists of per-glyph
// positions are refused.
func (r *renderer) textPosition(n *node, name string, st *style) (float64, error) {
	v, ok := n.attr(name)
	if !ok {
		return 0, nil
	}
	if len(strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })) > 1 {
		return 0, r.errAt(n, name, "lists of glyph positions are not supported")
	}
	return r.lengthAttr(n, name, st, -1, 0)
}

// textPath lays out a <text> element's one line of text and returns the
// glyph outlines as a path in user space: x and y are the start of the
// baseline (moved by dx and dy), text-anchor shifts the run by its measured
// advance (kerning and letter-spacing included). Glyph outlines go through
// the same path machinery as shapes, so any transform renders exactly.
func (r *renderer) textPath(n *node, st *style) ([]seg, error) {
	space, _ := n.attr("http://www.w3.org/XML/1998/namespace:space")
	text := collapseSpace(string(n.text), space == "preserve")
	var pos [4]float64
	for i, name := range []string{"x", "y", "dx", "dy"} {
		v, err := r.textPosition(n, name, st)
		if err != nil {
			return nil, err
		}
		pos[i] = v
	}
	if text == "" || !(st.fontSize > 0) {
		return nil, nil
	}
	fs, err := faces()
	if err != nil {
		return nil, r.errAt(n, "", "loading the font: %v", err)
	}
	f := fs[0]
	if st.bold {
		f = fs[1]
	}
	// At ppem = unitsPerEm the outlines come in exact font units.
	ppem := fixed.Int26_6(f.UnitsPerEm()) << 6
	k := st.fontSize / float64(f.UnitsPerEm()) / 64 // user units per 26.6 font unit
	type placed struct {
		g sfnt.GlyphIndex
		x float64
	}
	var glyphs []placed
	pen := 0.0
	var prev sfnt.GlyphIndex
	for i, ru := range []rune(text) {
		g, err := f.GlyphIndex(&r.fbuf, ru)
		if err != nil {
			g = 0
		}
		if i > 0 {
			if kern, err := f.Kern(&r.fbuf, prev, g, ppem, font.HintingNone); err == nil {
				pen += float64(kern) * k
			}
			pen += st.letterSpacing
		}
		glyphs = append(glyphs, placed{g, pen})
		if adv, err := f.GlyphAdvance(&r.fbuf, g, ppem, font.HintingNone); err == nil {
			pen += float64(adv) * k
		}
		prev = g
	}
	x0, y0 := pos[0]+pos[2], pos[1]+pos[3]
	switch st.anchor {
	case anchorMiddle:
		x0 -= pen / 2
	case anchorEnd:
		x0 -= pen
	}
	var b pathBuilder
	for _, gl := range glyphs {
		ox := x0 + gl.x
		open := false
		for _, s := range r.glyph(f, st.bold, gl.g, ppem) {
			p := func(i int) pt {
				return pt{ox + float64(s.Args[i].X)*k, y0 + float64(s.Args[i].Y)*k}
			}
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				if open {
					b.close()
				}
				b.moveTo(p(0))
				open = true
			case sfnt.SegmentOpLineTo:
				b.lineTo(p(0))
			case sfnt.SegmentOpQuadTo:
				b.quadTo(p(0), p(1))
			case sfnt.SegmentOpCubeTo:
				b.cubeTo(p(0), p(1), p(2))
			}
		}
		if open {
			b.close()
		}
	}
	return b.segs, nil
}
