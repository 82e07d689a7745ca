package mpi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// --- argument checks, no MPI needed ---

func TestCountsDispls(t *testing.T) {
	cases := []struct {
		name           string
		counts, displs []int
		n, size        int
		ok             bool
	}{
		{"fits", []int{2, 0, 3}, []int{0, 2, 2}, 5, 3, true},
		{"empty blocks anywhere", []int{0, 0}, []int{0, 99}, 0, 2, true},
		{"blocks may overlap", []int{2, 2}, []int{0, 1}, 3, 2, true},
		{"too few counts", []int{1}, []int{0, 0}, 4, 2, false},
		{"too many displs", []int{1, 1}, []int{0, 0, 0}, 4, 2, false},
		{"negative count", []int{-1, 1}, []int{0, 0}, 4, 2, false},
		{"negative displ", []int{1, 1}, []int{0, -1}, 4, 2, false},
		{"past the end", []int{2, 2}, []int{0, 3}, 4, 2, false},
		{"count beyond int32", []int{math.MaxInt32 + 1}, []int{0}, math.MaxInt32 + 1, 1, false},
		{"displ beyond int32", []int{1}, []int{math.MaxInt32 + 1}, math.MaxInt32 + 2, 1, false},
	}
	for _, c := range cases {
		cc, cd, err := countsDispls(c.counts, c.displs, c.n, c.size)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if c.ok {
			for r := range c.size {
				if int(cc[r]) != c.counts[r] || int(cd[r]) != c.displs[r] {
					t.Errorf("%s: rank %d converted to (%d, %d), want (%d, %d)", c.name, r, cc[r], cd[r], c.counts[r], c.displs[r])
				}
			}
		}
	}
}

func TestOverlapAndReduceChecks(t *testing.T) {
	buf := make([]int64, 8)
	p := func(i int) unsafe.Pointer { return unsafe.Pointer(&buf[i]) }
	// [0,3) and [3,6) touch but share no element; [0,4) and [3,6) share buf[3].
	if overlap(p(0), 24, p(3), 24) {
		t.Error("adjacent ranges reported as overlapping")
	}
	if !overlap(p(0), 32, p(3), 24) || !overlap(p(3), 24, p(0), 32) {
		t.Error("ranges sharing buf[3] not reported as overlapping")
	}
	if overlap(p(0), 0, p(0), 64) || overlap(nil, 8, p(0), 8) {
		t.Error("an empty range overlaps something")
	}
	if err := checkReduce(3, 3, 8, p(0), p(0)); err != nil {
		t.Errorf("in place: %v", err)
	}
	if err := checkReduce(3, 3, 8, p(0), p(3)); err != nil {
		t.Errorf("disjoint: %v", err)
	}
	if checkReduce(3, 3, 8, p(0), p(1)) == nil {
		t.Error("partial overlap accepted")
	}
	if checkReduce(3, 4, 8, p(0), p(4)) == nil {
		t.Error("different lengths accepted")
	}
	if ptr([]byte{}) != nil || ptr([]float64(nil)) != nil {
		t.Error("ptr of an empty slice is not nil")
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[Op]string{Sum: "MPI_SUM", Min: "MPI_MIN", Max: "MPI_MAX", LogicalAnd: "MPI_LAND", LogicalOr: "MPI_LOR", Op(9): "Op(9)"} {
		if got := op.String(); got != want {
			t.Errorf("Op(%d).String() = %q, want %q", int(op), got, want)
		}
	}
}

// TestBeforeInit: the test binary never calls Init, so every call must
// refuse politely instead of letting MPI abort the process.
func TestBeforeInit(t *testing.T) {
	if r, s := Rank(), Size(); r != -1 || s != 0 {
		t.Errorf("Rank, Size = %d, %d before Init; want -1, 0", r, s)
	}
	if _, err := ProcessorName(); !errors.Is(err, ErrNotInitialized) {
		t.Errorf("ProcessorName: %v", err)
	}
	for name, err := range map[string]error{
		"Barrier":          Barrier(),
		"Finalize":         Finalize(),
		"AllreduceFloat64": AllreduceFloat64([]float64{1}, make([]float64, 1), Sum),
		"AllreduceInt64":   AllreduceInt64([]int64{1}, make([]int64, 1), Sum),
		"AlltoallInt64":    AlltoallInt64([]int64{1}, make([]int64, 1)),
		"AlltoallvBytes":   AlltoallvBytes(nil, []int{0}, []int{0}, nil, []int{0}, []int{0}),
		"AlltoallvFloat64": AlltoallvFloat64(nil, []int{0}, []int{0}, nil, []int{0}, []int{0}),
		"GathervBytes":     GathervBytes(nil, nil, nil, nil, 0),
	} {
		if !errors.Is(err, ErrNotInitialized) {
			t.Errorf("%s before Init: %v, want ErrNotInitialized", name, err)
		}
	}
	e := &Error{Call: "MPI_Gatherv", Code: 15, Class: 15, Text: "MPI_ERR_TRUNCATE: message truncated"}
	if got := e.Error(); got != "mpi: MPI_Gatherv failed with code 15 (class 15): MPI_ERR_TRUNCATE: message truncated" {
		t.Errorf("Error() = %q", got)
	}
}

// --- under mpirun ---

// mpiTools skips (or fails under CI) when Open MPI's tools are missing.
func mpiTools(t *testing.T) string {
	t.Helper()
	var missing []string
	var mpirun string
	for _, tool := range []string{"mpirun", "mpicc", "pkg-config"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			missing = append(missing, tool)
		}
		if tool == "mpirun" {
			mpirun = p
		}
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("Open MPI tools missing (%s): install openmpi-bin and libopenmpi-dev", strings.Join(missing, ", "))
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return mpirun
}

// buildHelper compiles internal/mpitest into a temporary directory.
func buildHelper(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mpitest")
	out, err := exec.Command("go", "build", "-o", bin, "./internal/mpitest").CombinedOutput()
	if err != nil {
		t.Fatalf("building the MPI test helper: %v\n%s", err, out)
	}
	return bin
}

// mpirunCmd is mpirun with the options this 2-core, root-run machine needs.
func mpirunCmd(mpirun, bin string, np int, extra ...string) *exec.Cmd {
	args := []string{"--oversubscribe", "--allow-run-as-root", "--mca", "mpi_yield_when_idle", "1", "-np", strconv.Itoa(np), bin}
	cmd := exec.Command(mpirun, append(args, extra...)...)
	cmd.Dir = os.TempDir()
	return cmd
}

// runTimed runs cmd, killing it after limit.
func runTimed(t *testing.T, cmd *exec.Cmd, limit time.Duration) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting mpirun: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return buf.String(), err
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("mpirun did not finish within %v; output:\n%s", limit, buf.String())
		return "", nil
	}
}

