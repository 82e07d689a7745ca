package views

import (
	"fmt"
	"html"
	"math"
	"reflect"
	"strconv"
	"strings"

	"superstep/display"
)

// Shared pieces of the drawn views (trend, chord, treemap, dashboard): an
// SVG writer, number formats and text measures. The same numbers go into the
// static SVG (drawn here) and into the spec the browser runtime draws from.

const (
	fontSize    = 11.0 // px, labels
	smallFont   = 10.0 // px, axis labels
	titleFont   = 13.0 // px, view titles
	boldFont    = 14.3 // px: a bold titleFont's width as textWidth estimates it
	charWidth   = 0.58 // average advance of a sans-serif glyph, in ems
	inkColor    = "#222222"
	mutedInk    = "#666666"
	gridColor   = "#dddddd"
	hatchStroke = "rgba(0,0,0,0.45)"
)

// svgw writes SVG text.
type svgw struct{ strings.Builder }

func (w *svgw) f(format string, args ...any) { fmt.Fprintf(&w.Builder, format, args...) }

// open starts an <svg> document of the given size, with the in-traffic hatch
// pattern defined under id hatchID.
func (w *svgw) open(width, height float64, hatchID string) {
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(width), n2(height), n2(width), n2(height), n2(fontSize))
	w.f(`<defs>%s</defs>`, hatchPattern(hatchID))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(width), n2(height))
}

func (w *svgw) close() { w.WriteString(`</svg>`) }

// text writes a <text> element; extra holds further attributes.
func (w *svgw) text(x, y float64, s, extra string) {
	w.f(`<text x="%s" y="%s"%s>%s</text>`, n2(x), n2(y), extra, html.EscapeString(s))
}

// hatchPattern is the texture that darkens incoming traffic (GiViP's
// "regular texture"): dark diagonal lines over the unit's own colour.
func hatchPattern(id string) string {
	return fmt.Sprintf(`<pattern id="%s" patternUnits="userSpaceOnUse" width="4" height="4" patternTransform="rotate(45)">`+
		`<rect width="4" height="4" fill="rgba(0,0,0,0.12)"/><line x1="0" y1="0" x2="0" y2="4" stroke="%s" stroke-width="1.6"/></pattern>`,
		id, hatchStroke)
}

// legend writes the key of out (solid) and in (hatched) traffic with its
// baseline at y, then note (the runtime's legend).
func legend(w *svgw, x, y float64, hatch, note string) {
	small := fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk)
	w.f(`<rect x="%s" y="%s" width="10" height="10" fill="#999999"/>`, n2(x), n2(y-9))
	w.text(x+13, y, "out", small)
	w.f(`<rect x="%s" y="%s" width="10" height="10" fill="#999999"/><rect x="%s" y="%s" width="10" height="10" fill="url(#%s)"/>`,
		n2(x+40), n2(y-9), n2(x+40), n2(y-9), hatch)
	w.text(x+53, y, "in"+note, small)
}

// n2 formats a coordinate with at most two decimals.
func n2(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "0"
	}
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// textWidth estimates the width in px of s in a sans-serif font of size px.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * charWidth
}

// fitText shortens s with an ellipsis to fit width px, or returns "".
func fitText(s string, width, size float64) string {
	if textWidth(s, size) <= width {
		return s
	}
	r := []rune(s)
	for k := len(r) - 1; k >= 2; k-- {
		t := string(r[:k]) + "…"
		if textWidth(t, size) <= width {
			return t
		}
	}
	return ""
}

// cutTip is the hover text of a label cut to fit: the attribute that
// shows its full text (data-tip, the runtime's tooltip), or "" when the
// label is whole.
func cutTip(full, shown string) string {
	if shown == full {
		return ""
	}
	return ` data-tip="` + html.EscapeString(full) + `"`
}

// fitLabel is s if it fits width px, else s shortened with an ellipsis if
// that keeps most of it (60%, at least 4 characters), else "": a label cut
// to "wo…" says nothing.
func fitLabel(s string, width, size float64) string {
	t := fitText(s, width, size)
	if t == s {
		return s
	}
	n := len([]rune(s))
	if kept := len([]rune(t)) - 1; kept < 4 || float64(kept) < 0.6*float64(n) {
		return ""
	}
	return t
}

// groupDigits writes a count as display.FormatNumber does ("12,345").
func groupDigits(i int64) string { return display.FormatNumber(float64(i)) }

// isNilPointer reports whether v is a nil pointer (a nil view).
func isNilPointer(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// compactNumber formats v briefly for axes: 950, 12k, 3.4M.
func compactNumber(v float64) string {
	a := math.Abs(v)
	for _, u := range []struct {
		div float64
		sfx string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if a >= u.div {
			return strconv.FormatFloat(roundSig(v/u.div, 2), 'f', -1, 64) + u.sfx
		}
	}
	return strconv.FormatFloat(roundSig(v, 3), 'f', -1, 64)
}

func roundSig(v float64, digits int) float64 {
	if v == 0 {
		return 0
	}
	g, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return g
}

// num is a float64 that marshals to JSON briefly: six significant digits,
// and 0 for NaN and infinities (which JSON cannot hold).
type num float64

func (x num) MarshalJSON() ([]byte, error) {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("0"), nil
	}
	return []byte(strconv.FormatFloat(roundSig(v, 6), 'g', -1, 64)), nil
}

// ang is an angle or a pixel measure, marshalled with four decimals. Values
// that the static picture and the runtime both draw from are rounded with a4
// first, so that both draw exactly the same numbers.
type ang float64

// a4 rounds x to four decimals.
func a4(x float64) ang { return ang(math.Round(x*1e4) / 1e4) }

func (x ang) MarshalJSON() ([]byte, error) {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("0"), nil
	}
	return []byte(strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64)), nil
}

// clean replaces NaN, infinities and negative numbers by 0: traffic and
// times are never negative, and a bad value must not break a picture.
func clean(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0
	}
	return v
}

// Unit is one entity (a worker, host, rack…) shown across views, with the
// same ID and Color in every view. Parents are the IDs of the units
// containing it (e.g. its host and rack), used by filtering: filtering a
// unit or any of its parents in a dashboard's cluster view hides it.
type Unit struct {
	ID, Name, Color string
	Parents         []string
}

// unitJSON is a unit as the runtime sees it.
type unitJSON struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Color   string   `json:"color"`
	Parents []string `json:"parents"`
}

// unitsJSON fills in missing names and colours (Palette) and returns the
// units as the runtime sees them.
func unitsJSON(units []Unit) []unitJSON {
	pal := Palette(len(units))
	out := make([]unitJSON, len(units))
	for i, u := range units {
		j := unitJSON(u)
		if j.ID == "" {
			j.ID = fmt.Sprintf("unit-%d", i)
		}
		if j.Name == "" {
			j.Name = j.ID
		}
		if j.Color == "" {
			j.Color = pal[i]
		}
		if j.Parents == nil {
			j.Parents = []string{}
		}
		out[i] = j
	}
	return out
}

// wrapWords breaks s at spaces into lines of at most width px in the
// small font (a word longer than that is a line of its own, shortened to
// fit); at least one line.
func wrapWords(s string, width float64) []string { return wrapWordsFont(s, width, smallFont) }

// wrapWordsFont is wrapWords in a font of size px (as textWidth
// estimates it).
func wrapWordsFont(s string, width, size float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word, size) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	lines = append(lines, line)
	for i, l := range lines {
		if textWidth(l, size) > width {
			lines[i] = fitText(l, width, size)
		}
	}
	return lines
}
