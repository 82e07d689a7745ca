package vrecord_test

import (
	"errors"
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
func path3Steps() []vrecord.Step {
	inf := math.Inf(1)
	return []vrecord.Step{
		{Superstep: 0, Value: []float64{0, inf, inf}, State: []vrecord.State{vrecord.Active, vrecord.Woken, vrecord.Woken},
			Sent: []int32{1, 0, 0}, Received: []int32{0, 1, 0}, Arcs: []vrecord.ArcCount{{Arc: 0, Count: 1}}},
		{Superstep: 1, Value: []float64{0, 1, inf}, State: []vrecord.State{vrecord.Halted, vrecord.Active, vrecord.Halted},
			Sent: []int32{0, 2, 0}, Received: []int32{1, 0, 1}, Arcs: []vrecord.ArcCount{{Arc: 1, Count: 1}, {Arc: 2, Count: 1}}},
	}
}

func path3() *vrecord.Record {
	inf := math.Inf(1)
	r, err := vrecord.New([]int{0, 1, 3, 4}, []int32{1, 0, 2, 1}, []float64{inf, inf, inf}, 1<<20)
	if err != nil {
		panic(err)
	}
	for _, s := range path3Steps() {
		if err := r.AppendStep(s); err != nil {
			panic(err)
		}
	}
	return r
}

// steps is every superstep of r, whole.
func steps(r *vrecord.Record) []vrecord.Step {
	var out []vrecord.Step
	for i := range r.Len() {
		out = append(out, r.Step(i))
	}
	return out
}

func TestRecordHelpers(t *testing.T) {
	r := path3()
	if got := steps(r); !reflect.DeepEqual(got, path3Steps()) {
		t.Errorf("the steps read back\n%+v\nwant\n%+v", got, path3Steps())
	}
	for a, want := range []int{0, 1, 1, 2} {
		if got := r.Source(a); got != want {
			t.Errorf("Source(%d) = %d, want %d", a, got, want)
		}
	}
	if r.Count(0, vrecord.Woken) != 2 || r.Count(1, vrecord.Halted) != 2 || r.Messages(1) != 2 {
		t.Errorf("counts: woken %d, halted %d, messages %d", r.Count(0, vrecord.Woken), r.Count(1, vrecord.Halted), r.Messages(1))
	}
	// Superstep 0 changes vertex 0's value, superstep 1 vertex 1's; each
	// touches all three (woken, active or receiving); 3 arcs; the initial
	// values.
	want := int64(2*vrecord.BytesPerChange + 6*vrecord.BytesPerTouched + 3*vrecord.BytesPerArc + 3*8)
	if got := r.Bytes(); got != want {
		t.Errorf("Bytes() = %d, want %d", got, want)
	}
	if d := r.Delta(1); !reflect.DeepEqual(d.Changed, []int32{1}) || len(d.Touched) != 3 {
		t.Errorf("superstep 1's delta: changed %v, touched %v", d.Changed, d.Touched)
	}
}

// Past KeyEvery supersteps, Step replays from the nearest snapshot: a
// counter that one vertex in turn increments reads back right at every
// superstep, and a delta over the budget is refused with the record as it
// was.
func TestRecordSnapshotsAndBudget(t *testing.T) {
	n := 5
	r, err := vrecord.New([]int{0, 0, 0, 0, 0, 0}, nil, make([]float64, n), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]float64, n)
	for i := range 3*vrecord.KeyEvery + 7 {
		vals[i%n]++
		s := vrecord.Step{Superstep: i, Value: append([]float64(nil), vals...), State: make([]vrecord.State, n), Sent: make([]int32, n), Received: make([]int32, n)}
		s.State[i%n] = vrecord.Active
		if err := r.AppendStep(s); err != nil {
			t.Fatal(err)
		}
	}
	vals = make([]float64, n)
	for i := range r.Len() {
		vals[i%n]++
		if got := r.Step(i); !reflect.DeepEqual(got.Value, vals) || got.State[i%n] != vrecord.Active || r.Count(i, vrecord.Halted) != n-1 {
			t.Fatalf("superstep %d: %v %v, want %v", i, got.Value, got.State, vals)
		}
	}
	small, _ := vrecord.New([]int{0, 0}, nil, []float64{0}, 8+vrecord.BytesPerChange)
	one := func(x float64) vrecord.Step {
		return vrecord.Step{Superstep: small.Len(), Value: []float64{x}, State: []vrecord.State{0}, Sent: []int32{0}, Received: []int32{0}}
	}
	if err := small.AppendStep(one(1)); err != nil {
		t.Fatal(err)
	}
	err = small.AppendStep(one(2))
	if !errors.Is(err, vrecord.ErrBudget) || !strings.Contains(err.Error(), "superstep 1 would take the record to 32 bytes, past its budget of 20 bytes") {
		t.Errorf("over the budget: %v", err)
	}
	if small.Len() != 1 || small.Step(0).Value[0] != 1 || small.Values()[0] != 1 {
		t.Errorf("the refused step changed the record")
	}
}

