package boxfish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
	"superstep/topology/torus"
)

// The tiny fixture: a ring of 4 nodes (x), one region (5) of link and
// node counters, and a rank map. Line numbers matter to the tests.
var bfTiny = map[string]string{
	"tiny_meta.yaml": `---
key: TINY
hardware: {
 nodes: 4,
 coords: [x],
 coords_table: tiny_nodes.yaml,
 dim: {x: 4},
 source_coords: {x: sx},
 destination_coords: {x: tx},
 link_coords_table: tiny_links.yaml,
}
---
filetype: projection
type: file
filename: tiny_map.yaml
subdomain:
- { domain: HW, type: NODE, field: nodeid }
- { domain: COMM, type: RANK, field: mpirank }
...
`,
	"tiny_links.yaml": `---
key: TINY
---
- [linkid, int32]
- [sx, int32]
- [tx, int32]
- [code_region, int32]
- [packets, int64]
...
0 0 1 5 10
1 0 3 5 11
2 1 2 5 12
3 1 0 5 13
4 2 3 5 14
5 2 1 5 15
6 3 0 5 16
7 3 2 5 17
`,
	"tiny_nodes.yaml": `---
- [nodeid, int32]
- [x, int32]
- [code_region, int32]
- [flops, float64]
...
0 0 5 1.5
1 1 5 2
2 2 5 3
3 3 5 4.25
`,
	"tiny_map.yaml": `---
- [mpirank, int32]
- [nodeid, int32]
...
0 2
1 0
2 1
3 3
`,
}

// bfEdit is a change to one fixture file: replace line Line (1-based)
// with Text (which may hold several lines), or append Text when Line is 0.
type bfEdit struct {
	File string
	Line int
	Text string
}

// bfWriteFixture writes files with the edits applied and returns the
// meta file's path.
func bfWriteFixture(t *testing.T, files map[string]string, edits ...bfEdit) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		for _, e := range edits {
			if e.File != name {
				continue
			}
			if e.Line == 0 {
				lines = append(lines, e.Text)
			} else {
				lines[e.Line-1] = e.Text
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "tiny_meta.yaml")
}

func TestReadTiny(t *testing.T) {
	run, err := Read(bfWriteFixture(t, bfTiny))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if len(run.Warnings) > 0 {
		t.Errorf("warnings %v", run.Warnings)
	}
	cols, err := table.Read(run.Links, torus.ChannelFields())
	if err != nil {
		t.Fatal(err)
	}
	// Channel id = 2·node + (0 for +, 1 for −) = the file's linkid here,
	// and packets = 10 + linkid.
	for i := range cols[2].Ints {
		if cols[0].Ints[i] != 5 || cols[1].Ints[i] != 0 || cols[2].Ints[i] != int64(i) || cols[3].Ints[i] != int64(10+i) {
			t.Errorf("row %d: region %d phase %d channel %d packets %d", i, cols[0].Ints[i], cols[1].Ints[i], cols[2].Ints[i], cols[3].Ints[i])
		}
	}
	nc, err := table.Read(run.Nodes, append(torus.NodeFields(), arrow.Field{Name: "flops", Type: arrow.PrimitiveTypes.Float64}))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(nc[2].Ints, nc[3].Floats) != "[0 1 2 3] [1.5 2 3 4.25]" {
		t.Errorf("nodes %v flops %v", nc[2].Ints, nc[3].Floats)
	}
	if fmt.Sprint(run.RankToNode) != "[2 0 1 3]" {
		t.Errorf("rank map %v", run.RankToNode)
	}
	rm := torus.RankMapTable(run.RankToNode)
	defer rm.Release()
	if rm.NumRows() != 4 || rm.NumCols() != 2 {
		t.Errorf("rank table %d×%d", rm.NumRows(), rm.NumCols())
	}
	md := run.Links.Schema().Metadata()
	if v, _ := md.GetValue(torus.MetaShape); v != "4" {
		t.Errorf("shape metadata %q", v)
	}
}

