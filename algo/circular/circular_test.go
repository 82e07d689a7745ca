package circular

import (
	"math"
	"math/rand/v2"
	"testing"
)

// undirected builds a symmetric 0/1 matrix from edges.
func undirected(n int, edges [][2]int) [][]float64 {
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
	}
	for _, e := range edges {
		w[e[0]][e[1]] = 1
	}
	return w
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func TestWeightedCrossingsHand(t *testing.T) {
	cycle := undirected(4, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
	if got := WeightedCrossings([]int{0, 1, 2, 3}, cycle); got != 0 {
		t.Errorf("4-cycle drawn as a square: %v, want 0", got)
	}
	// 0 2 1 3: chords 0-1 and 2-3 interleave, 1-2 and 3-0 do not.
	if got := WeightedCrossings([]int{0, 2, 1, 3}, cycle); got != 2 {
		t.Errorf("4-cycle drawn as a bow tie: %v, want 2", got)
	}
	// weights: 0↔1 carries 1+2 = 3, 2→3 carries 5; the crossing costs 8.
	cycle[1][0] = 2
	cycle[2][3] = 5
	if got := WeightedCrossings([]int{0, 2, 1, 3}, cycle); got != 8 {
		t.Errorf("weighted bow tie: %v, want 8", got)
	}
	// rotations and reflections do not change the count
	for _, o := range [][]int{{2, 1, 3, 0}, {3, 1, 2, 0}, {1, 3, 0, 2}} {
		if got := WeightedCrossings(o, cycle); got != 8 {
			t.Errorf("order %v: %v, want 8", o, got)
		}
	}
	// K4 in any order has one crossing, the two diagonals; self-loops count for nothing.
	k4 := undirected(4, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {2, 2}})
	for _, o := range [][]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {3, 1, 0, 2}} {
		if got := WeightedCrossings(o, k4); got != 2 {
			t.Errorf("K4 in order %v: %v, want 2", o, got)
		}
	}
	// K5 (one crossing per 4-subset: 5 crossings, each costing 2)
	var e5 [][2]int
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			e5 = append(e5, [2]int{i, j})
		}
	}
	if got := WeightedCrossings(identity(5), undirected(5, e5)); got != 10 {
		t.Errorf("K5: %v, want 10", got)
	}
}

