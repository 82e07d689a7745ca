// Package infiniband reads what InfiniBand tools say about a real fabric
// and writes what InfiniBand simulators and TreeScope read.
//
// Topology: ReadIBNetDiscover turns the output of ibnetdiscover
// (infiniband-diags, plain and -p) into a fattree.Discovered, which
// fattree.Infer turns into a Fabric; WriteIBNetDiscover writes a Fabric in
// that format, and WriteIBSimNet as a net file of the ibsim simulator.
//
// Routing: ReadLFT reads the linear forwarding tables that dump_fts and
// ibroute print (and OpenSM's own dump) into a fattree.Table, matching
// switches by GUID (or LID) and destination LIDs to nodes and switches
// (the switches' routes, Table.SwitchRoute, are what fattree.Destinations,
// TreeScope's d(ℓ), needs besides the nodes'), and mapping the devices'
// port numbers to the Fabric's (Fabric.ModelPort); WriteLFT writes a
// Routing in dump_fts's format.
//
// Counters: ReadPerfquery reads the concatenated per-port outputs of
// perfquery (plain, 32-bit, and -x, 64-bit) into a fattree.Snapshot, one
// value per directed link (its source port's transmit counters, else its
// destination port's receive counters; data counters in 4-byte words
// turned into bytes), under a fattree.Direction; ReadPerfqueryDir reads a
// directory of such snapshots named by their time, "YYYYmmdd-HHMMSS" in
// UTC as TreeScope names them, with or without an extension.
// fattree.Deltas turns snapshots into counters rows, flagging resets and
// saturated 32-bit counters. When both ends of a link were read, their
// bytes are compared and a disagreement beyond a tolerance is a warning
// naming both; ReadPerfqueryWith and ReadPerfqueryDirWith choose the end
// (PerfqueryOptions: Transmit, Receive, Max) and the tolerance.
//
// TreeScope's numbers: Source TreeScope reproduces what TreeScope v1.0
// computes from its counters files: one value per port, 4 × PortRcvData
// (tools/OSMHistoryParser.java, write_portCounters), on the link from
// the port's owner to its peer (app/src/model/counters.js, add_topology:
// fattree.TreeScopeDirection), a negative difference between consecutive
// values counted 0 (counters.js, fix(): fattree.DeltasWith with
// fattree.ResetToZero, PerfqueryOptions.ResetRule). ReadTreeScope does
// all three with TreeScopeOptions.Source TreeScope.
//
// TreeScope: ReadTreeScope and WriteTreeScope read and write the data
// directory of TreeScope v1.0 (network.topo, <time>.count, <time>.rtable,
// listing.txt, slurmqlog/sqlog.txt): the fabric, its counters over time,
// its routing tables over time (fattree.Routings) and its jobs, mapped to
// nodes by the host names of the HCAs' descriptions (package
// superstep/topology/slurm).
//
// Every reader returns errors of one type, *ParseError, printing
// "file:line:col: expected …, found …", and never panics on any input;
// what it reads but cannot use, or finds missing, it returns as Warnings
// naming the file and line, never dropping anything silently. Memory is
// bounded by the input's size and the Fabric's: counts read from a file
// are checked against InfiniBand's limits (254 ports, LIDs up to 0xBFFF)
// before anything is allocated from them.
//
// testdata/regenerate.sh rebuilds the committed samples (k = 4, k = 8, a
// two-level tree with 6 parallel cables, a degraded k = 8, and, gzipped,
// the TreeScope paper's 1,296 nodes with OpenSM's ftree tables) with ibsim,
// OpenSM and infiniband-diags; TestRegenerate reruns it when
// SUPERSTEP_IBSIM=1 and compares testdata/SHA256SUMS.
package infiniband
