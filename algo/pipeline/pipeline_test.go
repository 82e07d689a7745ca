package pipeline_test

import (
	"context"
	"math"
	"testing"
	"time"

	"superstep/algo/layout"
	"superstep/algo/pipeline"
	"superstep/algo/quality"
	"superstep/datasets"
	"superstep/sdk/graph"
)

func planted(t testing.TB, n int) (*graph.Graph, []int32) {
	g, m, err := datasets.Planted(datasets.PlantedOptions{N: n, AvgDegree: 12, MaxDegree: 80, Mixing: 0.15, MinCommunity: 20, MaxCommunity: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

func TestPipelineSeedsTheLargestCommunities(t *testing.T) {
	g, _ := planted(t, 3000)
	res, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Positions) != 2*g.NumVertices() {
		t.Fatalf("%d coordinates", len(res.Positions))
	}
	for _, x := range res.Positions {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatal("a position is not finite")
		}
	}
	k := 0
	for _, c := range res.Membership {
		k = max(k, int(c)+1)
	}
	if res.LaidOut != int(math.Ceil(0.2*float64(k))) || res.Seeded < g.NumVertices()/5 {
		t.Fatalf("%d of %d communities laid out, %d vertices seeded", res.LaidOut, k, res.Seeded)
	}
	// The parallel stage is a profiled one-superstep job whose workers
	// all computed.
	if res.Job.Supersteps != 1 || len(res.Job.Profile.Steps) != 1 {
		t.Fatalf("job: %d supersteps", res.Job.Supersteps)
	}
	busy := 0
	for _, w := range res.Job.Profile.Steps[0].Workers {
		if w.Processed > 0 && w.Compute > 0 {
			busy++
		}
	}
	if busy < 4 {
		t.Fatalf("only %d workers laid out communities", busy)
	}
	again, _ := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1})
	for i := range again.Positions {
		if again.Positions[i] != res.Positions[i] {
			t.Fatal("not deterministic for a seed")
		}
	}
}

// BenchmarkPipelineVsSFDP times the pipeline against plain SFDP on a
// planted graph in one run, for three seeds, and reports the thesis's
// yardsticks as means over the seeds: the correlation of the pipeline's
// and plain SFDP's layouts (same seed) against that of two plain runs
// differing only in seed, and both layouts' hop-distance correlation.
// One graph and three seeds are noisy; go run ./algo/pipeline/bench
// compares over several graphs and seeds with standard errors.
//
//	go test ./algo/pipeline -run '^$' -bench PipelineVsSFDP -benchtime 1x
func BenchmarkPipelineVsSFDP(b *testing.B) {
	g, _ := planted(b, 20000)
	ctx := context.Background()
	var tPlain, tPipe time.Duration
	var rPipe, rPlain, hopPlain, hopPipe float64
	const seeds = 3
	for i := 0; i < b.N; i++ {
		var plains [][]float64
		for s := uint64(1); s <= seeds; s++ {
			t0 := time.Now()
			plain, _ := layout.SFDP(ctx, g, layout.Options{Seed: s, Attraction: pipeline.DefaultAttraction})
			tPlain += time.Since(t0)
			t0 = time.Now()
			res, err := pipeline.Layout(ctx, g, pipeline.Options{Seed: s})
			if err != nil {
				b.Fatal(err)
			}
			tPipe += time.Since(t0)
			if i == 0 {
				rPipe += quality.PairwiseCorrelation(res.Positions, plain, 0.1, 7) / seeds
				hopPlain += quality.HopCorrelation(g, plain, 20, 7) / seeds
				hopPipe += quality.HopCorrelation(g, res.Positions, 20, 7) / seeds
				plains = append(plains, plain)
			}
		}
		for j := range plains {
			rPlain += quality.PairwiseCorrelation(plains[j], plains[(j+1)%len(plains)], 0.1, 7) / seeds
		}
	}
	b.ReportMetric(tPipe.Seconds()/tPlain.Seconds(), "pipeline/plain-time")
	b.ReportMetric(rPipe, "r(pipeline,plain)")
	b.ReportMetric(rPlain, "r(plain,plain-seed2)")
	b.ReportMetric(hopPlain, "hopcorr-plain")
	b.ReportMetric(hopPipe, "hopcorr-pipeline")
}

