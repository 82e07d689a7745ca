package datasets

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"reflect"
	"runtime"
	"testing"

	"superstep/sdk/graph"
)

func TestLattice(t *testing.T) {
	g, err := Lattice(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	// 3 rows of 3 horizontal edges, 2 gaps of 4 vertical ones.
	checkSize(t, g, false, false, 12, 3*3+2*4)
	// Corners have degree 2, other border vertices 3, inner ones 4.
	want := []int{
		2, 3, 3, 2,
		3, 4, 4, 3,
		2, 3, 3, 2,
	}
	for v, d := range want {
		if g.Degree(v) != d || g.ID(v) != int64(v) {
			t.Errorf("vertex %d: id %d, degree %d, want %d", v, g.ID(v), g.Degree(v), d)
		}
	}
	// Vertex 5 = row 1, column 1.
	if got := g.Neighbors(5); !reflect.DeepEqual(got, []int32{1, 4, 6, 9}) {
		t.Errorf("Neighbors(5) = %v", got)
	}
	checkSimple(t, g)

	for _, c := range []struct{ r, c, n, m int }{{1, 1, 1, 0}, {1, 5, 5, 4}, {5, 1, 5, 4}, {2, 2, 4, 4}, {100, 100, 10000, 19800}} {
		g, err := Lattice(c.r, c.c)
		if err != nil {
			t.Fatal(err)
		}
		checkSize(t, g, false, false, c.n, c.m)
	}
	for _, c := range [][2]int{{0, 3}, {3, 0}, {-1, 5}, {1 << 16, 1 << 16}} {
		if g, err := Lattice(c[0], c[1]); err == nil {
			t.Errorf("Lattice(%d, %d) = %v, want an error", c[0], c[1], g)
		}
	}
}

// fingerprint hashes the direction, ids and adjacency of g.
func fingerprint(g *graph.Graph) uint64 {
	h := fnv.New64a()
	var buf []byte
	if g.Directed() {
		buf = append(buf, 1)
	}
	for v := 0; v < g.NumVertices(); v++ {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(g.ID(v)))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(g.Degree(v)))
		for _, u := range g.Neighbors(v) {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(u))
		}
	}
	h.Write(buf)
	return h.Sum64()
}

func TestErdosRenyi(t *testing.T) {
	for _, c := range []struct {
		n, m     int
		directed bool
	}{
		{0, 0, false}, {1, 0, true}, {2, 1, false}, {2, 2, true},
		{10, 0, false}, {10, 5, false}, {10, 22, false}, {10, 23, false}, {10, 44, false}, {10, 45, false},
		{10, 45, true}, {10, 46, true}, {10, 89, true}, {10, 90, true},
		{1000, 5000, false}, {1000, 5000, true}, {200, 19000, false},
	} {
		g, err := ErdosRenyi(c.n, c.m, c.directed, 7)
		if err != nil {
			t.Fatalf("ErdosRenyi(%d, %d, %v): %v", c.n, c.m, c.directed, err)
		}
		checkSize(t, g, c.directed, false, c.n, c.m)
		if c.n > 0 {
			checkSimple(t, g)
		}
		for v := 0; v < c.n; v++ {
			if g.ID(v) != int64(v) {
				t.Fatalf("ID(%d) = %d", v, g.ID(v))
			}
		}
	}
	for _, c := range []struct {
		n, m     int
		directed bool
	}{{-1, 0, false}, {10, -1, false}, {10, 46, false}, {10, 91, true}, {1, 1, true}, {0, 1, false}, {1 << 31, 0, false}, {1 << 20, 1 << 32, false}, {1 << 20, 1<<40 - 1<<20 - 5, true}} {
		if g, err := ErdosRenyi(c.n, c.m, c.directed, 1); err == nil {
			t.Errorf("ErdosRenyi(%d, %d, %v) = %v, want an error", c.n, c.m, c.directed, g)
		}
	}
}

// TestErdosRenyiUniform draws G(4, 2) often: each of the 15 pairs of the
// 6 possible edges should come up about equally often.
func TestErdosRenyiUniform(t *testing.T) {
	const draws = 30000
	for _, dense := range []bool{false, true} {
		m := 2
		if dense {
			m = 4 // more than half the pairs: drawn as a complement
		}
		counts := map[uint64]int{}
		for seed := uint64(0); seed < draws; seed++ {
			g := Must(ErdosRenyi(4, m, false, seed))
			counts[fingerprint(g)]++
		}
		if len(counts) != 15 {
			t.Fatalf("m=%d: %d distinct graphs, want 15", m, len(counts))
		}
		chi2 := 0.0
		for _, c := range counts {
			d := float64(c) - draws/15.0
			chi2 += d * d / (draws / 15.0)
		}
		// 14 degrees of freedom: P(chi² > 36.1) = 0.001.
		if chi2 > 36.1 {
			t.Errorf("m=%d: chi² = %.1f, counts %v", m, chi2, counts)
		}
	}
}