// rankPids are the pids the helper prints as "rank R ready pid P".
func rankPids(out string) []int {
	var pids []int
	for _, m := range regexp.MustCompile(`rank \d+ ready pid (\d+)`).FindAllStringSubmatch(out, -1) {
		p, _ := strconv.Atoi(m[1])
		pids = append(pids, p)
	}
	return pids
}

// waitGone polls the process table until no pid is left (zombies count
// as gone) and returns how long that took, failing after limit.
func waitGone(t *testing.T, pids []int, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		var alive []int
		for _, p := range pids {
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
			if err == nil && !bytes.Contains(stat, []byte(") Z ")) && bytes.Contains(stat, []byte("(mpitest)")) {
				alive = append(alive, p)
			}
		}
		if len(alive) == 0 {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("rank processes %v still alive %v after mpirun ended", alive, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestUnderMPIRun(t *testing.T) {
	mpirun := mpiTools(t)
	bin := buildHelper(t)

	// Every call with known answers on 1, 2, 4 and 8 ranks.
	checks := []string{"rank-size", "processor-name", "wtime", "barrier",
		"allreduce-int64-sum", "allreduce-int64-min", "allreduce-int64-max", "allreduce-land", "allreduce-lor",
		"allreduce-inplace", "allreduce-float64-sum", "allreduce-float64-min", "allreduce-float64-max", "allreduce-empty",
		"alltoall-int64", "alltoallv-bytes-counts", "alltoallv-bytes", "alltoallv-float64", "alltoallv-empty",
		"gatherv-bytes", "gatherv-hosts",
		"bad-reduce-lengths", "bad-reduce-op-float", "bad-reduce-op", "bad-reduce-overlap", "bad-alltoall-length",
		"bad-alltoallv-counts-length", "bad-alltoallv-negative", "bad-alltoallv-past-buffer", "bad-alltoallv-int32",
		"bad-alltoallv-alias", "bad-gatherv-root"}
	for _, np := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprintf("check-np%d", np), func(t *testing.T) {
			start := time.Now()
			out, err := runTimed(t, mpirunCmd(mpirun, bin, np), 60*time.Second)
			t.Logf("%d ranks: %v", np, time.Since(start).Round(time.Millisecond))
			if err != nil || strings.Contains(out, "FAIL") {
				t.Fatalf("mpirun -np %d: %v\n%s", np, err, out)
			}
			if !strings.Contains(out, fmt.Sprintf("ALL OK ranks=%d\n", np)) {
				t.Errorf("no ALL OK line for %d ranks:\n%s", np, out)
			}
			for r := range np {
				for _, name := range checks {
					if !strings.Contains(out, fmt.Sprintf("rank %d ok %s\n", r, name)) {
						t.Errorf("rank %d did not report %s", r, name)
					}
				}
			}
		})
	}

	// Mismatched Gatherv counts: a real MPI error comes back as *Error on
	// the root, MPI_ERR_TRUNCATE with Open MPI's text, and no rank crashes.
	t.Run("truncate", func(t *testing.T) {
		out, err := runTimed(t, mpirunCmd(mpirun, bin, 3, "-mode", "truncate"), 30*time.Second)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !regexp.MustCompile(`rank 0 mpi-error call=MPI_Gatherv code=\d+ class=\d+ text="MPI_ERR_TRUNCATE[^"]*"`).MatchString(out) {
			t.Errorf("root did not report MPI_ERR_TRUNCATE:\n%s", out)
		}
		for _, r := range []int{1, 2} {
			if !strings.Contains(out, fmt.Sprintf("rank %d result <nil>", r)) {
				t.Errorf("sender %d did not finish cleanly:\n%s", r, out)
			}
		}
	})

	// Go's SIGSEGV handler survives MPI_Init: a nil dereference is a panic
	// that recover catches, also with Open MPI's default opal_signal list.
	t.Run("nilpanic", func(t *testing.T) {
		cmd := mpirunCmd(mpirun, bin, 2, "-mode", "nilpanic")
		cmd.Env = append(os.Environ(), "OMPI_MCA_opal_signal=6,7,8,11")
		out, err := runTimed(t, cmd, 30*time.Second)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for r := range 2 {
			if !strings.Contains(out, fmt.Sprintf("rank %d recovered: runtime error: invalid memory address or nil pointer dereference", r)) {
				t.Errorf("rank %d did not recover from the nil dereference:\n%s", r, out)
			}
		}
	})

	// Abort on the last rank ends every rank, mpirun exits with its code
	// and names the rank, and no rank process survives.
	t.Run("abort", func(t *testing.T) {
		start := time.Now()
		out, err := runTimed(t, mpirunCmd(mpirun, bin, 4, "-mode", "abort"), 30*time.Second)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("mpirun ended with %v, want exit code 7\n%s", err, out)
		}
		if !strings.Contains(out, "mpi: MPI_Abort on rank 3 with exit code 7") {
			t.Errorf("the output does not name rank 3:\n%s", out)
		}
		if !strings.Contains(out, "MPI_ABORT was invoked on rank 3") {
			// Open MPI 4 loses it now and then ("Data unpack would read
			// past end of buffer in file ../../../orte/util/show_help.c").
			t.Logf("mpirun's own notice is missing this time:\n%s", out)
		}
		pids := rankPids(out)
		if len(pids) != 4 {
			t.Fatalf("want 4 rank pids, got %v\n%s", pids, out)
		}
		linger := waitGone(t, pids, 10*time.Second)
		t.Logf("abort: mpirun returned after %v, rank processes gone %v later", time.Since(start).Round(time.Millisecond)-linger.Round(time.Millisecond), linger.Round(time.Millisecond))
	})

	// SIGTERM to mpirun while ranks sit in a barrier: mpirun forwards it,
	// exits non-zero, and leaves no rank process behind.
	t.Run("sigterm", func(t *testing.T) {
		cmd := mpirunCmd(mpirun, bin, 3, "-mode", "block")
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var lines []string
		var pids []int
		sc := bufio.NewScanner(pipe)
		for len(pids) < 3 && sc.Scan() {
			lines = append(lines, sc.Text())
			pids = append(pids, rankPids(sc.Text()+"\n")...)
		}
		if len(pids) < 3 {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("ranks never got ready: %q", lines)
		}
		for _, p := range pids {
			// The check of waitGone must see the live ranks, or it proves nothing.
			if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p)); err != nil || !bytes.Contains(stat, []byte("(mpitest) ")) {
				t.Fatalf("rank pid %d not visible as a live mpitest process before SIGTERM: %v %q", p, err, stat)
			}
		}
		start := time.Now()
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			for sc.Scan() {
			}
			done <- cmd.Wait()
		}()
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("mpirun ignored SIGTERM for 30 s")
		}
		if err == nil {
			t.Error("mpirun exited 0 after SIGTERM")
		}
		stopped := time.Since(start)
		linger := waitGone(t, pids, 10*time.Second)
		t.Logf("sigterm: mpirun exited (%v) after %v, rank processes gone %v later", err, stopped.Round(time.Millisecond), linger.Round(time.Millisecond))
	})

	// Alltoallv of 8 MiB per rank on 4 ranks over shared memory.
	t.Run("bench-alltoallv", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short")
		}
		for _, transport := range [][]string{nil, {"--mca", "btl", "tcp,self"}} {
			cmd := mpirunCmd(mpirun, bin, 4, "-mode", "bench", "-bytes", strconv.Itoa(8<<20), "-iters", "20")
			if transport != nil {
				cmd.Args = append(cmd.Args[:1], append(transport, cmd.Args[1:]...)...)
			}
			out, err := runTimed(t, cmd, 60*time.Second)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			m := regexp.MustCompile(`BENCH .*sec_per_call=([0-9.]+) .*`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no BENCH line:\n%s", out)
			}
			name := "shared memory"
			if transport != nil {
				name = "TCP loopback"
			}
			t.Logf("%s: %s", name, m[0])
		}
	})
}
