package layout

import (
	"context"
	"math"
	"slices"
	"testing"

	"superstep/algo/community"
	"superstep/algo/quality"
	"superstep/datasets"
)

// A smaller attraction exponent keeps planted communities apart where
// Hu's model mixes them into one disc (the share of a vertex's 10 nearest
// drawn neighbours in its community), and on a graph without communities
// it draws no clusters: the share of Louvain's communities of a random
// graph stays near chance.
func TestAttractionSeparatesCommunities(t *testing.T) {
	g, planted, err := datasets.Planted(datasets.PlantedOptions{N: 8000, AvgDegree: 15, MaxDegree: 150, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 300, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	er, err := datasets.ErdosRenyi(8000, 60000, false, 4)
	if err != nil {
		t.Fatal(err)
	}
	louvain, err := community.Louvain(context.Background(), er, community.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	chance := quality.ChanceGroupShare(louvain.Membership)
	// Measured: planted 0.102, 0.342, 0.928, 0.987 for a = 3, 2, 1.5, 1;
	// random 0.118, 0.117, 0.122, 0.142 against chance 0.116.
	share := map[float64]float64{}
	for _, a := range []float64{3, 2, 1.5, 1} {
		pos := mustSFDP(t, g, Options{Seed: 1, Attraction: a})
		share[a] = quality.GroupShare(pos, planted, 10, 0, 7)
		erPos := mustSFDP(t, er, Options{Seed: 1, Attraction: a})
		erShare := quality.GroupShare(erPos, louvain.Membership, 10, 0, 7)
		t.Logf("attraction %v: planted share %.3f (chance %.4f), hop-distance correlation %.3f, stress %.4f; random graph: share of Louvain's communities %.3f (chance %.3f)",
			a, share[a], quality.ChanceGroupShare(planted), quality.HopCorrelation(g, pos, 20, 7), quality.Stress(g, pos, 20, 7), erShare, chance)
		if erShare > chance+0.05 {
			t.Errorf("attraction %v: a random graph drawn with clusters (share %.3f, chance %.3f)", a, erShare, chance)
		}
	}
	if share[3] > 0.2 || share[1.5] < 0.8 || share[1] < share[1.5] {
		t.Errorf("planted shares %.3f, %.3f, %.3f for attraction 3, 1.5, 1: want ≤ 0.2, ≥ 0.8 and growing", share[3], share[1.5], share[1])
	}
}

// Every attraction is deterministic for a seed, whatever the number of
// workers; 1.5 (the pipeline's) gives the same bits on every machine.
func TestAttractionDeterminism(t *testing.T) {
	g, _, err := datasets.Planted(datasets.PlantedOptions{N: 2000, AvgDegree: 10, MaxDegree: 60, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 200, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []float64{1, 1.5, 2, 2.5} {
		ref := mustSFDP(t, g, Options{Seed: 3, Attraction: a, Workers: 1})
		for _, w := range []int{2, 5} {
			if pos := mustSFDP(t, g, Options{Seed: 3, Attraction: a, Workers: w}); !slices.Equal(pos, ref) {
				t.Errorf("attraction %v: %d workers give a different layout than 1", a, w)
			}
		}
	}
	pos := mustSFDP(t, mustLattice(t, 30, 30), Options{Seed: 7, Attraction: 1.5})
	const want uint64 = 0xf313f6f5adea1e2d
	if got := hashLayout(pos); got != want {
		t.Errorf("attraction 1.5: layout checksum %#x, want %#x", got, want)
	}
}

func TestHalfRoot(t *testing.T) {
	for _, k := range []float64{1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 7.5} {
		for _, x := range []float64{1e-300, 1e-9, 0.37, 1, 2, 1234.5, 3e17, 1e300} {
			got := halfRoot(x, k)
			if want := math.Pow(x, 1/k); math.Abs(got-want) > 1e-13*want {
				t.Errorf("halfRoot(%v, %v) = %v, want %v", x, k, got, want)
			}
		}
	}
}
