package main

import (
	"image"
	"image/png"
	"math"
	"os"

	"superstep/sdk/graph"
)

// writePNG draws the layout's edges as faint straight lines that darken
// where they pile up, size×size pixels, into path.
func writePNG(g *graph.Graph, pos []float64, path string, size int) error {
	n := g.NumVertices()
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for v := 0; v < n; v++ {
		minX, maxX = min(minX, pos[2*v]), max(maxX, pos[2*v])
		minY, maxY = min(minY, pos[2*v+1]), max(maxY, pos[2*v+1])
	}
	span := max(maxX-minX, maxY-minY)
	if span == 0 {
		span = 1
	}
	margin := float64(size) / 40
	sc := (float64(size) - 2*margin) / span
	ink := make([]float64, size*size)
	at := func(v int) (float64, float64) {
		return margin + (pos[2*v]-minX)*sc, margin + (maxY-pos[2*v+1])*sc
	}
	for v := 0; v < n; v++ {
		x0, y0 := at(v)
		for _, u := range g.Neighbors(v) {
			if int(u) <= v && !g.Directed() {
				continue
			}
			x1, y1 := at(int(u))
			steps := int(max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
			for s := 0; s <= steps; s++ {
				t := float64(s) / float64(steps)
				x, y := int(x0+(x1-x0)*t), int(y0+(y1-y0)*t)
				if x >= 0 && x < size && y >= 0 && y < size {
					ink[y*size+x]++
				}
			}
		}
	}
	img := image.NewGray(image.Rect(0, 0, size, size))
	for i, a := range ink {
		img.Pix[i] = uint8(255 * math.Exp(-a/4))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
