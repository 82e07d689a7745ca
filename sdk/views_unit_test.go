package sdk

import (
	"fmt"
	"testing"
)

func TestTimesInTheUnitThatReadsBest(t *testing.T) {
	for _, c := range []struct {
		secs [][]float64
		unit string
		max  float64
	}{
		{[][]float64{{0.0000515, 0.00184}}, "ms", 1.84},
		{[][]float64{{0.0000515}, {0.000012}}, "µs", 51.5},
		{[][]float64{{2.5, 0.1}}, "s", 2.5},
		{[][]float64{{0, 0}}, "s", 0},
	} {
		unit, out := inTimeUnit(c.secs)
		mx := 0.0
		for _, r := range out {
			for _, v := range r {
				mx = max(mx, v)
			}
		}
		if unit != c.unit || fmt.Sprintf("%.6g", mx) != fmt.Sprintf("%.6g", c.max) {
			t.Errorf("%v: %s, max %v; want %s, %v", c.secs, unit, mx, c.unit, c.max)
		}
	}
	// The input is not changed.
	in := [][]float64{{0.002}}
	inTimeUnit(in)
	if in[0][0] != 0.002 {
		t.Fatal("inTimeUnit scaled its input")
	}
}
