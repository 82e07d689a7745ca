package fattree

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
)

var t0 = time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)

func metaValue(t arrow.Table, key string) string {
	md := t.Schema().Metadata()
	if i := md.FindKey(key); i >= 0 {
		return md.Values()[i]
	}
	return ""
}

func TestCountersTableParquet(t *testing.T) {
	rows := []CounterRow{
		{Time: t0, Link: 0, Bytes: 4096, Packets: 1},
		{Time: t0, Link: 7, Bytes: 1 << 40, Packets: 1 << 28, XmitWait: 3, Errors: 2, Saturated: true},
		{Time: t0.Add(time.Minute), Link: 0},
	}
	tb := CountersTable(rows)
	defer tb.Release()
	if got := metaValue(tb, table.MetaTable); got != "counters" {
		t.Errorf("superstep.table = %q", got)
	}
	if got := metaValue(tb, table.MetaVersion); got != "1" {
		t.Errorf("superstep.version = %q", got)
	}
	path := filepath.Join(t.TempDir(), "counters.parquet")
	if err := table.WriteParquet(path, tb); err != nil {
		t.Fatal(err)
	}
	back, err := table.ReadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if got := metaValue(back, table.MetaTable); got != "counters" {
		t.Errorf("after Parquet: superstep.table = %q", got)
	}
	got, err := ReadCounters(back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, rows)
	}
	if _, err := ReadLinks(back); err == nil || !strings.Contains(err.Error(), `"counters" table`) {
		t.Errorf("ReadLinks of a counters table: %v", err)
	}
}

func TestLinksTableParquet(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	tb := LinksTable(f)
	defer tb.Release()
	path := filepath.Join(t.TempDir(), "links.parquet")
	if err := table.WriteParquet(path, tb); err != nil {
		t.Fatal(err)
	}
	back, err := table.ReadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if got := metaValue(back, MetaFabric); got != f.Spec.String() {
		t.Errorf("superstep.fabric = %q", got)
	}
	got, err := ReadLinks(back)
	if err != nil {
		t.Fatal(err)
	}
	want := LinkRows(f)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip differs")
	}
	if len(got) != len(f.Links) {
		t.Fatalf("%d rows, want %d", len(got), len(f.Links))
	}
	// Spot checks: node 0's up link, and an L3→L2 link.
	if r := got[0]; r.Kind != "L0->L1" || r.SrcName != "node 0" || r.DstName != "L1 p0 s0" || r.Level != 1 || r.Pod != 0 || r.Bundle != -1 ||
		r.SrcGUID != "0x0002c90000000001" || r.DstPort != 1 || r.Name != "node 0 -> L1 p0 s0" {
		t.Errorf("link 0: %+v", r)
	}
	first, _ := f.KindLinks(Down32)
	l := f.Links[first]
	if r := got[first]; r.Kind != "L3->L2" || r.Level != 3 || r.Pod != f.Switches[l.To].Pod || r.Bundle != f.Switches[l.From].Bundle || r.SrcPort != l.FromPort {
		t.Errorf("link %d: %+v", first, r)
	}
}

func TestReadCountersErrors(t *testing.T) {
	// A table from another tool: no metadata, no saturated column, a
	// negative byte count in row 1.
	sc := arrow.NewSchema(counterFields[:6], nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	b.Field(1).(*array.Int32Builder).AppendValues([]int32{0, 1}, nil)
	b.Field(2).(*array.Int64Builder).AppendValues([]int64{10, -1}, nil)
	for c := 3; c < 6; c++ {
		b.Field(c).(*array.Int64Builder).AppendValues([]int64{0, 0}, nil)
	}
	tb := table.FromBuilder(b)
	defer tb.Release()
	_, err := ReadCounters(tb)
	if err == nil || !strings.Contains(err.Error(), "column bytes: row 1") {
		t.Errorf("negative bytes: %v", err)
	}
	// A missing column names itself.
	sc2 := arrow.NewSchema(counterFields[:2], nil)
	b2 := array.NewRecordBuilder(memory.DefaultAllocator, sc2)
	defer b2.Release()
	tb2 := table.FromBuilder(b2)
	defer tb2.Release()
	if _, err := ReadCounters(tb2); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("missing columns: %v", err)
	}
}

