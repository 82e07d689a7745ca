package fattree

import (
	"context"
	"fmt"
	"sync"

	"superstep/internal/parallel"
)

// Loads is how many routes of a traffic pattern cross every directed link
// of a fabric, and how long the routes are.
type Loads struct {
	Links []int64 // Links[id]: number of routes (ordered pairs) crossing link id
	// Hops[h] is the number of ordered pairs whose route visits h
	// switches: 1 under one L1, 3 within a pod, 5 across pods on a
	// minimal routing.
	Hops  []int64
	Pairs int64 // ordered pairs routed

	kindStart [NumKinds + 1]int
	missing   []bool // the fabric's missing links (Fabric.Missing); nil: none
}

// Kind is the part of l.Links that holds the links of kind k, in link id
// order (Fabric.KindLinks).
func (l *Loads) Kind(k Kind) []int64 {
	if k >= NumKinds {
		return nil
	}
	return l.Links[l.kindStart[k]:l.kindStart[k+1]]
}

// Stats summarises the loads of one kind of link.
type Stats struct {
	Links    int   // links of the kind that exist (Fabric.Missing ones are not counted)
	Missing  int   // links of the kind whose cable is missing
	Used     int   // links with a load above 0
	Min, Max int64 // smallest and largest load (0 and 0 without links)
	Sum      int64 // total load
}

// Stats summarises the loads on the links of kind k.
func (l *Loads) Stats(k Kind) Stats {
	loads := l.Kind(k)
	st := Stats{}
	for i, v := range loads {
		if missingAt(l.missing, l.kindStart, k, i) {
			st.Missing++
			continue
		}
		if st.Links == 0 || v < st.Min {
			st.Min = v
		}
		st.Links++
		st.Max = max(st.Max, v)
		st.Sum += v
		if v > 0 {
			st.Used++
		}
	}
	return st
}

// AllToAllLoads routes every ordered pair of distinct nodes of the set
// nodes (nil: every node of f that exists) with r and counts the routes crossing each
// directed link, and the number of switches on each route (Loads.Hops).
//
// It never follows a route per pair. Because r is destination-based, the
// routes of all sources to one destination d form a tree; AllToAllLoads
// walks that tree once per destination — from each L1 that has sources,
// up to the first switch already seen for d — then pushes the source
// counts down the tree, so a destination costs O(switches) and the whole
// set O(nodes·switches): about 1 ms for Paper1296 and 0.4 s for KAry(48)
// (764 million pairs) with D-mod-k on two cores. Destinations are spread over the module's
// worker pool; the result is the same for any number of workers.
//
// It fails when nodes has an index out of range or twice, when r has no
// route for some pair, names a port a switch does not have, delivers to
// the wrong node or loops (the error names the switch and destination; of
// several, the one of the earliest destination in nodes), or with ctx's
// error when ctx is cancelled.
func AllToAllLoads(ctx context.Context, f *Fabric, r Routing, nodes []int) (Loads, error) {
	set, err := nodeSet(f, nodes)
	if err != nil {
		return Loads{}, err
	}
	n := len(set)
	l := Loads{
		Links:     make([]int64, len(f.Links)),
		Pairs:     int64(n) * int64(n-1),
		kindStart: f.kindStart,
		missing:   f.missing,
	}
	if n < 2 {
		return l, nil
	}

	// Sources per L1 switch, and the L1 that have any.
	nl1 := f.Spec.Switches(1)
	weight := make([]int64, nl1)
	for _, d := range set {
		weight[f.Nodes[d].Switch]++
	}
	var sources []int
	for s, w := range weight {
		if w > 0 {
			sources = append(sources, s)
		}
	}

	// About a millisecond of work per chunk: a destination visits at most
	// every switch.
	chunk := max(1, min(64, (1<<16)/len(f.Switches)))
	workers := parallel.Workers(0, (n+chunk-1)/chunk)
	trees := make([]*treeWalk, workers)
	var (
		mu     sync.Mutex
		failAt = n
		fail   error
	)
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	err = parallel.Chunks(ctx2, workers, n, chunk, func(w, lo, hi int) {
		t := trees[w]
		if t == nil {
			t = newTreeWalk(f, r, weight, sources)
			trees[w] = t
		}
		for i := lo; i < hi; i++ {
			if e := t.destination(set[i]); e != nil {
				mu.Lock()
				if i < failAt {
					failAt, fail = i, e
				}
				mu.Unlock()
				cancel()
				return
			}
		}
	})
	if fail != nil {
		return Loads{}, fmt.Errorf("fattree: all-to-all loads: %w", fail)
	}
	if err != nil {
		return Loads{}, fmt.Errorf("fattree: all-to-all loads: %w", err)
	}

	for _, t := range trees {
		if t == nil {
			continue
		}
		for id, v := range t.loads {
			l.Links[id] += v
		}
		if len(t.hops) > len(l.Hops) {
			l.Hops = append(l.Hops, make([]int64, len(t.hops)-len(l.Hops))...)
		}
		for h, v := range t.hops {
			l.Hops[h] += v
		}
	}
	// Every source's route starts on its own up link.
	for _, s := range set {
		l.Links[f.Nodes[s].Up] += int64(n - 1)
	}
	return l, nil
}

// nodeSet checks nodes (nil: all of f's nodes that exist) for range,
// repeats and missing nodes.
func nodeSet(f *Fabric, nodes []int) ([]int, error) {
	if nodes == nil {
		all := make([]int, 0, len(f.Nodes))
		for d := range f.Nodes {
			if !f.NodeMissing(d) {
				all = append(all, d)
			}
		}
		return all, nil
	}
	seen := make([]bool, len(f.Nodes))
	for i, d := range nodes {
		if d < 0 || d >= len(f.Nodes) {
			return nil, fmt.Errorf("fattree: nodes[%d] = %d, the fabric has nodes 0..%d", i, d, len(f.Nodes)-1)
		}
		if seen[d] {
			return nil, fmt.Errorf("fattree: nodes[%d] = %d is listed twice", i, d)
		}
		if f.NodeMissing(d) {
			return nil, fmt.Errorf("fattree: nodes[%d] = %d (%s) is missing from the fabric: Infer found no host there", i, d, f.Nodes[d].Name)
		}
		seen[d] = true
	}
	return nodes, nil
}

// treeWalk is one worker's state for AllToAllLoads: its share of the
// loads and hop counts, and the tree of one destination at a time.
type treeWalk struct {
	destTree
	weight  []int64 // sources under each L1
	sources []int   // the L1 with sources
	hops    []int64 // per route length in switches
}

func newTreeWalk(f *Fabric, r Routing, weight []int64, sources []int) *treeWalk {
	return &treeWalk{destTree: newDestTree(f, r), weight: weight, sources: sources}
}

// destination adds the routes from every source to d.
func (t *treeWalk) destination(d int) error {
	home := t.f.Nodes[d].Switch
	t.begin()
	for _, s := range t.sources {
		own := t.weight[s]
		if s == home {
			own-- // d is no source of itself
		}
		if own == 0 {
			continue
		}
		depth, err := t.join(s, d, own)
		if err != nil {
			return err
		}
		h := int(depth)
		for len(t.hops) <= h {
			t.hops = append(t.hops, 0)
		}
		t.hops[h] += own
	}
	t.push()
	return nil
}

func int32s(s []int32) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}
