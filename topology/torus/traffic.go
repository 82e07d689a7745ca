package torus

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
)

// WholeRun is the region Boxfish gives the whole run (code_region −2). It
// is a measurement of its own, not the sum of the others: a selection
// never mixes it with other regions.
const WholeRun = -2

// Table kinds, the values of the MetaKind metadata.
const (
	KindChannels = "channels"
	KindPairs    = "pairs"
	KindNodes    = "nodes"
)

// ChannelRow is one row of a channel-counter table: what channel Channel
// carried in phase Phase of region Region.
type ChannelRow struct {
	Region, Phase int
	Channel       int
	Packets       int64
}

// PairRow is one row of a node-pair traffic table: the packets node Src
// sent node Dst in phase Phase of region Region.
type PairRow struct {
	Region, Phase int
	Src, Dst      int
	Packets       int64
}

// NodeRow is the key of one row of a node-counter table; its counters
// come as Extra columns.
type NodeRow struct {
	Region, Phase int
	Node          int
}

// Extra is an additional counter column of a table, one value per row:
// exactly one of Ints and Floats is set.
type Extra struct {
	Name   string
	Ints   []int64
	Floats []float64
}

// Metadata is the schema metadata of a table of the given kind over t:
// MetaKind, MetaShape, MetaNames, MetaMesh, MetaK2 and MetaCounter
// ("packets"). FromMetadata rebuilds t from it.
func (t *Torus) Metadata(kind string) arrow.Metadata {
	var mesh []string
	for d, m := range t.mesh {
		if m {
			mesh = append(mesh, t.names[d])
		}
	}
	ext := make([]string, len(t.extents))
	for d, k := range t.extents {
		ext[d] = strconv.Itoa(k)
	}
	return arrow.NewMetadata(
		[]string{MetaKind, MetaShape, MetaNames, MetaMesh, MetaK2, MetaCounter},
		[]string{kind, strings.Join(ext, "x"), strings.Join(t.names, ","), strings.Join(mesh, ","), strconv.Itoa(t.k2), ColPackets},
	)
}

// FromMetadata rebuilds the torus a table's schema metadata describes
// (see Torus.Metadata). MetaMesh and MetaK2 may be absent (no mesh
// dimension, two channels on extent 2).
func FromMetadata(md arrow.Metadata) (*Torus, error) {
	get := func(k string) (string, bool) {
		if i := md.FindKey(k); i >= 0 {
			return md.Values()[i], true
		}
		return "", false
	}
	shapeS, ok := get(MetaShape)
	if !ok {
		return nil, fmt.Errorf("torus: table metadata has no %s", MetaShape)
	}
	namesS, ok := get(MetaNames)
	if !ok {
		return nil, fmt.Errorf("torus: table metadata has no %s", MetaNames)
	}
	var extents []int
	for _, p := range strings.Split(shapeS, "x") {
		k, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("torus: table metadata %s = %q: %q is not an extent", MetaShape, shapeS, p)
		}
		extents = append(extents, k)
	}
	names := strings.Split(namesS, ",")
	var opts []Option
	if m, ok := get(MetaMesh); ok && m != "" {
		opts = append(opts, Mesh(strings.Split(m, ",")...))
	}
	if s, ok := get(MetaK2); ok {
		k2, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("torus: table metadata %s = %q: not a number", MetaK2, s)
		}
		opts = append(opts, Extent2Channels(k2))
	}
	t, err := New(names, extents, opts...)
	if err != nil {
		return nil, fmt.Errorf("torus: table metadata: %w", err)
	}
	return t, nil
}

// ChannelTable builds a channel-counter table over t from rows, in the
// order given, with ChannelFields and then the extra columns. Channel ids
// must be channels of t; extra columns must have one value per row. The
// caller releases the table.
func ChannelTable(t *Torus, rows []ChannelRow, extra ...Extra) (arrow.Table, error) {
	for i, r := range rows {
		if r.Channel < 0 || r.Channel >= t.Channels() {
			return nil, fmt.Errorf("torus: channel table: row %d: channel %d is outside 0..%d", i, r.Channel, t.Channels()-1)
		}
	}
	return build(t, KindChannels, ChannelFields(), len(rows), extra, func(b *array.RecordBuilder) {
		for _, r := range rows {
			b.Field(0).(*array.Int32Builder).Append(int32(r.Region))
			b.Field(1).(*array.Int32Builder).Append(int32(r.Phase))
			b.Field(2).(*array.Int32Builder).Append(int32(r.Channel))
			b.Field(3).(*array.Int64Builder).Append(r.Packets)
		}
	})
}

