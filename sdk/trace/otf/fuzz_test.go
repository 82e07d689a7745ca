package otf

import (
	"errors"
	"testing"
)

// FuzzParseStream feeds arbitrary text to the stream parser with trace H's
// definitions: it must never panic, fail only with a FormatError, and on
// success keep every leave paired with an earlier enter.
func FuzzParseStream(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	d := newDefs()
	if err := d.parse("h.0.def", []byte(hDefs)); err != nil {
		f.Fatal(err)
	}
	tb := d.tables()
	tb.start = 0x64
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := parseStream("f.1.events.z", data, tb)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("error %v is not a FormatError with a line", err)
			}
			return
		}
		n := 0
		for _, p := range res.procs {
			depth := 0
			for _, blk := range p.regs.blocks {
				for _, e := range blk {
					if e.t < tb.start {
						t.Fatalf("event at tick %d before the start", e.t)
					}
					if e.leave {
						depth--
					} else {
						depth++
					}
					if depth < 0 {
						t.Fatal("leave without enter")
					}
					n++
				}
			}
			for _, blk := range p.msgs.blocks {
				for _, e := range blk {
					if e.peer < 0 || int(e.peer) >= len(d.procs) {
						t.Fatalf("peer %d out of range", e.peer)
					}
					n++
				}
			}
		}
		if n != res.n {
			t.Fatalf("%d events stored, %d counted", n, res.n)
		}
	})
}
