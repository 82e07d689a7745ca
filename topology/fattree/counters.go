package fattree

// Port counters as Arrow tables (DESIGN.md principle 4).
//
// Two tables hold a fabric's traffic:
//
//	counters  one row per (interval, directed link), ordered by time, link:
//	          time int64 (the interval's end, Unix seconds, UTC; DuckDB:
//	          to_timestamp(time), pandas: pd.to_datetime(df.time, unit="s")),
//	          link int32 (the Fabric's directed link id),
//	          bytes, packets, xmit_wait, errors int64 (what the link carried
//	          during the interval that ends at time: deltas, not the
//	          switches' cumulative values),
//	          saturated bool (a 32-bit counter of the link stuck at its
//	          maximum, 2^32−1, at the interval's end: the interval's values
//	          are lower bounds)
//	links     one row per directed link, ordered by id:
//	          id int32, kind string ("L1->L2", Kind.String),
//	          src_guid, dst_guid string ("0x" and 16 hex digits: GUIDs are
//	          unsigned 64-bit and would not fit an int64),
//	          src_port, dst_port int32 (port numbers at each end, from 1),
//	          src_name, dst_name, name string (name is "src -> dst"),
//	          level int32 (the higher level the link joins: 1 for node↔L1,
//	          2 for L1↔L2, 3 for L2↔L3), pod int32 (the pod of its lower
//	          end), bundle int32 (the bundle of an L2↔L3 link, −1 for the
//	          others), cable int32 (which parallel cable, from 0)
//
// The time is a plain int64 rather than an Arrow timestamp because plain
// types are what every reader opens alike (sdk/table writes INT64); the
// intervals are whole seconds. Each table's schema metadata says which
// table it is (table.MetaTable, "superstep.table" = "counters" or
// "links") and the layout version (table.MetaVersion,
// "superstep.version"); the links table also carries the fabric's Spec
// ("superstep.fabric").

import (
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
)

// CountersVersion is the version of the counters and links tables'
// layout, in their "superstep.version" metadata.
const CountersVersion = 1

// MetaFabric is the metadata key of the links table that holds the
// fabric's Spec; table.MetaTable and table.MetaVersion name the table and
// its layout version.
const MetaFabric = "superstep.fabric"

// CounterRow is one row of the counters table: what directed link Link
// carried in the interval that ends at Time.
type CounterRow struct {
	Time     time.Time // end of the interval, whole seconds
	Link     int       // directed link id of the Fabric
	Bytes    int64
	Packets  int64
	XmitWait int64 // ticks the link's sender waited for credits
	Errors   int64
	// Saturated reports that a 32-bit counter of the link was stuck at
	// 2^32−1 at Time: the values are lower bounds.
	Saturated bool
}

// LinkRow is one row of the links table: a directed link of a Fabric.
type LinkRow struct {
	ID               int
	Kind             string
	SrcGUID, DstGUID string // "0x" and 16 hex digits
	SrcPort, DstPort int
	SrcName, DstName string
	Name             string // "SrcName -> DstName"
	Level            int    // higher level joined: 1, 2 or 3
	Pod              int    // pod of the lower end
	Bundle           int    // bundle of an L2↔L3 link, −1 otherwise
	Cable            int    // parallel cable, from 0
}

var (
	counterFields = []arrow.Field{
		{Name: "time", Type: arrow.PrimitiveTypes.Int64},
		{Name: "link", Type: arrow.PrimitiveTypes.Int32},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
		{Name: "packets", Type: arrow.PrimitiveTypes.Int64},
		{Name: "xmit_wait", Type: arrow.PrimitiveTypes.Int64},
		{Name: "errors", Type: arrow.PrimitiveTypes.Int64},
		{Name: "saturated", Type: arrow.FixedWidthTypes.Boolean},
	}
	linkFields = []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "kind", Type: arrow.BinaryTypes.String},
		{Name: "src_guid", Type: arrow.BinaryTypes.String},
		{Name: "dst_guid", Type: arrow.BinaryTypes.String},
		{Name: "src_port", Type: arrow.PrimitiveTypes.Int32},
		{Name: "dst_port", Type: arrow.PrimitiveTypes.Int32},
		{Name: "src_name", Type: arrow.BinaryTypes.String},
		{Name: "dst_name", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "level", Type: arrow.PrimitiveTypes.Int32},
		{Name: "pod", Type: arrow.PrimitiveTypes.Int32},
		{Name: "bundle", Type: arrow.PrimitiveTypes.Int32},
		{Name: "cable", Type: arrow.PrimitiveTypes.Int32},
	}
)

