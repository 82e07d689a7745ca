package layout

import (
	"math"
	"math/rand/v2"
)

// Sizes at which SFDP with Groups switches stages, as shrink factors of
// the input (see fitted): the picture is plain SFDP's own down to the
// first level with at most 1/pictureShrink of the vertices, and the
// groups' drawings are fitted on the first level with at most
// 1/fitShrink. With a clustering model (Attraction < 3) both are
// clusterShrink: the finer levels place the clusters, and a layout whose
// picture stopped at 1/32 lost up to 0.065 of hop-distance correlation
// against plain SFDP's (planted graphs, mixing 0.1), one whose picture
// went down to 1/4 lost 0.018, for a tenth more time.
const (
	pictureShrink = 32
	fitShrink     = 8
	clusterShrink = 4
)

// fromScratch lays out the coarsest level from random positions, with
// adaptive cooling from a long step (ten times the typical spacing) so
// that it can untangle, and refines each finer level down to
// levels[downTo] from its coarser level's layout with plain cooling from
// a smaller step. It returns levels[downTo]'s layout.
func (e *engine) fromScratch(levels []*level, downTo int, seed uint64, rng *rand.Rand) ([]float64, error) {
	top := levels[len(levels)-1]
	pos := make([]float64, 2*top.n)
	side := math.Sqrt(float64(top.n)) * top.k
	for i := range pos {
		pos[i] = side * rng.Float64()
	}
	p := e.p
	if e.pStart > 0 {
		e.p = e.pStart
	}
	pos, err := e.refine(top, pos, spacing(top, pos), 10, true)
	e.p = p
	if err != nil {
		return nil, err
	}
	for i := len(levels) - 2; i >= downTo; i-- {
		l := levels[i]
		if pos, err = e.prolong(l, pos); err != nil {
			return nil, err
		}
		if pos, err = e.refineLevel(l, i, pos, seed); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// refineLevel refines level i (l) from a starting layout taken from its
// coarser level: scaled to the size that minimises the energy, jittered,
// then refined with plain cooling from fineStep.
func (e *engine) refineLevel(l *level, i int, pos []float64, seed uint64) ([]float64, error) {
	if err := e.rescale(l, pos, mix(seed^uint64(i))); err != nil {
		return nil, err
	}
	u := unit(l, pos)
	if err := e.jitter(l, pos, u, mix(seed^uint64(i)^0x6a09e667f3bcc909)); err != nil {
		return nil, err
	}
	return e.refine(l, pos, u, fineStep, false)
}

// fitted lays out the levels with Options.Groups, and given positions
// (if any) that come in groups, each group's drawing in a frame of its
// own. levels is the plain hierarchy, the one SFDP without Groups
// uses. It works in four stages:
//
//  1. The picture: the plain hierarchy's coarse levels are laid out from
//     scratch, exactly as without Groups, down to the first level with at
//     most n/pictureShrink vertices (n/clusterShrink for Attraction < 3,
//     here and in stage 2). The global arrangement is SFDP's own
//     for the seed, so the result draws the same picture as plain SFDP.
//  2. With Matching coarsening, a second hierarchy merges vertices within
//     a group first (down to the same size), so that its levels follow the
//     groups; its coarsest level starts from the picture (a coarse vertex
//     at the mean of its members' positions there) and its levels are
//     refined down to the first with at most n/fitShrink vertices. (Other
//     coarsenings go on with the plain hierarchy.) This and every later
//     level is refined on the iteration budget (Options.RefineIterations).
//  3. Each group's drawing is fitted onto the positions of its vertices'
//     ancestors on that level (moved, turned or mirrored, scaled).
//  4. The finer levels, which cost most, are refined from the fitted
//     drawings: a given vertex keeps its fitted offset from its parent, a
//     free one starts as from scratch.
func (e *engine) fitted(levels []*level, o Options, rng *rand.Rand) ([]float64, error) {
	n := levels[0].n
	groups := denseGroups(o.Groups)
	picture, fitAt := pictureShrink, fitShrink
	if o.Attraction < 3 {
		picture, fitAt = clusterShrink, clusterShrink
	}
	lp := firstAtMost(levels, n/picture)
	cur, err := e.fromScratch(levels, lp, o.Seed, rng)
	if err != nil {
		return nil, err
	}
	if o.Coarsening == Matching && lp > 0 {
		gbase := *levels[0]
		gbase.parent, gbase.group = nil, groups
		grng := rand.New(rand.NewPCG(o.Seed, 0x47726f7570732020)) // "Groups  "
		glevels, err := e.hierarchy(&gbase, Matching, grng, n/picture)
		if err != nil {
			return nil, err
		}
		cur = project(levels, lp, cur, glevels)
		levels, lp = glevels, len(glevels)-1
	}
	fit := firstAtMost(levels, n/fitAt)
	e.coolRate = refineRate(o)
	for i := lp - 1; i >= fit; i-- {
		l := levels[i]
		if cur, err = e.prolong(l, cur); err != nil {
			return nil, err
		}
		if cur, err = e.refineLevel(l, i, cur, o.Seed); err != nil {
			return nil, err
		}
	}

	// Where the coarse layout puts each input vertex: at its ancestor on
	// the fitted level.
	anc := ancestors(levels, fit)
	target := make([]float64, 2*n)
	for v, a := range anc {
		target[2*v], target[2*v+1] = cur[2*a], cur[2*a+1]
	}
	init := o.Initial
	given := make([]bool, n)
	for v := range given {
		given[v] = init != nil && groups[v] >= 0 && !math.IsNaN(init[2*v]) && !math.IsNaN(init[2*v+1])
	}
	pos := fitGroups(init, groups, given, target)

	// Restrict the fitted positions to the levels in between (a coarse
	// vertex at the mean of its given members, or of all members if none
	// was given), then refine from the fitted level down.
	if fit == 0 { // no finer level: refine the fitted drawings themselves
		return e.refineLevel(levels[0], 0, pos, o.Seed)
	}
	rest := make([][]float64, fit+1)
	known := make([][]bool, fit+1)
	rest[0], known[0] = pos, given
	for i := 0; i < fit; i++ {
		rest[i+1], known[i+1] = restrict(levels[i], levels[i+1], rest[i], known[i])
	}
	for i := fit - 1; i >= 0; i-- {
		l := levels[i]
		if cur, err = e.prolongWarm(l, cur, rest[i+1], rest[i], known[i]); err != nil {
			return nil, err
		}
		if cur, err = e.refineLevel(l, i, cur, o.Seed); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// firstAtMost is the index of the first (finest) level with at most size
// vertices, or of the coarsest level if none is that small.
func firstAtMost(levels []*level, size int) int {
	for i, l := range levels {
		if l.n <= size {
			return i
		}
	}
	return len(levels) - 1
}

// ancestors maps every input vertex to its ancestor on levels[to].
func ancestors(levels []*level, to int) []int32 {
	anc := make([]int32, levels[0].n)
	for v := range anc {
		anc[v] = int32(v)
	}
	for i := 0; i < to; i++ {
		for v, a := range anc {
			anc[v] = levels[i].parent[a]
		}
	}
	return anc
}

// project carries a layout of from[at] over to the coarsest level of
// another hierarchy of the same input graph: each of its vertices at the
// mean position of its input vertices' ancestors in from[at].
func project(from []*level, at int, pos []float64, to []*level) []float64 {
	n := from[0].n
	anc := ancestors(from, at)
	cur := make([]float64, 2*n)
	all := make([]bool, n)
	for v, a := range anc {
		cur[2*v], cur[2*v+1] = pos[2*a], pos[2*a+1]
		all[v] = true
	}
	for i := 0; i+1 < len(to); i++ {
		cur, all = restrict(to[i], to[i+1], cur, all)
	}
	return cur
}

// fitGroups returns positions in which every group's given vertices are
// moved by the similarity transform (translation, rotation or reflection,
// uniform scale) that brings them closest to target in the least-squares
// sense (Umeyama's solution in the plane), and every other vertex is at
// its target.
func fitGroups(init []float64, groups []int32, given []bool, target []float64) []float64 {
	ng := 0
	for _, g := range groups {
		ng = max(ng, int(g)+1)
	}
	// Centroids of each group's given and target positions.
	type sums struct{ n, ax, ay, bx, by float64 }
	cen := make([]sums, ng)
	for v, g := range groups {
		if given[v] {
			c := &cen[g]
			c.n++
			c.ax += init[2*v]
			c.ay += init[2*v+1]
			c.bx += target[2*v]
			c.by += target[2*v+1]
		}
	}
	for g := range cen {
		if c := &cen[g]; c.n > 0 {
			c.ax, c.ay, c.bx, c.by = c.ax/c.n, c.ay/c.n, c.bx/c.n, c.by/c.n
		}
	}
	// Cross-covariances, then the best rotation and the best reflection.
	type moments struct{ xx, xy, yx, yy, aa float64 }
	mom := make([]moments, ng)
	for v, g := range groups {
		if given[v] {
			c := cen[g]
			ax, ay := init[2*v]-c.ax, init[2*v+1]-c.ay
			bx, by := target[2*v]-c.bx, target[2*v+1]-c.by
			m := &mom[g]
			m.xx += float64(ax * bx)
			m.xy += float64(ax * by)
			m.yx += float64(ay * bx)
			m.yy += float64(ay * by)
			m.aa += float64(ax*ax) + float64(ay*ay)
		}
	}
	// x' = a·x + b·y, y' = c·x + d·y (scale included).
	type transform struct{ a, b, c, d float64 }
	tf := make([]transform, ng)
	for g, m := range mom {
		rot := math.Hypot(m.xx+m.yy, m.xy-m.yx)
		ref := math.Hypot(m.xx-m.yy, m.xy+m.yx)
		switch {
		case !(m.aa > 0) || (rot == 0 && ref == 0):
			tf[g] = transform{1, 0, 0, 1}
		case rot >= ref:
			cs, sn, sc := (m.xx+m.yy)/rot, (m.xy-m.yx)/rot, rot/m.aa
			tf[g] = transform{float64(sc * cs), float64(-sc * sn), float64(sc * sn), float64(sc * cs)}
		default:
			cs, sn, sc := (m.xx-m.yy)/ref, (m.xy+m.yx)/ref, ref/m.aa
			tf[g] = transform{float64(sc * cs), float64(sc * sn), float64(sc * sn), float64(-sc * cs)}
		}
	}
	pos := make([]float64, len(target))
	copy(pos, target)
	for v, g := range groups {
		if given[v] {
			c, t := cen[g], tf[g]
			ax, ay := init[2*v]-c.ax, init[2*v+1]-c.ay
			pos[2*v] = c.bx + float64(t.a*ax) + float64(t.b*ay)
			pos[2*v+1] = c.by + float64(t.c*ax) + float64(t.d*ay)
		}
	}
	return pos
}

// restrict maps positions of the fine level to the coarse one: a coarse
// vertex at the mean of its known members, or of all its members if none
// is known; it returns the positions and which coarse vertices are known.
func restrict(fine, coarse *level, pos []float64, known []bool) ([]float64, []bool) {
	sum := make([]float64, 2*coarse.n)
	cnt := make([]float64, coarse.n)
	kn := make([]bool, coarse.n)
	for v := 0; v < fine.n; v++ {
		if known[v] {
			kn[fine.parent[v]] = true
		}
	}
	for v := 0; v < fine.n; v++ {
		if p := fine.parent[v]; known[v] || !kn[p] {
			sum[2*p] += pos[2*v]
			sum[2*p+1] += pos[2*v+1]
			cnt[p]++
		}
	}
	for p := range cnt {
		sum[2*p] /= cnt[p]
		sum[2*p+1] /= cnt[p]
	}
	return sum, kn
}
