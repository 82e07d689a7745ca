package torus

import (
	"testing"
)

// pf3dLoads maps a pF3D pattern on grid onto tr with ranksPerNode ranks a
// node in the given node order and routes it in dimension order, ties +.
func pf3dLoads(tb testing.TB, tr *Torus, grid [3]int, ranksPerNode int, order []int) (Totals, []PairRow, []int64) {
	tb.Helper()
	p, err := PF3D(grid[0], grid[1], grid[2])
	if err != nil {
		tb.Fatal(err)
	}
	rows, err := MapPairs(tr, p, Mapping{RanksPerNode: ranksPerNode, Order: order})
	if err != nil {
		tb.Fatal(err)
	}
	loads, err := Loads(tr, rows, RouteOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := Measure(tr, loads)
	if err != nil {
		tb.Fatal(err)
	}
	return m, rows, loads
}

// Done-when item 7: pF3D-like traffic, one unit per ordered rank pair on
// different nodes and per hop, routing A→E, ties to +.
func TestPF3DDoneWhen7(t *testing.T) {
	abcde := []string{"a", "b", "c", "d", "e"}
	cases := []struct {
		name   string
		tr     *Torus
		grid   [3]int
		rpn    int
		order  func(*Torus) []int
		perDim []int64
		max    int64
		total  int64
	}{
		{
			name: "4×4×4×4×2 default", tr: mustNew(t, abcde, []int{4, 4, 4, 4, 2}),
			grid: [3]int{32, 32, 16}, rpn: 32, order: DefaultOrder,
			perDim: []int64{0, 0, 524288, 524288, 262144}, max: 768, total: 1310720,
		},
		{
			name: "4×4×4×4×1 default", tr: mustNew(t, abcde, []int{4, 4, 4, 4, 1}),
			grid: [3]int{32, 16, 16}, rpn: 32, order: DefaultOrder,
			perDim: []int64{0, 0, 131072, 131072, 0}, max: 384, total: 262144,
		},
		{
			name: "BG/P 8×8×8 node-id order", tr: mustNew(t, []string{"x", "y", "z"}, []int{8, 8, 8}),
			grid: [3]int{16, 16, 8}, rpn: 4,
			order: func(tr *Torus) []int {
				o, _ := PermutationOrder(tr, []string{"x", "y", "z"})
				return o
			},
			perDim: []int64{106496, 65536, 0}, max: 192, total: 172032,
		},
	}
	for _, c := range cases {
		m, rows, loads := pf3dLoads(t, c.tr, c.grid, c.rpn, c.order(c.tr))
		for d, want := range c.perDim {
			if m.Dim[d] != want {
				t.Errorf("%s: dimension %s carries %d, want %d", c.name, m.Names[d], m.Dim[d], want)
			}
		}
		if m.Total != c.total || m.Max != c.max {
			t.Errorf("%s: total %d, max %d; want %d, %d\n%s", c.name, m.Total, m.Max, c.total, c.max, m)
		}
		// Hop-bytes equals the routed total.
		if hb, err := HopBytes(c.tr, rows); err != nil || hb != m.Total {
			t.Errorf("%s: hop-bytes %d (%v), routed total %d", c.name, hb, err, m.Total)
		}
		// The busiest channel really carries Max.
		if loads[m.MaxChannel] != m.Max {
			t.Errorf("%s: MaxChannel %d carries %d, not %d", c.name, m.MaxChannel, loads[m.MaxChannel], m.Max)
		}
	}
}

// BenchmarkPF3D routes pF3D 32×32×16 at 32 ranks a node on 4×4×4×4×2 in
// the default order: pattern, mapping, routing and measures.
func BenchmarkPF3D(b *testing.B) {
	tr := mustNew(b, []string{"a", "b", "c", "d", "e"}, []int{4, 4, 4, 4, 2})
	order := DefaultOrder(tr)
	b.ReportAllocs()
	for b.Loop() {
		pf3dLoads(b, tr, [3]int{32, 32, 16}, 32, order)
	}
}

// BenchmarkPF3DRouteOnly routes the already mapped node pairs.
func BenchmarkPF3DRouteOnly(b *testing.B) {
	tr := mustNew(b, []string{"a", "b", "c", "d", "e"}, []int{4, 4, 4, 4, 2})
	_, rows, _ := pf3dLoads(b, tr, [3]int{32, 32, 16}, 32, DefaultOrder(tr))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Loads(tr, rows, RouteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