// PairTable builds a node-pair traffic table over t from rows, in the
// order given, with PairFields. Src and Dst must be nodes of t. The
// caller releases the table.
func PairTable(t *Torus, rows []PairRow) (arrow.Table, error) {
	for i, r := range rows {
		if r.Src < 0 || r.Src >= t.nodes || r.Dst < 0 || r.Dst >= t.nodes {
			return nil, fmt.Errorf("torus: pair table: row %d: %d→%d: node outside 0..%d", i, r.Src, r.Dst, t.nodes-1)
		}
	}
	return build(t, KindPairs, PairFields(), len(rows), nil, func(b *array.RecordBuilder) {
		for _, r := range rows {
			b.Field(0).(*array.Int32Builder).Append(int32(r.Region))
			b.Field(1).(*array.Int32Builder).Append(int32(r.Phase))
			b.Field(2).(*array.Int32Builder).Append(int32(r.Src))
			b.Field(3).(*array.Int32Builder).Append(int32(r.Dst))
			b.Field(4).(*array.Int64Builder).Append(r.Packets)
		}
	})
}

// NodeTable builds a node-counter table over t: NodeFields from rows, then
// the counter columns. Nodes must be nodes of t. The caller releases the
// table.
func NodeTable(t *Torus, rows []NodeRow, counters ...Extra) (arrow.Table, error) {
	for i, r := range rows {
		if r.Node < 0 || r.Node >= t.nodes {
			return nil, fmt.Errorf("torus: node table: row %d: node %d is outside 0..%d", i, r.Node, t.nodes-1)
		}
	}
	return build(t, KindNodes, NodeFields(), len(rows), counters, func(b *array.RecordBuilder) {
		for _, r := range rows {
			b.Field(0).(*array.Int32Builder).Append(int32(r.Region))
			b.Field(1).(*array.Int32Builder).Append(int32(r.Phase))
			b.Field(2).(*array.Int32Builder).Append(int32(r.Node))
		}
	})
}

// RankMapTable returns a rank map (rankToNode[rank] = node, −1 for a
// rank without one, as boxfish.Run.RankToNode has it) as an Arrow table of two int32 columns, rank and node, one row
// per mapped rank in rank order. The caller releases the table.
func RankMapTable(rankToNode []int) arrow.Table {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "rank", Type: arrow.PrimitiveTypes.Int32},
		{Name: ColNode, Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for r, v := range rankToNode {
		if v >= 0 {
			b.Field(0).(*array.Int32Builder).Append(int32(r))
			b.Field(1).(*array.Int32Builder).Append(int32(v))
		}
	}
	return table.FromBuilder(b)
}

// build makes a table of kind over t with the leading fields (filled by
// fill) and the extra columns.
func build(t *Torus, kind string, fields []arrow.Field, n int, extra []Extra, fill func(*array.RecordBuilder)) (arrow.Table, error) {
	lead := len(fields)
	for _, e := range extra {
		if e.Name == "" {
			return nil, fmt.Errorf("torus: %s table: an extra column has no name", kind)
		}
		for _, f := range fields {
			if f.Name == e.Name {
				return nil, fmt.Errorf("torus: %s table: extra column %q appears twice", kind, e.Name)
			}
		}
		switch {
		case e.Ints != nil && e.Floats != nil:
			return nil, fmt.Errorf("torus: %s table: extra column %q has both ints and floats", kind, e.Name)
		case e.Floats != nil:
			if len(e.Floats) != n {
				return nil, fmt.Errorf("torus: %s table: extra column %q has %d values for %d rows", kind, e.Name, len(e.Floats), n)
			}
			fields = append(fields, arrow.Field{Name: e.Name, Type: arrow.PrimitiveTypes.Float64})
		default:
			if len(e.Ints) != n {
				return nil, fmt.Errorf("torus: %s table: extra column %q has %d values for %d rows", kind, e.Name, len(e.Ints), n)
			}
			fields = append(fields, arrow.Field{Name: e.Name, Type: arrow.PrimitiveTypes.Int64})
		}
	}
	md := t.Metadata(kind)
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, &md))
	defer b.Release()
	b.Reserve(n)
	fill(b)
	for i, e := range extra {
		if e.Floats != nil {
			b.Field(lead+i).(*array.Float64Builder).AppendValues(e.Floats, nil)
		} else {
			b.Field(lead+i).(*array.Int64Builder).AppendValues(e.Ints, nil)
		}
	}
	return table.FromBuilder(b), nil
}

