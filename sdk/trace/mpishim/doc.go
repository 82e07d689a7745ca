// Package mpishim builds and runs superstep_mpishim.c, a small C PMPI
// library that records the point-to-point messages of an MPI program into an
// OTF2 archive, together with the plain MPI test programs in testdata
// (grid.c, ring.c). See README.md for the library itself.
//
// The Go side is only a test helper: Build compiles the library, BuildProgram
// compiles a test program, Run starts a job with mpirun (optionally under
// the library and/or Open MPI's pml_monitoring). It needs mpicc, mpirun and,
// for checking, otf2-print on PATH; Missing reports which are absent.
//
// It refuses to know how to read OTF2 or monitoring files (sdk/trace/otf2 and
// sdk/trace/ompimon do that) and imports no other superstep package.
package mpishim
