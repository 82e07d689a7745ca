package bsp

import (
	"fmt"
	"time"
)

// String summarises a finished job in one line: what a notebook shows for
// a result instead of every vertex value.
func (r *Result) String() string {
	if r == nil {
		return "<nil>"
	}
	width := max(r.ValueWidth, 1)
	end := "every vertex halted"
	if !r.Halted {
		end = "stopped at the superstep cap"
	}
	return fmt.Sprintf("%d vertices, %d supersteps (%s), %v", len(r.Values)/width, r.Supersteps, end, r.Elapsed.Round(time.Millisecond))
}
