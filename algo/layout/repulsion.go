package layout

import (
	"context"
	"math"
)

// longFactor sets which graphs are long (see autoRepulsion).
const longFactor = 3

// autoRepulsion chooses the repulsion exponent for Options.Repulsion 0:
// 2 for a long graph — one whose largest connected component, of n_c
// vertices, holds a shortest path of more than longFactor·log₂ n_c hops,
// as meshes, lattices and random geometric graphs do (45 to 400 hops at
// 2,000 to 40,000 vertices, where the bound is 33 to 46) — and 1 for the
// others (random, scale-free and community graphs: 5 to 27 hops).
func autoRepulsion(ctx context.Context, l *level) (float64, error) {
	hops, size, err := sweepDepth(ctx, l)
	if err != nil {
		return 0, err
	}
	if size > 1 && float64(hops) > longFactor*math.Log2(float64(size)) {
		return 2, nil
	}
	return 1, nil
}

// sweepDepth returns the hops of the longest shortest path that two
// breadth-first sweeps find in l's largest connected component (the
// first of the largest, in vertex order): from the component's
// lowest-numbered vertex to the last vertex reached, then from that one.
// It is a lower bound of the component's diameter, and on meshes and
// random graphs close to it. It also returns the component's size, or
// ctx's error if that is cancelled first. O(n + m).
func sweepDepth(ctx context.Context, l *level) (hops, size int, err error) {
	n := l.n
	mark := make([]int32, n) // 0: not reached yet; otherwise the sweep's number
	dist := make([]int32, n)
	queue := make([]int32, 0, n)
	visited := 0
	// bfs marks the vertices reached from s with tag and returns them in
	// breadth-first order (in queue), with their distances in dist.
	bfs := func(s int32, tag int32) ([]int32, error) {
		queue = append(queue[:0], s)
		mark[s], dist[s] = tag, 0
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			visited++
			if err := cancelled(ctx, visited); err != nil {
				return nil, err
			}
			for _, u := range l.nbrs(int(v)) {
				if mark[u] != tag {
					mark[u], dist[u] = tag, dist[v]+1
					queue = append(queue, u)
				}
			}
		}
		return queue, nil
	}
	start := int32(-1)
	for v := int32(0); v < int32(n); v++ {
		if mark[v] != 0 {
			continue
		}
		comp, err := bfs(v, 1)
		if err != nil {
			return 0, 0, err
		}
		if len(comp) > size {
			start, size = v, len(comp)
		}
	}
	if start < 0 {
		return 0, 0, nil
	}
	comp, err := bfs(start, 2)
	if err != nil {
		return 0, 0, err
	}
	comp, err = bfs(comp[len(comp)-1], 3)
	if err != nil {
		return 0, 0, err
	}
	return int(dist[comp[len(comp)-1]]), size, nil
}
