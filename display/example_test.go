package display_test

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"superstep/display"
)

// Outside a notebook, displays print their text form.
func ExampleTable() {
	out := display.TextOutput(os.Stdout)
	out.Show(display.Table([]string{"worker", "messages"}, [][]any{{"w0", 120}, {"w1", 80}}))
	// Output:
	// worker  messages
	// w0      120
	// w1      80
}

// Save writes a picture by its file's extension: .svg, .png (twice the
// picture's size unless told otherwise) or .html.
func ExampleSave() {
	dir, _ := os.MkdirTemp("", "figures")
	defer os.RemoveAll(dir)
	pie := display.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">` +
		`<circle cx="40" cy="40" r="30" fill="#88ccee"/><text x="80" y="44">cyan</text></svg>`)
	for _, name := range []string{"pie.svg", "pie.png", "pie.html"} {
		if err := display.Save(pie, filepath.Join(dir, name)); err != nil {
			fmt.Println(err)
		}
	}
	f, _ := os.Open(filepath.Join(dir, "pie.png"))
	defer f.Close()
	cfg, _ := png.DecodeConfig(f)
	fmt.Printf("pie.png is %d×%d\n", cfg.Width, cfg.Height)
	fmt.Println(display.Save(pie, filepath.Join(dir, "pie.jpg")) != nil)
	// Output:
	// pie.png is 240×160
	// true
}
