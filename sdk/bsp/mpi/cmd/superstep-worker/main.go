// Command superstep-worker is one MPI rank of a Superstep job: started by
// mpirun (sdk.RunMPI does that from a notebook), every rank reads the
// same job spec, keeps its own vertices of the graph, runs the vertex
// program on them and exchanges each superstep's messages with the other
// ranks; rank 0 writes the profile, the values and the outcome to the
// spec's output directory (see superstep/sdk/mpijob). A program written in
// notebook cells comes as Go source, which every rank interprets as the
// kernel does (superstep/sdk/mpijob/cellprog).
//
// Usage:
//
//	mpirun -np 4 superstep-worker -spec job/spec.json
//
// It is the only program of Superstep that links MPI (through the cgo
// binding superstep/sdk/bsp/mpi); the kernel starts it and never loads
// MPI itself. A rank that fails prints "superstep-worker: rank N: why" on
// standard error and exits with status 1, and the others stop with it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"superstep/sdk/bsp/mpi"
	"superstep/sdk/mpijob"
	"superstep/sdk/mpijob/cellprog"
)

func main() {
	specPath := flag.String("spec", "", "the job spec (JSON, see superstep/sdk/mpijob.Spec)")
	flag.Parse()
	if *specPath == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: mpirun -np N superstep-worker -spec spec.json")
		os.Exit(2)
	}
	if err := mpi.Init(); err != nil {
		fmt.Fprintln(os.Stderr, "superstep-worker: starting MPI:", err)
		os.Exit(2)
	}
	rank := mpi.Rank()
	err := run(*specPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "superstep-worker: rank %d: %v\n", rank, err)
	}
	// A rank whose transport failed may wait for ever in MPI_Finalize:
	// leave after a grace period (mpirun then ends the others).
	done := make(chan error, 1)
	go func() { done <- mpi.Finalize() }()
	select {
	case ferr := <-done:
		if ferr != nil && err == nil {
			fmt.Fprintf(os.Stderr, "superstep-worker: rank %d: finalizing MPI: %v\n", rank, ferr)
			err = ferr
		}
	case <-time.After(10 * time.Second):
		if err == nil {
			err = fmt.Errorf("MPI_Finalize did not return")
		}
	}
	if err != nil {
		os.Exit(1)
	}
}

func run(specPath string) error {
	spec, err := mpijob.LoadSpec(specPath)
	if err != nil {
		return err
	}
	host, err := mpi.ProcessorName()
	if err != nil {
		return err
	}
	_, err = mpijob.Work(context.Background(), newTransport(), host, spec, cellprog.Program)
	return err
}
