package embed

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SMACOFOptions configures SMACOF. The zero value is usable: seed 0,
// random start, 300 iterations at most, tolerance 1e-6.
type SMACOFOptions struct {
	// Seed seeds the random start (a PCG generator); ignored when Init
	// is given. The same seed gives the same result, bit for bit.
	Seed uint64
	// Init, if not nil, is the start: n rows of dim finite coordinates.
	Init [][]float64
	// MaxIter bounds the number of Guttman transforms; 0 means 300.
	MaxIter int
	// Tol stops the iteration once an iteration lowers the stress by
	// less than Tol times its previous value; 0 means 1e-6.
	Tol float64
}

// Result is the outcome of SMACOF.
type Result struct {
	// X holds n rows of dim coordinates.
	X [][]float64
	// Stress is the normalised Stress(d, X) of the final embedding.
	Stress float64
	// Iterations is the number of Guttman transforms applied.
	Iterations int
	// Converged says whether the tolerance was met before MaxIter.
	Converged bool
	// History is the normalised stress of the start followed by that
	// after every iteration (len Iterations+1); it never increases, up
	// to round-off.
	History []float64
}

// SMACOF embeds the n points of d in dim dimensions by weighted stress
// majorisation (de Leeuw's SMACOF), minimising
//
//	σ(X) = Σ_{i<j} w_ij (d_ij − ‖x_i − x_j‖)²,
//
// with w_ij = 1 where d_ij is finite and w_ij = 0 where d_ij = +Inf:
// infinite pairs neither attract nor repel. Each iteration is the
// weighted Guttman transform
//
//	X ← V⁺ B(X) X,  V = Σ_{i<j} w_ij (e_i − e_j)(e_i − e_j)ᵀ,
//	B(X)_ij = −w_ij d_ij / ‖x_i − x_j‖ (0 when x_i = x_j), B_ii = −Σ_{j≠i} B_ij,
//
// where V⁺ is the Moore–Penrose pseudo-inverse of the weighted Laplacian
// V. When the graph of finite pairs is connected (the usual case),
// V⁺ B(X)X is computed exactly by solving (V + 11ᵀ/n) X' = B(X)X with one
// gonum mat.Cholesky factorisation; otherwise V⁺ is formed from gonum's
// mat.EigenSym (eigenvalues below 1e-9 times the largest count as zero),
// which centres each component on the origin, so unconnected components
// overlap: nothing says where they lie relative to each other. σ never
// increases. SMACOF finds a local minimum, reached slowly along soft
// modes (a nearly straight chain straightens at a creeping pace).
//
// d must be square and symmetric with a zero diagonal, entries ≥ 0 or
// +Inf, and at least one positive finite entry; dim must be in 1..n.
// The start is opts.Init or, by default, coordinates drawn uniformly in
// [−m, m) from a PCG generator seeded with opts.Seed, m being the mean
// positive finite distance.
func SMACOF(d [][]float64, dim int, opts SMACOFOptions) (Result, error) {
	if err := checkDist(d, true); err != nil {
		return Result{}, fmt.Errorf("embed: SMACOF: %w", err)
	}
	n := len(d)
	if err := checkDim(dim, n); err != nil {
		return Result{}, fmt.Errorf("embed: SMACOF: %w", err)
	}
	maxIter, tol := opts.MaxIter, opts.Tol
	switch {
	case maxIter < 0:
		return Result{}, fmt.Errorf("embed: SMACOF: MaxIter %d, want ≥ 0", maxIter)
	case maxIter == 0:
		maxIter = 300
	}
	switch {
	case tol < 0 || math.IsNaN(tol) || math.IsInf(tol, 0):
		return Result{}, fmt.Errorf("embed: SMACOF: Tol %v, want a finite value ≥ 0", tol)
	case tol == 0:
		tol = 1e-6
	}

	// Weighted Laplacian V and the mean positive finite distance.
	v := mat.NewSymDense(n, nil)
	sum, cnt := 0.0, 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			t := d[i][j]
			if math.IsInf(t, 1) {
				continue
			}
			v.SetSym(i, j, -1)
			v.SetSym(i, i, v.At(i, i)+1)
			v.SetSym(j, j, v.At(j, j)+1)
			if t > 0 {
				sum += t
				cnt++
			}
		}
	}
	if cnt == 0 {
		return Result{}, fmt.Errorf("embed: SMACOF: no positive finite distance between distinct points")
	}
	solve, err := laplacianSolver(v, connected(d))
	if err != nil {
		return Result{}, fmt.Errorf("embed: SMACOF: %w", err)
	}

	// Start.
	x := make([]float64, n*dim)
	if opts.Init != nil {
		if len(opts.Init) != n {
			return Result{}, fmt.Errorf("embed: SMACOF: Init has %d rows, want %d", len(opts.Init), n)
		}
		for i, row := range opts.Init {
			if len(row) != dim {
				return Result{}, fmt.Errorf("embed: SMACOF: Init row %d has %d coordinates, want %d", i, len(row), dim)
			}
			for k, c := range row {
				if math.IsNaN(c) || math.IsInf(c, 0) {
					return Result{}, fmt.Errorf("embed: SMACOF: Init[%d][%d] = %v is not finite", i, k, c)
				}
				x[i*dim+k] = c
			}
		}
	} else {
		m := sum / float64(cnt)
		rng := rand.New(rand.NewPCG(opts.Seed, 0x5eed_5eed_5eed_5eed))
		for i := range x {
			x[i] = (2*rng.Float64() - 1) * m
		}
	}

	den := 0.0 // Σ w d², the normaliser
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if t := d[i][j]; !math.IsInf(t, 1) {
				den += t * t
			}
		}
	}
	bx := make([]float64, n*dim)
	bxm := mat.NewDense(n, dim, bx)
	xm := mat.NewDense(n, dim, x)
	raw := guttmanRHS(d, x, dim, bx)
	res := Result{History: []float64{math.Sqrt(raw / den)}}
	for res.Iterations < maxIter {
		if err := solve(xm, bxm); err != nil { // x ← V⁺ B(x) x (xm aliases x)
			return Result{}, fmt.Errorf("embed: SMACOF: iteration %d: %w", res.Iterations+1, err)
		}
		res.Iterations++
		next := guttmanRHS(d, x, dim, bx)
		res.History = append(res.History, math.Sqrt(next/den))
		if raw-next < tol*raw || next <= 1e-30*den {
			res.Converged = true
			raw = next
			break
		}
		raw = next
	}
	res.Stress = math.Sqrt(raw / den)
	res.X = make([][]float64, n)
	for i := range res.X {
		res.X[i] = append([]float64(nil), x[i*dim:(i+1)*dim]...)
	}
	return res, nil
}

