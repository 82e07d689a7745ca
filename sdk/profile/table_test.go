package profile

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
	"superstep/topology/cluster"
)

// tables returns p's three tables, built with a checked allocator that
// tells at the end of the test whether anything leaked.
func tables(t *testing.T, p *Profile) (workers, pairs, cl arrow.Table) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	workers, pairs, cl = p.WorkerTable(mem), p.PairTable(mem), p.ClusterTable(mem)
	t.Cleanup(func() { workers.Release(); pairs.Release(); cl.Release() })
	return
}

func schemaString(s *arrow.Schema) string {
	var parts []string
	for _, f := range s.Fields() {
		parts = append(parts, f.Name+":"+f.Type.String())
	}
	return strings.Join(parts, " ")
}

func TestTablesShape(t *testing.T) {
	p := fixtureProfile()
	w, pr, c := tables(t, p)
	for _, tc := range []struct {
		tbl    arrow.Table
		rows   int64
		schema string
	}{
		{w, 4 * 3, "superstep:int32 worker:int32 worker_name:utf8 host:utf8 rack:utf8 compute_s:float64 wait_s:float64 comm_s:float64 active:int64 processed:int64"},
		// Non-internal pairs with traffic (1, 5, 2 and 1 per superstep) plus 3 internal pairs per superstep.
		{pr, (1 + 5 + 2 + 1) + 4*3, "superstep:int32 src:int32 dst:int32 src_name:utf8 dst_name:utf8 messages:int64 bytes:int64 internal:bool"},
		{c, 3, "worker:int32 worker_name:utf8 host:utf8 rack:utf8 vertices:int64 host_index:int32 rack_index:int32"},
	} {
		if got := schemaString(tc.tbl.Schema()); got != tc.schema {
			t.Errorf("schema %s\nwant   %s", got, tc.schema)
		}
		if tc.tbl.NumRows() != tc.rows {
			t.Errorf("%s: %d rows, want %d", schemaString(tc.tbl.Schema()), tc.tbl.NumRows(), tc.rows)
		}
		md := tc.tbl.Schema().Metadata()
		if i := md.FindKey(MetaJob); i < 0 || md.Values()[i] != "sssp-small" {
			t.Errorf("metadata %v has no job", md)
		}
	}
	// Row 5 of the workers table: superstep 1, worker 2 on hB in r1.
	rec := array.NewTableReader(w, -1)
	defer rec.Release()
	rec.Next()
	r := rec.Record()
	if r.Column(0).(*array.Int32).Value(5) != 1 || r.Column(1).(*array.Int32).Value(5) != 2 ||
		r.Column(3).(*array.String).Value(5) != "hB" || r.Column(4).(*array.String).Value(5) != "r1" ||
		r.Column(5).(*array.Float64).Value(5) != 0.001234567 {
		t.Errorf("workers row 5 wrong")
	}
}

func TestTablesRoundTrip(t *testing.T) {
	for _, p := range []*Profile{fixtureProfile(), synthProfile(8, 40), synthProfile(7, 2)} {
		w, pr, c := tables(t, p)
		got, err := FromTables(w, pr, c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("%s: tables round trip differs", p.Job)
		}
	}
}

// Sums over the tables equal the profile's Totals.
func TestTableSums(t *testing.T) {
	p := fixtureProfile()
	w, pr, _ := tables(t, p)
	cols, err := table.Read(pr, pairFields)
	must(t, err)
	var msgs, bytes int64
	for r := range cols[0].Ints {
		msgs += cols[5].Ints[r]
		bytes += cols[6].Ints[r]
	}
	wc, err := table.Read(w, workerFields)
	must(t, err)
	slowest := map[int64]time.Duration{}
	for r, ss := range wc[0].Ints {
		c, _ := secondsToDuration(wc[5].Floats[r])
		m, _ := secondsToDuration(wc[7].Floats[r])
		slowest[ss] = max(slowest[ss], c+m)
	}
	var total time.Duration
	for _, d := range slowest {
		total += d
	}
	want := p.Totals()
	got := Totals{Supersteps: len(slowest), Messages: msgs, Bytes: bytes, Measured: total, Modelled: want.Modelled}
	if got != want {
		t.Fatalf("sums over the tables %+v, Totals %+v", got, want)
	}
	if want.Messages != 3+(2+5+1+4+6+7+8)+(1+9+3) || want.Bytes != 12*want.Messages-12*9+100+40 {
		t.Fatalf("Totals %+v are not the fixture's numbers", want)
	}
}

// Durations survive the float seconds of the tables exactly.
func TestSecondsToDuration(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(d time.Duration) {
		got, err := secondsToDuration(d.Seconds())
		if err != nil || got != d {
			t.Fatalf("%d ns → %v s → %d ns (%v)", int64(d), d.Seconds(), int64(got), err)
		}
	}
	for _, d := range []time.Duration{0, 1, -1, 999999999, 1e9 + 1, maxExactSeconds * time.Second, maxExactSeconds*time.Second - 1} {
		check(d)
	}
	for range 200000 {
		check(time.Duration(r.Int64N(int64(maxExactSeconds * time.Second))))
		check(time.Duration(r.Int64N(int64(10 * time.Second))))
	}
	for _, s := range []float64{math.NaN(), math.Inf(1), 1e12} {
		if _, err := secondsToDuration(s); err == nil {
			t.Errorf("%v seconds: no error", s)
		}
	}
}

