// Package algo holds Superstep's algorithms: vertex programs for the BSP
// engine (SSSP, PageRank, components, Louvain, force-directed layout) and
// compiled fast paths (Louvain, SFDP, crossing minimisation, Hilbert curves,
// edge bundling, layout quality).
package algo
