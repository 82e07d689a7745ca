package embed_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"superstep/algo/embed"
)

// gridDist is the Euclidean distance matrix of the 3×3×3 grid.
func gridDist() [][]float64 {
	var p [][]float64
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			for c := 0; c < 3; c++ {
				p = append(p, []float64{float64(a), float64(b), float64(c)})
			}
		}
	}
	d := make([][]float64, len(p))
	for i := range d {
		d[i] = make([]float64, len(p))
		for j := range p {
			d[i][j] = dist2(p[i], p[j])
		}
	}
	return d
}

func TestSMACOFMonotoneAndSeeded(t *testing.T) {
	d := gridDist() // a 3-D grid cannot lie flat: the stress stays > 0
	r, err := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.History) != r.Iterations+1 || r.Iterations == 0 {
		t.Fatalf("history of %d for %d iterations", len(r.History), r.Iterations)
	}
	for k := 1; k < len(r.History); k++ {
		if r.History[k] > r.History[k-1]*(1+1e-12) {
			t.Errorf("stress rose at iteration %d: %v → %v", k, r.History[k-1], r.History[k])
		}
	}
	if r.History[len(r.History)-1] >= r.History[0] || r.Stress != r.History[len(r.History)-1] {
		t.Errorf("stress %v from a start of %v (history ends %v)", r.Stress, r.History[0], r.History[len(r.History)-1])
	}
	if got := embed.Stress(d, r.X); !near(got, r.Stress, 1e-12) {
		t.Errorf("Result.Stress %v, Stress(d, X) %v", r.Stress, got)
	}
	if !r.Converged || r.Stress <= 0 || r.Stress >= 0.5 {
		t.Errorf("converged %v, stress %v: want convergence to 0 < stress < 0.5", r.Converged, r.Stress)
	}
	again, _ := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 1})
	if !reflect.DeepEqual(r, again) {
		t.Error("seed 1 twice: results differ")
	}
	other, _ := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 2})
	if reflect.DeepEqual(r.X, other.X) {
		t.Error("seeds 1 and 2: identical coordinates")
	}
	// MaxIter bounds the iterations.
	short, _ := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 1, MaxIter: 3, Tol: 1e-15})
	if short.Iterations != 3 || short.Converged || len(short.History) != 4 {
		t.Errorf("MaxIter 3: %d iterations, converged %v", short.Iterations, short.Converged)
	}
	if !reflect.DeepEqual(short.History, r.History[:4]) {
		t.Errorf("MaxIter 3 history %v, want the first 4 of %v", short.History, r.History[:4])
	}
}

func TestSMACOFInitExact(t *testing.T) {
	// Starting from the exact, centred embedding of a line, the Guttman
	// transform is the identity: stress 0 after one iteration.
	d := lineDist(0, 1, 3, 6)
	init := [][]float64{{-2.5}, {-1.5}, {0.5}, {3.5}}
	r, err := embed.SMACOF(d, 1, embed.SMACOFOptions{Init: init, Seed: 99})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Converged || r.Iterations != 1 || r.Stress > 1e-12 {
		t.Errorf("converged %v after %d, stress %v: want converged after 1 at 0", r.Converged, r.Iterations, r.Stress)
	}
	for i := range init {
		if !near(r.X[i][0], init[i][0], 1e-12) {
			t.Errorf("x[%d] = %v, want %v", i, r.X[i][0], init[i][0])
		}
	}
	init[0][0] = 42 // the result does not alias Init
	if r.X[0][0] == 42 {
		t.Error("result aliases Init")
	}
}

