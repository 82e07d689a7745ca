package torus

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func mustNew(tb testing.TB, names []string, extents []int, opts ...Option) *Torus {
	tb.Helper()
	t, err := New(names, extents, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// distSum is Σ Dist over ordered pairs of distinct nodes.
func distSum(t *Torus) int {
	s := 0
	for u := range t.Nodes() {
		for v := range t.Nodes() {
			s += t.Dist(u, v)
		}
	}
	return s
}

func TestModel4x4(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	if tr.Nodes() != 16 || len(tr.Pairs()) != 32 || tr.Channels() != 64 || tr.Diameter() != 4 {
		t.Fatalf("4×4: %d nodes, %d pairs, %d channels, diameter %d; want 16, 32, 64, 4",
			tr.Nodes(), len(tr.Pairs()), tr.Channels(), tr.Diameter())
	}
	// Mean distance 32/15 over the 16·15 ordered pairs: the sum is 512.
	if s := distSum(tr); s != 512 {
		t.Errorf("4×4: Σ distance %d, want 512 (mean 32/15)", s)
	}
	// Every node has 4 distinct neighbours.
	for v := range tr.Nodes() {
		if n := len(tr.Neighbours(v)); n != 4 {
			t.Errorf("node %d: %d neighbours, want 4", v, n)
		}
	}
}

func TestModel2x3x4(t *testing.T) {
	names := []string{"a", "b", "c"}
	tr := mustNew(t, names, []int{2, 3, 4})
	// Pairs: 12 along a (extent 2: one pair per line of 2), 24 along b
	// (3 per ring × 8 rings), 24 along c (4 per ring × 6 rings).
	if tr.Nodes() != 24 || len(tr.Pairs()) != 60 || tr.Channels() != 144 || tr.Diameter() != 4 {
		t.Fatalf("2×3×4: %d nodes, %d pairs, %d channels, diameter %d; want 24, 60, 144, 4",
			tr.Nodes(), len(tr.Pairs()), tr.Channels(), tr.Diameter())
	}
	// Mean distance 52/23 over the 24·23 ordered pairs: the sum is 1248.
	if s := distSum(tr); s != 1248 {
		t.Errorf("2×3×4: Σ distance %d, want 1248 (mean 52/23)", s)
	}
	one := mustNew(t, names, []int{2, 3, 4}, Extent2Channels(1))
	if one.Channels() != 120 || len(one.Pairs()) != 60 {
		t.Errorf("2×3×4 with one extent-2 channel: %d channels, %d pairs; want 120, 60", one.Channels(), len(one.Pairs()))
	}
	// The two parallel channels join the same nodes.
	plus, _ := tr.ChannelID(0, 0, +1)
	minus, _ := tr.ChannelID(0, 0, -1)
	if a, b := tr.Channel(plus), tr.Channel(minus); a.To != 1 || b.To != 1 || a.Dir != 1 || b.Dir != -1 {
		t.Errorf("extent-2 channels of node 0: %+v, %+v; want both to node 1, + and −", a, b)
	}
	if id, err := tr.ChannelBetween(0, 1, false); err != nil || id != minus {
		t.Errorf("ChannelBetween(0, 1, −) = %d, %v; want %d", id, err, minus)
	}
	if _, ok := one.ChannelID(0, 0, -1); ok {
		t.Error("Extent2Channels(1) has a − channel on extent 2")
	}
	if tr.Extent2() != 2 || one.Extent2() != 1 {
		t.Errorf("Extent2() = %d and %d, want 2 and 1", tr.Extent2(), one.Extent2())
	}
}

func TestExtentOne(t *testing.T) {
	tr := mustNew(t, []string{"x", "w", "y"}, []int{4, 1, 4})
	if tr.Channels() != 64 || len(tr.Pairs()) != 32 || tr.Diameter() != 4 || distSum(tr) != 512 {
		t.Errorf("4×1×4: %d channels, %d pairs, diameter %d, Σ distance %d; want those of 4×4: 64, 32, 4, 512",
			tr.Channels(), len(tr.Pairs()), tr.Diameter(), distSum(tr))
	}
	if _, ok := tr.ChannelID(0, 1, 1); ok {
		t.Error("extent-1 dimension has a channel")
	}
}

func TestMesh(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4}, Mesh("x"))
	// x: 3 links a row × 2 directions × 4 rows = 24; y: 32.
	if tr.Channels() != 56 || len(tr.Pairs()) != 28 || tr.Diameter() != 5 {
		t.Errorf("4×4 mesh in x: %d channels, %d pairs, diameter %d; want 56, 28, 5", tr.Channels(), len(tr.Pairs()), tr.Diameter())
	}
	if d := tr.Dist(0, 3); d != 3 {
		t.Errorf("mesh Dist((0,0),(3,0)) = %d, want 3", d)
	}
	if d := tr.Dist(0, 12); d != 1 {
		t.Errorf("Dist((0,0),(0,3)) along the wrapped y = %d, want 1", d)
	}
	if _, ok := tr.ChannelID(3, 0, +1); ok {
		t.Error("mesh has a + channel at its last coordinate")
	}
	if _, ok := tr.ChannelID(0, 0, -1); ok {
		t.Error("mesh has a − channel at coordinate 0")
	}
	if !strings.Contains(tr.String(), "mesh in x") {
		t.Errorf("String() = %q, want it to name the mesh dimension", tr.String())
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		names   []string
		extents []int
		opts    []Option
		want    string
	}{
		{[]string{"x"}, []int{0}, nil, "extent 0"},
		{[]string{"x", "y"}, []int{4, -1}, nil, "extent -1"},
		{[]string{"x", "x"}, []int{4, 4}, nil, "twice"},
		{[]string{"x"}, []int{4, 4}, nil, "names"},
		{nil, nil, nil, "no dimension"},
		{[]string{""}, []int{4}, nil, "no name"},
		{[]string{"x,y"}, []int{4}, nil, "comma"},
		{[]string{"x", "y"}, []int{4, 4}, []Option{Mesh("z")}, `Mesh("z")`},
		{[]string{"x"}, []int{2}, []Option{Extent2Channels(3)}, "want 1 or 2"},
		{[]string{"a", "b", "c"}, []int{1 << 12, 1 << 12, 1 << 12}, nil, "nodes"},
	}
	for _, c := range cases {
		_, err := New(c.names, c.extents, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%v, %v): error %v, want one containing %q", c.names, c.extents, err, c.want)
		}
	}
}

