package views

import (
	"bytes"
	"encoding/json"
	"image/png"
	"strings"
	"testing"
)

func TestPictureCarriesStaticImageAndLiveCall(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="8"><rect data-tip="a" width="5" height="5" fill="#ff0000"/></svg>`
	b := SVG(svg).MIMEBundle()
	html := b.Data["text/html"].(string)
	typ, raw := staticImg(t, html)
	if typ != "image/png" {
		t.Fatalf("static picture %s", typ)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds().Dx() != 10 || img.Bounds().Dy() != 8 {
		t.Fatalf("static PNG %v (%v)", img.Bounds(), err)
	}
	if r, g, _, _ := img.At(2, 2).RGBA(); r>>8 != 255 || g>>8 != 0 {
		t.Errorf("the red square is %v", img.At(2, 2))
	}
	call := liveCallRE("svg").FindStringSubmatch(html)
	if call == nil {
		t.Fatalf("no live call in %s", html)
	}
	var spec struct{ SVG string }
	if err := json.Unmarshal([]byte(call[1]), &spec); err != nil || spec.SVG != svg {
		t.Fatalf("spec %q (%v): the live view needs the SVG", call[1], err)
	}
	if b.Data["image/svg+xml"] != svg || b.Text() != "SVG picture" || !b.NeedsRuntime {
		t.Fatalf("bundle %v", b.Data)
	}
	// An SVG the rasteriser cannot draw says why, instead of a blank picture.
	bad := SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><foreignObject/></svg>`).MIMEBundle()
	if _, ok := bad.Data["text/html"]; ok || !strings.Contains(bad.Text(), "foreignObject") {
		t.Errorf("undrawable SVG: %v", bad.Data)
	}
}
