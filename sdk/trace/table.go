package trace

// The trace as Arrow tables, saved as Parquet with plain types like the
// profile tables (DuckDB, pandas and Polars open them):
//
//	processes  one row per process: process int32, name, host string, rank int32
//	messages   one row per matched message, ordered like Trace.Messages:
//	           src, dst int32, send_ns, recv_ns int64 (ns since the trace
//	           start), bytes int64, tag int32, comm string, kind string
//	           ("send" or "isend")
//	regions    one row per region interval: process int32, enter_ns,
//	           leave_ns int64, region string, depth int32
//
// Every table's metadata names the table (table.MetaTable,
// "superstep.table"), the version (table.MetaVersion, "superstep.version")
// and the trace ("superstep.trace"); the processes
// table also keeps the clock ("superstep.ticks_per_second",
// "superstep.offset_ticks"), the length ("superstep.duration_ns") and the
// unmatched events as JSON ("superstep.unmatched").

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
)

// TableVersion is the version of the table layout.
const TableVersion = 1

// Metadata keys of the tables, beside table.MetaTable and
// table.MetaVersion.
const (
	MetaTrace          = "superstep.trace"
	MetaTicksPerSecond = "superstep.ticks_per_second"
	MetaOffsetTicks    = "superstep.offset_ticks"
	MetaDurationNS     = "superstep.duration_ns"
	MetaUnmatched      = "superstep.unmatched"
)

// The file names SaveParquet writes in its directory.
const (
	ProcessesFile = "processes.parquet"
	MessagesFile  = "messages.parquet"
	RegionsFile   = "regions.parquet"
)