func TestSMACOFPathWithInfinitePairs(t *testing.T) {
	path := func(i, j int) int { return max(i-j, j-i) }
	// Neighbours only: every consecutive pair 1 apart is a zero-stress
	// embedding (the other pairs are free).
	d := embed.DistanceMatrix(6, path, 1)
	r, err := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 1, MaxIter: 5000, Tol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stress > 1e-5 {
		t.Errorf("neighbours-only path: stress %v, want ≈ 0", r.Stress)
	}
	checkDistances(t, d, r.X, 1e-4)
	// Cutoff 2: 1 between neighbours, 2 two apart, so in a zero-stress
	// embedding every three consecutive points are collinear and the
	// path is straight (ends 5 apart). SMACOF creeps towards it slowly
	// (the bend is a soft mode): stress 1.4e-3 after 5000 iterations,
	// 1.5e-4 after 50000, so the test asks for "nearly straight".
	d2 := embed.DistanceMatrix(6, path, 2)
	r2, err := embed.SMACOF(d2, 2, embed.SMACOFOptions{Seed: 1, MaxIter: 2000, Tol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Stress > 0.01 {
		t.Errorf("2-hop path: stress %v, want < 0.01", r2.Stress)
	}
	checkDistances(t, d2, r2.X, 0.05)
	if got := dist2(r2.X[0], r2.X[5]); got < 4.5 || got > 5.1 {
		t.Errorf("2-hop path: ends %v apart, want nearly 5 (straight)", got)
	}
}

func TestSMACOFDisconnected(t *testing.T) {
	// Two unlinked pairs: each pair ends 1 apart and centred on the
	// origin, so the two pairs overlap.
	inf := math.Inf(1)
	d := [][]float64{{0, 1, inf, inf}, {1, 0, inf, inf}, {inf, inf, 0, 1}, {inf, inf, 1, 0}}
	r, err := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkDistances(t, d, r.X, 1e-9)
	for _, p := range [][2]int{{0, 1}, {2, 3}} {
		for k := 0; k < 2; k++ {
			if c := r.X[p[0]][k] + r.X[p[1]][k]; !near(c, 0, 1e-9) {
				t.Errorf("pair %v not centred: coordinate %d sums to %v", p, k, c)
			}
		}
	}
}

func TestSMACOFErrors(t *testing.T) {
	inf := math.Inf(1)
	d := lineDist(0, 1, 3)
	for _, c := range []struct {
		name string
		d    [][]float64
		dim  int
		opts embed.SMACOFOptions
		want string
	}{
		{"empty", nil, 2, embed.SMACOFOptions{}, "empty"},
		{"not square", [][]float64{{0, 1}}, 1, embed.SMACOFOptions{}, "not square"},
		{"NaN", [][]float64{{0, math.NaN()}, {math.NaN(), 0}}, 1, embed.SMACOFOptions{}, "NaN"},
		{"-Inf", [][]float64{{0, math.Inf(-1)}, {math.Inf(-1), 0}}, 1, embed.SMACOFOptions{}, "negative"},
		{"negative", [][]float64{{0, -2}, {-2, 0}}, 1, embed.SMACOFOptions{}, "negative"},
		{"Inf one way", [][]float64{{0, inf}, {1, 0}}, 1, embed.SMACOFOptions{}, "symmetric"},
		{"all infinite", [][]float64{{0, inf}, {inf, 0}}, 1, embed.SMACOFOptions{}, "no positive finite"},
		{"all zero", [][]float64{{0, 0}, {0, 0}}, 1, embed.SMACOFOptions{}, "no positive finite"},
		{"dim 0", d, 0, embed.SMACOFOptions{}, "dimension 0"},
		{"dim > n", d, 4, embed.SMACOFOptions{}, "exceeds"},
		{"MaxIter", d, 1, embed.SMACOFOptions{MaxIter: -1}, "MaxIter"},
		{"Tol", d, 1, embed.SMACOFOptions{Tol: -1}, "Tol"},
		{"Tol NaN", d, 1, embed.SMACOFOptions{Tol: math.NaN()}, "Tol"},
		{"Init rows", d, 1, embed.SMACOFOptions{Init: [][]float64{{0}}}, "Init has 1 rows"},
		{"Init cols", d, 1, embed.SMACOFOptions{Init: [][]float64{{0}, {1, 2}, {3}}}, "Init row 1"},
		{"Init NaN", d, 1, embed.SMACOFOptions{Init: [][]float64{{0}, {math.NaN()}, {3}}}, "not finite"},
	} {
		_, err := embed.SMACOF(c.d, c.dim, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "embed: SMACOF: ") {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