// SaveParquet writes a traffic table to path as Parquet (sdk/table), its
// metadata included. A table whose metadata does not describe a torus is
// refused: LoadParquet could not rebuild it.
func SaveParquet(path string, tbl arrow.Table) error {
	if _, err := FromMetadata(tbl.Schema().Metadata()); err != nil {
		return fmt.Errorf("torus: save %s: %w", path, err)
	}
	if err := table.WriteParquet(path, tbl); err != nil {
		return fmt.Errorf("torus: save: %w", err)
	}
	return nil
}

// LoadParquet reads a traffic table SaveParquet wrote and the torus its
// metadata describes. The caller releases the table.
func LoadParquet(path string) (arrow.Table, *Torus, error) {
	tbl, err := table.ReadParquet(path)
	if err != nil {
		return nil, nil, fmt.Errorf("torus: load: %w", err)
	}
	t, err := FromMetadata(tbl.Schema().Metadata())
	if err != nil {
		tbl.Release()
		return nil, nil, fmt.Errorf("torus: load %s: %w", path, err)
	}
	return tbl, t, nil
}

// checkKind fails when tbl's metadata names another kind of table; a
// table without the key passes.
func checkKind(tbl arrow.Table, want string) error {
	md := tbl.Schema().Metadata()
	if i := md.FindKey(MetaKind); i >= 0 && md.Values()[i] != want {
		return fmt.Errorf("torus: a %q table, want %q", md.Values()[i], want)
	}
	return nil
}

// ReadChannels reads a channel-counter table's leading columns back into
// rows (extra columns are read with table.Read). Channel ids below 0 are
// an error naming the row.
func ReadChannels(tbl arrow.Table) ([]ChannelRow, error) {
	if err := checkKind(tbl, KindChannels); err != nil {
		return nil, err
	}
	cols, err := table.Read(tbl, ChannelFields())
	if err != nil {
		return nil, fmt.Errorf("torus: channel table: %w", err)
	}
	rows := make([]ChannelRow, len(cols[0].Ints))
	for i := range rows {
		rows[i] = ChannelRow{Region: int(cols[0].Ints[i]), Phase: int(cols[1].Ints[i]), Channel: int(cols[2].Ints[i]), Packets: cols[3].Ints[i]}
		if rows[i].Channel < 0 {
			return nil, fmt.Errorf("torus: channel table: column channel: row %d: %d, want ≥ 0", i, rows[i].Channel)
		}
	}
	return rows, nil
}

// ReadPairs reads a node-pair traffic table back into rows. Node ids below
// 0 are an error naming the row.
func ReadPairs(tbl arrow.Table) ([]PairRow, error) {
	if err := checkKind(tbl, KindPairs); err != nil {
		return nil, err
	}
	cols, err := table.Read(tbl, PairFields())
	if err != nil {
		return nil, fmt.Errorf("torus: pair table: %w", err)
	}
	rows := make([]PairRow, len(cols[0].Ints))
	for i := range rows {
		rows[i] = PairRow{Region: int(cols[0].Ints[i]), Phase: int(cols[1].Ints[i]), Src: int(cols[2].Ints[i]), Dst: int(cols[3].Ints[i]), Packets: cols[4].Ints[i]}
		if rows[i].Src < 0 || rows[i].Dst < 0 {
			return nil, fmt.Errorf("torus: pair table: row %d: %d→%d, want node ids ≥ 0", i, rows[i].Src, rows[i].Dst)
		}
	}
	return rows, nil
}

// RegionPhase is a (region, phase) present in a table.
type RegionPhase struct {
	Region, Phase int
}