var (
	processFields = []arrow.Field{
		{Name: "process", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "rank", Type: arrow.PrimitiveTypes.Int32},
	}
	messageFields = []arrow.Field{
		{Name: "src", Type: arrow.PrimitiveTypes.Int32},
		{Name: "dst", Type: arrow.PrimitiveTypes.Int32},
		{Name: "send_ns", Type: arrow.PrimitiveTypes.Int64},
		{Name: "recv_ns", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tag", Type: arrow.PrimitiveTypes.Int32},
		{Name: "comm", Type: arrow.BinaryTypes.String},
		{Name: "kind", Type: arrow.BinaryTypes.String},
	}
	regionFields = []arrow.Field{
		{Name: "process", Type: arrow.PrimitiveTypes.Int32},
		{Name: "enter_ns", Type: arrow.PrimitiveTypes.Int64},
		{Name: "leave_ns", Type: arrow.PrimitiveTypes.Int64},
		{Name: "region", Type: arrow.BinaryTypes.String},
		{Name: "depth", Type: arrow.PrimitiveTypes.Int32},
	}
)

func (t *Trace) meta(name string, extra ...string) *arrow.Metadata {
	keys := []string{table.MetaTable, table.MetaVersion, MetaTrace}
	vals := []string{name, strconv.Itoa(TableVersion), t.Name}
	for i := 0; i+1 < len(extra); i += 2 {
		keys = append(keys, extra[i])
		vals = append(vals, extra[i+1])
	}
	md := arrow.NewMetadata(keys, vals)
	return &md
}

// ProcessTable is the processes table. The caller releases it; mem may be
// nil (the default allocator).
func (t *Trace) ProcessTable(mem memory.Allocator) arrow.Table {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	unmatched, _ := json.Marshal(t.Unmatched) // plain structs: cannot fail
	if t.Unmatched == nil {
		unmatched = []byte("[]")
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(processFields, t.meta("processes",
		MetaTicksPerSecond, strconv.FormatUint(t.TicksPerSecond, 10),
		MetaOffsetTicks, strconv.FormatInt(t.OffsetTicks, 10),
		MetaDurationNS, strconv.FormatInt(t.DurationNS, 10),
		MetaUnmatched, string(unmatched))))
	defer b.Release()
	for i, p := range t.Processes {
		b.Field(0).(*array.Int32Builder).Append(int32(i))
		b.Field(1).(*array.StringBuilder).Append(p.Name)
		b.Field(2).(*array.StringBuilder).Append(p.Host)
		b.Field(3).(*array.Int32Builder).Append(p.Rank)
	}
	return table.FromBuilder(b)
}

// MessageTable is the messages table. The caller releases it; mem may be
// nil. It panics if the trace does not Validate.
func (t *Trace) MessageTable(mem memory.Allocator) arrow.Table {
	if err := t.Validate(); err != nil {
		panic(err)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(messageFields, t.meta("messages")))
	defer b.Release()
	b.Reserve(len(t.Messages))
	src := b.Field(0).(*array.Int32Builder)
	dst := b.Field(1).(*array.Int32Builder)
	snd := b.Field(2).(*array.Int64Builder)
	rcv := b.Field(3).(*array.Int64Builder)
	byt := b.Field(4).(*array.Int64Builder)
	tag := b.Field(5).(*array.Int32Builder)
	com := b.Field(6).(*array.StringBuilder)
	knd := b.Field(7).(*array.StringBuilder)
	for _, m := range t.Messages {
		src.Append(m.Src)
		dst.Append(m.Dst)
		snd.Append(m.SendNS)
		rcv.Append(m.RecvNS)
		byt.Append(m.Bytes)
		tag.Append(m.Tag)
		com.Append(t.Comms[m.Comm])
		knd.Append(m.Kind.String())
	}
	return table.FromBuilder(b)
}

// RegionTable is the regions table. The caller releases it; mem may be
// nil. It panics if the trace does not Validate.
func (t *Trace) RegionTable(mem memory.Allocator) arrow.Table {
	if err := t.Validate(); err != nil {
		panic(err)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(regionFields, t.meta("regions")))
	defer b.Release()
	b.Reserve(len(t.Regions))
	for _, r := range t.Regions {
		b.Field(0).(*array.Int32Builder).Append(r.Process)
		b.Field(1).(*array.Int64Builder).Append(r.EnterNS)
		b.Field(2).(*array.Int64Builder).Append(r.LeaveNS)
		b.Field(3).(*array.StringBuilder).Append(t.RegionNames[r.Region])
		b.Field(4).(*array.Int32Builder).Append(r.Depth)
	}
	return table.FromBuilder(b)
}

// FromTables rebuilds a trace from its three tables (written by the table
// methods or by another tool with the same columns; extra columns are
// ignored). regions may be nil. Errors name the table, row and column.
func FromTables(processes, messages, regions arrow.Table) (*Trace, error) {
	t := &Trace{Comms: []string{}, RegionNames: []string{}}
	if err := t.fromProcessTable(processes); err != nil {
		return nil, fmt.Errorf("processes table: %w", err)
	}
	if err := t.fromMessageTable(messages); err != nil {
		return nil, fmt.Errorf("messages table: %w", err)
	}
	if regions != nil {
		if err := t.fromRegionTable(regions); err != nil {
			return nil, fmt.Errorf("regions table: %w", err)
		}
	}
	return t, nil
}

func (t *Trace) fromProcessTable(tb arrow.Table) error {
	md := tb.Schema().Metadata()
	if v := md.FindKey(MetaTrace); v >= 0 {
		t.Name = md.Values()[v]
	}
	var err error
	get := func(key string, parse func(string) error) {
		if i := md.FindKey(key); i >= 0 && err == nil {
			if e := parse(md.Values()[i]); e != nil {
				err = fmt.Errorf("metadata %s = %q: %w", key, md.Values()[i], e)
			}
		}
	}
	get(MetaTicksPerSecond, func(s string) (e error) { t.TicksPerSecond, e = strconv.ParseUint(s, 10, 64); return })
	get(MetaOffsetTicks, func(s string) (e error) { t.OffsetTicks, e = strconv.ParseInt(s, 10, 64); return })
	get(MetaDurationNS, func(s string) (e error) { t.DurationNS, e = strconv.ParseInt(s, 10, 64); return })
	get(MetaUnmatched, func(s string) error { return json.Unmarshal([]byte(s), &t.Unmatched) })
	if err != nil {
		return err
	}
	cols, err := table.Read(tb, processFields)
	if err != nil {
		return err
	}
	for r, id := range cols[0].Ints {
		if id != int64(r) {
			return fmt.Errorf("row %d: process %d, want %d (rows in process order, numbered from 0)", r, id, r)
		}
		rank := cols[3].Ints[r]
		if rank < -1 || rank > math.MaxInt32 {
			return fmt.Errorf("row %d: rank %d out of range", r, rank)
		}
		t.Processes = append(t.Processes, Process{Name: cols[1].Strings[r], Host: cols[2].Strings[r], Rank: int32(rank)})
	}
	return nil
}

func (t *Trace) fromMessageTable(tb arrow.Table) error {
	cols, err := table.Read(tb, messageFields)
	if err != nil {
		return err
	}
	n := int64(len(t.Processes))
	comms := map[string]int32{}
	t.Messages = make([]Message, len(cols[0].Ints))
	for r := range cols[0].Ints {
		src, dst := cols[0].Ints[r], cols[1].Ints[r]
		if src < 0 || src >= n || dst < 0 || dst >= n {
			return fmt.Errorf("row %d: message %d→%d: process out of range (%d processes)", r, src, dst, n)
		}
		kind, ok := parseKind(cols[7].Strings[r])
		if !ok {
			return fmt.Errorf("row %d: kind %q, want \"send\" or \"isend\"", r, cols[7].Strings[r])
		}
		tag := cols[5].Ints[r]
		if tag < math.MinInt32 || tag > math.MaxInt32 {
			return fmt.Errorf("row %d: tag %d out of range", r, tag)
		}
		c, ok := comms[cols[6].Strings[r]]
		if !ok {
			c = int32(len(t.Comms))
			t.Comms = append(t.Comms, cols[6].Strings[r])
			comms[cols[6].Strings[r]] = c
		}
		t.Messages[r] = Message{Src: int32(src), Dst: int32(dst), SendNS: cols[2].Ints[r], RecvNS: cols[3].Ints[r],
			Bytes: cols[4].Ints[r], Tag: int32(tag), Comm: c, Kind: kind}
	}
	return nil
}

func (t *Trace) fromRegionTable(tb arrow.Table) error {
	cols, err := table.Read(tb, regionFields)
	if err != nil {
		return err
	}
	n := int64(len(t.Processes))
	names := map[string]int32{}
	for r := range cols[0].Ints {
		p := cols[0].Ints[r]
		if p < 0 || p >= n {
			return fmt.Errorf("row %d: process %d out of range (%d processes)", r, p, n)
		}
		enter, leave := cols[1].Ints[r], cols[2].Ints[r]
		if leave < enter {
			return fmt.Errorf("row %d: leaves at %d ns before it enters at %d ns", r, leave, enter)
		}
		depth := cols[4].Ints[r]
		if depth < 0 || depth > math.MaxInt32 {
			return fmt.Errorf("row %d: depth %d out of range", r, depth)
		}
		name := cols[3].Strings[r]
		id, ok := names[name]
		if !ok {
			id = int32(len(t.RegionNames))
			t.RegionNames = append(t.RegionNames, name)
			names[name] = id
		}
		t.Regions = append(t.Regions, Region{Process: int32(p), EnterNS: enter, LeaveNS: leave, Region: id, Depth: int32(depth)})
	}
	return nil
}

// SaveParquet writes the three tables to dir/processes.parquet,
// dir/messages.parquet and dir/regions.parquet, creating dir if needed.
func (t *Trace) SaveParquet(dir string) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return table.WriteDir(dir, table.Named{File: ProcessesFile, Table: t.ProcessTable},
		table.Named{File: MessagesFile, Table: t.MessageTable}, table.Named{File: RegionsFile, Table: t.RegionTable})
}

// LoadParquet reads a trace SaveParquet wrote. regions.parquet may be
// missing (a trace without regions). Errors name the file.
func LoadParquet(dir string) (*Trace, error) {
	tables, release, err := table.ReadDir(dir, []string{ProcessesFile, MessagesFile, RegionsFile}, RegionsFile)
	defer release()
	if err != nil {
		return nil, err
	}
	t, err := FromTables(tables[0], tables[1], tables[2])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return t, nil
}
