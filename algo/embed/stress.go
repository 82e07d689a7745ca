package embed

import "math"

// DistanceMatrix builds the n×n distance matrix d_ij = dist(i, j) of an
// integer metric, calling dist once per unordered pair i < j and
// mirroring it (dist is assumed symmetric; the diagonal is 0).
//
// cutoff ≤ 0 keeps every distance (the "full" matrix). cutoff > 0
// replaces every distance above cutoff by +Inf, the "infinite" pairs
// that SMACOF weights 0: cutoff 3 is paper 004's 3-hop matrix and
// cutoff 1 its neighbours-only matrix (S_ij = 1 for adjacent nodes).
func DistanceMatrix(n int, dist func(i, j int) int, cutoff int) [][]float64 {
	if n <= 0 {
		return nil
	}
	flat := make([]float64, n*n)
	d := make([][]float64, n)
	for i := range d {
		d[i] = flat[i*n : (i+1)*n : (i+1)*n]
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			k := dist(i, j)
			v := float64(k)
			if cutoff > 0 && k > cutoff {
				v = math.Inf(1)
			}
			d[i][j], d[j][i] = v, v
		}
	}
	return d
}

// Stress is the normalised (Kruskal stress-1 style) stress of the
// embedding x against the distances d, with no rescaling of x:
//
//	Stress = √( Σ_{i<j} w_ij (d_ij − ‖x_i − x_j‖)² / Σ_{i<j} w_ij d_ij² ),
//
// where w_ij = 1 for a finite d_ij and 0 for d_ij = +Inf. 0 is a perfect
// embedding. It is the quantity SMACOF minimises (up to the constant
// denominator), so SMACOF results are compared with it as they are.
// Stress returns NaN when d and x disagree in size, when a row of x is
// ragged, or when Σ w d² is 0 (no positive finite distance).
func Stress(d [][]float64, x [][]float64) float64 {
	num, den, _, _, ok := stressSums(d, x)
	if !ok || den == 0 {
		return math.NaN()
	}
	return math.Sqrt(num / den)
}

// ScaledStress is Stress after the optimal uniform rescaling of x,
// x → αx with α = Σ w d δ / Σ w δ² (δ_ij = ‖x_i − x_j‖), which gives
//
//	ScaledStress = √( 1 − (Σ w d δ)² / (Σ w d² · Σ w δ²) ).
//
// It is the fair measure for classical MDS, whose output is not fitted
// to the distances themselves but to their double-centred squares (and
// whose truncation to few dimensions shrinks every δ). ScaledStress ≤
// Stress always; NaN in the cases Stress is NaN, or when every δ is 0.
func ScaledStress(d [][]float64, x [][]float64) float64 {
	_, den, dd, ee, ok := stressSums(d, x)
	if !ok || den == 0 || ee == 0 {
		return math.NaN()
	}
	r := 1 - dd*dd/(den*ee)
	if r < 0 {
		r = 0 // round-off
	}
	return math.Sqrt(r)
}

// stressSums returns Σ w (d−δ)², Σ w d², Σ w d δ and Σ w δ² over i < j.
func stressSums(d, x [][]float64) (num, den, dd, ee float64, ok bool) {
	n := len(d)
	if n == 0 || len(x) != n {
		return 0, 0, 0, 0, false
	}
	dim := len(x[0])
	for i := 0; i < n; i++ {
		if len(d[i]) != n || len(x[i]) != dim {
			return 0, 0, 0, 0, false
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			t := d[i][j]
			if math.IsInf(t, 1) {
				continue
			}
			e := euclid(x[i], x[j])
			num += (t - e) * (t - e)
			den += t * t
			dd += t * e
			ee += e * e
		}
	}
	return num, den, dd, ee, true
}

// euclid is the Euclidean distance between a and b (same length).
func euclid(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		t := a[k] - b[k]
		s += t * t
	}
	return math.Sqrt(s)
}
