package fattree

import (
	"fmt"
	"math"
	"slices"
)

// Pattern is a communication pattern over the ranks 0..n−1 of a job: which
// ordered pairs of ranks (source, destination) exchange traffic. Every
// ordered pair occurs at most once and never from a rank to itself; the
// traffic of a pair is the job's BytesPerPair. The zero Pattern is
// all-to-all. Make one with AllToAll, Ring, Shift, Stencil3D, Transpose,
// Gather, Scatter or Permutation.
type Pattern struct {
	kind       patternKind
	k          int    // Shift
	px, py, pz int    // Stencil3D
	wrap       bool   // Stencil3D
	seed       uint64 // Permutation
}

type patternKind uint8

const (
	allToAll patternKind = iota
	shift
	stencil3D
	transpose
	gather
	scatter
	permutation
)

// AllToAll is every ordered pair of distinct ranks: n·(n−1) pairs.
func AllToAll() Pattern { return Pattern{kind: allToAll} }

// Ring is rank i sending to rank i+1 mod n: n pairs (none for n = 1, and
// one pair each way for n = 2). It is Shift(1).
func Ring() Pattern { return Shift(1) }

// Shift is rank i sending to rank (i+k) mod n, k of any sign; the pattern
// has no pairs when k is a multiple of n.
func Shift(k int) Pattern { return Pattern{kind: shift, k: k} }

// Stencil3D is the 6-point stencil of a px×py×pz grid of n = px·py·pz
// ranks, rank i at (x, y, z) with i = x + px·(y + py·z): every rank sends
// to its neighbours at ±1 in each dimension. With wrap the grid is a torus
// (x = px−1 neighbours x = 0); without it a rank on a face has no
// neighbour across it. A neighbour that is the rank itself (an extent of
// 1 with wrap) or that appears twice (an extent of 2 with wrap, where
// −1 and +1 are the same rank) counts once.
func Stencil3D(px, py, pz int, wrap bool) Pattern {
	return Pattern{kind: stencil3D, px: px, py: py, pz: pz, wrap: wrap}
}

// Transpose is the matrix transpose on a square m×m grid of n = m² ranks,
// rank i = m·r + c at row r, column c: rank (r, c) sends to rank (c, r).
// The m ranks of the diagonal send nothing: n − m pairs.
func Transpose() Pattern { return Pattern{kind: transpose} }

// Gather is every rank but 0 sending to rank 0: n − 1 pairs.
func Gather() Pattern { return Pattern{kind: gather} }

// Scatter is rank 0 sending to every other rank: n − 1 pairs.
func Scatter() Pattern { return Pattern{kind: scatter} }

// Permutation is rank i sending to rank π(i), π a permutation of 0..n−1
// drawn from seed (a Fisher–Yates shuffle driven by SplitMix64, the same on
// every run and machine); fixed points of π send nothing.
func Permutation(seed uint64) Pattern { return Pattern{kind: permutation, seed: seed} }

// String names the pattern, e.g. "ring", "shift(-3)", "stencil 4×4×2
// (wrap)", "permutation(seed 7)".
func (p Pattern) String() string {
	switch p.kind {
	case allToAll:
		return "all-to-all"
	case shift:
		if p.k == 1 {
			return "ring"
		}
		return fmt.Sprintf("shift(%d)", p.k)
	case stencil3D:
		w := "no wrap"
		if p.wrap {
			w = "wrap"
		}
		return fmt.Sprintf("stencil %d×%d×%d (%s)", p.px, p.py, p.pz, w)
	case transpose:
		return "transpose"
	case gather:
		return "gather"
	case scatter:
		return "scatter"
	case permutation:
		return fmt.Sprintf("permutation(seed %d)", p.seed)
	}
	return fmt.Sprintf("Pattern(%d)", p.kind)
}

// Check reports why p cannot run on n ranks, or nil: n must be at least
// 1, px·py·pz for a stencil (each extent at least 1) and a perfect square
// for a transpose.
func (p Pattern) Check(n int) error {
	if n < 1 {
		return fmt.Errorf("fattree: %v on %d ranks, want at least 1", p, n)
	}
	switch p.kind {
	case stencil3D:
		if p.px < 1 || p.py < 1 || p.pz < 1 {
			return fmt.Errorf("fattree: %v: every extent must be at least 1", p)
		}
		if p.px*p.py*p.pz != n {
			return fmt.Errorf("fattree: %v has %d ranks, the job %d", p, p.px*p.py*p.pz, n)
		}
	case transpose:
		if m := isqrt(n); m*m != n {
			return fmt.Errorf("fattree: transpose on %d ranks, want a square number", n)
		}
	case allToAll, shift, gather, scatter, permutation:
	default:
		return fmt.Errorf("fattree: unknown pattern %v", p)
	}
	return nil
}