// A host without workers and a rack without hosts survive the tables (the
// cluster table's metadata lists them).
func TestTablesEmptyHostAndRack(t *testing.T) {
	p := fixtureProfile()
	c := p.Cluster
	c.Racks = append(c.Racks, cluster.Rack{Name: "spare-rack"})
	c.Hosts = append([]cluster.Host{{Name: "spare", Rack: 1}}, c.Hosts...)
	for i := range c.Workers {
		c.Workers[i].Host++
	}
	w, pr, ct := tables(t, p)
	got, err := FromTables(w, pr, ct)
	must(t, err)
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("cluster differs: %+v", got.Cluster)
	}
}

// Tables from another tool: no metadata, other integer widths, large
// strings, several chunks, columns in another order, rows shuffled,
// internal zero pairs left out.
func TestFromTablesForeign(t *testing.T) {
	p := fixtureProfile()
	w, pr, c := tables(t, p)
	mem := memory.DefaultAllocator
	wf := foreign(t, w, mem, 7, nil)
	// Drop the zero pairs, internal ones included.
	prf := foreign(t, pr, mem, 5, func(cols map[string][]any, r int) bool {
		return cols["messages"][r].(int64) != 0 || cols["bytes"][r].(int64) != 0
	})
	cf := foreign(t, c, mem, 2, nil)
	defer wf.Release()
	defer prf.Release()
	defer cf.Release()
	got, err := FromTables(wf, prf, cf)
	must(t, err)
	want := *p
	want.Job, want.Program = "", ""
	if !reflect.DeepEqual(got, &want) {
		t.Fatal("foreign tables read back differently")
	}
}

// foreign rebuilds t the way another tool might: columns reversed,
// integers as int64 (int16 for superstep), strings as large_string, no
// metadata, rows reversed, chunks of n rows; keep filters rows.
func foreign(t *testing.T, tbl arrow.Table, mem memory.Allocator, n int, keep func(map[string][]any, int) bool) arrow.Table {
	t.Helper()
	rows := map[string][]any{}
	var names []string
	tr := array.NewTableReader(tbl, -1)
	defer tr.Release()
	for tr.Next() {
		rec := tr.Record()
		for i, f := range rec.Schema().Fields() {
			if len(names) < len(rec.Schema().Fields()) {
				names = append(names, f.Name)
			}
			for j := 0; j < int(rec.NumRows()); j++ {
				var v any
				switch a := rec.Column(i).(type) {
				case *array.Int32:
					v = int64(a.Value(j))
				case *array.Int64:
					v = a.Value(j)
				case *array.Float64:
					v = a.Value(j)
				case *array.String:
					v = a.Value(j)
				case *array.Boolean:
					v = a.Value(j)
				}
				rows[f.Name] = append(rows[f.Name], v)
			}
		}
	}
	var idx []int
	for r := len(rows[names[0]]) - 1; r >= 0; r-- {
		if keep == nil || keep(rows, r) {
			idx = append(idx, r)
		}
	}
	var fields []arrow.Field
	for i := len(names) - 1; i >= 0; i-- {
		name := names[i]
		var typ arrow.DataType
		switch rows[name][0].(type) {
		case int64:
			typ = arrow.PrimitiveTypes.Int64
			if name == "superstep" {
				typ = arrow.PrimitiveTypes.Int16
			}
		case float64:
			typ = arrow.PrimitiveTypes.Float64
		case string:
			typ = arrow.BinaryTypes.LargeString
		case bool:
			typ = arrow.FixedWidthTypes.Boolean
		}
		fields = append(fields, arrow.Field{Name: name, Type: typ})
	}
	schema := arrow.NewSchema(fields, nil)
	var recs []arrow.Record
	for start := 0; start < len(idx); start += n {
		b := array.NewRecordBuilder(mem, schema)
		for k, f := range fields {
			for _, r := range idx[start:min(start+n, len(idx))] {
				v := rows[f.Name][r]
				switch bb := b.Field(k).(type) {
				case *array.Int16Builder:
					bb.Append(int16(v.(int64)))
				case *array.Int64Builder:
					bb.Append(v.(int64))
				case *array.Float64Builder:
					bb.Append(v.(float64))
				case *array.LargeStringBuilder:
					bb.Append(v.(string))
				case *array.BooleanBuilder:
					bb.Append(v.(bool))
				}
			}
		}
		recs = append(recs, b.NewRecord())
		b.Release()
	}
	out := array.NewTableFromRecords(schema, recs)
	for _, r := range recs {
		r.Release()
	}
	return out
}

