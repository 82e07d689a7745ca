// Package community finds and scores communities: Louvain, the
// multi-level modularity optimisation of Blondel, Guillaume, Lambiotte and
// Lefebvre ("Fast unfolding of communities in large networks", J. Stat.
// Mech. P10008, 2008), compiled and deterministic for a seed; Modularity,
// Newman's quality of a partition with a resolution parameter; and NMI,
// the normalised mutual information between two partitions (to compare a
// result with planted communities, as from datasets.Planted).
//
// A partition is a []int32 with one community label per vertex index.
// Louvain numbers its communities 0..k-1; Modularity and NMI accept any
// labels.
//
// Graphs may be weighted (weights must be finite and non-negative) and
// directed; a directed graph is treated as undirected: each arc u→v of
// weight w is the undirected edge {u, v} of weight w, so opposite arcs
// add up. A self-loop of weight w adds 2w to its vertex's strength and w
// to the weight inside its community, as in networkx and igraph.
//
// Modularity of a partition into communities c with resolution γ is
//
//	Q = Σ_c [ in_c / m − γ (tot_c / 2m)² ]
//
// where m is the total edge weight, in_c the weight of the edges inside c
// and tot_c the sum of the strengths (weighted degrees) of c's vertices:
// Equation 3.1 of the distributed-layout thesis (paper 001 of the design)
// with γ = 1.
package community
