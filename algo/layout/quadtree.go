package layout

import (
	"context"
	"math"
	"math/bits"
)

// quadtree is a Barnes–Hut tree over the current positions, rebuilt every
// iteration into the same flat arrays (no allocation per node once the
// arrays have grown).
//
// The points are sorted by their Morton (Z-order) code, so every subtree
// covers a contiguous range of the sorted points; the nodes are stored in
// depth-first order, so a node's first child is the next node and next
// skips its whole subtree. A traversal is then a single loop over node
// indices with no stack: accept a far node and jump to next, or step into
// it. Chains of nodes with a single child are collapsed (a node starts at
// the level where its points first differ), and ranges of at most
// leafSize points are leaves whose points are visited one by one. The
// tree is walked once per group (a largest subtree of at most groupSize
// points) for all the group's points.
type quadtree struct {
	nodes []qnode

	// Per point, in Morton order.
	order []int32   // vertex at each sorted position
	sx    []float64 // x, y, mass of the sorted points
	sy    []float64
	sm    []float64

	codes, codesTmp []uint64
	orderTmp        []int32
	boxes           [][4]float64 // per node: bounding box x0, x1, y0, y1
	groups          []int32      // the largest nodes of at most groupSize points, in order

	theta float64

	// The context of the build under way and its error: a cancelled
	// build stops adding nodes (see subtree).
	ctx context.Context
	err error
}

// qnode is one cell of the tree. The cell's points are sorted positions
// lo..hi-1. A point at squared distance greater than r2 from the centre
// of mass (cx, cy) may treat the cell as a single body of the given mass
// (a 64-byte node: one cache line).
type qnode struct {
	cx, cy float64
	mass   float64
	r2     float64
	next   int32 // the node after this one's subtree
	lo, hi int32
	leaf   bool
}

const (
	groupSize = 16 // points that share one walk of the tree
	leafSize  = 8
	mortonBit = 30 // bits per axis of the Morton codes
)

// spread interleaves zeros into the low 32 bits of x: bit i moves to 2i.
func spread(x uint64) uint64 {
	x &= 0xffffffff
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x
}

