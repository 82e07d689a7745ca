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
// planted graph in one run and reports the thesis's yardsticks: the
// correlation of pipeline and plain layouts against that of two plain runs
// differing only in seed, and both layouts' quality.
//
//	go test ./algo/pipeline -run '^$' -bench PipelineVsSFDP -benchtime 1x
func BenchmarkPipelineVsSFDP(b *testing.B) {
	g, _ := planted(b, 20000)
	ctx := context.Background()
	var tPlain, tPipe time.Duration
	var plain, plain2 []float64
	var res *pipeline.Result
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		plain, _ = layout.SFDP(ctx, g, layout.Options{Seed: 1})
		tPlain += time.Since(t0)
		t0 = time.Now()
		var err error
		if res, err = pipeline.Layout(ctx, g, pipeline.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
		tPipe += time.Since(t0)
	}
	plain2, _ = layout.SFDP(ctx, g, layout.Options{Seed: 2})
	b.ReportMetric(tPipe.Seconds()/tPlain.Seconds(), "pipeline/plain-time")
	b.ReportMetric(quality.PairwiseCorrelation(res.Positions, plain, 0.1, 7), "r(pipeline,plain)")
	b.ReportMetric(quality.PairwiseCorrelation(plain, plain2, 0.1, 7), "r(plain,plain-seed2)")
	b.ReportMetric(quality.HopCorrelation(g, plain, 20, 7), "hopcorr-plain")
	b.ReportMetric(quality.HopCorrelation(g, res.Positions, 20, 7), "hopcorr-pipeline")
}