func isqrt(n int) int {
	m := int(math.Sqrt(float64(n)))
	for m*m > n {
		m--
	}
	for (m+1)*(m+1) <= n {
		m++
	}
	return m
}

// Pairs lists the ordered pairs [source, destination] of p on n ranks,
// grouped by destination in increasing order, sources increasing within a
// destination. It is for looking at small patterns: the loads functions
// never list an all-to-all's n² pairs.
func (p Pattern) Pairs(n int) ([][2]int, error) {
	src, err := p.sourcer(n)
	if err != nil {
		return nil, err
	}
	var out [][2]int
	var buf []int
	for d := range n {
		buf = src.sources(d, buf[:0])
		for _, s := range buf {
			out = append(out, [2]int{s, d})
		}
	}
	return out, nil
}

// sourcer answers, for a pattern on n ranks, which ranks send to a rank.
type sourcer struct {
	p   Pattern
	n   int
	inv []int // Permutation: inv[π(i)] = i
	m   int   // Transpose: side of the grid
}

func (p Pattern) sourcer(n int) (*sourcer, error) {
	if err := p.Check(n); err != nil {
		return nil, err
	}
	s := &sourcer{p: p, n: n}
	switch p.kind {
	case permutation:
		perm := permute(n, p.seed)
		s.inv = make([]int, n)
		for i, v := range perm {
			s.inv[v] = i
		}
	case transpose:
		s.m = isqrt(n)
	}
	return s, nil
}

// permute is a permutation of 0..n−1 drawn from seed.
func permute(n int, seed uint64) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	state := seed
	for i := n - 1; i > 0; i-- {
		state += 0x9e3779b97f4a7c15
		j := int(mix(state) % uint64(i+1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm
}

// count is the number of pairs of the pattern without listing them.
func (s *sourcer) count() int64 {
	n := int64(s.n)
	switch s.p.kind {
	case allToAll:
		return n * (n - 1)
	case gather, scatter:
		return n - 1
	}
	var total int64
	var buf []int
	for d := range s.n {
		buf = s.sources(d, buf[:0])
		total += int64(len(buf))
	}
	return total
}

// sources appends to buf the ranks that send to rank d, in increasing
// order.
func (s *sourcer) sources(d int, buf []int) []int {
	n := s.n
	switch s.p.kind {
	case allToAll:
		for i := range n {
			if i != d {
				buf = append(buf, i)
			}
		}
	case shift:
		if k := ((s.p.k % n) + n) % n; k != 0 {
			buf = append(buf, (d-k+n)%n)
		}
	case gather:
		if d == 0 {
			for i := 1; i < n; i++ {
				buf = append(buf, i)
			}
		}
	case scatter:
		if d != 0 {
			buf = append(buf, 0)
		}
	case permutation:
		if i := s.inv[d]; i != d {
			buf = append(buf, i)
		}
	case transpose:
		r, c := d/s.m, d%s.m
		if r != c {
			buf = append(buf, c*s.m+r)
		}
	case stencil3D:
		// The pattern is symmetric: d's sources are its neighbours.
		px, py, pz := s.p.px, s.p.py, s.p.pz
		x, y, z := d%px, d/px%py, d/(px*py)
		start := len(buf)
		add := func(x, y, z int) {
			buf = append(buf, x+px*(y+py*z))
		}
		for _, dim := range [3]struct {
			v, ext int
			at     func(v int)
		}{
			{x, px, func(v int) { add(v, y, z) }},
			{y, py, func(v int) { add(x, v, z) }},
			{z, pz, func(v int) { add(x, y, v) }},
		} {
			for _, step := range [2]int{-1, 1} {
				v := dim.v + step
				if v < 0 || v >= dim.ext {
					if !s.p.wrap {
						continue
					}
					v = (v + dim.ext) % dim.ext
				}
				dim.at(v)
			}
		}
		nb := buf[start:]
		slices.Sort(nb)
		nb = slices.Compact(nb)
		if i, ok := slices.BinarySearch(nb, d); ok {
			nb = slices.Delete(nb, i, i+1)
		}
		buf = buf[:start+len(nb)]
	}
	return buf
}
