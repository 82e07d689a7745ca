package views

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"testing"
)

// unpack reads an arrayPack as the runtime does (util.js unpackArrays):
// the values of the array ref names, as float64.
func unpack(t *testing.T, pack string, ref arrayRef) []float64 {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(pack)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	buf, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if ref.off%8 != 0 {
		t.Errorf("an array at offset %d, not a multiple of 8", ref.off)
	}
	w := map[string]int{"u8": 1, "u16": 2, "u32": 4, "i32": 4, "f32": 4, "f64": 8}[ref.typ]
	b := append([]byte(nil), buf[ref.off:ref.off+w*ref.n]...)
	if ref.form == "p" || ref.form == "dp" {
		u := make([]byte, len(b))
		for k := 0; k < w; k++ {
			for i := 0; i < ref.n; i++ {
				u[i*w+k] = b[k*ref.n+i]
			}
		}
		b = u
	}
	le := binary.LittleEndian
	out := make([]float64, ref.n)
	var acc uint32
	for i := range out {
		var u uint32
		switch w {
		case 1:
			u = uint32(b[i])
		case 2:
			u = uint32(le.Uint16(b[2*i:]))
		case 4:
			u = le.Uint32(b[4*i:])
		}
		if ref.form == "d" || ref.form == "dp" {
			acc += u
			if w < 4 {
				acc &= uint32(1)<<(8*w) - 1
			}
			u = acc
		}
		switch ref.typ {
		case "i32":
			out[i] = float64(int32(u))
		case "f32":
			out[i] = float64(math.Float32frombits(u))
		case "f64":
			out[i] = math.Float64frombits(le.Uint64(b[8*i:]))
		default:
			out[i] = float64(u)
		}
	}
	return out
}

func TestArrayPackRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sorted := make([]int32, 5000) // indices: stored as differences
	for i := 1; i < len(sorted); i++ {
		sorted[i] = sorted[i-1] + int32(rng.IntN(3))
	}
	small := make([]int32, 3000) // bytes: the narrowest type
	for i := range small {
		small[i] = int32(rng.IntN(200))
	}
	wide := make([]int32, 3000)
	for i := range wide {
		wide[i] = int32(rng.IntN(1 << 20))
	}
	ramp := make([]int32, 3000) // bytes that grow: differences
	for i := range ramp {
		ramp[i] = int32(i / 12)
	}
	neg := []int32{-5, 3, 70000, -70000}
	counts := make([]float64, 2000)
	for i := range counts {
		counts[i] = float64(rng.IntN(300))
	}
	frac := []float64{0.5, 1, 1e300}
	f32 := []float32{1.5, -2.25, 3e-7}
	var pack arrayPack
	refs := []arrayRef{pack.ints(sorted), pack.ints(small), pack.ints(wide), pack.ints(neg), pack.counts(counts), pack.counts(frac), pack.f32s(f32), pack.ints(nil), pack.ints(ramp)}
	want := [][]float64{toF(sorted), toF(small), toF(wide), toF(neg), counts, frac, {1.5, -2.25, float64(float32(3e-7))}, {}, toF(ramp)}
	types := []string{"u16", "u8", "u32", "i32", "u16", "f64", "f32", "u8", "u8"}
	s := pack.String()
	for k, ref := range refs {
		if ref.typ != types[k] {
			t.Errorf("array %d stored as %s, want %s", k, ref.typ, types[k])
		}
		got := unpack(t, s, ref)
		if len(got) != len(want[k]) {
			t.Fatalf("array %d: %d values, want %d", k, len(got), len(want[k]))
		}
		for i := range got {
			if got[i] != want[k][i] {
				t.Fatalf("array %d value %d = %v, want %v (form %q)", k, i, got[i], want[k][i], ref.form)
			}
		}
	}
	// The forms: differences (then planes) for sorted indices and growing
	// bytes, planes for wide random values, none for random bytes.
	for k, form := range map[int]string{0: "dp", 1: "", 2: "p", 8: "d"} {
		if refs[k].form != form {
			t.Errorf("array %d stored in form %q, want %q", k, refs[k].form, form)
		}
	}
	b, _ := json.Marshal(refs[1])
	if string(b) != `[`+itoa(refs[1].off)+`,3000,"u8"]` {
		t.Errorf("a ref as JSON: %s", b)
	}
}

func toF(v []int32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestClassSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = math.Floor(rng.Float64()*1000) / 7
	}
	class := func(i int) int { return int(math.Sqrt(vals[i])) / 2 } // never decreasing in the value
	steps := classSteps(vals, class)
	for i, v := range vals {
		// The runtime's classesOf.
		c := 0
		for _, s := range steps {
			if s[0] <= v {
				c = int(s[1])
			}
		}
		if c != class(i) {
			t.Fatalf("value %v: class %d by the steps, want %d", v, c, class(i))
		}
	}
}
