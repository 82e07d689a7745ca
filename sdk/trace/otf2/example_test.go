package otf2_test

import (
	"context"
	"fmt"

	"superstep/sdk/trace/otf2"
)

// Read the two-rank Score-P ping-pong: 8 messages each way, 16 KiB
// doubling to 2 MiB, the first sent 0.193672585 s into the trace.
func ExampleRead() {
	tr, err := otf2.Read(context.Background(), "testdata/pingpong/traces.otf2")
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
