// Package datasets brings graphs into Superstep: it reads the file formats
// real graph data comes in, generates random and regular graphs for
// experiments and teaching, and ships a few small real graphs in the
// repository so that a notebook can use them without any path.
//
// Readers take an io.Reader and the file name to use in errors, and return
// a *graph.Graph:
//
//   - ReadEdgeList: SNAP-style "u v [w]" lines, directed or undirected;
//   - ReadMETIS: METIS / Chaco graphs (Walshaw's partitioning archive);
//   - ReadMatrixMarket: Matrix Market coordinate matrices (SuiteSparse);
//   - ReadGML: GML, as written by networkx, igraph and Newman's data sets.
//
// Load reads a file by its extension and content (".gz" too), and
// LoadEdgeList reads an edge list with a chosen direction. Bad input never
// panics and is never skipped: every error is a *ParseError whose text is
// "file:line: what was expected, what was found".
//
// Open returns a shipped data set by name (Names lists them: the meshes
// 4elt and cti, the circuit add32, the Gnutella peer-to-peer network,
// Zachary's karate club and the Les Misérables co-appearances); Source
// gives their origins and terms.
//
// Generators: Lattice (a 2-D grid), ErdosRenyi (uniform G(n, m)),
// BarabasiAlbert (preferential attachment), Planted (an LFR-like social
// graph with power-law degrees and community sizes and a mixing parameter,
// returned with its planted communities) and RandomGeometric (points
// uniform in the unit square joined within a radius; RandomGeometricPoints
// gives the points). They return an error for
// parameters that make no graph. The random ones take a seed, and the same
// seed gives the same graph on every run and machine (a PCG from
// math/rand/v2), so a notebook re-runs bit for bit. Must turns a (graph,
// error) pair into a graph for cells and examples.
package datasets
