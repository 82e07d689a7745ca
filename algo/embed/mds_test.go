package embed_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"superstep/algo/embed"
)

// lineDist is the distance matrix of points at positions p on a line.
func lineDist(p ...float64) [][]float64 {
	d := make([][]float64, len(p))
	for i := range d {
		d[i] = make([]float64, len(p))
		for j := range p {
			d[i][j] = math.Abs(p[i] - p[j])
		}
	}
	return d
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func dist2(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		s += (a[k] - b[k]) * (a[k] - b[k])
	}
	return math.Sqrt(s)
}

// checkDistances asserts ‖x_i − x_j‖ = d_ij for every finite pair.
func checkDistances(t *testing.T, d, x [][]float64, tol float64) {
	t.Helper()
	for i := range d {
		for j := range d {
			if math.IsInf(d[i][j], 1) {
				continue
			}
			if got := dist2(x[i], x[j]); !near(got, d[i][j], tol) {
				t.Errorf("‖x%d − x%d‖ = %v, want %v", i, j, got, d[i][j])
			}
		}
	}
}

func TestClassicalMDSLine(t *testing.T) {
	// Points 0, 1, 3, 6: mean 2.5, so the centred line is −2.5, −1.5,
	// 0.5, 3.5, and the largest magnitude (3.5) is positive.
	d := lineDist(0, 1, 3, 6)
	for _, dim := range []int{1, 2} {
		x, err := embed.ClassicalMDS(d, dim)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{-2.5, -1.5, 0.5, 3.5} {
			if !near(x[i][0], want, 1e-9) {
				t.Errorf("dim %d: x[%d][0] = %v, want %v", dim, i, x[i][0], want)
			}
			if dim == 2 && !near(x[i][1], 0, 1e-6) {
				t.Errorf("dim 2: x[%d][1] = %v, want 0 (the line has one axis)", i, x[i][1])
			}
		}
		checkDistances(t, d, x, 1e-9)
		if s := embed.Stress(d, x); s > 1e-9 {
			t.Errorf("dim %d: stress %v, want 0", dim, s)
		}
	}
}