func countersMeta(name string, extra ...string) *arrow.Metadata {
	keys := []string{table.MetaTable, table.MetaVersion}
	vals := []string{name, strconv.Itoa(CountersVersion)}
	for i := 0; i+1 < len(extra); i += 2 {
		keys = append(keys, extra[i])
		vals = append(vals, extra[i+1])
	}
	md := arrow.NewMetadata(keys, vals)
	return &md
}

// CountersTable is the counters table of rows, in the order given (the
// caller releases it). Times are stored as Unix seconds, truncated.
func CountersTable(rows []CounterRow) arrow.Table {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(counterFields, countersMeta("counters")))
	defer b.Release()
	b.Reserve(len(rows))
	tm := b.Field(0).(*array.Int64Builder)
	ln := b.Field(1).(*array.Int32Builder)
	by := b.Field(2).(*array.Int64Builder)
	pk := b.Field(3).(*array.Int64Builder)
	xw := b.Field(4).(*array.Int64Builder)
	er := b.Field(5).(*array.Int64Builder)
	st := b.Field(6).(*array.BooleanBuilder)
	// Column by column, a chunk at a time: appending slices is several
	// times faster than appending values.
	const chunk = 1 << 16
	var (
		times, bytes, packets, waits, errs [chunk]int64
		links                              [chunk]int32
		sat                                [chunk]bool
	)
	for lo := 0; lo < len(rows); lo += chunk {
		part := rows[lo:min(lo+chunk, len(rows))]
		for i, r := range part {
			times[i], links[i], bytes[i], packets[i] = r.Time.Unix(), int32(r.Link), r.Bytes, r.Packets
			waits[i], errs[i], sat[i] = r.XmitWait, r.Errors, r.Saturated
		}
		n := len(part)
		tm.AppendValues(times[:n], nil)
		ln.AppendValues(links[:n], nil)
		by.AppendValues(bytes[:n], nil)
		pk.AppendValues(packets[:n], nil)
		xw.AppendValues(waits[:n], nil)
		er.AppendValues(errs[:n], nil)
		st.AppendValues(sat[:n], nil)
	}
	return table.FromBuilder(b)
}

// checkTableName fails when t's metadata names another table than want; a
// table without the key (written by another tool) passes.
func checkTableName(t arrow.Table, want string) error {
	md := t.Schema().Metadata()
	if i := md.FindKey(table.MetaTable); i >= 0 && md.Values()[i] != want {
		return fmt.Errorf("fattree: a %q table, want %q", md.Values()[i], want)
	}
	return nil
}

// ReadCounters reads a counters table back into rows (times in UTC). A
// missing column, a null, a value of the wrong type or a link id below 0
// is an error naming the column and row; a table whose "superstep.table"
// metadata names another table is refused. The saturated column is
// optional (false when absent).
func ReadCounters(t arrow.Table) ([]CounterRow, error) {
	if err := checkTableName(t, "counters"); err != nil {
		return nil, err
	}
	fields := counterFields
	hasSat := len(t.Schema().FieldIndices("saturated")) > 0
	if !hasSat {
		fields = fields[:len(fields)-1]
	}
	cols, err := table.Read(t, fields)
	if err != nil {
		return nil, fmt.Errorf("fattree: counters table: %w", err)
	}
	rows := make([]CounterRow, len(cols[0].Ints))
	for i := range rows {
		link := cols[1].Ints[i]
		if link < 0 {
			return nil, fmt.Errorf("fattree: counters table: column link: row %d: %d, want a link id ≥ 0", i, link)
		}
		for _, c := range []int{2, 3, 4, 5} {
			if v := cols[c].Ints[i]; v < 0 {
				return nil, fmt.Errorf("fattree: counters table: column %s: row %d: %d, want ≥ 0", fields[c].Name, i, v)
			}
		}
		rows[i] = CounterRow{
			Time: time.Unix(cols[0].Ints[i], 0).UTC(), Link: int(link),
			Bytes: cols[2].Ints[i], Packets: cols[3].Ints[i], XmitWait: cols[4].Ints[i], Errors: cols[5].Ints[i],
		}
		if hasSat {
			rows[i].Saturated = cols[6].Bools[i]
		}
	}
	return rows, nil
}

