package quality

// kdTree is an implicit 2-d tree over a layout's points: idx is a
// permutation of the vertices such that the range [lo, hi) of a node splits
// at mid = (lo+hi)/2 on axis[mid], the points of [lo, mid) lying at or
// below split[mid] and those of [mid, hi) at or above.
// Ranges of at most kdLeaf points are leaves, scanned directly.
type kdTree struct {
	pos   []float64
	idx   []int32
	axis  []uint8
	split []float64
}

const kdLeaf = 8

func newKDTree(pos []float64) *kdTree {
	n := len(pos) / 2
	t := &kdTree{pos: pos, idx: make([]int32, n), axis: make([]uint8, n), split: make([]float64, n)}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	t.build(0, n)
	return t
}

func (t *kdTree) coord(v int32, axis uint8) float64 { return t.pos[2*int(v)+int(axis)] }

func (t *kdTree) build(lo, hi int) {
	for hi-lo > kdLeaf {
		// Split across the wider side of the range's bounding box.
		minX, maxX := t.coord(t.idx[lo], 0), t.coord(t.idx[lo], 0)
		minY, maxY := t.coord(t.idx[lo], 1), t.coord(t.idx[lo], 1)
		for _, v := range t.idx[lo:hi] {
			x, y := t.coord(v, 0), t.coord(v, 1)
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
		var axis uint8
		if maxY-minY > maxX-minX {
			axis = 1
		}
		mid := (lo + hi) / 2
		t.selectNth(lo, hi, mid, axis)
		t.axis[mid] = axis
		t.split[mid] = t.coord(t.idx[mid], axis)
		t.build(lo, mid)
		lo = mid
	}
}

// selectNth reorders idx[lo:hi] so that idx[k] holds the point that would
// be there if the range were sorted on axis, with no larger coordinate
// before it and no smaller one after (Hoare's selection, median-of-three
// pivots).
func (t *kdTree) selectNth(lo, hi, k int, axis uint8) {
	idx := t.idx
	hi-- // inclusive
	for hi > lo {
		m := lo + (hi-lo)/2
		a, b, c := t.coord(idx[lo], axis), t.coord(idx[m], axis), t.coord(idx[hi], axis)
		pivot := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for t.coord(idx[i], axis) < pivot {
				i++
			}
			for t.coord(idx[j], axis) > pivot {
				j--
			}
			if i <= j {
				idx[i], idx[j] = idx[j], idx[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// knnQuery holds a query's max-heap of the best candidates so far, ordered
// by (squared distance, vertex) so that ties break the same way every run.
type knnQuery struct {
	d2   []float64
	v    []int32
	k    int
	x, y float64
	self int32
}

func (q *knnQuery) worse(i, j int) bool {
	return q.d2[i] > q.d2[j] || (q.d2[i] == q.d2[j] && q.v[i] > q.v[j])
}

func (q *knnQuery) offer(d2 float64, v int32) {
	if len(q.d2) < q.k {
		q.d2 = append(q.d2, d2)
		q.v = append(q.v, v)
		for i := len(q.d2) - 1; i > 0; {
			p := (i - 1) / 2
			if !q.worse(i, p) {
				break
			}
			q.d2[i], q.d2[p] = q.d2[p], q.d2[i]
			q.v[i], q.v[p] = q.v[p], q.v[i]
			i = p
		}
		return
	}
	if d2 > q.d2[0] || (d2 == q.d2[0] && v > q.v[0]) {
		return
	}
	q.d2[0], q.v[0] = d2, v
	for i := 0; ; {
		l, r, w := 2*i+1, 2*i+2, i
		if l < len(q.d2) && q.worse(l, w) {
			w = l
		}
		if r < len(q.d2) && q.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		q.d2[i], q.d2[w] = q.d2[w], q.d2[i]
		q.v[i], q.v[w] = q.v[w], q.v[i]
		i = w
	}
}

// bound is the squared distance a point must beat to enter the heap.
func (q *knnQuery) bound() float64 {
	if len(q.d2) < q.k {
		return inf
	}
	return q.d2[0]
}

const inf = 1.7976931348623157e308

// nearest returns the k points nearest to (x, y) other than self, nearest
// ties broken by the lower vertex number (fewer if there are fewer
// points). The slice belongs to q and is overwritten by its next use.
func (t *kdTree) nearest(q *knnQuery, x, y float64, self int32, k int) []int32 {
	q.d2, q.v = q.d2[:0], q.v[:0]
	q.k, q.x, q.y, q.self = k, x, y, self
	if k > 0 {
		t.search(q, 0, len(t.idx))
	}
	return q.v
}

func (t *kdTree) search(q *knnQuery, lo, hi int) {
	if hi-lo <= kdLeaf {
		for _, v := range t.idx[lo:hi] {
			if v == q.self {
				continue
			}
			dx, dy := t.coord(v, 0)-q.x, t.coord(v, 1)-q.y
			q.offer(float64(dx*dx)+float64(dy*dy), v)
		}
		return
	}
	mid := (lo + hi) / 2
	axis := t.axis[mid]
	qc := q.x
	if axis == 1 {
		qc = q.y
	}
	diff := qc - t.split[mid]
	if diff < 0 {
		t.search(q, lo, mid)
		if float64(diff*diff) <= q.bound() {
			t.search(q, mid, hi)
		}
	} else {
		t.search(q, mid, hi)
		if float64(diff*diff) <= q.bound() {
			t.search(q, lo, mid)
		}
	}
}