// Regions lists the (region, phase) pairs present in a traffic table of
// any kind, ordered by region and then phase.
func Regions(tbl arrow.Table) ([]RegionPhase, error) {
	cols, err := table.Read(tbl, ChannelFields()[:2])
	if err != nil {
		return nil, fmt.Errorf("torus: regions: %w", err)
	}
	seen := map[RegionPhase]bool{}
	var out []RegionPhase
	for i, r := range cols[0].Ints {
		rp := RegionPhase{int(r), int(cols[1].Ints[i])}
		if !seen[rp] {
			seen[rp] = true
			out = append(out, rp)
		}
	}
	slices.SortFunc(out, func(a, b RegionPhase) int {
		if a.Region != b.Region {
			return a.Region - b.Region
		}
		return a.Phase - b.Phase
	})
	return out, nil
}

// Selection chooses the rows of a traffic table that a sum takes.
//
// Regions lists the regions; empty means every region of the table except
// WholeRun (−2). WholeRun is a measurement of its own (Boxfish's whole
// run, not the sum of the others), so a selection that lists it together
// with another region is refused with ErrMixedWholeRun; select it alone
// as Regions: []int{WholeRun}. Phases lists the phases taken in every
// selected region; empty means all phases.
type Selection struct {
	Regions []int
	Phases  []int
}

// ErrMixedWholeRun is the error (wrapped) of a selection that mixes
// region −2 with other regions.
var ErrMixedWholeRun = errors.New("region −2 is the whole run, a measurement of its own: select it alone, never summed with other regions")

// check refuses a selection that mixes WholeRun with other regions.
func (s Selection) check() error {
	whole, other := false, false
	for _, r := range s.Regions {
		if r == WholeRun {
			whole = true
		} else {
			other = true
		}
	}
	if whole && other {
		return fmt.Errorf("torus: selection of regions %v: %w", s.Regions, ErrMixedWholeRun)
	}
	return nil
}

// Has says whether the selection takes rows of (region, phase).
func (s Selection) Has(region, phase int) bool {
	if len(s.Regions) == 0 {
		if region == WholeRun {
			return false
		}
	} else if !slices.Contains(s.Regions, region) {
		return false
	}
	return len(s.Phases) == 0 || slices.Contains(s.Phases, phase)
}

// ChannelLoads sums a channel-counter table's packets per channel over the
// selected rows: loads[c] for every channel c of t. A channel id outside
// t is an error naming the row.
func ChannelLoads(t *Torus, tbl arrow.Table, sel Selection) ([]int64, error) {
	if err := sel.check(); err != nil {
		return nil, err
	}
	rows, err := ReadChannels(tbl)
	if err != nil {
		return nil, err
	}
	loads := make([]int64, t.Channels())
	for i, r := range rows {
		if !sel.Has(r.Region, r.Phase) {
			continue
		}
		if r.Channel >= len(loads) {
			return nil, fmt.Errorf("torus: channel table: row %d: channel %d is outside 0..%d of %s", i, r.Channel, len(loads)-1, t)
		}
		loads[r.Channel] += r.Packets
	}
	return loads, nil
}

// RoutePairs routes the selected rows of a node-pair traffic table onto
// t's channels by dimension-order routing (see Route) and returns the
// load of every channel. Rows are first summed per node pair; a pair
// with Src = Dst crosses no channel. A node outside t is an error naming
// the row.
func RoutePairs(t *Torus, pairs arrow.Table, sel Selection, o RouteOptions) ([]int64, error) {
	if err := sel.check(); err != nil {
		return nil, err
	}
	rows, err := ReadPairs(pairs)
	if err != nil {
		return nil, err
	}
	kept := rows[:0]
	for i, r := range rows {
		if r.Src >= t.nodes || r.Dst >= t.nodes {
			return nil, fmt.Errorf("torus: pair table: row %d: %d→%d: node outside 0..%d of %s", i, r.Src, r.Dst, t.nodes-1, t)
		}
		if sel.Has(r.Region, r.Phase) {
			kept = append(kept, r)
		}
	}
	return Loads(t, Aggregate(t, kept), o)
}

// LoadRows turns per-channel loads (as Loads, RoutePairs and ChannelLoads
// return) into channel-table rows of one region and phase, one row per
// channel in id order, idle channels included: ChannelTable(t,
// LoadRows(loads, r, p)) saves computed loads as a channel-counter table.
func LoadRows(loads []int64, region, phase int) []ChannelRow {
	rows := make([]ChannelRow, len(loads))
	for id, l := range loads {
		rows[id] = ChannelRow{Region: region, Phase: phase, Channel: id, Packets: l}
	}
	return rows
}
