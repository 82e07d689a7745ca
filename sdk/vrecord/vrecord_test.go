package vrecord_test

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
	"superstep/sdk/vrecord"
)

// path3 is a record by hand of the path 0-1-2 (arcs 0→1, 1→0, 1→2, 2→1):
// in superstep 0 vertex 0 sends along its arc, in superstep 1 vertex 1
// forwards to 2 and halts; vertex 2 never had a value (+Inf).
func path3() *vrecord.Record {
	inf := math.Inf(1)
	return &vrecord.Record{
		Vertices: 3, NumArcs: 4, Offsets: []int{0, 1, 3, 4}, Targets: []int32{1, 0, 2, 1}, MaxBytes: 1 << 20,
		Steps: []vrecord.Step{
			{Superstep: 0, Value: []float64{0, inf, inf}, State: []vrecord.State{vrecord.Active, vrecord.Woken, vrecord.Woken},
				Sent: []int32{1, 0, 0}, Received: []int32{0, 1, 0}, Arcs: []vrecord.ArcCount{{Arc: 0, Count: 1}}},
			{Superstep: 1, Value: []float64{0, 1, inf}, State: []vrecord.State{vrecord.Halted, vrecord.Active, vrecord.Halted},
				Sent: []int32{0, 2, 0}, Received: []int32{1, 0, 1}, Arcs: []vrecord.ArcCount{{Arc: 1, Count: 1}, {Arc: 2, Count: 1}}},
		},
	}
}

func TestRecordHelpers(t *testing.T) {
	r := path3()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for a, want := range []int{0, 1, 1, 2} {
		if got := r.Source(a); got != want {
			t.Errorf("Source(%d) = %d, want %d", a, got, want)
		}
	}
	if r.Count(0, vrecord.Woken) != 2 || r.Count(1, vrecord.Halted) != 2 || r.Messages(1) != 2 {
		t.Errorf("counts: woken %d, halted %d, messages %d", r.Count(0, vrecord.Woken), r.Count(1, vrecord.Halted), r.Messages(1))
	}
	if got, want := r.Bytes(), int64(2*3*vrecord.BytesPerVertex+3*vrecord.BytesPerArc); got != want {
		t.Errorf("Bytes() = %d, want %d", got, want)
	}
}

func TestParquetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r := path3()
	if err := r.SaveParquet(dir); err != nil {
		t.Fatal(err)
	}
	back, err := vrecord.LoadParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("read back\n%+v\nwrote\n%+v", back, r)
	}
	vt := r.VertexTable(nil, 1)
	defer vt.Release()
	if vt.NumRows() != 3 {
		t.Errorf("superstep 1's vertex table has %d rows", vt.NumRows())
	}
}

// Bad files are refused with the file and row named.
func TestLoadParquetErrors(t *testing.T) {
	r := path3()
	for _, c := range []struct {
		name  string
		spoil func(r *vrecord.Record)
		rows  string // without spoil: the messages table's rows
		want  string
	}{
		{"a message on an arc the arcs table does not have", nil, "0 0 0 1 1\n1 9 1 0 1",
			"messages.parquet: row 1: arc 9 outside the graph's 0..3"},
		{"rows out of order", nil, "1 2 1 2 1\n1 1 1 0 1", "messages.parquet: row 1: superstep 1 arc 1 after superstep 1 arc 2"},
		{"an arc that is not the arcs table's", nil, "0 0 1 0 1", "messages.parquet: row 0: arc 0 is 0→1 in the arcs table, not 1→0"},
		{"a superstep the vertices do not have", nil, "2 0 0 1 1", "messages.parquet: row 0: superstep 2 outside the record's 0..1"},
		{"a vertex outside the graph", func(r *vrecord.Record) {
			r.Targets[3] = 7
		}, "", "arcs.parquet: row 3: arc 2→7 names a vertex outside 0..2"},
		{"an unknown state", func(r *vrecord.Record) {
			r.Steps[0].State[2] = 9
		}, "", `vertices.parquet: row 2: state "State(9)"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := path3().SaveParquet(dir); err != nil {
				t.Fatal(err)
			}
			var err error
			switch bad := path3(); {
			case c.spoil == nil: // c.file holds the messages' rows
				err = writeMessages(filepath.Join(dir, vrecord.MessagesFile), c.rows)
			case strings.HasPrefix(c.want, "arcs"):
				c.spoil(bad)
				tb := bad.ArcTable(nil)
				err = table.WriteParquet(filepath.Join(dir, vrecord.ArcsFile), tb)
				tb.Release()
			default:
				c.spoil(bad)
				tb := bad.VertexTable(nil)
				err = table.WriteParquet(filepath.Join(dir, vrecord.VerticesFile), tb)
				tb.Release()
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = vrecord.LoadParquet(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	dir := t.TempDir()
	if err := r.SaveParquet(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, vrecord.MessagesFile))
	if _, err := vrecord.LoadParquet(dir); err == nil || !strings.Contains(err.Error(), "messages.parquet") {
		t.Errorf("a missing file: %v", err)
	}
}

// writeMessages writes a messages table from rows of "superstep arc source
// target count".
func writeMessages(path, rows string) error {
	fields := []arrow.Field{}
	for _, n := range []string{"superstep", "arc", "source", "target", "count"} {
		fields = append(fields, arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int32})
	}
	md := arrow.NewMetadata([]string{vrecord.MetaTable}, []string{"messages"})
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, &md))
	defer b.Release()
	for _, line := range strings.Split(rows, "\n") {
		for k, f := range strings.Fields(line) {
			x, err := strconv.Atoi(f)
			if err != nil {
				return err
			}
			b.Field(k).(*array.Int32Builder).Append(int32(x))
		}
	}
	tb := table.FromBuilder(b)
	defer tb.Release()
	return table.WriteParquet(path, tb)
}
