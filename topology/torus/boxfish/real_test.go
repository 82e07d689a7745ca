package boxfish

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"superstep/sdk/table"
	"superstep/topology/torus"
)

// bfDataDir holds Boxfish's Blue Gene/P run, the copy the repository
// ships (datasets.BoxfishBGP), byte for byte ../shared/data/boxfish-torus.
const bfDataDir = "../../../datasets/data/boxfish-bgp/"

// bfNaiveLinks reads bgpc_links.yaml the simplest way: skip to the "..."
// line, then strings.Fields per line. It returns rows of 9 ints.
func bfNaiveLinks(t *testing.T) [][9]int64 {
	t.Helper()
	f, err := os.Open(bfDataDir + "bgpc_links.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	body := false
	var rows [][9]int64
	for sc.Scan() {
		if !body {
			body = strings.TrimSpace(sc.Text()) == "..."
			continue
		}
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 9 {
			t.Fatalf("naive: %d fields in %q", len(fs), sc.Text())
		}
		var r [9]int64
		for i, s := range fs {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			r[i] = v
		}
		rows = append(rows, r)
	}
	return rows
}

// bfStats are the numbers of Done-when 5 for one way of reading.
type bfStats struct {
	rows                int
	perDim              map[int32][3]int64 // region → x, y, z totals
	perDir              [6]int64           // region −2: +x, −x, +y, −y, +z, −z
	total               map[int32]int64
	idle                map[int32]int // zero (channel, phase) rows
	idleChannels        map[int32]int // channels zero in every phase
	busiest             int64
	busiestFrom, busyTo [3]int
	blockRows           map[[2]int32]int // (region, phase) → rows
}

func newBFStats() *bfStats {
	return &bfStats{perDim: map[int32][3]int64{}, total: map[int32]int64{}, idle: map[int32]int{}, idleChannels: map[int32]int{}, blockRows: map[[2]int32]int{}}
}

// add counts one row: region, phase, source and target coordinates,
// direction index (0..5 = +x, −x, +y, −y, +z, −z), packets; key names
// the channel for the idle-in-every-phase count.
func (s *bfStats) add(region, phase int32, from, to [3]int, dir int, packets int64, busy map[[2]int64]int64, key int64) {
	s.rows++
	d := s.perDim[region]
	d[dir/2] += packets
	s.perDim[region] = d
	s.total[region] += packets
	if packets == 0 {
		s.idle[region]++
	}
	busy[[2]int64{int64(region), key}] += packets
	s.blockRows[[2]int32{region, phase}]++
	if region == -2 {
		s.perDir[dir] += packets
		if packets > s.busiest {
			s.busiest, s.busiestFrom, s.busyTo = packets, from, to
		}
	}
}

func (s *bfStats) finish(busy map[[2]int64]int64) {
	for k, v := range busy {
		if v == 0 {
			s.idleChannels[int32(k[0])]++
		}
	}
}

func TestReadReal(t *testing.T) {
	naive := bfNaiveLinks(t)
	run, err := Read(bfDataDir + "bgpc_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if len(run.Warnings) != 0 {
		t.Errorf("warnings: %v", run.Warnings)
	}
	tor := run.Torus
	if tor.Nodes() != 512 || tor.String() != "torus 8×8×8 (x, y, z)" || tor.Channels() != 3072 {
		t.Fatalf("torus %v, %d nodes, %d channels", tor, tor.Nodes(), tor.Channels())
	}
	if len(run.RankToNode) != 512 {
		t.Fatalf("rank map of %d", len(run.RankToNode))
	}
	for r, v := range run.RankToNode {
		if r != v {
			t.Fatalf("rank %d on node %d, want identity", r, v)
		}
	}

	// Through the public API.
	cols, err := table.Read(run.Links, torus.ChannelFields())
	if err != nil {
		t.Fatal(err)
	}
	api := newBFStats()
	busy := map[[2]int64]int64{}
	for i, c := range cols[2].Ints {
		ch := tor.Channel(int(c))
		var from, to [3]int
		copy(from[:], tor.Coord(ch.Node))
		copy(to[:], tor.Coord(ch.To))
		dir := 2 * ch.Dim
		if ch.Dir < 0 {
			dir++
		}
		api.add(int32(cols[0].Ints[i]), int32(cols[1].Ints[i]), from, to, dir, cols[3].Ints[i], busy, c)
	}
	api.finish(busy)

	// Naively: direction from the coordinates, phase from counting.
	nv := newBFStats()
	busy = map[[2]int64]int64{}
	seen := map[[2]int64]int32{}
	for _, r := range naive {
		from := [3]int{int(r[1]), int(r[2]), int(r[3])}
		to := [3]int{int(r[4]), int(r[5]), int(r[6])}
		dir := -1
		for d := 0; d < 3; d++ {
			switch (to[d] - from[d] + 8) % 8 {
			case 1:
				dir = 2 * d
			case 7:
				dir = 2*d + 1
			}
		}
		node := from[0] + 8*from[1] + 64*from[2]
		key := int64(6*node + dir)
		k := [2]int64{r[7], key}
		nv.add(int32(r[7]), seen[k], from, to, dir, r[8], busy, key)
		seen[k]++
	}
	nv.finish(busy)

	for name, s := range map[string]*bfStats{"api": api, "naive": nv} {
		if s.rows != 52224 {
			t.Errorf("%s: %d rows, want 52,224", name, s.rows)
		}
		for k, n := range s.blockRows {
			if n != 3072 {
				t.Errorf("%s: region %d phase %d has %d rows, want 3,072", name, k[0], k[1], n)
			}
		}
		// 9 regions −2, 0, 8 with one phase, 1..7 with two.
		if len(s.blockRows) != 17 {
			t.Errorf("%s: %d row blocks, want 17", name, len(s.blockRows))
		}
		if d := s.perDim[-2]; d != [3]int64{10533183, 10275788, 10099135} || s.total[-2] != 30908106 {
			t.Errorf("%s: region −2 per dimension %v total %d", name, d, s.total[-2])
		}
		if s.perDir != [6]int64{5265237, 5267946, 5167111, 5108677, 5039221, 5059914} {
			t.Errorf("%s: region −2 per direction %v", name, s.perDir)
		}
		if s.idle[-2] != 0 || s.busiest != 17304 || s.busiestFrom != [3]int{3, 2, 2} || s.busyTo != [3]int{3, 2, 3} {
			t.Errorf("%s: region −2 idle %d, busiest %v→%v %d", name, s.idle[-2], s.busiestFrom, s.busyTo, s.busiest)
		}
		if s.total[0] != 0 {
			t.Errorf("%s: region 0 total %d", name, s.total[0])
		}
		if s.total[1] != 495736 || s.idleChannels[1] != 384 {
			t.Errorf("%s: region 1 total %d, %d idle channels (%d idle rows)", name, s.total[1], s.idleChannels[1], s.idle[1])
		}
		if s.total[8] != 4718 || s.idleChannels[8] != 1906 {
			t.Errorf("%s: region 8 total %d, %d idle channels", name, s.total[8], s.idleChannels[8])
		}
		sum := int64(0)
		for r := int32(0); r <= 8; r++ {
			sum += s.total[r]
		}
		if sum != 1413480 {
			t.Errorf("%s: regions 0–8 sum %d", name, sum)
		}
	}
	t.Logf("region 1 idle rows %d, idle channels %d", api.idle[1], api.idleChannels[1])
}

func TestReadRealNodes(t *testing.T) {
	run, err := Read(bfDataDir + "bgpc_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if run.Nodes.NumRows() != 17*512 {
		t.Fatalf("%d node rows, want 17 blocks of 512", run.Nodes.NumRows())
	}
	fields := append(torus.NodeFields(), arrow.Field{Name: "muls", Type: arrow.PrimitiveTypes.Int64})
	cols, err := table.Read(run.Nodes, fields)
	if err != nil {
		t.Fatal(err)
	}
	// Node 0's rows (file lines 15..): region −2 muls 2830394; region 7
	// appears twice: 3948 (phase 0), then 2430 (phase 1).
	want := map[[2]int64]int64{{-2, 0}: 2830394, {7, 0}: 3948, {7, 1}: 2430, {1, 1}: 665}
	got := map[[2]int64]int64{}
	for i, v := range cols[2].Ints {
		if v == 0 {
			got[[2]int64{cols[0].Ints[i], cols[1].Ints[i]}] = cols[3].Ints[i]
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("node 0 region %d phase %d: muls %d, want %d", k[0], k[1], got[k], v)
		}
	}
}

// TestReadFS reads the same run through a file system and checks
// it gives the same tables as Read, with errors naming fs paths.
func TestReadFS(t *testing.T) {
	dir := strings.TrimSuffix(bfDataDir, "/")
	a, err := Read(dir + "/bgpc_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := ReadFS(os.DirFS(dir), "bgpc_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if !array.TableEqual(a.Links, b.Links) || !array.TableEqual(a.Nodes, b.Nodes) || !slices.Equal(a.RankToNode, b.RankToNode) || len(a.Warnings) != len(b.Warnings) {
		t.Error("ReadFS differs from Read")
	}
	_, err = ReadFS(fstest.MapFS{"run/meta.yaml": {Data: []byte("---\nhardware: {coords: [x], dim: {x: 4}, link_coords_table: links.yaml}\n")}}, "run/meta.yaml")
	if err == nil || !strings.Contains(err.Error(), "run/links.yaml") {
		t.Errorf("missing table: %v, want an error naming run/links.yaml", err)
	}
}
