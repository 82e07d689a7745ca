// Package boxfish reads and writes the torus network counters of Boxfish
// (github.com/LLNL/boxfish, LLNL's tool for looking at HPC network
// performance data) as the tables of package torus, and reads the Blue
// Gene/Q raw link counters Boxfish's converter takes. It is the torus's
// reader, a subpackage beside the model it fills as sdk/trace/otf2 is
// beside sdk/trace: package torus knows no file format and does not
// import this one.
//
// Files. A Boxfish run is a meta file and the tables it names. The meta
// file is YAML: a first document whose hardware mapping gives the network
// (coords, dim, source_coords, destination_coords, coords_table,
// link_coords_table), then table and projection documents. The tables are
// the links (per-link counters), the nodes (node ids and coordinates,
// maybe per-node counters) and the rank map (the file projection between
// RANK and NODE); each is a YAML header (an optional meta document and a
// column list of [name, type] pairs), a line "...", then rows of
// whitespace-separated numbers. Boxfish's files carry no format version:
// the reader follows those of Boxfish's example-data at commit afa9c95
// (2016-03-08), and reads the Blue Gene/P runs bgpc and collex (8×8×8)
// and the synthetic Blue Gene/Q runs bgq_synthetic and bgq_synthetic2
// (6×5×4×3×2); a file that describes an application domain rather than a
// network (samr) is refused. The YAML goes through a hand-written parser
// of the subset those files use: block and flow collections (trailing
// commas included), plain and quoted one-line scalars and comments; no
// anchors, tags or multi-line scalars.
//
// Read (or ReadFS, on a file system) gives a Run: the torus, the link
// counters as a channel table and the node counters as a node table
// (torus.ChannelFields and torus.NodeFields, keyed by region, the file's
// code_region, and phase, the occurrence of a row), the rank map and the
// warnings of every file. ReadMeta and ReadTable read one file each.
// Write writes a Run as files that Read gives back identically, with two
// keys Boxfish ignores (hardware.mesh, hardware.extent2_channels) for
// what its format cannot say. ReadBGQCounters reads a Blue Gene/Q ".cnt"
// file, what Boxfish's scripts/bgq_counters converts, into a Run.
//
// Every error is a *ParseError whose text reads "file:line:col: expected
// …, found …"; warnings (Warning) are returned, never printed. The Blue
// Gene/P run bgpc ships with Superstep as datasets.BoxfishBGP().
package boxfish
