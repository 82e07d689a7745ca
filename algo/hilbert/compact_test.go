package hilbert_test

import (
	"math/rand/v2"
	"testing"

	"superstep/algo/hilbert"
)

// TestCompactRoundTrip checks index ∘ inverse = identity and inverse ∘
// index = identity on seeded random shapes of 1 to 8 dimensions, and that
// the inverse stays inside the box.
func TestCompactRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(8)
		b := make([]int, n)
		total := 0
		for j := range b {
			b[j] = rng.IntN(9) // 0..8 bits, some dimensions empty
			if total+b[j] > 64 {
				b[j] = 64 - total
			}
			total += b[j]
		}
		for s := 0; s < 200; s++ {
			var h uint64
			if total > 0 {
				h = rng.Uint64() >> uint(64-total)
			}
			c, err := hilbert.CompactCoord(b, h)
			if err != nil {
				t.Fatalf("CompactCoord(%v, %d): %v", b, h, err)
			}
			for j, x := range c {
				if x>>uint(b[j]) != 0 {
					t.Fatalf("CompactCoord(%v, %d) = %v: coordinate %d out of range", b, h, c, j)
				}
			}
			back, err := hilbert.CompactIndex(b, c)
			if err != nil || back != h {
				t.Fatalf("CompactIndex(%v, CompactCoord(%d) = %v) = %d, %v", b, h, c, back, err)
			}
			// The other way round, from a random point.
			p := make([]uint64, n)
			for j := range p {
				if b[j] > 0 {
					p[j] = rng.Uint64() >> uint(64-b[j])
				}
			}
			h2, err := hilbert.CompactIndex(b, p)
			if err != nil {
				t.Fatal(err)
			}
			p2, _ := hilbert.CompactCoord(b, h2)
			for j := range p {
				if p[j] != p2[j] {
					t.Fatalf("CompactCoord(%v, CompactIndex(%v)) = %v", b, p, p2)
				}
			}
		}
	}
}

// TestCompactBijection enumerates small boxes fully: the indices of all
// points are exactly 0..2^Σbits − 1.
func TestCompactBijection(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(8)
		b := make([]int, n)
		total := 0
		for j := range b {
			b[j] = rng.IntN(3)
			if total+b[j] > 12 {
				b[j] = 0
			}
			total += b[j]
		}
		size := uint64(1) << uint(total)
		seen := make([]bool, size)
		p := make([]uint64, n)
		for v := uint64(0); v < size; v++ {
			// Decode v as a mixed-radix point.
			x := v
			for j := range p {
				p[j] = x & (1<<uint(b[j]) - 1)
				x >>= uint(b[j])
			}
			h, err := hilbert.CompactIndex(b, p)
			if err != nil {
				t.Fatal(err)
			}
			if h >= size || seen[h] {
				t.Fatalf("%v: index %d repeated or out of range", b, h)
			}
			seen[h] = true
		}
	}
}

// TestCompactKeepsCubeOrder checks the defining property of a compact
// Hilbert index (Hamilton & Rau-Chaplin): it orders the points of the box
// as the full Hilbert curve of the enclosing cube 2^M × … × 2^M does.
func TestCompactKeepsCubeOrder(t *testing.T) {
	for _, b := range [][]int{{1, 2, 3}, {3, 2, 1}, {0, 0, 2}, {2, 2, 0}, {2, 1}, {1, 2}, {3, 1, 2, 2}, {2, 2, 2, 2, 1}} {
		M, total := 0, 0
		for _, x := range b {
			M = max(M, x)
			total += x
		}
		cube := make([]int, len(b))
		for j := range cube {
			cube[j] = M
		}
		var prev uint64
		for h := uint64(0); h < 1<<uint(total); h++ {
			c, _ := hilbert.CompactCoord(b, h)
			f, err := hilbert.CompactIndex(cube, c)
			if err != nil {
				t.Fatal(err)
			}
			if h > 0 && f <= prev {
				t.Fatalf("%v: compact %d → cube %d, after cube %d", b, h, f, prev)
			}
			prev = f
		}
	}
}

// TestCompactCubeContinuous: on a cube (equal bit counts) consecutive
// indices are points at unit Manhattan distance, without wrap-around.
func TestCompactCubeContinuous(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for m := 1; m <= 3; m++ {
			b := make([]int, n)
			for j := range b {
				b[j] = m
			}
			prev, _ := hilbert.CompactCoord(b, 0)
			for h := uint64(1); h < 1<<uint(n*m); h++ {
				c, _ := hilbert.CompactCoord(b, h)
				d := 0
				for j := range c {
					d += absDiff(c[j], prev[j])
				}
				if d != 1 {
					t.Fatalf("%v: step %d from %v to %v", b, h, prev, c)
				}
				prev = c
			}
		}
	}
}

func absDiff(a, b uint64) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// skillingAxes is Skilling's TransposetoAxes ("Programming the Hilbert
// curve", 2004), written from the paper's description, and the index
// de-interleave it expects (X[0] holds the most significant bit of each
// group of n).
func skillingAxes(h uint64, n, m int) []uint64 {
	x := make([]uint64, n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			bit := h >> uint((m-1-i)*n+(n-1-j)) & 1
			x[j] |= bit << uint(m-1-i)
		}
	}
	N := uint64(2) << uint(m-1)
	t := x[n-1] >> 1
	for i := n - 1; i > 0; i-- {
		x[i] ^= x[i-1]
	}
	x[0] ^= t
	for q := uint64(2); q != N; q <<= 1 {
		p := q - 1
		for i := n - 1; i >= 0; i-- {
			if x[i]&q != 0 {
				x[0] ^= p
			} else {
				t := (x[0] ^ x[i]) & p
				x[0] ^= t
				x[i] ^= t
			}
		}
	}
	return x
}

