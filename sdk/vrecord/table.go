package vrecord

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
)

// The file names SaveParquet writes in its directory.
const (
	VerticesFile = "vertices.parquet"
	MessagesFile = "messages.parquet"
	ArcsFile     = "arcs.parquet"
)

// Schema metadata of the record's tables, beside table.MetaTable (which
// names the table).
const (
	MetaVertices = "superstep.vertices"
	MetaMaxBytes = "superstep.max_bytes"
)

var (
	vertexFields = []arrow.Field{
		{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
		{Name: "vertex", Type: arrow.PrimitiveTypes.Int32},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64},
		{Name: "state", Type: arrow.BinaryTypes.String},
		{Name: "sent", Type: arrow.PrimitiveTypes.Int32},
		{Name: "received", Type: arrow.PrimitiveTypes.Int32},
	}
	messageFields = []arrow.Field{
		{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
		{Name: "arc", Type: arrow.PrimitiveTypes.Int32},
		{Name: "source", Type: arrow.PrimitiveTypes.Int32},
		{Name: "target", Type: arrow.PrimitiveTypes.Int32},
		{Name: "count", Type: arrow.PrimitiveTypes.Int32},
	}
	arcFields = []arrow.Field{
		{Name: "arc", Type: arrow.PrimitiveTypes.Int32},
		{Name: "source", Type: arrow.PrimitiveTypes.Int32},
		{Name: "target", Type: arrow.PrimitiveTypes.Int32},
	}
)

func (r *Record) meta(name string) *arrow.Metadata {
	md := arrow.NewMetadata([]string{table.MetaTable, MetaVertices, MetaMaxBytes},
		[]string{name, strconv.Itoa(r.Vertices), strconv.FormatInt(r.MaxBytes, 10)})
	return &md
}

// VertexTable is the record as one row per superstep and vertex:
// superstep, vertex (index), value, state ("halted", "woken", "active"),
// sent, received. Steps selects supersteps (none: all). The caller
// releases the table; mem may be nil.
func (r *Record) VertexTable(mem memory.Allocator, steps ...int) arrow.Table {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if steps == nil {
		for i := range r.Len() {
			steps = append(steps, i)
		}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(vertexFields, r.meta("vertices")))
	defer b.Release()
	b.Reserve(len(steps) * r.Vertices)
	ss := b.Field(0).(*array.Int32Builder)
	vx := b.Field(1).(*array.Int32Builder)
	va := b.Field(2).(*array.Float64Builder)
	st := b.Field(3).(*array.StringBuilder)
	se := b.Field(4).(*array.Int32Builder)
	re := b.Field(5).(*array.Int32Builder)
	for _, i := range steps {
		s := r.Step(i)
		for v := range r.Vertices {
			ss.Append(int32(s.Superstep))
			vx.Append(int32(v))
			va.Append(s.Value[v])
			st.Append(s.State[v].String())
			se.Append(s.Sent[v])
			re.Append(s.Received[v])
		}
	}
	return table.FromBuilder(b)
}

// MessageTable is one row per superstep and arc that carried messages
// (ArcMessages: broadcasts spread over their arcs):
// superstep, arc (index), source and target vertices, count. The caller
// releases it; mem may be nil.
func (r *Record) MessageTable(mem memory.Allocator) arrow.Table {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(messageFields, r.meta("messages")))
	defer b.Release()
	ss := b.Field(0).(*array.Int32Builder)
	ar := b.Field(1).(*array.Int32Builder)
	so := b.Field(2).(*array.Int32Builder)
	ta := b.Field(3).(*array.Int32Builder)
	co := b.Field(4).(*array.Int32Builder)
	for i := range r.Len() {
		for _, ac := range r.ArcMessages(i) {
			ss.Append(int32(i))
			ar.Append(ac.Arc)
			so.Append(int32(r.Source(int(ac.Arc))))
			ta.Append(r.Targets[ac.Arc])
			co.Append(ac.Count)
		}
	}
	return table.FromBuilder(b)
}

