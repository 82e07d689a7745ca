package quality

import (
	"fmt"
	"math"
)

// GroupShare returns how well a layout keeps groups (such as planted or
// detected communities) together: the mean, over sampled vertices v with
// a group, of the share of v's k nearest vertices in the layout that are
// in v's group,
//
//	share = (1/|S|) Σ_{v∈S} |{u ∈ L_k(v) : group(u) = group(v)}| / k,
//
// where S holds sample distinct vertices with a group (≥ 0), chosen for
// the seed (all of them when sample ≤ 0 or sample ≥ their number), and
// L_k(v) the k vertices nearest to v in the layout other than v itself
// (ties broken by the lower vertex number). A vertex with a negative group
// has none: it is never sampled and never shares a group. A drawing in
// which every group is a blob apart from the others scores 1; a random
// layout scores about ChanceGroupShare(groups). Nearest neighbours come
// from a k-d tree, so the cost is O(n log n) plus about O(sample·k·log n).
// It returns NaN if no vertex has a group or k < 1, and panics if pos does
// not hold two coordinates per entry of groups.
func GroupShare(pos []float64, groups []int32, k, sample int, seed uint64) float64 {
	n := len(groups)
	if len(pos) != 2*n {
		panic(fmt.Sprintf("quality.GroupShare: layout has %d coordinates, want %d (2 per group entry)", len(pos), 2*n))
	}
	var grouped []int
	for v, g := range groups {
		if g >= 0 {
			grouped = append(grouped, v)
		}
	}
	if len(grouped) == 0 || k < 1 || n < 2 {
		return math.NaN()
	}
	k = min(k, n-1)
	picked := pick(len(grouped), sample, seed)
	tree := newKDTree(pos)
	scores := make([]float64, len(picked))
	forEach(len(picked), 64, func() func(i int) {
		var q knnQuery
		return func(i int) {
			v := grouped[picked[i]]
			same := 0
			for _, u := range tree.nearest(&q, pos[2*v], pos[2*v+1], int32(v), k) {
				if groups[u] == groups[v] {
					same++
				}
			}
			scores[i] = float64(same) / float64(k)
		}
	})
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}

// ChanceGroupShare is the expected GroupShare of a layout that places the
// vertices at random: the chance that another vertex drawn at random is in
// a grouped vertex's group, averaged over the grouped vertices,
//
//	chance = Σ_c s_c (s_c − 1) / (n_g (n − 1)),
//
// where s_c is the size of group c, n_g the number of vertices with a
// group (≥ 0) and n the number of vertices; about Σ_c (s_c/n)² for large
// groups. It returns NaN if no vertex has a group or there are fewer than
// two vertices.
func ChanceGroupShare(groups []int32) float64 {
	n := len(groups)
	size := map[int32]uint64{}
	ng := 0
	for _, g := range groups {
		if g >= 0 {
			size[g]++
			ng++
		}
	}
	if ng == 0 || n < 2 {
		return math.NaN()
	}
	var sum uint64 // exact, whatever the map's order (at most n² < 2⁶⁴)
	for _, s := range size {
		sum += s * (s - 1)
	}
	return float64(sum) / (float64(ng) * float64(n-1))
}
