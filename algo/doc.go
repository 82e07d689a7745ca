// Package algo holds Superstep's algorithms, one package each:
//
//   - vertex: vertex programs for the BSP engine (SSSP and a buggy SSSP,
//     PageRank, connected components, a GILA-like force-directed layout,
//     Louvain's local moving and the whole Louvain method as BSP jobs);
//   - community: compiled Louvain, modularity and NMI;
//   - layout: SFDP (multilevel, Barnes–Hut) for large graphs;
//   - pipeline: the community-seeded layout of paper 001;
//   - quality: layout quality (distance correlation, stress,
//     neighbourhood preservation);
//   - partition: hash, range and label-propagation partitioners;
//   - circular: the crossing-minimised circular order of the chord views;
//   - sequential: sequential references for the vertex programs;
//   - hilbert: compact Hilbert indices, ring orders of n-D boxes and tori,
//     and their locality metrics;
//   - embed: classical MDS, SMACOF stress majorisation and RadViz, the
//     2-D embeddings the torus ring is compared with;
//   - meanshift: 1-D and 2-D mean-shift clustering (Gaussian kernel);
//   - bundle: the geometry of edge-bundled message timelines and
//     sender/receiver diagrams (paper 003): clusters, grid and
//     hierarchical routes, B-splines as quadratic Bézier chains.
package algo
