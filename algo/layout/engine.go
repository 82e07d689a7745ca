package layout

import (
	"context"
	"math"
	"time"

	"superstep/internal/parallel"
)

// engine runs the force iterations, reusing its buffers across levels.
type engine struct {
	ctx     context.Context
	workers int
	p       float64 // repulsion exponent (Options.Repulsion)
	// pStart, when > 0, is the repulsion exponent of the level laid out
	// from random positions (1 where Options.Repulsion 0 chose 2).
	pStart  float64
	a       float64 // attraction energy exponent (Options.Attraction)
	maxIter int
	tol     float64
	tree    quadtree
	next    []float64
	force   []float64 // attraction per vertex
	energy  []float64 // per chunk of groups
	scratch []scratch // per worker
	logf    func(format string, args ...any)
	// coolRate, when > 0, replaces cool on the levels refined from given
	// positions with a budget (Options.RefineIterations).
	coolRate float64
}

// refine runs force iterations on level l from pos. Every vertex moves
// step along its force; the step starts at stepFactor·unit and the level
// ends when it falls below tol·unit or after maxIter iterations. With
// adaptive the step follows Hu's adaptive cooling (grow by 1/coolAdaptive
// after five iterations in a row that lowered the energy, shrink by
// coolAdaptive after one that did not); otherwise it shrinks by cool every
// iteration. It returns the final positions (pos or an engine buffer; pos
// must not be one of the engine's buffers).
//
// The model on every level: an edge of weight w (the number of input
// edges it stands for) pulls its ends together with force w·d^(a−1)
// (w·d² for Hu's a = 3), and two
// vertices of masses m, m' (the number of input vertices they stand for)
// push each other apart with force C·m·m'/d^p, at natural length 1. A
// coarse level thus approximates the forces of the input graph, and its
// layout has the right shape and scale for the next finer level.
func (e *engine) refine(l *level, pos []float64, unit, stepFactor float64, adaptive bool) ([]float64, error) {
	n := l.n
	if n < 2 {
		return pos, nil
	}
	step := stepFactor * unit
	e.next = grow(e.next, 2*n)
	e.force = grow(e.force, 2*n)
	var mass []float64
	if l.vw != nil {
		mass = make([]float64, n)
		for v := range mass {
			mass[v] = float64(l.vw[v])
		}
	}
	energy0 := math.Inf(1)
	progress := 0
	iters := 0
	if e.logf != nil {
		start := time.Now()
		defer func() {
			e.logf("level n=%d arcs=%d: %d iterations, step %.3g of unit %.3g, %v",
				n, l.arcs(), iters, step, unit, time.Since(start))
		}()
	}
	for it := 0; it < e.maxIter; it++ {
		iters++
		if err := e.ctx.Err(); err != nil {
			return nil, err
		}
		// Attraction in vertex order (each adjacency list read in turn),
		// then repulsion group by group in Morton order, which moves the
		// vertices into next.
		force := e.force
		a := e.a
		err := e.parallel(n, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				x, y := pos[2*v], pos[2*v+1]
				var ax, ay float64
				ws := l.weights(v)
				for i, u := range l.nbrs(v) {
					dx, dy := pos[2*u]-x, pos[2*u+1]-y
					d2 := float64(dx*dx) + float64(dy*dy)
					// f·(dx, dy) is the force d^(a−1) along the edge.
					var f float64
					switch a {
					case 3:
						f = math.Sqrt(d2)
					case 4:
						f = d2
					default:
						f = pull(math.Sqrt(d2), a)
					}
					if ws != nil {
						f = float64(f * float64(ws[i]))
					}
					ax += float64(dx * f)
					ay += float64(dy * f)
				}
				force[2*v], force[2*v+1] = ax, ay
			}
		})
		if err != nil {
			return nil, err
		}
		if err := e.tree.build(e.ctx, pos, mass); err != nil {
			return nil, err
		}
		next := e.next
		order := e.tree.order
		groups := e.tree.groups
		chunks := (len(groups) + groupChunk - 1) / groupChunk
		e.energy = grow(e.energy, chunks)
		p := e.p
		stepNow := step
		err = e.parallelWorkers(chunks, func(w, c int) {
			sc := &e.scratch[w]
			en := 0.0
			for _, group := range groups[c*groupChunk : min(len(groups), (c+1)*groupChunk)] {
				lo, hi := e.tree.nodes[group].lo, e.tree.nodes[group].hi
				sc.fx = grow(sc.fx, int(hi-lo))
				sc.fy = grow(sc.fy, int(hi-lo))
				e.tree.groupRepulsion(group, p, sc, sc.fx, sc.fy)
				for s := lo; s < hi; s++ {
					v := int(order[s])
					rx, ry := sc.fx[s-lo], sc.fy[s-lo]
					if mass != nil {
						rx, ry = float64(rx*mass[v]), float64(ry*mass[v])
					}
					fx := force[2*v] + float64(rx*strengthC)
					fy := force[2*v+1] + float64(ry*strengthC)
					f2 := float64(fx*fx) + float64(fy*fy)
					en += f2
					x, y := e.tree.sx[s], e.tree.sy[s]
					if f2 > 0 {
						m := stepNow / math.Sqrt(f2)
						x += float64(fx * m)
						y += float64(fy * m)
					}
					next[2*v], next[2*v+1] = x, y
				}
			}
			e.energy[c] = en
		})
		if err != nil {
			return nil, err
		}
		energy := 0.0
		for _, en := range e.energy[:chunks] {
			energy += en
		}
		pos, e.next = next, pos
		if adaptive {
			if energy < energy0 {
				progress++
				if progress >= 5 {
					progress = 0
					step /= coolAdaptive
				}
			} else {
				progress = 0
				step *= coolAdaptive
			}
		} else if e.coolRate > 0 {
			step *= e.coolRate
		} else {
			step *= cool
		}
		energy0 = energy
		if step < e.tol*unit {
			break
		}
	}
	return pos, nil
}

