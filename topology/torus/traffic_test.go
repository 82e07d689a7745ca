package torus

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"superstep/sdk/table"
)

func TestMetadataRoundTrip(t *testing.T) {
	for _, tr := range []*Torus{
		mustNew(t, []string{"x", "y", "z"}, []int{8, 8, 8}),
		mustNew(t, []string{"a", "b", "c"}, []int{2, 3, 4}, Extent2Channels(1), Mesh("c", "a")),
		mustNew(t, []string{"a", "b", "c", "d", "e"}, []int{4, 12, 16, 16, 2}),
	} {
		back, err := FromMetadata(tr.Metadata(KindPairs))
		if err != nil {
			t.Fatal(err)
		}
		if back.String() != tr.String() || back.Channels() != tr.Channels() || back.k2 != tr.k2 {
			t.Errorf("FromMetadata(%s) = %s with %d channels", tr, back, back.Channels())
		}
	}
	bad := []arrow.Metadata{
		arrow.NewMetadata(nil, nil),
		arrow.NewMetadata([]string{MetaShape}, []string{"8x8"}),
		arrow.NewMetadata([]string{MetaShape, MetaNames}, []string{"8xq", "x,y"}),
		arrow.NewMetadata([]string{MetaShape, MetaNames}, []string{"8x8", "x"}),
		arrow.NewMetadata([]string{MetaShape, MetaNames, MetaK2}, []string{"8x2", "x,y", "3"}),
	}
	for _, md := range bad {
		if _, err := FromMetadata(md); err == nil {
			t.Errorf("FromMetadata(%v) accepted", md)
		}
	}
}

