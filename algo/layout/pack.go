package layout

import (
	"cmp"
	"context"
	"math"
	"slices"
)

// component is one connected component of the input graph in a layout.
type component struct {
	first                  int32 // lowest vertex: names the component
	size                   int
	minX, minY, maxX, maxY float64
}

// pack moves the connected components of l next to each other. The
// spring-electrical model has nothing holding two components together, so
// they drift apart for as long as the layout runs (an isolated vertex of
// a 5,000-vertex random graph ended 5,000 times farther out than the rest,
// which then drew as a dot). The largest component stays where it is; the
// others, largest first, are placed as close to its centre as they fit
// without touching what is already placed, each keeping its own layout:
// the polyomino packing of K. Freivalds, U. Dogrusoz and P. Kikusts
// ("Disconnected graph layout and the polyomino packing approach", Graph
// Drawing 2001), which Graphviz's pack uses. A component's polyomino is
// the cells of a grid one mean edge length wide that it covers, each row
// filled from its first cell to its last (so that nothing lands in the
// gaps of a component's outskirts and reads as part of it), grown by one
// cell on every side for the gap between components. Small components
// thus settle around the largest one, in the corners of its frame, and
// the drawing's frame stays that of its largest component.
//
// A graph without edges is left as it is. If ctx is cancelled first, pack
// returns its error and leaves pos as it was.
func pack(ctx context.Context, l *level, pos []float64) error {
	n := l.n
	comp := make([]int32, n) // component index per vertex
	for v := range comp {
		comp[v] = -1
	}
	var comps []component
	queue := make([]int32, 0, 64)
	visited := 0
	for s := int32(0); s < int32(n); s++ {
		if comp[s] >= 0 {
			continue
		}
		id := int32(len(comps))
		c := component{first: s, minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
		comp[s] = id
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			if err := cancelled(ctx, visited); err != nil {
				return err
			}
			visited++
			v := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			c.size++
			x, y := pos[2*v], pos[2*v+1]
			c.minX, c.maxX = min(c.minX, x), max(c.maxX, x)
			c.minY, c.maxY = min(c.minY, y), max(c.maxY, y)
			for _, u := range l.nbrs(int(v)) {
				if comp[u] < 0 {
					comp[u] = id
					queue = append(queue, u)
				}
			}
		}
		comps = append(comps, c)
	}
	if len(comps) < 2 {
		return nil
	}
	cell := meanEdge(l, pos)
	if !(cell > 0) {
		return nil
	}

	// Largest first; ties by lowest vertex.
	order := make([]int32, len(comps))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return comps[b].size - comps[a].size
	})
	// Every component's vertices, grouped by component.
	start := make([]int32, len(comps)+1)
	for _, c := range comp {
		start[c+1]++
	}
	for i := range comps {
		start[i+1] += start[i]
	}
	members := make([]int32, n)
	next := slices.Clone(start[:len(comps)])
	for v, c := range comp {
		members[next[c]] = int32(v)
		next[c]++
	}

	grid := occupancy{rows: map[int64][]span{}}
	mainComp := comps[order[0]]
	// Cell coordinates relative to the largest component's lower-left.
	ox, oy := mainComp.minX, mainComp.minY
	cellOf := func(x, y float64) (int64, int64) {
		return int64(math.Floor((x - ox) / cell)), int64(math.Floor((y - oy) / cell))
	}
	centre := [2]int64{}
	centre[0], centre[1] = cellOf((mainComp.minX+mainComp.maxX)/2, (mainComp.minY+mainComp.maxY)/2)
	dx := make([]float64, len(comps))
	dy := make([]float64, len(comps))
	search := spiral{}
	for k, ci := range order {
		if err := cancelled(ctx, k); err != nil {
			return err
		}
		vs := members[start[ci]:start[ci+1]]
		c := comps[ci]
		ax, ay := cellOf((c.minX+c.maxX)/2, (c.minY+c.maxY)/2)
		poly := polyomino(vs, pos, cellOf, ax, ay)
		var at [2]int64
		if k == 0 {
			at = [2]int64{ax, ay} // the largest stays
		} else {
			var err error
			if at, err = search.place(ctx, &grid, poly, centre); err != nil {
				return err
			}
			dx[ci] = float64(at[0]-ax) * cell
			dy[ci] = float64(at[1]-ay) * cell
		}
		grid.add(poly, at)
	}
	for v := 0; v < n; v++ {
		c := comp[v]
		pos[2*v] += dx[c]
		pos[2*v+1] += dy[c]
	}
	return nil
}