// TestReadPhases: a region in two blocks, the second in reverse
// order, with region −2 between: the k-th row of a channel is phase k.
// TestReadCommunicatorMap reads a meta file with a second file
// projection, communicators to ranks, after the rank map, as Boxfish's
// collex example has: the rank map is the projection between ranks and
// nodes, not the last one.
func TestReadCommunicatorMap(t *testing.T) {
	files := map[string]string{}
	for k, v := range bfTiny {
		files[k] = v
	}
	files["tiny_meta.yaml"] = strings.Replace(bfTiny["tiny_meta.yaml"], "...\n", `---
filetype: projection
type: file
filename: tiny_comm_map.yaml
subdomain:
- { domain: COMM, type: COMMUNICATOR, field: communicator_group_id }
- { domain: COMM, type: RANK, field: mpirank }
...
`, 1)
	files["tiny_comm_map.yaml"] = "---\nkey: TINY\n---\n- [communicator_group_id, int32]\n- [mpirank, int32]\n...\n0 0\n0 1\n"
	run, err := Read(bfWriteFixture(t, files))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if run.Meta.MapFile != "tiny_map.yaml" || len(run.RankToNode) != 4 {
		t.Errorf("map file %q, %d ranks: want tiny_map.yaml and 4", run.Meta.MapFile, len(run.RankToNode))
	}
}

