package display

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"
	"testing"
)

// recorder is a Sink that keeps what it is sent.
type recorder struct {
	mu      sync.Mutex
	shown   []Bundle
	ids     []string
	updates []string
	clears  int
}

func (r *recorder) Display(b Bundle, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown = append(r.shown, b)
	r.ids = append(r.ids, id)
	return nil
}
func (r *recorder) Update(b Bundle, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, id)
	return nil
}
func (r *recorder) Clear(bool) error    { r.clears++; return nil }
func (r *recorder) Page(b Bundle) error { return r.Display(b, "") }

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
	if err := json.Unmarshal([]byte(call[2]), &spec); err != nil || spec.SVG != svg {
		t.Fatalf("spec %q (%v): the live view needs the SVG", call[2], err)
	}
	if _, ok := b.Data["image/svg+xml"]; ok || b.Text() != "SVG picture" || !b.NeedsRuntime {
		t.Fatalf("bundle %v", b.Data)
	}
	// An SVG the rasteriser cannot draw says why, instead of a blank picture.
	bad := SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><foreignObject/></svg>`).MIMEBundle()
	if _, ok := bad.Data["text/html"]; ok || !strings.Contains(bad.Text(), "foreignObject") {
		t.Errorf("undrawable SVG: %v", bad.Data)
	}
}

func TestBundleOf(t *testing.T) {
	if got := BundleOf(42).Text(); got != "42" {
		t.Errorf("int: %q", got)
	}
	if got := BundleOf(errors.New("bad")).Text(); got != "bad" {
		t.Errorf("error: %q", got)
	}
	var nilTable *Progress
	if got := BundleOf(nilTable).Text(); got != "<nil>" {
		t.Errorf("nil renderer: %q", got)
	}
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.Black)
	b := BundleOf(img)
	if _, ok := b.Data["image/png"].(string); !ok || b.Text() != "PNG image 3×2" {
		t.Errorf("image: %v", b.Data["text/plain"])
	}
	if got := PNG([]byte("nope")).MIMEBundle().Text(); !strings.Contains(got, "not a PNG") {
		t.Errorf("bad png: %q", got)
	}
}

func TestTable(t *testing.T) {
	b := Table([]string{"name", "value"}, [][]any{{"a<b", 1.5}, {"c", 2}}).MIMEBundle()
	html := b.Data["text/html"].(string)
	if !strings.Contains(html, "<th>name</th>") || !strings.Contains(html, "<td>a&lt;b</td>") || !strings.Contains(html, "<td>1.5</td>") {
		t.Fatalf("html %s", html)
	}
	if b.Text() != "name  value\na<b   1.5\nc     2" {
		t.Fatalf("text %q", b.Text())
	}
	rows := make([][]any, 250)
	for i := range rows {
		rows[i] = []any{i}
	}
	if !strings.Contains(Table([]string{"i"}, rows).MIMEBundle().Text(), "… 50 more rows") {
		t.Fatal("long table not capped")
	}
}

func TestJSONAndMarkdown(t *testing.T) {
	b := JSON(map[string]int{"a": 1}).MIMEBundle()
	raw, _ := json.Marshal(b.Data)
	if !strings.Contains(string(raw), `"application/json":{"a":1}`) {
		t.Fatalf("json bundle %s", raw)
	}
	if Markdown("# hi").MIMEBundle().Data["text/markdown"] != "# hi" {
		t.Fatal("markdown")
	}
	if got := JSON(func() {}).MIMEBundle().Text(); !strings.Contains(got, "unsupported type") {
		t.Fatalf("unmarshalable: %q", got)
	}
}

func TestProgressUpdatesInPlace(t *testing.T) {
	rec := &recorder{}
	out := On(rec)
	p := out.NewProgress(1000, "work")
	for i := 0; i < 1000; i++ {
		p.Add(1)
	}
	if len(rec.shown) != 1 || rec.ids[0] != p.ID() {
		t.Fatalf("shown %d times with ids %v", len(rec.shown), rec.ids)
	}
	// A fast loop is throttled, and the final state is always sent.
	if n := len(rec.updates); n < 1 || n > 20 {
		t.Fatalf("%d updates for 1000 fast steps", n)
	}
	for _, id := range rec.updates {
		if id != p.ID() {
			t.Fatalf("update for %s, want %s", id, p.ID())
		}
	}
	if !strings.Contains(p.MIMEBundle().Text(), "work 1000/1000 (100%)") {
		t.Fatalf("final text %q", p.MIMEBundle().Text())
	}
	if !strings.Contains(p.MIMEBundle().Data["text/html"].(string), "data:image/png;base64,") {
		t.Fatal("progress bar without a static picture")
	}
}

func TestTextOutputOutsideKernel(t *testing.T) {
	var b strings.Builder
	TextOutput(&b).Show(Table([]string{"x"}, [][]any{{1}}))
	if b.String() != "x\n1\n" {
		t.Fatalf("%q", b.String())
	}
}

func TestProgressFinishEarly(t *testing.T) {
	rec := &recorder{}
	p := On(rec).NewProgress(1000, "supersteps")
	p.Set(61)
	p.Finish("61 supersteps")
	if got := p.MIMEBundle().Text(); !strings.Contains(got, "61 supersteps 61/61 (100%)") {
		t.Fatalf("%q", got)
	}
}
