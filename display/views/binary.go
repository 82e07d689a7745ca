package views

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// classSteps are the [value, class] pairs from which the runtime derives
// class(i), a function of values[i] that never decreases as the value
// grows (a colour's ramp entry, a curve's amount level), instead of
// storing it (util.js classesOf): for each class, the least value in it,
// ascending; a value's class is that of the last pair whose value is at
// most its own.
func classSteps(values []float64, class func(i int) int) [][2]float64 {
	least := map[int]float64{}
	for i, v := range values {
		if l, ok := least[class(i)]; !ok || v < l {
			least[class(i)] = v
		}
	}
	out := make([][2]float64, 0, len(least))
	for c, v := range least {
		out = append(out, [2]float64{v, float64(c)})
	}
	slices.SortFunc(out, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// leInts packs v little-endian in size bytes each (1, 2 or 4), base64:
// the binary arrays of the specs the runtime reads (ring graph, drawing).
func leInts(v []int32, size int) string {
	b := make([]byte, size*len(v))
	le := binary.LittleEndian
	for i, x := range v {
		switch size {
		case 1:
			b[i] = byte(x)
		case 2:
			le.PutUint16(b[2*i:], uint16(x))
		default:
			le.PutUint32(b[4*i:], uint32(x))
		}
	}
	return base64.StdEncoding.EncodeToString(b)
}

// An arrayPack holds a spec's typed arrays as one zlib stream of their
// little-endian bytes, which the spec carries as base64 (its "bin" field)
// and the runtime inflates once (util.js unpackArrays); each array field
// of the spec is an arrayRef into it. Binary deflates far better than
// the base64 text of it that packSpec's deflate would see (a Uint16's
// repeats do not line up with base64's 6-bit groups): a third to a half
// smaller. Each array is stored in the form that deflates smallest: as
// it is, as the differences of successive values (sorted indices, route
// points), as byte planes (all first bytes, then all second bytes, …:
// the high bytes of small values run together), or both.
type arrayPack struct {
	buf []byte
}

// An arrayRef names an array in an arrayPack: in JSON [offset, length,
// type] or [offset, length, type, form], offset in bytes, length in
// elements, type one of u8, u16, u32, i32, f32, f64 (util.js
// ARRAY_TYPES), form "d" (differences: value i is the sum of the stored
// 0…i, in the type's wrapping arithmetic), "p" (byte planes) or "dp"
// (differences, then planes).
type arrayRef struct {
	off, n    int
	typ, form string
}

// MarshalJSON writes the ref as [offset, length, type(, form)].
func (r arrayRef) MarshalJSON() ([]byte, error) {
	if r.form == "" {
		return []byte(fmt.Sprintf(`[%d,%d,%q]`, r.off, r.n, r.typ)), nil
	}
	return []byte(fmt.Sprintf(`[%d,%d,%q,%q]`, r.off, r.n, r.typ, r.form)), nil
}

// arrayFormMin is the size in bytes from which an array's form is
// chosen; smaller ones are stored as they are.
const arrayFormMin = 256

// add appends the bytes of an array of n elements of type typ, in the
// form that deflates smallest.
func (p *arrayPack) add(b []byte, n int, typ string) arrayRef {
	for len(p.buf)%8 != 0 {
		p.buf = append(p.buf, 0)
	}
	r := arrayRef{off: len(p.buf), n: n, typ: typ}
	best := b
	if w := len(b) / max(n, 1); len(b) >= arrayFormMin {
		size := zlibSize(b)
		try := func(form string, c []byte) {
			if s := zlibSize(c); s < size {
				best, size, r.form = c, s, form
			}
		}
		integer := typ != "f32" && typ != "f64"
		if integer {
			try("d", deltas(b, w))
		}
		if w > 1 {
			try("p", planes(b, w))
			if integer {
				try("dp", planes(deltas(b, w), w))
			}
		}
	}
	p.buf = append(p.buf, best...)
	return r
}

// deltas are the differences of the successive w-byte little-endian
// values in b, wrapping (the first value is its difference from 0).
func deltas(b []byte, w int) []byte {
	out := make([]byte, len(b))
	var prev uint32
	le := binary.LittleEndian
	for i := 0; i+w <= len(b); i += w {
		var v uint32
		switch w {
		case 1:
			v = uint32(b[i])
		case 2:
			v = uint32(le.Uint16(b[i:]))
		default:
			v = le.Uint32(b[i:])
		}
		d := v - prev
		prev = v
		switch w {
		case 1:
			out[i] = byte(d)
		case 2:
			le.PutUint16(out[i:], uint16(d))
		default:
			le.PutUint32(out[i:], d)
		}
	}
	return out
}

// planes is b, values of w bytes, as w planes: every value's byte 0,
// then every value's byte 1, and so on.
func planes(b []byte, w int) []byte {
	n := len(b) / w
	out := make([]byte, len(b))
	for i := 0; i < n; i++ {
		for k := 0; k < w; k++ {
			out[k*n+i] = b[i*w+k]
		}
	}
	return out
}

// zlibSize is the size of b deflated as the pack is.
func zlibSize(b []byte) int {
	var c countWriter
	z, _ := zlib.NewWriterLevel(&c, zlib.BestCompression)
	z.Write(b)
	z.Close()
	return int(c)
}

type countWriter int

func (c *countWriter) Write(b []byte) (int, error) {
	*c += countWriter(len(b))
	return len(b), nil
}

// ints adds v in the narrowest type that holds every value: u8, u16 or
// u32 when none is negative, else i32.
func (p *arrayPack) ints(v []int32) arrayRef {
	lo, hi := int32(0), int32(0)
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo < 0 {
		b := make([]byte, 0, 4*len(v))
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
		return p.add(b, len(v), "i32")
	}
	return p.unsigned(len(v), uint32(hi), func(i int) uint32 { return uint32(v[i]) })
}

// counts adds v, whole numbers, as ints when they all fit in a u32, else
// as f64.
func (p *arrayPack) counts(v []float64) arrayRef {
	hi := 0.0
	for _, x := range v {
		if x != math.Trunc(x) || x < 0 || x > math.MaxUint32 {
			return p.f64s(v)
		}
		hi = max(hi, x)
	}
	return p.unsigned(len(v), uint32(hi), func(i int) uint32 { return uint32(v[i]) })
}

// unsigned adds the n values at(i), none over hi, as u8, u16 or u32: the
// narrowest that holds hi.
func (p *arrayPack) unsigned(n int, hi uint32, at func(i int) uint32) arrayRef {
	le := binary.LittleEndian
	switch {
	case hi <= math.MaxUint8:
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(at(i))
		}
		return p.add(b, n, "u8")
	case hi <= math.MaxUint16:
		b := make([]byte, 0, 2*n)
		for i := 0; i < n; i++ {
			b = le.AppendUint16(b, uint16(at(i)))
		}
		return p.add(b, n, "u16")
	}
	b := make([]byte, 0, 4*n)
	for i := 0; i < n; i++ {
		b = le.AppendUint32(b, at(i))
	}
	return p.add(b, n, "u32")
}

// f32s adds v as f32.
func (p *arrayPack) f32s(v []float32) arrayRef {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return p.add(b, len(v), "f32")
}

// f64s adds v as f64.
func (p *arrayPack) f64s(v []float64) arrayRef {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return p.add(b, len(v), "f64")
}

// String is the pack as the spec carries it: the base64 of its zlib
// stream.
func (p *arrayPack) String() string {
	var b bytes.Buffer
	z, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	z.Write(p.buf)
	z.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