// ArcTable is the graph's shape: one row per arc (CSR order) with its
// source and target vertices. The caller releases it; mem may be nil.
func (r *Record) ArcTable(mem memory.Allocator) arrow.Table {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(arcFields, r.meta("arcs")))
	defer b.Release()
	b.Reserve(r.NumArcs)
	ar := b.Field(0).(*array.Int32Builder)
	so := b.Field(1).(*array.Int32Builder)
	ta := b.Field(2).(*array.Int32Builder)
	for v := range r.Vertices {
		for a := r.Offsets[v]; a < r.Offsets[v+1]; a++ {
			ar.Append(int32(a))
			so.Append(int32(v))
			ta.Append(r.Targets[a])
		}
	}
	return table.FromBuilder(b)
}

// SaveParquet writes the record's three tables (VertexTable,
// MessageTable, ArcTable) to dir/vertices.parquet, dir/messages.parquet
// and dir/arcs.parquet, creating dir if needed, with plain Parquet types
// that DuckDB, pandas and Polars read.
func (r *Record) SaveParquet(dir string) error {
	return table.WriteDir(dir,
		table.Named{File: VerticesFile, Table: func(m memory.Allocator) arrow.Table { return r.VertexTable(m) }},
		table.Named{File: MessagesFile, Table: r.MessageTable},
		table.Named{File: ArcsFile, Table: r.ArcTable})
}

// LoadParquet reads a record that SaveParquet wrote (its broadcasts read
// back as messages on arcs). Every error names the
// file and, where there is one, the row: a missing column, a vertex or arc
// outside the graph, rows out of order, an unknown state.
func LoadParquet(dir string) (*Record, error) {
	names := []string{ArcsFile, VerticesFile, MessagesFile}
	tables, release, err := table.ReadDir(dir, names)
	defer release()
	if err != nil {
		return nil, err
	}
	path := func(i int) string { return filepath.Join(dir, names[i]) }
	r := &Record{}
	md := tables[0].Schema().Metadata()
	if r.Vertices, err = metaInt(md, MetaVertices); err != nil {
		return nil, fmt.Errorf("%s: %w", path(0), err)
	}
	mb, err := metaInt(md, MetaMaxBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path(0), err)
	}
	if err := r.fromArcTable(tables[0]); err != nil {
		return nil, fmt.Errorf("%s: %w", path(0), err)
	}
	steps, err := r.fromVertexTable(tables[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path(1), err)
	}
	if err := r.fromMessageTable(tables[2], steps); err != nil {
		return nil, fmt.Errorf("%s: %w", path(2), err)
	}
	// The values before superstep 0 are not in the files: superstep 0's
	// stand for them. The budget is the one the record was made with, but
	// a record read back is kept whole (its broadcasts are arcs now).
	initial := make([]float64, r.Vertices)
	if len(steps) > 0 {
		copy(initial, steps[0].Value)
	}
	out, err := New(r.Offsets, r.Targets, initial, 1<<62)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path(0), err)
	}
	for _, s := range steps {
		if err := out.AppendStep(s); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
	}
	out.MaxBytes = int64(mb)
	return out, nil
}

func metaInt(md arrow.Metadata, key string) (int, error) {
	i := md.FindKey(key)
	if i < 0 {
		return 0, fmt.Errorf("no %s in the file's metadata", key)
	}
	n, err := strconv.Atoi(md.Values()[i])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("metadata %s is %q, want a count", key, md.Values()[i])
	}
	return n, nil
}

func (r *Record) fromArcTable(t arrow.Table) error {
	cols, err := table.Read(t, arcFields)
	if err != nil {
		return err
	}
	arc, src, dst := cols[0].Ints, cols[1].Ints, cols[2].Ints
	n := r.Vertices
	r.NumArcs = len(arc)
	r.Offsets = make([]int, n+1)
	r.Targets = make([]int32, len(arc))
	for i := range arc {
		switch {
		case arc[i] != int64(i):
			return fmt.Errorf("row %d: arc %d, want %d (arcs in order)", i, arc[i], i)
		case src[i] < 0 || src[i] >= int64(n) || dst[i] < 0 || dst[i] >= int64(n):
			return fmt.Errorf("row %d: arc %d→%d names a vertex outside 0..%d", i, src[i], dst[i], n-1)
		case i > 0 && src[i] < src[i-1]:
			return fmt.Errorf("row %d: source %d after %d (arcs grouped by source, in order)", i, src[i], src[i-1])
		}
		r.Offsets[src[i]+1]++
		r.Targets[i] = int32(dst[i])
	}
	for v := range n {
		r.Offsets[v+1] += r.Offsets[v]
	}
	return nil
}

