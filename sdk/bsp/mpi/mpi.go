package mpi

/*
#cgo pkg-config: ompi-c
#include <stdlib.h>
#include <mpi.h>

enum { ssByte = 0, ssInt64 = 1, ssFloat64 = 2 };
enum { ssSum = 0, ssMin = 1, ssMax = 2, ssLand = 3, ssLor = 4 };

static MPI_Datatype ss_type(int t) {
	switch (t) {
	case ssInt64: return MPI_INT64_T;
	case ssFloat64: return MPI_DOUBLE;
	default: return MPI_BYTE;
	}
}

static MPI_Op ss_op(int o) {
	switch (o) {
	case ssMin: return MPI_MIN;
	case ssMax: return MPI_MAX;
	case ssLand: return MPI_LAND;
	case ssLor: return MPI_LOR;
	default: return MPI_SUM;
	}
}

// ss_state reports 0 before MPI_Init, 1 while MPI is usable, 2 after MPI_Finalize.
static int ss_state(void) {
	int init = 0, fin = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (fin) return 2;
	return init ? 1 : 0;
}

static int ss_init(int *provided) {
	int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, provided);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

static int ss_thread_serialized(void) { return MPI_THREAD_SERIALIZED; }
static int ss_max_processor_name(void) { return MPI_MAX_PROCESSOR_NAME; }

static int ss_rank(int *r) { return MPI_Comm_rank(MPI_COMM_WORLD, r); }
static int ss_size(int *s) { return MPI_Comm_size(MPI_COMM_WORLD, s); }
static int ss_abort(int code) { return MPI_Abort(MPI_COMM_WORLD, code); }
static int ss_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }

static int ss_allreduce(void *in, void *out, int n, int t, int o) {
	return MPI_Allreduce((in == out && in != NULL) ? MPI_IN_PLACE : in, out, n, ss_type(t), ss_op(o), MPI_COMM_WORLD);
}

static int ss_alltoall(void *send, void *recv, int t) {
	return MPI_Alltoall(send, 1, ss_type(t), recv, 1, ss_type(t), MPI_COMM_WORLD);
}

static int ss_alltoallv(void *send, int *sc, int *sd, void *recv, int *rc, int *rd, int t) {
	return MPI_Alltoallv(send, sc, sd, ss_type(t), recv, rc, rd, ss_type(t), MPI_COMM_WORLD);
}

static int ss_gatherv(void *send, int n, void *recv, int *rc, int *rd, int root, int t) {
	return MPI_Gatherv(send, n, ss_type(t), recv, rc, rd, ss_type(t), root, MPI_COMM_WORLD);
}

static int ss_error_string(int code, char *buf, int *len) { return MPI_Error_string(code, buf, len); }
static int ss_error_class(int code, int *cls) { return MPI_Error_class(code, cls); }
static int ss_max_error_string(void) { return MPI_MAX_ERROR_STRING; }
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"unsafe"
)

// Op is a reduction operation for AllreduceFloat64 and AllreduceInt64.
type Op int

const (
	// Sum adds the values of all ranks (MPI_SUM).
	Sum Op = iota
	// Min keeps the smallest value (MPI_MIN).
	Min
	// Max keeps the largest value (MPI_MAX).
	Max
	// LogicalAnd is 1 when every rank's value is non-zero, else 0
	// (MPI_LAND); it is the "all halted" vote. Integers only: MPI defines
	// no logical operation on floating point.
	LogicalAnd
	// LogicalOr is 1 when any rank's value is non-zero, else 0 (MPI_LOR).
	// Integers only.
	LogicalOr
)

// String returns the MPI name of the operation.
func (o Op) String() string {
	switch o {
	case Sum:
		return "MPI_SUM"
	case Min:
		return "MPI_MIN"
	case Max:
		return "MPI_MAX"
	case LogicalAnd:
		return "MPI_LAND"
	case LogicalOr:
		return "MPI_LOR"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// element kinds, as understood by ss_type in the C preamble.
const (
	kindByte    = 0
	kindInt64   = 1
	kindFloat64 = 2
)

// ErrNotInitialized is returned by calls made before Init or after Finalize.
var ErrNotInitialized = errors.New("mpi: MPI is not initialized (call Init first) or already finalized")

// Error is a failed MPI call.
type Error struct {
	Call  string // the MPI function, e.g. "MPI_Alltoallv"
	Code  int    // the return code
	Class int    // its error class (MPI_Error_class)
	Text  string // MPI_Error_string of the code
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("mpi: %s failed with code %d (class %d): %s", e.Call, e.Code, e.Class, e.Text)
}

// check turns an MPI return code into nil or an *Error.
func check(call string, rc C.int) error {
	if rc == C.MPI_SUCCESS {
		return nil
	}
	e := &Error{Call: call, Code: int(rc), Class: -1}
	var cls C.int
	if C.ss_error_class(rc, &cls) == C.MPI_SUCCESS {
		e.Class = int(cls)
	}
	buf := make([]byte, int(C.ss_max_error_string())+1)
	var n C.int
	if C.ss_error_string(rc, (*C.char)(unsafe.Pointer(&buf[0])), &n) == C.MPI_SUCCESS && n > 0 && int(n) <= len(buf) {
		e.Text = string(buf[:n])
	} else {
		e.Text = "unknown MPI error"
	}
	return e
}

// usable returns ErrNotInitialized unless MPI is between Init and Finalize.
func usable() error {
	if C.ss_state() != 1 {
		return ErrNotInitialized
	}
	return nil
}

// Init starts MPI (MPI_Init_thread asking for MPI_THREAD_SERIALIZED) and
// sets MPI_ERRORS_RETURN on MPI_COMM_WORLD. Command-line arguments are not
// passed to MPI (mpirun gives ranks their setup through the environment).
// Init may be called once per process; a second call, or a call after
// Finalize, is an error.
func Init() error {
	switch C.ss_state() {
	case 1:
		return errors.New("mpi: Init called twice")
	case 2:
		return errors.New("mpi: Init called after Finalize (MPI cannot be restarted)")
	}
	var provided C.int
	if err := check("MPI_Init_thread", C.ss_init(&provided)); err != nil {
		return err
	}
	if provided < C.ss_thread_serialized() {
		return fmt.Errorf("mpi: the MPI library provides thread level %d, below MPI_THREAD_SERIALIZED (%d)", int(provided), int(C.ss_thread_serialized()))
	}
	return nil
}

// Finalize ends MPI (MPI_Finalize). Every rank must call it; afterwards
// every call of this package returns ErrNotInitialized.
func Finalize() error {
	if err := usable(); err != nil {
		return err
	}
	return check("MPI_Finalize", C.MPI_Finalize())
}

// Rank is this process's rank in MPI_COMM_WORLD, or -1 outside Init…Finalize.
func Rank() int {
	if usable() != nil {
		return -1
	}
	var r C.int
	if C.ss_rank(&r) != C.MPI_SUCCESS {
		return -1
	}
	return int(r)
}

// Size is the number of ranks in MPI_COMM_WORLD, or 0 outside Init…Finalize.
func Size() int {
	if usable() != nil {
		return 0
	}
	var s C.int
	if C.ss_size(&s) != C.MPI_SUCCESS {
		return 0
	}
	return int(s)
}

// ProcessorName is the name of the host this rank runs on
// (MPI_Get_processor_name).
func ProcessorName() (string, error) {
	if err := usable(); err != nil {
		return "", err
	}
	buf := make([]byte, int(C.ss_max_processor_name())+1)
	var n C.int
	if err := check("MPI_Get_processor_name", C.MPI_Get_processor_name((*C.char)(unsafe.Pointer(&buf[0])), &n)); err != nil {
		return "", err
	}
	if n < 0 || int(n) > len(buf) {
		return "", fmt.Errorf("mpi: MPI_Get_processor_name returned length %d", int(n))
	}
	return string(buf[:n]), nil
}

// Wtime is MPI's wall clock in seconds since an arbitrary point in the
// past (MPI_Wtime). Only differences are meaningful.
func Wtime() float64 {
	return float64(C.MPI_Wtime())
}

// Abort ends every rank of the job with the given exit code
// (MPI_Abort on MPI_COMM_WORLD); outside Init…Finalize it exits this
// process with the code. It does not return. It first writes
// "mpi: MPI_Abort on rank R with exit code C" to standard error: Open
// MPI's own notice, which names the rank too, is sometimes lost on its
// way to mpirun (ORTE's show_help fails to unpack it).
func Abort(code int) {
	if usable() == nil {
		fmt.Fprintf(os.Stderr, "mpi: MPI_Abort on rank %d with exit code %d\n", Rank(), code)
		C.ss_abort(C.int(code))
	}
	os.Exit(code)
}

// Barrier blocks until every rank has called it (MPI_Barrier).
func Barrier() error {
	if err := usable(); err != nil {
		return err
	}
	return check("MPI_Barrier", C.ss_barrier())
}

// AllreduceFloat64 combines in element-wise over all ranks with op and
// stores the result in out on every rank (MPI_Allreduce on MPI_DOUBLE).
// in and out must have the same length on every rank; they may be the
// same slice (MPI_IN_PLACE) but must not otherwise overlap. Only Sum, Min
// and Max apply to float64.
func AllreduceFloat64(in, out []float64, op Op) error {
	if op != Sum && op != Min && op != Max {
		return fmt.Errorf("mpi: AllreduceFloat64: %v is not defined on float64 (use Sum, Min or Max)", op)
	}
	if err := checkReduce(len(in), len(out), 8, ptr(in), ptr(out)); err != nil {
		return fmt.Errorf("mpi: AllreduceFloat64: %w", err)
	}
	if err := usable(); err != nil {
		return err
	}
	return check("MPI_Allreduce", C.ss_allreduce(ptr(in), ptr(out), C.int(len(out)), kindFloat64, C.int(op)))
}

// AllreduceInt64 combines in element-wise over all ranks with op and
// stores the result in out on every rank (MPI_Allreduce on MPI_INT64_T).
// Same rules as AllreduceFloat64; all five operations apply, LogicalAnd
// being the "every vertex has halted" vote (1 = halted).
func AllreduceInt64(in, out []int64, op Op) error {
	if op < Sum || op > LogicalOr {
		return fmt.Errorf("mpi: AllreduceInt64: unknown operation %v", op)
	}
	if err := checkReduce(len(in), len(out), 8, ptr(in), ptr(out)); err != nil {
		return fmt.Errorf("mpi: AllreduceInt64: %w", err)
	}
	if err := usable(); err != nil {
		return err
	}
	if err := check("MPI_Allreduce", C.ss_allreduce(ptr(in), ptr(out), C.int(len(out)), kindInt64, C.int(op))); err != nil {
		return err
	}
	if op == LogicalAnd || op == LogicalOr {
		// Open MPI returns the input unchanged on a single rank (7 stays 7);
		// make the answer 0 or 1 whatever the number of ranks.
		for i, v := range out {
			if v != 0 {
				out[i] = 1
			}
		}
	}
	return nil
}

// AlltoallInt64 sends send[d] to rank d and stores in recv[s] what rank s
// sent to this rank (MPI_Alltoall, one MPI_INT64_T per pair): the exchange
// of message counts before AlltoallvBytes. Both slices must have length
// Size() and must not overlap.
func AlltoallInt64(send, recv []int64) error {
	if err := usable(); err != nil {
		return err
	}
	n := Size()
	if len(send) != n || len(recv) != n {
		return fmt.Errorf("mpi: AlltoallInt64: len(send)=%d and len(recv)=%d must both equal Size()=%d", len(send), len(recv), n)
	}
	if overlap(ptr(send), 8*len(send), ptr(recv), 8*len(recv)) {
		return errors.New("mpi: AlltoallInt64: send and recv overlap")
	}
	return check("MPI_Alltoall", C.ss_alltoall(ptr(send), ptr(recv), kindInt64))
}

// AlltoallvBytes sends send[sendDispls[d]:sendDispls[d]+sendCounts[d]] to
// rank d and receives from rank s into
// recv[recvDispls[s]:recvDispls[s]+recvCounts[s]] (MPI_Alltoallv on
// MPI_BYTE). The four count and displacement slices must have length
// Size(); counts and displacements are C ints in MPI, so each must lie in
// [0, math.MaxInt32] (in particular no byte beyond offset 2^31-1 of a
// buffer can be addressed: split larger exchanges into several calls).
// recvCounts[s] must equal what rank s puts in its sendCounts for this
// rank (exchange them with AlltoallInt64 first). Empty slices are fine.
func AlltoallvBytes(send []byte, sendCounts, sendDispls []int, recv []byte, recvCounts, recvDispls []int) error {
	return alltoallv("AlltoallvBytes", kindByte, 1, ptr(send), len(send), sendCounts, sendDispls, ptr(recv), len(recv), recvCounts, recvDispls)
}

// AlltoallvFloat64 is AlltoallvBytes for float64 elements: counts and
// displacements are in elements, not bytes (MPI_Alltoallv on MPI_DOUBLE).
func AlltoallvFloat64(send []float64, sendCounts, sendDispls []int, recv []float64, recvCounts, recvDispls []int) error {
	return alltoallv("AlltoallvFloat64", kindFloat64, 8, ptr(send), len(send), sendCounts, sendDispls, ptr(recv), len(recv), recvCounts, recvDispls)
}

// cints views a non-empty []int32 as the C int array MPI expects (C int
// is 32 bits on every platform Open MPI supports).
func cints(s []int32) *C.int {
	return (*C.int)(unsafe.Pointer(&s[0]))
}

func alltoallv(name string, kind, elem int, send unsafe.Pointer, nsend int, sc, sd []int, recv unsafe.Pointer, nrecv int, rc, rd []int) error {
	if err := usable(); err != nil {
		return err
	}
	size := Size()
	csc, csd, err := countsDispls(sc, sd, nsend, size)
	if err != nil {
		return fmt.Errorf("mpi: %s: send: %w", name, err)
	}
	crc, crd, err := countsDispls(rc, rd, nrecv, size)
	if err != nil {
		return fmt.Errorf("mpi: %s: recv: %w", name, err)
	}
	if overlap(send, elem*nsend, recv, elem*nrecv) {
		return fmt.Errorf("mpi: %s: send and recv buffers overlap", name)
	}
	return check("MPI_Alltoallv", C.ss_alltoallv(send, cints(csc), cints(csd), recv, cints(crc), cints(crd), C.int(kind)))
}

// GathervBytes gathers every rank's send slice on rank root, rank s's bytes
// landing in recv[displs[s]:displs[s]+counts[s]] (MPI_Gatherv on MPI_BYTE).
// On root, counts and displs must have length Size(), counts[s] must be
// the length rank s sends (gather the lengths first, e.g. with
// AllreduceInt64 or a fixed-size GathervBytes) and the same int32 limits
// as AlltoallvBytes apply; on other ranks recv, counts and displs are
// ignored and may be nil. root must be the same on every rank.
func GathervBytes(send []byte, recv []byte, counts, displs []int, root int) error {
	if err := usable(); err != nil {
		return err
	}
	size := Size()
	if root < 0 || root >= size {
		return fmt.Errorf("mpi: GathervBytes: root %d outside [0, %d)", root, size)
	}
	if len(send) > maxCount {
		return fmt.Errorf("mpi: GathervBytes: %d bytes to send exceed the MPI count limit %d", len(send), maxCount)
	}
	if Rank() != root {
		return check("MPI_Gatherv", C.ss_gatherv(ptr(send), C.int(len(send)), nil, nil, nil, C.int(root), kindByte))
	}
	cc, cd, err := countsDispls(counts, displs, len(recv), size)
	if err != nil {
		return fmt.Errorf("mpi: GathervBytes: %w", err)
	}
	if counts[root] != len(send) {
		return fmt.Errorf("mpi: GathervBytes: root sends %d bytes but counts[%d]=%d", len(send), root, counts[root])
	}
	if overlap(ptr(send), len(send), ptr(recv), len(recv)) {
		return errors.New("mpi: GathervBytes: send and recv overlap")
	}
	return check("MPI_Gatherv", C.ss_gatherv(ptr(send), C.int(len(send)), ptr(recv), cints(cc), cints(cd), C.int(root), kindByte))
}
