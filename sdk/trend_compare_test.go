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

// CompareTrends puts the jobs' Trend Views in one views.Row, captioned
// with the jobs' names, each panel with one quantity (the times in one
// unit) so the row gives them one scale; the measured time panel is
// clipped when a few frames are far above the rest.
func TestCompareTrendsOneRowOneScale(t *testing.T) {
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
	row, ok := sdk.CompareTrends(opt, a, b).(views.RowView)
	if !ok {
		t.Fatalf("CompareTrends is a %T, want views.RowView", sdk.CompareTrends(opt, a, b))
	}
	if len(row.Items) != 2 || strings.Join(row.Captions, ",") != a.Profile.Job+","+b.Profile.Job {
		t.Fatalf("%d items, captions %q", len(row.Items), row.Captions)
	}
	var quantities [2][]string
	for i, it := range row.Items {
		tv, ok := it.(*views.TrendView)
		if !ok {
			t.Fatalf("item %d is a %T", i, it)
		}
		for _, p := range tv.Data.Panels {
			quantities[i] = append(quantities[i], p.Quantity)
		}
		if c := tv.Data.Panels[0].Clip; c <= 0 || c >= 1 {
			t.Errorf("item %d: the time panel is not clipped (Clip %v)", i, c)
		}
		if !strings.HasPrefix(tv.Data.Panels[0].Title, strings.TrimSuffix(tv.Data.Panels[0].Quantity, ")")) {
			t.Errorf("item %d: time panel %q measures %q", i, tv.Data.Panels[0].Title, tv.Data.Panels[0].Quantity)
		}
	}
	if strings.Join(quantities[0], "|") != strings.Join(quantities[1], "|") || quantities[0][1] != "messages" || quantities[0][2] != "bytes" {
		t.Errorf("quantities %q and %q, want one each", quantities[0], quantities[1])
	}
	if h, _ := row.MIMEBundle().Data["text/html"].(string); strings.Count(h, `data-kind="trend"`) != 2 || !strings.Contains(h, "superstep-row") {
		t.Errorf("the row does not hold two trends")
	}
}
