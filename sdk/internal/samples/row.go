package main

import (
	"superstep/display"
	"superstep/display/views"
)

// rowCells are the samples of row-samples.ipynb, for
// display/browsertest/row.test.mjs and the picture linter: comparisons
// in a views.Row of the default width (900 px), which must sit side by
// side in a 1,000 px output, live and static, each item laid out for its
// share and the items on one scale: two tori of different sizes and
// traffic as rings (notebook 04), three rings (sdk.CompareMappings'
// mappings), and two trends of one made-up job at two levels (hosts and
// workers: other unit names, other maxima), the workers' time panel
// clipped at its 90th percentile after a noisy first frame.
func rowCells() []cell {
	var rings []display.Renderer
	for i, c := range []struct {
		title string
		ext   []int
		load  float64
	}{
		{"4×4×4 torus, pattern A", []int{4, 4, 4}, 1},
		{"4×4×8 torus, pattern A", []int{4, 4, 8}, 2.5},
		{"4×4×4 torus, pattern B", []int{4, 4, 4}, 0.5},
	} {
		d, err := torusHilbertRing(c.title, c.ext, []int{8, 16}, []string{"region 1", "region 2"}, false)
		if err != nil {
			return []cell{{`// row: ` + err.Error(), views.RingGraph(views.RingGraphData{}), map[string]any{"kind": "empty"}}}
		}
		d.ColorByGroup = i != 2
		for _, fr := range d.Frames {
			for k := range fr.Forward {
				fr.Forward[k] *= c.load
				fr.Backward[k] *= c.load
			}
		}
		rings = append(rings, views.RingGraph(d))
	}
	wm := messages()
	hm := level(wm, hostOf, len(hosts))
	hTrend := trendData(hostUnits(), hm, 0)
	wTrend := trendData(workerUnits(), wm, 0)
	hTrend.Title, wTrend.Title = "per host", "SSSP on a made-up graph, 6 workers — heartbeat per worker"
	for _, d := range []*views.TrendData{&hTrend, &wTrend} {
		d.Panels[0].Quantity, d.Panels[1].Quantity, d.Panels[2].Quantity = "time (s)", "messages", "bytes"
		d.Panels[0].Clip = 0.9
	}
	// A time title too long to sit beside its scale label at 420 px.
	hTrend.Panels[0].Title = "time (s, measured): compute + communication"
	// A noisy first frame: worker 1 loads its part of the graph.
	wTrend.Panels[0].Out[1][0] = 2.5
	return []cell{
		{`views.Row(ringA, ringB) // two tori side by side, one scale, 900 px`,
			views.Row(rings[0], rings[1]).WithCaptions("64 nodes", "128 nodes"),
			map[string]any{"kind": "row", "of": "ringgraph", "items": 2, "width": views.DefaultRowWidth}},
		{`views.Row(ringA, ringB, ringC) // three mappings, one scale`,
			views.Row(rings...),
			map[string]any{"kind": "row", "of": "ringgraph", "items": 3, "width": views.DefaultRowWidth}},
		{`views.Row(hostTrend, workerTrend) // one time axis, one scale per panel`,
			views.Row(views.Trend(hTrend), views.Trend(wTrend)).WithCaptions("hosts", "workers"),
			map[string]any{"kind": "row", "of": "trend", "items": 2, "width": views.DefaultRowWidth, "clipped": true}},
	}
}
