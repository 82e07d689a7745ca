package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"superstep/sdk/graph"
)

// PlantedOptions describes a planted-community benchmark graph for
// Planted, after Lancichinetti, Fortunato and Radicchi, "Benchmark graphs
// for testing community detection algorithms", Phys. Rev. E 78, 046110
// (2008) — the LFR benchmark.
type PlantedOptions struct {
	// N is the number of vertices, at least 2.
	N int
	// AvgDegree is the mean degree and MaxDegree the largest: degrees
	// follow a power law k^-DegreeExponent from a smallest degree (at
	// least 1) chosen so that the mean is AvgDegree, up to MaxDegree
	// (below N). AvgDegree must be less than MaxDegree, or equal to it
	// for a graph in which every degree is MaxDegree.
	AvgDegree float64
	MaxDegree int
	// Mixing is μ in 0..1: the fraction of each vertex's edges that leave
	// its community. A vertex of degree k has (1-μ)k edges inside its
	// community, rounded up or down at random so that the mean is exact.
	Mixing float64
	// MinCommunity and MaxCommunity bound the community sizes, which
	// follow a power law s^-CommunityExponent. 1 ≤ MinCommunity ≤
	// MaxCommunity, MinCommunity ≤ N, and a vertex of MaxDegree must fit
	// its (1-μ)·MaxDegree inner edges: (1-μ)·MaxDegree < MaxCommunity.
	MinCommunity, MaxCommunity int
	// DegreeExponent is τ₁, the exponent of the degree distribution (LFR
	// uses 2 to 3); 0 means 2.5.
	DegreeExponent float64
	// CommunityExponent is τ₂, the exponent of the community sizes (LFR
	// uses 1 to 2); 0 means 1.5.
	CommunityExponent float64
	// Seed chooses the graph: the same options give the same graph and
	// communities on every run and machine.
	Seed uint64
}

// Planted returns an undirected LFR-like benchmark graph with planted
// communities, and the community of each vertex (0..c-1, community 0 the
// largest). See PlantedOptions for the parameters. The graph is simple (no
// self-loops, no parallel edges) and its vertex ids equal its indices.
//
// The construction follows LFR: degrees and community sizes are drawn from
// their power laws (community sizes then nudged by one here and there to
// add up to N); each vertex gets (1-μ)k inner and μk outer edge ends and
// joins a random community with room for its inner edges (a vertex is
// placed with probability proportional to a community's free places); the
// inner ends of each community and then all outer ends are paired at
// random (configuration model), and pairs that would make a self-loop, a
// parallel edge or (for outer ends) an edge inside one community are
// rewired by swapping ends with random edges already made. The few pairs
// that cannot be rewired are dropped (and an odd end out in a community,
// or among all outer ends, too), so where communities are small and dense
// degrees come out slightly below the target and the mixing slightly off
// it: measure the realised mixing if it matters (tests find it within
// 0.01 of μ). 64,000 vertices and 800,000 edges take about 0.3 s.
func Planted(o PlantedOptions) (*graph.Graph, []int32, error) {
	if o.DegreeExponent == 0 {
		o.DegreeExponent = 2.5
	}
	if o.CommunityExponent == 0 {
		o.CommunityExponent = 1.5
	}
	kmin, err := o.check()
	if err != nil {
		return nil, nil, err
	}
	rng := newRand(o.Seed)
	n := o.N

	// Degrees, and their inner part; rounding at random keeps the means.
	kin := make([]int32, n)
	kout := make([]int32, n)
	for v := 0; v < n; v++ {
		k := roundRandom(rng, powerLaw(rng, kmin, float64(o.MaxDegree), o.DegreeExponent))
		in := roundRandom(rng, (1-o.Mixing)*float64(k))
		kin[v], kout[v] = int32(in), int32(k-in)
	}

	sizes := communitySizes(rng, o)
	comm := assignCommunities(rng, sizes, kin, kout)

	// Members of each community, in vertex order.
	start := make([]int, len(sizes)+1)
	for _, c := range comm {
		start[c+1]++
	}
	for c := range sizes {
		start[c+1] += start[c]
	}
	members := make([]int32, n)
	pos := slices.Clone(start[:len(sizes)])
	for v, c := range comm {
		members[pos[c]] = int32(v)
		pos[c]++
	}

	w := wiring{rng: rng, comm: comm, set: make(map[uint64]struct{}, int(o.AvgDegree*float64(n)/2)+16)}
	var stubs []int32
	for c := range sizes {
		mem := members[start[c]:start[c+1]]
		sum := 0
		for _, v := range mem {
			sum += int(kin[v])
		}
		if sum%2 == 1 {
			// One inner end has no partner: the member with the most
			// inner ends loses one.
			best := mem[0]
			for _, v := range mem {
				if kin[v] > kin[best] {
					best = v
				}
			}
			kin[best]--
		}
		stubs = stubs[:0]
		for _, v := range mem {
			for i := int32(0); i < kin[v]; i++ {
				stubs = append(stubs, v)
			}
		}
		w.pair(stubs, true)
	}
	stubs = stubs[:0]
	sum, best := 0, int32(0)
	for v := range kout {
		sum += int(kout[v])
		if kout[v] > kout[best] {
			best = int32(v)
		}
	}
	if sum%2 == 1 {
		kout[best]-- // one outer end has no partner: drop it
	}
	for v := range kout {
		for i := int32(0); i < kout[v]; i++ {
			stubs = append(stubs, int32(v))
		}
	}
	w.pair(stubs, false)

	b := graph.NewBuilder(false)
	for v := 0; v < n; v++ {
		b.AddVertex(int64(v))
	}
	for i := range w.src {
		b.AddEdge(int64(w.src[i]), int64(w.dst[i]))
	}
	return b.Build(), comm, nil
}