// TestGeneratorsReproducible pins the graphs of a few seeds: a change of
// these numbers means old notebooks no longer re-run bit for bit.
func TestGeneratorsReproducible(t *testing.T) {
	cases := []struct {
		name string
		g    func(seed uint64) *graph.Graph
		want uint64
	}{
		{"ER undirected", func(s uint64) *graph.Graph { return Must(ErdosRenyi(100, 300, false, s)) }, 0xd76720664ed65991},
		{"ER directed", func(s uint64) *graph.Graph { return Must(ErdosRenyi(100, 300, true, s)) }, 0xa0c78764ef5ac5a6},
		{"ER dense", func(s uint64) *graph.Graph { return Must(ErdosRenyi(30, 400, false, s)) }, 0x48a17546c6241cdf},
		{"BA", func(s uint64) *graph.Graph { return Must(BarabasiAlbert(200, 3, s)) }, 0x36339c415aa801f7},
	}
	for _, c := range cases {
		a, b, other := fingerprint(c.g(42)), fingerprint(c.g(42)), fingerprint(c.g(43))
		if a != b {
			t.Errorf("%s: the same seed gave two graphs", c.name)
		}
		if a == other {
			t.Errorf("%s: seeds 42 and 43 gave the same graph", c.name)
		}
		if a != c.want {
			t.Errorf("%s: fingerprint %#x, want %#x", c.name, a, c.want)
		}
	}
}

func TestBarabasiAlbert(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {5, 4}, {10, 1}, {100, 3}, {1000, 5}, {50, 49}} {
		n, m := c[0], c[1]
		g, err := BarabasiAlbert(n, m, 9)
		if err != nil {
			t.Fatal(err)
		}
		checkSize(t, g, false, false, n, m*(n-m))
		checkSimple(t, g)
		for v := 0; v < n; v++ {
			min := m
			if v < m {
				min = 1
			}
			if g.Degree(v) < min {
				t.Fatalf("n=%d m=%d: vertex %d has degree %d", n, m, v, g.Degree(v))
			}
		}
		// Vertex m joins all of 0..m-1.
		for u := 0; u < m; u++ {
			found := false
			for _, w := range g.Neighbors(m) {
				found = found || int(w) == u
			}
			if !found {
				t.Fatalf("vertex %d does not join %d", m, u)
			}
		}
	}
	// Preferential attachment: the oldest vertices end up with the
	// highest degrees.
	g := Must(BarabasiAlbert(20000, 2, 1))
	maxDeg, maxV := 0, 0
	for v := 0; v < g.NumVertices(); v++ {
		if g.Degree(v) > maxDeg {
			maxDeg, maxV = g.Degree(v), v
		}
	}
	if maxDeg < 50 || maxV > 100 {
		t.Errorf("largest degree %d at vertex %d", maxDeg, maxV)
	}
	for _, c := range [][2]int{{1, 1}, {5, 5}, {5, 0}, {5, -1}, {-3, 1}, {1 << 31, 1}, {1 << 20, 1 << 12}} {
		if g, err := BarabasiAlbert(c[0], c[1], 1); err == nil {
			t.Errorf("BarabasiAlbert(%d, %d) = %v, want an error", c[0], c[1], g)
		}
	}
}

func TestMust(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Must did not panic on an error")
		}
	}()
	Must(Lattice(0, 0))
}

// BenchmarkErdosRenyi1M10M builds G(n = 10⁶, m = 10⁷) and reports the
// heap the graph keeps and the peak the runtime asked the OS for.
func BenchmarkErdosRenyi1M10M(b *testing.B) {
	for _, directed := range []bool{false, true} {
		b.Run(fmt.Sprintf("directed=%v", directed), func(b *testing.B) {
			var g *graph.Graph
			for b.Loop() {
				g = Must(ErdosRenyi(1_000_000, 10_000_000, directed, 1))
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MB-kept")
			b.ReportMetric(float64(ms.Sys)/(1<<20), "MB-sys")
			runtime.KeepAlive(g)
		})
	}
}
