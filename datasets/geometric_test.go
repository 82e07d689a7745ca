package datasets

import (
	"math"
	"slices"
	"testing"
)

// Every pair of points within the radius is an edge, and no other pair:
// checked against all pairs.
func TestRandomGeometricBruteForce(t *testing.T) {
	for _, c := range []struct {
		n      int
		radius float64
	}{{2000, 0.05}, {2000, 0.003}, {500, 0.3}, {300, 1.5}, {1, 0.5}, {0, 0.5}, {100, 0}} {
		g, err := RandomGeometric(c.n, c.radius, 7)
		if err != nil {
			t.Fatal(err)
		}
		pos := RandomGeometricPoints(c.n, 7)
		if g.NumVertices() != c.n {
			t.Fatalf("n %d: %d vertices", c.n, g.NumVertices())
		}
		want := 0
		for v := 0; v < c.n; v++ {
			var nb []int32
			for u := 0; u < c.n; u++ {
				dx, dy := pos[2*u]-pos[2*v], pos[2*u+1]-pos[2*v+1]
				if u != v && float64(dx*dx)+float64(dy*dy) <= float64(c.radius*c.radius) {
					nb = append(nb, int32(u))
				}
			}
			want += len(nb)
			if got := g.Neighbors(v); !slices.Equal(got, nb) {
				t.Fatalf("n %d, radius %v: vertex %d has neighbours %v, want %v", c.n, c.radius, v, got, nb)
			}
			if g.ID(v) != int64(v) {
				t.Fatalf("vertex %d has id %d", v, g.ID(v))
			}
		}
		if g.NumEdges() != want/2 || g.Directed() {
			t.Errorf("n %d, radius %v: %v, want %d undirected edges", c.n, c.radius, g, want/2)
		}
	}
}

// The mean degree follows (n−1)·(π·r² − 8r³/3 + r⁴/2), the chance that two
// uniform points of the unit square lie within r of each other.
func TestRandomGeometricMeanDegree(t *testing.T) {
	for _, c := range []struct {
		n      int
		degree float64
	}{{30000, 10}, {20000, 4}, {5000, 40}} {
		r := math.Sqrt(c.degree / (math.Pi * float64(c.n)))
		g, err := RandomGeometric(c.n, r, 1)
		if err != nil {
			t.Fatal(err)
		}
		mean := 2 * float64(g.NumEdges()) / float64(c.n)
		want := float64(c.n-1) * (math.Pi*r*r - 8*r*r*r/3 + r*r*r*r/2)
		t.Logf("n %d, radius %.5f: mean degree %.3f, expected %.3f (%.1f without the border)", c.n, r, mean, want, c.degree)
		if math.Abs(mean-want) > 0.02*want {
			t.Errorf("n %d, radius %.5f: mean degree %.3f, expected %.3f", c.n, r, mean, want)
		}
	}
}

func TestRandomGeometricReproducible(t *testing.T) {
	a := Must(RandomGeometric(3000, 0.03, 5))
	b := Must(RandomGeometric(3000, 0.03, 5))
	c := Must(RandomGeometric(3000, 0.03, 6))
	same, differ := true, false
	for v := 0; v < 3000; v++ {
		same = same && slices.Equal(a.Neighbors(v), b.Neighbors(v))
		differ = differ || !slices.Equal(a.Neighbors(v), c.Neighbors(v))
	}
	if !same || !differ {
		t.Errorf("same seed gives the same graph: %v; another seed another: %v", same, differ)
	}
	if p := RandomGeometricPoints(-1, 1); p != nil {
		t.Errorf("points for n = -1: %v", p)
	}
}

func TestRandomGeometricErrors(t *testing.T) {
	for _, c := range []struct {
		n      int
		radius float64
	}{{-1, 0.1}, {10, -0.1}, {10, math.NaN()}, {10, math.Inf(1)}, {1_000_000, 1}, {maxVertices + 1, 0.001}} {
		if _, err := RandomGeometric(c.n, c.radius, 1); err == nil {
			t.Errorf("n %d, radius %v: no error", c.n, c.radius)
		}
	}
}