// check validates the options (with defaults filled in) and returns the
// smallest degree of the degree power law.
func (o PlantedOptions) check() (float64, error) {
	fail := func(format string, args ...any) (float64, error) {
		return 0, fmt.Errorf("datasets.Planted: "+format, args...)
	}
	switch {
	case o.N < 2 || o.N > maxVertices:
		return fail("N must be in 2..%d, got %d", maxVertices, o.N)
	case o.MaxDegree < 1 || o.MaxDegree >= o.N:
		return fail("MaxDegree must be in 1..N-1 = %d, got %d", o.N-1, o.MaxDegree)
	case !(o.AvgDegree >= 1 && o.AvgDegree <= float64(o.MaxDegree)):
		return fail("AvgDegree must be in 1..MaxDegree = %d, got %g", o.MaxDegree, o.AvgDegree)
	case !(o.Mixing >= 0 && o.Mixing <= 1):
		return fail("Mixing must be in 0..1, got %g", o.Mixing)
	case !(o.DegreeExponent > 0 && o.DegreeExponent <= 10):
		return fail("DegreeExponent must be in (0, 10], got %g", o.DegreeExponent)
	case !(o.CommunityExponent > 0 && o.CommunityExponent <= 10):
		return fail("CommunityExponent must be in (0, 10], got %g", o.CommunityExponent)
	case o.MinCommunity < 1 || o.MinCommunity > o.MaxCommunity:
		return fail("need 1 ≤ MinCommunity ≤ MaxCommunity, got %d and %d", o.MinCommunity, o.MaxCommunity)
	case o.MinCommunity > o.N:
		return fail("MinCommunity = %d is more than N = %d", o.MinCommunity, o.N)
	case o.AvgDegree*float64(o.N)/2 > maxEdges:
		return fail("N·AvgDegree/2 is more than %d edges", maxEdges)
	}
	if inner := math.Ceil(float64((1-o.Mixing)*float64(o.MaxDegree)) - 1e-9); int(inner) >= min(o.MaxCommunity, o.N) {
		return fail("a vertex of degree MaxDegree = %d has %g edges inside its community, which needs a community of more than %g vertices: raise MaxCommunity (%d) or Mixing, or lower MaxDegree",
			o.MaxDegree, inner, inner, o.MaxCommunity)
	}
	maxC := min(o.MaxCommunity, o.N)
	// Some number of communities c has c·MinCommunity ≤ N ≤ c·maxC.
	if c := (o.N + maxC - 1) / maxC; c*o.MinCommunity > o.N {
		return fail("no community sizes in %d..%d add up to N = %d", o.MinCommunity, o.MaxCommunity, o.N)
	}
	kmax := float64(o.MaxDegree)
	if o.AvgDegree == kmax {
		return kmax, nil
	}
	if lo := powerLawMean(1, kmax, o.DegreeExponent); lo > o.AvgDegree {
		return fail("AvgDegree = %g is too low: with MaxDegree = %d and DegreeExponent = %g the mean degree is at least %.4g",
			o.AvgDegree, o.MaxDegree, o.DegreeExponent, lo)
	}
	// The mean grows with the smallest degree: bisect for it.
	lo, hi := 1.0, kmax
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if powerLawMean(mid, kmax, o.DegreeExponent) < o.AvgDegree {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}

// powerLaw draws x in [a, b] with density proportional to x^-tau.
func powerLaw(rng *rand.Rand, a, b, tau float64) float64 {
	if a == b {
		return a
	}
	u := rng.Float64()
	if math.Abs(tau-1) < 1e-9 {
		return a * math.Pow(b/a, u)
	}
	p := 1 - tau
	lo, hi := math.Pow(a, p), math.Pow(b, p)
	return math.Min(b, math.Max(a, math.Pow(lo+float64(u*(hi-lo)), 1/p)))
}

// powerLawMean is the mean of the density proportional to x^-tau on
// [a, b].
func powerLawMean(a, b, tau float64) float64 {
	if a == b {
		return a
	}
	return powerIntegral(a, b, 1-tau) / powerIntegral(a, b, -tau)
}

// powerIntegral is the integral of x^p from a to b.
func powerIntegral(a, b, p float64) float64 {
	if math.Abs(p+1) < 1e-9 {
		return math.Log(b / a)
	}
	return (math.Pow(b, p+1) - math.Pow(a, p+1)) / (p + 1)
}

// roundRandom rounds x ≥ 0 down or up, up with probability equal to its
// fractional part, so that the mean is kept.
func roundRandom(rng *rand.Rand, x float64) int {
	f := math.Floor(x)
	if rng.Float64() < x-f {
		f++
	}
	return int(f)
}

// communitySizes draws community sizes from the power law until they
// cover N, then adds or removes single places at random (keeping every
// size within bounds, and removing or adding whole communities when the
// bounds demand it) until they add up to N exactly. Sizes come back
// largest first.
func communitySizes(rng *rand.Rand, o PlantedOptions) []int {
	lo, hi := o.MinCommunity, min(o.MaxCommunity, o.N)
	var sizes []int
	sum := 0
	for sum < o.N {
		s := min(hi, int(powerLaw(rng, float64(lo), float64(hi)+1, o.CommunityExponent)))
		sizes = append(sizes, s)
		sum += s
	}
	var cand []int
	for sum != o.N {
		c := len(sizes)
		switch {
		case sum > o.N && c*lo > o.N:
			sum -= sizes[c-1]
			sizes = sizes[:c-1]
		case sum < o.N && c*hi < o.N:
			s := min(hi, max(lo, o.N-sum))
			sizes = append(sizes, s)
			sum += s
		default:
			// Enough slack: move single places in communities that can
			// take the change.
			cand = cand[:0]
			for i, s := range sizes {
				if (sum > o.N && s > lo) || (sum < o.N && s < hi) {
					cand = append(cand, i)
				}
			}
			step := 1
			if sum > o.N {
				step = -1
			}
			for sum != o.N {
				j := rng.IntN(len(cand))
				i := cand[j]
				sizes[i] += step
				sum += step
				if sizes[i] == lo || sizes[i] == hi {
					cand[j] = cand[len(cand)-1]
					cand = cand[:len(cand)-1]
				}
			}
		}
	}
	slices.SortFunc(sizes, func(a, b int) int { return b - a })
	return sizes
}

// assignCommunities places each vertex in a community with more members
// than its inner degree, vertices with many inner edges first, each among
// the eligible communities with probability proportional to their free
// places. A vertex for which no eligible community has room is placed in a
// random community with room and keeps only as many inner ends as that
// community allows (the rest become outer ends).
func assignCommunities(rng *rand.Rand, sizes []int, kin, kout []int32) []int32 {
	n := len(kin)
	order := make([]int32, n)
	for v := range order {
		order[v] = int32(v)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(kin[b]) - int(kin[a]) })
	free := newFenwick(sizes)
	comm := make([]int32, n)
	for _, v := range order {
		// Communities 0..p-1 have more than kin[v] members.
		p := sort.Search(len(sizes), func(i int) bool { return sizes[i] <= int(kin[v]) })
		room := free.prefix(p)
		var c int
		if room > 0 {
			c = free.find(rng.IntN(room))
		} else {
			c = free.find(rng.IntN(free.prefix(len(sizes))))
			extra := kin[v] - int32(sizes[c]-1)
			kin[v] -= extra
			kout[v] += extra
		}
		comm[v] = int32(c)
		free.add(c, -1)
	}
	return comm
}

