package raster

import (
	"fmt"
	"math"
	"strings"
)

const (
	paintNone = iota
	paintColor
	paintCurrent // currentColor
	paintPattern
)

// paint is a fill or stroke value.
type paint struct {
	kind int
	c    rgba
	pat  *node
}

const (
	anchorStart = iota
	anchorMiddle
	anchorEnd
)

// style holds the inherited properties.
type style struct {
	fill, stroke  paint
	fillOpacity   float64
	strokeOpacity float64
	strokeWidth   float64
	dash          []float64
	dashOffset    float64
	linecap       int
	linejoin      int
	miterLimit    float64
	fontSize      float64
	bold          bool
	anchor        int
	letterSpacing float64
	color         rgba
	visible       bool
}

// local holds the properties that do not inherit.
type local struct {
	opacity    float64
	hidden     bool // display="none"
	nonScaling bool // vector-effect="non-scaling-stroke"
	overflow   string
}

func defaultStyle() style {
	black := rgba{a: 1}
	return style{
		fill:          paint{kind: paintColor, c: black},
		fillOpacity:   1,
		strokeOpacity: 1,
		strokeWidth:   1,
		miterLimit:    4,
		fontSize:      16,
		color:         black,
		visible:       true,
	}
}

// decl is one property declaration, from an attribute or the style
// attribute; attr names where it came from for error messages.
type decl struct {
	name, value, attr string
}