func TestWeightedCrossingsPanics(t *testing.T) {
	w := undirected(3, nil)
	for name, f := range map[string]func(){
		"short order":    func() { WeightedCrossings([]int{0, 1}, w) },
		"repeated entry": func() { WeightedCrossings([]int{0, 1, 1}, w) },
		"out of range":   func() { WeightedCrossings([]int{0, 1, 3}, w) },
		"ragged matrix":  func() { WeightedCrossings([]int{0, 1}, [][]float64{{0, 1}, {0}}) },
		"groups length":  func() { Order(w, []int{0}, nil) },
		"no supergroup":  func() { Order(w, []int{0, 1, 2}, []int{0, 0}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// randomInstance makes a random traffic matrix (about density of the pairs
// non-zero, some with integer, some with fractional weights) and a random
// hierarchy with leaves sorted by host and hosts by rack, so that the
// identity order is contiguous.
func randomInstance(r *rand.Rand, n int, density float64) (w [][]float64, groups, supergroups []int) {
	w = make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
		for j := range w[i] {
			if r.Float64() < density {
				if r.IntN(2) == 0 {
					w[i][j] = float64(1 + r.IntN(9))
				} else {
					w[i][j] = r.Float64()
				}
			}
		}
	}
	nHost := 1 + r.IntN(n)
	nRack := 1 + r.IntN(nHost)
	groups = make([]int, n)
	for i := range groups {
		groups[i] = r.IntN(nHost)
	}
	supergroups = make([]int, nHost)
	for h := range supergroups {
		supergroups[h] = r.IntN(nRack)
	}
	return w, groups, supergroups
}

// sortedHierarchy renumbers leaves so that identity is contiguous: it
// returns w, groups permuted by (rack, host, leaf).
func sortedHierarchy(w [][]float64, groups, supergroups []int) ([][]float64, []int) {
	n := len(w)
	perm := identity(n)
	key := func(v int) [3]int { return [3]int{supergroups[groups[v]], groups[v], v} }
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	for i := 1; i < n; i++ { // insertion sort, n is small
		for j := i; j > 0 && less(key(perm[j]), key(perm[j-1])); j-- {
			perm[j], perm[j-1] = perm[j-1], perm[j]
		}
	}
	w2 := make([][]float64, n)
	g2 := make([]int, n)
	for i := range w2 {
		w2[i] = make([]float64, n)
		for j := range w2[i] {
			w2[i][j] = w[perm[i]][perm[j]]
		}
		g2[i] = groups[perm[i]]
	}
	return w2, g2
}

func checkPermutation(t *testing.T, o []int, n int) {
	t.Helper()
	if len(o) != n {
		t.Fatalf("order has %d entries, want %d", len(o), n)
	}
	seen := make([]bool, n)
	for _, v := range o {
		if v < 0 || v >= n || seen[v] {
			t.Fatalf("order %v is not a permutation", o)
		}
		seen[v] = true
	}
}

// contiguousRuns reports whether the leaves sharing key(v) are consecutive.
func contiguousRuns(o []int, key func(int) int) bool {
	done := map[int]bool{}
	for i, v := range o {
		k := key(v)
		if i > 0 && key(o[i-1]) == k {
			continue
		}
		if done[k] {
			return false
		}
		done[k] = true
	}
	return true
}

func TestCostMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(12)
		w, g, s := randomInstance(r, max(n, 1), r.Float64())
		w = w[:n]
		for i := range w {
			w[i] = w[i][:n]
		}
		p := newProblem(w, g[:n], s)
		o := r.Perm(n)
		got, want := p.cost(o), WeightedCrossings(o, w)
		if math.Abs(got-want) > 1e-9*(1+want) {
			t.Fatalf("trial %d: fast cost %v, reference %v", trial, got, want)
		}
	}
}

func TestSwapDelta(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		n := 2 + r.IntN(10)
		w, g, s := randomInstance(r, n, r.Float64())
		p := newProblem(w, g, s)
		seq := r.Perm(n)
		l := r.IntN(n - 1)
		m := l + 1 + r.IntN(n-1-l)
		rr := m + 1 + r.IntN(n-m)
		if rr > n {
			rr = n
		}
		if m >= rr {
			continue
		}
		before := p.cost(seq)
		d := p.swapDelta(seq, l, m, rr)
		rotate(seq[l:rr], m-l)
		after := p.cost(seq)
		if math.Abs(after-before-d) > 1e-9*(1+before) {
			t.Fatalf("trial %d (n=%d, blocks [%d,%d) [%d,%d)): delta %v, want %v", trial, n, l, m, m, rr, d, after-before)
		}
	}
}

func TestOrderContiguousAndNeverWorse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 150; trial++ {
		n := 1 + r.IntN(24)
		w, groups, supergroups := randomInstance(r, n, 0.1+0.5*r.Float64())
		if trial%2 == 1 {
			w, groups = sortedHierarchy(w, groups, supergroups)
		}
		o := Order(w, groups, supergroups)
		checkPermutation(t, o, n)
		if !contiguousRuns(o, func(v int) int { return groups[v] }) {
			t.Fatalf("trial %d: hosts not contiguous in %v (groups %v)", trial, o, groups)
		}
		if !contiguousRuns(o, func(v int) int { return supergroups[groups[v]] }) {
			t.Fatalf("trial %d: racks not contiguous in %v (groups %v, supergroups %v)", trial, o, groups, supergroups)
		}
		id := identity(n)
		idContig := contiguousRuns(id, func(v int) int { return groups[v] }) &&
			contiguousRuns(id, func(v int) int { return supergroups[groups[v]] })
		if trial%2 == 1 && !idContig {
			t.Fatalf("trial %d: sortedHierarchy left identity non-contiguous", trial)
		}
		if idContig {
			got, base := WeightedCrossings(o, w), WeightedCrossings(id, w)
			if got > base+1e-9*(1+base) {
				t.Fatalf("trial %d: Order costs %v, identity %v", trial, got, base)
			}
		}
		// deterministic
		o2 := Order(w, groups, supergroups)
		for i := range o {
			if o[i] != o2[i] {
				t.Fatalf("trial %d: two runs differ: %v vs %v", trial, o, o2)
			}
		}
	}
}

func TestOrderTrivial(t *testing.T) {
	if o := Order(nil, nil, nil); len(o) != 0 {
		t.Errorf("empty: %v", o)
	}
	if o := Order([][]float64{{7}}, nil, nil); len(o) != 1 || o[0] != 0 {
		t.Errorf("one leaf: %v", o)
	}
	// no traffic at all: the identity is kept
	o := Order(undirected(5, nil), nil, nil)
	for i, v := range o {
		if v != i {
			t.Errorf("no traffic: %v, want identity", o)
			break
		}
	}
}

