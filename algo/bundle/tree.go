package bundle

import (
	"context"
	"fmt"
	"math"

	"superstep/algo/meanshift"
)

// Tree is the cluster hierarchy of Hierarchy routing. Level 0 holds the
// level-1 clusters (the paper's level numbers are index + 1); each level
// k ≥ 1 below the top clusters the centres of level k−1 by weighted 2-D
// mean shift (bandwidths in Options.Growth); the top level is one root at
// the weighted mean of the level below.
type Tree struct {
	// X, Y and Weight hold the node centres and weights per level.
	X, Y, Weight [][]float64
	// Parent[k][i] is the index in level k+1 of node i of level k (absent
	// for the top level).
	Parent [][]int32
}

// Root is the position of the single top node.
func (t *Tree) Root() Point {
	top := len(t.X) - 1
	return Point{t.X[top][0], t.Y[top][0]}
}

func buildTree(ctx context.Context, b *Bundling) (*Tree, error) {
	L := b.Opts.Levels
	t := &Tree{X: make([][]float64, L), Y: make([][]float64, L), Weight: make([][]float64, L), Parent: make([][]int32, L-1)}
	k1 := len(b.ClusterX)
	t.X[0] = b.ClusterX
	t.Y[0] = make([]float64, k1)
	for c, l := range b.ClusterLane {
		t.Y[0][c] = float64(l)
	}
	t.Weight[0] = b.ClusterWeight
	for k := 1; k < L-1; k++ {
		bx := b.Opts.Bandwidth * math.Pow(b.Opts.Growth, float64(k))
		by := math.Pow(b.Opts.Growth, float64(k-1))
		r, err := meanshift.Cluster2D(ctx, t.X[k-1], t.Y[k-1], t.Weight[k-1], bx, by)
		if err != nil {
			return nil, fmt.Errorf("bundle: hierarchy level %d: %w", k+1, err)
		}
		t.X[k], t.Y[k], t.Weight[k], t.Parent[k-1] = r.X, r.Y, r.Sizes, r.Labels
	}
	// The root: weighted mean of the level below (plain mean if all
	// weights are 0; (0, 0) if there is no node at all).
	below := L - 2
	var sx, sy, sw float64
	for i := range t.X[below] {
		w := t.Weight[below][i]
		sx += w * t.X[below][i]
		sy += w * t.Y[below][i]
		sw += w
	}
	if sw == 0 {
		sx, sy, sw = 0, 0, 0
		for i := range t.X[below] {
			sx += t.X[below][i]
			sy += t.Y[below][i]
			sw++
		}
	}
	if sw > 0 {
		sx, sy = sx/sw, sy/sw
	}
	t.X[L-1], t.Y[L-1], t.Weight[L-1] = []float64{sx}, []float64{sy}, []float64{sw}
	t.Parent[L-2] = make([]int32, len(t.X[below]))
	return t, nil
}

// Route returns the tree nodes from level-1 cluster s up to the lowest
// common ancestor and down to r, as (level index, node) pairs, each node
// once. If s == r the route is that one node.
func (t *Tree) Route(s, r int32) (levels []int, nodes []int32) {
	var up, down []int32
	a, c := s, r
	k := 0
	for a != c {
		up = append(up, a)
		down = append(down, c)
		a, c = t.Parent[k][a], t.Parent[k][c]
		k++
	}
	for i, v := range up {
		levels = append(levels, i)
		nodes = append(nodes, v)
	}
	levels = append(levels, k)
	nodes = append(nodes, a) // the LCA
	for i := len(down) - 1; i >= 0; i-- {
		levels = append(levels, i)
		nodes = append(nodes, down[i])
	}
	return levels, nodes
}

// routePoints appends the interior control points of the route s → r,
// straightened by Holten's β over its own ends:
// P′_i = β·P_i + (1−β)·(P_0 + i/(N−1)·(P_{N−1} − P_0)). A one-node route
// (s == r) is given twice so that every interior has ≥ 2 points.
func (t *Tree) routePoints(dst []Point, s, r int32, beta float64) []Point {
	levels, nodes := t.Route(s, r)
	base := len(dst)
	for i, v := range nodes {
		dst = append(dst, Point{t.X[levels[i]][v], t.Y[levels[i]][v]})
	}
	if len(nodes) == 1 {
		return append(dst, dst[base])
	}
	if beta != 1 {
		p := dst[base:]
		n := len(p)
		p0, p1 := p[0], p[n-1]
		for i := 1; i < n-1; i++ {
			f := float64(i) / float64(n-1)
			p[i] = Point{
				beta*p[i].X + (1-beta)*(p0.X+f*(p1.X-p0.X)),
				beta*p[i].Y + (1-beta)*(p0.Y+f*(p1.Y-p0.Y)),
			}
		}
	}
	return dst
}