// TestSkillingSymmetry: in 2-D (any order) and on the 2^n corners of an
// n-cube, the compact index is Skilling's curve up to a symmetry of the
// cube (a permutation of the axes and reflections, possibly walked
// backwards), the same symmetry for every index. In 3-D and above the
// two are different Hilbert curves (TestHilbertNesting): their sub-cubes
// are turned differently, so no cube symmetry maps one onto the other.
func TestSkillingSymmetry(t *testing.T) {
	for _, nm := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {2, 5}, {3, 1}, {4, 1}, {5, 1}} {
		n, m := nm[0], nm[1]
		{
			b := make([]int, n)
			for j := range b {
				b[j] = m
			}
			size := uint64(1) << uint(n*m)
			mine := make([][]uint64, size)
			sk := make([][]uint64, size)
			for h := range size {
				mine[h], _ = hilbert.CompactCoord(b, h)
				sk[h] = skillingAxes(h, n, m)
			}
			top := uint64(1)<<uint(m) - 1
			found := false
			for rev := 0; rev < 2 && !found; rev++ {
				for _, perm := range permutations(n) {
					for refl := 0; refl < 1<<uint(n) && !found; refl++ {
						ok := true
						for h := uint64(0); h < size && ok; h++ {
							for j := 0; j < n; j++ {
								hs := h
								if rev == 1 {
									hs = size - 1 - h
								}
								v := sk[hs][perm[j]]
								if refl>>uint(j)&1 == 1 {
									v = top - v
								}
								if v != mine[h][j] {
									ok = false
									break
								}
							}
						}
						found = ok
					}
				}
			}
			if !found {
				t.Errorf("n=%d m=%d: no cube symmetry maps Skilling's curve onto the compact index", n, m)
			}
		}
	}
}

func permutations(n int) [][]int {
	if n == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestCompactErrors: bad input is an error, never a panic.
func TestCompactErrors(t *testing.T) {
	if _, err := hilbert.CompactIndex(nil, nil); err == nil {
		t.Error("no dimension: want an error")
	}
	if _, err := hilbert.CompactIndex([]int{2, 2}, []uint64{1}); err == nil {
		t.Error("coordinate count: want an error")
	}
	if _, err := hilbert.CompactIndex([]int{2, 2}, []uint64{4, 0}); err == nil {
		t.Error("coordinate out of range: want an error")
	}
	if _, err := hilbert.CompactIndex([]int{-1}, []uint64{0}); err == nil {
		t.Error("negative bits: want an error")
	}
	if _, err := hilbert.CompactIndex([]int{40, 30}, []uint64{0, 0}); err == nil {
		t.Error("70 bits: want an error")
	}
	if _, err := hilbert.CompactIndex(make([]int, 65), make([]uint64, 65)); err == nil {
		t.Error("65 dimensions: want an error")
	}
	if _, err := hilbert.CompactCoord([]int{2, 2}, 16); err == nil {
		t.Error("index out of range: want an error")
	}
	// 64 bits in all is allowed.
	h, err := hilbert.CompactIndex([]int{32, 32}, []uint64{1<<32 - 1, 12345})
	if err != nil {
		t.Fatal(err)
	}
	c, err := hilbert.CompactCoord([]int{32, 32}, h)
	if err != nil || c[0] != 1<<32-1 || c[1] != 12345 {
		t.Errorf("64-bit round trip: %v, %v", c, err)
	}
	h, err = hilbert.CompactIndex([]int{64}, []uint64{^uint64(0)})
	if err != nil {
		t.Fatal(err)
	}
	c, _ = hilbert.CompactCoord([]int{64}, h)
	if c[0] != ^uint64(0) {
		t.Errorf("1-D 64 bits: %v", c)
	}
}

// TestHilbertNesting checks what makes both the compact index and
// Skilling's curve Hilbert curves on the cube of side 2^m in n
// dimensions: unit steps, and at every level k the 2^(n·k) consecutive
// indices of each aligned range fill one aligned sub-cube of side 2^k.
func TestHilbertNesting(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for m := 1; m <= 3; m++ {
			b := make([]int, n)
			for j := range b {
				b[j] = m
			}
			mine := func(h uint64) []uint64 { c, _ := hilbert.CompactCoord(b, h); return c }
			sk := func(h uint64) []uint64 { return skillingAxes(h, n, m) }
			for name, curve := range map[string]func(uint64) []uint64{"compact": mine, "Skilling": sk} {
				size := uint64(1) << uint(n*m)
				prev := curve(0)
				for h := uint64(1); h < size; h++ {
					c := curve(h)
					d := 0
					for j := range c {
						d += absDiff(c[j], prev[j])
					}
					if d != 1 {
						t.Fatalf("%s n=%d m=%d: step %d is %d long", name, n, m, h, d)
					}
					prev = c
				}
				for k := 1; k < m; k++ {
					block := uint64(1) << uint(n*k)
					for start := uint64(0); start < size; start += block {
						first := curve(start)
						for h := start; h < start+block; h++ {
							c := curve(h)
							for j := range c {
								if c[j]>>uint(k) != first[j]>>uint(k) {
									t.Fatalf("%s n=%d m=%d: indices %d..%d leave the sub-cube of side %d", name, n, m, start, start+block-1, 1<<k)
								}
							}
						}
					}
				}
			}
		}
	}
}