func TestDeltas(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	const max32 = math.MaxUint32
	tests := []struct {
		name  string
		snaps []Snapshot
		want  []CounterRow
		warns []string // substrings, one per warning
		err   string
	}{
		{
			name:  "one snapshot is a baseline only",
			snaps: []Snapshot{{Time: at(0), Links: []LinkCounters{{Link: 3, Bytes: 100}}}},
		},
		{
			name: "plain deltas, rows sorted by link",
			snaps: []Snapshot{
				{Time: at(0), Links: []LinkCounters{{Link: 5, Bytes: 1000, Packets: 10}, {Link: 2, Bytes: 50, Errors: 1}}},
				{Time: at(10), Links: []LinkCounters{{Link: 5, Bytes: 5096, Packets: 11, XmitWait: 7}, {Link: 2, Bytes: 50, Errors: 4}}},
				{Time: at(20), Links: []LinkCounters{{Link: 2, Bytes: 150, Errors: 4}, {Link: 5, Bytes: 5096, Packets: 11, XmitWait: 7}}},
			},
			want: []CounterRow{
				{Time: at(10), Link: 2, Errors: 3},
				{Time: at(10), Link: 5, Bytes: 4096, Packets: 1, XmitWait: 7},
				{Time: at(20), Link: 2, Bytes: 100},
				{Time: at(20), Link: 5},
			},
		},
		{
			name: "a decrease is a reset",
			snaps: []Snapshot{
				{Time: at(0), Where: "perf.txt:1", Links: []LinkCounters{{Link: 1, Bytes: 9000, Packets: 9}}},
				{Time: at(60), Where: "perf.txt:40", Links: []LinkCounters{{Link: 1, Bytes: 300, Packets: 12}}},
			},
			want:  []CounterRow{{Time: at(60), Link: 1, Bytes: 300, Packets: 3}},
			warns: []string{"link 1 at 2026-11-24T15:01:00Z (perf.txt:40): bytes went from 9000 to 300: a reset"},
		},
		{
			name: "the link's own line in the snapshot's file",
			snaps: []Snapshot{
				{Time: at(0), Links: []LinkCounters{{Link: 1, Packets: 5}}},
				{Time: at(60), Where: "a", Links: []LinkCounters{{Link: 1, Packets: 2, Line: 7}}},
			},
			want:  []CounterRow{{Time: at(60), Link: 1, Packets: 2}},
			warns: []string{"(a:7): packets went from 5 to 2"},
		},
		{
			name: "a 32-bit counter at 2^32-1 is saturated",
			snaps: []Snapshot{
				{Time: at(0), Links: []LinkCounters{{Link: 0, Bytes: max32 - 100, Bits: 32}, {Link: 4, Bytes: max32 - 1, Bits: 64}}},
				{Time: at(1), Links: []LinkCounters{{Link: 0, Bytes: max32, Bits: 32}, {Link: 4, Bytes: max32, Bits: 64}}},
				{Time: at(2), Links: []LinkCounters{{Link: 0, Bytes: max32, Bits: 32}, {Link: 4, Bytes: max32 + 5}}},
			},
			want: []CounterRow{
				{Time: at(1), Link: 0, Bytes: 100, Saturated: true},
				{Time: at(1), Link: 4, Bytes: 1},
				{Time: at(2), Link: 0, Bytes: 0, Saturated: true},
				{Time: at(2), Link: 4, Bytes: 5},
			},
			warns: []string{"link 0 at 2026-11-24T15:00:01Z: a 32-bit counter is saturated", "link 0 at 2026-11-24T15:00:02Z: a 32-bit counter is saturated"},
		},
		{
			name: "a link missing from a snapshot skips its intervals",
			snaps: []Snapshot{
				{Time: at(0), Links: []LinkCounters{{Link: 0, Bytes: 10}}},
				{Time: at(1), Links: []LinkCounters{{Link: 1, Bytes: 10}}},
				{Time: at(2), Links: []LinkCounters{{Link: 0, Bytes: 30}, {Link: 1, Bytes: 15}}},
			},
			want: []CounterRow{{Time: at(2), Link: 0, Bytes: 20}, {Time: at(2), Link: 1, Bytes: 5}},
		},
		{
			name:  "time must increase",
			snaps: []Snapshot{{Time: at(5)}, {Time: at(5), Where: "x:3"}},
			err:   "snapshot 1 (x:3) at 2026-11-24T15:00:05Z is not after snapshot 0",
		},
		{
			name:  "a link twice",
			snaps: []Snapshot{{Time: at(0), Where: "y:2", Links: []LinkCounters{{Link: 1}, {Link: 1}}}},
			err:   "snapshot 0 (y:2) lists link 1 twice",
		},
		{
			name:  "too big for 32 bits",
			snaps: []Snapshot{{Time: at(0), Links: []LinkCounters{{Link: 1, XmitWait: max32 + 1, Bits: 32}}}},
			err:   "32-bit counter xmit_wait = 4294967296 exceeds",
		},
		{
			name:  "a bad width",
			snaps: []Snapshot{{Time: at(0), Links: []LinkCounters{{Link: 1, Bits: 16}}}},
			err:   "counters of 16 bits",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, warns, err := Deltas(tc.snaps)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rows, tc.want) {
				t.Errorf("rows:\n got %+v\nwant %+v", rows, tc.want)
			}
			if len(warns) != len(tc.warns) {
				t.Fatalf("warnings %v, want %d", warns, len(tc.warns))
			}
			for i, w := range tc.warns {
				if !strings.Contains(warns[i].Msg, w) {
					t.Errorf("warning %d: %q, want %q in it", i, warns[i].Msg, w)
				}
			}
		})
	}
}