// fenwick is a binary indexed tree over counts: prefix sums and the
// search for the position of the r-th unit.
type fenwick []int

func newFenwick(counts []int) fenwick {
	f := make(fenwick, len(counts)+1)
	for i, c := range counts {
		f.add(i, c)
	}
	return f
}

func (f fenwick) add(i, d int) {
	for i++; i < len(f); i += i & -i {
		f[i] += d
	}
}

// prefix is the sum of counts[0:i].
func (f fenwick) prefix(i int) int {
	s := 0
	for ; i > 0; i -= i & -i {
		s += f[i]
	}
	return s
}

// find returns the i with prefix(i) ≤ r < prefix(i+1), for 0 ≤ r < total.
func (f fenwick) find(r int) int {
	i := 0
	step := 1
	for step*2 < len(f) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if j := i + step; j < len(f) && f[j] <= r {
			i = j
			r -= f[j]
		}
	}
	return i
}

// wiring pairs edge ends into a simple graph.
type wiring struct {
	rng      *rand.Rand
	comm     []int32
	set      map[uint64]struct{} // the edges made, by edgeKey
	src, dst []int32
}

func edgeKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// ok reports whether a–b may become an edge: no self-loop, not made yet,
// inside one community if inner, across two if not.
func (w *wiring) ok(a, b int32, inner bool) bool {
	if a == b || (w.comm[a] == w.comm[b]) != inner {
		return false
	}
	_, dup := w.set[edgeKey(a, b)]
	return !dup
}

