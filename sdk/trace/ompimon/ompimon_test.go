package ompimon

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// hist builds a 66-bin histogram field with the given bins set.
func hist(bins map[int]int) string {
	parts := make([]string, 66)
	for i := range parts {
		parts[i] = strconv.Itoa(bins[i])
	}
	return strings.Join(parts, ",")
}

// tiny is a hand-written file of rank 1 in a 4-rank job.
//
//	E 1->0: 3 messages of 0, 36 and 64 bytes = 100 bytes
//	I 1->0: 2 messages of 8 bytes            = 16 bytes
//	  histogram for peer 0: bin0 (empty) 1, bin4 [8,16) 2, bin6 [32,64) 1, bin7 [64,128) 1
//	I 1->2: 1 message of 4 bytes (no E line, so the histogram sits on the I line): bin3 1
//	E 1->3: 1 message of 5000 bytes: bin13 [4096,8192) 1
var tiny = "# POINT TO POINT\n" +
	"E\t1\t0\t100 bytes\t3 msgs sent\t" + hist(map[int]int{0: 1, 4: 2, 6: 1, 7: 1}) + "\n" +
	"E\t1\t3\t5000 bytes\t1 msgs sent\t" + hist(map[int]int{13: 1}) + "\n" +
	"I\t1\t0\t16 bytes\t2 msgs sent\n" +
	"I\t1\t2\t4 bytes\t1 msgs sent\t" + hist(map[int]int{3: 1}) + "\n" +
	"# OSC\n" +
	"S\t1\t0\t80 bytes\t2 msgs sent\n" +
	"R\t1\t0\t40 bytes\t1 msgs sent\n" +
	"# COLLECTIVES\n" +
	"C\t1\t2\t4 bytes\t1 msgs sent\n" +
	"D\tMPI_COMM_WORLD\tprocs: 0,1,2,3\n" +
	"O2A\t1\t0 bytes\t0 msgs sent\n" +
	"A2O\t1\t12 bytes\t3 msgs sent\n" +
	"A2A\t1\t0 bytes\t0 msgs sent\n" +
	"D\tmy comm\tprocs: 1,3\n" +
	"O2A\t1\t8 bytes\t1 msgs sent\n" +
	"A2O\t1\t0 bytes\t0 msgs sent\n" +
	"A2A\t1\t0 bytes\t0 msgs sent\n"

func TestTinyFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/run.1.prof", []byte(tiny), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Read(dir, "run")
	if err != nil {
		t.Fatal(err)
	}
	if d.Ranks != 4 || len(d.Files) != 1 || d.Files[0].Rank != 1 {
		t.Fatalf("Ranks=%d files=%d", d.Ranks, len(d.Files))
	}
	msgs, nbytes, pairs := d.External()
	if msgs != 4 || nbytes != 5100 || pairs != 2 {
		t.Errorf("External = %d msgs %d bytes %d pairs, want 4, 5100, 2", msgs, nbytes, pairs)
	}
	f := d.Files[0]
	if len(f.Pairs) != 3 {
		t.Fatalf("pairs = %+v, want 3 (to 0, 2, 3)", f.Pairs)
	}
	p0, p2, p3 := f.Pairs[0], f.Pairs[1], f.Pairs[2]
	if p0.Src != 1 || p0.Dst != 0 || p0.ExtMsgs != 3 || p0.ExtBytes != 100 || p0.IntMsgs != 2 || p0.IntBytes != 16 {
		t.Errorf("pair 1->0 = %+v", p0)
	}
	if p0.Hist[0] != 1 || p0.Hist[4] != 2 || p0.Hist[6] != 1 || p0.Hist[7] != 1 || sum(p0.Hist) != 5 {
		t.Errorf("pair 1->0 histogram = %v", p0.Hist)
	}
	if p2.Dst != 2 || p2.ExtMsgs != 0 || p2.IntMsgs != 1 || p2.IntBytes != 4 || p2.Hist[3] != 1 {
		t.Errorf("pair 1->2 = %+v", p2)
	}
	if p3.Dst != 3 || p3.ExtMsgs != 1 || p3.ExtBytes != 5000 || p3.Hist[13] != 1 {
		t.Errorf("pair 1->3 = %+v", p3)
	}
	if len(f.OSC) != 1 || f.OSC[0] != (OSC{Rank: 1, Peer: 0, SentMsgs: 2, SentBytes: 80, RecvMsgs: 1, RecvBytes: 40}) {
		t.Errorf("OSC = %+v", f.OSC)
	}
	if len(f.Coll) != 1 || f.Coll[0] != (Coll{Rank: 1, Peer: 2, Msgs: 1, Bytes: 4}) {
		t.Errorf("Coll = %+v", f.Coll)
	}
	if len(f.Comms) != 2 {
		t.Fatalf("Comms = %+v", f.Comms)
	}
	w, c := f.Comms[0], f.Comms[1]
	if w.Name != "MPI_COMM_WORLD" || len(w.Procs) != 4 || w.A2O != (Counter{Msgs: 3, Bytes: 12}) || w.Rank != 1 {
		t.Errorf("world = %+v", w)
	}
	if c.Name != "my comm" || len(c.Procs) != 2 || c.Procs[1] != 3 || c.O2A != (Counter{Msgs: 1, Bytes: 8}) {
		t.Errorf("my comm = %+v", c)
	}
	m, b := d.ExternalMatrix()
	if m[1][0] != 3 || b[1][3] != 5000 || m[0][1] != 0 {
		t.Errorf("matrix: m[1][0]=%d b[1][3]=%d m[0][1]=%d", m[1][0], b[1][3], m[0][1])
	}
}

