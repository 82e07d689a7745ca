package embed_test

import (
	"math"
	"reflect"
	"testing"
	"time"

	"superstep/algo/embed"
	"superstep/topology/torus"
)

// paperTorus is paper 004's running example, 1×4×4×4×2 = 128 nodes.
func paperTorus(tb testing.TB, extents ...int) *torus.Torus {
	tb.Helper()
	if len(extents) == 0 {
		extents = []int{1, 4, 4, 4, 2}
	}
	tr, err := torus.New([]string{"a", "b", "c", "d", "e"}, extents)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// smacofOpts are the SMACOF options of the baselines: seed 1, and enough
// iterations for the 128-node runs to converge (629 for 3-hop, 2429 for
// neighbours-only, at the default tolerance 1e-6).
func smacofOpts() embed.SMACOFOptions { return embed.SMACOFOptions{Seed: 1, MaxIter: 3000} }

// baselines runs paper 004's four baselines on tr: classical MDS of the
// full hop matrix, SMACOF (seed 1) of the 3-hop and neighbours-only
// matrices, and RadViz of the raw coordinates.
type baselines struct {
	full, hop3, nbr [][]float64
	mdsFull         [][]float64
	mds3, mdsNbr    embed.Result
	radviz          [][]float64
}

func runBaselines(tb testing.TB, tr *torus.Torus) baselines {
	tb.Helper()
	n := tr.Nodes()
	var b baselines
	b.full = embed.DistanceMatrix(n, tr.Dist, 0)
	b.hop3 = embed.DistanceMatrix(n, tr.Dist, 3)
	b.nbr = embed.DistanceMatrix(n, tr.Dist, 1)
	var err error
	if b.mdsFull, err = embed.ClassicalMDS(b.full, 2); err != nil {
		tb.Fatal(err)
	}
	if b.mds3, err = embed.SMACOF(b.hop3, 2, smacofOpts()); err != nil {
		tb.Fatal(err)
	}
	if b.mdsNbr, err = embed.SMACOF(b.nbr, 2, smacofOpts()); err != nil {
		tb.Fatal(err)
	}
	if b.radviz, err = embed.RadViz(coords(tr), embed.RadVizOptions{}); err != nil {
		tb.Fatal(err)
	}
	return b
}

func coords(tr *torus.Torus) [][]float64 {
	x := make([][]float64, tr.Nodes())
	for v := range x {
		for _, c := range tr.Coord(v) {
			x[v] = append(x[v], float64(c))
		}
	}
	return x
}

func finiteInRow(row []float64) int {
	k := 0
	for _, v := range row {
		if !math.IsInf(v, 1) {
			k++
		}
	}
	return k
}

func TestPaperTorus(t *testing.T) {
	tr := paperTorus(t)
	start := time.Now()
	b := runBaselines(t, tr)
	elapsed := time.Since(start)

	// Matrices. A node of C4×C4×C4×K2 has (1+z)²·³·(1+z) = (1+z)⁷ nodes at
	// each distance: C(7,k) at k hops. So 1+7 = 8 finite entries per
	// neighbours-only row (the paper's "8 elements of each 128-element
	// row"), 1+7+21+35 = 64 per 3-hop row, and diameter 2+2+2+1 = 7.
	for v := 0; v < tr.Nodes(); v++ {
		if k := finiteInRow(b.nbr[v]); k != 8 || len(tr.Neighbours(v))+1 != 8 {
			t.Fatalf("node %d: %d finite neighbours-only entries, want 8", v, k)
		}
		if k := finiteInRow(b.hop3[v]); k != 64 {
			t.Fatalf("node %d: %d finite 3-hop entries, want 64", v, k)
		}
		for _, w := range tr.Neighbours(v) {
			if b.nbr[v][w] != 1 {
				t.Fatalf("neighbours %d, %d: d = %v, want 1", v, w, b.nbr[v][w])
			}
		}
	}
	count := make([]int, 8)
	for _, d := range b.full[0] {
		count[int(d)]++
	}
	if !reflect.DeepEqual(count, []int{1, 7, 21, 35, 35, 21, 7, 1}) {
		t.Errorf("distances from node 0: %v, want C(7,k)", count)
	}

	// Determinism: a second run is identical, bit for bit.
	if again := runBaselines(t, tr); !reflect.DeepEqual(b, again) {
		t.Error("two runs of the baselines differ")
	}

	// Stress. Numbers are reported (see the log); the assertions are
	// only the ones the construction guarantees.
	sFull, sFullScaled := embed.Stress(b.full, b.mdsFull), embed.ScaledStress(b.full, b.mdsFull)
	if !(sFullScaled <= sFull && sFull > 0 && sFull < 1) {
		t.Errorf("mds-full: stress %v, scaled %v", sFull, sFullScaled)
	}
	for name, r := range map[string]embed.Result{"mds-3hop": b.mds3, "mds-neighbours": b.mdsNbr} {
		if r.History[len(r.History)-1] > r.History[0] {
			t.Errorf("%s: stress rose from %v to %v", name, r.History[0], r.Stress)
		}
	}
	// RadViz on raw coordinates: the origin (all zeros) at the centre;
	// (0,1,0,0,0) on anchor 1, (0,0,0,0,1) on anchor 4 of 5.
	a := embed.Anchors(5)
	for v, want := range map[int][]float64{0: {0, 0}, 1: a[1], 64: a[4]} {
		if !near(b.radviz[v][0], want[0], 1e-12) || !near(b.radviz[v][1], want[1], 1e-12) {
			t.Errorf("RadViz node %d %v at %v, want %v", v, tr.Coord(v), b.radviz[v], want)
		}
	}
	// With normalisation and constant columns at 1, the origin lands on
	// the Dim0 anchor, as in the paper's Fig. 3.
	p, err := embed.RadViz(coords(tr), embed.RadVizOptions{Normalise: true, ConstantValue: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(p[0][0], a[0][0], 1e-12) || !near(p[0][1], a[0][1], 1e-12) {
		t.Errorf("normalised RadViz: origin at %v, want anchor 0 %v", p[0], a[0])
	}
	t.Logf("128 nodes, all four baselines in %v", elapsed)
	t.Logf("mds-full (classical): stress %.4f, scaled stress %.4f", sFull, sFullScaled)
	t.Logf("mds-3hop (SMACOF seed 1): stress %.4f after %d iterations (converged %v), scaled %.4f",
		b.mds3.Stress, b.mds3.Iterations, b.mds3.Converged, embed.ScaledStress(b.hop3, b.mds3.X))
	t.Logf("mds-neighbours (SMACOF seed 1): stress %.2e after %d iterations (converged %v), distinct points %d",
		b.mdsNbr.Stress, b.mdsNbr.Iterations, b.mdsNbr.Converged, distinct(b.mdsNbr.X, 1e-3))
	t.Logf("mds-3hop distinct points %d, mds-full distinct points %d, radviz distinct points %d",
		distinct(b.mds3.X, 1e-3), distinct(b.mdsFull, 1e-3), distinct(b.radviz, 1e-9))
}

// distinct counts points more than tol apart from all earlier ones.
func distinct(x [][]float64, tol float64) int {
	k := 0
	for i := range x {
		dup := false
		for j := 0; j < i && !dup; j++ {
			dup = dist2(x[i], x[j]) <= tol
		}
		if !dup {
			k++
		}
	}
	return k
}

func BenchmarkTorusBaselines(b *testing.B) {
	for _, tc := range []struct {
		name    string
		extents []int
	}{
		{"128", []int{1, 4, 4, 4, 2}},
		{"512", []int{4, 4, 4, 4, 2}},
	} {
		tr := paperTorus(b, tc.extents...)
		n := tr.Nodes()
		full := embed.DistanceMatrix(n, tr.Dist, 0)
		hop3 := embed.DistanceMatrix(n, tr.Dist, 3)
		nbr := embed.DistanceMatrix(n, tr.Dist, 1)
		x := coords(tr)
		b.Run(tc.name+"/matrices", func(b *testing.B) {
			for b.Loop() {
				embed.DistanceMatrix(n, tr.Dist, 0)
				embed.DistanceMatrix(n, tr.Dist, 3)
				embed.DistanceMatrix(n, tr.Dist, 1)
			}
		})
		b.Run(tc.name+"/mds-full", func(b *testing.B) {
			var s float64
			for b.Loop() {
				y, err := embed.ClassicalMDS(full, 2)
				if err != nil {
					b.Fatal(err)
				}
				s = embed.Stress(full, y)
			}
			b.ReportMetric(s, "stress")
		})
		for _, m := range []struct {
			name string
			d    [][]float64
		}{{"mds-3hop", hop3}, {"mds-neighbours", nbr}} {
			b.Run(tc.name+"/"+m.name, func(b *testing.B) {
				var r embed.Result
				for b.Loop() {
					var err error
					if r, err = embed.SMACOF(m.d, 2, smacofOpts()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(r.Stress, "stress")
				b.ReportMetric(float64(r.Iterations), "iters")
			})
		}
		b.Run(tc.name+"/radviz", func(b *testing.B) {
			for b.Loop() {
				if _, err := embed.RadViz(x, embed.RadVizOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
