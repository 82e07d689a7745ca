package views_test

import (
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"

	"superstep/display"
	"superstep/display/views"
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
	pie := views.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">` +
		`<circle cx="40" cy="40" r="30" fill="#88ccee"/><text x="80" y="44">cyan</text></svg>`)
	for _, name := range []string{"pie.svg", "pie.png", "pie.html"} {
		if err := views.Save(pie, filepath.Join(dir, name)); err != nil {
			fmt.Println(err)
		}
	}
	f, _ := os.Open(filepath.Join(dir, "pie.png"))
	defer f.Close()
	cfg, _ := png.DecodeConfig(f)
	fmt.Printf("pie.png is %d×%d\n", cfg.Width, cfg.Height)
	fmt.Println(views.Save(pie, filepath.Join(dir, "pie.jpg")) != nil)
	// Output:
	// pie.png is 240×160
	// true
}

// Animate plays a vertex program's run on a drawing: live, with play, step
// and scrub controls; as a static picture, small multiples of chosen
// supersteps (all of them, for a run this short).
func ExampleAnimate() {
	inf := math.Inf(1)
	v := views.Animate(views.AnimateData{
		Title: "BFS on a path", ValueName: "hops",
		X: []float64{0, 1, 2}, Y: []float64{0, 0, 0},
		Edges: [][2]int32{{0, 1}, {1, 2}},
		Steps: []views.AnimateStep{
			{Value: []float64{0, inf, inf}, State: []uint8{views.StateActive, views.StateWoken, views.StateWoken},
				Pulses: []views.Pulse{{From: 0, To: 1, Count: 1}}},
			{Value: []float64{0, 1, inf}, State: []uint8{views.StateHalted, views.StateActive, views.StateHalted},
				Pulses: []views.Pulse{{From: 1, To: 2, Count: 1}}},
			{Value: []float64{0, 1, 2}, State: []uint8{views.StateHalted, views.StateHalted, views.StateActive}},
		},
	})
	fmt.Println(v.Frames())
	fmt.Println(v.MIMEBundle().Data["text/plain"])
	// Output:
	// [0 1 2]
	// Animated vertex program run "BFS on a path": 3 vertices · 3 supersteps · 2 edges
}