func TestReadPhases(t *testing.T) {
	var extra []bfEdit
	for c := 0; c < 8; c++ {
		extra = append(extra, bfEdit{"tiny_links.yaml", 0, fmt.Sprintf("%d %d %d -2 %d", c, c/2, (c/2+1-2*(c%2)+4)%4, 100+c)})
	}
	for c := 7; c >= 0; c-- {
		extra = append(extra, bfEdit{"tiny_links.yaml", 0, fmt.Sprintf("%d %d %d 5 %d", c, c/2, (c/2+1-2*(c%2)+4)%4, 20+c)})
	}
	run, err := Read(bfWriteFixture(t, bfTiny, extra...))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if len(run.Warnings) > 0 {
		t.Errorf("warnings %v", run.Warnings)
	}
	cols, _ := table.Read(run.Links, torus.ChannelFields())
	got := map[[3]int64]int64{}
	for i := range cols[0].Ints {
		got[[3]int64{cols[0].Ints[i], cols[1].Ints[i], cols[2].Ints[i]}] = cols[3].Ints[i]
	}
	if len(got) != 24 {
		t.Fatalf("%d distinct (region, phase, channel), want 24", len(got))
	}
	for c := int64(0); c < 8; c++ {
		if got[[3]int64{5, 0, c}] != 10+c || got[[3]int64{5, 1, c}] != 20+c || got[[3]int64{-2, 0, c}] != 100+c {
			t.Errorf("channel %d: %d %d %d", c, got[[3]int64{5, 0, c}], got[[3]int64{5, 1, c}], got[[3]int64{-2, 0, c}])
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		edit bfEdit
		want string
	}{
		// Meta file.
		{bfEdit{"tiny_meta.yaml", 7, " dim: {x: four},"}, `tiny_meta.yaml:7:11: expected an extent ≥ 1 for x in hardware.dim, found "four"`},
		{bfEdit{"tiny_meta.yaml", 7, " dim: {y: 4},"}, `tiny_meta.yaml:7:7: expected an extent ≥ 1 for x in hardware.dim, found nothing`},
		{bfEdit{"tiny_meta.yaml", 2, `key: "TINY`}, `tiny_meta.yaml:2:11: expected a closing " on the same line, found the end of the line`},
		{bfEdit{"tiny_meta.yaml", 14, "filetype: file"}, `tiny_meta.yaml:14:1: expected a new key, found "filetype" again`},
		{bfEdit{"tiny_meta.yaml", 8, " source_coords: {x: sx}"}, `tiny_meta.yaml:9:2: expected ',' or '}', found "destination_coords: {x: tx},"`},
		{bfEdit{"tiny_meta.yaml", 2, "key: &a TINY"}, `tiny_meta.yaml:2:6: expected a plain value, found '&' (anchors, tags and block scalars are not supported)`},
		{bfEdit{"tiny_meta.yaml", 11, ""}, `tiny_meta.yaml:12:1: expected the collection to close, found "---"`},
		{bfEdit{"tiny_meta.yaml", 2, "- TINY"}, `tiny_meta.yaml:3:1: expected a document start (---) or the end of the file, found "hardware: {"`},
		{bfEdit{"tiny_meta.yaml", 13, "\tfiletype: projection"}, `tiny_meta.yaml:13:2: expected content at column 1, found indentation`},
		{bfEdit{"tiny_meta.yaml", 3, "hardwar: {"}, `tiny_meta.yaml:2:1: expected a key hardware holding a mapping, found nothing`},
		{bfEdit{"tiny_meta.yaml", 3, "application: {"}, `tiny_meta.yaml:2:1: expected a key hardware holding a mapping, found an application domain only (key application): this Boxfish file describes an application's data, not a network run`},
		{bfEdit{"tiny_meta.yaml", 5, " coords: x,"}, `tiny_meta.yaml:3:11: expected hardware.coords, a list of 1 to 32 names, found "x"`},
		// Links table.
		{bfEdit{"tiny_links.yaml", 12, "2 1 3 5 12"}, `tiny_links.yaml:12:5: expected a torus neighbour of (1) (torus 4 (x)), found (3)`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 1 5 12"}, `tiny_links.yaml:12:5: expected a torus neighbour of (1) (torus 4 (x)), found (1)`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 4 5 12"}, `tiny_links.yaml:12:5: expected tx in 0..3, found 4`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 5 12.5"}, `tiny_links.yaml:12:9: expected an integer for packets (int64), found "12.5"`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 5 1e400"}, `tiny_links.yaml:12:9: expected an integer for packets (int64), found "1e400"`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 5 twelve"}, `tiny_links.yaml:12:9: expected an integer for packets (int64), found "twelve"`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 5"}, `tiny_links.yaml:12:8: expected 5 values (linkid, sx, tx, code_region, packets), found 4`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 5 12 7"}, `tiny_links.yaml:12:12: expected 5 values (linkid, sx, tx, code_region, packets), found more: "7"`},
		{bfEdit{"tiny_links.yaml", 12, "2 1 2 3000000000 12"}, `tiny_links.yaml:12:7: expected int32 in -2147483648..2147483647 for code_region, found "3000000000"`},
		{bfEdit{"tiny_links.yaml", 8, "- [bytes, int64]"}, `tiny_links.yaml:4:1: expected a column packets (or sent_chunks), found columns linkid, sx, tx, code_region, bytes`},
		{bfEdit{"tiny_links.yaml", 8, "- [packets, string]"}, `tiny_links.yaml:8:13: expected a numeric column type (int32, int64, float64, …), found "string"`},
		{bfEdit{"tiny_links.yaml", 7, "- [sx, int32]"}, `tiny_links.yaml:7:4: expected a new column name, found "sx" again`},
		{bfEdit{"tiny_links.yaml", 9, "#"}, `tiny_links.yaml:10:1: expected a document start (---) or the end of the file, found "0 0 1 5 10"`},
		{bfEdit{"tiny_links.yaml", 6, "- [tx, float64]"}, `tiny_links.yaml:4:1: expected an integer type for tx (destination coordinate), found float64`},
		// Nodes table.
		{bfEdit{"tiny_nodes.yaml", 8, "1 2 5 2"}, `tiny_nodes.yaml:8:1: expected node id 2 for coordinates (2), found 1`},
		{bfEdit{"tiny_nodes.yaml", 8, "1 1 5 x2"}, `tiny_nodes.yaml:8:7: expected a number for flops, found "x2"`},
		// Rank map.
		{bfEdit{"tiny_map.yaml", 8, "7 3"}, `tiny_map.yaml:8:1: expected a rank in 0..3 (the file has 4 rows), found 7`},
		{bfEdit{"tiny_map.yaml", 8, "1 3"}, `tiny_map.yaml:8:3: expected node 0 for rank 1 (as on line 6), found 3`},
		{bfEdit{"tiny_map.yaml", 8, "3 9"}, `tiny_map.yaml:8:3: expected a node id in 0..3, found 9`},
	} {
		meta := bfWriteFixture(t, bfTiny, tc.edit)
		run, err := Read(meta)
		var fe *ParseError
		if err == nil || !errors.As(err, &fe) {
			t.Errorf("%+v: err %v", tc.edit, err)
			if run != nil {
				run.Release()
			}
			continue
		}
		if got := strings.TrimPrefix(err.Error(), filepath.Dir(meta)+string(filepath.Separator)); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.edit, got, tc.want)
		}
	}
}

