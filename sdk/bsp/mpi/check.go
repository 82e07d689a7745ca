package mpi

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// maxCount is the largest count or displacement MPI's C int can carry.
const maxCount = math.MaxInt32

// ptr is the address of the first element of s, or nil when s is empty
// (MPI accepts a null buffer with a zero count).
func ptr[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// overlap reports whether the byte ranges [a, a+na) and [b, b+nb) share a
// byte. Empty ranges overlap nothing.
func overlap(a unsafe.Pointer, na int, b unsafe.Pointer, nb int) bool {
	if na == 0 || nb == 0 || a == nil || b == nil {
		return false
	}
	x, y := uintptr(a), uintptr(b)
	return x < y+uintptr(nb) && y < x+uintptr(na)
}

// checkReduce validates the buffers of an Allreduce of elements of elem
// bytes: equal lengths, within the int32 count, and either the same slice
// (in place) or disjoint.
func checkReduce(nin, nout, elem int, in, out unsafe.Pointer) error {
	if nin != nout {
		return fmt.Errorf("len(in)=%d differs from len(out)=%d", nin, nout)
	}
	if nout > maxCount {
		return fmt.Errorf("%d elements exceed the MPI count limit %d", nout, maxCount)
	}
	if in != out && overlap(in, elem*nin, out, elem*nout) {
		return errors.New("in and out overlap without being the same slice")
	}
	return nil
}

// countsDispls validates the counts and displacements of one side of an
// Alltoallv or Gatherv over size ranks against a buffer of n elements and
// converts them to the int32 MPI takes. Every count and displacement must
// lie in [0, math.MaxInt32] and every block inside the buffer; blocks may
// overlap each other (MPI allows that on the send side; on the receive
// side it is the caller's business, as in MPI).
func countsDispls(counts, displs []int, n, size int) ([]int32, []int32, error) {
	if len(counts) != size || len(displs) != size {
		return nil, nil, fmt.Errorf("len(counts)=%d and len(displs)=%d must both equal the number of ranks %d", len(counts), len(displs), size)
	}
	c := make([]int32, size)
	d := make([]int32, size)
	for r := range size {
		cnt, dsp := counts[r], displs[r]
		if cnt < 0 || cnt > maxCount {
			return nil, nil, fmt.Errorf("counts[%d]=%d outside [0, %d] (MPI counts are 32-bit)", r, cnt, maxCount)
		}
		if dsp < 0 || dsp > maxCount {
			return nil, nil, fmt.Errorf("displs[%d]=%d outside [0, %d] (MPI displacements are 32-bit)", r, dsp, maxCount)
		}
		if cnt > 0 && dsp+cnt > n {
			return nil, nil, fmt.Errorf("block %d [%d, %d) runs past the buffer of %d elements", r, dsp, dsp+cnt, n)
		}
		c[r], d[r] = int32(cnt), int32(dsp)
	}
	return c, d, nil
}
