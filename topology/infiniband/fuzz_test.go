package infiniband

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"superstep/topology/fattree"
)

// FuzzReadIBNetDiscover checks that no input panics the reader or Infer,
// that every error is a *ParseError naming the file, and that what is read
// names only existing devices and ports.
func FuzzReadIBNetDiscover(f *testing.F) {
	for _, name := range []string{"k4.ibnetdiscover", "k4-ports.ibnetdiscover", "k4holes.ibnetdiscover"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(sample))
	f.Add([]byte(sw1 + "[1]\t\"H-2\"[1]\n\nCa\t1 \"H-2\"\t\t# \"h\"\n"))
	f.Add([]byte("CA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' )\nSW 2 3 0x2 ?? ???                'b'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, _, err := ReadIBNetDiscover(bytes.NewReader(data), "fuzz")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "fuzz" {
				t.Fatalf("error %v is not a *ParseError of file fuzz", err)
			}
			return
		}
		for _, c := range g.Cables {
			for _, e := range []fattree.Endpoint{c.A, c.B} {
				if e.Device < 0 || e.Device >= len(g.Devices) || e.Port < 1 || g.Devices[e.Device].Ports > 0 && e.Port > g.Devices[e.Device].Ports {
					t.Fatalf("cable %+v names a missing device or port", c)
				}
			}
		}
		if len(g.Devices) <= 4096 {
			f, _, err := fattree.Infer(g)
			if err != nil {
				return
			}
			// A missing link is one the discovered cabling lacks: its
			// switch end has no physical port.
			cabled := func(level, dev, port int) bool {
				if level == 0 {
					return f.NodeHCAPort(dev) != 0
				}
				return f.PhysicalPort(dev, port) != 0
			}
			for id, l := range f.Links {
				both := cabled(l.Kind.From(), l.From, l.FromPort) && cabled(l.Kind.To(), l.To, l.ToPort)
				if f.Missing(id) == both {
					t.Fatalf("link %d: missing %v, cabled at both ends %v", id, f.Missing(id), both)
				}
			}
		}
	})
}
