package layout

import (
	"context"
	"math"
	"slices"
)

// packGap is the space left between packed components, in mean edge
// lengths.
const packGap = 2

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
// others, largest first, are laid in rows below it, each keeping its own
// layout, packGap mean edge lengths apart. A graph without edges is left
// as it is. If ctx is cancelled first, pack returns its error and leaves
// pos as it was.
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
	unit := meanEdge(l, pos)
	if unit == 0 {
		return nil
	}
	gap := packGap * unit

	// Largest first; ties by lowest vertex.
	order := make([]int32, len(comps))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return comps[b].size - comps[a].size
	})
	main := comps[order[0]]
	area := 0.0
	for _, i := range order[1:] {
		c := comps[i]
		area += (c.maxX - c.minX + gap) * (c.maxY - c.minY + gap)
	}
	width := max(main.maxX-main.minX, math.Sqrt(area))

	// Shelf packing: rows left to right below the largest component.
	dx := make([]float64, len(comps))
	dy := make([]float64, len(comps))
	x, top, rowHeight := main.minX, main.minY-gap, 0.0
	for _, i := range order[1:] {
		c := comps[i]
		w, h := c.maxX-c.minX, c.maxY-c.minY
		if x > main.minX && x+w > main.minX+width {
			x, top, rowHeight = main.minX, top-rowHeight-gap, 0
		}
		dx[i], dy[i] = x-c.minX, top-c.maxY
		x += w + gap
		rowHeight = max(rowHeight, h)
	}
	for v := 0; v < n; v++ {
		c := comp[v]
		pos[2*v] += dx[c]
		pos[2*v+1] += dy[c]
	}
	return nil
}
