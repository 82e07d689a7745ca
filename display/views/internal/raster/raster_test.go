package raster

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// render renders a document that must render.
func render(t testing.TB, svg string, scale float64) *image.RGBA {
	t.Helper()
	img, err := Render([]byte(svg), scale)
	if err != nil {
		t.Fatalf("Render: %v\n%s", err, svg)
	}
	return img
}

func doc(w, h int, body string) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">%s</svg>`, w, h, body)
}

// coverage sums the alpha channel in pixels (255 = one pixel).
func coverage(img *image.RGBA, r image.Rectangle) float64 {
	sum := 0.0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			sum += float64(img.Pix[img.PixOffset(x, y)+3]) / 255
		}
	}
	return sum
}

func alphaAt(img *image.RGBA, x, y int) uint8 { return img.Pix[img.PixOffset(x, y)+3] }

func rgbaAt(img *image.RGBA, x, y int) [4]uint8 {
	i := img.PixOffset(x, y)
	return [4]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}
}

// inkBox is the bounding box of pixels with alpha above 64.
func inkBox(img *image.RGBA) image.Rectangle {
	var r image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if alphaAt(img, x, y) > 64 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

func near(got, want, tolFrac float64) bool { return math.Abs(got-want) <= tolFrac*math.Abs(want) }

func closeColor(got [4]uint8, want [4]uint8, tol int) bool {
	for i := range got {
		if d := int(got[i]) - int(want[i]); d < -tol || d > tol {
			return false
		}
	}
	return true
}

func TestRectPixels(t *testing.T) {
	img := render(t, doc(20, 20, `<rect x="5" y="5" width="10.5" height="10" fill="red"/>`), 1)
	if got := rgbaAt(img, 10, 10); got != [4]uint8{255, 0, 0, 255} {
		t.Errorf("inside: %v, want opaque red", got)
	}
	if got := rgbaAt(img, 2, 2); got != [4]uint8{} {
		t.Errorf("outside: %v, want transparent", got)
	}
	if got := rgbaAt(img, 16, 10); got != [4]uint8{} {
		t.Errorf("right of the rect: %v, want transparent", got)
	}
	// The right edge is at x = 15.5: pixel 15 is half covered.
	if got := rgbaAt(img, 15, 10); !closeColor(got, [4]uint8{128, 0, 0, 128}, 2) {
		t.Errorf("anti-aliased edge: %v, want half-covered red (premultiplied)", got)
	}
	if img.Bounds() != image.Rect(0, 0, 20, 20) {
		t.Errorf("bounds %v", img.Bounds())
	}
}

func TestCircleArea(t *testing.T) {
	img := render(t, doc(100, 100, `<circle cx="50.3" cy="49.6" r="30" fill="#000"/>`), 1)
	got, want := coverage(img, img.Bounds()), math.Pi*30*30
	if !near(got, want, 0.01) {
		t.Errorf("circle coverage %.1f, want %.1f ±1%%", got, want)
	}
	// An ellipse, and a circle under a non-uniform scale, have area π·a·b.
	img = render(t, doc(100, 100, `<ellipse cx="50" cy="50" rx="40" ry="10"/>`), 1)
	if got, want := coverage(img, img.Bounds()), math.Pi*40*10; !near(got, want, 0.01) {
		t.Errorf("ellipse coverage %.1f, want %.1f", got, want)
	}
	img = render(t, doc(100, 100, `<g transform="translate(50,50) scale(4,1)"><circle r="10"/></g>`), 1)
	if got, want := coverage(img, img.Bounds()), math.Pi*40*10; !near(got, want, 0.01) {
		t.Errorf("scaled circle coverage %.1f, want %.1f", got, want)
	}
}

func TestStrokeLine(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       float64
	}{
		{"horizontal", `<line x1="10" y1="50" x2="90" y2="50" stroke="black" stroke-width="4"/>`, 4 * 80},
		{"diagonal", `<line x1="10" y1="10" x2="90" y2="70" stroke="black" stroke-width="4"/>`, 4 * 100},
		{"square caps", `<line x1="10" y1="50" x2="90" y2="50" stroke="black" stroke-width="4" stroke-linecap="square"/>`, 4 * 84},
		{"round caps", `<line x1="10" y1="50" x2="90" y2="50" stroke="black" stroke-width="4" stroke-linecap="round"/>`, 4*80 + math.Pi*4},
		{"dashed", `<line x1="10" y1="50" x2="90" y2="50" stroke="black" stroke-width="4" stroke-dasharray="5,5"/>`, 4 * 40},
		{"odd dash list repeats", `<line x1="10" y1="50" x2="90" y2="50" stroke="black" stroke-width="4" stroke-dasharray="10"/>`, 4 * 40},
		{"zero-length round cap is a dot", `<path d="M 50 50 Z" stroke="black" stroke-width="10" stroke-linecap="round"/>`, math.Pi * 25},
		{"style attribute", `<line x1="10" y1="50" x2="90" y2="50" style="stroke: black; stroke-width: 4"/>`, 4 * 80},
		{"inherited from g", `<g stroke="black" stroke-width="4"><line x1="10" y1="50" x2="90" y2="50"/></g>`, 4 * 80},
		{"scaled stroke", `<g transform="scale(2)"><line x1="5" y1="25" x2="45" y2="25" stroke="black" stroke-width="2"/></g>`, 4 * 80},
		{"non-scaling stroke", `<g transform="scale(4)"><line x1="2.5" y1="12.5" x2="22.5" y2="12.5" stroke="black" stroke-width="4" vector-effect="non-scaling-stroke"/></g>`, 4 * 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := render(t, doc(100, 100, tc.body), 1)
			if got := coverage(img, img.Bounds()); !near(got, tc.want, 0.01) {
				t.Errorf("coverage %.1f, want %.1f ±1%%", got, tc.want)
			}
		})
	}
	// A non-scaling stroke is in document px: at scale 2 it is 2 device px
	// per px, like everything else.
	img := render(t, doc(100, 100, `<g transform="scale(4)"><line x1="2.5" y1="12.5" x2="22.5" y2="12.5" stroke="black" stroke-width="1" vector-effect="non-scaling-stroke"/></g>`), 2)
	if got, want := coverage(img, img.Bounds()), 2.0*160; !near(got, want, 0.01) {
		t.Errorf("non-scaling stroke at scale 2: coverage %.1f, want %.1f", got, want)
	}
}