func TestOrderUntanglesScrambledCycle(t *testing.T) {
	// a 12-cycle whose vertices are numbered in a scrambled order
	r := rand.New(rand.NewPCG(7, 8))
	n := 12
	label := r.Perm(n)
	var edges [][2]int
	for i := 0; i < n; i++ {
		edges = append(edges, [2]int{label[i], label[(i+1)%n]})
	}
	w := undirected(n, edges)
	base := WeightedCrossings(identity(n), w)
	if base == 0 {
		t.Fatal("the scrambled identity has no crossings; pick another seed")
	}
	o := Order(w, nil, nil)
	if got := WeightedCrossings(o, w); got != 0 {
		t.Errorf("Order left cost %v (identity %v), want 0: %v", got, base, o)
	}
	// the same with hosts of two leaves along the cycle, four racks
	groups := make([]int, n)
	for i := 0; i < n; i++ {
		groups[label[i]] = i / 2
	}
	supergroups := []int{0, 0, 1, 2, 2, 3}
	o = Order(w, groups, supergroups)
	if got := WeightedCrossings(o, w); got != 0 {
		t.Errorf("with hierarchy: Order left cost %v, want 0: %v", got, o)
	}
}

// bruteForce returns the least cost over all contiguity-respecting orders.
func bruteForce(w [][]float64, groups, supergroups []int) float64 {
	n := len(w)
	best := math.Inf(1)
	perm := identity(n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			if contiguousRuns(perm, func(v int) int { return groups[v] }) &&
				contiguousRuns(perm, func(v int) int { return supergroups[groups[v]] }) {
				best = min(best, WeightedCrossings(perm, w))
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return best
}

func TestOrderBruteForce(t *testing.T) {
	// Constructed cases with a known optimum.
	// Two hosts, each a 3-clique, joined by a heavy chord and a light one.
	w := undirected(6, [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {0, 5}, {2, 3}})
	w[0][5] = 10
	cases := []struct {
		name                string
		w                   [][]float64
		groups, supergroups []int
	}{
		{"two triangles", w, []int{0, 0, 0, 1, 1, 1}, nil},
		{"two triangles, split hosts", w, []int{0, 1, 0, 2, 3, 2}, []int{0, 0, 1, 1}},
		{"cube graph", undirected(8, [][2]int{{0, 1}, {1, 3}, {3, 2}, {2, 0}, {4, 5}, {5, 7}, {7, 6}, {6, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}), nil, nil},
		{"cube graph, hosts of two", undirected(8, [][2]int{{0, 1}, {1, 3}, {3, 2}, {2, 0}, {4, 5}, {5, 7}, {7, 6}, {6, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}), []int{0, 0, 1, 1, 2, 2, 3, 3}, []int{0, 1, 0, 1}},
	}
	for _, c := range cases {
		g, s := c.groups, c.supergroups
		if g == nil {
			g = make([]int, len(c.w))
		}
		if s == nil {
			s = make([]int, len(c.w))
		}
		opt := bruteForce(c.w, g, s)
		got := WeightedCrossings(Order(c.w, c.groups, c.supergroups), c.w)
		if math.Abs(got-opt) > 1e-9 {
			t.Errorf("%s: Order cost %v, optimum %v", c.name, got, opt)
		}
	}

	// Random small cases: never below the optimum (sanity), usually at it.
	r := rand.New(rand.NewPCG(9, 10))
	trials, hits := 40, 0
	worst := 1.0
	for trial := 0; trial < trials; trial++ {
		n := 4 + r.IntN(4)
		w, groups, supergroups := randomInstance(r, n, 0.2+0.3*r.Float64())
		opt := bruteForce(w, groups, supergroups)
		got := WeightedCrossings(Order(w, groups, supergroups), w)
		if got < opt-1e-9 {
			t.Fatalf("trial %d: Order %v below brute-force optimum %v", trial, got, opt)
		}
		if got <= opt+1e-9 {
			hits++
		} else if opt > 0 {
			worst = max(worst, got/opt)
		}
	}
	t.Logf("random n=4..7: optimum reached in %d/%d, worst ratio %.3f", hits, trials, worst)
	if hits < trials*3/4 {
		t.Errorf("optimum reached in only %d/%d random cases", hits, trials)
	}
}

func BenchmarkOrder32(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	w, groups, supergroups := randomInstance(r, 32, 0.5)
	for b.Loop() {
		Order(w, groups, supergroups)
	}
}
