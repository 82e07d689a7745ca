// Package torus models n-dimensional torus interconnects, the networks of
// Blue Gene and similar machines that paper 004 (Cheng et al., 2018) draws
// on a Hilbert ring, and the traffic they carry.
//
// The model (torus.go, channel.go). New builds a torus of any number of
// dimensions and any extents ≥ 1, each wrapped or a mesh (Mesh). Node ids
// put the first coordinate fastest (Boxfish: x + 8y + 64z on 8×8×8);
// Coord and ID convert, Dist is the hop distance (eq. 3 of the paper),
// Diameter and Neighbours follow. Directed channels have dense, stable ids
// in (node, dimension, +/−) order; an extent-1 dimension has none, an
// extent-2 wrapped one has a "+" and a "−" channel to the same neighbour
// or only "+" (Extent2Channels; Extent2 says which). Pairs is the
// undirected view.
//
// Routing (route.go). Dimension-order routing: the dimensions in
// RouteOptions.Order, each the shortest way round, a tie at K/2 going "+"
// unless RouteOptions.TieMinus, mesh dimensions straight. Route lists a
// path's channels; Router.Add loads a path onto per-channel counts without
// allocating.
//
// Traffic (tables.go, traffic.go). Three Arrow tables, keyed by region
// and phase: channel counters (ChannelTable), node-pair traffic
// (PairTable) and node counters (NodeTable). Their schema metadata
// describes the torus, so FromMetadata and LoadParquet rebuild it;
// SaveParquet and LoadParquet go through package superstep/sdk/table. A
// Selection picks regions and phases; region −2 (WholeRun, Boxfish's whole
// run) is a measurement of its own and is never summed with other regions
// (ErrMixedWholeRun). ChannelLoads sums channel counters per channel,
// RoutePairs routes node-pair traffic onto channels. RankMapTable turns a
// rank-to-node map into a table of rank and node.
//
// Patterns and mappings (pattern.go, mapping.go). A Pattern is rank-pair
// traffic as a plain slice: PF3D, Stencil6, AllToAll, RandomPairs
// (seeded). A Mapping puts RanksPerNode consecutive ranks on each node of
// a node order: DefaultOrder (Blue Gene/Q's, last dimension fastest),
// PermutationOrder, BlockedOrder (sub-box tiles) or GivenOrder (any
// permutation, such as a Hilbert order computed elsewhere). MapPairs turns
// a pattern into node-pair traffic, dropping what stays on a node: the
// rows count network traffic only. Loads routes node-pair rows.
//
// Measures (measure.go). Measure gives per-dimension and per-direction
// totals, idle channels per dimension and the busiest channel; NodeInOut
// what each node's channels send and receive; HopBytes Σ packets·distance,
// which equals the routed total.
//
// Readers live beside the model, in subpackages that import it: package
// boxfish (superstep/topology/torus/boxfish) reads and writes Boxfish's
// YAML runs and reads Blue Gene/Q raw counters into these tables.
//
// What the package refuses to know: it reads no file format (its readers
// import it, not the other way round), draws nothing (the ring lives in
// package display, which knows no torus) and imports no algo package; a
// Hilbert order comes in as a plain node order (GivenOrder).
package torus