func TestStrokeJoins(t *testing.T) {
	// A stroked square: a closed path with miter joins covers the ring
	// between the squares of side 40±w exactly.
	body := `<rect x="30" y="30" width="40" height="40" fill="none" stroke="black" stroke-width="6"/>`
	img := render(t, doc(100, 100, body), 1)
	if got, want := coverage(img, img.Bounds()), 46.0*46-34*34; !near(got, want, 0.005) {
		t.Errorf("miter-joined square: coverage %.1f, want %.1f", got, want)
	}
	// Its outer corner is inked (a miter, not a bevel)...
	if a := alphaAt(img, 27, 27); a != 255 {
		t.Errorf("miter corner alpha %d, want 255", a)
	}
	// ...and a bevel cuts it off.
	img = render(t, doc(100, 100, strings.Replace(body, "/>", ` stroke-linejoin="bevel"/>`, 1)), 1)
	if a := alphaAt(img, 27, 27); a != 0 {
		t.Errorf("bevel corner alpha %d, want 0", a)
	}
	// Overlapping stroke pieces must not cancel: a path crossing itself is
	// solid where it crosses.
	img = render(t, doc(100, 100, `<path d="M 10 50 L 90 50 M 50 10 L 50 90" stroke="black" stroke-width="6"/>`), 1)
	if a := alphaAt(img, 50, 50); a != 255 {
		t.Errorf("crossing alpha %d, want 255", a)
	}
	img = render(t, doc(100, 100, `<path d="M 10 10 L 90 90 L 90 10 L 10 90" fill="none" stroke="black" stroke-width="6"/>`), 1)
	if a := alphaAt(img, 50, 50); a != 255 {
		t.Errorf("self-crossing polyline alpha %d, want 255", a)
	}
}

