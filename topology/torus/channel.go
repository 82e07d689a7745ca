package torus

import "fmt"

// Channel is one directed link: from Node, along dimension Dim, in
// direction Dir (+1 or −1), to To.
//
// Ids. A channel's slot is 2·(Node·Dims() + Dim) + (0 for +, 1 for −), the
// order Boxfish numbers Blue Gene/P links (linkid = 6·node + direction,
// directions +x, −x, +y, −y, +z, −z). Channel ids are dense: the slots
// that hold a channel, numbered in slot order. When every dimension is
// wrapped with extent ≥ 3 (or 2 with Extent2Channels(2)), id = slot.
// An extent-1 dimension has no channel; a mesh dimension has no "+" channel
// at its last coordinate and no "−" at 0; an extent-2 wrapped dimension
// has "+" and "−" channels to the same neighbour, or only "+" with
// Extent2Channels(1).
type Channel struct {
	ID       int
	Node, To int
	Dim      int
	Dir      int
}

// Channels is the number of directed channels.
func (t *Torus) Channels() int { return len(t.slots) }

// Channel returns channel id (0 ≤ id < Channels()).
func (t *Torus) Channel(id int) Channel {
	slot := int(t.slots[id])
	s := slot % 2
	d := slot / 2 % len(t.extents)
	v := slot / 2 / len(t.extents)
	dir := 1 - 2*s
	to, _ := t.Step(v, d, dir)
	return Channel{ID: id, Node: v, To: to, Dim: d, Dir: dir}
}

// ChannelID returns the id of the channel leaving node v along dimension d
// in direction dir (+1 or −1), and false if there is none.
func (t *Torus) ChannelID(v, d, dir int) (int, bool) {
	if v < 0 || v >= t.nodes || d < 0 || d >= len(t.extents) || (dir != 1 && dir != -1) {
		return 0, false
	}
	s := 0
	if dir < 0 {
		s = 1
	}
	id := t.slotID[(v*len(t.extents)+d)*2+s]
	return int(id), id >= 0
}

// ChannelBetween returns the channel from u to its neighbour v. Where two
// channels join them (extent 2, Extent2Channels(2)) it returns the "+" one
// when plus is true and the "−" one otherwise; elsewhere plus is ignored.
// It fails when v is not a neighbour of u.
func (t *Torus) ChannelBetween(u, v int, plus bool) (int, error) {
	if u < 0 || u >= t.nodes || v < 0 || v >= t.nodes {
		return 0, fmt.Errorf("torus: channel %d→%d: node outside 0..%d", u, v, t.nodes-1)
	}
	var found []int
	for d := range t.extents {
		for _, dir := range [2]int{+1, -1} {
			if w, ok := t.Step(u, d, dir); ok && w == v {
				if id, ok := t.ChannelID(u, d, dir); ok {
					found = append(found, id)
				}
			}
		}
	}
	switch {
	case len(found) == 0:
		return 0, fmt.Errorf("torus: nodes %v and %v are not neighbours in %s", t.Coord(u), t.Coord(v), t)
	case len(found) == 2 && !plus:
		return found[1], nil
	}
	return found[0], nil
}

// Pair is an undirected neighbour pair, A < B.
type Pair struct {
	A, B int
	Dim  int
}

// Pairs returns every neighbour pair once (parallel channels of an
// extent-2 dimension make one pair), ordered by A, then dimension.
func (t *Torus) Pairs() []Pair {
	var out []Pair
	for v := 0; v < t.nodes; v++ {
		for d := range t.extents {
			for _, dir := range [2]int{+1, -1} {
				w, ok := t.Step(v, d, dir)
				if !ok || w <= v {
					continue
				}
				if dir == -1 && t.extents[d] == 2 {
					continue // the same neighbour as "+"
				}
				out = append(out, Pair{A: v, B: w, Dim: d})
			}
		}
	}
	return out
}
