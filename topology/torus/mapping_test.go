package torus

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPatterns(t *testing.T) {
	p, err := PF3D(2, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Ranks (x,y): 0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1). X lines {0,1}, {2,3};
	// Y lines {0,2}, {1,3}.
	want := []RankPair{{0, 1, 1}, {1, 0, 1}, {2, 3, 1}, {3, 2, 1}, {0, 2, 1}, {2, 0, 1}, {1, 3, 1}, {3, 1, 1}}
	if p.Ranks != 4 || !slices.Equal(p.Pairs, want) {
		t.Errorf("PF3D(2,2,1) = %d ranks %v, want 4 ranks %v", p.Ranks, p.Pairs, want)
	}
	// 32×32×16: 16384 ranks × (31 + 31) partners.
	if p, _ := PF3D(32, 32, 16); len(p.Pairs) != 16384*62 {
		t.Errorf("PF3D(32,32,16): %d pairs, want %d", len(p.Pairs), 16384*62)
	}

	s, _ := Stencil6(3, 1, 1)
	want = []RankPair{{0, 1, 1}, {0, 2, 1}, {1, 2, 1}, {1, 0, 1}, {2, 0, 1}, {2, 1, 1}}
	if !slices.Equal(s.Pairs, want) {
		t.Errorf("Stencil6(3,1,1) = %v, want %v", s.Pairs, want)
	}
	s, _ = Stencil6(2, 1, 1)
	want = []RankPair{{0, 1, 1}, {0, 1, 1}, {1, 0, 1}, {1, 0, 1}}
	if !slices.Equal(s.Pairs, want) {
		t.Errorf("Stencil6(2,1,1) = %v, want %v", s.Pairs, want)
	}
	// 4×4×4: every rank has 6 distinct neighbours.
	s, _ = Stencil6(4, 4, 4)
	for _, rp := range s.Pairs {
		dx := func(a, b, k int) int { return min((a-b+k)%k, (b-a+k)%k) }
		d := dx(rp.Src%4, rp.Dst%4, 4) + dx(rp.Src/4%4, rp.Dst/4%4, 4) + dx(rp.Src/16, rp.Dst/16, 4)
		if d != 1 {
			t.Fatalf("Stencil6(4,4,4) pair %v at grid distance %d", rp, d)
		}
	}
	if len(s.Pairs) != 64*6 {
		t.Errorf("Stencil6(4,4,4): %d pairs, want 384", len(s.Pairs))
	}

	a, _ := AllToAll(3)
	want = []RankPair{{0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {1, 2, 1}, {2, 0, 1}, {2, 1, 1}}
	if !slices.Equal(a.Pairs, want) {
		t.Errorf("AllToAll(3) = %v, want %v", a.Pairs, want)
	}

	r1, _ := RandomPairs(10, 1000, 7)
	r2, _ := RandomPairs(10, 1000, 7)
	r3, _ := RandomPairs(10, 1000, 8)
	if !slices.Equal(r1.Pairs, r2.Pairs) || slices.Equal(r1.Pairs, r3.Pairs) {
		t.Error("RandomPairs is not a function of its seed")
	}
	hit := map[[2]int]bool{}
	for _, rp := range r1.Pairs {
		if rp.Src == rp.Dst || rp.Src < 0 || rp.Src >= 10 || rp.Dst < 0 || rp.Dst >= 10 {
			t.Fatalf("RandomPairs drew %v", rp)
		}
		hit[[2]int{rp.Src, rp.Dst}] = true
	}
	if len(hit) != 90 { // 1000 draws of 90 pairs miss one with probability < 1e-3
		t.Errorf("RandomPairs(10, 1000) hit %d of the 90 ordered pairs", len(hit))
	}

	for _, err := range []error{
		func() error { _, err := PF3D(0, 1, 1); return err }(),
		func() error { _, err := Stencil6(1, -1, 1); return err }(),
		func() error { _, err := AllToAll(0); return err }(),
		func() error { _, err := RandomPairs(1, 5, 0); return err }(),
		func() error { _, err := PF3D(1<<15, 1<<15, 1); return err }(),
	} {
		if err == nil {
			t.Error("bad pattern arguments accepted")
		}
	}
}

func TestOrders(t *testing.T) {
	tr := mustNew(t, []string{"a", "b"}, []int{2, 3})
	// Node id = a + 2b. Default: b fastest: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2).
	if got, want := DefaultOrder(tr), []int{0, 2, 4, 1, 3, 5}; !slices.Equal(got, want) {
		t.Errorf("DefaultOrder = %v, want %v", got, want)
	}
	if got, _ := PermutationOrder(tr, []string{"a", "b"}); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("PermutationOrder(a, b) = %v, want node-id order", got)
	}
	if got, _ := PermutationOrder(tr, []string{"b", "a"}); !slices.Equal(got, DefaultOrder(tr)) {
		t.Errorf("PermutationOrder(b, a) = %v, want DefaultOrder", got)
	}
	for _, dims := range [][]string{{"a"}, {"a", "a"}, {"a", "z"}} {
		if _, err := PermutationOrder(tr, dims); err == nil {
			t.Errorf("PermutationOrder(%v) accepted", dims)
		}
	}

	t44 := mustNew(t, []string{"x", "y"}, []int{4, 4})
	got, err := BlockedOrder(t44, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	// Tiles (0,0), (1,0), (0,1), (1,1); inside each, x fastest.
	if want := []int{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}; !slices.Equal(got, want) {
		t.Errorf("BlockedOrder(4×4, 2×2) = %v, want %v", got, want)
	}
	if got, _ := BlockedOrder(t44, []int{4, 1}); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}) {
		t.Errorf("BlockedOrder(4×4, 4×1) = %v, want node-id order", got)
	}
	for _, tile := range [][]int{{3, 2}, {2}, {0, 4}} {
		if _, err := BlockedOrder(t44, tile); err == nil {
			t.Errorf("BlockedOrder(4×4, %v) accepted", tile)
		}
	}

	if got, err := GivenOrder(tr, []int{5, 4, 3, 2, 1, 0}); err != nil || !slices.Equal(got, []int{5, 4, 3, 2, 1, 0}) {
		t.Errorf("GivenOrder: %v, %v", got, err)
	}
	for _, o := range [][]int{{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 4}, {0, 1, 2, 3, 4, 6}} {
		if _, err := GivenOrder(tr, o); err == nil {
			t.Errorf("GivenOrder(%v) accepted", o)
		}
	}
}

