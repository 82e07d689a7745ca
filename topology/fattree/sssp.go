package fattree

import (
	"context"
	"fmt"
)

// SSSP is a balanced minimal routing in the manner of Hoefler's SSSP
// routing for fat-trees, simplified to the tree's minimal routes. It
// takes the destinations in order 0, 1, …, and for each the source L1 in
// id order: the routes from an L1's nodes to the destination follow the
// choices already made for it and, at a switch that has not chosen yet,
// the switch picks among its minimal next hops (any up port while it is
// not above the destination; the down ports toward it once it is:
// parallel cables, and the L2 of the destination's pod in an L3's bundle)
// the port with the fewest routes so far — routes on its link plus on
// the least used link onward from the next switch, counting earlier
// destinations and the routes to this one already placed — the lowest
// port of equals. The routes are then counted on their links. Switches
// on no route pick the same way. The one-link look-ahead and the
// placement source by source spread even the first destination's tree
// (a purely simultaneous choice sends it all through the lowest ports).
// The result is a Table (switches × nodes bytes); every route is minimal
// and so loop-free. On the all-to-all of a whole regular tree D-mod-k is
// already perfectly even and SSSP is not (Paper1296: worst L2→L1 link
// 1,368 routes against D-mod-k's 1,278); it pays off on irregular node
// sets. It runs on one core: about 0.5 s for Paper3200. It
// fails only with ctx's error (checked between destinations).
func SSSP(ctx context.Context, f *Fabric) (*Table, error) {
	per := int64(f.Spec.NodesPerL1)
	all := make([]int64, f.Spec.Switches(1))
	for i := range all {
		all[i] = per
	}
	t, err := balanced(ctx, f, func(d int, w []int64) {
		copy(w, all)
		w[f.Nodes[d].Switch]--
	})
	if err != nil {
		return nil, fmt.Errorf("fattree: SSSP routing: %w", err)
	}
	return t, nil
}

// JobAware is SSSP routing that counts only the routes between nodes of
// one job: for each destination d, the routes counted on the tree chosen
// for d are those from the other nodes of the jobs that hold d (all
// ordered pairs of a job's nodes, whatever its pattern), and a node in no
// job adds nothing. It is in the spirit of SAR (Domke and Hoefler's
// scheduling-aware routing), not SAR: no re-routing as jobs come and go,
// no weights from the patterns. It fails when a job lists a node out of
// range or twice, or with ctx's error.
func JobAware(ctx context.Context, f *Fabric, jobs []Job) (*Table, error) {
	// Per job, its nodes per L1; per node, the jobs that hold it.
	type l1Count struct {
		l1 int
		n  int64
	}
	perJob := make([][]l1Count, len(jobs))
	of := make([][]int, len(f.Nodes))
	count := make([]int64, f.Spec.Switches(1))
	for i := range jobs {
		if _, err := nodeSet(f, jobs[i].Nodes); err != nil {
			return nil, fmt.Errorf("fattree: job-aware routing: job %d (%q): %w", i, jobs[i].ID, err)
		}
		for _, d := range jobs[i].Nodes {
			of[d] = append(of[d], i)
			count[f.Nodes[d].Switch]++
		}
		for _, d := range jobs[i].Nodes {
			if l1 := f.Nodes[d].Switch; count[l1] > 0 {
				perJob[i] = append(perJob[i], l1Count{l1, count[l1]})
				count[l1] = 0
			}
		}
	}
	t, err := balanced(ctx, f, func(d int, w []int64) {
		clear(w)
		for _, j := range of[d] {
			for _, c := range perJob[j] {
				w[c.l1] += c.n
			}
			w[f.Nodes[d].Switch]--
		}
	})
	if err != nil {
		return nil, fmt.Errorf("fattree: job-aware routing: %w", err)
	}
	return t, nil
}

// balanced builds the table of SSSP and JobAware: sources(d, w) sets w[l1]
// to the number of routes to d that start under each L1.
func balanced(ctx context.Context, f *Fabric, sources func(d int, w []int64)) (*Table, error) {
	s := newShape(f.Spec)
	t := NewTable(f)
	used := make([]int64, len(f.Links)) // routes so far on each link
	w := make([]int64, s.nl1)
	mark := make([]int, len(f.Switches)) // d+1 once the switch has chosen its port for d
	next := make([]int32, len(f.Switches))
	var d int
	// options is the first of the consecutive ports of sw that lead
	// toward d on a minimal route, and how many there are.
	options := func(sw int) (int, int) {
		nd := &f.Nodes[d]
		switch {
		case sw < s.nl1:
			if sw == nd.Switch {
				return nd.Slot + 1, 1
			}
			return s.nodesPerL1 + 1, s.u1
		case sw < s.nl1+s.nl2:
			if (sw-s.nl1)/s.l2PerPod == nd.Pod {
				return 1 + nd.L1*s.c1, s.c1
			}
			return s.l2Up + 1, s.u2
		}
		return 1 + nd.Pod*s.g*s.c2, s.g * s.c2
	}
	// onward is the routes so far on the link sw forwards d's traffic on,
	// or on the least used of its options while it has not chosen.
	onward := func(sw int) int64 {
		if mark[sw] == d+1 {
			return used[next[sw]]
		}
		first, n := options(sw)
		best := int64(-1)
		for p := first; p < first+n; p++ {
			if u := used[f.port(sw, p)]; best < 0 || u < best {
				best = u
			}
		}
		return best
	}
	// choose is the link sw forwards d's traffic on, chosen now if it
	// has not chosen yet.
	choose := func(sw int) int {
		if mark[sw] == d+1 {
			return int(next[sw])
		}
		first, n := options(sw)
		bestPort, bestLink, bestCost := 0, -1, int64(0)
		for p := first; p < first+n; p++ {
			id := f.port(sw, p)
			cost := used[id]
			if f.Links[id].Kind != Down10 {
				cost += onward(int(f.linkTo[id]))
			}
			if bestLink < 0 || cost < bestCost {
				bestPort, bestLink, bestCost = p, id, cost
			}
		}
		t.ports[sw*t.nodes+d] = uint8(bestPort)
		mark[sw], next[sw] = d+1, int32(bestLink)
		return bestLink
	}
	done := ctx.Done()
	for d = range f.Nodes {
		if d%64 == 0 {
			select {
			case <-done:
				return nil, ctx.Err()
			default:
			}
		}
		// Place the routes to d L1 by L1, each along the choices made so
		// far, choosing where nothing is chosen yet.
		sources(d, w)
		for l1, c := range w {
			if c <= 0 {
				continue
			}
			sw := l1
			for {
				id := choose(sw)
				used[id] += c
				if f.Links[id].Kind == Down10 {
					break
				}
				sw = int(f.linkTo[id])
			}
		}
		// Switches on no route to d still need a port.
		for sw := range f.Switches {
			choose(sw)
		}
	}
	return t, nil
}
