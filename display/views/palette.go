package views

import (
	"fmt"
	"math"
)

// paletteBase is Paul Tol's "muted" qualitative scheme
// (https://personal.sron.nl/~pault/), made to stay distinguishable for
// readers with any of the common colour-vision deficiencies, ordered so that
// every prefix keeps its colours far apart (palette_test.go checks this under
// simulated protanopia, deuteranopia and tritanopia).
var paletteBase = []string{
	"#88ccee", // cyan
	"#cc6677", // rose
	"#117733", // green
	"#ddcc77", // sand
	"#332288", // indigo
	"#aa4499", // purple
	"#44aa99", // teal
	"#999933", // olive
	"#882255", // wine
}

// Palette returns n distinct categorical colours ("#rrggbb"), the same for
// the same n. Up to 9 colours come from a colour-blind-safe scheme (Paul
// Tol's "muted"), and Palette(k) is then a prefix of Palette(n) for k ≤ n ≤ 9.
// No scheme keeps more than about nine categories apart for every reader, so
// for n > 9 the colours are spread evenly in hue (in OKLCH) over three
// lightness levels; pair such colours with labels.
func Palette(n int) []string {
	if n <= 0 {
		return nil
	}
	if n <= len(paletteBase) {
		return append([]string(nil), paletteBase[:n]...)
	}
	// k hues per lightness level, evenly spaced, the levels' hues offset
	// by a third of a step so that neighbours in hue differ in lightness.
	out := make([]string, 0, n)
	seen := map[string]bool{}
	lightness := []float64{0.70, 0.50, 0.84}
	k := (n + 2) / 3
	step := 360 / float64(k)
	for i := 0; len(out) < n; i++ {
		level := i % 3
		h := math.Mod(25+float64(i/3)*step+float64(level)*step/3, 360)
		c := oklchToHex(lightness[level], 0.13, h)
		for seen[c] { // never for sane n; keeps the colours distinct anyway
			h += 0.5
			c = oklchToHex(lightness[level], 0.13, h)
		}
		seen[c] = true
		out = append(out, c)
	}
	return out
}

// oklchToHex converts an OKLCH colour (hue in degrees) to sRGB hex, reducing
// the chroma until the colour is inside the sRGB gamut.
func oklchToHex(l, c, hDeg float64) string {
	h := hDeg * math.Pi / 180
	for ; c >= 0; c -= 0.005 {
		a, b := c*math.Cos(h), c*math.Sin(h)
		l_ := l + 0.3963377774*a + 0.2158037573*b
		m_ := l - 0.1055613458*a - 0.0638541728*b
		s_ := l - 0.0894841775*a - 1.2914855480*b
		L, M, S := l_*l_*l_, m_*m_*m_, s_*s_*s_
		r := 4.0767416621*L - 3.3077115913*M + 0.2309699292*S
		g := -1.2684380046*L + 2.6097574011*M - 0.3413193965*S
		bl := -0.0041960863*L - 0.7034186147*M + 1.7076147010*S
		if r < 0 || r > 1 || g < 0 || g > 1 || bl < 0 || bl > 1 {
			continue
		}
		return fmt.Sprintf("#%02x%02x%02x", gamma8(r), gamma8(g), gamma8(bl))
	}
	return fmt.Sprintf("#%02x%02x%02x", gamma8(l), gamma8(l), gamma8(l))
}

func gamma8(v float64) int {
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return int(math.Round(math.Max(0, math.Min(1, v)) * 255))
}

// darken mixes a "#rrggbb" colour with black (f = 0: unchanged, 1: black).
func darken(hex string, f float64) string {
	var r, g, b int
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return hex
	}
	k := 1 - f
	return fmt.Sprintf("#%02x%02x%02x", int(float64(r)*k+0.5), int(float64(g)*k+0.5), int(float64(b)*k+0.5))
}