// LinkRows describes every directed link of f, in id order.
func LinkRows(f *Fabric) []LinkRow {
	out := make([]LinkRow, len(f.Links))
	for id, l := range f.Links {
		r := LinkRow{ID: id, Kind: l.Kind.String(), SrcPort: l.FromPort, DstPort: l.ToPort, Cable: l.Cable, Bundle: -1}
		sg, sn := f.end(l.Kind.From(), l.From)
		dg, dn := f.end(l.Kind.To(), l.To)
		r.SrcGUID, r.SrcName = fmt.Sprintf("0x%016x", sg), sn
		r.DstGUID, r.DstName = fmt.Sprintf("0x%016x", dg), dn
		r.Name = sn + " -> " + dn
		r.Level = max(l.Kind.From(), l.Kind.To())
		lo, hi := l.From, l.To
		if !l.Kind.Up() {
			lo, hi = hi, lo
		}
		switch r.Level {
		case 1:
			r.Pod = f.Nodes[lo].Pod
		case 2:
			r.Pod = f.Switches[lo].Pod
		case 3:
			r.Pod = f.Switches[lo].Pod
			r.Bundle = f.Switches[hi].Bundle
		}
		out[id] = r
	}
	return out
}

// end is the GUID and name of a link's end at level (0: node index i,
// otherwise switch id i).
func (f *Fabric) end(level, i int) (uint64, string) {
	if level == 0 {
		return f.Nodes[i].GUID, f.Nodes[i].Name
	}
	return f.Switches[i].GUID, f.Switches[i].Name
}

// LinksTable is the links table of f: one row per directed link, in id
// order (the caller releases it). Its metadata carries f's Spec.
func LinksTable(f *Fabric) arrow.Table {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(linkFields, countersMeta("links", MetaFabric, f.Spec.String())))
	defer b.Release()
	b.Reserve(len(f.Links))
	for _, r := range LinkRows(f) {
		b.Field(0).(*array.Int32Builder).Append(int32(r.ID))
		b.Field(1).(*array.StringBuilder).Append(r.Kind)
		b.Field(2).(*array.StringBuilder).Append(r.SrcGUID)
		b.Field(3).(*array.StringBuilder).Append(r.DstGUID)
		b.Field(4).(*array.Int32Builder).Append(int32(r.SrcPort))
		b.Field(5).(*array.Int32Builder).Append(int32(r.DstPort))
		b.Field(6).(*array.StringBuilder).Append(r.SrcName)
		b.Field(7).(*array.StringBuilder).Append(r.DstName)
		b.Field(8).(*array.StringBuilder).Append(r.Name)
		b.Field(9).(*array.Int32Builder).Append(int32(r.Level))
		b.Field(10).(*array.Int32Builder).Append(int32(r.Pod))
		b.Field(11).(*array.Int32Builder).Append(int32(r.Bundle))
		b.Field(12).(*array.Int32Builder).Append(int32(r.Cable))
	}
	return table.FromBuilder(b)
}

// ReadLinks reads a links table back into rows. A missing column, a null
// or a value of the wrong type is an error naming the column and row; a
// table whose "superstep.table" metadata names another table is refused.
func ReadLinks(t arrow.Table) ([]LinkRow, error) {
	if err := checkTableName(t, "links"); err != nil {
		return nil, err
	}
	c, err := table.Read(t, linkFields)
	if err != nil {
		return nil, fmt.Errorf("fattree: links table: %w", err)
	}
	rows := make([]LinkRow, len(c[0].Ints))
	for i := range rows {
		rows[i] = LinkRow{
			ID: int(c[0].Ints[i]), Kind: c[1].Strings[i],
			SrcGUID: c[2].Strings[i], DstGUID: c[3].Strings[i],
			SrcPort: int(c[4].Ints[i]), DstPort: int(c[5].Ints[i]),
			SrcName: c[6].Strings[i], DstName: c[7].Strings[i], Name: c[8].Strings[i],
			Level: int(c[9].Ints[i]), Pod: int(c[10].Ints[i]), Bundle: int(c[11].Ints[i]), Cable: int(c[12].Ints[i]),
		}
	}
	return rows, nil
}