func TestPortDirection(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	// Port 3 of L1 p0 s0 is an up port, cabled to an L2.
	sw := f.L1(0, 0)
	out := f.Switches[sw].Ports[2].Out
	in := f.Switches[sw].Ports[2].In
	l := f.Links[in]
	if l.To != sw || l.ToPort != 3 || f.Links[out].From != sw || f.Links[out].FromPort != 3 {
		t.Fatalf("port 3's links: in %+v, out %+v", l, f.Links[out])
	}
	// A receive counter of 1000 bytes, no transmit: it lands on peer→owner.
	count := func(d Direction) map[int]uint64 {
		rx, tx, err := SwitchPort(f, sw, 3, d)
		if err != nil {
			t.Fatal(err)
		}
		return map[int]uint64{rx: 1000, tx: 0}
	}
	if got := count(PortDirection); got[in] != 1000 || got[out] != 0 {
		t.Errorf("PortDirection: %v, want 1000 on link %d (peer→owner)", got, in)
	}
	if got := count(TreeScopeDirection); got[out] != 1000 || got[in] != 0 {
		t.Errorf("TreeScopeDirection: %v, want 1000 on link %d (owner→peer)", got, out)
	}
	// A node: receive is L1→node.
	rx, tx, err := NodePort(f, 5, PortDirection)
	if err != nil || rx != f.Nodes[5].Down || tx != f.Nodes[5].Up || f.Links[rx].Kind != Down10 {
		t.Errorf("NodePort(5) = %d, %d, %v", rx, tx, err)
	}
	rx, tx, err = NodePort(f, 5, TreeScopeDirection)
	if err != nil || rx != f.Nodes[5].Up || tx != f.Nodes[5].Down {
		t.Errorf("NodePort(5, TreeScope) = %d, %d, %v", rx, tx, err)
	}
	if _, _, err := SwitchPort(f, sw, 5, PortDirection); err == nil || !strings.Contains(err.Error(), "L1 p0 s0 has no port 5") {
		t.Errorf("bad port: %v", err)
	}
	if _, _, err := SwitchPort(f, len(f.Switches), 1, PortDirection); err == nil {
		t.Errorf("bad switch: no error")
	}
	if _, _, err := NodePort(f, -1, PortDirection); err == nil {
		t.Errorf("bad node: no error")
	}
}