func sum(h []uint64) uint64 {
	var s uint64
	for _, v := range h {
		s += v
	}
	return s
}

// TestRealGrid checks the files Open MPI 4.1 wrote for testdata/grid.c of
// sdk/trace/mpishim (16 ranks, 4×4 periodic grid, 20 steps of 2,048-byte
// halo messages to 4 neighbours, then 64 bytes from every rank ≠ 0 to rank 0):
// 16·4·20 + 15 = 1,295 messages, 1,280·2,048 + 15·64 = 2,622,400 bytes,
// 64 neighbour pairs + 15 pairs to rank 0 − 4 already counted = 75 pairs.
func TestRealGrid(t *testing.T) {
	d, err := Read("testdata/grid16", "grid")
	if err != nil {
		t.Fatal(err)
	}
	if d.Ranks != 16 || len(d.Files) != 16 {
		t.Fatalf("Ranks=%d files=%d", d.Ranks, len(d.Files))
	}
	msgs, nbytes, pairs := d.External()
	if msgs != 1295 || nbytes != 2622400 || pairs != 75 {
		t.Errorf("External = %d, %d, %d; want 1295, 2622400, 75", msgs, nbytes, pairs)
	}
	for _, p := range d.Pairs() {
		if p.ExtMsgs == 0 {
			continue
		}
		x, y := p.Src%4, p.Src/4
		dx, dy := p.Dst%4, p.Dst/4
		neighbour := (y == dy && (dx == (x+1)%4 || x == (dx+1)%4)) || (x == dx && (dy == (y+1)%4 || y == (dy+1)%4))
		want := uint64(0)
		if neighbour {
			want += 20 * 2048
		}
		if p.Dst == 0 {
			want += 64
		}
		if p.ExtBytes != want {
			t.Errorf("%d->%d: %d bytes, want %d", p.Src, p.Dst, p.ExtBytes, want)
		}
		// The histogram counts external and internal messages of the peer.
		if p.Hist != nil && sum(p.Hist) != p.ExtMsgs+p.IntMsgs {
			t.Errorf("%d->%d: histogram sums to %d, E+I = %d", p.Src, p.Dst, sum(p.Hist), p.ExtMsgs+p.IntMsgs)
		}
		if neighbour && (p.Hist == nil || p.Hist[12] != 20) {
			t.Errorf("%d->%d: want 20 messages in bin 12 ([2048,4096)), hist %v", p.Src, p.Dst, p.Hist)
		}
	}
	for _, f := range d.Files {
		if len(f.Comms) == 0 {
			t.Errorf("rank %d: no communicators", f.Rank)
		}
		for _, c := range f.Comms {
			if c.Name == "MPI_COMM_WORLD" && len(c.Procs) != 16 {
				t.Errorf("rank %d: world has %d procs", f.Rank, len(c.Procs))
			}
		}
	}
}

