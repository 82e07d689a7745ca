package quality

import (
	"math"
	"testing"
)

func TestGroupShare(t *testing.T) {
	line := func(n int) []float64 { // x = 0, 1, …, n-1
		pos := make([]float64, 2*n)
		for v := 0; v < n; v++ {
			pos[2*v] = float64(v)
		}
		return pos
	}
	for _, c := range []struct {
		name   string
		pos    []float64
		groups []int32
		k      int
		want   float64
	}{
		{"two blobs far apart", []float64{0, 0, 1, 0, 0, 1, 100, 0, 101, 0, 100, 1}, []int32{0, 0, 0, 1, 1, 1}, 2, 1},
		{"alternating on a line", line(6), []int32{0, 1, 0, 1, 0, 1}, 2, 1.0 / 6},
		{"halves of a line", line(6), []int32{0, 0, 0, 1, 1, 1}, 2, (1 + 1 + 0.5 + 0.5 + 1 + 1) / 6},
		// Vertex 2 has no group: never sampled, never shares one. Vertex 0's
		// nearest are 1 (same) and 2; vertex 1's 0 and 2; vertex 3's 2, 1.
		{"a vertex without a group", line(4), []int32{5, 5, -1, 7}, 2, (0.5 + 0.5 + 0) / 3},
		// k beyond n−1 counts every other vertex.
		{"k larger than the graph", line(4), []int32{0, 0, 0, 1}, 10, (2.0/3*3 + 0) / 4},
		{"one group", line(5), []int32{3, 3, 3, 3, 3}, 3, 1},
		{"k below 1", line(4), []int32{0, 0, 1, 1}, 0, math.NaN()},
		{"no vertex with a group", line(3), []int32{-1, -1, -1}, 1, math.NaN()},
		{"a single vertex", []float64{0, 0}, []int32{0}, 1, math.NaN()},
	} {
		got := GroupShare(c.pos, c.groups, c.k, 0, 1)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(got) && !near(got, c.want, 1e-12)) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A random layout scores about the chance share; a sample estimates the
// full mean for a seed, the same on every call.
func TestGroupShareRandomLayout(t *testing.T) {
	const n = 4000
	pos := randomLayout(n, 5)
	groups := make([]int32, n)
	for v := range groups {
		groups[v] = int32(v % 4)
	}
	chance := ChanceGroupShare(groups)
	if want := 4 * 1000 * 999.0 / (n * (n - 1)); !near(chance, want, 1e-12) {
		t.Errorf("chance %v, want %v", chance, want)
	}
	all := GroupShare(pos, groups, 10, 0, 1)
	if !near(all, chance, 0.02) {
		t.Errorf("random layout: share %.4f, chance %.4f", all, chance)
	}
	a, b := GroupShare(pos, groups, 10, 500, 9), GroupShare(pos, groups, 10, 500, 9)
	if a != b {
		t.Errorf("same seed, different samples: %v and %v", a, b)
	}
	if !near(a, all, 0.05) {
		t.Errorf("a sample of 500 gives %.4f, all vertices %.4f", a, all)
	}
}

func TestChanceGroupShare(t *testing.T) {
	// Sizes 2 and 1 among 3 grouped vertices of 4: 2·1/(3·3).
	if got := ChanceGroupShare([]int32{0, 0, 1, -1}); !near(got, 2.0/9, 1e-15) {
		t.Errorf("%v, want 2/9", got)
	}
	if got := ChanceGroupShare([]int32{-1, -1}); !math.IsNaN(got) {
		t.Errorf("no groups: %v, want NaN", got)
	}
}

func TestGroupShareLengthPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a layout of the wrong length")
		}
	}()
	GroupShare([]float64{0, 0, 1}, []int32{0, 0}, 1, 0, 0)
}