// prolong returns the fine level's starting layout from its coarser
// level's layout: each vertex at its parent's position, then moved half
// way towards the mean of its neighbours' (which separates merged
// vertices).
func (e *engine) prolong(fine *level, coarse []float64) ([]float64, error) {
	n := fine.n
	start := make([]float64, 2*n)
	for v := 0; v < n; v++ {
		c := fine.parent[v]
		start[2*v], start[2*v+1] = coarse[2*c], coarse[2*c+1]
	}
	pos := make([]float64, 2*n)
	err := e.parallel(n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			x, y := start[2*v], start[2*v+1]
			sx, sy, c := neighbourSum(fine.nbrs(v), v, start)
			if c > 0 {
				x = float64(0.5*x) + float64(0.5*(sx/float64(c)))
				y = float64(0.5*y) + float64(0.5*(sy/float64(c)))
			}
			pos[2*v], pos[2*v+1] = x, y
		}
	})
	if err != nil {
		return nil, err
	}
	return pos, nil
}

// jitter moves every vertex by up to jitter·unit in each coordinate,
// deterministically for salt, so that no two vertices coincide.
func (e *engine) jitter(l *level, pos []float64, unit float64, salt uint64) error {
	amp := jitter * unit
	return e.parallel(l.n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			h := mix(salt ^ uint64(v))
			jx := float64(float64(h>>11)/(1<<52)) - 1
			jy := float64(float64(mix(h)>>11)/(1<<52)) - 1
			pos[2*v] += float64(amp * jx)
			pos[2*v+1] += float64(amp * jy)
		}
	})
}

// pull is d^(a−2), the factor that turns an edge's vector (dx, dy) of
// length d into its attractive force d^(a−1) (0 for d = 0). a = 2, 1.5
// and 1 avoid math.Pow, whose last bit may differ between machines.
func pull(d, a float64) float64 {
	switch {
	case a == 2:
		return 1
	case d == 0:
		return 0
	case a == 1.5:
		return 1 / math.Sqrt(d)
	case a == 1:
		return 1 / d
	}
	return math.Pow(d, a-2)
}

// edgeEnergy is d^a, an edge's attractive energy times a.
func edgeEnergy(d, a float64) float64 {
	switch a {
	case 4:
		d2 := float64(d * d)
		return float64(d2 * d2)
	case 3:
		return float64(float64(d*d) * d)
	case 2:
		return float64(d * d)
	case 1.5:
		return float64(d * math.Sqrt(d))
	case 1:
		return d
	}
	return math.Pow(d, a)
}