// Deltas that do not hold together are refused, naming the superstep.
func TestAppendRefusesBadDeltas(t *testing.T) {
	for _, c := range []struct {
		d    vrecord.Delta
		want string
	}{
		{vrecord.Delta{Changed: []int32{1, 0}, Values: []float64{1, 2}}, "superstep 0: changed vertex 0 is out of order"},
		{vrecord.Delta{Changed: []int32{3}, Values: []float64{1}}, "changed vertex 3 is out of order or outside 0..2"},
		{vrecord.Delta{Changed: []int32{0}}, "1 changed vertices, 0 values"},
		{vrecord.Delta{Touched: []int32{0}, State: []vrecord.State{7}, Sent: []int32{0}, Received: []int32{0}}, "vertex 0 has state 7"},
		{vrecord.Delta{Arcs: []vrecord.ArcCount{{Arc: 4, Count: 1}}}, "arc 4 is out of order or outside 0..3"},
		{vrecord.Delta{Broadcasts: []vrecord.VertexCount{{Vertex: 1, Count: 0}}}, "vertex 1 broadcast 0 times"},
	} {
		r := path3()
		r2, _ := vrecord.New(r.Offsets, r.Targets, make([]float64, 3), 0)
		if err := r2.Append(c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
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
	if !reflect.DeepEqual(steps(back), steps(r)) || back.Vertices != 3 || back.MaxBytes != r.MaxBytes || !reflect.DeepEqual(back.Offsets, r.Offsets) {
		t.Errorf("read back\n%+v\nwrote\n%+v", steps(back), steps(r))
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
		vrows string // or the vertices table's
		want  string
	}{
		{"a message on an arc the arcs table does not have", nil, "0 0 0 1 1\n1 9 1 0 1", "",
			"messages.parquet: row 1: arc 9 outside the graph's 0..3"},
		{"rows out of order", nil, "1 2 1 2 1\n1 1 1 0 1", "", "messages.parquet: row 1: superstep 1 arc 1 after superstep 1 arc 2"},
		{"an arc that is not the arcs table's", nil, "0 0 1 0 1", "", "messages.parquet: row 0: arc 0 is 0→1 in the arcs table, not 1→0"},
		{"a superstep the vertices do not have", nil, "2 0 0 1 1", "", "messages.parquet: row 0: superstep 2 outside the record's 0..1"},
		{"a vertex outside the graph", func(r *vrecord.Record) {
			r.Targets[3] = 7
		}, "", "", "arcs.parquet: row 3: arc 2→7 names a vertex outside 0..2"},
		{"an unknown state", nil, "", "0 0 0 active 1 0\n0 1 1 woken 0 1\n0 2 2 asleep 0 0", `vertices.parquet: row 2: state "asleep" (known: halted, woken, active)`},
		{"rows not whole supersteps", nil, "", "0 0 0 active 1 0\n0 1 1 woken 0 1", "vertices.parquet: 2 rows are not whole supersteps of 3 vertices"},
		{"a vertex out of place", nil, "", "0 0 0 active 1 0\n0 2 1 woken 0 1\n0 1 2 halted 0 0", "vertices.parquet: row 1: superstep 0, vertex 2; want superstep 0, vertex 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := path3().SaveParquet(dir); err != nil {
				t.Fatal(err)
			}
			var err error
			switch bad := path3(); {
			case c.vrows != "":
				err = writeVertices(filepath.Join(dir, vrecord.VerticesFile), c.vrows)
			case c.spoil == nil:
				err = writeMessages(filepath.Join(dir, vrecord.MessagesFile), c.rows)
			case strings.HasPrefix(c.want, "arcs"):
				c.spoil(bad)
				tb := bad.ArcTable(nil)
				err = table.WriteParquet(filepath.Join(dir, vrecord.ArcsFile), tb)
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
	md := arrow.NewMetadata([]string{table.MetaTable}, []string{"messages"})
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

// writeVertices writes a vertices table from rows of "superstep vertex
// value state sent received".
func writeVertices(path, rows string) error {
	fields := []arrow.Field{
		{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
		{Name: "vertex", Type: arrow.PrimitiveTypes.Int32},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64},
		{Name: "state", Type: arrow.BinaryTypes.String},
		{Name: "sent", Type: arrow.PrimitiveTypes.Int32},
		{Name: "received", Type: arrow.PrimitiveTypes.Int32},
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, line := range strings.Split(rows, "\n") {
		f := strings.Fields(line)
		for k, x := range f {
			switch k {
			case 2:
				v, _ := strconv.ParseFloat(x, 64)
				b.Field(k).(*array.Float64Builder).Append(v)
			case 3:
				b.Field(k).(*array.StringBuilder).Append(x)
			default:
				v, _ := strconv.Atoi(x)
				b.Field(k).(*array.Int32Builder).Append(int32(v))
			}
		}
	}
	tb := table.FromBuilder(b)
	defer tb.Release()
	return table.WriteParquet(path, tb)
}
