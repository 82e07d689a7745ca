package fattree

import (
	"sort"
	"time"
)

// TimedRouting is a routing that became active at From: the forwarding
// tables a subnet manager installed then (one TreeScope ".rtable" file).
type TimedRouting struct {
	From    time.Time
	Routing Routing
}

// Routings is the routings of a fabric over time, sorted by From
// (increasing; Sort puts them in that order). The routing active at a
// moment is the latest one that started at or before it.
type Routings []TimedRouting

// At is the routing active at t: the one with the latest From ≤ t (of
// several with that From, the last in the slice). Before the first From
// it is the first routing, since a fabric routes with the tables found
// when its history begins; with no routings it is nil. rs must be sorted
// by From.
func (rs Routings) At(t time.Time) Routing {
	if len(rs) == 0 {
		return nil
	}
	// i is the number of routings with From ≤ t.
	i := sort.Search(len(rs), func(i int) bool { return rs[i].From.After(t) })
	if i == 0 {
		return rs[0].Routing
	}
	return rs[i-1].Routing
}

// Sort orders rs by From, keeping the order of routings with equal From.
func (rs Routings) Sort() {
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].From.Before(rs[b].From) })
}
