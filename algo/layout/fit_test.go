package layout

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"superstep/algo/quality"
	"superstep/datasets"
)

// A group's drawing moved, turned or mirrored and scaled is fitted back
// exactly; vertices without a group or without a position sit at their
// target.
func TestFitGroupsRecoversSimilarity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 60
	init := make([]float64, 2*n)
	target := make([]float64, 2*n)
	groups := make([]int32, n)
	given := make([]bool, n)
	for v := 0; v < n; v++ {
		x, y := rng.Float64()*10, rng.Float64()*10
		init[2*v], init[2*v+1] = x, y
		groups[v] = int32(v % 3) // 0: rotated, 1: mirrored, 2: no group
		given[v] = true
		switch groups[v] {
		case 0: // rotate by 30°, scale by 2.5, move
			c, s := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
			target[2*v], target[2*v+1] = 2.5*(c*x-s*y)+7, 2.5*(s*x+c*y)-3
		case 1: // mirror in the x axis, scale by 0.4, move
			target[2*v], target[2*v+1] = 0.4*x-1, -0.4*y+5
		case 2:
			groups[v], given[v] = -1, false
			target[2*v], target[2*v+1] = float64(v), -float64(v)
		}
	}
	given[0] = false // a grouped vertex without a position
	target[0], target[1] = 42, 43
	pos := fitGroups(init, groups, given, target)
	for v := 0; v < n; v++ {
		if math.Abs(pos[2*v]-target[2*v]) > 1e-9 || math.Abs(pos[2*v+1]-target[2*v+1]) > 1e-9 {
			t.Fatalf("vertex %d (group %d) at (%v, %v), want (%v, %v)", v, groups[v], pos[2*v], pos[2*v+1], target[2*v], target[2*v+1])
		}
	}
}

// With Groups the coarsening merges only within a group until that stalls,
// then freely down to the coarsest size.
func TestGroupCoarseningKeepsGroupsPure(t *testing.T) {
	g, comm, err := datasets.Planted(datasets.PlantedOptions{N: 3000, AvgDegree: 10, MaxDegree: 60, Mixing: 0.3, MinCommunity: 20, MaxCommunity: 200, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	base := mustBase(t, g)
	base.k = 1
	base.group = denseGroups(comm)
	levels, err := testEngine(2).hierarchy(base, Matching, rand.New(rand.NewPCG(1, 1)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if top := levels[len(levels)-1]; top.n > coarsestSize {
		t.Fatalf("coarsening stopped at %d vertices", top.n)
	}
	// Follow each input vertex up; while a level was restricted, its
	// coarse vertices hold one community only.
	anc := make([]int32, g.NumVertices())
	for v := range anc {
		anc[v] = int32(v)
	}
	restricted := 0
	for i := 0; i+1 < len(levels) && levels[i].group != nil; i++ {
		restricted++
		for v := range anc {
			anc[v] = levels[i].parent[anc[v]]
		}
		owner := make(map[int32]int32)
		for v, a := range anc {
			if c, ok := owner[a]; ok && c != comm[v] {
				t.Fatalf("level %d: coarse vertex %d holds communities %d and %d", i+1, a, c, comm[v])
			}
			owner[a] = comm[v]
		}
	}
	if restricted < 3 {
		t.Fatalf("only %d levels followed the communities", restricted)
	}
}

// The pipeline's use: each quadrant of a lattice drawn on its own, in a
// frame of its own (turned, mirrored, scaled, moved), is fitted back
// together into a grid.
func TestGroupsFitSeparateDrawings(t *testing.T) {
	const side = 40
	g := mustLattice(t, side, side)
	grid := make([]float64, 2*side*side)
	init := make([]float64, 2*side*side)
	groups := make([]int32, side*side)
	for v := 0; v < side*side; v++ {
		x, y := float64(v%side), float64(v/side)
		grid[2*v], grid[2*v+1] = x, y
		q := int32(0)
		if x >= side/2 {
			q++
		}
		if y >= side/2 {
			q += 2
		}
		groups[v] = q + 10 // any ids
		switch q {
		case 0: // stretched four times along x: a shape SFDP would not draw
			init[2*v], init[2*v+1] = 4*x, y
		case 1:
			init[2*v], init[2*v+1] = -y*3+500, 4*x*3 // stretched, turned and scaled
		case 2:
			init[2*v], init[2*v+1] = -4*x*0.1, y*0.1 // stretched, mirrored and shrunk
		case 3: // free
			init[2*v], init[2*v+1] = math.NaN(), math.NaN()
		}
	}
	o := Options{Seed: 2, Initial: init, Groups: groups}
	pos := mustSFDP(t, g, o)
	if np := quality.NeighbourhoodPreservation(g, pos, 0, 0); np < 0.8 {
		t.Errorf("neighbourhood preservation %.3f < 0.8", np)
	}
	if r := quality.PairwiseCorrelation(grid, pos, 1, 0); r < 0.95 {
		t.Errorf("pairwise correlation with the grid %.3f < 0.95", r)
	}
	// With a budget the refinement is shorter and still a grid; any
	// number of workers gives the same layout.
	o.RefineIterations = 8
	ref := mustSFDP(t, g, o)
	if r := quality.PairwiseCorrelation(grid, ref, 1, 0); r < 0.9 {
		t.Errorf("8 iterations per level: pairwise correlation with the grid %.3f < 0.9", r)
	}
	for _, w := range []int{1, 3} {
		o.Workers = w
		if !slices.Equal(mustSFDP(t, g, o), ref) {
			t.Errorf("%d workers: a different layout", w)
		}
	}
}

func TestRoot(t *testing.T) {
	for _, k := range []int{1, 2, 13, 26} {
		r := root(0.02/0.3, k)
		if p := math.Pow(r, float64(k)); math.Abs(p-0.02/0.3) > 1e-12 {
			t.Errorf("root(%v, %d)^%d = %v", 0.02/0.3, k, k, p)
		}
	}
}

// With Groups the global arrangement is plain SFDP's own for the seed: the
// layout agrees with plain SFDP's (same seed) far better than two plain
// layouts that differ only in seed agree with each other.
func TestGroupsKeepPlainPicture(t *testing.T) {
	g, comm, err := datasets.Planted(datasets.PlantedOptions{N: 6000, AvgDegree: 10, MaxDegree: 60, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 300, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var same, seeds float64
	for seed := uint64(1); seed <= 3; seed++ {
		plain := mustSFDP(t, g, Options{Seed: seed})
		other := mustSFDP(t, g, Options{Seed: seed + 10})
		grouped := mustSFDP(t, g, Options{Seed: seed, Groups: comm, RefineIterations: 13})
		same += quality.PairwiseCorrelation(grouped, plain, 0.1, 7) / 3
		seeds += quality.PairwiseCorrelation(plain, other, 0.1, 7) / 3
	}
	// Measured: 0.726 against 0.295.
	if same < 0.6 || same < seeds+0.25 {
		t.Errorf("mean r(groups, plain) %.3f, r(plain, other seed) %.3f: want ≥ 0.6 and 0.25 above", same, seeds)
	}
}
