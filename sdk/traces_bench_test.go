package sdk

import (
	"context"
	"testing"

	"superstep/sdk/trace"
)

// Issue 14's speed targets on two cores (the README's table): bundling
// and rasterising the WRF-like trace's 168,480 messages ≤ 0.5 s, and
// FD4-like's 2.2 M ≤ 5 s; the communication matrix from FD4-like's
// ~60,000 pairs ≤ 0.5 s. Each benchmark makes the view's notebook
// output (MIMEBundle: picture, layers, spec) and reports its size.

func BenchmarkTimelineWRFLike(b *testing.B) {
	tr := trace.WRFLike(1)
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		v, err := Timeline(context.Background(), tr, TimelineOptions{NoRegions: true})
		if err != nil {
			b.Fatal(err)
		}
		size = bundleSize(v.MIMEBundle().Data)
	}
	b.ReportMetric(float64(size)/1e6, "MB-output")
}

func BenchmarkTimelineFD4Like(b *testing.B) {
	tr := trace.FD4Like(1)
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		v, err := Timeline(context.Background(), tr, TimelineOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = bundleSize(v.MIMEBundle().Data)
	}
	b.ReportMetric(float64(size)/1e6, "MB-output")
}

func BenchmarkCommMatrixFD4Like(b *testing.B) {
	tr := trace.FD4Like(1)
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		v, err := CommMatrix(tr, "messages")
		if err != nil {
			b.Fatal(err)
		}
		size = bundleSize(v.MIMEBundle().Data)
	}
	b.ReportMetric(float64(size)/1e6, "MB-output")
}

func bundleSize(data map[string]any) int {
	n := 0
	for _, v := range data {
		if s, ok := v.(string); ok {
			n += len(s)
		}
	}
	return n
}
