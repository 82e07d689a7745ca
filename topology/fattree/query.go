package fattree

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"superstep/internal/parallel"
)

// Scope is a part of a fabric: links and switches, by id, each list
// increasing. Footprint and Footprints make one.
type Scope struct {
	Links    []int
	Switches []int
}

// Footprint is the scope of a set of nodes under r: the links on the
// routes of all ordered pairs of distinct nodes of the set, host links
// included, and the switches those routes visit; nil nodes is every node
// of f. A set of fewer than two nodes has an empty footprint. It fails as
// AllToAllLoads does.
func Footprint(ctx context.Context, f *Fabric, r Routing, nodes []int) (Scope, error) {
	l, err := AllToAllLoads(ctx, f, r, nodes)
	if err != nil {
		return Scope{}, fmt.Errorf("fattree: footprint: %w", err)
	}
	return scopeOf(f, func(id int) bool { return l.Links[id] > 0 }), nil
}

// scopeOf is the scope of the links in, and the switches they enter or
// leave.
func scopeOf(f *Fabric, in func(id int) bool) Scope {
	var s Scope
	seen := make([]bool, len(f.Switches))
	for id, l := range f.Links {
		if !in(id) {
			continue
		}
		s.Links = append(s.Links, id)
		if l.Kind.From() > 0 {
			seen[l.From] = true
		}
		if l.Kind.To() > 0 {
			seen[l.To] = true
		}
	}
	for sw, ok := range seen {
		if ok {
			s.Switches = append(s.Switches, sw)
		}
	}
	return s
}

// Footprints combines the footprints of several node sets (the jobs of a
// selection) as TreeScope does: the links common to every footprint (∩)
// and the switches of any of them (∪); with union, the links of any of
// them too. No set gives an empty scope.
func Footprints(ctx context.Context, f *Fabric, r Routing, sets [][]int, union bool) (Scope, error) {
	if len(sets) == 0 {
		return Scope{}, nil
	}
	links := make([]int, len(f.Links))
	switches := make([]bool, len(f.Switches))
	for i, set := range sets {
		s, err := Footprint(ctx, f, r, set)
		if err != nil {
			return Scope{}, fmt.Errorf("fattree: footprint of set %d: %w", i, err)
		}
		for _, id := range s.Links {
			links[id]++
		}
		for _, sw := range s.Switches {
			switches[sw] = true
		}
	}
	out := scopeOf(f, func(id int) bool { return links[id] > 0 && (union || links[id] == len(sets)) })
	out.Switches = out.Switches[:0]
	for sw, ok := range switches {
		if ok {
			out.Switches = append(out.Switches, sw)
		}
	}
	return out, nil
}