func TestMapPairs(t *testing.T) {
	// Two nodes on a ring of 2; all-to-all among 4 ranks, 2 a node.
	tr := mustNew(t, []string{"x"}, []int{2})
	a, _ := AllToAll(4)
	rows, err := MapPairs(tr, a, Mapping{RanksPerNode: 2, Order: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	// Ranks 0,1 on node 0 and 2,3 on node 1: 4 rank pairs each way cross.
	if want := []PairRow{{Src: 0, Dst: 1, Packets: 4}, {Src: 1, Dst: 0, Packets: 4}}; !slices.Equal(rows, want) {
		t.Errorf("MapPairs = %v, want %v", rows, want)
	}
	// Reversed order: rank 0 on node 1.
	s, _ := Stencil6(4, 1, 1) // 0→1, 0→3, 1→2, 1→0, 2→3, 2→1, 3→0, 3→2
	t4 := mustNew(t, []string{"x"}, []int{4})
	rows, _ = MapPairs(t4, s, Mapping{RanksPerNode: 2, Order: []int{3, 1}})
	// Ranks 0,1 on node 3, 2,3 on node 1. Crossing: 0→3, 1→2, 2→1, 3→0.
	if want := []PairRow{{Src: 1, Dst: 3, Packets: 2}, {Src: 3, Dst: 1, Packets: 2}}; !slices.Equal(rows, want) {
		t.Errorf("MapPairs with order {3, 1} = %v, want %v", rows, want)
	}
	bad := []Mapping{
		{RanksPerNode: 0, Order: []int{0, 1}},
		{RanksPerNode: 1, Order: []int{0, 1}},    // 4 ranks on 2 slots
		{RanksPerNode: 2, Order: []int{0, 0}},    // repeated node
		{RanksPerNode: 2, Order: []int{0, 2}},    // no node 2
		{RanksPerNode: 4, Order: []int{0, 1, 1}}, // repeated
	}
	for _, m := range bad {
		if _, err := MapPairs(tr, a, m); err == nil {
			t.Errorf("mapping %+v accepted", m)
		}
	}
	if _, err := MapPairs(tr, Pattern{Ranks: 2, Pairs: []RankPair{{0, 2, 1}}}, Mapping{RanksPerNode: 1, Order: []int{0, 1}}); err == nil {
		t.Error("pattern pair with rank 2 of 2 accepted")
	}
}

func TestAggregateLarge(t *testing.T) {
	// Over 1024 nodes Aggregate sorts instead of using a dense matrix:
	// both ways must agree.
	big := mustNew(t, []string{"x", "y"}, []int{40, 40})
	small := mustNew(t, []string{"x", "y"}, []int{20, 20})
	rows := []PairRow{{Src: 5, Dst: 3, Packets: 2}, {Src: 1, Dst: 2, Packets: 1}, {Src: 5, Dst: 3, Packets: 4}, {Src: 7, Dst: 7, Packets: 9}, {Src: 2, Dst: 1, Packets: 1}, {Src: 2, Dst: 1, Packets: -1}}
	want := []PairRow{{Src: 1, Dst: 2, Packets: 1}, {Src: 5, Dst: 3, Packets: 6}}
	for _, tr := range []*Torus{big, small} {
		if got := Aggregate(tr, rows); !slices.Equal(got, want) {
			t.Errorf("%s: Aggregate = %v, want %v", tr, got, want)
		}
	}
}

func TestMeasure(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	loads := make([]int64, tr.Channels())
	id := func(x, y, d, dir int) int { c, _ := tr.ChannelID(x+4*y, d, dir); return c }
	loads[id(0, 0, 0, 1)] = 5  // (0,0)→(1,0)
	loads[id(1, 0, 0, -1)] = 2 // (1,0)→(0,0)
	loads[id(3, 3, 1, 1)] = 9  // (3,3)→(3,0)
	m, err := Measure(tr, loads)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Dim, []int64{7, 9}) || !slices.Equal(m.Plus, []int64{5, 9}) || !slices.Equal(m.Minus, []int64{2, 0}) {
		t.Errorf("totals dim %v plus %v minus %v", m.Dim, m.Plus, m.Minus)
	}
	if !slices.Equal(m.Channels, []int{32, 32}) || !slices.Equal(m.Idle, []int{30, 31}) || m.Total != 16 {
		t.Errorf("channels %v idle %v total %d", m.Channels, m.Idle, m.Total)
	}
	if m.Max != 9 || m.MaxChannel != id(3, 3, 1, 1) {
		t.Errorf("max %d on %d", m.Max, m.MaxChannel)
	}
	s := m.String()
	for _, line := range []string{"x       7  5  2  30/32", "y       9  9  0  31/32", "all    16        61/64", "max 9 on channel"} {
		if !strings.Contains(s, line) {
			t.Errorf("String() lacks %q:\n%s", line, s)
		}
	}
	in, out, err := NodeInOut(tr, loads)
	if err != nil {
		t.Fatal(err)
	}
	if out[0] != 5 || in[1] != 5 || out[1] != 2 || in[0] != 2 || out[15] != 9 || in[3] != 9 {
		t.Errorf("in %v out %v", in, out)
	}
	if _, err := Measure(tr, loads[:3]); err == nil {
		t.Error("Measure accepted 3 loads")
	}
	// An all-idle torus: max 0 on channel 0.
	m, _ = Measure(tr, make([]int64, tr.Channels()))
	if m.Max != 0 || m.MaxChannel != 0 || m.Idle[0] != 32 {
		t.Errorf("idle torus: max %d on %d, idle %v", m.Max, m.MaxChannel, m.Idle)
	}
}

// TestHopBytes: on random shapes and traffic, Σ packets·Dist equals the
// total routed load, and node out minus in is what a node sends minus
// what it receives.
func TestHopBytes(t *testing.T) {
	for seed := range uint64(30) {
		rng := newRand(seed)
		tr := randomTorus(t, rng)
		p, err := RandomPairs(max(2, tr.Nodes()), 200, seed)
		if err != nil {
			t.Fatal(err)
		}
		order := rng.Perm(tr.Nodes())
		if tr.Nodes() < 2 {
			continue
		}
		rows, err := MapPairs(tr, p, Mapping{RanksPerNode: 1, Order: order})
		if err != nil {
			t.Fatal(err)
		}
		loads, err := Loads(tr, rows, RouteOptions{TieMinus: seed%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := Measure(tr, loads)
		hb, err := HopBytes(tr, rows)
		if err != nil || hb != m.Total {
			t.Fatalf("%s: hop-bytes %d (%v), routed total %d", tr, hb, err, m.Total)
		}
		in, out, _ := NodeInOut(tr, loads)
		sent := make([]int64, tr.Nodes())
		for _, r := range rows {
			sent[r.Src] += r.Packets
			sent[r.Dst] -= r.Packets
		}
		for v := range sent {
			if out[v]-in[v] != sent[v] {
				t.Fatalf("%s: node %d: out−in = %d, sent−received = %d", tr, v, out[v]-in[v], sent[v])
			}
		}
	}
}

func ExampleMeasure() {
	t, _ := New([]string{"x", "y"}, []int{4, 4})
	// Every node sends one packet to the node two steps along x (a tie:
	// it goes +) and one to its +y neighbour.
	var rows []PairRow
	for v := range t.Nodes() {
		x, y := v%4, v/4
		rows = append(rows, PairRow{Src: v, Dst: (x+2)%4 + 4*y, Packets: 1}, PairRow{Src: v, Dst: x + 4*((y+1)%4), Packets: 1})
	}
	loads, _ := Loads(t, rows, RouteOptions{})
	m, _ := Measure(t, loads)
	fmt.Print(m)
	// Output:
	// dim  load   +  −   idle
	// x      32  32  0  16/32
	// y      16  16  0  16/32
	// all    48         32/64
	// max 2 on channel 0
}