// Window sums by hand: link 0 carries 1, 2, 4, 8 bytes in four
// one-minute intervals, link 2 carries 100 in the third; rows out of
// order.
func TestCounterSums(t *testing.T) {
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	rows := []CounterRow{
		{Time: at(3), Link: 0, Bytes: 4}, {Time: at(3), Link: 2, Bytes: 100},
		{Time: at(1), Link: 0, Bytes: 1}, {Time: at(2), Link: 0, Bytes: 2}, {Time: at(4), Link: 0, Bytes: 8},
	}
	c, err := NewCounterSums(rows, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		from, to time.Time
		want     []int64
	}{
		{time.Time{}, time.Time{}, []int64{15, 0, 100}},
		{at(1), at(3), []int64{6, 0, 100}},
		{at(0), at(1), []int64{1, 0, 0}},
		{at(3), time.Time{}, []int64{8, 0, 0}},
		{at(2).Add(30 * time.Second), at(3).Add(30 * time.Second), []int64{4, 0, 100}},
		{at(4), at(9), []int64{0, 0, 0}},
		{at(3), at(1), []int64{0, 0, 0}},
	} {
		if got := c.Window(w.from, w.to); !reflect.DeepEqual(got, w.want) {
			t.Errorf("(%s, %s]: %v, want %v", w.from.Format("15:04:05"), w.to.Format("15:04:05"), got, w.want)
		}
	}
	if len(c.Ends) != 4 || !c.Ends[0].Equal(at(1)) {
		t.Errorf("ends %v", c.Ends)
	}
	if _, err := NewCounterSums([]CounterRow{{Time: at(1), Link: 3}}, 3); err == nil || !strings.Contains(err.Error(), "names link 3") {
		t.Errorf("a link out of range: %v", err)
	}
}

// CounterColumns holds the rows CountersTable holds, and its table reads
// back as they were.
func TestCounterColumns(t *testing.T) {
	rows := []CounterRow{
		{Time: t0, Link: 0, Bytes: 4096, Packets: 1},
		{Time: t0, Link: 7, Bytes: 1 << 40, Packets: 1 << 28, XmitWait: 3, Errors: 2, Saturated: true},
		{Time: t0.Add(time.Minute), Link: 0},
	}
	var c CounterColumns
	c.Grow(2)
	for _, r := range rows {
		c.Append(r)
	}
	if c.Len() != 3 || !reflect.DeepEqual(c.Rows(), rows) {
		t.Fatalf("rows %+v", c.Rows())
	}
	tb := c.Table()
	defer tb.Release()
	if got := metaValue(tb, table.MetaTable); got != "counters" {
		t.Errorf("superstep.table = %q", got)
	}
	got, err := ReadCounters(tb)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("table:\n got %+v\nwant %+v", got, rows)
	}
	// Deltas by column give the rows Deltas gives.
	snaps := []Snapshot{
		{Time: t0, Links: []LinkCounters{{Link: 3, Bytes: 10}, {Link: 1, Bytes: 5}}},
		{Time: t0.Add(time.Minute), Links: []LinkCounters{{Link: 3, Bytes: 30}, {Link: 1, Bytes: 6}}},
	}
	want, _, err := Deltas(snaps)
	if err != nil {
		t.Fatal(err)
	}
	ds := DeltaStream{Columns: &CounterColumns{}}
	for _, s := range snaps {
		if err := ds.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if rs, _ := ds.Result(); rs != nil || !reflect.DeepEqual(ds.Columns.Rows(), want) {
		t.Errorf("by column: %+v, want %+v", ds.Columns.Rows(), want)
	}
}
