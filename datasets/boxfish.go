package datasets

import (
	"embed"
	"io/fs"
)

//go:embed data/boxfish-bgp
var boxfish embed.FS

// BoxfishBGP returns the Blue Gene/P counters of Boxfish's example data
// (LLNL/boxfish, example-data/bgpc_*) as a read-only file system: the run
// meta file bgpc_meta.yaml, its node and link tables and its rank map, a
// 512-node 8×8×8 torus with per-link packet counts per code region, and
// the BSD licence (LICENSE.boxfish.txt) and origin (SOURCE.txt) that
// travel with them. Read it with boxfish.ReadFS(fsys, "bgpc_meta.yaml")
// (package superstep/topology/torus/boxfish).
func BoxfishBGP() fs.FS {
	sub, err := fs.Sub(boxfish, "data/boxfish-bgp")
	if err != nil {
		// fs.Sub fails only on an invalid path; this one is a constant.
		panic(err)
	}
	return sub
}