func (r *Record) fromVertexTable(t arrow.Table) ([]Step, error) {
	cols, err := table.Read(t, vertexFields)
	if err != nil {
		return nil, err
	}
	ss, vx, va, st, se, re := cols[0].Ints, cols[1].Ints, cols[2].Floats, cols[3].Strings, cols[4].Ints, cols[5].Ints
	n := r.Vertices
	if n == 0 {
		if len(ss) > 0 {
			return nil, fmt.Errorf("%d rows for a graph without vertices", len(ss))
		}
		return nil, nil
	}
	if len(ss)%n != 0 {
		return nil, fmt.Errorf("%d rows are not whole supersteps of %d vertices", len(ss), n)
	}
	steps := make([]Step, len(ss)/n)
	for i := range steps {
		steps[i] = Step{Superstep: i, Value: make([]float64, n), State: make([]State, n), Sent: make([]int32, n), Received: make([]int32, n)}
	}
	for row := range ss {
		i, v := row/n, row%n
		if ss[row] != int64(i) || vx[row] != int64(v) {
			return nil, fmt.Errorf("row %d: superstep %d, vertex %d; want superstep %d, vertex %d (rows by superstep, then vertex)", row, ss[row], vx[row], i, v)
		}
		s := &steps[i]
		s.Value[v] = va[row]
		switch st[row] {
		case "halted":
			s.State[v] = Halted
		case "woken":
			s.State[v] = Woken
		case "active":
			s.State[v] = Active
		default:
			return nil, fmt.Errorf("row %d: state %q (known: halted, woken, active)", row, st[row])
		}
		if se[row] < 0 || se[row] > 1<<31-1 || re[row] < 0 || re[row] > 1<<31-1 {
			return nil, fmt.Errorf("row %d: sent %d, received %d", row, se[row], re[row])
		}
		s.Sent[v], s.Received[v] = int32(se[row]), int32(re[row])
	}
	return steps, nil
}

func (r *Record) fromMessageTable(t arrow.Table, steps []Step) error {
	cols, err := table.Read(t, messageFields)
	if err != nil {
		return err
	}
	ss, ar, so, ta, co := cols[0].Ints, cols[1].Ints, cols[2].Ints, cols[3].Ints, cols[4].Ints
	for row := range ss {
		i, a := ss[row], ar[row]
		switch {
		case i < 0 || i >= int64(len(steps)):
			return fmt.Errorf("row %d: superstep %d outside the record's 0..%d", row, i, len(steps)-1)
		case a < 0 || a >= int64(r.NumArcs):
			return fmt.Errorf("row %d: arc %d outside the graph's 0..%d", row, a, r.NumArcs-1)
		case so[row] != int64(r.Source(int(a))) || ta[row] != int64(r.Targets[a]):
			return fmt.Errorf("row %d: arc %d is %d→%d in the arcs table, not %d→%d", row, a, r.Source(int(a)), r.Targets[a], so[row], ta[row])
		case co[row] <= 0 || co[row] > 1<<31-1:
			return fmt.Errorf("row %d: arc %d carries %d messages", row, a, co[row])
		case row > 0 && (i < ss[row-1] || i == ss[row-1] && a <= ar[row-1]):
			return fmt.Errorf("row %d: superstep %d arc %d after superstep %d arc %d (rows by superstep, then arc)", row, i, a, ss[row-1], ar[row-1])
		}
		steps[i].Arcs = append(steps[i].Arcs, ArcCount{Arc: int32(a), Count: int32(co[row])})
	}
	return nil
}
