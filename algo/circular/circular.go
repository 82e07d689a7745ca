// Package circular computes circular vertex orders with few weighted edge
// crossings, for the chord diagram of GiViP's Frame View.
//
// The input is a traffic matrix among n leaf units (workers) and a two-level
// hierarchy over them: each leaf belongs to a group (its host) and each
// group to a supergroup (its rack). A pair of leaves i ≠ j is joined by a
// chord of weight w[i][j]+w[j][i] when that sum is positive; direction and
// self-loops do not matter for crossings. Two chords with four distinct
// endpoints cross when their endpoints interleave around the circle, and
// such a crossing costs the sum of the two chords' weights.
//
// Order implements the weighted, hierarchy-constrained variant of the
// Baur–Brandes heuristic described in Appendix A of the GiViP paper:
// greedy insertion followed by sifting, with every host's leaves and every
// rack's hosts kept contiguous. WeightedCrossings is the plain O(n⁴)
// reference count.
package circular

import (
	"fmt"
	"sort"
)

// WeightedCrossings returns the total weighted crossing cost of the
// circular order: for every pair of chords with four distinct endpoints
// that interleave, the sum of their two weights. order must be a
// permutation of 0..len(w)-1 and w a square matrix; it panics otherwise.
// It is a direct O(n⁴) count, meant as a reference and for small n.
func WeightedCrossings(order []int, w [][]float64) float64 {
	n := len(w)
	checkMatrix(w)
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	if len(order) != n {
		panic(fmt.Sprintf("circular: order has %d entries, want %d", len(order), n))
	}
	for p, v := range order {
		if v < 0 || v >= n || pos[v] >= 0 {
			panic(fmt.Sprintf("circular: order is not a permutation of 0..%d (entry %d at %d)", n-1, v, p))
		}
		pos[v] = p
	}
	type chord struct {
		a, b int // positions, a < b
		w    float64
	}
	var cs []chord
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if wt := w[i][j] + w[j][i]; wt > 0 {
				a, b := pos[i], pos[j]
				if a > b {
					a, b = b, a
				}
				cs = append(cs, chord{a, b, wt})
			}
		}
	}
	total := 0.0
	for x := range cs {
		for y := x + 1; y < len(cs); y++ {
			p, q := cs[x], cs[y]
			if p.a == q.a || p.a == q.b || p.b == q.a || p.b == q.b {
				continue // a shared endpoint is not a crossing
			}
			cIn := p.a < q.a && q.a < p.b
			dIn := p.a < q.b && q.b < p.b
			if cIn != dIn {
				total += p.w + q.w
			}
		}
	}
	return total
}

func checkMatrix(w [][]float64) {
	for i, row := range w {
		if len(row) != len(w) {
			panic(fmt.Sprintf("circular: traffic matrix row %d has %d entries, want %d", i, len(row), len(w)))
		}
	}
}

// Order returns a circular order of the n = len(w) leaves with a low
// weighted crossing cost, keeping the hierarchy contiguous.
//
// groups[i] is the group (host) of leaf i and supergroups[g] the
// supergroup (rack) of group g; a nil groups puts every leaf in one group
// and a nil supergroups puts every group in one supergroup. Group values
// are labels: leaves with equal values share a group. When supergroups is
// not nil every group value must index it. Order panics on a non-square w
// or on groups/supergroups that do not fit.
//
// The result is a permutation of 0..n-1, read as positions around the
// circle, in which the leaves of each group and the groups of each
// supergroup are consecutive (as a linear sequence, so also around the
// circle). When the identity order 0..n-1 is itself contiguous in that
// sense, the result never has a higher weighted crossing cost than it.
//
// The heuristic (GiViP, Appendix A, after Baur and Brandes): leaves are
// inserted greedily, next the one with the least chord weight to unplaced
// leaves (ties: most weight to placed leaves, then lowest index), at the
// beginning or the end of its group's run — or, if its group has not
// started yet, as a new group at either end of its supergroup's run, or as
// a new supergroup at either end of the sequence — whichever adds the
// smaller weighted crossing cost, where, as in Baur–Brandes, chords to
// leaves not yet placed count as drawn to the gap between the sequence's
// end and its beginning (else both ends of the whole sequence would be the
// same place on the circle). Then sifting: each supergroup is moved
// to its best place among supergroups, each group to its best place among
// the groups of its supergroup, and each leaf to its best place within its
// group, a move kept only if it lowers the cost; rounds repeat while they
// help. The identity order, when contiguous, is sifted too, and the better
// of the two results is returned (the identity-derived one on a tie).
// A sifting round costs O(n³) at worst (one host holding every leaf);
// n = 64 takes milliseconds.
func Order(w [][]float64, groups, supergroups []int) []int {
	n := len(w)
	checkMatrix(w)
	if groups != nil && len(groups) != n {
		panic(fmt.Sprintf("circular: groups has %d entries, want %d", len(groups), n))
	}
	if n == 0 {
		return []int{}
	}
	p := newProblem(w, groups, supergroups)

	best := p.greedy()
	p.sift(best)
	bestCost := p.cost(best)

	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	if p.contiguous(id) {
		p.sift(id)
		if c := p.cost(id); c <= bestCost+p.tol {
			best, bestCost = id, c
		}
	}
	return best
}

