package otf2

import (
	"math"
	"testing"

	"superstep/sdk/trace"
)

// TestCompressed checks the compressed integers by hand: length byte,
// then the value's bytes in the file's order.
func TestCompressed(t *testing.T) {
	cases := []struct {
		b   []byte
		big bool
		v   uint64
	}{
		{[]byte{0x00}, false, 0},
		{[]byte{0xFF}, false, math.MaxUint64},
		{[]byte{0x02, 0x00, 0x40}, false, 16384},
		{[]byte{0x02, 0x40, 0x00}, true, 16384},
		{[]byte{0x04, 0x20, 0x2c, 0xe2, 0x7c}, false, 2095197216},
		{[]byte{0x08, 0xe2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, false, uint64(math.MaxUint64 - 29)}, // −30
	}
	for _, c := range cases {
		cu := &cursor{file: "x", b: c.b, end: len(c.b), big: c.big}
		if v := cu.comp("v"); v != c.v || cu.err != nil || cu.pos != len(c.b) {
			t.Errorf("% x big=%v: %d (err %v, pos %d), want %d", c.b, c.big, v, cu.err, cu.pos, c.v)
		}
	}
	cu := &cursor{file: "x", b: []byte{0x03, 0x01}, end: 2}
	cu.comp("a tag")
	if cu.err == nil || cu.err.Error() != "x: byte 1: expected a tag, found end of file" {
		t.Errorf("truncated: %v", cu.err)
	}
}

// TestClockCorrection checks location 1 of the ping-pong, whose local
// definitions hold two clock offsets (−30 and −19 ticks): otf2-print shows
// its first event (raw 7397466976978187) at 7397466976977800, −387 ticks,
// extrapolated from the interval before the first offset, not clamped.
func TestClockCorrection(t *testing.T) {
	m := pingpongFS(t)
	l, err := readLocalDefs("traces/1.def", m["traces/1.def"].Data, 256<<10, &trace.Warnings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.clocks) != 1 || l.clocks[0].offset != -30 {
		t.Fatalf("clock intervals %+v, want one starting at offset −30", l.clocks)
	}
	if l.maps[mapComm] == nil || l.maps[mapComm].get(0) != 1 {
		t.Errorf("comm mapping: local 0 should be global 1 (MPI_COMM_WORLD)")
	}
	c := clock{tps: 2095197216, offset: 7397466976977800, iv: l.clocks}
	for _, tc := range []struct{ raw, want uint64 }{
		{7397466976978187, 7397466976977800}, // PROGRAM_BEGIN, before the first offset
		{l.clocks[0].begin, l.clocks[0].begin - 30},
		{l.clocks[0].end, l.clocks[0].end - 19},
	} {
		if got := c.correct(tc.raw); got != tc.want {
			t.Errorf("correct(%d) = %d, want %d", tc.raw, got, tc.want)
		}
	}
	// 405,782,260 ticks at 2,095,197,216 ticks/s = 193,672,584.567 ns.
	if ns, ok := c.ns(7397467382760060); !ok || ns != 193672585 {
		t.Errorf("ns = %d %v, want 193672585", ns, ok)
	}
	if ns, ok := c.ns(7397466976977800 - 2095197216); !ok || ns != -1e9 {
		t.Errorf("one second before the offset: %d ns, want −1e9", ns)
	}
	if _, ok := (&clock{tps: 1000}).ns(1 << 62); ok { // 4.6e24 ns
		t.Errorf("a time past int64 ns should not convert")
	}
}
