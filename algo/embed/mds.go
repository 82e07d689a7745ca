package embed

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ClassicalMDS embeds the n points of the full distance matrix d in dim
// dimensions by classical (Torgerson–Gower) multidimensional scaling:
//
//	B = −½ J D⁽²⁾ J,  J = I − 11ᵀ/n,  D⁽²⁾_ij = d_ij²,
//
// then x_i[k] = √λ_k · e_k[i] for the dim largest eigenvalues λ_k of B
// with unit eigenvectors e_k (gonum's mat.EigenSym). An eigenvalue ≤ 0
// (d is not Euclidean in that many dimensions) gives a zero axis.
//
// Sign convention: each eigenvector is flipped so that its component of
// largest magnitude is positive (the first such component, comparing
// magnitudes to a relative 1e-9, so round-off does not decide). Within a
// repeated eigenvalue the basis is whatever the deterministic LAPACK
// port returns: identical run to run, but not a canonical rotation.
//
// d must be square, symmetric, with a zero diagonal and finite,
// non-negative entries; anything else is an error (classical MDS needs
// every distance; use SMACOF when some pairs are +Inf). The result has
// n rows of dim coordinates, centred on the origin.
func ClassicalMDS(d [][]float64, dim int) ([][]float64, error) {
	if err := checkDist(d, false); err != nil {
		return nil, fmt.Errorf("embed: classical MDS: %w", err)
	}
	n := len(d)
	if err := checkDim(dim, n); err != nil {
		return nil, fmt.Errorf("embed: classical MDS: %w", err)
	}
	// Double centring of the squared distances.
	row := make([]float64, n)
	grand := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			row[i] += d[i][j] * d[i][j]
		}
		grand += row[i]
		row[i] /= float64(n)
	}
	grand /= float64(n * n)
	b := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			// D⁽²⁾ is symmetric, so the column means equal the row means.
			b.SetSym(i, j, -0.5*(d[i][j]*d[i][j]-row[i]-row[j]+grand))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(b, true) {
		return nil, fmt.Errorf("embed: classical MDS: eigen-decomposition of the %d×%d centred matrix did not converge", n, n)
	}
	vals := es.Values(nil) // ascending
	var vecs mat.Dense
	es.VectorsTo(&vecs)

	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, dim)
	}
	for k := 0; k < dim; k++ {
		col := n - 1 - k
		lambda := vals[col]
		if lambda <= 0 {
			continue // a zero axis
		}
		s := math.Sqrt(lambda) * signOf(&vecs, col)
		for i := 0; i < n; i++ {
			x[i][k] = s * vecs.At(i, col)
		}
	}
	return x, nil
}

// signOf returns +1 or −1 so that the eigenvector in column col, times
// the sign, has its largest-magnitude component positive (the first
// component within a relative 1e-9 of the largest magnitude).
func signOf(v *mat.Dense, col int) float64 {
	n, _ := v.Dims()
	maxAbs := 0.0
	for i := 0; i < n; i++ {
		maxAbs = math.Max(maxAbs, math.Abs(v.At(i, col)))
	}
	for i := 0; i < n; i++ {
		if a := v.At(i, col); math.Abs(a) >= maxAbs*(1-1e-9) {
			if a < 0 {
				return -1
			}
			return 1
		}
	}
	return 1
}