// span is the cells x0..x1 of one row.
type span struct{ x0, x1 int64 }

// rowSpan is a row of a polyomino, relative to its anchor cell.
type rowSpan struct {
	y int64
	span
}

// polyomino is the cells of a component relative to its anchor (ax, ay):
// per row, from its first covered cell to its last, grown by one cell on
// every side.
func polyomino(vs []int32, pos []float64, cellOf func(x, y float64) (int64, int64), ax, ay int64) []rowSpan {
	rows := map[int64]span{}
	for _, v := range vs {
		x, y := cellOf(pos[2*v], pos[2*v+1])
		for ry := y - 1; ry <= y+1; ry++ {
			s, ok := rows[ry]
			if !ok {
				s = span{x - 1, x + 1}
			}
			rows[ry] = span{min(s.x0, x-1), max(s.x1, x+1)}
		}
	}
	out := make([]rowSpan, 0, len(rows))
	for y, s := range rows {
		out = append(out, rowSpan{y - ay, span{s.x0 - ax, s.x1 - ax}})
	}
	slices.SortFunc(out, func(a, b rowSpan) int { return cmp.Compare(a.y, b.y) })
	return out
}

// occupancy is the cells taken by the components placed so far, as the
// spans of each row.
type occupancy struct{ rows map[int64][]span }

func (o *occupancy) free(poly []rowSpan, at [2]int64) bool {
	for _, r := range poly {
		x0, x1 := r.x0+at[0], r.x1+at[0]
		for _, s := range o.rows[r.y+at[1]] {
			if s.x0 <= x1 && x0 <= s.x1 {
				return false
			}
		}
	}
	return true
}

func (o *occupancy) add(poly []rowSpan, at [2]int64) {
	for _, r := range poly {
		y := r.y + at[1]
		o.rows[y] = append(o.rows[y], span{r.x0 + at[0], r.x1 + at[0]})
	}
}

// spiral searches the positions around a centre ring by ring (squares of
// growing side), each ring from its middle of the right side round
// anticlockwise. full is the first ring that may still have a free cell:
// every earlier ring was found full, so no polyomino fits there.
type spiral struct{ full int64 }

// place returns the first position, ring by ring from the centre, at
// which poly fits.
func (s *spiral) place(ctx context.Context, grid *occupancy, poly []rowSpan, centre [2]int64) ([2]int64, error) {
	for r := s.full; ; r++ {
		if err := ctx.Err(); err != nil {
			return [2]int64{}, err
		}
		anyFree := false
		var found [2]int64
		ok := false
		ringCells(r, func(x, y int64) bool {
			at := [2]int64{centre[0] + x, centre[1] + y}
			if !anyFree && grid.free([]rowSpan{{0, span{0, 0}}}, at) {
				anyFree = true
			}
			if grid.free(poly, at) {
				found, ok = at, true
				return false
			}
			return true
		})
		if !anyFree && r == s.full {
			s.full = r + 1
		}
		if ok {
			return found, nil
		}
	}
}

// ringCells calls visit for each cell of the square ring at Chebyshev
// distance r from the origin, nearest the axes first, until visit returns
// false (a corner is visited twice).
func ringCells(r int64, visit func(x, y int64) bool) {
	if r == 0 {
		visit(0, 0)
		return
	}
	// Offsets along a side, nearest its middle first: 0, 1, −1, 2, −2, …
	for i := int64(0); i <= 2*r; i++ {
		t := (i + 1) / 2
		if i%2 == 0 {
			t = -t
		}
		if !visit(r, t) || !visit(t, r) || !visit(-r, -t) || !visit(-t, -r) {
			return
		}
	}
}
