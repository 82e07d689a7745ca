// Package mpi is Superstep's thin cgo binding to Open MPI: exactly the calls
// a bulk-synchronous (Pregel-style) engine needs to run one superstep per
// round on real processes — start and stop (Init, Finalize, Abort), who am
// I (Rank, Size, ProcessorName), a clock (Wtime), the superstep barrier
// (Barrier), reductions for aggregators and the "all halted" vote
// (AllreduceFloat64, AllreduceInt64), the message exchange (AlltoallInt64
// for the per-pair counts, AlltoallvBytes and AlltoallvFloat64 for the
// payload) and the gathering of per-rank profiles to rank 0 (GathervBytes).
//
// It refuses to know anything else: there are no communicators other than
// MPI_COMM_WORLD, no non-blocking or one-sided calls, no derived datatypes,
// no point-to-point messages, and no knowledge of graphs, vertex programs
// or profiles. It is the only package of Superstep that uses cgo; the
// kernel and the SDK must never import it (a worker command does).
//
// # Threads
//
// Init asks for MPI_THREAD_SERIALIZED and fails if the library offers less.
// MPI_THREAD_FUNNELED would require every MPI call to come from the OS
// thread that called Init, which Go only guarantees with
// runtime.LockOSThread held on that goroutine for the whole run; SERIALIZED
// lets the calls come from any OS thread, which is what a goroutine
// migrating between threads does, as long as no two calls run at the same
// time. The package itself holds no lock (and no other state): the caller
// must make every call from one goroutine, or order them with its own
// synchronisation.
//
// # Errors
//
// After MPI_Init_thread the error handler of MPI_COMM_WORLD is set to
// MPI_ERRORS_RETURN, every return code is checked, and a failure comes
// back as an *Error carrying the name of the call, the code, its class and
// the text of MPI_Error_string. Arguments that MPI would reject or that
// would overflow its int32 counts (different lengths, a count slice whose
// length is not Size(), negative counts, a count or displacement above
// math.MaxInt32, a (count, displacement) pair outside its buffer,
// overlapping send and receive buffers) are Go errors returned before MPI
// is called. Calls made before Init or after Finalize return
// ErrNotInitialized instead of crashing. What one rank cannot check alone
// — that the counts another rank sends match the ones this rank expects,
// or that every rank calls the same collective — remains the caller's
// responsibility, as in MPI.
//
// # Signals
//
// Open MPI's backtrace handlers (MCA parameter opal_signal: SIGSEGV, SIGBUS,
// SIGFPE, SIGILL) are only installed where no handler exists yet; the Go
// runtime installs its own before Init runs, so a nil-pointer dereference
// in Go code after Init still becomes a recoverable panic (the tests check
// this with Open MPI 4.1). Under mpirun, SIGTERM or SIGINT sent to mpirun
// ends every rank and mpirun exits with status 1 about a second later (the
// tests check that no rank process survives); MPI_Abort on any rank ends
// the whole job with the rank named in mpirun's message.
package mpi
