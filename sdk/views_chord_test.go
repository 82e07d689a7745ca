package sdk_test

import (
	"context"
	"strings"
	"testing"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/display/views"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// CompareFrames draws the jobs' Frame Views in one row, 420 px each, on one
// scale (the busiest frame over both jobs fills the circle), and every
// frame prints its total.
func TestCompareFramesSideBySideOnOneScale(t *testing.T) {
	g := datasets.Must(datasets.Open("cti"))
	cl, _ := cluster.New(1, 4, 2)
	run := func(name string, p bsp.Program) *sdk.Job {
		j, err := sdk.Run(context.Background(), g, p, sdk.Options{Config: bsp.Config{Name: name, Cluster: cl, MaxSupersteps: 12}})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	a, b := run("sssp", vertex.SSSP{Source: 0}), run("pagerank", vertex.PageRank{Iterations: 10})
	opt := profile.Options{Level: profile.HostLevel}
	v, ok := sdk.CompareFrames(opt, a, b).(*views.ChordsView)
	if !ok {
		t.Fatalf("CompareFrames is a %T, want *views.ChordsView", sdk.CompareFrames(opt, a, b))
	}
	if len(v.Datas) != 2 || v.Width != 420 || strings.Join(v.Captions, ",") != a.Profile.Job+","+b.Profile.Job {
		t.Fatalf("%d diagrams, %v px, captions %q", len(v.Datas), v.Width, v.Captions)
	}
	busiest := 0.0
	for _, d := range v.Datas {
		for _, f := range d.Frames {
			sum := 0.0
			for s, row := range f.Weight {
				for u, w := range row {
					if s != u {
						sum += 2 * w
					}
				}
			}
			busiest = max(busiest, sum)
			if !strings.Contains(f.Total, " messages, ") {
				t.Errorf("frame %s total %q", f.Label, f.Total)
			}
		}
	}
	for i, d := range v.Datas {
		if d.FullCircle != busiest || d.FullThickness != v.Datas[0].FullThickness {
			t.Errorf("diagram %d: full circle %v, want %v (one scale)", i, d.FullCircle, busiest)
		}
		if d.Selected != v.Datas[0].Selected {
			t.Errorf("diagram %d starts at frame %d, diagram 0 at %d", i, d.Selected, v.Datas[0].Selected)
		}
	}
	html := v.MIMEBundle().Data["text/html"].(string)
	if strings.Count(html, `class="superstep-display"`) != 1 || !strings.Contains(html, `data-kind="chords"`) {
		t.Errorf("not one display of kind chords")
	}
}
