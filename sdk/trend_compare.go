package sdk

import (
	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/profile"
)

// trendTimeClip is the quantile the time panel's scale is clipped at
// when a few frames are far above the rest (views.TrendPanel.Clip).
const trendTimeClip = 0.9

// CompareTrends shows the Trend Views of several jobs side by side, in
// one row that fits the output's width, on one scale: the same time
// axis (the frames at the same x), each panel (time, messages, bytes)
// scaled to its largest over all the jobs, and the times in one unit,
// so a job that spends more time draws higher rows. Each trend is
// captioned with its job's name.
func CompareTrends(opt profile.Options, jobs ...*Job) display.Renderer {
	items := make([]display.Renderer, len(jobs))
	captions := make([]string, len(jobs))
	var all [][]float64
	aggs := make([]*profile.Aggregated, len(jobs))
	for i, j := range jobs {
		a, err := j.Profile.Aggregate(opt)
		if err != nil {
			return display.TextBundle(err.Error())
		}
		aggs[i] = a
		all = append(all, a.Time...)
	}
	// One unit of time for all: the one that reads best for the largest.
	unit, _ := inTimeUnit(all)
	for i, j := range jobs {
		d := trendData(j.Profile, aggs[i])
		u, times := inTimeUnit(aggs[i].Time)
		if u != unit {
			times = inUnit(aggs[i].Time, unit)
			d.Panels[0].Title = "time (" + unit + ", " + aggs[i].TimeLabel + "): compute + communication"
			d.Panels[0].Quantity = "time (" + unit + ")"
		}
		d.Panels[0].Out = times
		items[i] = views.Trend(d)
		captions[i] = j.Profile.Job
	}
	return views.Row(items...).WithCaptions(captions...)
}

// inUnit expresses times in seconds in unit ("s", "ms" or "µs").
func inUnit(secs [][]float64, unit string) [][]float64 {
	scale := map[string]float64{"s": 1, "ms": 1e3, "µs": 1e6}[unit]
	out := make([][]float64, len(secs))
	for i, row := range secs {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			out[i][j] = v * scale
		}
	}
	return out
}
