package layout

import (
	"context"
	"math"
	"slices"
	"testing"

	"superstep/algo/quality"
	"superstep/datasets"
	"superstep/sdk/graph"
)

func pathEdges(n, from int) [][2]int {
	var e [][2]int
	for v := from; v+1 < from+n; v++ {
		e = append(e, [2]int{v, v + 1})
	}
	return e
}

// Two sweeps find the diameter of paths, lattices and trees, in the
// largest component; long graphs get p = 2, short ones p = 1.
func TestAutoRepulsion(t *testing.T) {
	ba, _ := datasets.BarabasiAlbert(5000, 3, 1)
	er, _ := datasets.ErdosRenyi(5000, 15000, false, 1)
	rgg, _ := datasets.RandomGeometric(5000, math.Sqrt(10/(math.Pi*5000)), 1)
	// A path of 5 and, after it, one of 40: the longer is the largest
	// component (39 hops > 3·log₂ 40 ≈ 16).
	twoPaths := graph.FromEdges(45, false, append(pathEdges(5, 0), pathEdges(40, 5)...))
	for _, c := range []struct {
		name       string
		g          *graph.Graph
		hops, size int // −1: not checked
		p          float64
	}{
		{"path of 100", graph.FromEdges(100, false, pathEdges(100, 0)), 99, 100, 2},
		{"two paths", twoPaths, 39, 40, 2},
		{"30×30 lattice", mustLattice(t, 30, 30), 58, 900, 2},
		{"3×3 lattice", mustLattice(t, 3, 3), 4, 9, 1},
		{"star", graph.FromEdges(50, false, starEdges(49)), 2, 50, 1},
		{"isolated vertices", graph.FromEdges(3, false, nil), 0, 1, 1},
		{"Barabási–Albert", ba, -1, 5000, 1},
		{"Erdős–Rényi", er, -1, -1, 1},
		{"random geometric", rgg, -1, -1, 2},
	} {
		base, err := baseLevel(context.Background(), c.g)
		if err != nil {
			t.Fatal(err)
		}
		hops, size, err := sweepDepth(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := autoRepulsion(context.Background(), base)
		t.Logf("%s: %d hops in a component of %d, p = %v", c.name, hops, size, p)
		if (c.hops >= 0 && hops != c.hops) || (c.size >= 0 && size != c.size) || p != c.p {
			t.Errorf("%s: %d hops in a component of %d, p = %v; want %d, %d, %v", c.name, hops, size, p, c.hops, c.size, c.p)
		}
	}
}

// The automatic exponent is that of the graph: a layout with Repulsion 0
// equals one with the exponent chosen, except that the coarsest level of
// a long graph uses 1; it is deterministic for any number of workers, and
// on a random geometric graph beats p = 1 at both neighbourhood
// preservation and stress.
func TestAutoRepulsionLayouts(t *testing.T) {
	ba, _ := datasets.BarabasiAlbert(2000, 3, 2)
	if !slices.Equal(mustSFDP(t, ba, Options{Seed: 4}), mustSFDP(t, ba, Options{Seed: 4, Repulsion: 1})) {
		t.Error("Barabási–Albert: the automatic exponent is not 1")
	}
	g, _ := datasets.RandomGeometric(8000, math.Sqrt(10/(math.Pi*8000)), 3)
	auto := mustSFDP(t, g, Options{Seed: 4, Workers: 1})
	for _, w := range []int{2, 3} {
		if !slices.Equal(mustSFDP(t, g, Options{Seed: 4, Workers: w}), auto) {
			t.Errorf("random geometric: %d workers give a different layout than 1", w)
		}
	}
	hu := mustSFDP(t, g, Options{Seed: 4, Repulsion: 1})
	npAuto, npHu := quality.NeighbourhoodPreservation(g, auto, 0, 1), quality.NeighbourhoodPreservation(g, hu, 0, 1)
	sAuto, sHu := quality.Stress(g, auto, 50, 1), quality.Stress(g, hu, 50, 1)
	t.Logf("random geometric graph: neighbourhood preservation %.3f (p = 1: %.3f), stress %.4f (p = 1: %.4f)", npAuto, npHu, sAuto, sHu)
	if npAuto < npHu+0.03 || sAuto > sHu*0.8 {
		t.Errorf("random geometric graph: automatic exponent np %.3f, stress %.4f; p = 1 np %.3f, stress %.4f", npAuto, sAuto, npHu, sHu)
	}
}

func TestAutoRepulsionCancel(t *testing.T) {
	g := mustLattice(t, 300, 300)
	base, _ := baseLevel(context.Background(), g)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := sweepDepth(ctx, base); err == nil {
		t.Error("cancelled: no error")
	}
}
