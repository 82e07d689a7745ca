package layout

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
)

// initialPositions places the vertices for a refinement from given
// positions: the placed ones (both coordinates given) centred and scaled
// so that their mean edge length is the level's k, the free ones breadth
// first at the mean of their neighbours placed before them (jittered), and
// the free ones out of reach of any placed vertex uniformly at random in
// the placed ones' bounding box (at least √n·k wide). It returns the
// positions and which vertices were given, or ctx's error if that is
// cancelled first.
func initialPositions(ctx context.Context, l *level, init []float64, rng *rand.Rand) ([]float64, []bool, error) {
	n := l.n
	pos := make([]float64, 2*n)
	placed := make([]bool, n)
	given := make([]bool, n)
	var cx, cy float64
	count := 0
	for v := 0; v < n; v++ {
		x, y := init[2*v], init[2*v+1]
		if !math.IsNaN(x) && !math.IsNaN(y) {
			placed[v], given[v] = true, true
			pos[2*v], pos[2*v+1] = x, y
			cx += x
			cy += y
			count++
		}
	}
	cx /= float64(count)
	cy /= float64(count)
	sum, edges := 0.0, 0
	for v := 0; v < n; v++ {
		if err := cancelled(ctx, v); err != nil {
			return nil, nil, err
		}
		if !placed[v] {
			continue
		}
		for _, u := range l.nbrs(v) {
			if int(u) != v && placed[u] {
				sum += dist(pos, v, int(u))
				edges++
			}
		}
	}
	scale := 1.0
	if edges > 0 && sum > 0 {
		scale = l.k * float64(edges) / sum
	}
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for v := 0; v < n; v++ {
		if placed[v] {
			pos[2*v] = float64((pos[2*v] - cx) * scale)
			pos[2*v+1] = float64((pos[2*v+1] - cy) * scale)
			minX, maxX = min(minX, pos[2*v]), max(maxX, pos[2*v])
			minY, maxY = min(minY, pos[2*v+1]), max(maxY, pos[2*v+1])
		}
	}
	// Breadth first from the placed vertices, one layer at a time: each
	// free vertex starts at the mean of its neighbours placed in earlier
	// layers, jittered.
	var frontier, layer []int32
	for v := 0; v < n; v++ {
		if placed[v] {
			frontier = append(frontier, int32(v))
		}
	}
	var next []float64
	for len(frontier) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		layer = layer[:0]
		for _, v := range frontier {
			for _, u := range l.nbrs(int(v)) {
				if !placed[u] {
					placed[u] = true
					layer = append(layer, u)
					pos[2*u] = math.NaN() // not yet placed
				}
			}
		}
		next = grow(next, 2*len(layer))
		for i, u := range layer {
			var sx, sy float64
			c := 0
			for _, w := range l.nbrs(int(u)) {
				if placed[w] && !math.IsNaN(pos[2*w]) {
					sx += pos[2*w]
					sy += pos[2*w+1]
					c++
				}
			}
			jx, jy := 2*rng.Float64()-1, 2*rng.Float64()-1
			next[2*i] = sx/float64(c) + float64(jitter*l.k*jx)
			next[2*i+1] = sy/float64(c) + float64(jitter*l.k*jy)
		}
		for i, u := range layer {
			pos[2*u], pos[2*u+1] = next[2*i], next[2*i+1]
		}
		frontier, layer = layer, frontier
	}
	if half := math.Sqrt(float64(n)) * l.k / 2; maxX-minX < 2*half || maxY-minY < 2*half {
		cx, cy := (minX+maxX)/2, (minY+maxY)/2
		minX, maxX = min(minX, cx-half), max(maxX, cx+half)
		minY, maxY = min(minY, cy-half), max(maxY, cy+half)
	}
	for v := 0; v < n; v++ {
		if !placed[v] {
			pos[2*v] = minX + (maxX-minX)*rng.Float64()
			pos[2*v+1] = minY + (maxY-minY)*rng.Float64()
		}
	}
	return pos, given, nil
}

// warm lays out the levels starting from a given layout of the finest
// one (pos, with given marking the vertices whose positions were given
// rather than guessed). The layout is restricted to the coarser levels —
// a coarse vertex at the mean of its given members, or of all its members
// if none was given — and every level, coarsest first, is refined from
// its restricted layout moved by the coarser level's refinement: a given
// vertex keeps its place relative to its parent (it moves by the parent's
// displacement), a guessed one starts at its parent's new position,
// smoothed towards its neighbours. A good given layout thus stays, up to
// the corrections the coarse levels make, and the guessed parts are laid
// out as in a layout from scratch.
func (e *engine) warm(levels []*level, pos []float64, given []bool, seed uint64) ([]float64, error) {
	rest := make([][]float64, len(levels))
	known := make([][]bool, len(levels))
	rest[0], known[0] = pos, given
	for i := 0; i+1 < len(levels); i++ {
		rest[i+1], known[i+1] = restrict(levels[i], levels[i+1], rest[i], known[i])
	}
	top := len(levels) - 1
	cur := slices.Clone(rest[top])
	for i := top; i >= 0; i-- {
		l := levels[i]
		var err error
		if i < top {
			if cur, err = e.prolongWarm(l, cur, rest[i+1], rest[i], known[i]); err != nil {
				return nil, err
			}
		}
		if cur, err = e.refineLevel(l, i, cur, seed); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// prolongWarm is prolong for warm: a given vertex at its restricted
// position moved by its parent's displacement (coarse − restCoarse), a
// guessed one at its parent's position smoothed towards its neighbours.
func (e *engine) prolongWarm(fine *level, coarse, restCoarse, restFine []float64, given []bool) ([]float64, error) {
	n := fine.n
	start := make([]float64, 2*n)
	for v := 0; v < n; v++ {
		c := fine.parent[v]
		if given[v] {
			start[2*v] = restFine[2*v] + (coarse[2*c] - restCoarse[2*c])
			start[2*v+1] = restFine[2*v+1] + (coarse[2*c+1] - restCoarse[2*c+1])
		} else {
			start[2*v], start[2*v+1] = coarse[2*c], coarse[2*c+1]
		}
	}
	pos := slices.Clone(start)
	err := e.parallel(n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if given[v] {
				continue
			}
			sx, sy, c := neighbourSum(fine.nbrs(v), v, start)
			if c > 0 {
				pos[2*v] = float64(0.5*start[2*v]) + float64(0.5*(sx/float64(c)))
				pos[2*v+1] = float64(0.5*start[2*v+1]) + float64(0.5*(sy/float64(c)))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return pos, nil
}