func (w *wiring) add(a, b int32) {
	w.set[edgeKey(a, b)] = struct{}{}
	w.src = append(w.src, a)
	w.dst = append(w.dst, b)
}

// rewireTries is how many random edges a bad pair tries to swap ends with
// before it is dropped.
const rewireTries = 50

// pair shuffles the ends and joins them two by two. A pair that may not
// be an edge swaps ends with a random edge made by this call: a–b and c–d
// become a–c and b–d (or a–d and b–c) when both are allowed.
func (w *wiring) pair(stubs []int32, inner bool) {
	w.rng.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
	first := len(w.src)
	var bad []int32
	for i := 0; i+1 < len(stubs); i += 2 {
		a, b := stubs[i], stubs[i+1]
		if w.ok(a, b, inner) {
			w.add(a, b)
		} else {
			bad = append(bad, a, b)
		}
	}
	for i := 0; i < len(bad); i += 2 {
		a, b := bad[i], bad[i+1]
		for t := 0; t < rewireTries && len(w.src) > first; t++ {
			j := first + w.rng.IntN(len(w.src)-first)
			c, d := w.src[j], w.dst[j]
			if w.rng.IntN(2) == 1 {
				c, d = d, c
			}
			if edgeKey(a, c) == edgeKey(b, d) || !w.ok(a, c, inner) || !w.ok(b, d, inner) {
				continue
			}
			delete(w.set, edgeKey(c, d))
			w.set[edgeKey(a, c)] = struct{}{}
			w.src[j], w.dst[j] = a, c
			w.add(b, d)
			break
		}
	}
}