// problem holds the symmetric chord weights and the hierarchy as dense
// indices, plus scratch space; it lives for one call of Order.
//
// Products added to sums are written float64(a*b): the explicit
// conversion stops the compiler fusing them into FMA instructions on the
// platforms that have them, so the same input gives the same order on
// every machine.
type problem struct {
	n      int       // leaves; index n is the virtual leaf x of greedy
	N      int       // n+1, the stride of w and c
	w      []float64 // N*N, symmetric, zero diagonal: chord weight
	c      []float64 // N*N: number of chords w stands for (1 between leaves)
	host   []int     // leaf → dense host index
	rack   []int     // leaf → dense rack index
	nHost  int
	nRack  int
	weight []float64 // leaf → total incident chord weight
	tol    float64   // improvements smaller than this are rounding noise

	pw, pc []float64 // scratch for cost: 2-D prefix sums
}

func newProblem(w [][]float64, groups, supergroups []int) *problem {
	n := len(w)
	N := n + 1
	p := &problem{n: n, N: N, w: make([]float64, N*N), c: make([]float64, N*N), host: make([]int, n), rack: make([]int, n), weight: make([]float64, n)}
	total := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if s := w[i][j] + w[j][i]; s > 0 {
				p.w[i*N+j], p.w[j*N+i] = s, s
				p.c[i*N+j], p.c[j*N+i] = 1, 1
				p.weight[i] += s
				p.weight[j] += s
				total += s
			}
		}
	}
	p.tol = 1e-9 * total
	hostIdx := map[int]int{}
	rackIdx := map[int]int{}
	for i := 0; i < n; i++ {
		g := 0
		if groups != nil {
			g = groups[i]
		}
		r := 0
		if supergroups != nil {
			if g < 0 || g >= len(supergroups) {
				panic(fmt.Sprintf("circular: group %d of leaf %d has no entry in supergroups (len %d)", g, i, len(supergroups)))
			}
			r = supergroups[g]
		}
		h, ok := hostIdx[g]
		if !ok {
			h = len(hostIdx)
			hostIdx[g] = h
		}
		rk, ok := rackIdx[r]
		if !ok {
			rk = len(rackIdx)
			rackIdx[r] = rk
		}
		p.host[i], p.rack[i] = h, rk
	}
	p.nHost, p.nRack = len(hostIdx), len(rackIdx)
	return p
}

// contiguous reports whether every host's and every rack's leaves form one
// run of seq.
func (p *problem) contiguous(seq []int) bool {
	return runsContiguous(seq, p.host, p.nHost) && runsContiguous(seq, p.rack, p.nRack)
}