// rootOf is x^(1/k) for x > 0, without math.Pow for k a multiple of ½
// from 1 to 8 (every k that Attraction 1, 1.5, 2, 3 or 4 and Repulsion 1
// or 2 make), so that the result is the same on every machine.
func rootOf(x, k float64) float64 {
	switch k {
	case 1:
		return x
	case 2:
		return math.Sqrt(x)
	case 3:
		return cbrt(x)
	case 4:
		return math.Sqrt(math.Sqrt(x))
	case 1.5:
		c := cbrt(x)
		return float64(c * c)
	}
	if k >= 1 && k <= 8 && 2*k == math.Trunc(2*k) {
		return halfRoot(x, k)
	}
	return math.Pow(x, 1/k)
}

// halfRoot is x^(1/k) for x > 0 and k ≥ 1 a multiple of ½, by Newton's
// method on y^k = x from a power-of-two estimate, with explicitly rounded
// products (see cbrt).
func halfRoot(x, k float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x)
	y := math.Ldexp(1, int(math.Round(float64(exp)/k)))
	for i := 0; i < 200; i++ {
		yk := powHalf(y, k)
		next := y - (yk-x)/float64(k*(yk/y))
		if next == y || !(next > 0) {
			break
		}
		y = next
	}
	return y
}

// powHalf is y^k for k a multiple of ½, with explicitly rounded products.
func powHalf(y, k float64) float64 {
	r := 1.0
	for i := 0; i < int(k); i++ {
		r = float64(r * y)
	}
	if k != math.Trunc(k) {
		r = float64(r * math.Sqrt(y))
	}
	return r
}

// rescale scales pos about its centroid by the factor that minimises the
// model's energy for the layout's shape, so that the iterations start at
// the natural size instead of growing or shrinking the layout step by
// step. Scaling by s turns the energy into s^a·A/a + R(s), with
// A = Σ_edges w·d^a and R the repulsive energy: −C·P·log s for p = 1, where
// P = Σ_pairs m·m' (exact and O(m)), and C·s^(1−p)·Q/(p−1) otherwise, with
// Q = Σ_pairs m·m'·d^(1−p) estimated from sampled pairs. The best factor
// is (C·P/A)^(1/a), or (C·Q/A)^(1/(a+p−1)) (for Hu's a = 3: the cube
// root, or the (2+p)-th root).
func (e *engine) rescale(l *level, pos []float64, salt uint64) error {
	n := l.n
	if n < 2 {
		return nil
	}
	a := 0.0
	for v := 0; v < n; v++ {
		if err := cancelled(e.ctx, v); err != nil {
			return err
		}
		ws := l.weights(v)
		for i, u := range l.nbrs(v) {
			if int(u) <= v {
				continue
			}
			w := 1.0
			if ws != nil {
				w = float64(ws[i])
			}
			a += float64(w * edgeEnergy(dist(pos, v, int(u)), e.a))
		}
	}
	if !(a > 0) {
		return nil
	}
	var f float64
	if e.p == 1 {
		var sum, sum2 float64
		for v := int32(0); v < int32(n); v++ {
			m := l.vweight(v)
			sum += m
			sum2 += float64(m * m)
		}
		pairs := (float64(sum*sum) - sum2) / 2
		f = rootOf(strengthC*pairs/a, e.a)
	} else {
		const samples = 4096
		q := 0.0
		for i := uint64(0); i < samples; i++ {
			h := mix(salt ^ i)
			v, u := int(h%uint64(n)), int((h>>32)%uint64(n-1))
			if u >= v {
				u++
			}
			d := dist(pos, v, u)
			if d > 0 {
				dp := 1 / d // d^(1−p) for p = 2
				if e.p != 2 {
					dp = math.Pow(d, 1-e.p)
				}
				q += float64(float64(l.vweight(int32(v))*l.vweight(int32(u))) * dp)
			}
		}
		q *= float64(n) * float64(n-1) / 2 / samples
		if !(q > 0) {
			return nil
		}
		f = rootOf(strengthC*q/a, e.a+e.p-1)
	}
	if !(f > 0) || math.IsInf(f, 0) {
		return nil
	}
	cx, cy := centroid(pos[:2*n])
	for v := 0; v < n; v++ {
		pos[2*v] = cx + float64((pos[2*v]-cx)*f)
		pos[2*v+1] = cy + float64((pos[2*v+1]-cy)*f)
	}
	return nil
}

