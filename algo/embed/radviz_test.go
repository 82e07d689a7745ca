package embed_test

import (
	"math"
	"strings"
	"testing"

	"superstep/algo/embed"
)

func checkPoints(t *testing.T, what string, got, want [][]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d points, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !near(got[i][0], want[i][0], 1e-12) || !near(got[i][1], want[i][1], 1e-12) {
			t.Errorf("%s: point %d = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestAnchors(t *testing.T) {
	// 12, 3, 6 and 9 o'clock: clockwise from the top, y up.
	checkPoints(t, "4 anchors", embed.Anchors(4), [][]float64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}})
	h := math.Sqrt(3) / 2
	checkPoints(t, "3 anchors", embed.Anchors(3), [][]float64{{0, 1}, {h, -0.5}, {-h, -0.5}})
	if len(embed.Anchors(0)) != 0 || len(embed.Anchors(-1)) != 0 {
		t.Error("no anchors for n ≤ 0")
	}
}

func TestRadVizRaw(t *testing.T) {
	p, err := embed.RadViz([][]float64{
		{1, 0, 0},   // on anchor 0
		{0, 2, 0},   // on anchor 1 whatever the magnitude
		{0, 0, 0},   // no weight: the centre
		{1, 1, 1},   // equal weights: the centre
		{0, 3, 3},   // midway between anchors 1 and 2
		{3, 0, 1.5}, // two thirds of anchor 0, one third of anchor 2
	}, embed.RadVizOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := math.Sqrt(3) / 2
	checkPoints(t, "3 columns", p, [][]float64{
		{0, 1}, {h, -0.5}, {0, 0}, {0, 0}, {0, -0.5}, {-h / 3, 2.0/3 - 0.5/3},
	})
	q, err := embed.RadViz([][]float64{{1, 1, 0, 0}, {0, 0, 5, 5}, {2, 0, 2, 0}}, embed.RadVizOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Midway between 12 and 3 o'clock; between 6 and 9; opposite anchors cancel.
	checkPoints(t, "4 columns", q, [][]float64{{0.5, 0.5}, {-0.5, -0.5}, {0, 0}})
}

func TestRadVizNormalise(t *testing.T) {
	// Columns: 0..2, constant 5, 1..3.
	x := [][]float64{{0, 5, 1}, {2, 5, 3}, {1, 5, 2}}
	p, err := embed.RadViz(x, embed.RadVizOptions{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	// Normalised rows (0,0,0), (1,0,1), (½,0,½): centre, then twice the
	// midpoint of anchors 0 (0,1) and 2 (−√3/2, −½).
	h := math.Sqrt(3) / 2
	mid := []float64{-h / 2, 0.25}
	checkPoints(t, "normalised", p, [][]float64{{0, 0}, mid, mid})
	// A constant column at 1 pulls every row (paper 004's Fig. 3).
	q, err := embed.RadViz(x, embed.RadVizOptions{Normalise: true, ConstantValue: 1})
	if err != nil {
		t.Fatal(err)
	}
	// (0,1,0) → anchor 1; (1,1,1) → centre; (½,1,½) → ¼a0 + ½a1 + ¼a2.
	checkPoints(t, "constant 1", q, [][]float64{{h, -0.5}, {0, 0}, {h / 4, -0.125}})
	// Negative values are fine once normalised.
	r, err := embed.RadViz([][]float64{{-1, 0}, {1, 0}}, embed.RadVizOptions{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPoints(t, "negative", r, [][]float64{{0, 0}, {0, 1}})
}

func TestRadVizErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		x    [][]float64
		opts embed.RadVizOptions
		want string
	}{
		{"no rows", nil, embed.RadVizOptions{}, "no rows"},
		{"no columns", [][]float64{{}}, embed.RadVizOptions{}, "no columns"},
		{"ragged", [][]float64{{1, 2}, {1}}, embed.RadVizOptions{}, "row 1 has 1 columns"},
		{"NaN", [][]float64{{1, math.NaN()}}, embed.RadVizOptions{Normalise: true}, "not finite"},
		{"Inf", [][]float64{{math.Inf(1), 0}}, embed.RadVizOptions{}, "not finite"},
		{"negative", [][]float64{{1, -1}}, embed.RadVizOptions{}, "negative"},
		{"constant", [][]float64{{1}}, embed.RadVizOptions{ConstantValue: 2}, "ConstantValue"},
		{"constant NaN", [][]float64{{1}}, embed.RadVizOptions{ConstantValue: math.NaN()}, "ConstantValue"},
	} {
		_, err := embed.RadViz(c.x, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "embed: RadViz: ") {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