func TestArc(t *testing.T) {
	const abs = `<path d="M 0 50 A 50 50 0 0 1 100 50 Z"/>`
	img := render(t, doc(100, 100, abs), 1)
	// sweep-flag 1 runs in the direction of increasing angle, which with
	// SVG's downward y axis is clockwise on screen: from the left end over
	// the top (50, 0) to the right end. The half disc lies above y = 50.
	if a := alphaAt(img, 50, 2); a != 255 {
		t.Errorf("apex (50, 2): alpha %d, want 255", a)
	}
	if a := alphaAt(img, 50, 60); a != 0 {
		t.Errorf("below the chord (50, 60): alpha %d, want 0", a)
	}
	if got, want := coverage(img, img.Bounds()), math.Pi*2500/2; !near(got, want, 0.01) {
		t.Errorf("half disc coverage %.1f, want %.1f", got, want)
	}
	for _, tc := range []struct{ name, body string }{
		{"relative", `<path d="m 0 50 a 50 50 0 0 1 100 0 z"/>`},
		// Radii too small to reach are scaled up (SVG F.6.6).
		{"radius scaling", `<path d="M 0 50 A 10 10 0 0 1 100 50 Z"/>`},
		// With both flags flipped the same arc is chosen.
		{"large arc of the other sweep", `<path d="M 100 50 A 50 50 0 1 0 0 50 Z"/>`},
		{"as a circle's half", `<path d="M 0,50 A50,50,0,0,1,100,50 Z"/>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := render(t, doc(100, 100, tc.body), 1)
			if d := maxDiff(img, other); d > 1 {
				t.Errorf("differs from the absolute form by %d", d)
			}
		})
	}
	// sweep-flag 0 bulges the other way.
	img = render(t, doc(100, 100, `<path d="M 0 50 A 50 50 0 0 0 100 50 Z"/>`), 1)
	if alphaAt(img, 50, 97) != 255 || alphaAt(img, 50, 40) != 0 {
		t.Errorf("sweep 0 should bulge below the chord")
	}
	// A large arc with a small ellipse: from (30,50) to (70,50) on a circle
	// of radius 25 the large arc goes round the far side.
	img = render(t, doc(100, 100, `<path d="M 30 50 A 25 25 0 1 1 70 50 Z"/>`), 1)
	if got, want := coverage(img, img.Bounds()), largeSegment(25, 40); !near(got, want, 0.01) {
		t.Errorf("large arc segment coverage %.1f, want %.1f", got, want)
	}
	// Rotated ellipse: x-axis-rotation 90 swaps the radii.
	a := render(t, doc(100, 100, `<path d="M 50 10 A 20 40 90 0 1 50 90 Z"/>`), 1)
	b := render(t, doc(100, 100, `<path d="M 50 10 A 40 20 0 0 1 50 90 Z"/>`), 1)
	if d := maxDiff(a, b); d > 2 {
		t.Errorf("rotate-90 ellipse differs from the swapped one by %d", d)
	}
}

// largeSegment is the area of a circle of radius r minus the smaller
// segment cut off by a chord of length c.
func largeSegment(r, c float64) float64 {
	theta := 2 * math.Asin(c/2/r)
	small := r * r / 2 * (theta - math.Sin(theta))
	return math.Pi*r*r - small
}

func maxDiff(a, b *image.RGBA) int {
	if a.Bounds() != b.Bounds() {
		return 256
	}
	m := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		if d < 0 {
			d = -d
		}
		m = max(m, d)
	}
	return m
}

func TestPathCommands(t *testing.T) {
	// The same square drawn with every command form.
	want := render(t, doc(100, 100, `<rect x="20" y="20" width="60" height="60"/>`), 1)
	for _, d := range []string{
		"M20 20 L80 20 L80 80 L20 80 Z",
		"M20,20 H80 V80 H20 z",
		"m20 20 h60 v60 h-60 z",
		"M20 20 80 20 80 80 20 80Z",
		"m20 20 60 0 0 60-60 0z",
		"M 20 20 C 40 20 60 20 80 20 L 80 80 L 20 80 Z",
		"M 20 20 S 60 20 80 20 L 80 80 L 20 80 Z",
		"M 20 20 C 30 20 40 20 50 20 S 70 20 80 20 V 80 H 20 Z",
		"m 20 20 c 10 0 20 0 30 0 s 20 0 30 0 v 60 h -60 z",
		"M 20 20 Q 35 20 50 20 T 80 20 L 80 80 L 20 80 Z",
		"m 20 20 q 15 0 30 0 t 30 0 v 60 h -60 z",
		"M 20 20 T 80 20 L 80 80 L 20 80 Z",
		"M20 20L80 20L80 80L20 80Z M 0 0",
		"M2e1 2e1L8e1 2e1 8e1 8e1 2e1 8e1z",
		"M 20 20 L 80 20 L 80 80 L 20 80 Z L 80 20",
	} {
		img := render(t, doc(100, 100, `<path d="`+d+`"/>`), 1)
		if diff := maxDiff(img, want); diff > 1 {
			t.Errorf("d=%q differs from the square by %d", d, diff)
		}
	}
}

func TestNestedSVG(t *testing.T) {
	body := `<svg x="10" y="10" width="80" height="80" viewBox="0 0 10 10"><rect width="5" height="5" fill="blue"/><rect x="-5" y="0" width="5" height="5" fill="red"/></svg>`
	img := render(t, doc(100, 100, body), 1)
	if got := rgbaAt(img, 45, 45); got != [4]uint8{0, 0, 255, 255} {
		t.Errorf("scaled content at (45,45): %v, want blue", got)
	}
	if got := rgbaAt(img, 55, 55); got != [4]uint8{} {
		t.Errorf("(55,55): %v, want transparent", got)
	}
	// The red rect lies left of the viewport: clipped (overflow hidden, the
	// default for an inner svg)...
	if got := rgbaAt(img, 5, 20); got != [4]uint8{} {
		t.Errorf("clipped content at (5,20): %v, want transparent", got)
	}
	// ...unless overflow is visible.
	img = render(t, doc(100, 100, strings.Replace(body, `viewBox`, `overflow="visible" viewBox`, 1)), 1)
	if got := rgbaAt(img, 5, 20); got != [4]uint8{255, 0, 0, 255} {
		t.Errorf("overflow visible at (5,20): %v, want red", got)
	}
	// The root's viewBox scales too, centred (xMidYMid meet).
	img = render(t, `<svg width="100" height="50" viewBox="0 0 10 10"><rect width="10" height="10" fill="green"/></svg>`, 1)
	if box := inkBox(img); box != image.Rect(25, 0, 75, 50) {
		t.Errorf("root viewBox: ink %v, want (25,0)-(75,50)", box)
	}
}

func TestTransforms(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		ink        image.Rectangle
	}{
		{"translate", `<rect width="10" height="10" transform="translate(50,20)"/>`, image.Rect(50, 20, 60, 30)},
		{"translate one argument", `<rect width="10" height="10" transform="translate(50)"/>`, image.Rect(50, 0, 60, 10)},
		// rotate(90) turns +x into +y: (x, y) ↦ (−y, x).
		{"translate rotate", `<rect width="20" height="5" transform="translate(50,50) rotate(90)"/>`, image.Rect(45, 50, 50, 70)},
		{"rotate about a centre", `<rect x="40" y="45" width="20" height="10" transform="rotate(90,50,50)"/>`, image.Rect(45, 40, 55, 60)},
		{"scale", `<rect x="10" y="10" width="10" height="5" transform="scale(2,3)"/>`, image.Rect(20, 30, 40, 45)},
		{"matrix", `<rect width="10" height="10" transform="matrix(1 0 0 1 30 40)"/>`, image.Rect(30, 40, 40, 50)},
		{"nested groups", `<g transform="translate(10,10)"><g transform="scale(2)"><rect width="5" height="5"/></g></g>`, image.Rect(10, 10, 20, 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := render(t, doc(100, 100, tc.body), 1)
			if got := inkBox(img); got != tc.ink {
				t.Errorf("ink %v, want %v", got, tc.ink)
			}
		})
	}
}

func TestOpacity(t *testing.T) {
	white := `<rect width="20" height="20" fill="white"/>`
	for _, tc := range []struct {
		name, body string
		want       [4]uint8
	}{
		{"opacity", `<rect width="20" height="20" fill="red" opacity="0.5"/>`, [4]uint8{255, 128, 128, 255}},
		{"fill-opacity", `<rect width="20" height="20" fill="red" fill-opacity="0.5"/>`, [4]uint8{255, 128, 128, 255}},
		{"rgba", `<rect width="20" height="20" fill="rgba(255,0,0,0.5)"/>`, [4]uint8{255, 128, 128, 255}},
		{"multiplied", `<rect width="20" height="20" fill="rgba(0,0,255,0.5)" fill-opacity="0.5"/>`, [4]uint8{191, 191, 255, 255}},
		{"group", `<g opacity="0.5"><rect width="20" height="20" fill="red"/></g>`, [4]uint8{255, 128, 128, 255}},
		// In a group with opacity, overlapping children composite first: the
		// overlap shows the top child at half strength, not a mix of both.
		{"group composites as one", `<g opacity="0.5"><rect width="20" height="20" fill="blue"/><rect width="20" height="20" fill="red"/></g>`, [4]uint8{255, 128, 128, 255}},
		{"shape with fill and stroke", `<rect x="-5" y="-5" width="30" height="30" fill="red" stroke="blue" stroke-width="100" opacity="0.5"/>`, [4]uint8{128, 128, 255, 255}},
		{"stroke-opacity", `<line x1="0" y1="10" x2="20" y2="10" stroke="red" stroke-width="40" stroke-opacity="0.5"/>`, [4]uint8{255, 128, 128, 255}},
		{"percent", `<rect width="20" height="20" fill="red" opacity="50%"/>`, [4]uint8{255, 128, 128, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := render(t, doc(20, 20, white+tc.body), 1)
			if got := rgbaAt(img, 10, 10); !closeColor(got, tc.want, 2) {
				t.Errorf("got %v, want %v ±2", got, tc.want)
			}
		})
	}
}

func TestColors(t *testing.T) {
	for _, tc := range []struct {
		fill string
		want [4]uint8
	}{
		{"#f00", [4]uint8{255, 0, 0, 255}},
		{"#4682B4", [4]uint8{0x46, 0x82, 0xb4, 255}},
		{"steelblue", [4]uint8{0x46, 0x82, 0xb4, 255}},
		{"SteelBlue", [4]uint8{0x46, 0x82, 0xb4, 255}},
		{"rgb(1, 2, 3)", [4]uint8{1, 2, 3, 255}},
		{"rgb(100%,0%,50%)", [4]uint8{255, 0, 128, 255}},
		{"grey", [4]uint8{128, 128, 128, 255}},
		{"lightgray", [4]uint8{211, 211, 211, 255}},
		{"darkgray", [4]uint8{169, 169, 169, 255}},
		{"orange", [4]uint8{255, 165, 0, 255}},
		{"currentColor", [4]uint8{0, 0, 0, 255}},
		{"none", [4]uint8{}},
		{"transparent", [4]uint8{}},
	} {
		img := render(t, doc(4, 4, `<rect width="4" height="4" fill="`+tc.fill+`"/>`), 1)
		if got := rgbaAt(img, 2, 2); got != tc.want {
			t.Errorf("fill=%q: %v, want %v", tc.fill, got, tc.want)
		}
	}
	// The default fill is black; a line has no fill and no default stroke.
	img := render(t, doc(4, 4, `<rect width="4" height="4"/>`), 1)
	if got := rgbaAt(img, 2, 2); got != [4]uint8{0, 0, 0, 255} {
		t.Errorf("default fill %v", got)
	}
	img = render(t, doc(4, 4, `<line x1="0" y1="2" x2="4" y2="2" stroke-width="4"/>`), 1)
	if got := coverage(img, img.Bounds()); got != 0 {
		t.Errorf("line without stroke inked %v", got)
	}
	// currentColor follows the color property.
	img = render(t, doc(4, 4, `<g color="blue"><rect width="4" height="4" fill="currentColor"/></g>`), 1)
	if got := rgbaAt(img, 2, 2); got != [4]uint8{0, 0, 255, 255} {
		t.Errorf("currentColor with color=blue: %v", got)
	}
}

func TestPattern(t *testing.T) {
	// Vertical stripes 5 px black, 5 px clear.
	body := `<defs><pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10"><rect width="5" height="10" fill="black"/></pattern></defs>` +
		`<rect width="100" height="20" fill="white"/><rect width="100" height="20" fill="url(#p)"/>`
	img := render(t, doc(100, 20, body), 1)
	for x := 0; x < 100; x++ {
		r := rgbaAt(img, x, 10)[0]
		inStripe := x%10 < 5
		switch {
		case x%5 == 0 || x%5 == 4:
			// Edge pixels are filtered.
		case inStripe && r > 40:
			t.Errorf("x=%d: red %d, want dark (in a stripe)", x, r)
		case !inStripe && r < 215:
			t.Errorf("x=%d: red %d, want light (between stripes)", x, r)
		}
	}
	// The views' hatch: rotated 45°, alternating along any line.
	hatch := `<defs><pattern id="hatch" patternUnits="userSpaceOnUse" width="4" height="4" patternTransform="rotate(45)"><rect width="4" height="4" fill="rgba(0,0,0,0.12)"/><line x1="0" y1="0" x2="0" y2="4" stroke="rgba(0,0,0,0.45)" stroke-width="1.6"/></pattern></defs>`
	img = render(t, doc(40, 40, hatch+`<rect width="40" height="40" fill="white"/><rect width="40" height="40" fill="url(#hatch)"/>`), 4)
	transitions, dark, light := 0, 255, 0
	prev := false
	for x := 0; x < img.Bounds().Dx(); x++ {
		v := int(rgbaAt(img, x, 80)[0])
		dark, light = min(dark, v), max(light, v)
		isDark := v < 190
		if x > 0 && isDark != prev {
			transitions++
		}
		prev = isDark
	}
	// 160 device px across; the stripes repeat every 4·√2·4 ≈ 22.6 px.
	if transitions < 10 || dark > 170 || light < 215 {
		t.Errorf("hatch: %d transitions, darkest %d, lightest %d; want stripes", transitions, dark, light)
	}
	// Light parts show the 12% grey background of the tile.
	if light > 230 {
		t.Errorf("hatch background %d, want about 224 (12%% black)", light)
	}
	// A pattern may use a pattern.
	img = render(t, doc(20, 20, nestedPatterns(2)+`<rect width="20" height="20" fill="url(#p0)"/>`), 1)
	// p0's tile is 2×2 with a 1×1 square filled with p1, whose tile puts
	// black exactly there: a quarter of the 20×20 rect.
	if c := coverage(img, img.Bounds()); !near(c, 100, 0.05) {
		t.Errorf("pattern in a pattern covers %.0f px, want 100", c)
	}
	// Thousands of hatched bars, each in its own translated group, share
	// one tile: no tile budget runs out.
	var bars strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&bars, `<g transform="translate(%d,%d)"><rect width="2" height="2" fill="url(#hatch)"/></g>`, i%100*2, i/100*2)
	}
	render(t, doc(200, 60, hatch+bars.String()), 1)
}