// centroid is the mean point of the positions pos (x0, y0, x1, y1, …),
// summed in vertex order so that it is the same bits on every run.
func centroid(pos []float64) (cx, cy float64) {
	n := len(pos) / 2
	for v := 0; v < n; v++ {
		cx += pos[2*v]
		cy += pos[2*v+1]
	}
	return cx / float64(n), cy / float64(n)
}

// cbrt is the cube root of x > 0 by Newton's method from a power-of-two
// estimate, with explicitly rounded products: unlike math.Cbrt, whose
// polynomial may be fused into FMA instructions on some architectures, it
// gives the same bits on every machine.
func cbrt(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x)
	y := math.Ldexp(1, exp/3)
	for i := 0; i < 100; i++ {
		y2 := float64(y * y)
		next := y - (float64(y2*y)-x)/float64(3*y2)
		if next == y {
			break
		}
		y = next
	}
	return y
}

// meanEdge is the mean length of l's edges in pos (self-loops left out),
// or 0 if there are none.
func meanEdge(l *level, pos []float64) float64 {
	sum, c := 0.0, 0
	for v := 0; v < l.n; v++ {
		for _, u := range l.nbrs(v) {
			if int(u) != v {
				sum += dist(pos, v, int(u))
				c++
			}
		}
	}
	if c == 0 {
		return 0
	}
	return sum / float64(c)
}

// unit is the length the steps of a level are measured in: the layout's
// mean edge length, or for a graph without edges the typical spacing of
// its vertices.
func unit(l *level, pos []float64) float64 {
	if u := meanEdge(l, pos); u > 0 {
		return u
	}
	return spacing(l, pos)
}

// spacing is the typical distance between neighbouring vertices of the
// layout if they were spread evenly over its bounding box.
func spacing(l *level, pos []float64) float64 {
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for v := 0; v < l.n; v++ {
		minX, maxX = min(minX, pos[2*v]), max(maxX, pos[2*v])
		minY, maxY = min(minY, pos[2*v+1]), max(maxY, pos[2*v+1])
	}
	if s := max(maxX-minX, maxY-minY) / math.Sqrt(float64(l.n)); s > 0 {
		return s
	}
	return 1
}

func dist(pos []float64, i, j int) float64 {
	dx, dy := pos[2*i]-pos[2*j], pos[2*i+1]-pos[2*j+1]
	return math.Sqrt(float64(dx*dx) + float64(dy*dy))
}

// parallel runs body over the blocks of 0..n-1 (blockSize vertices each)
// on e.workers goroutines. body must only write data of its own block.
// It returns e.ctx's error if that was cancelled before every block ran.
func (e *engine) parallel(n int, body func(lo, hi int)) error {
	return e.parallelWorkers((n+blockSize-1)/blockSize, func(_, b int) { body(b*blockSize, min(n, (b+1)*blockSize)) })
}

// parallelWorkers runs body(worker, item) for items 0..count-1 on up to
// e.workers goroutines (worker < e.workers), each with its e.scratch.
// body must only write data of its own item or its worker's scratch. It
// returns e.ctx's error if that was cancelled before every item ran.
func (e *engine) parallelWorkers(count int, body func(w, item int)) error {
	if workers := parallel.Workers(e.workers, count); len(e.scratch) < workers {
		e.scratch = make([]scratch, workers)
	}
	return parallel.For(e.ctx, e.workers, count, body)
}

// checkEvery is how many vertices a sequential loop handles between two
// looks at the context: well under a millisecond of work.
const checkEvery = 1 << 12

// cancelled returns ctx's error at every checkEvery-th value of the loop
// counter i, and nil otherwise (or while ctx is live).
func cancelled(ctx context.Context, i int) error {
	if i%checkEvery != 0 {
		return nil
	}
	return ctx.Err()
}

// neighbourSum adds up the positions of v's neighbours (v itself excluded)
// and counts them: the pull towards the neighbours' mean used when a
// layout is prolonged or seeded.
func neighbourSum(nbrs []int32, v int, pos []float64) (sx, sy float64, c int) {
	for _, u := range nbrs {
		if int(u) != v {
			sx += pos[2*u]
			sy += pos[2*u+1]
			c++
		}
	}
	return sx, sy, c
}
