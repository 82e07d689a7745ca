package otf

import (
	"bytes"
	"compress/zlib"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite testdata/h and testdata/fuzz from the generator")

// The hand-made trace H: 4 processes in 2 streams (stream 1: processes 1
// and 2, stream 2: processes 3 and 4), 2,500,000 ticks per second (one tick
// is 400 ns), every process in "main" from tick 100 to tick 6000.
//
//	A: 10 messages id 1 → id 4, 1000 B, tag 1, MPI_COMM_WORLD,
//	   sent at 1000+10i (inside MPI_Send 1000+10i … +2),
//	   received at 2000+10i (inside MPI_Recv −2 … +0)
//	B: 5 messages id 2 → id 3, 16 B, tag 2, MPI_COMM_WORLD,
//	   sent at 3000+20i, received at 3500+20i
//	D: 1 message id 3 → id 2, 256 B, tag 7, "MPI Communicator 0",
//	   sent at 5000, received at 5100
//
// Totals: 16 messages, 10,336 B; region intervals: 4 main + 16 MPI_Send
// + 16 MPI_Recv = 36. Stream 1 also holds a collective (COP), a counter
// (CNT) and a comment, all skipped.
const hDefs = `DV1.c.4"test"
DCR"hand-made"
DCMT"trace H for the otf reader's tests"
DTR2625a0
DP1NM"Process 0"
DP2NM"Process 1"
DP3NM"Process 2"
DP4NM"Process 3"
DPG10M1,2,NM"node-a"
DPG11M3,4,NM"node-b"
DPG3b9aca00M2,1,3,4,NM"MPI_COMM_WORLD"
DPG3b9ace01M2,3,NM"MPI Communicator 0"
DFG1NM"Application"
DFG2NM"MPI"
DF1G1NM"main"
DF2G2NM"MPI_Send"
DF3G2NM"MPI_Recv"
DCO1NM"MPI_Barrier"Y1
`

const hMaster = "1:1,2\n2:3,4\n"

type genRec struct {
	tick uint64
	proc int
	rec  string
}

// hStreams returns the text of H's two event streams.
func hStreams() (s1, s2 string) {
	var recs []genRec
	add := func(tick uint64, proc int, rec string) { recs = append(recs, genRec{tick, proc, rec}) }
	send := func(tick uint64, src, dst int, length, tag, comm uint64) {
		add(tick, src, "E2")
		add(tick, src, fmt.Sprintf("S%xL%xT%xC%x", dst, length, tag, comm))
		add(tick+2, src, "L2") // leave with its function id
	}
	recv := func(tick uint64, dst, src int, length, tag, comm uint64) {
		add(tick-2, dst, "E3X1") // with a source-code location
		add(tick, dst, fmt.Sprintf("R%xL%xT%xC%xX2", src, length, tag, comm))
		add(tick, dst, "L") // leave the innermost
	}
	for p := 1; p <= 4; p++ {
		add(100, p, "E1")
	}
	for i := uint64(0); i < 10; i++ {
		send(1000+10*i, 1, 4, 1000, 1, 0x3b9aca00)
		recv(2000+10*i, 4, 1, 1000, 1, 0x3b9aca00)
	}
	for i := uint64(0); i < 5; i++ {
		send(3000+20*i, 2, 3, 16, 2, 0x3b9aca00)
		recv(3500+20*i, 3, 2, 16, 2, 0x3b9aca00)
	}
	send(5000, 3, 2, 256, 7, 0x3b9ace01)
	recv(5100, 2, 3, 256, 7, 0x3b9ace01)
	add(5500, 1, "COP1C3b9aca00RT0S0R0D3e8")
	add(5600, 2, "CNT1V5")
	add(5700, 1, "#a comment")
	for p := 1; p <= 4; p++ {
		add(6000, p, "L1")
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].tick < recs[j].tick })
	var b1, b2 bytes.Buffer
	lastT := map[*bytes.Buffer]uint64{}
	lastP := map[*bytes.Buffer]int{}
	for _, r := range recs {
		b := &b1
		if r.proc > 2 {
			b = &b2
		}
		if t, ok := lastT[b]; !ok || t != r.tick {
			fmt.Fprintf(b, "%x\n", r.tick)
			lastT[b] = r.tick
			lastP[b] = 0
		}
		if lastP[b] != r.proc {
			fmt.Fprintf(b, "*%x\n", r.proc)
			lastP[b] = r.proc
		}
		b.WriteString(r.rec + "\n")
	}
	return b1.String(), b2.String()
}