// Reach is the nodes (destinations) whose traffic crosses link under r,
// from any node of f, in increasing order. The up link of node s reaches
// every node but s; the down link to node x only x. It walks every
// destination's tree once (O(nodes·switches)), on the module's worker
// pool, and fails when link is out of range or r fails as in
// AllToAllLoads.
//
// Reach is not TreeScope's d(ℓ), which Destinations gives: TreeScope
// reads the link's switch's forwarding table (every LID sent out of that
// port, switches' included, whether or not any route brings that
// traffic to the switch), where Reach follows the nodes' routes. A node
// in Reach is always among Destinations' LIDs; Destinations may list
// more.
func Reach(ctx context.Context, f *Fabric, r Routing, link int) ([]int, error) {
	if link < 0 || link >= len(f.Links) {
		return nil, fmt.Errorf("fattree: reach of link %d: the fabric has links 0..%d", link, len(f.Links)-1)
	}
	n := len(f.Nodes)
	var out []int
	switch l := f.Links[link]; l.Kind {
	case Up01:
		for d := range n {
			if d != l.From {
				out = append(out, d)
			}
		}
		return out, nil
	case Down10:
		if n > 1 {
			out = []int{l.To}
		}
		return out, nil
	}
	crossed := make([]bool, n)
	chunk := max(1, min(64, (1<<16)/len(f.Switches)))
	workers := parallel.Workers(0, (n+chunk-1)/chunk)
	walks := make([]*pairWalk, workers)
	var (
		mu     sync.Mutex
		failAt = n
		fail   error
	)
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	per := f.Spec.NodesPerL1
	err := parallel.Chunks(ctx2, workers, n, chunk, func(w, lo, hi int) {
		t := walks[w]
		if t == nil {
			t = newPairWalk(f, r)
			walks[w] = t
		}
		for d := lo; d < hi; d++ {
			home := f.Nodes[d].Switch
			for l1 := range t.l1w {
				if c := per - b2i(l1 == home); c > 0 {
					t.l1w[l1] = int64(c)
					t.l1s = append(t.l1s, l1)
				}
			}
			before := t.loads[link]
			if e := t.tree(d); e != nil {
				mu.Lock()
				if d < failAt {
					failAt, fail = d, e
				}
				mu.Unlock()
				cancel()
				return
			}
			crossed[d] = t.loads[link] != before
		}
	})
	if fail != nil {
		return nil, fmt.Errorf("fattree: reach of link %d: %w", link, fail)
	}
	if err != nil {
		return nil, fmt.Errorf("fattree: reach of link %d: %w", link, err)
	}
	for d, ok := range crossed {
		if ok {
			out = append(out, d)
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Combine is reach ∩ N(J), TreeScope's d(ℓ) ∩ N(J) on the nodes'
// routes: the nodes of reach (as Reach gives them, increasing) that are
// also in nodes (a job's nodes, any order), in increasing order: the
// job's destinations whose traffic may cross the link.
func Combine(reach, nodes []int) []int {
	var out []int
	for _, d := range nodes {
		if _, ok := slices.BinarySearch(reach, d); ok {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Use is one job's traffic on one link (WhoUses).
type Use struct {
	Job   int      // index of the job in the list given
	ID    string   // its ID
	Pairs [][2]int // the job's ordered pairs of ranks [source, destination] whose route crosses the link, by destination then source
	Bytes float64  // bytes per second the job puts on the link: len(Pairs)·BytesPerPair
	Share float64  // Bytes over all the jobs' bytes on the link (0 when they are 0)
}

// WhoUses is the jobs whose routes under r cross link, each with the
// pairs of ranks that cross it and its share of the link's load; jobs
// that do not cross it are left out. It follows the route of every pair
// of every job (a few Port calls each: an all-to-all of n nodes costs
// n²), so it answers a hover, not a whole fabric. It fails when link is
// out of range, a job is invalid (as in JobLoads) or a route fails.
func WhoUses(f *Fabric, r Routing, jobs []Job, link int) ([]Use, error) {
	if link < 0 || link >= len(f.Links) {
		return nil, fmt.Errorf("fattree: who uses link %d: the fabric has links 0..%d", link, len(f.Links)-1)
	}
	var out []Use
	total := 0.0
	var buf []int
	for i := range jobs {
		j := &jobs[i]
		if err := j.check(f, i); err != nil {
			return nil, fmt.Errorf("fattree: who uses link %d: %w", link, err)
		}
		src, err := j.Pattern.sourcer(len(j.Nodes))
		if err != nil {
			return nil, err
		}
		u := Use{Job: i, ID: j.ID}
		for d := range j.Nodes {
			buf = src.sources(d, buf[:0])
			for _, s := range buf {
				ok, err := f.crosses(r, j.Nodes[s], j.Nodes[d], link)
				if err != nil {
					return nil, fmt.Errorf("fattree: who uses link %d: job %d (%q): %w", link, i, j.ID, err)
				}
				if ok {
					u.Pairs = append(u.Pairs, [2]int{s, d})
				}
			}
		}
		if len(u.Pairs) > 0 {
			u.Bytes = float64(len(u.Pairs)) * j.BytesPerPair
			total += u.Bytes
			out = append(out, u)
		}
	}
	for i := range out {
		if total > 0 {
			out[i].Share = out[i].Bytes / total
		}
	}
	return out, nil
}

// crosses reports whether the route from node s to node d ≠ s crosses
// link.
func (f *Fabric) crosses(r Routing, s, d, link int) (bool, error) {
	if f.Nodes[s].Up == link {
		return true, nil
	}
	sw := f.Nodes[s].Switch
	for range len(f.Switches) + 1 {
		id, err := f.next(r, sw, d)
		if err != nil {
			return false, fmt.Errorf("route %d → %d: %w", s, d, err)
		}
		if id == link {
			return true, nil
		}
		if f.Links[id].Kind == Down10 {
			return false, nil
		}
		sw = int(f.linkTo[id])
	}
	return false, fmt.Errorf("route %d → %d loops", s, d)
}
