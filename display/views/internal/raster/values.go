package raster

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// scanner reads SVG's number lists: path data, points, viewBox, transform
// arguments, dash arrays.
type scanner struct {
	s string
	i int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (sc *scanner) skipSpace() {
	for sc.i < len(sc.s) && isSpace(sc.s[sc.i]) {
		sc.i++
	}
}

// skipSep skips white space with at most one comma in it.
func (sc *scanner) skipSep() {
	sc.skipSpace()
	if sc.i < len(sc.s) && sc.s[sc.i] == ',' {
		sc.i++
		sc.skipSpace()
	}
}

func (sc *scanner) done() bool { return sc.i >= len(sc.s) }

// startsNumber reports whether a number begins at the current position.
func (sc *scanner) startsNumber() bool {
	if sc.i >= len(sc.s) {
		return false
	}
	c := sc.s[sc.i]
	return isDigit(c) || c == '-' || c == '+' || c == '.'
}

// number reads one number in SVG's grammar (sign, digits, fraction,
// exponent). "1.5.5" is two numbers, "1-2" too. It fails on anything else,
// and on values that do not fit a float64.
func (sc *scanner) number() (float64, error) {
	start := sc.i
	s := sc.s
	i := sc.i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, fmt.Errorf("expected a number at %d", start)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil || !finite(v) {
		return 0, fmt.Errorf("number %q at %d is out of range", s[start:i], start)
	}
	sc.i = i
	return v, nil
}

// parseNumber parses a whole attribute value as one number.
func parseNumber(s string) (float64, error) {
	sc := scanner{s: strings.TrimSpace(s)}
	v, err := sc.number()
	if err != nil || !sc.done() {
		return 0, fmt.Errorf("bad number %q", s)
	}
	return v, nil
}

// parseNumbers parses a list of numbers separated by white space and/or
// commas.
func parseNumbers(s string) ([]float64, error) {
	sc := scanner{s: s}
	var out []float64
	sc.skipSpace()
	for !sc.done() {
		v, err := sc.number()
		if err != nil {
			return nil, fmt.Errorf("bad number list %q: %v", s, err)
		}
		out = append(out, v)
		sc.skipSep()
	}
	return out, nil
}

var errPercent = errors.New("percentages are not supported here")

// length is a parsed SVG length: a value in px, or a fraction of an em or of
// a reference size, resolved by the caller.
type length struct {
	v    float64
	unit byte // 0: px, 'e': em, '%': percent
}

// parseLength parses a length: a number with an optional unit (px, em, %,
// pt, pc, in, cm, mm).
func parseLength(s string) (length, error) {
	t := strings.TrimSpace(s)
	sc := scanner{s: t}
	v, err := sc.number()
	if err != nil {
		return length{}, fmt.Errorf("bad length %q", s)
	}
	unit := strings.ToLower(t[sc.i:])
	switch unit {
	case "", "px":
		return length{v: v}, nil
	case "em":
		return length{v: v, unit: 'e'}, nil
	case "%":
		return length{v: v, unit: '%'}, nil
	case "pt":
		return length{v: v * 4 / 3}, nil
	case "pc":
		return length{v: v * 16}, nil
	case "in":
		return length{v: v * 96}, nil
	case "cm":
		return length{v: v * 96 / 2.54}, nil
	case "mm":
		return length{v: v * 96 / 25.4}, nil
	}
	return length{}, fmt.Errorf("bad length %q (unit %q is not supported)", s, unit)
}

// resolve turns l into px: em against fontSize, percentages against ref
// (ref < 0 means percentages are not allowed).
func (l length) resolve(fontSize, ref float64) (float64, error) {
	switch l.unit {
	case 'e':
		return l.v * fontSize, nil
	case '%':
		if ref < 0 {
			return 0, errPercent
		}
		return l.v / 100 * ref, nil
	}
	return l.v, nil
}

// rgba is a colour with straight (not premultiplied) alpha in [0, 1].
type rgba struct {
	r, g, b uint8
	a       float64
}

// parseColor parses the colour syntaxes the views use: #rgb, #rgba,
// #rrggbb, #rrggbbaa, rgb(r,g,b), rgba(r,g,b,a) (components as numbers or
// percentages) and the CSS named colours, transparent included.
func parseColor(s string) (rgba, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	bad := fmt.Errorf("bad colour %q", s)
	switch {
	case strings.HasPrefix(t, "#"):
		h := t[1:]
		var v [8]uint8
		for i := 0; i < len(h); i++ {
			c := h[i]
			switch {
			case c >= '0' && c <= '9':
				c -= '0'
			case c >= 'a' && c <= 'f':
				c -= 'a' - 10
			default:
				return rgba{}, bad
			}
			if i < 8 {
				v[i] = c
			}
		}
		switch len(h) {
		case 3, 4:
			c := rgba{r: v[0] * 17, g: v[1] * 17, b: v[2] * 17, a: 1}
			if len(h) == 4 {
				c.a = float64(v[3]*17) / 255
			}
			return c, nil
		case 6, 8:
			c := rgba{r: v[0]<<4 | v[1], g: v[2]<<4 | v[3], b: v[4]<<4 | v[5], a: 1}
			if len(h) == 8 {
				c.a = float64(v[6]<<4|v[7]) / 255
			}
			return c, nil
		}
		return rgba{}, bad
	case strings.HasPrefix(t, "rgb(") || strings.HasPrefix(t, "rgba("):
		open := strings.IndexByte(t, '(')
		if !strings.HasSuffix(t, ")") {
			return rgba{}, bad
		}
		parts := strings.Split(t[open+1:len(t)-1], ",")
		if len(parts) != 3 && len(parts) != 4 {
			return rgba{}, bad
		}
		var ch [3]uint8
		for i := 0; i < 3; i++ {
			p := strings.TrimSpace(parts[i])
			pct := strings.HasSuffix(p, "%")
			v, err := parseNumber(strings.TrimSuffix(p, "%"))
			if err != nil {
				return rgba{}, bad
			}
			if pct {
				v = v * 255 / 100
			}
			ch[i] = uint8(math.Round(math.Max(0, math.Min(255, v))))
		}
		c := rgba{r: ch[0], g: ch[1], b: ch[2], a: 1}
		if len(parts) == 4 {
			a, err := parseOpacity(parts[3])
			if err != nil {
				return rgba{}, bad
			}
			c.a = a
		}
		return c, nil
	case t == "transparent":
		return rgba{}, nil
	}
	if v, ok := namedColors[t]; ok {
		return rgba{r: uint8(v >> 16), g: uint8(v >> 8), b: uint8(v), a: 1}, nil
	}
	return rgba{}, bad
}

// parseOpacity parses an opacity (a number or a percentage), clamped to
// [0, 1] as CSS does.
func parseOpacity(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if strings.HasSuffix(t, "%") {
		t, scale = t[:len(t)-1], 0.01
	}
	v, err := parseNumber(t)
	if err != nil {
		return 0, fmt.Errorf("bad opacity %q", s)
	}
	return math.Max(0, math.Min(1, v*scale)), nil
}

// parseTransform parses a transform list: matrix, translate, scale, rotate
// (with or without a centre), skewX and skewY.
func parseTransform(s string) (mat, error) {
	m := identity
	sc := scanner{s: s}
	sc.skipSep()
	for !sc.done() {
		start := sc.i
		for sc.i < len(s) && (s[sc.i] >= 'a' && s[sc.i] <= 'z' || s[sc.i] >= 'A' && s[sc.i] <= 'Z') {
			sc.i++
		}
		name := s[start:sc.i]
		sc.skipSpace()
		if name == "" || sc.done() || s[sc.i] != '(' {
			return m, fmt.Errorf("bad transform at %d", start)
		}
		sc.i++
		var args []float64
		sc.skipSpace()
		for !sc.done() && s[sc.i] != ')' {
			v, err := sc.number()
			if err != nil {
				return m, fmt.Errorf("bad transform: %v", err)
			}
			args = append(args, v)
			sc.skipSep()
		}
		if sc.done() {
			return m, fmt.Errorf("bad transform: missing ')' after %s", name)
		}
		sc.i++
		n := len(args)
		argErr := func() error {
			want := map[string]string{
				"matrix": "6", "translate": "1 or 2", "scale": "1 or 2", "rotate": "1 or 3", "skewX": "1", "skewY": "1",
			}[name]
			return fmt.Errorf("bad transform: %s takes %s arguments, not %d", name, want, n)
		}
		var t mat
		switch name {
		case "matrix":
			if n != 6 {
				return m, argErr()
			}
			t = mat{args[0], args[1], args[2], args[3], args[4], args[5]}
		case "translate":
			if n != 1 && n != 2 {
				return m, argErr()
			}
			args = append(args, 0)
			t = translate(args[0], args[1])
		case "scale":
			if n != 1 && n != 2 {
				return m, argErr()
			}
			if n == 1 {
				args = append(args, args[0])
			}
			t = scaling(args[0], args[1])
		case "rotate":
			switch n {
			case 1:
				t = rotation(args[0])
			case 3:
				t = translate(args[1], args[2]).mul(rotation(args[0])).mul(translate(-args[1], -args[2]))
			default:
				return m, argErr()
			}
		case "skewX":
			if n != 1 {
				return m, argErr()
			}
			t = mat{a: 1, c: math.Tan(args[0] * math.Pi / 180), d: 1}
		case "skewY":
			if n != 1 {
				return m, argErr()
			}
			t = mat{a: 1, b: math.Tan(args[0] * math.Pi / 180), d: 1}
		default:
			return m, fmt.Errorf("bad transform: unknown function %q", name)
		}
		m = m.mul(t)
		sc.skipSep()
	}
	if !m.finite() {
		return m, errors.New("bad transform: the matrix overflows")
	}
	return m, nil
}

// namedColors is CSS Color Module Level 4's table of named colours.
var namedColors = map[string]uint32{
	"aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4,
	"azure": 0xf0ffff, "beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000,
	"blanchedalmond": 0xffebcd, "blue": 0x0000ff, "blueviolet": 0x8a2be2, "brown": 0xa52a2a,
	"burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00, "chocolate": 0xd2691e,
	"coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
	"cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b,
	"darkgray": 0xa9a9a9, "darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b,
	"darkmagenta": 0x8b008b, "darkolivegreen": 0x556b2f, "darkorange": 0xff8c00, "darkorchid": 0x9932cc,
	"darkred": 0x8b0000, "darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f, "darkslateblue": 0x483d8b,
	"darkslategray": 0x2f4f4f, "darkslategrey": 0x2f4f4f, "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3,
	"deeppink": 0xff1493, "deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969,
	"dodgerblue": 0x1e90ff, "firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22,
	"fuchsia": 0xff00ff, "gainsboro": 0xdcdcdc, "ghostwhite": 0xf8f8ff, "gold": 0xffd700,
	"goldenrod": 0xdaa520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xadff2f,
	"grey": 0x808080, "honeydew": 0xf0fff0, "hotpink": 0xff69b4, "indianred": 0xcd5c5c,
	"indigo": 0x4b0082, "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa,
	"lavenderblush": 0xfff0f5, "lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6,
	"lightcoral": 0xf08080, "lightcyan": 0xe0ffff, "lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3,
	"lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1, "lightsalmon": 0xffa07a,
	"lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899, "lightslategrey": 0x778899,
	"lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0, "lime": 0x00ff00, "limegreen": 0x32cd32,
	"linen": 0xfaf0e6, "magenta": 0xff00ff, "maroon": 0x800000, "mediumaquamarine": 0x66cdaa,
	"mediumblue": 0x0000cd, "mediumorchid": 0xba55d3, "mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371,
	"mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc, "mediumvioletred": 0xc71585,
	"midnightblue": 0x191970, "mintcream": 0xf5fffa, "mistyrose": 0xffe4e1, "moccasin": 0xffe4b5,
	"navajowhite": 0xffdead, "navy": 0x000080, "oldlace": 0xfdf5e6, "olive": 0x808000,
	"olivedrab": 0x6b8e23, "orange": 0xffa500, "orangered": 0xff4500, "orchid": 0xda70d6,
	"palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98, "paleturquoise": 0xafeeee, "palevioletred": 0xdb7093,
	"papayawhip": 0xffefd5, "peachpuff": 0xffdab9, "peru": 0xcd853f, "pink": 0xffc0cb,
	"plum": 0xdda0dd, "powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399,
	"red": 0xff0000, "rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513,
	"salmon": 0xfa8072, "sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee,
	"sienna": 0xa0522d, "silver": 0xc0c0c0, "skyblue": 0x87ceeb, "slateblue": 0x6a5acd,
	"slategray": 0x708090, "slategrey": 0x708090, "snow": 0xfffafa, "springgreen": 0x00ff7f,
	"steelblue": 0x4682b4, "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8,
	"tomato": 0xff6347, "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3,
	"white": 0xffffff, "whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
}
