package profile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"

	"superstep/sdk/table"
)

func TestParquetRoundTrip(t *testing.T) {
	for _, p := range []*Profile{fixtureProfile(), synthProfile(8, 30)} {
		dir := filepath.Join(t.TempDir(), "run")
		must(t, p.SaveParquet(dir))
		got, err := LoadParquet(dir)
		must(t, err)
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("%s: Parquet round trip differs", p.Job)
		}
		// Only the three files, no temporaries left behind.
		ents, err := os.ReadDir(dir)
		must(t, err)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != "cluster.parquet pairs.parquet workers.parquet" {
			t.Fatalf("files %v", names)
		}
	}
}

// The files say which job they hold in their key-value metadata, and use
// plain Parquet types.
func TestParquetMetadataAndTypes(t *testing.T) {
	p := fixtureProfile()
	dir := t.TempDir()
	must(t, p.SaveParquet(dir))
	for name, want := range map[string]string{
		WorkersFile: "superstep:INT32 worker:INT32 worker_name:BYTE_ARRAY/String host:BYTE_ARRAY/String rack:BYTE_ARRAY/String compute_s:DOUBLE wait_s:DOUBLE comm_s:DOUBLE active:INT64 processed:INT64",
		PairsFile:   "superstep:INT32 src:INT32 dst:INT32 src_name:BYTE_ARRAY/String dst_name:BYTE_ARRAY/String messages:INT64 bytes:INT64 internal:BOOLEAN",
		ClusterFile: "worker:INT32 worker_name:BYTE_ARRAY/String host:BYTE_ARRAY/String rack:BYTE_ARRAY/String vertices:INT64 host_index:INT32 rack_index:INT32",
	} {
		f, err := os.Open(filepath.Join(dir, name))
		must(t, err)
		pf, err := file.NewParquetReader(f)
		must(t, err)
		kv := pf.MetaData().KeyValueMetadata()
		if v := kv.FindValue(MetaJob); v == nil || *v != "sssp-small" {
			t.Errorf("%s: job %v", name, v)
		}
		if v := kv.FindValue(MetaProgram); v == nil || *v != "*algo.SSSP" {
			t.Errorf("%s: program %v", name, v)
		}
		if v := kv.FindValue("ARROW:schema"); v != nil {
			t.Errorf("%s: carries an Arrow schema", name)
		}
		var cols []string
		sc := pf.MetaData().Schema
		for i := 0; i < sc.NumColumns(); i++ {
			c := sc.Column(i)
			s := c.Name() + ":" + c.PhysicalType().String()
			if c.PhysicalType().String() == "BYTE_ARRAY" {
				s += "/" + c.LogicalType().String()
			}
			cols = append(cols, s)
		}
		if got := strings.Join(cols, " "); got != want {
			t.Errorf("%s columns\n%s\nwant\n%s", name, got, want)
		}
		pf.Close()
		f.Close()
	}
}

// writeTable writes t as dir/name with the package's writer.
func writeTable(t *testing.T, dir, name string, tbl arrow.Table) {
	t.Helper()
	must(t, table.WriteParquet(filepath.Join(dir, name), tbl))
	tbl.Release()
}

func TestParquetMalformed(t *testing.T) {
	p := fixtureProfile()
	mem := memory.DefaultAllocator
	save := func(t *testing.T) string {
		dir := t.TempDir()
		must(t, p.SaveParquet(dir))
		return dir
	}
	t.Run("missing column", func(t *testing.T) {
		dir := save(t)
		w := p.WorkerTable(mem)
		writeTable(t, dir, WorkersFile, withColumn(w, "wait_s", nil, nil))
		w.Release()
		_, err := LoadParquet(dir)
		want := filepath.Join(dir, WorkersFile) + ": no column wait_s (the table has superstep, worker, worker_name, host, rack, compute_s, comm_s, active, processed)"
		if err == nil || err.Error() != want {
			t.Fatalf("error %v\nwant %s", err, want)
		}
	})
	t.Run("wrong type", func(t *testing.T) {
		dir := save(t)
		pr := p.PairTable(mem)
		b := array.NewStringBuilder(mem)
		for range pr.NumRows() {
			b.Append("many")
		}
		arr := b.NewArray()
		writeTable(t, dir, PairsFile, withColumn(pr, "messages", arr, nil))
		arr.Release()
		pr.Release()
		_, err := LoadParquet(dir)
		want := filepath.Join(dir, PairsFile) + ": column messages: type utf8, want an integer type"
		if err == nil || err.Error() != want {
			t.Fatalf("error %v\nwant %s", err, want)
		}
	})
	t.Run("another job's cluster", func(t *testing.T) {
		dir := save(t)
		q := synthProfile(4, 2)
		writeTable(t, dir, ClusterFile, q.ClusterTable(mem))
		_, err := LoadParquet(dir)
		if err == nil || !strings.Contains(err.Error(), WorkersFile+`: metadata superstep.job is "sssp-small", another table says "synthetic"`) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("not parquet", func(t *testing.T) {
		dir := save(t)
		must(t, os.WriteFile(filepath.Join(dir, PairsFile), []byte("superstep,src,dst\n0,1,2\n"), 0o644))
		_, err := LoadParquet(dir)
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, PairsFile)+": ") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		dir := save(t)
		path := filepath.Join(dir, WorkersFile)
		data, err := os.ReadFile(path)
		must(t, err)
		for _, n := range []int{0, 4, len(data) / 2, len(data) - 9, len(data) - 1} {
			must(t, os.WriteFile(path, data[:n], 0o644))
			_, err := LoadParquet(dir)
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
				t.Fatalf("cut at %d: error %v", n, err)
			}
		}
		// Damage in the middle (column data) gives an error or a profile, never a panic.
		for i := 4; i < len(data)-8; i += 7 {
			bad := bytes.Clone(data)
			bad[i] ^= 0x5a
			must(t, os.WriteFile(path, bad, 0o644))
			LoadParquet(dir)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		dir := save(t)
		must(t, os.Remove(filepath.Join(dir, ClusterFile)))
		if _, err := LoadParquet(dir); err == nil || !strings.Contains(err.Error(), ClusterFile) {
			t.Fatalf("error %v", err)
		}
	})
}

// TestSizes logs the size of a capture and of the Parquet files (go test
// -run Sizes -v), and checks the capture of the synthetic profile reads
// back.
func TestSizes(t *testing.T) {
	for _, p := range []*Profile{fixtureProfile(), synthProfile(8, 1000)} {
		data, _ := captureBytes(t, p)
		dir := t.TempDir()
		must(t, p.SaveParquet(dir))
		var sizes []string
		var total int64
		for _, name := range []string{WorkersFile, PairsFile, ClusterFile} {
			fi, err := os.Stat(filepath.Join(dir, name))
			must(t, err)
			total += fi.Size()
			sizes = append(sizes, fmt.Sprintf("%s %d", name, fi.Size()))
		}
		w := p.NumWorkers()
		t.Logf("%s: %d workers × %d supersteps: capture %d bytes (%.0f per superstep); Parquet %d bytes (%s)",
			p.Job, w, len(p.Steps), len(data), float64(len(data))/float64(len(p.Steps)), total, strings.Join(sizes, ", "))
		got, err := LoadParquet(dir)
		must(t, err)
		if !reflect.DeepEqual(got, p) {
			t.Fatal("round trip differs")
		}
	}
}