func TestChannelTableParquet(t *testing.T) {
	tr := mustNew(t, []string{"a", "b", "c"}, []int{2, 3, 4}, Extent2Channels(1), Mesh("b"))
	rows := []ChannelRow{
		{Region: -2, Phase: 0, Channel: 0, Packets: 100},
		{Region: 1, Phase: 0, Channel: 0, Packets: 7},
		{Region: 1, Phase: 1, Channel: 0, Packets: 5},
		{Region: 1, Phase: 1, Channel: 3, Packets: 2},
		{Region: 4, Phase: 0, Channel: 3, Packets: 11},
	}
	extra := []Extra{
		{Name: "bytes", Ints: []int64{3200, 224, 160, 64, 352}},
		{Name: "stall", Floats: []float64{0.5, 0, 1.25, 0, 2}},
	}
	tbl, err := ChannelTable(tr, rows, extra...)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	path := filepath.Join(t.TempDir(), "ch.parquet")
	if err := SaveParquet(path, tbl); err != nil {
		t.Fatal(err)
	}
	back, tr2, err := LoadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if tr2.String() != tr.String() || tr2.Channels() != tr.Channels() {
		t.Errorf("loaded torus %s, want %s", tr2, tr)
	}
	got, err := ReadChannels(back)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, rows) {
		t.Errorf("read back %v, want %v", got, rows)
	}
	cols, err := table.Read(back, append(ChannelFields(), arrow.Field{Name: "bytes", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "stall", Type: arrow.PrimitiveTypes.Float64}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cols[4].Ints, extra[0].Ints) || !slices.Equal(cols[5].Floats, extra[1].Floats) {
		t.Errorf("extra columns read back %v, %v", cols[4].Ints, cols[5].Floats)
	}

	rp, err := Regions(back)
	if err != nil {
		t.Fatal(err)
	}
	if want := []RegionPhase{{-2, 0}, {1, 0}, {1, 1}, {4, 0}}; !slices.Equal(rp, want) {
		t.Errorf("Regions = %v, want %v", rp, want)
	}

	// Sums by selection, by hand from rows.
	sums := []struct {
		sel        Selection
		ch0, ch3   int64
		wantErr    bool
		errIsMixed bool
	}{
		{Selection{}, 12, 13, false, false}, // every region but −2
		{Selection{Regions: []int{WholeRun}}, 100, 0, false, false},
		{Selection{Regions: []int{1}}, 12, 2, false, false},
		{Selection{Regions: []int{1}, Phases: []int{1}}, 5, 2, false, false},
		{Selection{Regions: []int{1, 4}, Phases: []int{0}}, 7, 11, false, false},
		{Selection{Regions: []int{WholeRun, 1}}, 0, 0, true, true},
	}
	for _, s := range sums {
		loads, err := ChannelLoads(tr, back, s.sel)
		if s.wantErr {
			if err == nil || errors.Is(err, ErrMixedWholeRun) != s.errIsMixed || !strings.Contains(err.Error(), "region −2") {
				t.Errorf("%+v: error %v, want ErrMixedWholeRun", s.sel, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if loads[0] != s.ch0 || loads[3] != s.ch3 {
			t.Errorf("%+v: channels 0 and 3 carry %d, %d; want %d, %d", s.sel, loads[0], loads[3], s.ch0, s.ch3)
		}
	}
}

func TestTableErrors(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	if _, err := ChannelTable(tr, []ChannelRow{{Channel: 64}}); err == nil {
		t.Error("channel 64 of 64 accepted")
	}
	if _, err := PairTable(tr, []PairRow{{Src: 0, Dst: 16}}); err == nil {
		t.Error("node 16 of 16 accepted")
	}
	if _, err := NodeTable(tr, []NodeRow{{Node: -1}}); err == nil {
		t.Error("node −1 accepted")
	}
	if _, err := ChannelTable(tr, []ChannelRow{{Channel: 1}}, Extra{Name: "bytes", Ints: []int64{1, 2}}); err == nil {
		t.Error("extra column of the wrong length accepted")
	}
	if _, err := ChannelTable(tr, nil, Extra{Name: "packets"}); err == nil {
		t.Error("extra column named packets accepted")
	}
	// A pair table is not a channel table.
	pt, err := PairTable(tr, []PairRow{{Src: 0, Dst: 1, Packets: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Release()
	if _, err := ReadChannels(pt); err == nil || !strings.Contains(err.Error(), `"pairs"`) {
		t.Errorf("ReadChannels on a pair table: %v", err)
	}
	// A channel id beyond the torus the loads are for.
	big := mustNew(t, []string{"x", "y"}, []int{8, 8})
	ct, _ := ChannelTable(big, []ChannelRow{{Channel: 100, Packets: 1}})
	defer ct.Release()
	if _, err := ChannelLoads(tr, ct, Selection{}); err == nil || !strings.Contains(err.Error(), "row 0") {
		t.Errorf("ChannelLoads with channel 100 on 4×4: %v", err)
	}
}

func TestNodeTable(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	tbl, err := NodeTable(tr, []NodeRow{{1, 0, 5}, {1, 1, 6}}, Extra{Name: "sent", Ints: []int64{10, 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	cols, err := table.Read(tbl, append(NodeFields(), arrow.Field{Name: "sent", Type: arrow.PrimitiveTypes.Int64}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cols[2].Ints, []int64{5, 6}) || !slices.Equal(cols[3].Ints, []int64{10, 20}) {
		t.Errorf("node table columns %v, %v", cols[2].Ints, cols[3].Ints)
	}
	md := tbl.Schema().Metadata()
	if i := md.FindKey(MetaKind); i < 0 || md.Values()[i] != KindNodes {
		t.Errorf("node table kind metadata %v", md)
	}
}

func TestRoutePairs(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	// (0,0) → (2,1): +x +x +y through channels of (0,0)+x, (1,0)+x, (2,0)+y.
	rows := []PairRow{
		{Region: 1, Phase: 0, Src: 0, Dst: 6, Packets: 5},
		{Region: 1, Phase: 1, Src: 0, Dst: 6, Packets: 3},
		{Region: 1, Phase: 1, Src: 6, Dst: 6, Packets: 9}, // same node: no channel
		{Region: 2, Phase: 0, Src: 1, Dst: 0, Packets: 4}, // −x of (1,0)
		{Region: WholeRun, Phase: 0, Src: 0, Dst: 6, Packets: 100},
	}
	tbl, err := PairTable(tr, rows)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	path := filepath.Join(t.TempDir(), "pairs.parquet")
	if err := SaveParquet(path, tbl); err != nil {
		t.Fatal(err)
	}
	back, tr2, err := LoadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	ch := func(x, y, d, dir int) int {
		id, ok := tr.ChannelID(x+4*y, d, dir)
		if !ok {
			t.Fatalf("no channel at (%d,%d) dim %d dir %d", x, y, d, dir)
		}
		return id
	}
	c1, c2, c3, c4 := ch(0, 0, 0, 1), ch(1, 0, 0, 1), ch(2, 0, 1, 1), ch(1, 0, 0, -1)
	cases := []struct {
		sel  Selection
		want map[int]int64
	}{
		{Selection{Regions: []int{1}}, map[int]int64{c1: 8, c2: 8, c3: 8}},
		{Selection{Regions: []int{1}, Phases: []int{0}}, map[int]int64{c1: 5, c2: 5, c3: 5}},
		{Selection{}, map[int]int64{c1: 8, c2: 8, c3: 8, c4: 4}},
		{Selection{Regions: []int{WholeRun}}, map[int]int64{c1: 100, c2: 100, c3: 100}},
	}
	for _, c := range cases {
		loads, err := RoutePairs(tr2, back, c.sel, RouteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for id, l := range loads {
			if l != c.want[id] {
				t.Errorf("%+v: channel %d carries %d, want %d", c.sel, id, l, c.want[id])
			}
		}
	}
	if _, err := RoutePairs(tr2, back, Selection{Regions: []int{2, WholeRun}}, RouteOptions{}); !errors.Is(err, ErrMixedWholeRun) {
		t.Errorf("mixed selection: %v", err)
	}
	small := mustNew(t, []string{"x"}, []int{4})
	if _, err := RoutePairs(small, back, Selection{}, RouteOptions{}); err == nil {
		t.Error("pairs with node 6 routed on a 4-node ring")
	}
}

func TestLoadRowsAndParquetErrors(t *testing.T) {
	tr := mustNew(t, []string{"x"}, []int{3})
	loads := []int64{4, 0, 1, 0, 0, 2}
	tbl, err := ChannelTable(tr, LoadRows(loads, 5, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	back, err := ChannelLoads(tr, tbl, Selection{Regions: []int{5}, Phases: []int{1}})
	if err != nil || !slices.Equal(back, loads) {
		t.Errorf("loads through a channel table: %v, %v; want %v", back, err, loads)
	}
	if rp, _ := Regions(tbl); !slices.Equal(rp, []RegionPhase{{5, 1}}) {
		t.Errorf("Regions = %v", rp)
	}

	dir := t.TempDir()
	if _, _, err := LoadParquet(filepath.Join(dir, "none.parquet")); err == nil {
		t.Error("LoadParquet of a missing file succeeded")
	}
	// A table without torus metadata could not be loaded back: refused.
	noMeta := arrowTableWithoutMetadata(t, tbl)
	defer noMeta.Release()
	if err := SaveParquet(filepath.Join(dir, "x.parquet"), noMeta); err == nil || !strings.Contains(err.Error(), MetaShape) {
		t.Errorf("SaveParquet without metadata: %v", err)
	}
	// ReadPairs on a table without the columns names them.
	if _, err := ReadPairs(noMeta); err == nil || !strings.Contains(err.Error(), "src") {
		t.Errorf("ReadPairs on a channel table without metadata: %v", err)
	}
}

// arrowTableWithoutMetadata is tbl with its schema metadata dropped.
func arrowTableWithoutMetadata(t *testing.T, tbl arrow.Table) arrow.Table {
	t.Helper()
	cols := make([]arrow.Column, tbl.NumCols())
	for i := range cols {
		cols[i] = *tbl.Column(i)
	}
	return array.NewTable(arrow.NewSchema(tbl.Schema().Fields(), nil), cols, tbl.NumRows())
}