// The thesis's correctness test on a planted graph: the pipeline draws
// plain SFDP's picture (same seed) far more closely than two plain runs
// that differ only in seed draw each other's.
func TestPipelineDrawsPlainPicture(t *testing.T) {
	g, _ := planted(t, 6000)
	ctx := context.Background()
	var same, seeds float64
	for s := uint64(1); s <= 3; s++ {
		plain, err := layout.SFDP(ctx, g, layout.Options{Seed: s, Attraction: pipeline.DefaultAttraction})
		if err != nil {
			t.Fatal(err)
		}
		other, _ := layout.SFDP(ctx, g, layout.Options{Seed: s + 10, Attraction: pipeline.DefaultAttraction})
		res, err := pipeline.Layout(ctx, g, pipeline.Options{Seed: s})
		if err != nil {
			t.Fatal(err)
		}
		same += quality.PairwiseCorrelation(res.Positions, plain, 0.1, 7) / 3
		seeds += quality.PairwiseCorrelation(plain, other, 0.1, 7) / 3
	}
	t.Logf("r(pipeline, plain) %.3f, r(plain, other seed) %.3f", same, seeds)
	if same < seeds+0.2 {
		t.Errorf("r(pipeline, plain) %.3f is not well above r(plain, other seed) %.3f", same, seeds)
	}
}

// Issue 11: the drawing of notebook 02 (20,000 vertices, 17 planted
// communities of 300 to 4,000, mixing 0.2) must keep communities visible
// — at least 90% of a vertex's 10 nearest drawn neighbours in its planted
// community, where chance is 9.1% and Hu's model gives 44% — and a
// second, larger and more mixed planted graph of 30 to 800 (chance about
// 1.1%, Hu's model 9.4% on a like graph) at least 40%. Hop-distance
// correlation and stress are logged beside the share.
func TestPipelineKeepsCommunitiesApart(t *testing.T) {
	for _, c := range []struct {
		name string
		o    datasets.PlantedOptions
		want float64
	}{
		{"notebook 02", datasets.PlantedOptions{N: 20000, AvgDegree: 15, MaxDegree: 200, Mixing: 0.2, MinCommunity: 300, MaxCommunity: 4000, Seed: 1}, 0.9},
		{"30,000 vertices, mixing 0.3", datasets.PlantedOptions{N: 30000, AvgDegree: 15, MaxDegree: 200, Mixing: 0.3, MinCommunity: 30, MaxCommunity: 800, Seed: 2}, 0.4},
	} {
		g, planted, err := datasets.Planted(c.o)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		share := quality.GroupShare(res.Positions, planted, 10, 0, 7)
		t.Logf("%s: share %.3f (chance %.4f), hop-distance correlation %.3f, stress %.4f, %v", c.name, share,
			quality.ChanceGroupShare(planted), quality.HopCorrelation(g, res.Positions, 20, 7),
			quality.Stress(g, res.Positions, 20, 7), took.Round(time.Millisecond))
		if share < c.want {
			t.Errorf("%s: %.3f of the 10 nearest drawn neighbours share the planted community, want ≥ %.2f", c.name, share, c.want)
		}
	}
}

func TestAttractionOption(t *testing.T) {
	g, _ := planted(t, 500)
	for _, a := range []float64{-1, 5, math.NaN()} {
		if _, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1, Attraction: a}); err == nil {
			t.Errorf("Attraction %v: no error", a)
		}
	}
	// Local and Global may each override the pipeline's model.
	if _, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: 1, Attraction: 3, Global: layout.Options{Attraction: 1}}); err != nil {
		t.Error(err)
	}
}
