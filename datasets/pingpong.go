package datasets

import (
	"embed"
	"io/fs"
)

//go:embed data/otf2-pingpong
var pingpong embed.FS

// PingPongOTF2 returns a real OTF2 trace as a read-only file system: a
// 2-rank MPI ping-pong recorded by Score-P 7.1 (from Pipit's test data,
// MIT licence in LICENSE.pipit.txt, origin in SOURCE.txt): 16 messages of
// 16 KiB to 2 MiB, 8 each way. Read it with otf2.ReadFS(ctx, fsys,
// "traces.otf2").
func PingPongOTF2() fs.FS {
	sub, err := fs.Sub(pingpong, "data/otf2-pingpong")
	if err != nil {
		// fs.Sub fails only on an invalid path; this one is a constant.
		panic(err)
	}
	return sub
}
