package fattree

import (
	"context"
	"fmt"
	"sync"

	"superstep/internal/parallel"
)

// Traffic is the load that jobs put on every directed link of a fabric:
// in bytes per second per job and in total, and in routes (ordered pairs
// of ranks) per job.
type Traffic struct {
	Links []float64    // Links[id]: bytes per second on link id, all jobs together
	Jobs  []JobTraffic // one per job, in the order given

	kindStart [NumKinds + 1]int
	missing   []bool // the fabric's missing links (Fabric.Missing); nil: none
}

// JobTraffic is one job's share of a Traffic.
type JobTraffic struct {
	ID     string
	Routes []int64   // Routes[id]: the job's ordered pairs whose route crosses link id
	Links  []float64 // Links[id]: the job's bytes per second on link id, Routes[id]·BytesPerPair
	Pairs  int64     // ordered pairs of the job's pattern
	// Injected is the job's bytes per second, Pairs·BytesPerPair: what its
	// nodes send into the fabric and, routes being loss-free, what it
	// delivers.
	Injected float64
}

// Kind is the part of t.Links that holds the links of kind k, in link id
// order.
func (t *Traffic) Kind(k Kind) []float64 {
	if k >= NumKinds {
		return nil
	}
	return t.Links[t.kindStart[k]:t.kindStart[k+1]]
}

// JobLoads routes the pattern of every job with r and adds up the bytes
// per second on every directed link, per job and in total. A job's rank i
// is its node Nodes[i]; pairs of a job whose nodes coincide cannot occur
// (a job lists a node once), but different jobs may share nodes.
//
// Like AllToAllLoads it never follows a route per pair: for every
// destination rank it counts the sources under each L1, walks the
// destination's tree once from those L1 and pushes the counts down, so an
// all-to-all job of n nodes costs O(n·(n + switches)) and a ring O(n·5).
// Counts are integers and bytes are counts × BytesPerPair, so the result
// is the same bit for bit for any number of workers.
//
// It fails, naming the job, when a job has no nodes, a node out of range
// or twice, a pattern that does not fit its size, a negative or NaN
// BytesPerPair, when r has no route for a pair (or a bad port, a wrong
// delivery, a loop), or with ctx's error.
func JobLoads(ctx context.Context, f *Fabric, r Routing, jobs []Job) (Traffic, error) {
	for i := range jobs {
		if err := jobs[i].check(f, i); err != nil {
			return Traffic{}, err
		}
	}
	t := Traffic{Links: make([]float64, len(f.Links)), Jobs: make([]JobTraffic, len(jobs)), kindStart: f.kindStart, missing: f.missing}
	var walks []*pairWalk
	for i := range jobs {
		j := &jobs[i]
		routes, pairs, err := jobRoutes(ctx, f, r, j, &walks)
		if err != nil {
			return Traffic{}, fmt.Errorf("fattree: loads of job %d (%q): %w", i, j.ID, err)
		}
		jt := JobTraffic{ID: j.ID, Routes: routes, Links: make([]float64, len(f.Links)), Pairs: pairs,
			Injected: float64(pairs) * j.BytesPerPair}
		for id, c := range routes {
			if c != 0 {
				jt.Links[id] = float64(c) * j.BytesPerPair
				t.Links[id] += jt.Links[id]
			}
		}
		t.Jobs[i] = jt
	}
	return t, nil
}

// jobRoutes counts the routes of job j's pairs on every link, with the
// walkers *walks (made as needed, reused across jobs).
func jobRoutes(ctx context.Context, f *Fabric, r Routing, j *Job, walks *[]*pairWalk) ([]int64, int64, error) {
	src, err := j.Pattern.sourcer(len(j.Nodes))
	if err != nil {
		return nil, 0, err
	}
	n := len(j.Nodes)
	chunk := max(1, min(64, (1<<16)/len(f.Switches)))
	workers := parallel.Workers(0, (n+chunk-1)/chunk)
	for len(*walks) < workers {
		*walks = append(*walks, nil)
	}
	var (
		mu     sync.Mutex
		failAt = n
		fail   error
		pairs  = make([]int64, workers)
	)
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	err = parallel.Chunks(ctx2, workers, n, chunk, func(w, lo, hi int) {
		t := (*walks)[w]
		if t == nil {
			t = newPairWalk(f, r)
			(*walks)[w] = t
		}
		t.r = r
		for d := lo; d < hi; d++ {
			t.ranks = src.sources(d, t.ranks[:0])
			t.nodes = t.nodes[:0]
			for _, s := range t.ranks {
				t.nodes = append(t.nodes, j.Nodes[s])
			}
			pairs[w] += int64(len(t.nodes))
			if e := t.destination(j.Nodes[d], t.nodes); e != nil {
				mu.Lock()
				if d < failAt {
					failAt, fail = d, e
				}
				mu.Unlock()
				cancel()
				return
			}
		}
	})
	if fail == nil {
		fail = err
	}
	routes := make([]int64, len(f.Links))
	var total int64
	for w, t := range (*walks)[:workers] {
		total += pairs[w]
		if t == nil {
			continue
		}
		for id, v := range t.loads {
			if v != 0 {
				routes[id] += v
				t.loads[id] = 0
			}
		}
	}
	if fail != nil {
		// A failed walk leaves scratch state behind: start afresh.
		clear(*walks)
		return nil, 0, fail
	}
	return routes, total, nil
}

// pairWalk is one worker's state for JobLoads: its share of the route
// counts and the tree of one destination at a time, as treeWalk but with
// the sources given per destination.
type pairWalk struct {
	destTree
	l1w   []int64 // per L1: sources of the current destination under it
	l1s   []int   // the L1 with sources
	ranks []int   // scratch for the caller: source ranks
	nodes []int   // scratch for the caller: source nodes
}

func newPairWalk(f *Fabric, r Routing) *pairWalk {
	return &pairWalk{destTree: newDestTree(f, r), l1w: make([]int64, f.Spec.Switches(1))}
}

// destination adds the routes from every node of sources (none of them d;
// a node may appear several times, each a route) to node d.
func (t *pairWalk) destination(d int, sources []int) error {
	f := t.f
	for _, s := range sources {
		t.loads[f.Nodes[s].Up]++
		l1 := f.Nodes[s].Switch
		if t.l1w[l1] == 0 {
			t.l1s = append(t.l1s, l1)
		}
		t.l1w[l1]++
	}
	return t.tree(d)
}

// tree adds the routes to node d from the sources counted per L1 in
// t.l1w (the L1 listed in t.l1s), from their L1 on (the sources' up links
// are the caller's), and clears t.l1w and t.l1s.
func (t *pairWalk) tree(d int) error {
	t.begin()
	l1s := t.l1s
	t.l1s = t.l1s[:0]
	for _, s := range l1s {
		own := t.l1w[s]
		t.l1w[s] = 0
		if _, err := t.join(s, d, own); err != nil {
			for _, rest := range l1s {
				t.l1w[rest] = 0
			}
			return err
		}
	}
	t.push()
	return nil
}
