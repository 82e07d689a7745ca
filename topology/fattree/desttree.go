package fattree

import "fmt"

// destTree is one worker's scratch for the routing tree of one destination
// at a time, shared by AllToAllLoads and JobLoads. Destination-based
// routing makes the routes to a destination d from every switch a tree
// rooted at d: a route is added by walking up from its source's L1 until
// it meets a switch already in the tree (join), and the route counts are
// then pushed from the leaves to d once (push), so a destination costs
// O(switches), whatever the number of sources.
type destTree struct {
	f *Fabric
	r Routing

	loads []int64 // per link, summed over every destination

	first int     // marks of the current destination's tree are ≥ first
	walk  int     // number of the current walk, increasing over all destinations
	mark  []int   // per switch: the walk that last visited it
	next  []int32 // per switch: the link it forwards the destination's traffic on
	depth []int32 // per switch: switches from it to the destination, itself included
	count []int64 // per switch: sources whose route passes through it
	order []int32 // switches of the tree, each after the switches it forwards to
	path  []int32 // the switches of the current walk
}

func newDestTree(f *Fabric, r Routing) destTree {
	ns := len(f.Switches)
	return destTree{
		f: f, r: r,
		loads: make([]int64, len(f.Links)),
		mark:  make([]int, ns), next: make([]int32, ns),
		depth: make([]int32, ns), count: make([]int64, ns),
		order: make([]int32, 0, ns), path: make([]int32, 0, ns),
	}
}

// begin starts the tree of a new destination.
func (t *destTree) begin() {
	t.first = t.walk + 1
	t.order = t.order[:0]
}

// join adds own routes from the L1 switch s to node d (their up links
// from the sources are the caller's) and returns how many switches such a
// route crosses. A route that comes back to a switch it crossed is an
// error naming the loop.
func (t *destTree) join(s, d int, own int64) (int32, error) {
	f := t.f
	t.walk++
	path := t.path[:0]
	sw := s
	var depth int32
	for {
		if t.mark[sw] >= t.first {
			if t.mark[sw] == t.walk {
				path = append(path, int32(sw))
				return 0, fmt.Errorf("routes to node %d loop: %s", d, f.switchNames(int32s(path)))
			}
			depth = t.depth[sw]
			break
		}
		t.mark[sw] = t.walk
		t.count[sw] = 0
		id, err := f.next(t.r, sw, d)
		if err != nil {
			return 0, err
		}
		t.next[sw] = int32(id)
		path = append(path, int32(sw))
		if f.Links[id].Kind == Down10 {
			break
		}
		sw = int(f.linkTo[id])
	}
	for i := len(path) - 1; i >= 0; i-- {
		depth++
		t.depth[path[i]] = depth
		t.order = append(t.order, path[i])
	}
	t.path = path
	t.count[s] += own
	return t.depth[s], nil
}

// push adds the current tree's route counts to the links, from the leaves
// to the destination.
func (t *destTree) push() {
	f := t.f
	for i := len(t.order) - 1; i >= 0; i-- {
		sw := t.order[i]
		c := t.count[sw]
		if c == 0 {
			continue
		}
		id := t.next[sw]
		t.loads[id] += c
		if f.Links[id].Kind != Down10 {
			t.count[f.linkTo[id]] += c
		}
	}
}