// withColumn returns t with column name replaced by arr (or dropped when
// arr is nil), and metadata md when not nil.
func withColumn(t arrow.Table, name string, arr arrow.Array, md *arrow.Metadata) arrow.Table {
	var fields []arrow.Field
	var cols []arrow.Column
	for i, f := range t.Schema().Fields() {
		c := t.Column(i)
		if f.Name == name {
			if arr == nil {
				continue
			}
			f = arrow.Field{Name: name, Type: arr.DataType(), Nullable: true}
			ch := arrow.NewChunked(arr.DataType(), []arrow.Array{arr})
			c = arrow.NewColumn(f, ch)
			ch.Release()
		} else {
			c.Retain()
		}
		fields = append(fields, f)
		cols = append(cols, *c)
	}
	if md == nil {
		m := t.Schema().Metadata()
		md = &m
	}
	out := array.NewTable(arrow.NewSchema(fields, md), cols, t.NumRows())
	for i := range cols {
		cols[i].Release()
	}
	return out
}

func TestFromTablesErrors(t *testing.T) {
	p := fixtureProfile()
	w, pr, c := tables(t, p)
	mem := memory.DefaultAllocator
	n := int(w.NumRows())
	strs := func(f func(i int) string) arrow.Array {
		b := array.NewStringBuilder(mem)
		for i := range n {
			b.Append(f(i))
		}
		return b.NewArray()
	}
	i32 := func(rows int, f func(i int) int32) arrow.Array {
		b := array.NewInt32Builder(mem)
		for i := range rows {
			b.Append(f(i))
		}
		return b.NewArray()
	}
	f64 := func(f func(i int) (float64, bool)) arrow.Array {
		b := array.NewFloat64Builder(mem)
		for i := range n {
			if v, ok := f(i); ok {
				b.Append(v)
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	}
	otherJob := arrow.NewMetadata([]string{MetaJob}, []string{"other"})
	cases := []struct {
		name  string
		which int // 0 workers, 1 pairs, 2 cluster
		col   string
		arr   arrow.Array
		md    *arrow.Metadata
		want  string
	}{
		{"missing column", 0, "wait_s", nil, nil, "workers table: no column wait_s (the table has superstep, worker, worker_name, host, rack, compute_s, comm_s, active, processed)"},
		{"wrong type", 0, "compute_s", strs(func(int) string { return "1.5" }), nil, "workers table: column compute_s: type utf8, want a floating-point type"},
		{"null", 0, "comm_s", f64(func(i int) (float64, bool) { return 0, i != 4 }), nil, "workers table: column comm_s: row 4: null"},
		{"NaN", 0, "compute_s", f64(func(i int) (float64, bool) { return math.NaN(), true }), nil, "workers table: row 0: column compute_s: NaN seconds"},
		{"worker outside", 0, "worker", i32(n, func(i int) int32 { return int32(i%3) * 5 }), nil, "workers table: row 1: worker 5 outside 3 workers"},
		{"worker twice", 0, "worker", i32(n, func(i int) int32 { return 0 }), nil, "workers table: row 1: worker 0 is named \"w1\" here and \"w0\" in the cluster table"},
		{"worker missing", 0, "superstep", i32(n, func(i int) int32 { return int32(min(i/3, 2)) }), nil, "workers table: row 9: superstep 2, worker 0 appears twice"},
		{"wrong host", 0, "host", strs(func(i int) string { return "hA" }), nil, `workers table: row 2: worker 2 on host "hA" in rack "r1" here, on "hB" in "r1" in the cluster table`},
		{"other job", 0, "", nil, &otherJob, `workers table: metadata superstep.job is "other", another table says "sssp-small"`},
		{"pair outside", 1, "dst", i32(int(pr.NumRows()), func(i int) int32 { return 3 }), nil, "pairs table: row 0: dst 3 outside 3 workers"},
		{"pair superstep", 1, "superstep", i32(int(pr.NumRows()), func(i int) int32 { return 9 }), nil, "pairs table: row 0: superstep 9 has pairs but no rows in the workers table"},
		{"internal flag", 1, "internal", nil, nil, "pairs table: no column internal"},
		{"cluster worker twice", 2, "worker", i32(3, func(i int) int32 { return 0 }), nil, "cluster table: row 1: worker 0 appears twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tbls := []arrow.Table{w, pr, c}
			tbls[tc.which] = withColumn(tbls[tc.which], tc.col, tc.arr, tc.md)
			defer tbls[tc.which].Release()
			if tc.arr != nil {
				tc.arr.Release()
			}
			_, err := FromTables(tbls[0], tbls[1], tbls[2])
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := FromTables(pr, w, c); err == nil || err.Error() != "workers table: this is the pairs table (metadata superstep.table), not the workers table" {
		t.Fatalf("tables swapped: %v", err)
	}
	if _, err := FromTables(nil, pr, c); err == nil {
		t.Fatal("nil table: no error")
	}
}
