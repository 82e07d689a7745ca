package otf2_test

import (
	"context"
	"fmt"

	"superstep/datasets"
	"superstep/sdk/trace/otf2"
)

// Read the two-rank Score-P ping-pong (shipped in datasets): 8 messages
// each way, 16 KiB doubling to 2 MiB, the first sent 0.193672585 s into
// the trace. otf2.Read(ctx, "run/traces.otf2") reads an archive on disk.
func ExampleReadFS() {
	tr, err := otf2.ReadFS(context.Background(), datasets.PingPongOTF2(), "traces.otf2")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := tr.Messages[0]
	fmt.Println(len(tr.Processes), "processes on", tr.Processes[0].Host)
	fmt.Println(len(tr.Messages), "messages")
	fmt.Printf("first: %d→%d, %d B, tag %d, sent at %d ns\n", m.Src, m.Dst, m.Bytes, m.Tag, m.SendNS)
	// Output:
	// 2 processes on quartz10
	// 16 messages
	// first: 0→1, 16384 B, tag 10, sent at 193672585 ns
}
