package torus

import (
	"fmt"
	"math/rand/v2"
)

// RankPair is traffic between two ranks of a job: Units from Src to Dst.
type RankPair struct {
	Src, Dst int
	Units    int64
}

// Pattern is a job's communication as rank-pair traffic: Ranks ranks,
// numbered 0..Ranks−1, and the pairs that exchange something, as a plain
// slice (a pair may repeat; MapPairs sums). No pair has Src = Dst.
type Pattern struct {
	Name  string
	Ranks int
	Pairs []RankPair
}

// maxRanks bounds the rank grids the patterns accept.
const maxRanks = 1 << 28

func grid(name string, x, y, z int) (int, error) {
	if x < 1 || y < 1 || z < 1 {
		return 0, fmt.Errorf("torus: %s(%d, %d, %d): every extent must be ≥ 1", name, x, y, z)
	}
	if x > maxRanks/y || x*y > maxRanks/z {
		return 0, fmt.Errorf("torus: %s(%d, %d, %d): more than %d ranks", name, x, y, z, maxRanks)
	}
	return x * y * z, nil
}

// PF3D is a pF3D-like pattern (the laser-plasma code's FFT transposes) on
// an X×Y×Z rank grid, rank = x + X·(y + Y·z): all-to-all along X lines
// (ranks sharing y and z), then along Y lines (ranks sharing x and z),
// one unit per ordered rank pair of a line. Pairs are listed X lines
// first.
func PF3D(X, Y, Z int) (Pattern, error) {
	n, err := grid("PF3D", X, Y, Z)
	if err != nil {
		return Pattern{}, err
	}
	pairs := make([]RankPair, 0, n*(X-1)+n*(Y-1))
	for z := range Z {
		for y := range Y {
			base := X * (y + Y*z)
			for a := range X {
				for b := range X {
					if a != b {
						pairs = append(pairs, RankPair{base + a, base + b, 1})
					}
				}
			}
		}
	}
	for z := range Z {
		for x := range X {
			for a := range Y {
				for b := range Y {
					if a != b {
						pairs = append(pairs, RankPair{x + X*(a+Y*z), x + X*(b+Y*z), 1})
					}
				}
			}
		}
	}
	return Pattern{Name: fmt.Sprintf("pF3D %d×%d×%d", X, Y, Z), Ranks: n, Pairs: pairs}, nil
}

// Stencil6 is a periodic 6-neighbour stencil on an X×Y×Z rank grid, rank =
// x + X·(y + Y·z): every rank sends one unit to each of its ±x, ±y, ±z
// neighbours, wrapping around. A direction whose neighbour is the rank
// itself (extent 1) sends nothing; with extent 2 the + and − neighbours
// coincide and receive one unit each, two in all, as a halo exchange does.
func Stencil6(X, Y, Z int) (Pattern, error) {
	n, err := grid("Stencil6", X, Y, Z)
	if err != nil {
		return Pattern{}, err
	}
	ext := [3]int{X, Y, Z}
	stride := [3]int{1, X, X * Y}
	pairs := make([]RankPair, 0, 6*n)
	for r := range n {
		for d := range 3 {
			k := ext[d]
			if k == 1 {
				continue
			}
			c := r / stride[d] % k
			for _, step := range [2]int{1, k - 1} {
				c2 := (c + step) % k
				pairs = append(pairs, RankPair{r, r + (c2-c)*stride[d], 1})
			}
		}
	}
	return Pattern{Name: fmt.Sprintf("stencil6 %d×%d×%d", X, Y, Z), Ranks: n, Pairs: pairs}, nil
}

// AllToAll is one unit from every rank to every other, n·(n−1) pairs.
func AllToAll(n int) (Pattern, error) {
	if n < 1 || n > 1<<15 {
		return Pattern{}, fmt.Errorf("torus: AllToAll(%d): want 1..%d ranks", n, 1<<15)
	}
	pairs := make([]RankPair, 0, n*(n-1))
	for a := range n {
		for b := range n {
			if a != b {
				pairs = append(pairs, RankPair{a, b, 1})
			}
		}
	}
	return Pattern{Name: fmt.Sprintf("all-to-all %d", n), Ranks: n, Pairs: pairs}, nil
}

// RandomPairs is count pairs of distinct ranks drawn uniformly among n
// ranks, one unit each, from a PCG generator seeded with seed: the same
// seed gives the same pairs.
func RandomPairs(n, count int, seed uint64) (Pattern, error) {
	if n < 2 || n > maxRanks {
		return Pattern{}, fmt.Errorf("torus: RandomPairs(%d, …): want 2..%d ranks", n, maxRanks)
	}
	if count < 0 || count > maxRanks {
		return Pattern{}, fmt.Errorf("torus: RandomPairs(…, %d, …): want 0..%d pairs", count, maxRanks)
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	pairs := make([]RankPair, count)
	for i := range pairs {
		a := rng.IntN(n)
		b := rng.IntN(n - 1)
		if b >= a {
			b++
		}
		pairs[i] = RankPair{a, b, 1}
	}
	return Pattern{Name: fmt.Sprintf("random %d pairs of %d (seed %d)", count, n, seed), Ranks: n, Pairs: pairs}, nil
}
