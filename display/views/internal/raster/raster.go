// Package raster draws the SVG that Superstep's own views write into a
// bitmap, so that every notebook picture can also travel as a PNG:
// nbconvert --sanitize-html keeps data:image/png sources and empties
// data:image/svg+xml ones (DESIGN.md, principle 3).
//
// It is not a general SVG renderer. It knows the subset the views emit and
// refuses the rest out loud: an element it does not know is an error naming
// the element and its place in the source, never silently dropped, and so
// is a value it cannot read (a path command, a number, a colour). What it
// knows:
//
//   - elements: svg (the root, and nested viewports with viewBox and
//     preserveAspectRatio, clipped unless overflow is visible), g, defs,
//     pattern (patternUnits="userSpaceOnUse", patternTransform; tiled),
//     rect (with rx, ry), circle, ellipse, line, polyline, polygon, path
//     (every SVG 1.1 command, absolute and relative; elliptical arcs are
//     converted to centre form exactly as the specification says) and text
//     (one line: x, y, dx, dy, text-anchor, font-size, font-weight,
//     letter-spacing; no tspan). title, desc, metadata and script are
//     skipped with their content.
//   - properties, as attributes or in a style attribute, inherited as SVG
//     inherits them: fill, stroke (colours, none, currentColor,
//     url(#pattern)), fill-opacity, stroke-opacity, opacity (group opacity
//     is composited as a layer), stroke-width, stroke-dasharray,
//     stroke-dashoffset, stroke-linecap, stroke-linejoin,
//     stroke-miterlimit, vector-effect="non-scaling-stroke", transform,
//     display, visibility, color.
//   - colours: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), transparent
//     and the CSS named colours.
//
// What it refuses to know: style sheets and classes (<style> is an
// unknown element; class is ignored), gradients, clip paths, masks,
// filters, markers, images, use, tspan, textPath, foreignObject, fill-rule
// evenodd (every fill is nonzero), objectBoundingBox units, percentages
// outside a nested svg's geometry, and font families: all text is set in
// Go Regular or Go Bold (golang.org/x/image/font/gofont), unhinted, with
// kerning. Attributes it does not know are ignored.
//
// Rendering is pure Go (no cgo) and deterministic. Shapes are flattened to
// within 0.2 device pixels, their coordinates rounded to 1/256 pixel, then
// rasterized (anti-aliased, nonzero winding) by golang.org/x/image/vector's
// integer accumulator in tiles of at most 512 pixels, and composited
// source-over in integer arithmetic onto a transparent canvas. So the same
// document gives the same pixels wherever it is rendered: the integer
// stages are exact, and the floating-point geometry before them reaches the
// rasterizer rounded to 1/256 pixel (an architecture that fuses
// multiply-adds differently could only disagree about a coordinate lying
// within a rounding error of such a step).
package raster

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font/sfnt"
)

// maxPixels bounds the image a document may ask for: 64 Mpx.
const maxPixels = 64 << 20

// Render draws svg at scale pixels per SVG user unit (1 = the svg's
// width/height attributes in px). The image is w·scale × h·scale pixels
// (rounded up), transparent where nothing is drawn. It fails, naming what
// and where, on malformed XML, on elements and values outside the subset
// described in the package documentation, and on absurd sizes (more than
// 64 Mpx, or none).
func Render(svg []byte, scale float64) (*image.RGBA, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("raster: scale %v is not a positive number", scale)
	}
	root, err := parse(svg)
	if err != nil {
		return nil, err
	}
	r := &renderer{
		src:    svg,
		ids:    map[string]*node{},
		scale:  scale,
		glyphs: map[glyphKey][]sfnt.Segment{},
		active: map[*node]bool{},
		tiles:  map[tileKey]*tileImage{},
	}
	r.indexPatterns(root)
	w, h, err := r.rootSize(root)
	if err != nil {
		return nil, err
	}
	pw, ph, err := pixelSize(w, h, scale)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))

	def := defaultStyle()
	st, lp, err := r.cascade(root, &def)
	if err != nil {
		return nil, err
	}
	m := scaling(scale, scale)
	vp := viewport{w, h}
	vb, ok, err := r.parseViewBox(root)
	if err != nil {
		return nil, err
	}
	if ok {
		par, _ := root.attr("preserveAspectRatio")
		t, err := viewBoxTransform(vb, w, h, par)
		if err != nil {
			return nil, r.errAt(root, "preserveAspectRatio", "%v", err)
		}
		m = m.mul(t)
		vp = viewport{vb[2], vb[3]}
	}
	if t, ok := root.attr("transform"); ok {
		tm, err := parseTransform(t)
		if err != nil {
			return nil, r.errAt(root, "transform", "%v", err)
		}
		m = m.mul(tm)
	}
	if lp.hidden {
		return img, nil
	}
	err = r.group(img, lp.opacity, nil, func(dst *image.RGBA) error {
		return r.drawKids(dst, root, &st, m, vp, 0)
	})
	if err != nil {
		return nil, err
	}
	return img, nil
}

