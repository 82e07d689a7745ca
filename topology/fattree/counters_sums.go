package fattree

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// CounterSums answers "how many bytes did every link carry between two
// times" in O(links), whatever the window: it keeps, after every interval,
// the running total of every link's bytes (the cumulative counters the
// switches keep, rebuilt from the deltas). A day of 60-second counters on
// Paper1296 (1,440 intervals × 7,776 links) takes 90 MB.
type CounterSums struct {
	// Ends are the intervals' ends, increasing; interval k is
	// (Ends[k−1], Ends[k]].
	Ends  []time.Time
	links int
	cum   []int64 // (len(Ends)+1) × links: bytes of each link over the first k intervals
}

// NewCounterSums indexes rows (Deltas' or Simulate's, in any order) of a
// fabric with links directed links. A row naming a link outside
// 0..links−1 is an error.
func NewCounterSums(rows []CounterRow, links int) (*CounterSums, error) {
	var ends []int64
	last := int64(-1 << 63)
	for _, r := range rows {
		if t := r.Time.Unix(); t != last {
			ends = append(ends, t)
			last = t
		}
	}
	slices.Sort(ends)
	ends = slices.Compact(ends)
	index := make(map[int64]int, len(ends))
	for k, t := range ends {
		index[t] = k
	}
	c := &CounterSums{Ends: make([]time.Time, len(ends)), links: links, cum: make([]int64, (len(ends)+1)*links)}
	for k, t := range ends {
		c.Ends[k] = time.Unix(t, 0).UTC()
	}
	last, k := int64(-1<<63), 0
	for i, r := range rows {
		if r.Link < 0 || r.Link >= links {
			return nil, fmt.Errorf("fattree: counter row %d (%s) names link %d; the fabric has %d", i, r.Time.UTC().Format(time.RFC3339), r.Link, links)
		}
		if t := r.Time.Unix(); t != last {
			last, k = t, index[t]
		}
		c.cum[(k+1)*links+r.Link] += r.Bytes
	}
	for k := 1; k <= len(ends); k++ {
		prev, cur := c.cum[(k-1)*links:k*links], c.cum[k*links:(k+1)*links]
		for l := range cur {
			cur[l] += prev[l]
		}
	}
	return c, nil
}

// Window is every link's bytes over the intervals that end in (from, to]:
// a zero from means from the first, a zero to up to the last.
func (c *CounterSums) Window(from, to time.Time) []int64 {
	a, b := 0, len(c.Ends)
	if !from.IsZero() {
		a = sort.Search(len(c.Ends), func(k int) bool { return c.Ends[k].After(from) })
	}
	if !to.IsZero() {
		b = sort.Search(len(c.Ends), func(k int) bool { return c.Ends[k].After(to) })
	}
	out := make([]int64, c.links)
	if b <= a {
		return out
	}
	lo, hi := c.cum[a*c.links:(a+1)*c.links], c.cum[b*c.links:(b+1)*c.links]
	for l := range out {
		out[l] = hi[l] - lo[l]
	}
	return out
}
