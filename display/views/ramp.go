package views

import (
	"encoding/hex"
	"fmt"
	"image/color"
	"math"
	"strings"
)

// Ramp is a colour scale sampled at 256 points, low to high.
//
// The tables are computed here, in Go, and shipped to the browser as they
// are (Hex), so the static picture and the live one colour alike; the
// browser never computes a colour itself.
//
// Single-hue ramps ("greens", "oranges", "purples", "pink") run from white
// to a dark or saturated hue. Entry i is d3's interpolator at t = i/255,
// rounded as d3 rounds (Math.round of each channel, clamped to [0, 255]):
// "greens", "oranges" and "purples" are d3-scale-chromatic's
// interpolateGreens, interpolateOranges and interpolatePurples, that is
// d3-interpolate's interpolateRgbBasis (a uniform cubic B-spline through
// each RGB channel) over the ColorBrewer 9-class scheme; "pink" is
// d3.interpolateRgb("white", "#e7298a"), straight in RGB (gamma 1).
//
// Diverging ramps ("rdylbu", "brbg", "prgn", "puor") are the ColorBrewer
// 11-class scheme joined piecewise-linearly in RGB (what d3.scaleLinear
// with an 11-colour range, or d3.piecewise(d3.interpolateRgb, scheme),
// does): at t the segment is k = min(floor(10t), 9), and each channel is
// c[k] + (10t − k)·(c[k+1] − c[k]), rounded as above. Entry i is at
// t = i/256 for i ≤ 128 and at t = 0.5 + (i−128)/127·0.5 above, so entry 0
// is the scheme's first colour, entry 128 exactly its middle colour (#ffffbf
// RdYlBu, #f5f5f5 BrBG, #f7f7f7 PRGn and PuOr) and entry 255 its last.
// This is deliberately not d3's interpolateRdYlBu and kin: their basis
// spline does not pass through the middle colour
// (d3.interpolateRdYlBu(0.5) is #faf8c1), and a value equal to the scale's
// Mid must get exactly the middle colour. "rdylbu" is reversed (t → 1−t),
// blue low and red high, as in TreeScope; the others keep ColorBrewer's
// order (BrBG brown → teal, PRGn purple → green, PuOr purple → orange).
type Ramp struct {
	Name      string
	Diverging bool
	Colors    [256]color.RGBA
}

// rampSpec is how one named ramp is built.
type rampSpec struct {
	name      string
	diverging bool
	reversed  bool   // diverging only: t → 1−t
	scheme    string // the colours, concatenated "rrggbb"
}

// rampSpecs are the known ramps in RampNames order. The scheme strings are
// d3-scale-chromatic's data: the 9-class sequential schemes (the ones its
// interpolators use) and the 11-class diverging ones.
var rampSpecs = []rampSpec{
	{name: "greens", scheme: "f7fcf5e5f5e0c7e9c0a1d99b74c47641ab5d238b45006d2c00441b"},
	{name: "oranges", scheme: "fff5ebfee6cefdd0a2fdae6bfd8d3cf16913d94801a636037f2704"},
	{name: "purples", scheme: "fcfbfdefedf5dadaebbcbddc9e9ac8807dba6a51a354278f3f007d"},
	{name: "pink", scheme: "ffffffe7298a"}, // white → #e7298a, straight
	{name: "rdylbu", diverging: true, reversed: true, scheme: "a50026d73027f46d43fdae61fee090ffffbfe0f3f8abd9e974add14575b4313695"},
	{name: "brbg", diverging: true, scheme: "5430058c510abf812ddfc27df6e8c3f5f5f5c7eae580cdc135978f01665e003c30"},
	{name: "prgn", diverging: true, scheme: "40004b762a839970abc2a5cfe7d4e8f7f7f7d9f0d3a6dba05aae611b783700441b"},
	{name: "puor", diverging: true, scheme: "2d004b5427888073acb2abd2d8daebf7f7f7fee0b6fdb863e08214b358067f3b08"},
}

