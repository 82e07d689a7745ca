package otf_test

import (
	"context"
	"fmt"

	"superstep/sdk/trace/otf"
)

// Reading the hand-made trace H of the tests: 4 processes; messages
// 10 × 1000 B + 5 × 16 B + 1 × 256 B = 16 messages, 10,336 B; one "main"
// per process and one MPI_Send/MPI_Recv around each of the 16 sends and
// 16 receives = 36 region intervals; ticks 100 … 6000 at 2.5 MHz last
// 5900 × 400 ns = 2.36 ms.
func ExampleRead() {
	tr, err := otf.Read(context.Background(), "testdata/h")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr)
	fmt.Println(tr.Processes[1].Name, "has rank", tr.Processes[1].Rank, "on", tr.Processes[1].Host)
	// Output:
	// h: 4 processes, 16 messages (10.3 kB), 36 region intervals, 0.002360000 s
	// Process 1 has rank 0 on node-a
}
