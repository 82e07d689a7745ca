package embed

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The Cholesky route and the explicit pseudo-inverse agree on a
// connected weight graph and a centred right-hand side.
func TestLaplacianSolversAgree(t *testing.T) {
	inf := math.Inf(1)
	// A 5-cycle with one chord; the other pairs infinite.
	d := [][]float64{
		{0, 1, inf, 2, 1},
		{1, 0, 1, inf, inf},
		{inf, 1, 0, 1, inf},
		{2, inf, 1, 0, 1},
		{1, inf, inf, 1, 0},
	}
	if !connected(d) {
		t.Fatal("connected: false for a connected graph")
	}
	v := mat.NewSymDense(5, nil)
	for i := range d {
		for j := i + 1; j < 5; j++ {
			if !math.IsInf(d[i][j], 1) {
				v.SetSym(i, j, -1)
				v.SetSym(i, i, v.At(i, i)+1)
				v.SetSym(j, j, v.At(j, j)+1)
			}
		}
	}
	b := mat.NewDense(5, 2, []float64{1, -2, 3, 0.5, -4, 1, 2, 0, -2, 0.5}) // columns sum to 0
	chol, err := laplacianSolver(v, true)
	if err != nil {
		t.Fatal(err)
	}
	pinv, err := laplacianSolver(v, false)
	if err != nil {
		t.Fatal(err)
	}
	var x, y, vx mat.Dense
	x.ReuseAs(5, 2)
	if err := chol(&x, b); err != nil {
		t.Fatal(err)
	}
	y.ReuseAs(5, 2)
	if err := pinv(&y, b); err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(&x, &y, 1e-12) {
		t.Errorf("Cholesky %v, pseudo-inverse %v", mat.Formatted(&x), mat.Formatted(&y))
	}
	vx.Mul(v, &x) // V V⁺ b = b for b in the range of V
	if !mat.EqualApprox(&vx, b, 1e-12) {
		t.Errorf("V x = %v, want b", mat.Formatted(&vx))
	}
	d[0][1], d[1][0] = inf, inf
	d[0][3], d[3][0] = inf, inf
	d[0][4], d[4][0] = inf, inf
	if connected(d) {
		t.Error("connected: true with node 0 cut off")
	}
}
