// Package fattree models fat-tree fabrics, the three-level (or two-level)
// folded Clos networks of InfiniBand clusters that TreeScope draws: compute
// nodes (level 0, "L0") under edge switches (L1), aggregation switches (L2)
// grouped with them into pods, and core switches (L3) grouped into bundles
// (director-class switches) that join the pods.
//
// The package answers these questions about such a fabric:
//
//   - what it is made of: a Spec (counts per level, parallel cables) and the
//     Fabric that Build makes from it, with every node, switch, port and
//     directed link numbered in a documented, stable order; or the Fabric
//     that Infer finds in a discovered topology (levels by breadth-first
//     search from the hosts, pods and bundles as connected components, never
//     by names), with warnings for what is missing from the regular pattern;
//   - how traffic goes: destination-based routing as InfiniBand switches do
//     it with linear forwarding tables (a Routing gives, for a switch and a
//     destination node, the output port), D-mod-k routing (DModK, computed,
//     no tables), a seeded random minimal routing (Random), explicit tables
//     (Table) and the route of one pair (Route);
//   - how loaded every link is: AllToAllLoads counts, for all ordered pairs
//     of a set of nodes, the routes crossing every directed link, and the
//     histogram of route lengths, walking one destination tree per
//     destination rather than one route per pair;
//   - what jobs do to it: communication patterns over a job's ranks
//     (Pattern: AllToAll, Ring, Shift, Stencil3D, Transpose, Gather,
//     Scatter, Permutation), jobs (Job) and their placement (Place:
//     Contiguous, Fragmented, PodBased, Stride), and JobLoads, the bytes
//     per second of every job on every link, by destination tree too;
//   - how to judge those loads: per-kind statistics, hotspots, dark links,
//     links shared by jobs and each job's bottleneck inflation (Traffic's
//     methods);
//   - who is where: a node set's footprint (Footprint, Footprints), the
//     destinations a link reaches (Reach, Combine), the LIDs a switch's
//     forwarding table sends out of a link's port, TreeScope's d(ℓ)
//     (Destinations, switches' LIDs included when the Routing is a
//     SwitchRouting such as a Table read from dump_fts) and the jobs and
//     pairs on a link (WhoUses);
//   - what a smarter routing would change: balanced minimal routings
//     (SSSP, and JobAware, which balances the routes inside jobs only).
//
// Numbering. Node d is node NodesPerL1·(L1PerPod·pod + l1) + slot, the
// order TreeScope uses: pod by pod, L1 by L1, port by port. Switches are
// numbered L1 first (pod by pod, index within pod), then L2 (pod by pod),
// then L3 (bundle by bundle). Ports of a switch are numbered from 1, down
// ports first, then up ports, each group ordered by the index of the switch
// or node at the other end and then by the parallel cable. Directed links
// are numbered by Kind (L0→L1, L1→L0, L1→L2, L2→L1, L2→L3, L3→L2) and within
// a kind by source, then destination, then parallel cable, so the links of
// one kind form one contiguous range (Fabric.KindLinks) and the links of a
// switch of one kind come in port order. A "cell" of TreeScope's matrix
// view is one directed link between two switches (Kind.Cell).
//
// What the package refuses to know: it draws nothing (the fat-tree matrices
// live in package display, which knows no fat-tree), runs no vertex program
// and is not the notebook facade (package sdk ties fabrics to their views).
// It uses the standard library, the module's internal worker pool, and
// Apache Arrow with superstep/sdk/table for its tables: port counters
// (CountersTable: per interval and directed link, deltas of bytes,
// packets, xmit_wait and errors, with Deltas turning cumulative snapshots
// into them, resets and saturated 32-bit counters flagged, DeltasWith
// counting a reset as TreeScope does), the links
// (LinksTable), and Simulate, which writes the counters a set of jobs would
// produce.
package fattree
