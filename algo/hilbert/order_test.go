package hilbert_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"superstep/algo/hilbert"
	"superstep/topology/torus"
)

func newTorus(t testing.TB, extents ...int) *torus.Torus {
	t.Helper()
	names := make([]string, len(extents))
	for i := range names {
		names[i] = fmt.Sprintf("d%d", i)
	}
	tor, err := torus.New(names, extents)
	if err != nil {
		t.Fatal(err)
	}
	return tor
}

// The paper's 4×4 example (Fig. 5/6), hand-drawn: (first, second).
var want4x4 = [][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 2}, {0, 3}, {1, 3}, {1, 2},
	{2, 2}, {2, 3}, {3, 3}, {3, 2}, {3, 1}, {2, 1}, {2, 0}, {3, 0}}

func TestOrder4x4(t *testing.T) {
	order, err := hilbert.Order([]int{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	for r, c := range want4x4 {
		if id := c[0] + 4*c[1]; order[r] != id {
			t.Fatalf("rank %d: node %d (%d,%d), want (%d,%d)", r, order[r], order[r]%4, order[r]/4, c[0], c[1])
		}
	}
	ranks := hilbert.Ranks(order)
	if ranks[2+4*2] != 8 || ranks[2+4*1] != 13 {
		t.Errorf("rank of [2,2] = %d (want 8), of [2,1] = %d (want 13)", ranks[10], ranks[6])
	}
	// Extent-1 dimensions are dropped: 1×4×1×4 walks the same ring.
	o2, err := hilbert.Order([]int{1, 4, 1, 4})
	if err != nil {
		t.Fatal(err)
	}
	for r := range order {
		if o2[r] != order[r] {
			t.Fatalf("1×4×1×4 rank %d: %d, want %d", r, o2[r], order[r])
		}
	}
}

// TestOrder3x4 derives the padded order by hand: 3×4 pads to 4×4, so the
// ring is the 4×4 ring without the nodes of first coordinate 3, and its
// one jump is (2,3) → (2,1), two hops apart.
func TestOrder3x4(t *testing.T) {
	order, err := hilbert.Order([]int{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, c := range want4x4 {
		if c[0] < 3 {
			want = append(want, c[0]+3*c[1])
		}
	}
	for r := range want {
		if order[r] != want[r] {
			t.Fatalf("rank %d: node %d, want %d", r, order[r], want[r])
		}
	}
	tor := newTorus(t, 3, 4)
	if j, _ := hilbert.Jumps(tor, order); j != 1 {
		t.Errorf("jumps = %d, want 1", j)
	}
	if order[9] != 2+3*3 || order[10] != 2+3*1 {
		t.Errorf("ranks 9, 10 = nodes %d, %d; want (2,3), (2,1)", order[9], order[10])
	}
}

func isPermutation(order []int) bool {
	seen := make([]bool, len(order))
	for _, v := range order {
		if v < 0 || v >= len(order) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// TestRanksBijection: on seeded random shapes (up to 8 dimensions, any
// extents) every order is a permutation and Ranks inverts it.
func TestRanksBijection(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 13))
	for trial := 0; trial < 200; trial++ {
		ext := make([]int, 1+rng.IntN(8))
		n := 1
		for j := range ext {
			ext[j] = 1 + rng.IntN(6)
			if n*ext[j] > 5000 {
				ext[j] = 1
			}
			n *= ext[j]
		}
		for name, f := range map[string]func([]int) ([]int, error){
			"Order": hilbert.Order, "RowMajorFirst": hilbert.RowMajorFirst, "RowMajorLast": hilbert.RowMajorLast} {
			order, err := f(ext)
			if err != nil {
				t.Fatalf("%s(%v): %v", name, ext, err)
			}
			if len(order) != n || !isPermutation(order) {
				t.Fatalf("%s(%v): not a permutation of 0..%d", name, ext, n-1)
			}
			ranks := hilbert.Ranks(order)
			for r, v := range order {
				if ranks[v] != r {
					t.Fatalf("%s(%v): Ranks[%d] = %d, want %d", name, ext, v, ranks[v], r)
				}
			}
		}
	}
}

func TestRowMajorLast(t *testing.T) {
	// 2×3, last coordinate fastest: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2);
	// ids x0 + 2·x1.
	order, err := hilbert.RowMajorLast([]int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 2, 4, 1, 3, 5}
	for r := range want {
		if order[r] != want[r] {
			t.Fatalf("RowMajorLast(2×3) = %v, want %v", order, want)
		}
	}
}

// TestJumps: consecutive ranks at torus distance ≠ 1 (wrap links count as
// one hop). The expected counts for padded shapes are the brief's.
func TestJumps(t *testing.T) {
	for _, c := range []struct {
		ext   []int
		jumps int
	}{
		{[]int{4, 4, 4, 4, 4}, 0},
		{[]int{8, 8, 8}, 0},
		{[]int{4, 4, 4, 4, 2}, 0},
		{[]int{1, 4, 4, 4, 2}, 0},
		{[]int{2, 4, 8}, 0},
		{[]int{8, 8, 16}, 0},
		{[]int{2, 3, 4}, 0},
		{[]int{3, 4}, 1},
		{[]int{12, 16}, 1},
		{[]int{5, 5, 5}, 5},
		{[]int{6, 6, 6}, 5},
		{[]int{4, 12, 16, 16, 2}, 69},
		// A power-of-two box where the compact index itself jumps (see
		// the Order doc): 2×8 restricted from the 8×8 curve.
		{[]int{2, 8}, 1},
	} {
		order, err := hilbert.Order(c.ext)
		if err != nil {
			t.Fatal(err)
		}
		j, err := hilbert.Jumps(newTorus(t, c.ext...), order)
		if err != nil {
			t.Fatal(err)
		}
		if j != c.jumps {
			t.Errorf("%v: %d jumps, want %d", c.ext, j, c.jumps)
		}
	}
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestLocalityTable is the issue's locality table: row-major values to the
// digits shown, Hilbert within its band.
func TestLocalityTable(t *testing.T) {
	type row struct {
		ext            []int
		order          func([]int) ([]int, error)
		name           string
		lLo, lHi       float64
		wLo, wHi       float64
		stretch, sTol  float64
		intra          float64
		bundles        int
		closingChannel bool
	}
	rows := []row{
		{[]int{4, 4, 4, 4, 4}, hilbert.RowMajorFirst, "row-major", 1.3315, 1.3325, 2.7755, 2.7765, 76.7, 0.05, 0.700, 12, false},
		{[]int{4, 4, 4, 4, 4}, hilbert.RowMajorLast, "row-major last", 1.3315, 1.3325, 2.7755, 2.7765, 76.7, 0.05, 0.700, 12, false},
		{[]int{4, 4, 4, 4, 4}, hilbert.Order, "Hilbert", 1, 1, 2.36, 2.39, 76.7, 0.05, 0.700, 12, true},
		{[]int{8, 8, 8}, hilbert.RowMajorFirst, "row-major", 1.14055, 1.14065, 2.9915, 2.9925, 26.58, 0.005, 0.667, 8, false},
		{[]int{8, 8, 8}, hilbert.RowMajorLast, "row-major last", 1.14055, 1.14065, 2.9915, 2.9925, 26.58, 0.005, 0.667, 8, false},
		{[]int{8, 8, 8}, hilbert.Order, "Hilbert", 1, 1, 2.17, 2.22, 32.17, 0.005, 0.750, 12, true},
		{[]int{4, 4, 4, 4, 2}, hilbert.RowMajorLast, "row-major last", 1.6635, 1.6645, 2.3515, 2.3525, 42.56, 0.005, 0.667, 12, false},
		{[]int{4, 4, 4, 4, 2}, hilbert.Order, "Hilbert", 1, 1, 0, 2.40, 42.56, 0.005, 0.667, 12, true},
	}
	for _, r := range rows {
		tor := newTorus(t, r.ext...)
		order, err := r.order(r.ext)
		if err != nil {
			t.Fatal(err)
		}
		m, err := hilbert.Measure(tor, order, 0, 8)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v %s: L %.4f W %.4f stretch %.2f intra(8) %.3f bundles(8) %d jumps %d", r.ext, r.name, m.L, m.W, m.Stretch, m.Intra, m.Bundles, m.Jumps)
		if m.L < r.lLo || m.L > r.lHi || m.W < r.wLo || m.W > r.wHi || !near(m.Stretch, r.stretch, r.sTol) ||
			!near(m.Intra, r.intra, 0.0005) || m.Bundles != r.bundles {
			t.Errorf("%v %s: got L %.5f W %.5f stretch %.3f intra %.4f bundles %d", r.ext, r.name, m.L, m.W, m.Stretch, m.Intra, m.Bundles)
		}
		if closes := tor.Dist(order[len(order)-1], order[0]) == 1; closes != r.closingChannel {
			t.Errorf("%v %s: closing step is a channel: %v, want %v", r.ext, r.name, closes, r.closingChannel)
		}
	}
}

// TestPaperBundles reproduces paper 004's 128-node example: (1,4,4,4,2) in
// Hilbert order at 8 blocks has the 8 ring-adjacent bundles and the far
// pairs 1–4, 2–7, 3–6, 5–8, 16 neighbour pairs each, and 256 of its 448
// neighbour pairs inside a block (16 blocks × 16 nodes × 7 neighbours / 2
// = 448; 448 − 12·16 = 256).
func TestPaperBundles(t *testing.T) {
	tor := newTorus(t, 1, 4, 4, 4, 2)
	order, err := hilbert.Order([]int{1, 4, 4, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := hilbert.BlockPairs(tor, order, 8)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]bool{{1, 4}: true, {2, 7}: true, {3, 6}: true, {5, 8}: true, {1, 8}: true}
	for b := 1; b < 8; b++ {
		want[[2]int{b, b + 1}] = true
	}
	intra, bundles, total := 0, 0, 0
	for _, p := range pairs {
		total += p.Pairs
		if p.A == p.B {
			intra += p.Pairs
			continue
		}
		bundles++
		if !want[[2]int{p.A + 1, p.B + 1}] || p.Pairs != 16 {
			t.Errorf("bundle %d–%d with %d pairs", p.A+1, p.B+1, p.Pairs)
		}
	}
	if bundles != 12 || intra != 256 || total != 448 {
		t.Errorf("bundles %d (want 12), intra %d (want 256), pairs %d (want 448)", bundles, intra, total)
	}
	m, err := hilbert.Measure(tor, order, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	if m.Bundles != 12 || m.Pairs != 448 || m.Intra != 256.0/448 || m.Dims != 4 {
		t.Errorf("Measure: %+v", m)
	}

	// 4×4 at 4 blocks: 4 intra pairs per block, 4 per ring-adjacent block
	// pair (including 4–1), no far pair.
	tor = newTorus(t, 4, 4)
	order, _ = hilbert.Order([]int{4, 4})
	pairs, err = hilbert.BlockPairs(tor, order, 4)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int]int{}
	for _, p := range pairs {
		got[[2]int{p.A, p.B}] = p.Pairs
	}
	wantPairs := map[[2]int]int{{0, 0}: 4, {1, 1}: 4, {2, 2}: 4, {3, 3}: 4, {0, 1}: 4, {1, 2}: 4, {2, 3}: 4, {0, 3}: 4}
	if len(got) != len(wantPairs) {
		t.Errorf("4×4 at 4 blocks: %v", got)
	}
	for k, v := range wantPairs {
		if got[k] != v {
			t.Errorf("4×4 blocks %d–%d: %d pairs, want %d", k[0]+1, k[1]+1, got[k], v)
		}
	}
}

func TestBlockRule(t *testing.T) {
	// The paper's rule: m even, N mod m = 0, blocks of N/m.
	sz, err := hilbert.BlockSizes(128, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sz {
		if s != 16 {
			t.Fatalf("BlockSizes(128, 8) = %v", sz)
		}
	}
	// 12 blocks on 512 nodes (the paper's Fig. 1 machine): 512 = 8·43 + 4·42.
	sz, _ = hilbert.BlockSizes(512, 12)
	for b, s := range sz {
		want := 42
		if b < 8 {
			want = 43
		}
		if s != want {
			t.Fatalf("BlockSizes(512, 12) = %v", sz)
		}
	}
	// BlockOf agrees with BlockSizes everywhere.
	for n := 1; n <= 40; n++ {
		for m := 1; m <= n; m++ {
			sz, err := hilbert.BlockSizes(n, m)
			if err != nil {
				t.Fatal(err)
			}
			r := 0
			for b, s := range sz {
				if s < n/m || s > n/m+1 {
					t.Fatalf("BlockSizes(%d, %d) = %v", n, m, sz)
				}
				for ; s > 0; s-- {
					if got := hilbert.BlockOf(n, m, r); got != b {
						t.Fatalf("BlockOf(%d, %d, %d) = %d, want %d", n, m, r, got, b)
					}
					r++
				}
			}
		}
	}
	for _, m := range []int{0, -1, 17} {
		if _, err := hilbert.BlockSizes(16, m); err == nil {
			t.Errorf("BlockSizes(16, %d): want an error", m)
		}
	}
}

// TestStepByHand checks step(k) and stretch on a 4-node ring (torus 4):
// in the order 0 2 1 3 every step is 2 hops... by hand: Dist(0,2) = 2,
// Dist(2,1) = 1, Dist(1,3) = 2, Dist(3,0) = 1, so step(1) = 6/4.
func TestStepByHand(t *testing.T) {
	tor := newTorus(t, 4)
	order := []int{0, 2, 1, 3}
	s, err := hilbert.Step(tor, order, 1)
	if err != nil || s != 1.5 {
		t.Errorf("step(1) = %v, %v; want 1.5", s, err)
	}
	// step(2): Dist(0,1)=1, Dist(2,3)=1, Dist(1,0)=1, Dist(3,2)=1.
	if s, _ := hilbert.Step(tor, order, 2); s != 1 {
		t.Errorf("step(2) = %v, want 1", s)
	}
	// Neighbour pairs 0–1, 1–2, 2–3, 0–3 at ranks (0,2), (2,1), (1,3),
	// (0,3): circular rank distances 2, 1, 2, 1 → 1.5.
	if st, _ := hilbert.Stretch(tor, order); st != 1.5 {
		t.Errorf("stretch = %v, want 1.5", st)
	}
	if j, _ := hilbert.Jumps(tor, order); j != 2 {
		t.Errorf("jumps = %d, want 2", j)
	}
	// W with n′ = 1: mean of step(1), step(2) = 1.25.
	m, err := hilbert.Measure(tor, order, 0, 2)
	if err != nil || m.W != 1.25 || m.Dims != 1 {
		t.Errorf("Measure: %+v, %v", m, err)
	}
}

func TestErrors(t *testing.T) {
	for _, ext := range [][]int{nil, {}, {0, 4}, {4, -1}, {1 << 20, 1 << 20}} {
		if _, err := hilbert.Order(ext); err == nil {
			t.Errorf("Order(%v): want an error", ext)
		}
		if _, err := hilbert.RowMajorLast(ext); err == nil {
			t.Errorf("RowMajorLast(%v): want an error", ext)
		}
	}
	// One node.
	if o, err := hilbert.Order([]int{1, 1}); err != nil || len(o) != 1 || o[0] != 0 {
		t.Errorf("Order(1×1) = %v, %v", o, err)
	}
	tor := newTorus(t, 4, 4)
	for _, bad := range [][]int{{0, 1, 2}, append(make([]int, 15), 0), append(make([]int, 15), 16)} {
		if _, err := hilbert.Measure(tor, bad, 2, 4); err == nil {
			t.Errorf("Measure with order %v: want an error", bad)
		}
	}
	good, _ := hilbert.Order([]int{4, 4})
	if _, err := hilbert.Measure(tor, good, 2, 17); err == nil {
		t.Error("17 blocks on 16 nodes: want an error")
	}
	if _, err := hilbert.Measure(plainSpace{tor}, good, 0, 4); err == nil {
		t.Error("n′ not given and no Extents: want an error")
	}
	if _, err := hilbert.Measure(plainSpace{tor}, good, 2, 4); err != nil {
		t.Errorf("n′ given: %v", err)
	}
}

// plainSpace hides the torus's Extents method.
type plainSpace struct{ t *torus.Torus }

func (p plainSpace) Nodes() int             { return p.t.Nodes() }
func (p plainSpace) Dist(u, v int) int      { return p.t.Dist(u, v) }
func (p plainSpace) Neighbours(v int) []int { return p.t.Neighbours(v) }

func BenchmarkOrder24576(b *testing.B) {
	ext := []int{4, 12, 16, 16, 2}
	for b.Loop() {
		if _, err := hilbert.Order(ext); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleOrder() {
	order, err := hilbert.Order([]int{4, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	cells := make([]string, len(order))
	for r, v := range order {
		cells[r] = fmt.Sprintf("(%d,%d)", v%4, v/4)
	}
	fmt.Println(strings.Join(cells, " "))
	fmt.Println("rank of [2,2]:", hilbert.Ranks(order)[2+4*2])
	// Output:
	// (0,0) (1,0) (1,1) (0,1) (0,2) (0,3) (1,3) (1,2) (2,2) (2,3) (3,3) (3,2) (3,1) (2,1) (2,0) (3,0)
	// rank of [2,2]: 8
}

// TestPowerOfTwoJumps pins the Order doc's examples of power-of-two boxes
// where the compact index itself leaves jumps on the torus.
func TestPowerOfTwoJumps(t *testing.T) {
	for _, c := range []struct {
		ext   []int
		jumps int
	}{{[]int{2, 8}, 1}, {[]int{2, 2, 8}, 1}, {[]int{2, 8, 8}, 5}, {[]int{4, 2}, 0}} {
		order, _ := hilbert.Order(c.ext)
		if j, _ := hilbert.Jumps(newTorus(t, c.ext...), order); j != c.jumps {
			t.Errorf("%v: %d jumps, want %d", c.ext, j, c.jumps)
		}
	}
	// 4×2, by hand from the 4×4 ring without second coordinate ≥ 2:
	// (0,0) (1,0) (1,1) (0,1) (3,1) (2,1) (2,0) (3,0); the step
	// (0,1)→(3,1) is a wrap link.
	order, _ := hilbert.Order([]int{4, 2})
	want := []int{0, 1, 5, 4, 7, 6, 2, 3}
	for r := range want {
		if order[r] != want[r] {
			t.Fatalf("Order(4×2) = %v, want %v", order, want)
		}
	}
}