// PNG is Render encoded as PNG (at the best compression).
func PNG(svg []byte, scale float64) ([]byte, error) {
	img, err := Render(svg, scale)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("raster: encoding PNG: %v", err)
	}
	return buf.Bytes(), nil
}

// Size returns the document's width and height in px: the root's width and
// height attributes, else its viewBox's (one missing attribute follows from
// the other and the viewBox's aspect ratio).
func Size(svg []byte) (w, h float64, err error) {
	root, err := parseRoot(svg)
	if err != nil {
		return 0, 0, err
	}
	r := &renderer{src: svg}
	return r.rootSize(root)
}

// parseRoot reads only the root element's start tag.
func parseRoot(src []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	for {
		off := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			return nil, posError(src, len(src), "no <svg> element")
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, posError(src, int(d.InputOffset()), "XML syntax error: %s", se.Msg)
			}
			return nil, posError(src, int(d.InputOffset()), "XML error: %v", err)
		}
		if t, ok := tok.(xml.StartElement); ok {
			if t.Name.Local != "svg" || t.Name.Space != "" && t.Name.Space != svgNS {
				return nil, posError(src, off, "the root element is <%s>, not <svg>", t.Name.Local)
			}
			n := &node{name: "svg", off: off}
			for _, a := range t.Attr {
				if a.Name.Space == "" {
					n.attrs = append(n.attrs, attr{a.Name.Local, a.Value})
				}
			}
			return n, nil
		}
	}
}

// rootSize reads the root's size in px.
func (r *renderer) rootSize(root *node) (w, h float64, err error) {
	st := defaultStyle()
	vb, hasVB, err := r.parseViewBox(root)
	if err != nil {
		return 0, 0, err
	}
	_, hasW := root.attr("width")
	_, hasH := root.attr("height")
	if w, err = r.lengthAttr(root, "width", &st, -1, 0); err != nil {
		return 0, 0, err
	}
	if h, err = r.lengthAttr(root, "height", &st, -1, 0); err != nil {
		return 0, 0, err
	}
	switch {
	case hasW && hasH:
	case !hasVB:
		return 0, 0, r.errAt(root, "", "the root has neither width and height nor a viewBox")
	case hasW:
		h = w * vb[3] / vb[2]
	case hasH:
		w = h * vb[2] / vb[3]
	default:
		w, h = vb[2], vb[3]
	}
	if !(w > 0) || !(h > 0) || !finite(w) || !finite(h) {
		return 0, 0, r.errAt(root, "", "the size %g×%g px is not positive", w, h)
	}
	return w, h, nil
}

// pixelSize is the image size for a w×h px document at scale.
func pixelSize(w, h, scale float64) (int, int, error) {
	px := w * scale * h * scale
	if !(px <= maxPixels) {
		return 0, 0, fmt.Errorf("raster: %g×%g px at scale %g is %.0f pixels, more than the limit of %d (64 Mpx)", w, h, scale, px, maxPixels)
	}
	// A hair of tolerance, so that 480 × 1.1 does not round up to 529.
	pw := int(math.Ceil(w*scale - 1e-6))
	ph := int(math.Ceil(h*scale - 1e-6))
	if pw < 1 || ph < 1 {
		return 0, 0, fmt.Errorf("raster: %g×%g px at scale %g is less than one pixel", w, h, scale)
	}
	return pw, ph, nil
}