func TestText(t *testing.T) {
	img := render(t, doc(200, 100, `<text x="10" y="50" font-size="20">Hello</text>`), 1)
	box := inkBox(img)
	// Cap height of Go Regular is about 0.7 em; "Hello" is about 2.4 em wide.
	if box.Empty() || box.Min.X < 10 || box.Min.X > 13 || box.Min.Y < 33 || box.Max.Y > 51 || box.Max.X > 70 || box.Max.X < 50 {
		t.Errorf("Hello ink %v, want inside (10,33)-(70,51)", box)
	}
	// text-anchor middle centres the ink on x.
	img = render(t, doc(200, 100, `<text x="100" y="50" font-size="20" text-anchor="middle">Hello</text>`), 1)
	box = inkBox(img)
	if c := float64(box.Min.X+box.Max.X) / 2; math.Abs(c-100) > 2 {
		t.Errorf("middle-anchored ink %v centred at %.1f, want 100 ±2", box, c)
	}
	// text-anchor end ends the advance at x.
	img = render(t, doc(200, 100, `<text x="100" y="50" font-size="20" text-anchor="end">Hello</text>`), 1)
	if box := inkBox(img); box.Max.X > 100 || box.Max.X < 96 {
		t.Errorf("end-anchored ink %v, want to end just before 100", box)
	}
	// Bold has more ink.
	reg := render(t, doc(200, 100, `<text x="10" y="50" font-size="20">Hello</text>`), 1)
	bold := render(t, doc(200, 100, `<text x="10" y="50" font-size="20" font-weight="bold">Hello</text>`), 1)
	if r, b := coverage(reg, reg.Bounds()), coverage(bold, bold.Bounds()); b < r*1.2 {
		t.Errorf("bold ink %.0f, regular %.0f: want bold clearly heavier", b, r)
	}
	w600 := render(t, doc(200, 100, `<text x="10" y="50" font-size="20" font-weight="600">Hello</text>`), 1)
	if maxDiff(w600, bold) != 0 {
		t.Errorf("font-weight 600 should be bold")
	}
	// rotate(-90) text runs upwards: taller than wide.
	img = render(t, doc(100, 200, `<text transform="translate(50,150) rotate(-90)" font-size="20">Hello</text>`), 1)
	box = inkBox(img)
	if box.Dy() <= 2*box.Dx() || box.Max.Y > 151 || box.Max.X > 51 {
		t.Errorf("rotated text ink %v, want a tall box ending at (50,150)", box)
	}
	// dy="0.35em" moves the baseline down by 0.35 × font-size.
	a := render(t, doc(200, 100, `<text x="10" y="50" font-size="20">Hello</text>`), 1)
	b := render(t, doc(200, 100, `<text x="10" y="50" font-size="20" dy="0.35em">Hello</text>`), 1)
	if ba, bb := inkBox(a), inkBox(b); bb.Min.Y-ba.Min.Y != 7 {
		t.Errorf("dy 0.35em moved the ink from %v to %v, want 7 px down", ba, bb)
	}
	// Entities and non-ASCII text render (and differ from one another).
	img = render(t, doc(300, 50, `<text x="5" y="30">&lt;a&gt; &amp; &#34;b&#39; … × µ –</text>`), 1)
	if c := coverage(img, img.Bounds()); c < 50 {
		t.Errorf("entity text inked only %.0f px", c)
	}
	// White space collapses: these two render alike.
	x := render(t, doc(200, 50, `<text x="5" y="30">a  b</text>`), 1)
	y := render(t, doc(200, 50, "<text x=\"5\" y=\"30\">\n  a b </text>"), 1)
	if maxDiff(x, y) != 0 {
		t.Errorf("white space not collapsed")
	}
	// letter-spacing widens the run.
	n := inkBox(render(t, doc(200, 50, `<text x="5" y="30" font-size="10">SPACING</text>`), 1))
	s := inkBox(render(t, doc(200, 50, `<text x="5" y="30" font-size="10" letter-spacing="2">SPACING</text>`), 1))
	if s.Dx()-n.Dx() < 10 || s.Dx()-n.Dx() > 14 {
		t.Errorf("letter-spacing 2 over 7 letters widened the ink by %d px, want 12", s.Dx()-n.Dx())
	}
}

