package community

import "fmt"

// String summarises a partition in one line: what a notebook shows for a
// Louvain result instead of its membership of every vertex.
func (r Result) String() string {
	largest := 0
	if r.NumCommunities > 0 {
		sizes := make([]int, r.NumCommunities)
		for _, c := range r.Membership {
			if c >= 0 && int(c) < len(sizes) {
				sizes[c]++
			}
		}
		for _, s := range sizes {
			largest = max(largest, s)
		}
	}
	return fmt.Sprintf("%d vertices in %d communities (largest %d), modularity %.4f, %d levels",
		len(r.Membership), r.NumCommunities, largest, r.Modularity, len(r.Levels))
}
