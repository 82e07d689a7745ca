package hilbert

import (
	"errors"
	"fmt"
	"math/bits"
)

// MaxDims is the largest number of dimensions CompactIndex accepts: one
// bit of a Gray-code word per dimension must fit in a uint64.
const MaxDims = 64

// checkBits validates per-dimension bit counts and returns their sum and
// maximum.
func checkBits(b []int) (total, maxBits int, err error) {
	if len(b) == 0 {
		return 0, 0, errors.New("hilbert: no dimension")
	}
	if len(b) > MaxDims {
		return 0, 0, fmt.Errorf("hilbert: %d dimensions, at most %d", len(b), MaxDims)
	}
	for j, m := range b {
		if m < 0 || m > 64 {
			return 0, 0, fmt.Errorf("hilbert: dimension %d has %d bits, want 0..64", j, m)
		}
		total += m
		if m > maxBits {
			maxBits = m
		}
	}
	if total > 64 {
		return 0, 0, fmt.Errorf("hilbert: %d bits in all, at most 64", total)
	}
	return total, maxBits, nil
}

// lowMask is the mask of the n low bits.
func lowMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// rotr rotates the n-bit word x right by r (0 ≤ r < n).
func rotr(x uint64, r, n int) uint64 {
	if r == 0 {
		return x
	}
	return (x>>uint(r) | x<<uint(n-r)) & lowMask(n)
}

// rotl rotates the n-bit word x left by r (0 ≤ r < n).
func rotl(x uint64, r, n int) uint64 {
	if r == 0 {
		return x
	}
	return (x<<uint(r) | x>>uint(n-r)) & lowMask(n)
}

// entry is e(w), the entry corner of sub-cube w of the Gray-code walk.
func entry(w uint64) uint64 {
	if w == 0 {
		return 0
	}
	v := (w - 1) &^ 1
	return v ^ v>>1
}

// direction is d(w), the dimension along which sub-cube w is left
// (Hamilton's intra-sub-cube direction), modulo n.
func direction(w uint64, n int) int {
	switch {
	case w == 0:
		return 0
	case w&1 == 0:
		return bits.TrailingZeros64(^(w - 1)) % n
	default:
		return bits.TrailingZeros64(^w) % n
	}
}

// levelMasks returns, for each level i < M, the mask of the dimensions
// (bit j for dimension j) that still have a bit at level i: b[j] > i.
// Rotated like T_(e,d), it is Hamilton's extractMask.
func levelMasks(b []int, M int) []uint64 {
	masks := make([]uint64, M)
	for i := range masks {
		for j, m := range b {
			if m > i {
				masks[i] |= 1 << uint(j)
			}
		}
	}
	return masks
}

// CompactIndex returns the compact Hilbert index (Hamilton & Rau-Chaplin,
// "Compact Hilbert indices", IPL 2008) of coord in the box of side
// 2^bits[j] along dimension j. The index lies in 0 .. 2^Σbits − 1 and
// orders the box's points as the Hilbert curve of the enclosing cube (all
// sides 2^max bits) does. On a cube, consecutive indices are points at
// unit distance; on a box with unequal sides they need not be, even
// counting wrap-around (see Order).
//
// Orientation: dimension 0 is the one the curve steps along first; on
// 4×4 the walk starts (0,0) (1,0) (1,1) (0,1) and ends at (3,0). In 2-D
// this is Skilling's transpose curve ("Programming the Hilbert curve",
// 2004) up to a symmetry of the square; in 3-D and above both are
// Hilbert curves but their sub-cubes turn differently. Up to MaxDims
// dimensions and 64 bits in all; a dimension with 0 bits is allowed (its
// coordinate must be 0). Bad input gives an error, never a panic.
func CompactIndex(bitsPerDim []int, coord []uint64) (uint64, error) {
	_, M, err := checkBits(bitsPerDim)
	if err != nil {
		return 0, err
	}
	if len(coord) != len(bitsPerDim) {
		return 0, fmt.Errorf("hilbert: %d coordinates for %d dimensions", len(coord), len(bitsPerDim))
	}
	for j, x := range coord {
		if x&^lowMask(bitsPerDim[j]) != 0 || (bitsPerDim[j] == 0 && x != 0) {
			return 0, fmt.Errorf("hilbert: coordinate %d = %d needs more than %d bits", j, x, bitsPerDim[j])
		}
	}
	return compactIndex(levelMasks(bitsPerDim, M), len(bitsPerDim), coord), nil
}

// compactIndex is CompactIndex on checked input in n dimensions, given
// the level masks (levelMasks).
func compactIndex(masks []uint64, n int, p []uint64) uint64 {
	var h, e uint64
	d := 0
	for i := len(masks) - 1; i >= 0; i-- {
		rot := (d + 1) % n
		mu := rotr(masks[i], rot, n)
		var l uint64
		for j := 0; j < n; j++ {
			l |= (p[j] >> uint(i) & 1) << uint(j)
		}
		t := rotr(l^e, rot, n)
		w := grayInverse(t)
		// Gray-code rank: the bits of w under mu, high to low.
		var r uint64
		for m := mu; m != 0; {
			j := bits.Len64(m) - 1
			r = r<<1 | w>>uint(j)&1
			m &^= 1 << uint(j)
		}
		h = h<<uint(bits.OnesCount64(mu)) | r
		e ^= rotl(entry(w), rot, n)
		d = (d + direction(w, n) + 1) % n
	}
	return h
}

// CompactCoord is the inverse of CompactIndex: the point of index idx in
// the box of side 2^bits[j] along dimension j. An index outside
// 0 .. 2^Σbits − 1 is an error.
func CompactCoord(bitsPerDim []int, idx uint64) ([]uint64, error) {
	total, M, err := checkBits(bitsPerDim)
	if err != nil {
		return nil, err
	}
	if idx&^lowMask(total) != 0 {
		return nil, fmt.Errorf("hilbert: index %d needs more than %d bits", idx, total)
	}
	n := len(bitsPerDim)
	masks := levelMasks(bitsPerDim, M)
	p := make([]uint64, n)
	var e uint64
	d := 0
	k := 0
	for i := M - 1; i >= 0; i-- {
		mu := rotr(masks[i], (d+1)%n, n)
		r := bits.OnesCount64(mu)
		var rb uint64
		if r > 0 {
			rb = idx >> uint(total-k-r) & lowMask(r)
		}
		k += r
		pi := rotr(e, (d+1)%n, n) &^ mu
		// Gray-code rank inverse: rebuild w (and t = gc(w)) from the free
		// bits rb under mu and the fixed bits pi elsewhere.
		var w, t uint64
		var prev uint64 // bit k+1 of w
		jj := r - 1
		for j := n - 1; j >= 0; j-- {
			var wb, tb uint64
			if mu>>uint(j)&1 == 1 {
				wb = rb >> uint(jj) & 1
				jj--
				tb = wb ^ prev
			} else {
				tb = pi >> uint(j) & 1
				wb = tb ^ prev
			}
			w |= wb << uint(j)
			t |= tb << uint(j)
			prev = wb
		}
		l := rotl(t, (d+1)%n, n) ^ e
		for j := 0; j < n; j++ {
			p[j] |= (l >> uint(j) & 1) << uint(i)
		}
		e ^= rotl(entry(w), (d+1)%n, n)
		d = (d + direction(w, n) + 1) % n
	}
	return p, nil
}

// grayInverse inverts the Gray code g = w ^ w>>1.
func grayInverse(g uint64) uint64 {
	for s := uint(1); s < 64; s <<= 1 {
		g ^= g >> s
	}
	return g
}