func TestScale(t *testing.T) {
	body := doc(30, 20, `<rect x="5" y="5" width="10" height="5" fill="red"/>`)
	one, two := render(t, body, 1), render(t, body, 2)
	if one.Bounds() != image.Rect(0, 0, 30, 20) || two.Bounds() != image.Rect(0, 0, 60, 40) {
		t.Errorf("bounds %v and %v", one.Bounds(), two.Bounds())
	}
	if got := inkBox(two); got != image.Rect(10, 10, 30, 20) {
		t.Errorf("ink at scale 2: %v", got)
	}
	if got, err := Render([]byte(doc(480, 10, "")), 1.1); err != nil || got.Bounds().Dx() != 528 {
		t.Errorf("480 × 1.1: %v, %v; want 528 px", got.Bounds(), err)
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		svg  string
		w, h float64
		err  string
	}{
		{`<svg width="480" height="500"/>`, 480, 500, ""},
		{`<svg width="480px" height="12pt"/>`, 480, 16, ""},
		{`<svg viewBox="0 0 640 350"/>`, 640, 350, ""},
		{`<svg width="320" viewBox="0 0 640 350"/>`, 320, 175, ""},
		{`<?xml version="1.0"?><!-- x --><svg xmlns="http://www.w3.org/2000/svg" width="1" height="2"><g/></svg>`, 1, 2, ""},
		{`<svg/>`, 0, 0, "neither width and height nor a viewBox"},
		{`<svg width="100%" height="10"/>`, 0, 0, "percentages"},
		{`<svg width="0" height="10"/>`, 0, 0, "not positive"},
		{`<html/>`, 0, 0, "not <svg>"},
		{``, 0, 0, "no <svg>"},
	} {
		w, h, err := Size([]byte(tc.svg))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Size(%s): err %v, want %q", tc.svg, err, tc.err)
		case tc.err == "" && (err != nil || w != tc.w || h != tc.h):
			t.Errorf("Size(%s) = %v, %v, %v; want %v, %v", tc.svg, w, h, err, tc.w, tc.h)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, svg string
		scale     float64
		want      string
	}{
		{"unknown element", `<svg width="10" height="10"><g><foreignObject/></g></svg>`, 1,
			"raster: line 1, offset 31: <foreignObject> is not supported"},
		{"unknown element on line 2", "<svg width=\"10\" height=\"10\">\n<linearGradient/></svg>", 1,
			"raster: line 2, offset 29: <linearGradient> is not supported"},
		{"style sheet", `<svg width="10" height="10"><style>rect{fill:red}</style></svg>`, 1, "<style> is not supported"},
		{"tspan", `<svg width="10" height="10"><text>a<tspan>b</tspan></text></svg>`, 1, "<tspan> inside <text> is not supported"},
		{"bad path command", `<svg width="10" height="10"><path d="M 0 0 X"/></svg>`, 1,
			`raster: line 1, offset 28: <path d="M 0 0 X">: unknown command 'X' at 6`},
		{"path without moveto", `<svg width="10" height="10"><path d="L 1 1"/></svg>`, 1, "must start with M or m"},
		{"path missing number", `<svg width="10" height="10"><path d="M 0 0 L 1"/></svg>`, 1, "expected a number at 9"},
		{"bad arc flag", `<svg width="10" height="10"><path d="M 0 0 A 1 1 0 2 1 5 5"/></svg>`, 1, "expected an arc flag (0 or 1) at 14"},
		{"bad number", `<svg width="10" height="10"><rect width="1x" height="2"/></svg>`, 1, `<rect width="1x">: bad length "1x"`},
		{"huge number", `<svg width="10" height="10"><circle r="1e999"/></svg>`, 1, `bad length "1e999"`},
		{"negative width", `<svg width="10" height="10"><rect width="-1" height="2"/></svg>`, 1, "negative width"},
		{"bad colour", `<svg width="10" height="10"><rect width="1" height="1" fill="#ggg"/></svg>`, 1, `<rect fill="#ggg">: bad colour "#ggg"`},
		{"bad colour name", `<svg width="10" height="10"><rect width="1" height="1" stroke="reddish"/></svg>`, 1, `bad colour "reddish"`},
		{"bad colour in style", `<svg width="10" height="10"><rect width="1" height="1" style="fill:hsl(0,1%,2%)"/></svg>`, 1, `bad colour "hsl(0,1%,2%)"`},
		{"missing pattern", `<svg width="10" height="10"><rect width="1" height="1" fill="url(#nope)"/></svg>`, 1, `"#nope" names no pattern`},
		{"bad transform", `<svg width="10" height="10"><g transform="rotate(1,2)"/></svg>`, 1, "rotate takes 1 or 3 arguments, not 2"},
		{"unknown transform", `<svg width="10" height="10"><g transform="spin(1)"/></svg>`, 1, `unknown function "spin"`},
		{"bad keyword", `<svg width="10" height="10"><text text-anchor="left">a</text></svg>`, 1, `unknown value "left"`},
		{"position list", `<svg width="10" height="10"><text x="1 2 3">abc</text></svg>`, 1, "lists of glyph positions"},
		{"missing size", `<svg><rect/></svg>`, 1, "neither width and height nor a viewBox"},
		{"too large", `<svg width="10000" height="10000"/>`, 1, "more than the limit"},
		{"too large by scale", `<svg width="1000" height="1000"/>`, 10, "more than the limit"},
		{"zero scale", `<svg width="10" height="10"/>`, 0, "scale 0 is not a positive number"},
		{"NaN scale", `<svg width="10" height="10"/>`, math.NaN(), "not a positive number"},
		{"not svg", `<html/>`, 1, "the root element is <html>"},
		{"bad XML", `<svg width="10" height="10"><g></svg>`, 1, "XML syntax error"},
		{"HTML entity", `<svg width="10" height="10"><text>&nbsp;</text></svg>`, 1, "XML syntax error"},
		{"second root", `<svg width="10" height="10"/><svg/>`, 1, "after the root element"},
		{"self-referencing pattern", `<svg width="10" height="10"><pattern id="p" patternUnits="userSpaceOnUse" width="2" height="2"><rect width="1" height="1" fill="url(#p)"/></pattern><rect width="5" height="5" fill="url(#p)"/></svg>`, 1, "the pattern uses itself"},
		{"patterns nesting", `<svg width="10" height="10">` + nestedPatterns(6) + `<rect width="5" height="5" fill="url(#p0)"/></svg>`, 1, "patterns nest deeper than 4"},
		{"objectBoundingBox pattern", `<svg width="10" height="10"><pattern id="p" width="1" height="1"/><rect width="5" height="5" fill="url(#p)"/></svg>`, 1, "userSpaceOnUse"},
		{"odd points", `<svg width="10" height="10"><polygon points="1 2 3"/></svg>`, 1, "odd number of coordinates"},
		{"too many dashes", `<svg width="10" height="10"><line x2="1e9" stroke="red" stroke-dasharray="1"/></svg>`, 1, "more than 200000 dashes"},
		{"deep nesting", "<svg width=\"10\" height=\"10\">" + strings.Repeat("<g>", 300) + strings.Repeat("</g>", 300) + "</svg>", 1, "nest deeper than 200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Render([]byte(tc.svg), tc.scale)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
			if img != nil {
				t.Errorf("an image came back with the error")
			}
			if _, err := PNG([]byte(tc.svg), tc.scale); err == nil {
				t.Errorf("PNG succeeded")
			}
		})
	}
}