func runsContiguous(seq []int, key []int, nKeys int) bool {
	seen := make([]bool, nKeys)
	for i, v := range seq {
		k := key[v]
		if i > 0 && key[seq[i-1]] == k {
			continue
		}
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// cost is the weighted crossing cost of the circular order seq, which may
// hold any subset of the leaves (and the virtual leaf), in O(k²) for
// k = len(seq). A chord between positions x < y crosses exactly the chords
// with one endpoint strictly between x and y and the other outside
// [x, y]; 2-D prefix sums over the position-indexed weight and chord-count
// matrices give their weight and count in O(1). A bundle of c chords of
// total weight W crossing a bundle of c', W' costs c'·W + c·W'. Every
// crossing is seen from both its chords, hence the ½.
func (p *problem) cost(seq []int) float64 {
	k := len(seq)
	s := k + 1
	if cap(p.pw) < s*s {
		p.pw = make([]float64, s*s)
		p.pc = make([]float64, s*s)
	}
	pw, pc := p.pw[:s*s], p.pc[:s*s]
	for j := 0; j < s; j++ {
		pw[j], pc[j] = 0, 0
	}
	for x := 0; x < k; x++ {
		rowW, rowC := p.w[seq[x]*p.N:], p.c[seq[x]*p.N:]
		rw, rc := 0.0, 0.0
		pw[(x+1)*s], pc[(x+1)*s] = 0, 0
		for y := 0; y < k; y++ {
			rw += rowW[seq[y]]
			rc += rowC[seq[y]]
			pw[(x+1)*s+y+1] = pw[x*s+y+1] + rw
			pc[(x+1)*s+y+1] = pc[x*s+y+1] + rc
		}
	}
	// rect sums rows [r0,r1) × columns [c0,c1).
	rect := func(a []float64, r0, r1, c0, c1 int) float64 {
		return a[r1*s+c1] - a[r0*s+c1] - a[r1*s+c0] + a[r0*s+c0]
	}
	total := 0.0
	for x := 0; x < k; x++ {
		rowW, rowC := p.w[seq[x]*p.N:], p.c[seq[x]*p.N:]
		for y := x + 2; y < k; y++ {
			ce := rowC[seq[y]]
			if ce == 0 {
				continue
			}
			// interior rows (x, y) against columns outside [x, y]
			cw := rect(pw, x+1, y, 0, k) - rect(pw, x+1, y, x, y+1)
			cc := rect(pc, x+1, y, 0, k) - rect(pc, x+1, y, x, y+1)
			total += float64(ce*cw) + float64(cc*rowW[seq[y]])
		}
	}
	return total / 2
}

// swapDelta is the change in cost when the adjacent blocks A = seq[l:m]
// and B = seq[m:r] trade places (A B → B A), computed in
// O((|A|+|B|)·n) without touching seq.
//
// Only quadruples of endpoints with at least one in A, one in B and one
// outside (O, read cyclically from just after B) change their cyclic
// order, and three kinds of chord pairs flip:
//  1. (a,x) and (b,y), x ≠ y in O: cross before iff x precedes y;
//  2. (o,bᵢ) and (a,bⱼ), bᵢ ≠ bⱼ in B: cross before iff bᵢ precedes bⱼ;
//  3. (o,aᵢ) and (b,aⱼ), aᵢ ≠ aⱼ in A: cross before iff aⱼ precedes aᵢ;
//
// and after the swap each crosses exactly when it did not before.
func (p *problem) swapDelta(seq []int, l, m, r int) float64 {
	N := p.N
	A, B := seq[l:m], seq[m:r]
	before, after := 0.0, 0.0

	// Kind 1, over O in cyclic order after B.
	var swa, sca, swb, scb float64 // prefix sums over O of A's and B's chords
	visit := func(x int) {
		var wa, ca, wb, cb float64
		for _, a := range A {
			wa += p.w[a*N+x]
			ca += p.c[a*N+x]
		}
		for _, b := range B {
			wb += p.w[b*N+x]
			cb += p.c[b*N+x]
		}
		// x as the later element y of a pair (earlier ones summed in s*)
		before += float64(cb*swa) + float64(wb*sca)
		after += float64(wa*scb) + float64(ca*swb)
		swa += wa
		sca += ca
		swb += wb
		scb += cb
	}
	for _, x := range seq[r:] {
		visit(x)
	}
	for _, x := range seq[:l] {
		visit(x)
	}

	// Kind 2, over B in order. wo/co: chords to O; wab/cab: chords to A.
	var swo, sco, swab, scab float64
	for _, b := range B {
		wo, co, wab, cab := p.outsideAndOther(seq, l, r, b, A)
		// b as the later element bⱼ: before pairs (bᵢ earlier, bⱼ = b)
		before += float64(swo*cab) + float64(sco*wab)
		// after pairs: bⱼ earlier, bᵢ = b
		after += float64(wo*scab) + float64(co*swab)
		swo += wo
		sco += co
		swab += wab
		scab += cab
	}

	// Kind 3, over A in order. wo/co: chords to O; wb/cb: chords to B.
	swo, sco, swab, scab = 0, 0, 0, 0
	for _, a := range A {
		wo, co, wb, cb := p.outsideAndOther(seq, l, r, a, B)
		// a later: before pairs have aⱼ earlier, aᵢ = a
		before += float64(wo*scab) + float64(co*swab)
		// after pairs have aᵢ earlier, aⱼ = a
		after += float64(swo*cb) + float64(sco*wb)
		swo += wo
		sco += co
		swab += wb
		scab += cb
	}
	return after - before
}

// outsideAndOther sums v's chords to the leaves outside seq[l:r] and to
// the leaves of other: weight and count of each.
func (p *problem) outsideAndOther(seq []int, l, r, v int, other []int) (wo, co, wx, cx float64) {
	rowW, rowC := p.w[v*p.N:], p.c[v*p.N:]
	for _, x := range seq[:l] {
		wo += rowW[x]
		co += rowC[x]
	}
	for _, x := range seq[r:] {
		wo += rowW[x]
		co += rowC[x]
	}
	for _, x := range other {
		wx += rowW[x]
		cx += rowC[x]
	}
	return
}

// greedy builds the insertion order. As in Baur–Brandes, the chords from
// placed leaves to unplaced ones ("open" chords) count too: they are drawn
// to a virtual leaf x in the gap between the end and the beginning of the
// sequence, where the unplaced leaves will go, so that the two candidate
// places of a leaf differ in which open chords its chords cross. With a
// hierarchy this is an approximation: an unplaced leaf whose host has
// started will land at an end of that host's run instead.
func (p *problem) greedy() []int {
	n, N, x := p.n, p.N, p.n
	placed := make([]bool, n)
	hostOn := make([]bool, p.nHost)
	rackOn := make([]bool, p.nRack)
	unplacedW := append([]float64(nil), p.weight...)
	placedW := make([]float64, n)
	seq := make([]int, 0, n)
	cand := make([]int, 0, n+1)
	for len(seq) < n {
		v := -1
		for u := 0; u < n; u++ {
			if placed[u] {
				continue
			}
			if v < 0 || unplacedW[u] < unplacedW[v] ||
				(unplacedW[u] == unplacedW[v] && placedW[u] > placedW[v]) {
				v = u
			}
		}
		// place v: its chords to placed leaves close, the rest open at x
		placed[v] = true
		for u := 0; u < n; u++ {
			if t := p.w[v*N+u]; t > 0 {
				unplacedW[u] -= t
				placedW[u] += t
				if placed[u] && u != v {
					p.w[u*N+x] -= t
					p.c[u*N+x]--
					p.w[x*N+u], p.c[x*N+u] = p.w[u*N+x], p.c[u*N+x]
				} else if !placed[u] {
					p.w[v*N+x] += t
					p.c[v*N+x]++
				}
			}
		}
		p.w[x*N+v], p.c[x*N+v] = p.w[v*N+x], p.c[v*N+x]

		var lo, hi int // the two candidate gaps
		switch {
		case hostOn[p.host[v]]:
			lo, hi = span(seq, func(u int) bool { return p.host[u] == p.host[v] })
		case rackOn[p.rack[v]]:
			lo, hi = span(seq, func(u int) bool { return p.rack[u] == p.rack[v] })
		default:
			lo, hi = 0, len(seq)
		}
		cand = append(insertAt(cand[:0], seq, lo, v), x)
		cLo := p.cost(cand)
		cand = append(insertAt(cand[:0], seq, hi, v), x)
		cHi := p.cost(cand)
		at := hi
		if cLo < cHi-p.tol {
			at = lo
		}
		seq = insertAt(make([]int, 0, n), seq, at, v)
		hostOn[p.host[v]] = true
		rackOn[p.rack[v]] = true
	}
	// every chord has closed: x is isolated again (up to rounding)
	for u := 0; u < N; u++ {
		p.w[u*N+x], p.w[x*N+u], p.c[u*N+x], p.c[x*N+u] = 0, 0, 0, 0
	}
	return seq
}

// span returns the run [lo, hi) of seq where in holds (seq keeps it
// contiguous and non-empty).
func span(seq []int, in func(int) bool) (lo, hi int) {
	lo = 0
	for !in(seq[lo]) {
		lo++
	}
	hi = lo
	for hi < len(seq) && in(seq[hi]) {
		hi++
	}
	return lo, hi
}

func insertAt(dst, seq []int, at, v int) []int {
	dst = append(dst, seq[:at]...)
	dst = append(dst, v)
	return append(dst, seq[at:]...)
}

// Hierarchy levels, outermost first.
const (
	levelRack = iota
	levelHost
	levelLeaf
)

// key returns the unit of leaf v at a level, and its parent's unit.
func (p *problem) key(level, v int) (unit, parent int) {
	switch level {
	case levelRack:
		return p.rack[v], 0
	case levelHost:
		return p.host[v], p.rack[v]
	default:
		return v, p.host[v]
	}
}

// sift improves seq in place, keeping contiguity, by rounds of sifting at
// every level (racks, then hosts, then leaves). Rounds stop when one gains
// less than 0.1% of the cost, or after 20: later rounds of a large dense
// instance each gain a few hundredths of a percent at the price of a whole
// round (measured on n = 256 all-to-all random traffic).
func (p *problem) sift(seq []int) {
	cur := p.cost(seq)
	for round := 0; round < 20; round++ {
		for level := levelRack; level <= levelLeaf; level++ {
			for _, v := range p.unitsByWeight(level) {
				p.siftUnit(seq, level, v)
			}
		}
		next := p.cost(seq)
		if gain := cur - next; gain <= p.tol || gain < 1e-3*cur {
			return
		}
		cur = next
	}
}

// unitsByWeight lists one representative leaf per unit of a level,
// heaviest unit (by incident chord weight) first, ties by lowest leaf.
func (p *problem) unitsByWeight(level int) []int {
	type unit struct {
		rep int
		w   float64
	}
	idx := map[int]int{}
	var us []unit
	for v := 0; v < p.n; v++ {
		u, _ := p.key(level, v)
		i, ok := idx[u]
		if !ok {
			i = len(us)
			idx[u] = i
			us = append(us, unit{rep: v})
		}
		us[i].w += p.weight[v]
	}
	sort.SliceStable(us, func(i, j int) bool { return us[i].w > us[j].w })
	reps := make([]int, len(us))
	for i, u := range us {
		reps[i] = u.rep
	}
	return reps
}

// siftUnit moves the unit of leaf v (at the given level) to the place
// among its siblings with the lowest cost, if that beats its current place
// by more than the tolerance.
func (p *problem) siftUnit(seq []int, level, v int) {
	unit, parent := p.key(level, v)
	inParent := func(u int) bool { _, pu := p.key(level, u); return pu == parent }
	L, R := span(seq, inParent)
	// sibling blocks as sizes in order, and the unit's index among them
	var sizes []int
	at := -1
	for i := L; i < R; {
		j := i
		ui, _ := p.key(level, seq[i])
		for j < R {
			if uj, _ := p.key(level, seq[j]); uj != ui {
				break
			}
			j++
		}
		if ui == unit {
			at = len(sizes)
		}
		sizes = append(sizes, j-i)
		i = j
	}
	if len(sizes) < 2 {
		return
	}
	start := func(b int) int {
		s := L
		for _, z := range sizes[:b] {
			s += z
		}
		return s
	}
	// swap blocks b and b+1 (in seq and sizes); returns the cost change
	swap := func(b int, measure bool) float64 {
		l := start(b)
		m := l + sizes[b]
		r := m + sizes[b+1]
		d := 0.0
		if measure {
			d = p.swapDelta(seq, l, m, r)
		}
		rotate(seq[l:r], m-l)
		sizes[b], sizes[b+1] = sizes[b+1], sizes[b]
		return d
	}
	orig := at
	gain := make([]float64, len(sizes)) // cost at slot i minus cost now
	cum := 0.0
	for at > 0 {
		cum += swap(at-1, true)
		at--
		gain[at] = cum
	}
	for at < len(sizes)-1 {
		cum += swap(at, true)
		at++
		gain[at] = cum
	}
	gain[orig] = 0
	best := orig
	for i, g := range gain {
		if g < gain[best]-p.tol {
			best = i
		}
	}
	for at > best {
		swap(at-1, false)
		at--
	}
}

// rotate turns s left by k: s[k:] then s[:k].
func rotate(s []int, k int) {
	reverse(s[:k])
	reverse(s[k:])
	reverse(s)
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
