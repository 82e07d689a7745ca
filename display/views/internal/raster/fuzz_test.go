package raster

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRender checks that no input makes Render panic or hang. Documents
// are drawn at no more than 100,000 pixels, to keep the fuzzer fast (the
// size limit itself is tested in TestErrors).
func FuzzRender(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.svg")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, 1.0)
	}
	for _, s := range []string{
		`<svg width="10" height="10"><path d="M 0 0 X"/></svg>`,
		`<svg width="10" height="10"><path d="M0 0A1e308 1e308 0 1 1 5 5z"/></svg>`,
		`<svg width="10" height="10"><path d="M0 0Q 1e300 -1e300 5 5 C 1 1 1 1 1"/></svg>`,
		`<svg width="10" height="10"><path d="m1-2.5.5e1,3L-1-1z m 1 1 h v"/></svg>`,
		`<svg width="10" height="10"><circle cx="5" cy="5" r="1e30" stroke="red" stroke-width="1e30"/></svg>`,
		`<svg width="10" height="10"><g transform="scale(1e200) rotate(45)"><rect width="1e200" height="1"/></g></svg>`,
		`<svg width="10" height="10"><g transform="scale(0)"><rect width="1" height="1" stroke="red"/></g></svg>`,
		`<svg width="10" height="10"><line x2="10" stroke="red" stroke-dasharray="0.0001 1e-300" stroke-linecap="round"/></svg>`,
		`<svg width="10" height="10"><defs><pattern id="a" patternUnits="userSpaceOnUse" width="1e-300" height="1e300"><rect width="1" height="1" fill="url(#b)"/></pattern><pattern id="b" patternUnits="userSpaceOnUse" width="2" height="2"><rect width="1" height="1" fill="url(#a)"/></pattern></defs><rect width="9" height="9" fill="url(#a)"/></svg>`,
		`<svg width="10" height="10"><svg x="-1e9" width="1e-9" height="1" viewBox="0 0 1e-300 1e300"><text>abc</text></svg></svg>`,
		`<svg width="10" height="10"><text x="5" y="5" font-size="1e9" text-anchor="middle" transform="rotate(33)">&#0;&#x10FFFF;￿</text></svg>`,
		`<svg width="10" height="10" viewBox="0 0 0 0"/>`,
		`<svg width="1e400" height="1"/>`,
		`<svg width="10" height="10"><rect width="5" height="5" rx="-1" fill="rgba(1,2,3,4,5)"/></svg>`,
		`<svg width="10" height="10"><g opacity="0.5"><svg overflow="hidden" width="3.3" height="2.7"><rect width="5" height="5" opacity="0.5" stroke="blue"/></svg></g></svg>`,
		`<svg width="10" height="10"><polyline points="1,2 3,4 5" /></svg>`,
		`<svg width="10" height="10"><foreignObject/></svg>`,
		`<svg width="10" height="10"><g>`,
		`<svg`,
		``,
	} {
		f.Add([]byte(s), 1.0)
	}
	f.Add([]byte(`<svg width="10" height="10"><rect width="5" height="5"/></svg>`), 2.5)
	f.Add([]byte(`<svg width="10" height="10"><rect width="5" height="5"/></svg>`), -1.0)

	f.Fuzz(func(t *testing.T, svg []byte, scale float64) {
		w, h, err := Size(svg)
		if err == nil && scale > 0 && w*h*scale*scale > 1e5 {
			scale = math.Sqrt(1e5 / (w * h))
		}
		img, err := Render(svg, scale)
		if err == nil && img == nil {
			t.Fatal("no image and no error")
		}
		if err != nil && img != nil {
			t.Fatal("an image and an error")
		}
	})
}
