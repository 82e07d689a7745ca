package views

import (
	"context"
	"errors"
	"math"
	"testing"
)

var (
	gradGreen = [3]uint8{0, 255, 0}
	gradRed   = [3]uint8{255, 0, 0}
)

func (f *curveField) total() (s [4]float64) {
	for i, v := range f.acc {
		s[i%4] += float64(v)
	}
	return s
}

// A horizontal line through pixel centres lights exactly its pixels, one
// unit each, green at the start and red at the end.
func TestCurveFieldHorizontal(t *testing.T) {
	f := newCurveField(12, 8, gradGreen, gradRed)
	f.segment(0.5, 5.5, 10.5, 5.5, 0, 1, 1)
	for x := 0; x < 12; x++ {
		for y := 0; y < 8; y++ {
			i := 4 * (y*12 + x)
			s := f.acc[i+3]
			want := float32(0)
			if y == 5 && x < 10 {
				want = 1
			}
			if math.Abs(float64(s-want)) > 1e-5 {
				t.Errorf("pixel (%d,%d): light %v, want %v", x, y, s, want)
			}
		}
	}
	first, last := f.acc[4*(5*12+0):4*(5*12+0)+3], f.acc[4*(5*12+9):4*(5*12+9)+3]
	if !(first[1] > 0.95 && first[0] < 0.05 && last[0] > 0.85 && last[1] < 0.15) {
		t.Errorf("gradient: first pixel %v (want green), last %v (want red)", first, last)
	}
}

// Lines at any angle deposit their length (the amount is per unit of
// length), and a curve and its reverse together are as red as green
// everywhere (the paper's brown).
func TestCurveFieldLengthAndBrown(t *testing.T) {
	for _, seg := range [][4]float64{{1, 1, 31, 31}, {2, 30, 30, 3}, {5, 2, 9, 31}, {3.3, 7.7, 28.1, 12.4}} {
		f := newCurveField(40, 40, gradGreen, gradRed)
		f.segment(seg[0], seg[1], seg[2], seg[3], 0, 1, 1)
		s := f.total()
		l := math.Hypot(seg[2]-seg[0], seg[3]-seg[1])
		if got := s[3]; math.Abs(got-l) > 1.5 || math.Abs(s[0]+s[1]-got) > 1e-3 {
			t.Errorf("segment %v: light %.2f, want its length %.2f ± 1.5", seg, got, l)
		}
	}
	f := newCurveField(60, 30, gradGreen, gradRed)
	p0, c, p1 := [2]float64{3, 25}, [2]float64{30, 2}, [2]float64{57, 25}
	f.quad(p0, c, p1, 0, 1, 1)
	f.quad(p1, c, p0, 0, 1, 1)
	for i := 0; i < 60*30; i++ {
		r, g := f.acc[4*i], f.acc[4*i+1]
		if r+g > 0.2 && math.Abs(float64(r-g)) > 0.05*float64(r+g) {
			t.Fatalf("pixel %d: R %.3f G %.3f; two opposite curves must mix to R ≈ G", i, r, g)
		}
	}
}

// Tone mapping: more light is brighter, never past white; alpha mode mixes
// the mean colour by coverage.
func TestCurveFieldBlends(t *testing.T) {
	f := newCurveField(3, 1, gradGreen, gradRed)
	f.deposit(0, 0, 0.5, 1)
	f.deposit(1, 0, 0.5, 10)
	f.deposit(2, 0, 0.5, 1000)
	for _, b := range []blend{{additive: true, gain: 0.5}, {additive: true, gain: 1, logScale: true, sat: 100, knee: 1}} {
		img := f.image(b, nil)
		a, m, c := img.RGBAAt(0, 0), img.RGBAAt(1, 0), img.RGBAAt(2, 0)
		if !(a.R < m.R && m.R <= c.R && c.R == 255 && a.R == a.G && a.B == 0 && a.R > 0) {
			t.Errorf("additive %+v: %v %v %v", b, a, m, c)
		}
	}
	al := newCurveField(2, 1, gradGreen, gradRed)
	al.deposit(0, 0, 1, 50)
	al.deposit(1, 0, 1, 0.5)
	img := al.image(blend{gain: 1, bg: [3]uint8{255, 255, 255}}, nil)
	if p := img.RGBAAt(0, 0); p.R != 255 || p.G != 0 {
		t.Errorf("alpha mode, a dense red deposit over white: %v", p)
	}
	// Coverage 1 − e^(−0.5) = 0.393 of red over white: G = B = 255·0.607.
	if p := img.RGBAAt(1, 0); p.R != 255 || p.G != 155 || p.B != 155 {
		t.Errorf("alpha mode, a faint red deposit over white: %v, want (255,155,155)", p)
	}
}

// A panic while drawing a part comes back to the caller's goroutine (the
// cell's, which the kernel recovers), not out of a bare goroutine that
// would end the kernel; and the parts are summed in part order.
func TestDrawPartsPanicAndSum(t *testing.T) {
	newField := func() *curveField { return newCurveField(2, 1, [3]uint8{}, [3]uint8{}) }
	f, err := drawParts(context.Background(), 4, newField, func(f *curveField, part int) error {
		f.acc[0] = float32(part + 1)
		return nil
	})
	if err != nil || f.acc[0] != 1+2+3+4 {
		t.Fatalf("sum of 4 parts: %v (%v)", f.acc[0], err)
	}
	got := func() (r any) {
		defer func() { r = recover() }()
		drawParts(context.Background(), 4, newField, func(f *curveField, part int) error {
			if part == 2 {
				panic("part 2 broke")
			}
			return nil
		})
		return nil
	}()
	if got != "part 2 broke" {
		t.Fatalf("recovered %v, want the part's panic", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := drawParts(ctx, 4, newField, func(*curveField, int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
