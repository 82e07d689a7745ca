package mpi_test

import (
	"fmt"
	"log"

	"superstep/sdk/bsp/mpi"
)

// Example shows one superstep's message exchange as a BSP worker does it:
// counts first, then the payload, then the "all halted" vote. It must run
// under mpirun (e.g. mpirun -np 4 ./worker), so it has no Output line.
func Example() {
	if err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	defer func() {
		if err := mpi.Finalize(); err != nil {
			log.Fatal(err)
		}
	}()
	r, n := mpi.Rank(), mpi.Size()

	// Rank r sends r+1 bytes to every rank.
	sendCounts, sendDispls := make([]int, n), make([]int, n)
	send := make([]byte, 0, n*(r+1))
	for d := range n {
		sendCounts[d], sendDispls[d] = r+1, len(send)
		for range r + 1 {
			send = append(send, byte(r))
		}
	}
	counts := make([]int64, n)
	for d := range n {
		counts[d] = int64(sendCounts[d])
	}
	recvCounts64 := make([]int64, n)
	if err := mpi.AlltoallInt64(counts, recvCounts64); err != nil {
		log.Fatal(err)
	}
	recvCounts, recvDispls := make([]int, n), make([]int, n)
	total := 0
	for s := range n {
		recvCounts[s], recvDispls[s] = int(recvCounts64[s]), total
		total += recvCounts[s]
	}
	recv := make([]byte, total)
	if err := mpi.AlltoallvBytes(send, sendCounts, sendDispls, recv, recvCounts, recvDispls); err != nil {
		log.Fatal(err)
	}

	// Every rank votes to halt: 1 when all ranks did.
	vote := []int64{1}
	if err := mpi.AllreduceInt64(vote, vote, mpi.LogicalAnd); err != nil {
		log.Fatal(err)
	}
	// With 4 ranks, each receives 1+2+3+4 = 10 bytes.
	fmt.Printf("rank %d received %d bytes, all halted: %v\n", r, len(recv), vote[0] == 1)
}
