package layout

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// exactRepulsion is the O(n) reference for one point.
func exactRepulsion(pos []float64, i int, p float64) (fx, fy float64) {
	for j := 0; j < len(pos)/2; j++ {
		dx, dy := pos[2*i]-pos[2*j], pos[2*i+1]-pos[2*j+1]
		d2 := dx*dx + dy*dy
		if j == i || d2 == 0 {
			continue
		}
		s := 1 / d2
		if p != 1 {
			s = 1 / math.Pow(d2, (p+1)/2)
		}
		fx += dx * s
		fy += dy * s
	}
	return fx, fy
}

// clustered returns n points in a few Gaussian clusters of different
// spreads, plus some exact duplicates.
func clustered(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	pos := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		c := rng.IntN(5)
		spread := math.Pow(10, float64(c-2))
		pos[2*i] = float64(c)*3 + spread*rng.NormFloat64()
		pos[2*i+1] = float64(c%2)*5 + spread*rng.NormFloat64()
	}
	for i := 0; i < n/50; i++ {
		j := rng.IntN(n)
		pos[2*i], pos[2*i+1] = pos[2*j], pos[2*j+1]
	}
	return pos
}

// treeForces returns the tree's repulsion on every point, by vertex.
func treeForces(tr *quadtree, p float64) []float64 {
	f := make([]float64, 2*len(tr.order))
	var sc scratch
	for _, leaf := range tr.groups {
		lo, hi := tr.nodes[leaf].lo, tr.nodes[leaf].hi
		fx, fy := make([]float64, hi-lo), make([]float64, hi-lo)
		tr.groupRepulsion(leaf, p, &sc, fx, fy)
		for s := lo; s < hi; s++ {
			v := tr.order[s]
			f[2*v], f[2*v+1] = fx[s-lo], fy[s-lo]
		}
	}
	return f
}

func TestQuadtreeAccuracy(t *testing.T) {
	pos := clustered(2000, 1)
	for _, p := range []float64{1, 2, 1.8} {
		exact := make([]float64, len(pos))
		for v := 0; v < len(pos)/2; v++ {
			exact[2*v], exact[2*v+1] = exactRepulsion(pos, v, p)
		}
		for _, theta := range []float64{0.5, 1.2, 1.4} {
			tr := quadtree{theta: theta}
			mustBuild(t, &tr, pos)
			f := treeForces(&tr, p)
			var errSum, normSum float64
			for v := 0; v < len(pos)/2; v++ {
				fx, fy := f[2*v], f[2*v+1]
				ex, ey := exact[2*v], exact[2*v+1]
				errSum += (fx-ex)*(fx-ex) + (fy-ey)*(fy-ey)
				normSum += ex*ex + ey*ey
			}
			rel := math.Sqrt(errSum / normSum)
			t.Logf("p %v θ %v: relative RMS force error %.2g, %d nodes", p, theta, rel, len(tr.nodes))
			if limit := 0.05 * theta * theta; rel > limit {
				t.Errorf("p %v θ %v: relative RMS force error %.3g > %.3g", p, theta, rel, limit)
			}
		}
	}
}

// With θ → 0 nothing is approximated: the tree gives the exact sum.
func TestQuadtreeExactForSmallTheta(t *testing.T) {
	pos := clustered(500, 3)
	tr := quadtree{theta: 1e-9}
	mustBuild(t, &tr, pos)
	f := treeForces(&tr, 1)
	for v := 0; v < 500; v++ {
		fx, fy := f[2*v], f[2*v+1]
		ex, ey := exactRepulsion(pos, v, 1)
		if math.Abs(fx-ex) > 1e-9*math.Abs(ex)+1e-9 || math.Abs(fy-ey) > 1e-9*math.Abs(ey)+1e-9 {
			t.Fatalf("vertex %d: tree (%v, %v), exact (%v, %v)", v, fx, fy, ex, ey)
		}
	}
}

func TestQuadtreeStructure(t *testing.T) {
	pos := clustered(2000, 5)
	tr := quadtree{theta: 1}
	mustBuild(t, &tr, pos)
	seen := make([]bool, 2000)
	for _, v := range tr.order {
		if seen[v] {
			t.Fatalf("vertex %d sorted twice", v)
		}
		seen[v] = true
	}
	for s := 1; s < len(tr.codes); s++ {
		if tr.codes[s-1] > tr.codes[s] {
			t.Fatalf("codes not sorted at %d", s)
		}
	}
	// The root holds every point; each node's children tile its range.
	if r := tr.nodes[0]; r.lo != 0 || r.hi != 2000 || r.mass != 2000 || int(r.next) != len(tr.nodes) {
		t.Fatalf("root %+v", r)
	}
	for k := range tr.nodes {
		nd := tr.nodes[k]
		if nd.leaf {
			continue
		}
		at := nd.lo
		for c := int32(k + 1); c < nd.next; c = tr.nodes[c].next {
			if tr.nodes[c].lo != at {
				t.Fatalf("node %d: child %d starts at %d, want %d", k, c, tr.nodes[c].lo, at)
			}
			at = tr.nodes[c].hi
		}
		if at != nd.hi {
			t.Fatalf("node %d: children end at %d, want %d", k, at, nd.hi)
		}
	}
}

func TestCbrt(t *testing.T) {
	for _, x := range []float64{1, 8, 27, 0.001, 2, 3e-300, 5e300, 123456.789} {
		got, want := cbrt(x), math.Cbrt(x)
		if math.Abs(got-want) > 2e-16*want {
			t.Errorf("cbrt(%v) = %v, want %v", x, got, want)
		}
	}
}

func mustBuild(t testing.TB, tr *quadtree, pos []float64) {
	t.Helper()
	if err := tr.build(context.Background(), pos, nil); err != nil {
		t.Fatal(err)
	}
}
