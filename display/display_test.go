package display

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
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

// An Output made with OnWith asks its formatter first for values that do
// not render themselves: how a session shows an Arrow table.
func TestOnWithFormatsWhatTheContractCannot(t *testing.T) {
	type table struct{ rows int }
	rec := &recorder{}
	out := OnWith(rec, func(v any) (Bundle, bool) {
		if t, ok := v.(table); ok {
			return TextBundle(fmt.Sprintf("table of %d rows", t.rows)), true
		}
		return Bundle{}, false
	})
	out.Show(table{3})
	out.Show(7)
	out.Show(Markdown("# m")) // a Renderer never reaches the formatter
	got := []string{rec.shown[0].Text(), rec.shown[1].Text(), rec.shown[2].Text()}
	if got[0] != "table of 3 rows" || got[1] != "7" || got[2] != "# m" {
		t.Fatalf("shown %q", got)
	}
}

// The progress bar's static picture is drawn by the contract itself: a
// PNG filled in blue up to the fraction done, grey after it.
func TestProgressPicture(t *testing.T) {
	html := progressImage(0.5)
	i := strings.Index(html, "base64,")
	j := strings.LastIndex(html, `"`)
	if i < 0 || j < i {
		t.Fatalf("no data URL in %s", html)
	}
	raw, err := base64.StdEncoding.DecodeString(html[i+len("base64,") : j])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds().Dx() != 300 || img.Bounds().Dy() != 14 {
		t.Fatalf("bar %v (%v)", img.Bounds(), err)
	}
	blue := color.RGBAModel.Convert(img.At(100, 7)).(color.RGBA)
	grey := color.RGBAModel.Convert(img.At(200, 7)).(color.RGBA)
	if blue != (color.RGBA{0x4c, 0x78, 0xa8, 0xff}) || grey != (color.RGBA{0xee, 0xee, 0xee, 0xff}) {
		t.Fatalf("half-full bar: %v at 100, %v at 200", blue, grey)
	}
}

func TestFormatBytesAndNumbers(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0, "B", "0 B"}, {999.4, "B", "999 B"}, {999.5, "B", "1.00 kB"}, {1234, "B", "1.23 kB"},
		{45_600_000, "B", "45.6 MB"}, {789e9, "B", "789 GB"}, {999.5e6, "B", "1.00 GB"}, {-2048, "B", "-2.05 kB"},
		{12345, "", "12,345"}, {0.012345, "", "0.0123"}, {4.567, "", "4.57"}, {-1234567, "", "-1,234,567"},
		{3, "msgs", "3 msgs"}, {math.NaN(), "B", "NaN"}, {math.Inf(1), "", "+Inf"},
	} {
		if got := FormatValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}