// build sorts the points pos (x0, y0, x1, y1, …) and builds the tree.
// mass gives each point's mass (nil: all 1). The opening test accepts a
// node for a point at distance d from its centre of mass when
// d > w/θ + δ, w being the longer side of the node's bounding box and δ the
// distance from the centre of mass to the box's centre: a point inside the
// box is then never accepted (for θ < √2), so no point ever counts itself.
// If ctx is cancelled first, build returns its error and leaves the tree
// unusable until the next build.
func (t *quadtree) build(ctx context.Context, pos []float64, mass []float64) error {
	n := len(pos) / 2
	t.order = grow(t.order, n)
	t.orderTmp = grow(t.orderTmp, n)
	t.codes = grow(t.codes, n)
	t.codesTmp = grow(t.codesTmp, n)
	t.sx = grow(t.sx, n)
	t.sy = grow(t.sy, n)
	t.sm = grow(t.sm, n)
	t.nodes = t.nodes[:0]
	t.boxes = t.boxes[:0]
	t.groups = t.groups[:0]
	if n == 0 {
		return nil
	}

	minX, maxX, minY, maxY := pos[0], pos[0], pos[1], pos[1]
	for i := 1; i < n; i++ {
		x, y := pos[2*i], pos[2*i+1]
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	// One scale for both axes: the cells of the Morton grid are squares,
	// so the tree's nodes are too. (Scaling each axis to its own extent
	// made the nodes of a wide or tall layout — one with a far-off
	// isolated vertex, say — long slabs that the opening test rarely
	// accepts: a 30,000-vertex layout with one vertex 500 diameters away
	// took 90 times the interactions.)
	const cells = 1<<mortonBit - 1
	scale := 0.0
	if side := max(maxX-minX, maxY-minY); side > 0 {
		scale = cells / side
	}
	for i := 0; i < n; i++ {
		if err := cancelled(ctx, i); err != nil {
			return err
		}
		qx := uint64(min(float64((pos[2*i]-minX)*scale), cells))
		qy := uint64(min(float64((pos[2*i+1]-minY)*scale), cells))
		t.codes[i] = spread(qx) | spread(qy)<<1
		t.order[i] = int32(i)
	}
	if err := t.radixSort(ctx); err != nil {
		return err
	}
	for s, v := range t.order {
		t.sx[s] = pos[2*v]
		t.sy[s] = pos[2*v+1]
		if mass != nil {
			t.sm[s] = mass[v]
		} else {
			t.sm[s] = 1
		}
	}
	t.ctx, t.err = ctx, nil
	t.subtree(0, int32(n), false)
	err := t.err
	t.ctx, t.err = nil, nil
	return err
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// radixSort sorts codes (carrying order along) with a stable LSD radix
// sort on bytes, skipping the bytes that are the same in every code. It
// looks at ctx before each pass (a few milliseconds for a million codes).
func (t *quadtree) radixSort(ctx context.Context) error {
	n := len(t.codes)
	var count [8][256]int
	for _, c := range t.codes {
		for b := 0; b < 8; b++ {
			count[b][byte(c>>(8*b))]++
		}
	}
	src, dst := t.codes, t.codesTmp
	osrc, odst := t.order, t.orderTmp
	for b := 0; b < 8; b++ {
		cnt := &count[b]
		if cnt[byte(src[0]>>(8*b))] == n {
			continue // every code has this byte
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		sum := 0
		for i := range cnt {
			cnt[i], sum = sum, sum+cnt[i]
		}
		shift := uint(8 * b)
		for i, c := range src {
			k := byte(c >> shift)
			dst[cnt[k]] = c
			odst[cnt[k]] = osrc[i]
			cnt[k]++
		}
		src, dst = dst, src
		osrc, odst = odst, osrc
	}
	t.codes, t.codesTmp = src, dst
	t.order, t.orderTmp = osrc, odst
	return nil
}

// subtree appends the node for sorted points lo..hi-1 and its subtree, and
// returns the node's index. Every checkEvery nodes it looks at t.ctx; once
// that is cancelled (t.err set) it appends empty nodes only.
func (t *quadtree) subtree(lo, hi int32, inGroup bool) int32 {
	id := int32(len(t.nodes))
	if !inGroup && hi-lo <= groupSize {
		t.groups = append(t.groups, id)
		inGroup = true
	}
	t.nodes = append(t.nodes, qnode{lo: lo, hi: hi})
	t.boxes = append(t.boxes, [4]float64{})
	if t.err == nil {
		t.err = cancelled(t.ctx, int(id))
	}
	if t.err != nil {
		return id
	}
	var mass, mx, my float64
	var bx0, bx1, by0, by1 float64
	diff := t.codes[lo] ^ t.codes[hi-1]
	if hi-lo <= leafSize || diff == 0 {
		bx0, bx1, by0, by1 = t.sx[lo], t.sx[lo], t.sy[lo], t.sy[lo]
		for s := lo; s < hi; s++ {
			m := t.sm[s]
			mass += m
			mx += float64(m * t.sx[s])
			my += float64(m * t.sy[s])
			bx0, bx1 = min(bx0, t.sx[s]), max(bx1, t.sx[s])
			by0, by1 = min(by0, t.sy[s]), max(by1, t.sy[s])
		}
		t.nodes[id].leaf = true
	} else {
		// The codes of lo..hi-1 agree above their highest differing bit;
		// split on the two-bit digit (one quadtree level) that holds it.
		shift := uint(bits.Len64(diff)-1) &^ 1
		first := true
		for start := lo; start < hi; {
			digit := (t.codes[start] >> shift) & 3
			// The first point after start with a larger digit.
			a, b := start+1, hi
			for a < b {
				m := int32(uint32(a+b) >> 1)
				if (t.codes[m]>>shift)&3 > digit {
					b = m
				} else {
					a = m + 1
				}
			}
			c := t.subtree(start, a, inGroup)
			cm := t.nodes[c].mass
			mass += cm
			mx += float64(cm * t.nodes[c].cx)
			my += float64(cm * t.nodes[c].cy)
			cb := t.boxes[c]
			if first {
				bx0, bx1, by0, by1 = cb[0], cb[1], cb[2], cb[3]
				first = false
			} else {
				bx0, bx1 = min(bx0, cb[0]), max(bx1, cb[1])
				by0, by1 = min(by0, cb[2]), max(by1, cb[3])
			}
			start = a
		}
	}
	nd := &t.nodes[id]
	nd.mass = mass
	if mass > 0 {
		nd.cx, nd.cy = mx/mass, my/mass
	} else {
		nd.cx, nd.cy = (bx0+bx1)/2, (by0+by1)/2
	}
	w := max(bx1-bx0, by1-by0)
	ddx, ddy := nd.cx-(bx0+bx1)/2, nd.cy-(by0+by1)/2
	r := w/t.theta + math.Sqrt(float64(ddx*ddx)+float64(ddy*ddy))
	nd.r2 = float64(r * r)
	t.boxes[id] = [4]float64{bx0, bx1, by0, by1}
	nd.next = int32(len(t.nodes))
	return id
}

// body is a far cell seen as one point of the cell's mass.
type body struct{ x, y, m float64 }

// scratch holds one worker's interaction lists.
type scratch struct {
	far    []body
	near   [][2]int32 // ranges of sorted points
	fx, fy []float64  // a group's forces
}

// groupRepulsion computes the repulsion on every point of node group
// (one of t.groups, sorted positions lo..hi-1) into fx, fy (indexed by
// sorted position − lo): Σ m_j (x − x_j)/|x − x_j|^(p+1) over the other
// points, far cells taken as single bodies. The tree is walked once for
// the whole group: a cell counts as one body when even the group's
// nearest point is far enough from it (the opening test of build, against
// the group's bounding box), so every point of the group sees the same
// cells, and a cell that holds any of them is never accepted. Points at exactly the same position
// exert no force on each other. Products are converted explicitly so that
// no platform fuses them into FMA instructions.
func (t *quadtree) groupRepulsion(group int32, p float64, sc *scratch, fx, fy []float64) {
	box := t.boxes[group]
	far, near := sc.far[:0], sc.near[:0]
	nodes := t.nodes
	for k := int32(0); k < int32(len(nodes)); {
		nd := &nodes[k]
		dx := max(box[0]-nd.cx, nd.cx-box[1], 0)
		dy := max(box[2]-nd.cy, nd.cy-box[3], 0)
		if float64(dx*dx)+float64(dy*dy) > nd.r2 {
			far = append(far, body{nd.cx, nd.cy, nd.mass})
			k = nd.next
			continue
		}
		if nd.leaf {
			near = append(near, [2]int32{nd.lo, nd.hi})
			k = nd.next
			continue
		}
		k++
	}
	sc.far, sc.near = far, near

	lo, hi := nodes[group].lo, nodes[group].hi
	sx, sy, sm := t.sx, t.sy, t.sm
	for s := lo; s < hi; s++ {
		x, y := sx[s], sy[s]
		var ax, ay float64
		if p == 1 {
			for _, b := range far {
				dx, dy := x-b.x, y-b.y
				f := b.m / (float64(dx*dx) + float64(dy*dy))
				ax += float64(dx * f)
				ay += float64(dy * f)
			}
			for _, r := range near {
				for j := r[0]; j < r[1]; j++ {
					dx, dy := x-sx[j], y-sy[j]
					d2 := float64(dx*dx) + float64(dy*dy)
					if d2 == 0 {
						continue // itself, or a point at the same place
					}
					f := sm[j] / d2
					ax += float64(dx * f)
					ay += float64(dy * f)
				}
			}
		} else if p == 2 {
			// f = m/d³, written out: the hottest loop for p = 2.
			for _, b := range far {
				dx, dy := x-b.x, y-b.y
				d2 := float64(dx*dx) + float64(dy*dy)
				f := b.m / float64(d2*math.Sqrt(d2))
				ax += float64(dx * f)
				ay += float64(dy * f)
			}
			for _, r := range near {
				for j := r[0]; j < r[1]; j++ {
					dx, dy := x-sx[j], y-sy[j]
					d2 := float64(dx*dx) + float64(dy*dy)
					if d2 == 0 {
						continue
					}
					f := sm[j] / float64(d2*math.Sqrt(d2))
					ax += float64(dx * f)
					ay += float64(dy * f)
				}
			}
		} else {
			for _, b := range far {
				dx, dy := x-b.x, y-b.y
				f := b.m / powDist(float64(dx*dx)+float64(dy*dy), p)
				ax += float64(dx * f)
				ay += float64(dy * f)
			}
			for _, r := range near {
				for j := r[0]; j < r[1]; j++ {
					dx, dy := x-sx[j], y-sy[j]
					d2 := float64(dx*dx) + float64(dy*dy)
					if d2 == 0 {
						continue
					}
					f := sm[j] / powDist(d2, p)
					ax += float64(dx * f)
					ay += float64(dy * f)
				}
			}
		}
		fx[s-lo], fy[s-lo] = ax, ay
	}
}

// powDist returns d^(p+1) for d² = d2.
func powDist(d2, p float64) float64 {
	if p == 2 {
		return float64(d2 * math.Sqrt(d2))
	}
	return math.Pow(d2, (p+1)/2)
}
