package otf

import (
	"errors"
	"testing"

	"superstep/sdk/trace"
)

// FuzzParseStream feeds arbitrary text to the stream parser with trace H's
// definitions: it must never panic, fail only with a ParseError, and on
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
			var fe *ParseError
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("error %v is not a ParseError with a line", err)
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

// FuzzParseDefs feeds arbitrary text to the definition parser and the
// snapshot, summary and marker parsers: they must never panic and fail
// only with a ParseError with a line.
func FuzzParseDefs(f *testing.F) {
	for _, s := range []string{hDefs,
		"DTR3e8\nDTRG0T252733043e9\nDA1M5,\nDPGA10V1\nDP1NM\"a\"PT2\nDP2\nDPG10MNM\"x\"\nDF1G1NM\"f\"X1\nDCNT5G3NM\"power\"P129U\"W\"\nDCA5M10,\nDK1Y8NM\"k\"T\"\"\nDV1.a.2\"coelacanth\"\nDUI1d6c\nDPS1M1,2,\nDAUXbb8Y0\nDS1F1LN2a\nDSF1NM\"m.c\"\nDFL1NM\"f\"G1\nDFLG1NM\"g\"\nK1Y0V78\n",
		"bb8\n*1\nTC\"s\"\nTE1O64X1\nTOF1O7d0H9X1\nTBCbb3CL2H4dG3b9aca00RT1S40R40X1\nTBFbb4MI58\n",
		"1770\n*1\nSC\"s\"\nSF1N1E1388I170c\nSG2N10E20I20\nSM2C3b9aca00T1NSaNRaS2710R2710\nSCO3b9aca00CL1NS2NR2S80R80\nSFL1NO1NC1NRD2NW3NSK4BR5BW6\n",
		"MD1NM\"a\"Y3\nMS1T9c4P1V\"look\"\n", "DEFVERSION 1\n", "DQQ\nDP\nDTR0\n",
	} {
		f.Add([]byte(s))
	}
	d := newDefs()
	if err := d.parse("h.0.def", []byte(hDefs)); err != nil {
		f.Fatal(err)
	}
	tb := d.tables()
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			if err == nil {
				return
			}
			var fe *ParseError
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("error %v is not a ParseError with a line", err)
			}
		}
		check(newDefs().parse("f.0.def", data))
		for _, kind := range []fileKind{kindSnaps, kindStats, kindMarkers} {
			var w trace.Warnings
			check(parseAux("f.1.aux", kind, data, tb, &w))
		}
	})
}