// declarations lists n's presentation attributes, then its style
// attribute's declarations, which override them.
func declarations(n *node) []decl {
	var ds []decl
	for _, a := range n.attrs {
		ds = append(ds, decl{a.name, a.value, a.name})
	}
	if s, ok := n.attr("style"); ok {
		for _, item := range strings.Split(s, ";") {
			k, v, ok := strings.Cut(item, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			v = strings.TrimSpace(strings.TrimSuffix(v, "!important"))
			ds = append(ds, decl{strings.ToLower(strings.TrimSpace(k)), v, "style"})
		}
	}
	return ds
}

// cascade computes n's style from its parent's and n's own declarations.
func (r *renderer) cascade(n *node, parent *style) (style, local, error) {
	st := *parent
	lp := local{opacity: 1}
	ds := declarations(n)
	bad := func(d decl, err error) error {
		return r.errAt(n, d.attr, "%v", err)
	}
	// font-size first: em lengths in the other properties depend on it.
	for _, d := range ds {
		if d.name != "font-size" || d.value == "inherit" {
			continue
		}
		l, err := parseLength(d.value)
		if err != nil {
			return st, lp, bad(d, fmt.Errorf("bad font-size %q", d.value))
		}
		v, err := l.resolve(parent.fontSize, parent.fontSize)
		if err != nil || v < 0 {
			return st, lp, bad(d, fmt.Errorf("bad font-size %q", d.value))
		}
		st.fontSize = v
	}
	for _, d := range ds {
		v := d.value
		if v == "inherit" {
			continue
		}
		var err error
		switch d.name {
		case "fill":
			st.fill, err = r.parsePaint(v)
		case "stroke":
			st.stroke, err = r.parsePaint(v)
		case "fill-opacity":
			st.fillOpacity, err = parseOpacity(v)
		case "stroke-opacity":
			st.strokeOpacity, err = parseOpacity(v)
		case "opacity":
			lp.opacity, err = parseOpacity(v)
		case "stroke-width":
			st.strokeWidth, err = parsePositiveLength(v, st.fontSize, "stroke-width")
		case "stroke-dasharray":
			st.dash, err = parseDash(v, st.fontSize)
		case "stroke-dashoffset":
			var l length
			if l, err = parseLength(v); err == nil {
				st.dashOffset, err = l.resolve(st.fontSize, -1)
			}
		case "stroke-linecap":
			st.linecap, err = keyword(v, map[string]int{"butt": capButt, "round": capRound, "square": capSquare})
		case "stroke-linejoin":
			st.linejoin, err = keyword(v, map[string]int{"miter": joinMiter, "miter-clip": joinMiter, "arcs": joinMiter, "round": joinRound, "bevel": joinBevel})
		case "stroke-miterlimit":
			st.miterLimit, err = parseNumber(v)
			if err == nil && st.miterLimit < 1 {
				err = fmt.Errorf("stroke-miterlimit %q is below 1", v)
			}
		case "font-weight":
			var w int
			w, err = keyword(v, map[string]int{"normal": 400, "bold": 700, "bolder": 700, "lighter": 400,
				"100": 100, "200": 200, "300": 300, "400": 400, "500": 500, "600": 600, "700": 700, "800": 800, "900": 900})
			st.bold = w >= 600
		case "text-anchor":
			st.anchor, err = keyword(v, map[string]int{"start": anchorStart, "middle": anchorMiddle, "end": anchorEnd})
		case "letter-spacing":
			if v == "normal" {
				st.letterSpacing = 0
				break
			}
			var l length
			if l, err = parseLength(v); err == nil {
				st.letterSpacing, err = l.resolve(st.fontSize, -1)
			}
		case "color":
			st.color, err = parseColor(v)
		case "visibility":
			var vis int
			vis, err = keyword(v, map[string]int{"visible": 1, "hidden": 0, "collapse": 0})
			st.visible = vis == 1
		case "display":
			lp.hidden = strings.TrimSpace(v) == "none"
		case "vector-effect":
			var ve int
			ve, err = keyword(v, map[string]int{"none": 0, "non-scaling-stroke": 1})
			lp.nonScaling = ve == 1
		case "overflow":
			lp.overflow = strings.TrimSpace(v)
		}
		if err != nil {
			return st, lp, bad(d, err)
		}
	}
	return st, lp, nil
}

func keyword(v string, table map[string]int) (int, error) {
	if k, ok := table[strings.TrimSpace(v)]; ok {
		return k, nil
	}
	return 0, fmt.Errorf("unknown value %q", v)
}

func parsePositiveLength(v string, fontSize float64, what string) (float64, error) {
	l, err := parseLength(v)
	if err != nil {
		return 0, err
	}
	x, err := l.resolve(fontSize, -1)
	if err != nil {
		return 0, err
	}
	if x < 0 {
		return 0, fmt.Errorf("negative %s %q", what, v)
	}
	return x, nil
}

// parseDash parses stroke-dasharray; an odd list is repeated, as SVG says,
// and a list of zeros means a solid line.
func parseDash(v string, fontSize float64) ([]float64, error) {
	if strings.TrimSpace(v) == "none" {
		return nil, nil
	}
	fields := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	var out []float64
	sum := 0.0
	for _, f := range fields {
		x, err := parsePositiveLength(f, fontSize, "dash")
		if err != nil {
			return nil, fmt.Errorf("bad stroke-dasharray %q", v)
		}
		out = append(out, x)
		sum += x
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("bad stroke-dasharray %q", v)
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, nil
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out, nil
}

// parsePaint parses a fill or stroke value: none, currentColor, a colour, or
// url(#id) of a pattern, with an optional fallback colour.
func (r *renderer) parsePaint(v string) (paint, error) {
	t := strings.TrimSpace(v)
	switch strings.ToLower(t) {
	case "none":
		return paint{kind: paintNone}, nil
	case "currentcolor":
		return paint{kind: paintCurrent}, nil
	}
	if strings.HasPrefix(t, "url(") {
		end := strings.IndexByte(t, ')')
		if end < 0 {
			return paint{}, fmt.Errorf("bad paint %q", v)
		}
		ref := strings.Trim(strings.TrimSpace(t[4:end]), `'"`)
		fallback := strings.TrimSpace(t[end+1:])
		if strings.HasPrefix(ref, "#") {
			if p := r.ids[ref[1:]]; p != nil {
				return paint{kind: paintPattern, pat: p}, nil
			}
		}
		if fallback != "" {
			return r.parsePaint(fallback)
		}
		return paint{}, fmt.Errorf("%q names no pattern in this document", ref)
	}
	c, err := parseColor(t)
	if err != nil {
		return paint{}, err
	}
	if c.a == 0 {
		return paint{kind: paintNone}, nil
	}
	return paint{kind: paintColor, c: c}, nil
}
