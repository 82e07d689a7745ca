package meanshift_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"superstep/algo/meanshift"
)

// traceHLanes returns the per-lane endpoint times of issue 14's trace H.
func traceHLanes() [][]float64 {
	l0 := make([]float64, 100)
	l3 := make([]float64, 100)
	for i := range l0 {
		l0[i] = 1.000 + 0.001*float64(i)
		l3[i] = 1.400 + 0.001*float64(i)
	}
	l1 := make([]float64, 0, 51)
	l2 := make([]float64, 0, 51)
	for i := 0; i < 50; i++ {
		l1 = append(l1, 5.000+0.002*float64(i))
		l2 = append(l2, 5.300+0.002*float64(i))
	}
	l1 = append(l1, 9.050)
	l2 = append(l2, 9.000)
	return [][]float64{l0, l1, l2, l3}
}

// TestTraceH is Done-when 1: bandwidth 0.02 gives 6 clusters with the
// centres of the symmetric groups (their midpoints, by symmetry) and the
// two lone points.
func TestTraceH(t *testing.T) {
	want := [][]float64{{1.0495}, {5.049, 9.050}, {5.349, 9.000}, {1.4495}}
	wantSizes := [][]float64{{100}, {50, 1}, {50, 1}, {100}}
	total := 0
	for lane, xs := range traceHLanes() {
		r, err := meanshift.Cluster1D(xs, nil, 0.02)
		if err != nil {
			t.Fatal(err)
		}
		total += len(r.Centres)
		if len(r.Centres) != len(want[lane]) {
			t.Fatalf("lane %d: centres %v, want %v", lane, r.Centres, want[lane])
		}
		for c := range r.Centres {
			if math.Abs(r.Centres[c]-want[lane][c]) > 1e-9 {
				t.Errorf("lane %d centre %d = %.15g, want %v", lane, c, r.Centres[c], want[lane][c])
			}
			if r.Sizes[c] != wantSizes[lane][c] {
				t.Errorf("lane %d size %d = %v, want %v", lane, c, r.Sizes[c], wantSizes[lane][c])
			}
		}
		for i, l := range r.Labels {
			wantL := int32(0)
			if i >= 50 && (lane == 1 || lane == 2) {
				wantL = int32(i / 50) // the 51st point is the lone one
			}
			if l != wantL {
				t.Errorf("lane %d point %d label %d, want %d", lane, i, l, wantL)
			}
		}
	}
	if total != 6 {
		t.Errorf("%d clusters, want 6", total)
	}
}

// TestTwoBlobs: two seeded Gaussian blobs (σ 0.1 around 0 and 10) give two
// clusters, each holding exactly its blob, centres near the blob means.
func TestTwoBlobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for i := 0; i < 300; i++ {
		xs = append(xs, 0.1*rng.NormFloat64())
	}
	for i := 0; i < 200; i++ {
		xs = append(xs, 10+0.1*rng.NormFloat64())
	}
	sort.Float64s(xs)
	r, err := meanshift.Cluster1D(xs, nil, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Centres) != 2 || r.Sizes[0] != 300 || r.Sizes[1] != 200 {
		t.Fatalf("centres %v sizes %v, want 2 clusters of 300 and 200", r.Centres, r.Sizes)
	}
	if math.Abs(r.Centres[0]) > 0.05 || math.Abs(r.Centres[1]-10) > 0.05 {
		t.Errorf("centres %v, want ≈ 0 and 10", r.Centres)
	}
	for i, l := range r.Labels {
		if want := int32(0); xs[i] > 5 && l != 1 || xs[i] < 5 && l != want {
			t.Errorf("point %v label %d", xs[i], l)
		}
	}
}

// TestSmallCases: one point, all-equal points, empty input.
func TestSmallCases(t *testing.T) {
	r, err := meanshift.Cluster1D([]float64{3.5}, nil, 1)
	if err != nil || len(r.Centres) != 1 || r.Centres[0] != 3.5 || r.Labels[0] != 0 || r.Sizes[0] != 1 {
		t.Errorf("single point: %+v %v", r, err)
	}
	r, err = meanshift.Cluster1D([]float64{2, 2, 2, 2}, nil, 0.1)
	if err != nil || len(r.Centres) != 1 || r.Centres[0] != 2 || r.Sizes[0] != 4 {
		t.Errorf("equal points: %+v %v", r, err)
	}
	r, err = meanshift.Cluster1D(nil, nil, 1)
	if err != nil || len(r.Centres) != 0 || len(r.Labels) != 0 {
		t.Errorf("empty: %+v %v", r, err)
	}
}

// TestWeights: points 0 (weight 3) and 1 (weight 1), σ = 1, are one
// cluster (distance 1 < 2σ); the mode m satisfies
// m = (3·0·K(m) + 1·1·K(m−1))/(3K(m) + K(m−1)), i.e.
// 3m·e^{−m²/2} = (1−m)·e^{−(m−1)²/2}; solved by bisection here.
func TestWeights(t *testing.T) {
	r, err := meanshift.Cluster1D([]float64{0, 1}, []float64{3, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := func(m float64) float64 {
		return 3*m*math.Exp(-m*m/2) - (1-m)*math.Exp(-(m-1)*(m-1)/2)
	}
	lo, hi := 0.0, 0.5
	for k := 0; k < 100; k++ {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	if len(r.Centres) != 1 || math.Abs(r.Centres[0]-lo) > 1e-9 || r.Sizes[0] != 4 {
		t.Errorf("got %+v, want one centre %v of weight 4", r, lo)
	}
	// Weight 0 on one side: the centre is the other point.
	r, err = meanshift.Cluster1D([]float64{0, 1}, []float64{0, 1}, 1)
	if err != nil || len(r.Centres) != 1 || r.Centres[0] != 1 || r.Sizes[0] != 1 {
		t.Errorf("zero weight: %+v %v", r, err)
	}
}

// TestBadInput: unsorted data, NaN, bad bandwidth or weights are errors.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name string
		xs   []float64
		w    []float64
		bw   float64
	}{
		{"unsorted", []float64{1, 0}, nil, 1},
		{"nan", []float64{0, math.NaN()}, nil, 1},
		{"zero bandwidth", []float64{0}, nil, 0},
		{"negative bandwidth", []float64{0}, nil, -1},
		{"nan bandwidth", []float64{0}, nil, math.NaN()},
		{"weights length", []float64{0, 1}, []float64{1}, 1},
		{"negative weight", []float64{0, 1}, []float64{1, -1}, 1},
	}
	for _, c := range cases {
		if _, err := meanshift.Cluster1D(c.xs, c.w, c.bw); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// TestCluster2D: the six level-1 centres of trace H as (x, lane) points
// with bandwidth (0.5, 1.5) form three groups by hand: {(1.0495,0),
// (1.4495,3)} are 3 lanes apart = 2σ_y, {(5.049,1),(5.349,2)} and
// {(9.0,2),(9.05,1)}. With by = 1.5 the first pair sits at scaled distance
// √(0.8² + 2²) ≈ 2.15 > 2: two modes; with by = 3 one.
func TestCluster2D(t *testing.T) {
	xs := []float64{1.0495, 5.049, 9.050, 5.349, 9.000, 1.4495}
	ys := []float64{0, 1, 1, 2, 2, 3}
	w := []float64{100, 50, 1, 50, 1, 100}
	r, err := meanshift.Cluster2D(context.Background(), xs, ys, w, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.X) != 3 {
		t.Fatalf("centres %v %v, want 3", r.X, r.Y)
	}
	// Equal weights in a symmetric pair: the mode is the midpoint.
	wantX := []float64{(1.0495 + 1.4495) / 2, (5.049 + 5.349) / 2, (9.0 + 9.05) / 2}
	wantY := []float64{1.5, 1.5, 1.5}
	for c := range wantX {
		if math.Abs(r.X[c]-wantX[c]) > 1e-9 || math.Abs(r.Y[c]-wantY[c]) > 1e-9 {
			t.Errorf("centre %d = (%v, %v), want (%v, %v)", c, r.X[c], r.Y[c], wantX[c], wantY[c])
		}
	}
	wantL := []int32{0, 1, 2, 1, 2, 0}
	for i := range wantL {
		if r.Labels[i] != wantL[i] {
			t.Errorf("labels %v, want %v", r.Labels, wantL)
			break
		}
	}
	if r.Sizes[0] != 200 || r.Sizes[1] != 100 || r.Sizes[2] != 2 {
		t.Errorf("sizes %v", r.Sizes)
	}
	r, err = meanshift.Cluster2D(context.Background(), xs, ys, w, 0.5, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.X) != 4 {
		t.Errorf("by = 1.5: %d centres %v %v, want 4", len(r.X), r.X, r.Y)
	}
	if _, err := meanshift.Cluster2D(context.Background(), xs, ys[:2], nil, 1, 1); err == nil {
		t.Error("length mismatch: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := meanshift.Cluster2D(ctx, xs, ys, nil, 1, 1); err == nil {
		t.Error("cancelled context: no error")
	}
}

// ExampleCluster1D clusters two groups: {1, 2, 3} (centre 2 by symmetry)
// and {10}.
func ExampleCluster1D() {
	r, _ := meanshift.Cluster1D([]float64{1, 2, 3, 10}, nil, 1)
	fmt.Printf("%.6f %v %v\n", r.Centres, r.Labels, r.Sizes)
	// Output: [2.000000 10.000000] [0 0 0 1] [3 1]
}

// refModes runs plain (unaccelerated) truncated Gaussian mean shift from
// every point independently, the textbook definition, by brute force.
func refModes(xs, w []float64, sigma float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		for it := 0; it < 100000; it++ {
			var den, num float64
			for j, y := range xs {
				if d := y - x; math.Abs(d) <= meanshift.Cutoff*sigma {
					k := math.Exp(-d * d / (2 * sigma * sigma))
					if w != nil {
						k *= w[j]
					}
					den += k
					num += k * d
				}
			}
			x += num / den
			if math.Abs(num/den) < 1e-13*sigma {
				break
			}
		}
		out[i] = x
	}
	return out
}

// TestAgainstBruteForce: on seeded blobs of random spread (half of the
// trials with random weights), every point's
// cluster centre is the mode the textbook mean shift reaches from it, and
// two points share a cluster exactly when their modes agree.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 60; trial++ {
		var xs, w []float64
		for b := 0; b < 2+rng.IntN(6); b++ {
			c, sd := rng.Float64()*20, 0.05+rng.Float64()*0.6
			for k := 0; k < 1+rng.IntN(60); k++ {
				xs = append(xs, c+sd*rng.NormFloat64())
			}
		}
		sort.Float64s(xs)
		if trial%2 == 1 { // weighted half of the trials
			for range xs {
				w = append(w, 0.1+rng.Float64()*3)
			}
		}
		sigma := 0.1 + 0.6*rng.Float64()
		r, err := meanshift.Cluster1D(xs, w, sigma)
		if err != nil {
			t.Fatal(err)
		}
		ref := refModes(xs, w, sigma)
		for i := range xs {
			if c := r.Centres[r.Labels[i]]; math.Abs(c-ref[i]) > 1e-6 {
				t.Errorf("trial %d σ %v point %d (%v): centre %v, brute force mode %v; xs %v centres %v labels %v", trial, sigma, i, xs[i], c, ref[i], xs[:12], r.Centres, r.Labels[:12])
			}
			if i > 0 && (r.Labels[i] == r.Labels[i-1]) != (math.Abs(ref[i]-ref[i-1]) < 1e-6) {
				t.Errorf("trial %d points %d, %d: labels %d %d, modes %v %v", trial, i-1, i, r.Labels[i-1], r.Labels[i], ref[i-1], ref[i])
			}
		}
	}
}
