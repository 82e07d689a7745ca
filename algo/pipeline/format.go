package pipeline

import (
	"fmt"
	"time"
)

// String summarises a pipeline run in one line.
func (r *Result) String() string {
	if r == nil {
		return "<nil>"
	}
	communities := 0
	for _, c := range r.Membership {
		communities = max(communities, int(c)+1)
	}
	return fmt.Sprintf("layout of %d vertices: %d communities, %d laid out on the workers (%d vertices seeded); communities %v, parallel %v, global %v",
		len(r.Positions)/2, communities, r.LaidOut, r.Seeded,
		r.Communities.Round(time.Millisecond), r.Parallel.Round(time.Millisecond), r.Global.Round(time.Millisecond))
}
