package sdk

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"superstep/datasets"
	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/profile"
	"superstep/sdk/trace"
	"superstep/sdk/trace/ompimon"
	"superstep/sdk/trace/otf2"
)

func pingPong(t *testing.T) *trace.Trace {
	t.Helper()
	tr, err := otf2.ReadFS(context.Background(), datasets.PingPongOTF2(), "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// The real ping-pong's matrix: 2.395 GB/s from rank 0 to 1 and 2.426 GB/s
// back (the numbers, ± 0.1 %), 8 messages each way.
func TestCommMatrixPingPong(t *testing.T) {
	tr := pingPong(t)
	bw, err := CommMatrix(tr, "bandwidth")
	if err != nil {
		t.Fatal(err)
	}
	if got := bw.Tip(0, 1); !strings.HasSuffix(got, ": 2.39 GB/s") {
		t.Errorf("bandwidth 0→1 tip %q, want 2.39 GB/s (2.395 ± 0.1 %%)", got)
	}
	if got := bw.Tip(1, 0); !strings.HasSuffix(got, ": 2.43 GB/s") {
		t.Errorf("bandwidth 1→0 tip %q, want 2.43 GB/s (2.426 ± 0.1 %%)", got)
	}
	for _, p := range tr.Pairs() {
		if b := p.Bandwidth(); (p.Src == 0 && (b < 2.395e9*0.999 || b > 2.395e9*1.001)) || (p.Src == 1 && (b < 2.426e9*0.999 || b > 2.426e9*1.001)) {
			t.Errorf("pair %d→%d: %.4g B/s", p.Src, p.Dst, b)
		}
	}
	msgs, err := CommMatrix(tr, "messages")
	if err != nil {
		t.Fatal(err)
	}
	if got := msgs.Tip(0, 1); !strings.HasSuffix(got, ": 8 messages") {
		t.Errorf("messages tip %q", got)
	}
	if _, err := CommMatrix(tr, "latency"); err == nil || !strings.Contains(err.Error(), `unknown metric "latency"`) {
		t.Errorf("an unknown metric: %v", err)
	}
}

// The ping-pong as a timeline: one lane per rank, its 42 region intervals
// behind 16 messages, every message a bundle end to end.
func TestTimelinePingPong(t *testing.T) {
	tr := pingPong(t)
	v, err := Timeline(context.Background(), tr, TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	L, err := v.Layout()
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, m := range L.RouteMessages {
		n += m
	}
	if len(v.Data.Lanes) != 2 || n != 16 || len(v.Data.IntervalLane) != 42 {
		t.Errorf("%d lanes, %d messages in bundles, %d intervals; want 2, 16, 42", len(v.Data.Lanes), n, len(v.Data.IntervalLane))
	}
	// A window of the exchange re-bundles at full width.
	w, err := Timeline(context.Background(), tr, TimelineOptions{From: 0.19, To: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Data.From) != 16 || w.Data.Start != 0.19 {
		t.Errorf("window keeps %d messages from %v s", len(w.Data.From), w.Data.Start)
	}
	if s := v.SVG(); !strings.Contains(s, `class="ss-bundle"`) {
		t.Error("no bundles in the SVG")
	}
}

// The integration check: the ping-pong in 10 ms frames keeps its
// totals and shows in the trend and chord views.
func TestTraceJobPingPong(t *testing.T) {
	tr := pingPong(t)
	j, err := TraceJob(tr, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	tot := j.Profile.Totals()
	if tot.Messages != 16 || tot.Bytes != 2*4_177_920 || j.Supersteps() != 20 {
		t.Errorf("frames: %d messages, %d B, %d frames; want 16, 8,355,840, 20", tot.Messages, tot.Bytes, j.Supersteps())
	}
	for _, r := range []display.Renderer{j.Trend(profile.Options{}), j.Frames(profile.Options{}), j.Dashboard(profile.Options{})} {
		b := r.MIMEBundle()
		if _, ok := b.Data["text/html"]; !ok {
			t.Errorf("a view of the trace's job has no picture: %v", b.Data["text/plain"])
		}
	}
	if s := j.String(); !strings.Contains(s, "16 messages") {
		t.Errorf("String %q", s)
	}
}

// Monitoring alone: the ring's E lines give its matrix (1,270 messages).
func TestMonitoringMatrixRing(t *testing.T) {
	data, err := ompimon.Read(filepath.Join("trace", "ompimon", "testdata", "ring8"), "ring")
	if err != nil {
		t.Fatal(err)
	}
	var n, b int64
	for _, p := range MonitoringPairs(data) {
		n, b = n+p.Messages, b+p.Bytes
	}
	if n != 1270 || b != 2_438_960 {
		t.Errorf("%d messages, %d B; want 1,270 and 2,438,960", n, b)
	}
	v, err := MonitoringMatrix("ring", data, "messages")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Tip(0, 1); !strings.HasSuffix(got, ": 100 messages") {
		t.Errorf("0→1: %q, want 100 messages", got)
	}
	if _, err := MonitoringMatrix("ring", data, "bandwidth"); err == nil {
		t.Error("monitoring files have no times: bandwidth must be refused")
	}
}

// The summary views of a trace: every pair one curve.
func TestSummaryViewsPingPong(t *testing.T) {
	tr := pingPong(t)
	sr, err := SenderReceiver(tr)
	if err != nil {
		t.Fatal(err)
	}
	_, _, polys := sr.Curves()
	if len(polys) != 2 {
		t.Errorf("sender/receiver: %d curves, want 2 (0→1, 1→0)", len(polys))
	}
	ch, err := CommChord(tr)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, polys := ch.Curves(); len(polys) != 2 {
		t.Errorf("chord lines: %d curves, want 2", len(polys))
	}
	for _, r := range []display.Renderer{sr, ch} {
		if _, ok := r.MIMEBundle().Data["text/html"]; !ok {
			t.Error("no picture")
		}
	}
}

// The automatic-parameter rule: with defaults, at most 10 % of
// the drawn pixels saturate in both red and green, every bundle is
// visible, and the busiest path is the brightest (Tachyon: into rank 0).
func TestTimelineAutomaticParameters(t *testing.T) {
	for _, x := range []struct {
		name string
		tr   *trace.Trace
		opts TimelineOptions
	}{
		{"H", trace.HandMade(), TimelineOptions{Bandwidth: 0.02}},
		{"ping-pong", pingPong(t), TimelineOptions{From: 0.1935, To: 0.1997, Bandwidth: 0.0001}},
		{"WRF-like", trace.WRFLike(1), TimelineOptions{NoRegions: true}},
		{"Tachyon-like", trace.TachyonLike(1), TimelineOptions{}},
		{"LULESH-like", trace.LULESHLike(1), TimelineOptions{}},
		{"the shim's grid run", gridRun(t), TimelineOptions{}},
	} {
		v, err := Timeline(context.Background(), x.tr, x.opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if s.Saturated > 0.10 || s.Invisible != 0 || !s.BusiestIsBrightest() {
			t.Errorf("%s: %.1f %% saturated in R and G, %d of %d bundles invisible, light %d on the busiest step and %d at most",
				x.name, 100*s.Saturated, s.Invisible, s.Bundles, s.BusiestLight, s.BrightestLight)
		}
	}
}

// The grid run's messages all fall in the trace's last pixels: at some
// widths (880 px among them) the grid's last column had its centre past
// the plot's edge and every bundle was clipped away, invisible. Every
// width between 860 and 900 px draws them all.
func TestTimelineDrawsTheTraceEndAtEveryWidth(t *testing.T) {
	tr := gridRun(t)
	for w := 860.0; w <= 900; w += 2 {
		v, err := Timeline(context.Background(), tr, TimelineOptions{Width: w})
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if s.Invisible != 0 {
			t.Errorf("width %.0f px: %d of %d bundles invisible", w, s.Invisible, s.Bundles)
		}
	}
}

// gridRun is the 16-rank grid program's trace the PMPI shim wrote.
func gridRun(t *testing.T) *trace.Trace {
	t.Helper()
	tr, err := otf2.Read(context.Background(), filepath.Join("trace", "mpishim", "testdata", "grid20", "traces.otf2"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// The paper's conclusion as a number: on the WRF-like trace the curves
// overshoot their own time span at least 3× less with grid routing than
// with hierarchical routing, and the bundled picture covers fewer pixels
// than straight lines.
func TestGridBeatsHierarchyWRF(t *testing.T) {
	wrf := trace.WRFLike(1)
	stats := map[string]views.TimelineStats{}
	for _, routing := range []string{"straight", "hierarchy", "grid"} {
		v, err := Timeline(context.Background(), wrf, TimelineOptions{Routing: routing, NoRegions: true})
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Stats()
		if err != nil {
			t.Fatal(err)
		}
		stats[routing] = s
	}
	h, g := stats["hierarchy"].Overshoot, stats["grid"].Overshoot
	if !(g > 0 && h >= 3*g) {
		t.Errorf("mean overshoot: hierarchy %.3f s, grid %.3f s; want at least 3× smaller with the grid", h, g)
	}
	if stats["grid"].Drawn >= stats["straight"].Drawn {
		t.Errorf("pixels covered: grid %d, straight %d", stats["grid"].Drawn, stats["straight"].Drawn)
	}
	t.Logf("overshoot hierarchy %.3f s, grid %.3f s (%.1f×); pixels straight %d, grid %d", h, g, h/g, stats["straight"].Drawn, stats["grid"].Drawn)
}