// nestedPatterns makes patterns p0 … p(n-1), each filled with the next.
func nestedPatterns(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<pattern id="p%d" patternUnits="userSpaceOnUse" width="2" height="2"><rect width="1" height="1" fill="url(#p%d)"/></pattern>`, i, i+1)
	}
	fmt.Fprintf(&b, `<pattern id="p%d" patternUnits="userSpaceOnUse" width="2" height="2"><rect width="1" height="1"/></pattern>`, n)
	return b.String()
}

// TestIgnored lists what is accepted and ignored: elements skipped with
// their content, and attributes that change nothing (some of which a
// browser would honour; the views do not write them today).
func TestIgnored(t *testing.T) {
	plain := render(t, doc(40, 20, `<rect x="5" y="5" width="10" height="10" fill="red"/><text x="20" y="15" font-size="10">a</text>`), 1)
	ignoredAttrs := []string{
		// Ignored by design.
		`class="ss-bar"`, `id="r1"`, `data-tip="v0&#10;group 0"`, `data-key="k"`,
		`font-family="sans-serif"`, `shape-rendering="crispEdges"`, `pointer-events="none"`, `cursor="pointer"`,
		`xmlns:xlink="http://www.w3.org/1999/xlink"`,
		// Ignored, though a browser would use them.
		`fill-rule="evenodd"`, `clip-rule="evenodd"`, `font-style="italic"`, `font-variant="small-caps"`,
		`dominant-baseline="middle"`, `alignment-baseline="middle"`, `paint-order="stroke"`,
		`clip-path="url(#c)"`, `mask="url(#m)"`, `filter="url(#f)"`, `marker-end="url(#a)"`,
		`text-rendering="optimizeLegibility"`, `image-rendering="pixelated"`, `color-interpolation="linearRGB"`,
		`tabindex="0"`, `role="img"`, `aria-label="x"`, `lang="en"`, `xml:space="default"`,
		`word-spacing="3"`, `text-decoration="underline"`, `writing-mode="tb"`, `direction="rtl"`,
	}
	for _, a := range ignoredAttrs {
		svg := doc(40, 20, `<g `+a+`><rect `+a+` x="5" y="5" width="10" height="10" fill="red"/><text `+a+` x="20" y="15" font-size="10">a</text></g>`)
		img, err := Render([]byte(svg), 1)
		if err != nil {
			t.Errorf("%s: %v", a, err)
			continue
		}
		if d := maxDiff(img, plain); d != 0 {
			t.Errorf("%s changed the picture by %d", a, d)
		}
	}
	skippedElems := doc(40, 20, `<title>t</title><desc>d</desc><metadata><rdf:RDF xmlns:rdf="urn:rdf"><foo/></rdf:RDF></metadata><script>alert(1)</script>`+
		`<rect x="5" y="5" width="10" height="10" fill="red"><title>tip</title></rect><text x="20" y="15" font-size="10">a<title>tip</title></text>`)
	if img := render(t, skippedElems, 1); maxDiff(img, plain) != 0 {
		t.Errorf("title/desc/metadata/script changed the picture")
	}
}

func TestDisplayVisibility(t *testing.T) {
	for _, body := range []string{
		`<rect width="10" height="10" display="none"/>`,
		`<g display="none"><rect width="10" height="10"/></g>`,
		`<g visibility="hidden"><rect width="10" height="10"/></g>`,
		`<rect width="10" height="10" style="display:none"/>`,
		`<defs><rect width="10" height="10"/></defs>`,
		`<rect width="10" height="10" opacity="0"/>`,
		`<rect width="10" height="0"/>`,
	} {
		if c := coverage(render(t, doc(10, 10, body), 1), image.Rect(0, 0, 10, 10)); c != 0 {
			t.Errorf("%s inked %.0f px", body, c)
		}
	}
	// A visible child of a hidden group shows.
	img := render(t, doc(10, 10, `<g visibility="hidden"><rect width="10" height="10" visibility="visible"/></g>`), 1)
	if coverage(img, img.Bounds()) != 100 {
		t.Errorf("visible child of a hidden group not drawn")
	}
}

func TestRoundedRect(t *testing.T) {
	img := render(t, doc(100, 100, `<rect x="10" y="10" width="80" height="60" rx="10"/>`), 1)
	want := 80.0*60 - (4-math.Pi)*100
	if got := coverage(img, img.Bounds()); !near(got, want, 0.005) {
		t.Errorf("rounded rect coverage %.1f, want %.1f", got, want)
	}
	if alphaAt(img, 10, 10) != 0 || alphaAt(img, 50, 10) != 255 {
		t.Errorf("corner not rounded")
	}
}

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSamples(t *testing.T) {
	files, err := filepath.Glob("testdata/*.svg")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	// Minimum number of non-white pixels per sample (the document is drawn
	// on a white rect; a sample that is only that rect still has some).
	minInk := map[string]int{
		"display-samples-5.svg": 100, // legend only
		"display-samples-6.svg": 100, // "no frames"
		"display-samples-7.svg": 1000,
		"display-samples-9.svg": 100,
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src := readSample(t, name)
			w, h, err := Size(src)
			if err != nil {
				t.Fatal(err)
			}
			img, err := Render(src, 1)
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds() != image.Rect(0, 0, int(math.Ceil(w)), int(math.Ceil(h))) {
				t.Errorf("bounds %v for a %v×%v document", img.Bounds(), w, h)
			}
			ink, colored := 0, 0
			for i := 0; i < len(img.Pix); i += 4 {
				p := img.Pix[i : i+4]
				if p[3] != 255 {
					t.Fatalf("pixel %d is not opaque: %v (the views start with a white rect)", i/4, p)
				}
				if p[0] < 250 || p[1] < 250 || p[2] < 250 {
					ink++
				}
				if d := int(p[0]) - int(p[2]); d > 30 || d < -30 {
					colored++
				}
			}
			want := minInk[name]
			if want == 0 {
				want = 5000
			}
			if ink < want {
				t.Errorf("only %d non-white pixels, want at least %d", ink, want)
			}
			if strings.HasPrefix(name, "chord") && colored < 20000 {
				t.Errorf("chord: only %d coloured pixels; the ribbons are missing", colored)
			}
		})
	}
}

// TestChordDetail checks the chord sample at known points: a ribbon's
// colour inside the circle, white outside the outer ring.
func TestChordDetail(t *testing.T) {
	img, err := Render(readSample(t, "chord-samples-0.svg"), 1)
	if err != nil {
		t.Fatal(err)
	}
	// The outer ring spans radii 166–180 around (240, 254); w0's arc runs
	// clockwise from about 3° to 80° past the top. 30° past the top, at
	// radius 173, it is #d9d9d9.
	if c := rgbaAt(img, 240+86, 254-150); c != [4]uint8{0xd9, 0xd9, 0xd9, 255} {
		t.Errorf("outer ring 30° past the top: %v, want #d9d9d9", c)
	}
	// Well outside the ring, at the corners, the page is white.
	if c := rgbaAt(img, 30, 200); c != [4]uint8{255, 255, 255, 255} {
		t.Errorf("page at (30,200): %v, want white", c)
	}
}

func TestDeterministic(t *testing.T) {
	src := readSample(t, "chord-samples-0.svg")
	a, err := PNG(src, 2)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([][]byte, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], _ = PNG(src, 2)
		}()
	}
	wg.Wait()
	for i, b := range outs {
		if !bytes.Equal(a, b) {
			t.Errorf("render %d differs", i)
		}
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 960, 1000) {
		t.Errorf("PNG bounds %v", img.Bounds())
	}
}

// TestGolden pins the pixels of the chord sample. A change of the
// rasterizer, the fonts or golang.org/x/image changes this hash: look at the
// picture (PNG(readSample(t, "chord-samples-0.svg"), 1) written to a file)
// and, if it is right, update the hash. A failure on one machine or
// architecture only means the output is not deterministic after all.
func TestGolden(t *testing.T) {
	img, err := Render(readSample(t, "chord-samples-0.svg"), 1)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(img.Pix))
	const want = "4a157b6dfc93a5800662977a5c4ec3998e476213fccca0dc61eb93f735e2d24f"
	if sum != want {
		t.Errorf("chord-samples-0.svg at scale 1: pixel hash %s, want %s", sum, want)
	}
}

func BenchmarkRenderChord(b *testing.B) {
	src := readSample(b, "chord-samples-0.svg")
	for _, scale := range []float64{1, 2} {
		b.Run(fmt.Sprintf("scale%v", scale), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(src, scale); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPNGChord(b *testing.B) {
	src := readSample(b, "chord-samples-0.svg")
	for b.Loop() {
		if _, err := PNG(src, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderGraph(b *testing.B) {
	src := readSample(b, "display-samples-4.svg")
	for b.Loop() {
		if _, err := Render(src, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFarCoordinates checks geometry far outside the canvas: it is clipped
// without losing precision, and huge radii do not overflow.
func TestFarCoordinates(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       float64
	}{
		// The triangle (0,0) (10,0) (5,5) is what shows of these polygons.
		{"far polygon", `<path d="M0 0L -1e9 -1e9 L 1e9 -1e9 L 5 5 z"/>`, 25},
		{"very far polygon", `<path d="M0 0L -1e300 -1e300 L 1e300 -1e300 L 5 5 z"/>`, 25},
		// A huge circle through (0,0) and (10,10) is the half plane below
		// the diagonal, as far as the canvas shows.
		{"huge arc", `<path d="M0 0A1e6 1e6 0 1 0 10 10z"/>`, 50},
		{"huge circle's stroke", `<circle cx="5" cy="-1e6" r="1000005" fill="none" stroke="black" stroke-width="4"/>`, 40},
		{"wide stroke", `<circle cx="5" cy="5" r="3" fill="none" stroke="black" stroke-width="1e6"/>`, 100},
	} {
		img := render(t, doc(10, 10, tc.body), 1)
		if got := coverage(img, img.Bounds()); !near(got, tc.want, 0.02) {
			t.Errorf("%s: coverage %.1f, want %.1f", tc.name, got, tc.want)
		}
	}
	// Overflowing geometry is an error, not a picture.
	if _, err := Render([]byte(doc(10, 10, `<g transform="scale(1e200) rotate(45)"><rect width="1e200" height="1"/></g>`)), 1); err == nil || !strings.Contains(err.Error(), "coordinates overflow") {
		t.Errorf("overflow: %v", err)
	}
}
