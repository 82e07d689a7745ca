package community

import (
	"fmt"
	"math"
	"slices"

	"superstep/sdk/graph"
)

// Modularity returns the modularity Q of a partition of g (one label per
// vertex index, any int32 values) with resolution γ = resolution: 1 is
// Newman's modularity, larger values favour smaller communities. See the
// package documentation for the formula and for how directed graphs,
// weights and self-loops count. A graph without edges has Q = 0. It panics
// if membership does not have one label per vertex.
func Modularity(g *graph.Graph, membership []int32, resolution float64) float64 {
	n := g.NumVertices()
	if len(membership) != n {
		panic(fmt.Sprintf("community.Modularity: %d labels for %d vertices", len(membership), n))
	}
	comm, k := compact(membership)
	tot := make([]float64, k)
	var in, m2 float64
	directed := g.Directed()
	for u := 0; u < n; u++ {
		lo, _ := g.ArcRange(u)
		cu := comm[u]
		for i, v := range g.Neighbors(u) {
			w := g.Weight(lo + i)
			switch {
			case int(v) == u:
				tot[cu] += 2 * w
				m2 += 2 * w
				in += w
			case directed:
				tot[cu] += w
				tot[comm[v]] += w
				m2 += 2 * w
				if comm[v] == cu {
					in += w
				}
			default:
				tot[cu] += w
				m2 += w
				if comm[v] == cu {
					in += w / 2
				}
			}
		}
	}
	if m2 == 0 {
		return 0
	}
	return modularity(in, tot, m2, resolution)
}

// modularity is Q from the weight inside communities, their strengths and
// twice the total weight.
func modularity(in float64, tot []float64, m2, resolution float64) float64 {
	var sq float64
	for _, t := range tot {
		sq += float64(t * t) // no fused multiply-add: the same sum everywhere
	}
	return 2*in/m2 - resolution*sq/(m2*m2)
}

// compact renumbers labels to 0..k-1 in order of first appearance.
func compact(labels []int32) ([]int32, int) {
	out := make([]int32, len(labels))
	k := int32(0)
	inRange := true
	for _, c := range labels {
		if c < 0 || int(c) >= len(labels) {
			inRange = false
			break
		}
	}
	if inRange {
		ids := make([]int32, len(labels))
		for i := range ids {
			ids[i] = -1
		}
		for i, c := range labels {
			if ids[c] < 0 {
				ids[c] = k
				k++
			}
			out[i] = ids[c]
		}
		return out, int(k)
	}
	ids := make(map[int32]int32)
	for i, c := range labels {
		id, ok := ids[c]
		if !ok {
			id = k
			ids[c] = id
			k++
		}
		out[i] = id
	}
	return out, int(k)
}

// NMI returns the normalised mutual information of two partitions of the
// same vertices (any int32 labels): 2·I(a; b) / (H(a) + H(b)), as defined
// by Danon, Díaz-Guilera, Duch and Arenas ("Comparing community structure
// identification", J. Stat. Mech. P09008, 2005) and computed by igraph's
// compare_communities(method="nmi") and scikit-learn's default. It is 1
// for the same partition under any renaming of the labels and near 0 for
// independent ones; two partitions that each put everything in one
// community (and two empty ones) have NMI 1. It panics if the lengths
// differ.
func NMI(a, b []int32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("community.NMI: partitions of %d and %d vertices", len(a), len(b)))
	}
	n := len(a)
	if n == 0 {
		return 1
	}
	ca, ka := compact(a)
	cb, kb := compact(b)
	na := make([]float64, ka)
	nb := make([]float64, kb)
	pairs := make([]uint64, n)
	for i := range pairs {
		na[ca[i]]++
		nb[cb[i]]++
		pairs[i] = uint64(ca[i])<<32 | uint64(cb[i])
	}
	slices.Sort(pairs)
	N := float64(n)
	entropy := func(counts []float64) float64 {
		h := 0.0
		for _, c := range counts {
			h -= float64(c / N * math.Log(c/N))
		}
		return h
	}
	ha, hb := entropy(na), entropy(nb)
	if ha+hb == 0 {
		return 1
	}
	mi := 0.0
	for i := 0; i < n; {
		j := i + 1
		for j < n && pairs[j] == pairs[i] {
			j++
		}
		nij := float64(j - i)
		x, y := pairs[i]>>32, pairs[i]&0xffffffff
		mi += float64(nij / N * math.Log(N*nij/(na[x]*nb[y])))
		i = j
	}
	return math.Max(0, math.Min(1, 2*mi/(ha+hb)))
}