func TestReadWarnings(t *testing.T) {
	for _, tc := range []struct {
		edits []bfEdit
		want  []string
	}{
		{[]bfEdit{{"tiny_meta.yaml", 4, " nodes: 5,"}}, []string{"tiny_meta.yaml:4: hardware.nodes is 5 but dim gives 4 nodes; using dim"}},
		{[]bfEdit{{"tiny_links.yaml", 0, "2 1 2 5 99"}}, []string{"tiny_links.yaml:18: region 5: 1 duplicate rows (a channel with more than the region's 1 rows): lines 18"}},
		{[]bfEdit{{"tiny_links.yaml", 12, "# gone"}}, []string{"tiny_links.yaml: region 5: 1 missing channels (fewer than the region's 1 rows): (1)→(2)"}},
		{[]bfEdit{{"tiny_links.yaml", 12, "2 1 2 5 40000.0"}}, []string{"tiny_links.yaml:12: column packets (int64): 1 integral float value(s) such as 40000.0 read as integers"}},
		{[]bfEdit{{"tiny_map.yaml", 8, "2 1"}}, []string{"tiny_map.yaml:8: 1 duplicate rows (a rank listed again): lines 8"}},
		{[]bfEdit{{"tiny_map.yaml", 6, "3 3"}}, []string{"tiny_map.yaml:8: 1 duplicate rows (a rank listed again): lines 8", "tiny_map.yaml: 1 missing ranks: 1"}},
		{[]bfEdit{{"tiny_nodes.yaml", 10, ""}}, []string{"tiny_nodes.yaml: region 5: 1 missing nodes (fewer than the region's 1 rows): (3)"}},
	} {
		meta := bfWriteFixture(t, bfTiny, tc.edits...)
		run, err := Read(meta)
		if err != nil {
			t.Errorf("%+v: %v", tc.edits, err)
			continue
		}
		var got []string
		for _, w := range run.Warnings {
			got = append(got, strings.TrimPrefix(w.String(), filepath.Dir(meta)+string(filepath.Separator)))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%+v:\n got %q\nwant %q", tc.edits, got, tc.want)
		}
		// Nothing is dropped: the duplicate row is in the table, with
		// phase 1; the integral float is read.
		if tc.edits[0].Text == "2 1 2 5 99" {
			cols, _ := table.Read(run.Links, torus.ChannelFields())
			n := len(cols[0].Ints)
			if n != 9 || cols[1].Ints[n-1] != 1 || cols[2].Ints[n-1] != 2 || cols[3].Ints[n-1] != 99 {
				t.Errorf("duplicate row: %d rows, last %v %v %v", n, cols[1].Ints[n-1], cols[2].Ints[n-1], cols[3].Ints[n-1])
			}
		}
		if tc.edits[0].Text == "2 1 2 5 40000.0" {
			cols, _ := table.Read(run.Links, torus.ChannelFields())
			if cols[3].Ints[2] != 40000 {
				t.Errorf("40000.0 read as %d", cols[3].Ints[2])
			}
		}
		run.Release()
	}
}

