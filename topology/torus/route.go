package torus

import "fmt"

// RouteOptions configure dimension-order routing.
type RouteOptions struct {
	// Order lists the dimensions in the order a packet travels them; every
	// dimension exactly once. Empty means 0, 1, …, Dims()−1.
	Order []int
	// TieMinus sends a packet the "−" way round when both ways are equally
	// short (a wrapped dimension of even extent K, distance K/2); by
	// default it goes "+". In an extent-2 dimension built with
	// Extent2Channels(1) only the "+" channel exists, and it is taken
	// whatever TieMinus says.
	TieMinus bool
}

// Router routes packets by dimension order on one torus. It is built once
// by Torus.Router and then allocates nothing; it is safe for concurrent
// use.
type Router struct {
	t     *Torus
	order []int
	tie   int // direction slot taken on a tie: 0 (+) or 1 (−)
}

// Router checks o against t and returns a router for it.
func (t *Torus) Router(o RouteOptions) (*Router, error) {
	n := len(t.extents)
	r := &Router{t: t}
	if o.TieMinus {
		r.tie = 1
	}
	if len(o.Order) == 0 {
		r.order = make([]int, n)
		for d := range r.order {
			r.order[d] = d
		}
		return r, nil
	}
	if len(o.Order) != n {
		return nil, fmt.Errorf("torus: route order %v: %d dimensions for a %d-dimensional torus", o.Order, len(o.Order), n)
	}
	seen := make([]bool, n)
	for _, d := range o.Order {
		if d < 0 || d >= n {
			return nil, fmt.Errorf("torus: route order %v: dimension %d is outside 0..%d", o.Order, d, n-1)
		}
		if seen[d] {
			return nil, fmt.Errorf("torus: route order %v: dimension %s appears twice", o.Order, t.names[d])
		}
		seen[d] = true
	}
	r.order = append([]int(nil), o.Order...)
	return r, nil
}

// Route returns the channel ids a packet from node u to node v crosses,
// in order, under dimension-order routing: dimension by dimension in
// o.Order, each the shortest way round (straight in a mesh dimension),
// a tie at K/2 going "+" unless o.TieMinus. u = v gives no channel.
func (t *Torus) Route(u, v int, o RouteOptions) ([]int, error) {
	r, err := t.Router(o)
	if err != nil {
		return nil, err
	}
	if err := t.checkNode(u); err != nil {
		return nil, err
	}
	if err := t.checkNode(v); err != nil {
		return nil, err
	}
	out := make([]int, 0, t.Dist(u, v))
	r.walk(u, v, func(ch int) { out = append(out, ch) })
	return out, nil
}

func (t *Torus) checkNode(v int) error {
	if v < 0 || v >= t.nodes {
		return fmt.Errorf("torus: node %d is outside 0..%d", v, t.nodes-1)
	}
	return nil
}

// Add adds units to loads[c] for every channel c on the route from u to
// v (len(loads) = Channels()). It allocates nothing and does not check
// its arguments: u and v must be nodes of the torus.
func (r *Router) Add(loads []int64, u, v int, units int64) {
	t := r.t
	n := len(t.extents)
	for _, d := range r.order {
		k := t.extents[d]
		stride := t.strides[d]
		a := u / stride % k
		b := v / stride % k
		if a == b {
			continue
		}
		steps, s := r.leg(d, a, b)
		// Walk the leg: the channel at slot (u·n + d)·2 + s, then the
		// next node along d.
		x := a
		for ; steps > 0; steps-- {
			loads[t.slotID[(u*n+d)*2+s]] += units
			if s == 0 {
				if x++; x == k {
					x = 0
					u -= (k - 1) * stride
				} else {
					u += stride
				}
			} else {
				if x--; x < 0 {
					x = k - 1
					u += (k - 1) * stride
				} else {
					u -= stride
				}
			}
		}
	}
}

// leg returns the number of steps and the direction slot (0 = +, 1 = −)
// that take coordinate a to b ≠ a along dimension d.
func (r *Router) leg(d, a, b int) (steps, s int) {
	t := r.t
	k := t.extents[d]
	if t.mesh[d] {
		if b > a {
			return b - a, 0
		}
		return a - b, 1
	}
	plus := b - a
	if plus < 0 {
		plus += k
	}
	minus := k - plus
	switch {
	case plus < minus:
		return plus, 0
	case minus < plus:
		return minus, 1
	case k == 2 && t.k2 == 1:
		return 1, 0
	}
	return plus, r.tie
}

// walk calls f with every channel from u to v, in order.
func (r *Router) walk(u, v int, f func(ch int)) {
	t := r.t
	for _, d := range r.order {
		k := t.extents[d]
		stride := t.strides[d]
		a := u / stride % k
		b := v / stride % k
		if a == b {
			continue
		}
		steps, s := r.leg(d, a, b)
		dir := 1 - 2*s
		for ; steps > 0; steps-- {
			id, _ := t.ChannelID(u, d, dir)
			f(id)
			u, _ = t.Step(u, d, dir)
		}
	}
}
