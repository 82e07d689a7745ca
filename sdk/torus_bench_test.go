package sdk

import (
	"runtime"
	"testing"

	"superstep/topology/torus"
)

// BenchmarkTorusBundle times issue 13's largest case from model to
// bundle: a 4×12×16×16×2 torus (24,576 nodes, 245,760 channels) with a
// counter on every channel, drawn at 16 blocks in Hilbert order, as the
// notebook's MIME bundle. It reports the bundle's size and the heap in
// use after the build (runtime.MemStats), besides Go's allocation counts.
func BenchmarkTorusBundle(b *testing.B) {
	tt, err := torus.New([]string{"a", "b", "c", "d", "e"}, []int{4, 12, 16, 16, 2})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]torus.ChannelRow, tt.Channels())
	for id := range rows {
		rows[id] = torus.ChannelRow{Channel: id, Packets: int64(id%1000 + 1)}
	}
	tbl, err := torus.ChannelTable(tt, rows)
	if err != nil {
		b.Fatal(err)
	}
	defer tbl.Release()
	b.ReportAllocs()
	b.ResetTimer()
	var size int
	var peak uint64
	for i := 0; i < b.N; i++ {
		v, err := Torus(tt, tbl, TorusOptions{Blocks: []int{8, 16, 32}, Level: 16})
		if err != nil {
			b.Fatal(err)
		}
		bundle := v.MIMEBundle()
		size = 0
		for _, d := range bundle.Data {
			if s, ok := d.(string); ok {
				size += len(s)
			}
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB/bundle")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap")
}
