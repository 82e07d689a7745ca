package ompimon_test

import (
	"fmt"
	"os"

	"superstep/sdk/trace/ompimon"
)

// Two ranks exchanging messages: rank 0 sent 3 messages (300 bytes) to
// rank 1, rank 1 sent 1 message (50 bytes) back.
func ExampleRead() {
	dir, _ := os.MkdirTemp("", "ompimon")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/run.0.prof", []byte("# POINT TO POINT\nE\t0\t1\t300 bytes\t3 msgs sent\n# OSC\n# COLLECTIVES\n"), 0o644)
	os.WriteFile(dir+"/run.1.prof", []byte("# POINT TO POINT\nE\t1\t0\t50 bytes\t1 msgs sent\n# OSC\n# COLLECTIVES\n"), 0o644)
	d, err := ompimon.Read(dir, "run")
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs, bytes, pairs := d.External()
	fmt.Println(d.Ranks, "ranks:", msgs, "messages,", bytes, "bytes,", pairs, "pairs")
	for _, p := range d.Pairs() {
		fmt.Printf("%d->%d %d msgs %d bytes\n", p.Src, p.Dst, p.ExtMsgs, p.ExtBytes)
	}
	// Output:
	// 2 ranks: 4 messages, 350 bytes, 2 pairs
	// 0->1 3 msgs 300 bytes
	// 1->0 1 msgs 50 bytes
}