// TestRealRing checks testdata/ring.c of sdk/trace/mpishim under Open MPI
// 4.1 (8 ranks; 100×1,000 B right, 50×4,096 B left, 10×8 B from each rank ≠ 0
// to rank 0): 800 + 400 + 70 = 1,270 messages, 800,000 + 1,638,400 + 560 =
// 2,438,960 bytes, 8 + 8 + 7 − 2 = 21 pairs (1->0 and 7->0 are ring pairs).
func TestRealRing(t *testing.T) {
	d, err := ReadFS(os.DirFS("testdata"), "ring8/ring.*.prof")
	if err != nil {
		t.Fatal(err)
	}
	msgs, nbytes, pairs := d.External()
	if d.Ranks != 8 || msgs != 1270 || nbytes != 2438960 || pairs != 21 {
		t.Errorf("Ranks %d, External = %d, %d, %d; want 8, 1270, 2438960, 21", d.Ranks, msgs, nbytes, pairs)
	}
	m, b := d.ExternalMatrix()
	if m[3][4] != 100 || b[3][4] != 100000 || m[3][2] != 50 || b[3][2] != 204800 || m[3][0] != 10 || b[3][0] != 80 {
		t.Errorf("rank 3 row: msgs %v bytes %v", m[3], b[3])
	}
	if m[1][0] != 60 || b[1][0] != 50*4096+80 {
		t.Errorf("1->0: %d msgs %d bytes, want 60, %d", m[1][0], b[1][0], 50*4096+80)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"E\t0\t1\t5 bytes\t1 msgs sent\n", "x.0.prof:1:1: expected section header"},
		{"# POINT TO POINT\nE\t0\t1\t5 byte\t1 msgs sent\n", "x.0.prof:2:7: expected \"<number> bytes\", found \"5 byte\""},
		{"# POINT TO POINT\nE\t0\t-1\t5 bytes\t1 msgs sent\n", "x.0.prof:2:5: expected destination rank, found \"-1\""},
		{"# POINT TO POINT\nE\t0\t1\t5 bytes\n", "x.0.prof:2:1: expected E line with 5 tab-separated fields, found 4"},
		{"# POINT TO POINT\nE\t3\t1\t5 bytes\t1 msgs sent\n", "x.0.prof:2:3: expected rank 0 (this file's rank), found 3"},
		{"# POINT TO POINT\nE\t0\t1\t5 bytes\t1 msgs sent\t1,x\n", "x.0.prof:2:29: expected histogram count, found \"x\""},
		{"# POINT TO POINT\nE\t0\t1\t5 bytes\t1 msgs sent\nE\t0\t1\t5 bytes\t1 msgs sent\n", "x.0.prof:3:1: expected one E line for pair 0->1"},
		{"# OSC\nE\t0\t1\t5 bytes\t1 msgs sent\n", "x.0.prof:2:1: expected S or R line, found \"E\""},
		{"# COLLECTIVES\nO2A\t0\t0 bytes\t0 msgs sent\n", "x.0.prof:2:1: expected \"D <name> procs: ...\" before O2A"},
		{"# COLLECTIVES\nD\tw\tprocs: 0,a\n", "x.0.prof:2:14: expected member rank, found \"a\""},
		{"# COLLECTIVES\nD\tw\tprocs: 0\nO2A\t0\t0 bytes\t0 msgs sent\n", "x.0.prof:3: expected O2A, A2O and A2A lines for communicator \"w\", found end of file"},
	}
	for _, c := range cases {
		_, err := parse("x.0.prof", 0, []byte(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: err = %v, want a *ParseError", c.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %s\nwant %s...", c.in, err, c.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(t.TempDir(), "none"); err == nil {
		t.Error("Read of empty dir: no error")
	}
	if _, err := ReadFS(os.DirFS("testdata"), "nothing.*.prof"); err == nil {
		t.Error("ReadFS without matches: no error")
	}
	dir := t.TempDir()
	os.WriteFile(dir+"/a.0.prof", []byte("# POINT TO POINT\nE\t2\t1\t5 bytes\t1 msgs sent\n"), 0o644)
	if _, err := ReadFile(dir + "/a.0.prof"); err == nil || !strings.Contains(err.Error(), "a.0.prof:2:3:") {
		t.Errorf("ReadFile with wrong rank: err = %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(tiny))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := parse("fuzz.0.prof", -1, data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		if rf.maxRank() >= maxRank {
			t.Fatalf("rank %d beyond bound", rf.maxRank())
		}
	})
}
