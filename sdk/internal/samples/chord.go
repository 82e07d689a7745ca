package main

import (
	"fmt"

	"superstep/display/views"
)

// volumes is each frame's traffic between units (self traffic excluded):
// what the part of the circle a frame's ribbons take is proportional to.
func volumes(d views.ChordData) []float64 {
	v := make([]float64, len(d.Frames))
	for f, fr := range d.Frames {
		for s, row := range fr.Weight {
			for t, w := range row {
				if s != t {
					v[f] += w
				}
			}
		}
	}
	return v
}

// scaled is m with every weight times k.
func scaled(m [][][]float64, k float64) [][][]float64 {
	out := make([][][]float64, len(m))
	for f := range m {
		out[f] = make([][]float64, len(m[f]))
		for s := range m[f] {
			out[f][s] = make([]float64, len(m[f][s]))
			for t, w := range m[f][s] {
				out[f][s][t] = w * k
			}
		}
	}
	return out
}

// chordCells are the samples of chord-samples.ipynb: a worker-level chord
// whose frames swell and ebb (each frame drawn to its volume on the scale
// of the busiest), and two jobs compared side by side on one scale, the
// second with a third of the first's traffic.
func chordCells(wm [][][]float64) []cell {
	single := chordData(workerUnits(), wm, workerRings())
	heavy := chordData(workerUnits(), wm, workerRings())
	light := chordData(workerUnits(), scaled(wm, 1.0/3), workerRings())
	labels := func(d views.ChordData) []string {
		l := make([]string, len(d.Frames))
		for f, fr := range d.Frames {
			l[f] = fr.Label
		}
		return l
	}
	return []cell{
		{`views.Chord(chord) // 6 workers, 12 frames on the scale of the busiest`, views.Chord(single), map[string]any{
			"kind":     "chord-scale",
			"selected": single.Selected,
			"volumes":  volumes(single),
			"frames":   []int{0, 2, 4, 6, 9, 11},
		}},
		{`views.CompareChords([]string{"heavy", "light"}, heavy, light)`, views.CompareChords([]string{"heavy", "light"}, heavy, light), map[string]any{
			"kind":     "chord-compare",
			"captions": []string{"heavy", "light"},
			"volumes":  [][]float64{volumes(heavy), volumes(light)},
			"labels":   [][]string{labels(heavy), labels(light)},
			"slideTo":  2,
			"note":     fmt.Sprintf("%d frames each", len(heavy.Frames)),
		}},
	}
}