// randomTorus draws a shape of 1..5 dimensions, extents 1..6, some mesh.
func randomTorus(tb testing.TB, rng *rand.Rand) *Torus {
	n := 1 + rng.IntN(5)
	names := make([]string, n)
	extents := make([]int, n)
	var mesh []string
	for d := range n {
		names[d] = string(rune('a' + d))
		extents[d] = 1 + rng.IntN(6)
		if rng.IntN(4) == 0 {
			mesh = append(mesh, names[d])
		}
	}
	opts := []Option{Mesh(mesh...)}
	if rng.IntN(2) == 0 {
		opts = append(opts, Extent2Channels(1))
	}
	return mustNew(tb, names, extents, opts...)
}

func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		tr := randomTorus(t, rng)
		n := tr.Nodes()
		for range 50 {
			u, v, w := rng.IntN(n), rng.IntN(n), rng.IntN(n)
			duv := tr.Dist(u, v)
			if duv != tr.Dist(v, u) {
				t.Fatalf("%s: Dist(%d,%d) ≠ Dist(%d,%d)", tr, u, v, v, u)
			}
			if (duv == 0) != (u == v) {
				t.Fatalf("%s: Dist(%d,%d) = %d", tr, u, v, duv)
			}
			if duv > tr.Dist(u, w)+tr.Dist(w, v) {
				t.Fatalf("%s: triangle inequality fails for %d, %d via %d", tr, u, v, w)
			}
			if duv > tr.Diameter() {
				t.Fatalf("%s: Dist(%d,%d) = %d > diameter %d", tr, u, v, duv, tr.Diameter())
			}
			if id, err := tr.ID(tr.Coord(u)); err != nil || id != u {
				t.Fatalf("%s: ID(Coord(%d)) = %d, %v", tr, u, id, err)
			}
			for _, x := range tr.Neighbours(u) {
				if tr.Dist(u, x) != 1 {
					t.Fatalf("%s: neighbour %d of %d at distance %d", tr, x, u, tr.Dist(u, x))
				}
			}
		}
		for id := range tr.Channels() {
			c := tr.Channel(id)
			if !slices.Contains(tr.Neighbours(c.Node), c.To) {
				t.Fatalf("%s: channel %+v goes to a non-neighbour", tr, c)
			}
			if back, ok := tr.ChannelID(c.Node, c.Dim, c.Dir); !ok || back != id {
				t.Fatalf("%s: ChannelID(Channel(%d)) = %d, %v", tr, id, back, ok)
			}
		}
		// Every neighbour pair has a channel each way.
		for _, p := range tr.Pairs() {
			if _, err := tr.ChannelBetween(p.A, p.B, true); err != nil {
				t.Fatalf("%s: %v", tr, err)
			}
			if _, err := tr.ChannelBetween(p.B, p.A, true); err != nil {
				t.Fatalf("%s: %v", tr, err)
			}
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }
