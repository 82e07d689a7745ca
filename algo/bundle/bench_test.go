package bundle_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"superstep/algo/bundle"
)

// synth builds n seeded edges on the given number of lanes: mostly to a
// lane ±1…±3 away (10 % anywhere), sent in irregular bursts (an
// exponential gap between bursts, a burst per lane every so often) with
// a latency of 1–50 µs; x is in seconds.
func synth(n, lanes int, seed uint64) *bundle.Edges {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	e := &bundle.Edges{
		FromLane: make([]int32, n), ToLane: make([]int32, n),
		FromX: make([]float64, n), ToX: make([]float64, n),
	}
	t := 0.0
	for i := 0; i < n; i++ {
		if i%lanes == 0 {
			t += rng.ExpFloat64() * 1e-3 // a new phase
		}
		f := rng.IntN(lanes)
		d := f + (1+rng.IntN(3))*(2*rng.IntN(2)-1)
		if rng.IntN(10) == 0 || d < 0 || d >= lanes {
			d = rng.IntN(lanes)
		}
		send := t + rng.Float64()*2e-4
		e.FromLane[i], e.ToLane[i] = int32(f), int32(d)
		e.FromX[i], e.ToX[i] = send, send+1e-6+rng.Float64()*49e-6
	}
	return e
}

func benchGrid(b *testing.B, n, lanes int) {
	e := synth(n, lanes, 1)
	// The default bandwidth: 1/200 of the time range (a few pixels of a
	// timeline drawn 1,000 pixels wide).
	opts := bundle.Options{}
	b.ReportAllocs()
	b.ResetTimer()
	var routes int
	for i := 0; i < b.N; i++ {
		bd, err := bundle.New(context.Background(), e, opts)
		if err != nil {
			b.Fatal(err)
		}
		routes = bd.NumRoutes()
	}
	b.ReportMetric(float64(routes), "routes")
}

// BenchmarkBundleGrid: 2.2 M edges on 1,024 lanes (FD4 scale) and 160 k
// on 16 lanes (WRF scale).
func BenchmarkBundleGrid(b *testing.B) {
	b.Run("2.2M-1024", func(b *testing.B) { benchGrid(b, 2_200_000, 1024) })
	b.Run("160k-16", func(b *testing.B) { benchGrid(b, 160_000, 16) })
}

// BenchmarkBundleHierarchy: the comparison routing on the 160 k-edge,
// 16-lane input (3 levels).
func BenchmarkBundleHierarchy(b *testing.B) {
	e := synth(160_000, 16, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bundle.New(context.Background(), e, bundle.Options{Routing: bundle.Hierarchy}); err != nil {
			b.Fatal(err)
		}
	}
}
