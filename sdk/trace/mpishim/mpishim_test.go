package mpishim

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/sdk/trace/ompimon"
)

func needTools(t *testing.T, tools []string) {
	t.Helper()
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but %v not on PATH", missing)
	}
	t.Skipf("skipping: %v not on PATH (install openmpi-bin, libopenmpi-dev, libopen-trace-format2-dev, otf2-tools)", missing)
}

type pair struct{ src, dst int }

type traceCounts struct {
	sends, recvs int
	bytes        uint64
	perPair      map[pair][2]uint64 // msgs, bytes
}

// otf2Sends counts MPI_SEND/MPI_ISEND (and MPI_RECV/MPI_IRECV) events in
// otf2-print's output. Locations are world ranks and all messages are on
// MPI_COMM_WORLD, so "Receiver: N" is the destination rank.
func otf2Sends(t *testing.T, anchor string) traceCounts {
	t.Helper()
	out, err := exec.Command("otf2-print", anchor).Output()
	if err != nil {
		t.Fatalf("otf2-print %s: %v", anchor, err)
	}
	c := traceCounts{perPair: map[pair][2]uint64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			continue
		}
		switch f[0] {
		case "MPI_RECV", "MPI_IRECV":
			c.recvs++
		case "MPI_SEND", "MPI_ISEND":
			c.sends++
			src, _ := strconv.Atoi(f[1])
			dst, length := -1, uint64(0)
			for i := 3; i+1 < len(f); i++ {
				switch f[i] {
				case "Receiver:":
					dst, _ = strconv.Atoi(f[i+1])
				case "Length:":
					length, _ = strconv.ParseUint(strings.TrimSuffix(f[i+1], ","), 10, 64)
				}
			}
			if dst < 0 || !strings.Contains(sc.Text(), `Communicator: "MPI_COMM_WORLD"`) {
				t.Fatalf("unexpected send line %q", sc.Text())
			}
			c.bytes += length
			v := c.perPair[pair{src, dst}]
			c.perPair[pair{src, dst}] = [2]uint64{v[0] + 1, v[1] + length}
		}
	}
	return c
}

// Hand-counted answers for testdata/grid.c with 20 steps (see its comment).
const (
	gridMsgs  = 16*4*20 + 15         // 1,295
	gridBytes = 16*4*20*2048 + 15*64 // 2,622,400
	gridPairs = 16*4 + 15 - 4        // 75
)

func TestMPI(t *testing.T) {
	needTools(t, []string{"mpicc", "mpirun", "otf2-print"})
	start := time.Now()
	dir := t.TempDir()
	lib, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	grid, err := BuildProgram(dir, "grid")
	if err != nil {
		t.Fatal(err)
	}
	ring, err := BuildProgram(dir, "ring")
	if err != nil {
		t.Fatal(err)
	}
	built := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	traceDir := filepath.Join(dir, "trace")
	if _, err := Run(ctx, 16, grid, []string{"20"}, Options{Shim: lib, TraceDir: traceDir,
		MonitorPrefix: filepath.Join(dir, "grid")}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, 8, ring, nil, Options{MonitorPrefix: filepath.Join(dir, "ring")}); err != nil {
		t.Fatal(err)
	}
	ran := time.Now()
	t.Logf("build %v, mpirun grid+ring %v", built.Sub(start).Round(time.Millisecond), ran.Sub(built).Round(time.Millisecond))

	tc := otf2Sends(t, filepath.Join(traceDir, "traces.otf2"))
	if tc.sends != gridMsgs || tc.recvs != gridMsgs || tc.bytes != gridBytes || len(tc.perPair) != gridPairs {
		t.Errorf("trace: %d sends, %d receives, %d bytes, %d pairs; want %d, %d, %d, %d",
			tc.sends, tc.recvs, tc.bytes, len(tc.perPair), gridMsgs, gridMsgs, gridBytes, gridPairs)
	}

	mon, err := ompimon.Read(dir, "grid")
	if err != nil {
		t.Fatal(err)
	}
	msgs, nbytes, pairs := mon.External()
	if msgs != gridMsgs || nbytes != gridBytes || pairs != gridPairs {
		t.Errorf("monitoring: %d msgs, %d bytes, %d pairs; want %d, %d, %d", msgs, nbytes, pairs, gridMsgs, gridBytes, gridPairs)
	}
	for _, p := range mon.Pairs() {
		if p.ExtMsgs == 0 {
			continue
		}
		got := tc.perPair[pair{p.Src, p.Dst}]
		if got[0] != p.ExtMsgs || got[1] != p.ExtBytes {
			t.Errorf("%d->%d: trace %d msgs %d bytes, monitoring E line %d msgs %d bytes",
				p.Src, p.Dst, got[0], got[1], p.ExtMsgs, p.ExtBytes)
		}
	}

	rmon, err := ompimon.Read(dir, "ring")
	if err != nil {
		t.Fatal(err)
	}
	// ring.c: 8·100 + 8·50 + 7·10 messages; 8·100·1,000 + 8·50·4,096 + 7·10·8 bytes.
	if msgs, nbytes, _ := rmon.External(); msgs != 1270 || nbytes != 2438960 {
		t.Errorf("ring monitoring: %d msgs, %d bytes; want 1270, 2438960", msgs, nbytes)
	}
	t.Logf("whole MPI part %v", time.Since(start).Round(time.Millisecond))
}

// TestKeptTrace checks the archive kept in testdata/grid20 (written by the
// shim for grid.c with 20 steps) without running MPI.
func TestKeptTrace(t *testing.T) {
	needTools(t, []string{"otf2-print"})
	tc := otf2Sends(t, "testdata/grid20/traces.otf2")
	if tc.sends != gridMsgs || tc.recvs != gridMsgs || tc.bytes != gridBytes || len(tc.perPair) != gridPairs {
		t.Errorf("kept trace: %d sends, %d receives, %d bytes, %d pairs; want %d, %d, %d, %d",
			tc.sends, tc.recvs, tc.bytes, len(tc.perPair), gridMsgs, gridMsgs, gridBytes, gridPairs)
	}
	// 4×4 periodic grid: rank 5 (x=1, y=1) sends 20×2,048 B to 4, 6, 1, 9 and 64 B to 0.
	for _, dst := range []int{4, 6, 1, 9} {
		if got := tc.perPair[pair{5, dst}]; got != [2]uint64{20, 40960} {
			t.Errorf("5->%d: %v, want [20 40960]", dst, got)
		}
	}
	if got := tc.perPair[pair{5, 0}]; got != [2]uint64{1, 64} {
		t.Errorf("5->0: %v, want [1 64]", got)
	}
}