// TestReadExtent2: on a ring of 2 with two channels per node the
// rows of a node alternate "+", "−"; with torus.Extent2Channels(1) (from the
// meta key or the option) every row is "+" and the repeat is phase 1.
func TestReadExtent2(t *testing.T) {
	files := map[string]string{
		"tiny_meta.yaml": "hardware: {coords: [x], dim: {x: 2}, link_coords_table: tiny_links.yaml}\n",
		"tiny_links.yaml": `---
- [sx, int32]
- [tx, int32]
- [packets, int64]
...
0 1 10
0 1 11
1 0 12
1 0 13
`,
	}
	meta := bfWriteFixture(t, files)
	run, err := Read(meta)
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := table.Read(run.Links, torus.ChannelFields())
	// Channels: 0 = (0,+), 1 = (0,−), 2 = (1,+), 3 = (1,−); no code_region
	// column: region −2.
	if fmt.Sprint(cols[0].Ints, cols[1].Ints, cols[2].Ints, cols[3].Ints) != "[-2 -2 -2 -2] [0 0 0 0] [0 1 2 3] [10 11 12 13]" {
		t.Errorf("k2=2: %v", cols)
	}
	if len(run.Warnings) != 0 {
		t.Errorf("warnings %v", run.Warnings)
	}
	run.Release()
	run, err = Read(meta, torus.Extent2Channels(1))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	cols, _ = table.Read(run.Links, torus.ChannelFields())
	// Channels: 0 = (0,+), 1 = (1,+).
	if fmt.Sprint(cols[1].Ints, cols[2].Ints) != "[0 1 0 1] [0 0 1 1]" {
		t.Errorf("k2=1: phases %v channels %v", cols[1].Ints, cols[2].Ints)
	}
	// Round trip keeps torus.Extent2Channels(1) through hardware.extent2_channels.
	dir := t.TempDir()
	if err := Write(dir, "rt", run); err != nil {
		t.Fatal(err)
	}
	back, err := Read(filepath.Join(dir, "rt_meta.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	bfSameRun(t, run, back)
}

// bfRows returns the rows of a table as sorted strings.
func bfRows(t *testing.T, tab arrow.Table) []string {
	t.Helper()
	if tab == nil {
		return nil
	}
	rows := make([]string, tab.NumRows())
	for c := 0; c < int(tab.NumCols()); c++ {
		i := 0
		for _, ch := range tab.Column(c).Data().Chunks() {
			for j := 0; j < ch.Len(); j++ {
				rows[i] += ch.ValueStr(j) + " "
				i++
			}
		}
	}
	sort.Strings(rows)
	return rows
}

// bfSameRun checks two runs hold the same torus, tables and rank map.
func bfSameRun(t *testing.T, a, b *Run) {
	t.Helper()
	if a.Torus.String() != b.Torus.String() || a.Torus.Channels() != b.Torus.Channels() {
		t.Errorf("torus %v (%d channels) vs %v (%d)", a.Torus, a.Torus.Channels(), b.Torus, b.Torus.Channels())
	}
	for _, p := range [][2]arrow.Table{{a.Links, b.Links}, {a.Nodes, b.Nodes}} {
		if (p[0] == nil) != (p[1] == nil) {
			t.Errorf("one table is nil: %v %v", p[0] == nil, p[1] == nil)
			continue
		}
		if p[0] == nil {
			continue
		}
		if p[0].Schema().String() != p[1].Schema().String() {
			t.Errorf("schema\n%v\nvs\n%v", p[0].Schema(), p[1].Schema())
		}
		ra, rb := bfRows(t, p[0]), bfRows(t, p[1])
		if strings.Join(ra, "\n") != strings.Join(rb, "\n") {
			t.Errorf("rows differ: %d vs %d", len(ra), len(rb))
		}
	}
	if fmt.Sprint(a.RankToNode) != fmt.Sprint(b.RankToNode) {
		t.Errorf("rank map %v vs %v", a.RankToNode, b.RankToNode)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	paths := map[string]string{"tiny": bfWriteFixture(t, bfTiny), "bgpc": bfDataDir + "bgpc_meta.yaml"}
	for name, meta := range paths {
		run, err := Read(meta)
		if err != nil {
			if name == "bgpc" && errors.Is(err, os.ErrNotExist) {
				continue
			}
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := Write(dir, name, run); err != nil {
			t.Fatal(err)
		}
		back, err := Read(filepath.Join(dir, name+"_meta.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Warnings) != 0 {
			t.Errorf("%s: warnings %v", name, back.Warnings)
		}
		bfSameRun(t, run, back)
		// Writing what was read back gives the same files.
		dir2 := t.TempDir()
		if err := Write(dir2, name, back); err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"meta", "links", "nodes", "map"} {
			a, _ := os.ReadFile(filepath.Join(dir, name+"_"+kind+".yaml"))
			b, _ := os.ReadFile(filepath.Join(dir2, name+"_"+kind+".yaml"))
			if len(a) == 0 || string(a) != string(b) {
				t.Errorf("%s %s: %d vs %d bytes", name, kind, len(a), len(b))
			}
		}
		run.Release()
		back.Release()
	}
}

// TestWriteMesh: a 3×2 torus with x a mesh and a float counter,
// built by hand, round-trips (mesh recorded as hardware.mesh).
func TestWriteMesh(t *testing.T) {
	tor, err := torus.New([]string{"x", "y"}, []int{3, 2}, torus.Mesh("x"))
	if err != nil {
		t.Fatal(err)
	}
	md := bfSchemaMeta(tor, torus.KindChannels)
	sc := arrow.NewSchema(append(torus.ChannelFields(), arrow.Field{Name: "load", Type: arrow.PrimitiveTypes.Float64}), &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for phase := 0; phase < 2; phase++ {
		for c := tor.Channels() - 1; c >= 0; c-- {
			b.Field(0).(*array.Int32Builder).Append(3)
			b.Field(1).(*array.Int32Builder).Append(int32(phase))
			b.Field(2).(*array.Int32Builder).Append(int32(c))
			b.Field(3).(*array.Int64Builder).Append(int64(100*phase + c))
			b.Field(4).(*array.Float64Builder).Append(float64(c) / 4)
		}
	}
	run := &Run{Torus: tor, Links: table.FromBuilder(b)}
	defer run.Release()
	dir := t.TempDir()
	if err := Write(dir, "m", run); err != nil {
		t.Fatal(err)
	}
	back, err := Read(filepath.Join(dir, "m_meta.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if len(back.Warnings) != 0 {
		t.Errorf("warnings %v", back.Warnings)
	}
	// 3×2 with x a mesh: x channels 2 per row of 3 (+ at x<2, − at x>0)
	// = 4 per y, 8 in all; y (extent 2, two channels) 2 per node = 12.
	if back.Torus.Channels() != 20 || !back.Torus.IsMesh(0) {
		t.Errorf("torus %v with %d channels", back.Torus, back.Torus.Channels())
	}
	bfSameRun(t, run, back)
	// A phase gap cannot be written.
	b2 := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(torus.ChannelFields(), nil))
	defer b2.Release()
	b2.Field(0).(*array.Int32Builder).Append(0)
	b2.Field(1).(*array.Int32Builder).Append(1)
	b2.Field(2).(*array.Int32Builder).Append(0)
	b2.Field(3).(*array.Int64Builder).Append(1)
	gap := &Run{Torus: tor, Links: table.FromBuilder(b2)}
	defer gap.Release()
	if err := Write(t.TempDir(), "g", gap); err == nil || !strings.Contains(err.Error(), "has phase 1, want 0") {
		t.Errorf("phase gap: %v", err)
	}
}

// TestYAML checks the YAML subset on the shapes Boxfish files use.
func TestYAML(t *testing.T) {
	src := "# comment\n---\na: 1 # trailing\nb: {x: 1, y: [p, 'q r', \"s\\tt\"],\n   z: {},}\nc:\n  - [1, 2]\n  - k: v\n    l: w\nd:\n- { e: f }\n...\n"
	p := bfNewParser("y", []byte(src))
	docs, err := p.parseStream(false)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	bfFlatten("", docs[0].root, out)
	want := map[string]string{"a": "1", "b.x": "1", "b.y[0]": "p", "b.y[1]": "q r", "b.y[2]": "s\tt", "c[0][0]": "1", "c[0][1]": "2", "c[1].k": "v", "c[1].l": "w", "d[0].e": "f"}
	if len(docs) != 1 || fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", out, want)
	}
	// Nesting is bounded.
	deep := "a: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n"
	if _, err := bfNewParser("y", []byte(deep)).parseStream(false); err == nil || !strings.Contains(err.Error(), "y:1:") {
		t.Errorf("deep: %v", err)
	}
}

func ExampleReadTable() {
	src := `---
- [nodeid, int32]
- [x, int32]
- [packets, int64]
...
0 0 12
1 1 40000.0
`
	tab, err := ReadTable("t.yaml", strings.NewReader(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tab.Rows(), tab.Columns[2].Name, tab.Columns[2].Ints, tab.Lines)
	fmt.Println(tab.Warnings[0])
	_, err = ReadTable("t.yaml", strings.NewReader(src+"2 2 1.5\n"))
	fmt.Println(err)
	// Output:
	// 2 packets [12 40000] [6 7]
	// t.yaml:7: column packets (int64): 1 integral float value(s) such as 40000.0 read as integers
	// t.yaml:8:5: expected an integer for packets (int64), found "1.5"
}