// guttmanRHS writes B(x)x into bx (both n×dim, row-major) and returns
// the raw stress σ(x) = Σ_{i<j, d finite} (d_ij − ‖x_i − x_j‖)².
func guttmanRHS(d [][]float64, x []float64, dim int, bx []float64) float64 {
	n := len(d)
	clear(bx)
	s := 0.0
	for i := 0; i < n; i++ {
		xi := x[i*dim : (i+1)*dim]
		for j := i + 1; j < n; j++ {
			t := d[i][j]
			if math.IsInf(t, 1) {
				continue
			}
			xj := x[j*dim : (j+1)*dim]
			e := euclid(xi, xj)
			s += (t - e) * (t - e)
			if e == 0 {
				continue
			}
			c := t / e
			for k := 0; k < dim; k++ {
				g := c * (xi[k] - xj[k])
				bx[i*dim+k] += g
				bx[j*dim+k] -= g
			}
		}
	}
	return s
}

// connected says whether the graph of finite pairs of d is connected.
func connected(d [][]float64) bool {
	n := len(d)
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	reached := 1
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j, t := range d[i] {
			if !seen[j] && !math.IsInf(t, 1) {
				seen[j] = true
				reached++
				stack = append(stack, j)
			}
		}
	}
	return reached == n
}

// laplacianSolver returns a function that sets dst = V⁺ b for the
// weighted Laplacian v and a right-hand side b whose columns sum to 0
// (as B(X)X's do).
//
// Connected weight graph: V + 11ᵀ/n is positive definite, and for a
// centred b its solution x is centred with Vx = b, i.e. x = V⁺b; it is
// factorised once (gonum's mat.Cholesky, n³/3) and each iteration costs
// two triangular solves. Otherwise V⁺ is formed explicitly from gonum's
// mat.EigenSym as Σ_{λ > 1e-9 λ_max} e eᵀ / λ.
func laplacianSolver(v *mat.SymDense, connected bool) (func(dst, b *mat.Dense) error, error) {
	n := v.SymmetricDim()
	if connected {
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, v.At(i, j)+1/float64(n))
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(a) {
			return nil, fmt.Errorf("factorising the %d×%d weight Laplacian + 11ᵀ/n (Cholesky) failed", n, n)
		}
		return func(dst, b *mat.Dense) error { return ch.SolveTo(dst, b) }, nil
	}
	var es mat.EigenSym
	if !es.Factorize(v, true) {
		return nil, fmt.Errorf("eigen-decomposition of the %d×%d weight Laplacian did not converge", n, n)
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	top := vals[n-1]
	// Scale column k of the eigenvectors by 1/λ_k (0 for null values),
	// then V⁺ = E Λ⁺ Eᵀ.
	scaled := mat.DenseCopyOf(&vecs)
	for k := 0; k < n; k++ {
		f := 0.0
		if vals[k] > 1e-9*top {
			f = 1 / vals[k]
		}
		for i := 0; i < n; i++ {
			scaled.Set(i, k, scaled.At(i, k)*f)
		}
	}
	var p mat.Dense
	p.Mul(scaled, vecs.T())
	return func(dst, b *mat.Dense) error { dst.Mul(&p, b); return nil }, nil
}