func TestClassicalMDSSquare(t *testing.T) {
	r := math.Sqrt2
	d := [][]float64{{0, 1, r, 1}, {1, 0, 1, r}, {r, 1, 0, 1}, {1, r, 1, 0}}
	x, err := embed.ClassicalMDS(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkDistances(t, d, x, 1e-9)
	if s := embed.Stress(d, x); s > 1e-9 {
		t.Errorf("stress %v, want 0", s)
	}
	// Centred: every corner is √2/2 from the origin.
	for i := range x {
		if got := dist2(x[i], []float64{0, 0}); !near(got, r/2, 1e-9) {
			t.Errorf("|x%d| = %v, want %v", i, got, r/2)
		}
	}
}

func TestClassicalMDSFourCycle(t *testing.T) {
	// Hop distances of the 4-cycle: 1 to the neighbours, 2 across.
	// B is the circulant (0.75, 0.25, −1.25, 0.25) with eigenvalues
	// 2, 2, 0, −1, so the 2-D embedding is the square (±1, 0), (0, ±1):
	// opposite nodes 2 apart (exact), neighbours √2 apart (not 1).
	d := [][]float64{{0, 1, 2, 1}, {1, 0, 1, 2}, {2, 1, 0, 1}, {1, 2, 1, 0}}
	x, err := embed.ClassicalMDS(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if got := dist2(x[i], []float64{0, 0}); !near(got, 1, 1e-9) {
			t.Errorf("|x%d| = %v, want 1", i, got)
		}
		if got := dist2(x[i], x[(i+1)%4]); !near(got, math.Sqrt2, 1e-9) {
			t.Errorf("neighbours %d,%d: %v apart, want √2", i, (i+1)%4, got)
		}
		if got := dist2(x[i], x[(i+2)%4]); !near(got, 2, 1e-9) {
			t.Errorf("opposite %d,%d: %v apart, want 2", i, (i+2)%4, got)
		}
	}
	// Stress: 4 neighbour pairs off by √2−1, total Σd² = 4·1 + 2·4 = 12.
	want := math.Sqrt(4 * (math.Sqrt2 - 1) * (math.Sqrt2 - 1) / 12)
	if s := embed.Stress(d, x); !near(s, want, 1e-9) {
		t.Errorf("stress %v, want %v", s, want)
	}
	// Scaled: Σdδ = 4√2 + 2·2·2, Σδ² = 4·2 + 2·4.
	sdd := 4*math.Sqrt2 + 8
	wantScaled := math.Sqrt(1 - sdd*sdd/(12*16))
	if s := embed.ScaledStress(d, x); !near(s, wantScaled, 1e-9) {
		t.Errorf("scaled stress %v, want %v", s, wantScaled)
	}
	// Deterministic run to run.
	y, _ := embed.ClassicalMDS(d, 2)
	if !reflect.DeepEqual(x, y) {
		t.Errorf("two runs differ: %v vs %v", x, y)
	}
	// dim 3 keeps a zero axis for the zero eigenvalue (the −1 is dropped).
	z, err := embed.ClassicalMDS(d, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range z {
		if !near(z[i][2], 0, 1e-6) {
			t.Errorf("dim 3: z[%d][2] = %v, want 0", i, z[i][2])
		}
	}
}

func TestClassicalMDSErrors(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		d    [][]float64
		dim  int
		want string
	}{
		{"empty", nil, 2, "empty"},
		{"not square", [][]float64{{0, 1}, {1, 0, 2}}, 1, "not square"},
		{"NaN", [][]float64{{0, math.NaN()}, {math.NaN(), 0}}, 1, "NaN"},
		{"Inf", [][]float64{{0, inf}, {inf, 0}}, 1, "+Inf"},
		{"negative", [][]float64{{0, -1}, {-1, 0}}, 1, "negative"},
		{"-Inf", [][]float64{{0, math.Inf(-1)}, {math.Inf(-1), 0}}, 1, "negative"},
		{"asymmetric", [][]float64{{0, 1}, {2, 0}}, 1, "symmetric"},
		{"diagonal", [][]float64{{1, 1}, {1, 0}}, 1, "diagonal"},
		{"dim 0", lineDist(0, 1), 0, "dimension 0"},
		{"dim > n", lineDist(0, 1), 3, "exceeds"},
	} {
		_, err := embed.ClassicalMDS(c.d, c.dim)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "embed: classical MDS: ") {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestDistanceMatrix(t *testing.T) {
	path := func(i, j int) int { return max(i-j, j-i) }
	inf := math.Inf(1)
	for _, c := range []struct {
		cutoff int
		want   [][]float64
	}{
		{0, [][]float64{{0, 1, 2, 3}, {1, 0, 1, 2}, {2, 1, 0, 1}, {3, 2, 1, 0}}},
		{-1, [][]float64{{0, 1, 2, 3}, {1, 0, 1, 2}, {2, 1, 0, 1}, {3, 2, 1, 0}}},
		{2, [][]float64{{0, 1, 2, inf}, {1, 0, 1, 2}, {2, 1, 0, 1}, {inf, 2, 1, 0}}},
		{1, [][]float64{{0, 1, inf, inf}, {1, 0, 1, inf}, {inf, 1, 0, 1}, {inf, inf, 1, 0}}},
	} {
		if got := embed.DistanceMatrix(4, path, c.cutoff); !reflect.DeepEqual(got, c.want) {
			t.Errorf("cutoff %d: %v, want %v", c.cutoff, got, c.want)
		}
	}
	calls := 0
	embed.DistanceMatrix(5, func(i, j int) int { calls++; return 1 }, 0)
	if calls != 10 {
		t.Errorf("dist called %d times for 5 points, want 10 (once per pair)", calls)
	}
	if got := embed.DistanceMatrix(0, path, 0); got != nil {
		t.Errorf("n = 0: %v, want nil", got)
	}
}

func TestStress(t *testing.T) {
	inf := math.Inf(1)
	// Three points on a line at 0, 1, 3 against d01 = 1, d12 = 1, d02 = Inf:
	// only the finite pairs count, (1−1)² + (1−2)² over 1² + 1².
	d := [][]float64{{0, 1, inf}, {1, 0, 1}, {inf, 1, 0}}
	x := [][]float64{{0}, {1}, {3}}
	if s := embed.Stress(d, x); !near(s, math.Sqrt(0.5), 1e-12) {
		t.Errorf("stress %v, want √½", s)
	}
	// Optimal scale α = Σdδ/Σδ² = 3/5: residual 1 − 9/(2·5) = 1/10.
	if s := embed.ScaledStress(d, x); !near(s, math.Sqrt(0.1), 1e-12) {
		t.Errorf("scaled stress %v, want √0.1", s)
	}
	// A doubled perfect embedding: each δ is 2 for d = 1, so the stress
	// is √((1+1)/2) = 1, but the scaled stress is 0.
	y := [][]float64{{0}, {2}, {4}}
	if s := embed.Stress(d, y); !near(s, 1, 1e-12) {
		t.Errorf("doubled: stress %v, want 1", s)
	}
	if s := embed.ScaledStress(d, y); !near(s, 0, 1e-7) {
		t.Errorf("doubled: scaled stress %v, want 0", s)
	}
	for name, s := range map[string]float64{
		"size mismatch": embed.Stress(d, x[:2]),
		"ragged":        embed.Stress(d, [][]float64{{0}, {1, 2}, {3}}),
		"all infinite":  embed.Stress([][]float64{{0, inf}, {inf, 0}}, [][]float64{{0}, {1}}),
		"all δ zero":    embed.ScaledStress(d, [][]float64{{0}, {0}, {0}}),
	} {
		if !math.IsNaN(s) {
			t.Errorf("%s: %v, want NaN", name, s)
		}
	}
}