// zlibNoEnd compresses text like VampirTrace does: flushed, never closed,
// so the stream has no end marker.
func zlibNoEnd(text string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(text))
	w.Flush()
	return b.Bytes()
}

// zlibClosed compresses text into a complete zlib stream.
func zlibClosed(text string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(text))
	w.Close()
	return b.Bytes()
}

// hFS is trace H in memory, as testdata/h holds it.
func hFS() fstest.MapFS {
	s1, s2 := hStreams()
	return fstest.MapFS{
		"h.otf":        {Data: []byte(hMaster)},
		"h.0.def":      {Data: []byte(hDefs)},
		"h.1.events.z": {Data: zlibNoEnd(s1)},
		"h.2.events.z": {Data: zlibClosed(s2)},
	}
}

// fuzzSeeds are stream texts the fuzz target starts from.
func fuzzSeeds() []string {
	s1, s2 := hStreams()
	return []string{s1, s2, "64\n*1\nE1\n", "64\n*1\nS4L3e8T1C3b9aca00\n", "zz\n", "64\n*1\nL\n", "64\n*9\nE1\n", "64\n*1\nE1\nc8\nL1X3\n",
		// Records skipped by their layout, as the OTF 1.12 writer writes
		// them, and on a process group's stream (VampirTrace's counters).
		"64\n*1\nPB\nE1X1\nN\n#\"c\"\nCNT1V3e8\nCOP1C3b9aca00RT1S0R0D5\nCOPB2H4dC3b9aca00RT1S40R40X1\nCOPE4d\nF1H9OP3B1000D3X1\nFA58\nFF1MI58H9OP2B200X2\nL1\nPE\n",
		"64\n*1\nT1P3C3b9aca00T5L80X1\nU1P3C3b9aca00T5L80\nG3P2C3b9aca00T6L100\nM3C3b9aca00T6\nTE1O64X1\nTS2ObaeG3b9aca00T3L40X2\nTCOC3b9aca00N3\nTCNTb54CNT1V3e7\n",
		"64\n*1\nK1Y8V251b7247e92\nKcYbV00070e15L3\nS4L3e8T1C3b9aca00\n*10\nCNT5V7b\nE1\nK1Y8V5\nCNT5V7c\n*1\nR4L3e8T1C3b9aca00\n",
		"64\n*1\nXYZ1\nCNT1\nCOPB\nKV1\nENTER 1\n",
	}
}

// TestTestdata checks that testdata/h and the fuzz seeds are what the
// generator writes (go test -run TestTestdata -update rewrites them).
func TestTestdata(t *testing.T) {
	fsys := hFS()
	if *update {
		os.MkdirAll(filepath.Join("testdata", "h"), 0o755)
		for name, f := range fsys {
			if err := os.WriteFile(filepath.Join("testdata", "h", name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join("testdata", "fuzz", "FuzzParseStream")
		os.MkdirAll(dir, 0o755)
		for i, s := range fuzzSeeds() {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var in inflater
	for name, f := range fsys {
		disk, err := os.ReadFile(filepath.Join("testdata", "h", name))
		if err != nil {
			t.Fatalf("%v (run go test -run TestTestdata -update)", err)
		}
		want, got := f.Data, disk
		if filepath.Ext(name) == ".z" {
			w, err := in.inflate(name, want)
			if err != nil {
				t.Fatal(err)
			}
			want = bytes.Clone(w)
			if got, err = in.inflate(name, disk); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(want, got) {
			t.Errorf("testdata/h/%s differs from the generator (run go test -run TestTestdata -update)", name)
		}
	}
}
