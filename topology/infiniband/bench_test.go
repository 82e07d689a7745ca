package infiniband

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"superstep/sdk/table"
	"superstep/topology/fattree"
)

// TestWriteIBNetDiscover: the committed k = 8 and degraded fabrics, and a
// built Paper1296, written and read back, infer to the same fabric.
func TestWriteIBNetDiscover(t *testing.T) {
	k8, _, _ := inferFile(t, "k8.ibnetdiscover")
	deg, _, _ := inferFile(t, "k8deg.ibnetdiscover")
	p, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fattree.Fabric{k8, deg, p} {
		var b bytes.Buffer
		if err := WriteIBNetDiscover(&b, f); err != nil {
			t.Fatal(err)
		}
		g, warns, err := ReadIBNetDiscover(&b, "w")
		if err != nil || len(warns) != 0 {
			t.Fatal(err, warns)
		}
		got, _, err := fattree.Infer(g)
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != f.Spec || !reflect.DeepEqual(got.Nodes, f.Nodes) || !reflect.DeepEqual(got.Switches, f.Switches) || !reflect.DeepEqual(got.Links, f.Links) {
			t.Fatalf("%v: read back differs", f.Spec)
		}
	}
}

func paper1296(b *testing.B) *fattree.Fabric {
	f, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkReadIBNetDiscover1296 reads the ibnetdiscover output of
// Paper1296 (written by WriteIBNetDiscover). Target: ≤ 25 ms.
func BenchmarkReadIBNetDiscover1296(b *testing.B) {
	f := paper1296(b)
	var buf bytes.Buffer
	if err := WriteIBNetDiscover(&buf, f); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ReadIBNetDiscover(bytes.NewReader(data), "p1296"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadLFT1296 reads the dump_fts tables of D-mod-k on
// Paper1296 (written by WriteLFT, about 19 MB). Target: ≤ 150 ms.
func BenchmarkReadLFT1296(b *testing.B) {
	f := paper1296(b)
	tab, err := fattree.TableOf(context.Background(), f, fattree.DModK(f))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteLFT(&buf, f, tab); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ReadLFT(bytes.NewReader(data), "p1296", f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreeScopeDay1296 is a day of counters every 60 s on Paper1296
// as a TreeScope directory (network.topo and 1,441 .count files: 1,440
// intervals × 7,776 links = 11.2 M rows), read into an Arrow table
// (target ≤ 3 s), written to Parquet (≤ 3 s) and read back (≤ 1 s); and
// any window's per-link sums (≤ 10 ms) from fattree.CounterSums.
func BenchmarkTreeScopeDay1296(b *testing.B) {
	f := paper1296(b)
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	placed, err := fattree.Place(f, fattree.Fragmented, []int{1024, 200}, 1)
	if err != nil {
		b.Fatal(err)
	}
	jobs := []fattree.Job{
		{ID: "a2a", Nodes: placed[0], Pattern: fattree.AllToAll(), BytesPerPair: 1e5, Start: start, End: start.Add(24 * time.Hour)},
		{ID: "ring", Nodes: placed[1], Pattern: fattree.Ring(), BytesPerPair: 1e9, Start: start.Add(3 * time.Hour), End: start.Add(9 * time.Hour)},
	}
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), jobs, start, start.Add(24*time.Hour), time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := WriteTreeScope(dir, &TreeScopeData{Name: "p1296", Fabric: f, Start: start, Counters: rows}); err != nil {
		b.Fatal(err)
	}
	b.Run("read-arrow", func(b *testing.B) {
		for b.Loop() {
			d, _, err := ReadTreeScope(dir, TreeScopeOptions{Columnar: true})
			if err != nil {
				b.Fatal(err)
			}
			tb := d.Columns.Table()
			if tb.NumRows() != int64(len(rows)) {
				b.Fatalf("%d rows, want %d", tb.NumRows(), len(rows))
			}
			tb.Release()
		}
		b.ReportMetric(float64(len(rows)), "rows")
	})
	tb := fattree.CountersTable(rows)
	defer tb.Release()
	path := filepath.Join(b.TempDir(), "counters.parquet")
	b.Run("parquet-write", func(b *testing.B) {
		for b.Loop() {
			if err := table.WriteParquet(path, tb); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parquet-read", func(b *testing.B) {
		for b.Loop() {
			back, err := table.ReadParquet(path)
			if err != nil {
				b.Fatal(err)
			}
			back.Release()
		}
	})
	sums, err := fattree.NewCounterSums(rows, len(f.Links))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("window-sum", func(b *testing.B) {
		k := 0
		for b.Loop() {
			// A different window each time: hours k..k+7.
			from := start.Add(time.Duration(k%17) * time.Hour)
			sums.Window(from, from.Add(7*time.Hour))
			k++
		}
	})
}
