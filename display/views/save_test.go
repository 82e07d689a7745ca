package views

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"superstep/display"
)

// Every view saves as SVG, PNG (at the size asked) and HTML.
func TestSaveEveryView(t *testing.T) {
	trend := sampleTrend()
	chord := sampleChord(1)
	tree := sampleTree()
	views := map[string]display.Renderer{
		"trend":   Trend(trend),
		"chord":   Chord(chord),
		"chords":  CompareChords([]string{"a", "b"}, sampleChord(1), sampleChord(2)),
		"treemap": Treemap(tree),
		"dashboard": Dashboard(DashboardData{Title: "job", Stats: []Stat{{Label: "supersteps", Value: "4"}},
			Levels: []DashboardLevel{{Name: "worker", Trend: trend, Chord: chord}}, Tree: tree}),
		"drawing":     Drawing(randomDrawing(300, 600, 1)),
		"big drawing": Drawing(randomDrawing(DrawingCanvasNodes, 8000, 2)),
		"picture":     SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><circle cx="20" cy="15" r="10" fill="#117733"/></svg>`),
	}
	dir := t.TempDir()
	for name, v := range views {
		f, ok := figureOf(v)
		if !ok {
			t.Fatalf("%s is not a picture", name)
		}
		w, h, err := f.size()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		base := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))

		if err := Save(v, base+".svg"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		svg, _ := os.ReadFile(base + ".svg")
		checkSVG(t, name, string(svg))
		if string(svg) != f.SVG() {
			t.Errorf("%s: the saved SVG is not the view's", name)
		}

		for _, c := range []struct {
			opts          []SaveOption
			width, height int
		}{
			{nil, int(math.Ceil(2 * w)), int(math.Ceil(2 * h))}, // 2× by default
			{[]SaveOption{Scale(1)}, int(math.Ceil(w)), int(math.Ceil(h))},
			{[]SaveOption{Width(1000)}, 1000, int(math.Ceil(1000 * h / w))},
			{[]SaveOption{Scale(3), Width(500)}, 500, int(math.Ceil(500 * h / w))}, // Width wins
		} {
			if err := Save(v, base+".png", c.opts...); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			raw, _ := os.ReadFile(base + ".png")
			cfg, err := png.DecodeConfig(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s: not a PNG: %v", name, err)
			}
			if abs(cfg.Width-c.width) > 1 || abs(cfg.Height-c.height) > 1 {
				t.Errorf("%s with %d options: PNG %d×%d, want %d×%d", name, len(c.opts), cfg.Width, cfg.Height, c.width, c.height)
			}
		}

		if err := Save(v, base+".html"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		page, _ := os.ReadFile(base + ".html")
		for _, want := range []string{"<!DOCTYPE html>", display.RuntimeJS[:200], "data:image/png;base64,", "document.currentScript"} {
			if !bytes.Contains(page, []byte(want)) {
				t.Errorf("%s: the HTML page lacks %.40q", name, want)
			}
		}
	}
	// A width makes the SVG that wide, the height in proportion.
	if err := Save(views["picture"], filepath.Join(dir, "w.svg"), Width(80)); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(filepath.Join(dir, "w.svg")); !strings.Contains(string(svg), `width="80" height="60"`) {
		t.Errorf("sized SVG: %s", svg)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestSaveErrors(t *testing.T) {
	dir := t.TempDir()
	pic := SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`)
	table := display.Table([]string{"a"}, [][]any{{1}})
	for _, c := range []struct {
		v    any
		path string
		opts []SaveOption
		want string
	}{
		{pic, "fig.jpg", nil, `unknown extension ".jpg": want .svg, .png or .html`},
		{pic, "fig", nil, "no extension"},
		{table, "t.png", nil, "display.TableView is not a picture: save it as .html"},
		{42, "n.svg", nil, "int is not a picture"},
		{pic, "fig.png", []SaveOption{Scale(0)}, "scale 0 outside"},
		{pic, "fig.png", []SaveOption{Width(-5)}, "width -5 px outside"},
		{Drawing(DrawingData{X: []float64{1}}), "d.png", nil, "1 x positions but 0 y positions"},
		{pic, filepath.Join(dir, "no/such/dir/fig.svg"), nil, "no such file or directory"},
	} {
		path := c.path
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		err := Save(c.v, path, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Save(%T, %s): %v, want an error containing %q", c.v, c.path, err, c.want)
		}
	}
	// Any value saves as HTML.
	if err := Save(table, filepath.Join(dir, "t.html")); err != nil {
		t.Error(err)
	}
}
