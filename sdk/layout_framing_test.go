package sdk

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"superstep/algo/layout"
	"superstep/algo/pipeline"
	"superstep/algo/quality"
	"superstep/datasets"
	"superstep/display/views"
	"superstep/sdk/graph"
)

// The thesis's real social graphs, laid out as a new user would (plain
// SFDP and the community-seeded pipeline, three seeds each), fill the
// drawing's frame: the largest component's central 98% covers at least
// 40% of it, and no vertex lies farther from its component's centre than
// 3 times that component's 99th-percentile radius. Before pendant trees
// were drawn beside their attachment, small components packed around the
// largest and the frame set on the vertices, Facebook covered 2.1% (plain
// SFDP) and under 0.1% (the pipeline), with a straggler 11 and 70 radii
// out.
func TestRealGraphsFillTheFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out two real graphs twelve times (about a minute)")
	}
	dir := filepath.Join("..", "..", "shared", "data", "thesis")
	for _, file := range []string{"facebook-links.txt.gz", "soc-Slashdot0902.txt.gz"} {
		path := filepath.Join(dir, file)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s: %v (the thesis's graphs are in ../shared/data)", path, err)
		}
		g, err := datasets.LoadEdgeList(path, false)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			pos, err := layout.SFDP(context.Background(), g, layout.Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			checkFraming(t, file+" SFDP seed "+string(rune('0'+seed)), g, pos)
			res, err := pipeline.Layout(context.Background(), g, pipeline.Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			checkFraming(t, file+" pipeline seed "+string(rune('0'+seed)), g, res.Positions)
		}
	}
}

func checkFraming(t *testing.T, name string, g *graph.Graph, pos []float64) {
	t.Helper()
	f := quality.FramingOf(g, pos)
	n := g.NumVertices()
	x, y := make([]float64, n), make([]float64, n)
	for v := range n {
		x[v], y[v] = pos[2*v], pos[2*v+1]
	}
	fr := views.FrameOf(x, y)
	cover := f.Cover(fr.X0, fr.Y0, fr.X1, fr.Y1)
	t.Logf("%s: %v; in the drawing's frame %.1f%% (%d vertices beyond it)", name, f, 100*cover, fr.Outside)
	if cover < 0.4 {
		t.Errorf("%s: the largest component's central 98%% covers %.1f%% of the drawing's frame, want ≥ 40%%", name, 100*cover)
	}
	if f.Straggle > 3 {
		t.Errorf("%s: vertex %d lies %.2f× its component's 99th-percentile radius from its centre, want ≤ 3", name, f.Straggler, f.Straggle)
	}
}
