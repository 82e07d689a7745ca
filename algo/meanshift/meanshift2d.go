package meanshift

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// Result2D is the outcome of Cluster2D.
type Result2D struct {
	// X and Y hold the cluster centres, sorted by (x, y).
	X, Y []float64
	// Labels holds, per input point, the index of its cluster.
	Labels []int32
	// Sizes holds the total weight of each cluster.
	Sizes []float64
}

type cell2 struct{ i, j int64 }

// Cluster2D runs Gaussian mean shift in the plane with the anisotropic
// bandwidth (bx, by): the kernel is exp(−(dx/bx)²/2 − (dy/by)²/2),
// truncated at Cutoff in that scaled distance. weights may be nil (all 1).
//
// Every point climbs to its mode, in input order; neighbours are found in
// a hash grid of Cutoff-sized cells, so a step costs the points nearby.
// Modes within half a bandwidth (scaled distance 0.5) of an earlier
// cluster's first mode join that cluster (the nearest one; ties to the
// lower id); a cluster's centre is the weight-averaged mode of its points
// (exactly the mode when they share one). Centres are then sorted by
// (x, y) and labels renumbered. ctx is checked every 1,024 points.
func Cluster2D(ctx context.Context, xs, ys, weights []float64, bx, by float64) (Result2D, error) {
	n := len(xs)
	if len(ys) != n {
		return Result2D{}, fmt.Errorf("meanshift: %d x values and %d y values", n, len(ys))
	}
	if weights != nil && len(weights) != n {
		return Result2D{}, fmt.Errorf("meanshift: %d weights for %d points", len(weights), n)
	}
	for _, b := range []float64{bx, by} {
		if !(b > 0) || math.IsInf(b, 1) {
			return Result2D{}, fmt.Errorf("meanshift: bandwidth %v is not a positive finite number", b)
		}
	}
	u := make([]float64, n)
	v := make([]float64, n)
	for i := 0; i < n; i++ {
		if math.IsNaN(xs[i]) || math.IsInf(xs[i], 0) || math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			return Result2D{}, fmt.Errorf("meanshift: point %d is (%v, %v)", i, xs[i], ys[i])
		}
		if weights != nil {
			if w := weights[i]; !(w >= 0) || math.IsInf(w, 1) {
				return Result2D{}, fmt.Errorf("meanshift: weight %d is %v, want a finite number ≥ 0", i, w)
			}
		}
		u[i], v[i] = xs[i]/bx, ys[i]/by
	}
	grid := make(map[cell2][]int32)
	cellOf := func(a, b, size float64) cell2 {
		return cell2{int64(math.Floor(a / size)), int64(math.Floor(b / size))}
	}
	for i := 0; i < n; i++ {
		c := cellOf(u[i], v[i], Cutoff)
		grid[c] = append(grid[c], int32(i))
	}
	wt := func(j int32) float64 {
		if weights == nil {
			return 1
		}
		return weights[j]
	}
	climb := func(a, b float64) (float64, float64) {
		for it := 0; it < maxIter; it++ {
			c := cellOf(a, b, Cutoff)
			var den, na, nb float64
			for di := int64(-1); di <= 1; di++ {
				for dj := int64(-1); dj <= 1; dj++ {
					for _, j := range grid[cell2{c.i + di, c.j + dj}] {
						da, db := u[j]-a, v[j]-b
						r2 := da*da + db*db
						if r2 > Cutoff*Cutoff {
							continue
						}
						k := math.Exp(-r2/2) * wt(j)
						den += k
						na += k * da
						nb += k * db
					}
				}
			}
			if den == 0 {
				break
			}
			sa, sb := na/den, nb/den
			a, b = a+sa, b+sb
			if math.Hypot(sa, sb) <= stopShift {
				break
			}
		}
		return a, b
	}

	type cluster struct {
		ma, mb     float64 // first mode (scaled)
		sx, sy, sw float64 // weighted sums of modes (unscaled) and weight
		mixed      bool
		fx, fy     float64 // first mode (unscaled)
	}
	var cls []cluster
	modeGrid := make(map[cell2][]int32)
	const tol = 0.5
	labels := make([]int32, n)
	for i := 0; i < n; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return Result2D{}, fmt.Errorf("meanshift: 2-D clustering interrupted at point %d of %d: %w", i, n, err)
			}
		}
		a, b := climb(u[i], v[i])
		c := cellOf(a, b, tol)
		best, bestD := int32(-1), math.Inf(1)
		for di := int64(-1); di <= 1; di++ {
			for dj := int64(-1); dj <= 1; dj++ {
				for _, k := range modeGrid[cell2{c.i + di, c.j + dj}] {
					d := math.Hypot(cls[k].ma-a, cls[k].mb-b)
					if d <= tol && (d < bestD || (d == bestD && k < best)) {
						best, bestD = k, d
					}
				}
			}
		}
		x, y := a*bx, b*by
		if best < 0 {
			best = int32(len(cls))
			cls = append(cls, cluster{ma: a, mb: b, fx: x, fy: y})
			modeGrid[c] = append(modeGrid[c], best)
		}
		cl := &cls[best]
		w := wt(int32(i))
		cl.sx += w * x
		cl.sy += w * y
		cl.sw += w
		if x != cl.fx || y != cl.fy {
			cl.mixed = true
		}
		labels[i] = best
	}
	k := len(cls)
	cx := make([]float64, k)
	cy := make([]float64, k)
	for c := range cls {
		cx[c], cy[c] = cls[c].fx, cls[c].fy
		if cls[c].mixed && cls[c].sw > 0 {
			cx[c], cy[c] = cls[c].sx/cls[c].sw, cls[c].sy/cls[c].sw
		}
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(p, q int) bool {
		a, b := order[p], order[q]
		if cx[a] != cx[b] {
			return cx[a] < cx[b]
		}
		return cy[a] < cy[b]
	})
	rank := make([]int32, k)
	res := Result2D{X: make([]float64, k), Y: make([]float64, k), Sizes: make([]float64, k), Labels: labels}
	for r, c := range order {
		rank[c] = int32(r)
		res.X[r], res.Y[r], res.Sizes[r] = cx[c], cy[c], cls[c].sw
	}
	for i := range labels {
		labels[i] = rank[labels[i]]
	}
	return res, nil
}