// ramps holds the built tables, in rampSpecs order.
var ramps = buildRamps()

func buildRamps() []Ramp {
	out := make([]Ramp, len(rampSpecs))
	for k, sp := range rampSpecs {
		r, g, b := schemeChannels(sp.scheme)
		out[k] = Ramp{Name: sp.name, Diverging: sp.diverging}
		for i := range out[k].Colors {
			var c [3]float64
			switch {
			case sp.diverging:
				t := 0.5 + float64(float64(i-128)/127*0.5)
				if i <= 128 {
					t = float64(i) / 256
				}
				if sp.reversed {
					t = 1 - t
				}
				c = [3]float64{piecewiseLinear(r, t), piecewiseLinear(g, t), piecewiseLinear(b, t)}
			case len(r) == 2: // "pink": d3.interpolateRgb, gamma 1
				t := float64(i) / 255
				c = [3]float64{lerp(r[0], r[1], t), lerp(g[0], g[1], t), lerp(b[0], b[1], t)}
			default:
				t := float64(i) / 255
				c = [3]float64{basisSpline(r, t), basisSpline(g, t), basisSpline(b, t)}
			}
			out[k].Colors[i] = color.RGBA{R: jsChannel(c[0]), G: jsChannel(c[1]), B: jsChannel(c[2]), A: 255}
		}
	}
	return out
}

// schemeChannels splits concatenated "rrggbb" colours into channels.
func schemeChannels(s string) (r, g, b []float64) {
	raw, err := hex.DecodeString(s)
	if err != nil || len(raw)%3 != 0 {
		panic("views: bad ramp scheme " + s)
	}
	for i := 0; i < len(raw); i += 3 {
		r = append(r, float64(raw[i]))
		g = append(g, float64(raw[i+1]))
		b = append(b, float64(raw[i+2]))
	}
	return r, g, b
}

// The interpolators below follow d3-interpolate 3.0.1 operation for
// operation, so that the rounded channels equal d3's. The explicit
// float64(…) conversions around products keep the compiler from fusing a
// multiply and an add into one FMA instruction, which the Go spec allows
// (even across statements) and JavaScript never does.

// lerp is d3-interpolate's linear channel interpolator: a + t·(b − a).
func lerp(a, b, t float64) float64 {
	return a + float64(t*(b-a))
}

// basisSpline is d3-interpolate's basis(values)(t): a uniform cubic
// B-spline, the end segments using the reflected points 2·v1 − v2 and
// 2·v2 − v1.
func basisSpline(values []float64, t float64) float64 {
	n := len(values) - 1
	var i int
	switch {
	case t <= 0:
		t, i = 0, 0
	case t >= 1:
		t, i = 1, n-1
	default:
		i = int(math.Floor(t * float64(n)))
	}
	v1, v2 := values[i], values[i+1]
	v0 := float64(2*v1) - v2
	if i > 0 {
		v0 = values[i-1]
	}
	v3 := float64(2*v2) - v1
	if i < n-1 {
		v3 = values[i+2]
	}
	t1 := float64((t - float64(i)/float64(n)) * float64(n))
	t2 := float64(t1 * t1)
	t3 := float64(t2 * t1)
	w0 := 1 - float64(3*t1) + float64(3*t2) - t3
	w1 := 4 - float64(6*t2) + float64(3*t3)
	w2 := 1 + float64(3*t1) + float64(3*t2) - float64(3*t3)
	return (float64(w0*v0) + float64(w1*v1) + float64(w2*v2) + float64(t3*v3)) / 6
}

// piecewiseLinear is d3.piecewise(d3.interpolateRgb, values)(t) for one
// channel: segment k = clamp(floor(t·n), 0, n−1), then lerp at t·n − k.
func piecewiseLinear(values []float64, t float64) float64 {
	n := len(values) - 1
	x := float64(t * float64(n))
	k := int(max(0, min(float64(n-1), math.Floor(x))))
	return lerp(values[k], values[k+1], x-float64(k))
}

// jsChannel is d3-color's clampi: Math.round (halves toward +∞), NaN → 0,
// clamped to [0, 255].
func jsChannel(v float64) uint8 {
	if math.IsNaN(v) {
		return 0
	}
	r := math.Floor(v)
	if v-r >= 0.5 {
		r++
	}
	return uint8(max(0, min(255, r)))
}

// RampByName returns the named ramp (RampNames); the error lists the known
// names.
func RampByName(name string) (Ramp, error) {
	for _, r := range ramps {
		if r.Name == name {
			return r, nil
		}
	}
	return Ramp{}, fmt.Errorf("unknown colour ramp %q (known: %s)", name, strings.Join(RampNames(), ", "))
}

// RampNames lists the known ramps: the single-hue "greens", "oranges",
// "purples" and "pink" (white → #e7298a), then the diverging "rdylbu"
// (RdYlBu reversed: blue low, red high), "brbg", "prgn" and "puor".
func RampNames() []string {
	names := make([]string, len(ramps))
	for i, r := range ramps {
		names[i] = r.Name
	}
	return names
}

// Hex is the table as the browser gets it: 256 entries of six lowercase hex
// digits ("rrggbb", no '#'), entry after entry, 1536 characters.
func (r Ramp) Hex() string {
	var raw [3 * 256]byte
	for i, c := range r.Colors {
		raw[3*i], raw[3*i+1], raw[3*i+2] = c.R, c.G, c.B
	}
	return hex.EncodeToString(raw[:])
}

// ColorScale maps values to a ramp's entries.
type ColorScale struct {
	Ramp          Ramp
	Min, Mid, Max float64 // Mid only for diverging ramps
}

// Index is the entry of v in s.Ramp.Colors. The browser implements the
// same formula.
//
// Single-hue ramps: i = floor((v−Min)/(Max−Min)·256), clamped to [0, 255];
// if Max == Min, i = 0 for v ≤ Min and 255 above.
//
// Diverging ramps, with the lower half [0, 127] for values below Mid and
// the upper half [128, 255] for the rest:
//   - v < Mid: i = floor((v−Min)/(Mid−Min)·128), clamped to [0, 127];
//   - v ≥ Mid: i = 128 + floor((v−Mid)/(Max−Mid)·128), clamped to
//     [128, 255].
//
// So v == Mid gives 128, the scheme's middle colour. A degenerate half
// divides by nothing: if Mid == Min every v < Mid is 0; if Mid == Max,
// v == Mid is 128 and every v above is 255.
//
// NaN is 0 for every ramp. A quotient that is itself NaN (infinite bounds,
// such as v = Min = −Inf) gives the low end of its half (0 or 128), and
// infinite quotients clamp like any other.
func (s ColorScale) Index(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	if !s.Ramp.Diverging {
		return rampBucket(v, s.Min, s.Max, 256)
	}
	if v < s.Mid {
		return rampBucket(v, s.Min, s.Mid, 128)
	}
	return 128 + rampBucket(v, s.Mid, s.Max, 128)
}

// rampBucket is floor((v−lo)/(hi−lo)·n) clamped to [0, n−1]; for hi == lo
// it is 0 for v ≤ lo and n−1 above; a NaN quotient is 0.
func rampBucket(v, lo, hi float64, n int) int {
	if hi == lo {
		if v <= lo {
			return 0
		}
		return n - 1
	}
	x := math.Floor((v - lo) / (hi - lo) * float64(n))
	switch {
	case !(x >= 0): // also NaN
		return 0
	case x > float64(n-1):
		return n - 1
	}
	return int(x)
}

// Color is the colour of v: s.Ramp.Colors[s.Index(v)].
func (s ColorScale) Color(v float64) color.RGBA {
	return s.Ramp.Colors[s.Index(v)]
}
