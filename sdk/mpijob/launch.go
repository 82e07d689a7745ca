package mpijob

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"superstep/sdk/profile"
)

// ErrNoMPI is wrapped by Launch's error when mpirun or the worker command
// is not installed.
var ErrNoMPI = errors.New("MPI is not available")

// Options say how Launch starts the ranks.
type Options struct {
	// Ranks is the number of processes (mpirun -np); 0 means 2.
	Ranks int
	// Hosts places the ranks (mpirun --host a,b,…; a host may be listed
	// once per slot, "a:2" gives it two); Hostfile names an Open MPI
	// hostfile instead. Without either, every rank runs on this machine,
	// oversubscribed if there are more ranks than cores.
	Hosts    []string
	Hostfile string
	// MpirunArgs go to mpirun before the worker: a transport
	// ("--mca", "btl", "tcp,self"), binding, environment (-x).
	MpirunArgs []string
	// Worker is the superstep-worker command; "" looks for
	// $SUPERSTEP_WORKER, then beside the running program, then where
	// install.sh puts it ($SUPERSTEP_HOME/bin, by default
	// ~/.local/share/superstep/bin), then on PATH.
	Worker string
	// OnStep, if set, receives the profile so far and each superstep as
	// rank 0 records it (the heartbeat), on a goroutine of Launch's.
	OnStep func(p *profile.Profile, s profile.Step)
	// Output, if set, receives what mpirun and the ranks print, as they
	// print it; Result.Output keeps it in any case.
	Output io.Writer
	// Grace is how long the ranks get to end after SIGTERM when ctx is
	// cancelled, before SIGKILL; 0 means 3 seconds.
	Grace time.Duration
}

// Result is a finished job as rank 0 wrote it.
type Result struct {
	Outcome
	// Values holds every vertex's value (Vertices × ValueWidth).
	Values []float64
	// Profile is the measured profile (from the capture).
	Profile *profile.Profile
	// Output is what mpirun and the ranks printed.
	Output string
	// Command is the mpirun command line that ran.
	Command []string
}

// Worker finds the superstep-worker command (see Options.Worker).
func Worker() (string, error) {
	if w := os.Getenv("SUPERSTEP_WORKER"); w != "" {
		return w, nil
	}
	if exe, err := os.Executable(); err == nil {
		w := filepath.Join(filepath.Dir(exe), "superstep-worker")
		if _, err := os.Stat(w); err == nil {
			return w, nil
		}
	}
	home := os.Getenv("SUPERSTEP_HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".local", "share", "superstep")
		}
	}
	if w := filepath.Join(home, "bin", "superstep-worker"); home != "" {
		if _, err := os.Stat(w); err == nil {
			return w, nil
		}
	}
	if w, err := exec.LookPath("superstep-worker"); err == nil {
		return w, nil
	}
	return "", fmt.Errorf("%w: the superstep-worker command was not found (build it with ./install.sh --mpi, or go build ./sdk/bsp/mpi/cmd/superstep-worker and set SUPERSTEP_WORKER)", ErrNoMPI)
}

// Command is the mpirun command line Launch runs for spec at specPath.
func Command(specPath string, opt Options) ([]string, error) {
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		return nil, fmt.Errorf("%w: mpirun was not found (install Open MPI: apt-get install openmpi-bin libopenmpi-dev, or ./install.sh --mpi)", ErrNoMPI)
	}
	worker := opt.Worker
	if worker == "" {
		if worker, err = Worker(); err != nil {
			return nil, err
		}
	}
	ranks := opt.Ranks
	if ranks == 0 {
		ranks = 2
	}
	if ranks < 1 {
		return nil, fmt.Errorf("mpijob: %d ranks, want at least 1", ranks)
	}
	args := []string{mpirun, "-np", fmt.Sprint(ranks)}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	switch {
	case opt.Hostfile != "":
		args = append(args, "--hostfile", opt.Hostfile)
	case len(opt.Hosts) > 0:
		args = append(args, "--host", strings.Join(opt.Hosts, ","))
	default:
		args = append(args, "--oversubscribe")
	}
	args = append(args, opt.MpirunArgs...)
	return append(args, worker, "-spec", specPath), nil
}

// Launch runs spec on MPI ranks: it writes spec.json to spec.Out (made
// if needed; outputs of an earlier job there are removed), starts mpirun
// in a process group of its own, follows rank 0's capture (opt.OnStep),
// and returns the values and the profile once the ranks have ended.
//
// Cancelling ctx sends SIGTERM to mpirun and every rank, then SIGKILL
// after opt.Grace; Launch returns once they are gone, with an error
// wrapping ctx.Err(). A rank that fails or is killed makes mpirun end the
// others; the error then quotes the lines that name the rank.
func Launch(ctx context.Context, spec *Spec, opt Options) (*Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(spec.Out, 0o755); err != nil {
		return nil, fmt.Errorf("mpijob: %w", err)
	}
	for _, f := range []string{CaptureFile, ResultFile, ValuesFile, ProfileDir} {
		if err := os.RemoveAll(filepath.Join(spec.Out, f)); err != nil {
			return nil, fmt.Errorf("mpijob: %w", err)
		}
	}
	specPath := filepath.Join(spec.Out, SpecFile)
	if err := spec.Save(specPath); err != nil {
		return nil, fmt.Errorf("mpijob: %w", err)
	}
	argv, err := Command(specPath, opt)
	if err != nil {
		return nil, err
	}
	var out lockedBuffer
	var w io.Writer = &out
	if opt.Output != nil {
		w = io.MultiWriter(&out, opt.Output)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mpijob: starting mpirun: %w", err)
	}
	done := make(chan struct{})
	var followed *profile.Profile
	var followErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		capture := filepath.Join(spec.Out, CaptureFile)
		t := &tail{path: capture, done: done}
		defer t.close()
		followed, followErr = profile.FollowCapture(t, capture, opt.OnStep)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var runErr error
	select {
	case runErr = <-waited:
	case <-ctx.Done():
		grace := opt.Grace
		if grace <= 0 {
			grace = 3 * time.Second
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-waited:
		case <-time.After(grace):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-waited
		}
		// Ranks that outlived mpirun share its process group.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		runErr = fmt.Errorf("mpijob: job %s stopped: %w", spec.Program, ctx.Err())
	}
	close(done)
	wg.Wait()
	res := &Result{Output: out.String(), Command: argv, Profile: followed}
	if ctx.Err() != nil {
		return res, runErr
	}
	if runErr != nil {
		return res, fmt.Errorf("mpijob: job %s failed (%v)%s", spec.Program, runErr, rankLines(res.Output))
	}
	if err := readResult(spec.Out, res); err != nil {
		return res, err
	}
	if followErr != nil {
		return res, fmt.Errorf("mpijob: reading rank 0's capture: %w", followErr)
	}
	if res.Error != "" {
		return res, fmt.Errorf("mpijob: job %s: %s", spec.Program, res.Error)
	}
	return res, nil
}

// rankLines quotes the lines of mpirun's output that say which rank
// failed and why.
func rankLines(output string) string {
	var quoted []string
	for _, line := range strings.Split(output, "\n") {
		if rankLine.MatchString(line) {
			quoted = append(quoted, strings.TrimSpace(line))
		}
	}
	if len(quoted) == 0 {
		return ""
	}
	return ":\n" + strings.Join(quoted, "\n")
}

var rankLine = regexp.MustCompile(`superstep-worker: rank \d+:|process rank \d+|on rank \d+|MPI_ABORT was invoked`)

// readResult reads result.json and the values rank 0 wrote.
func readResult(dir string, res *Result) error {
	b, err := os.ReadFile(filepath.Join(dir, ResultFile))
	if err != nil {
		return fmt.Errorf("mpijob: the job ended without its result: %w", err)
	}
	if err := json.Unmarshal(b, &res.Outcome); err != nil {
		return fmt.Errorf("mpijob: %s: %w", ResultFile, err)
	}
	v, err := os.ReadFile(filepath.Join(dir, ValuesFile))
	if err != nil {
		return fmt.Errorf("mpijob: %w", err)
	}
	if len(v) != 8*res.Vertices*res.ValueWidth {
		return fmt.Errorf("mpijob: %s has %d bytes for %d vertices of width %d", ValuesFile, len(v), res.Vertices, res.ValueWidth)
	}
	res.Values = make([]float64, len(v)/8)
	for i := range res.Values {
		res.Values[i] = math.Float64frombits(binary.LittleEndian.Uint64(v[8*i:]))
	}
	if res.Profile == nil {
		if res.Profile, err = profile.LoadCapture(filepath.Join(dir, CaptureFile)); err != nil {
			return fmt.Errorf("mpijob: %w", err)
		}
	}
	return nil
}

// tail reads a file that another process is writing: at its end it waits
// for more until done is closed, then reads what is left and reports EOF.
type tail struct {
	path string
	f    *os.File
	done <-chan struct{}
}

func (t *tail) Read(p []byte) (int, error) {
	for {
		finished := false
		select {
		case <-t.done:
			finished = true
		default:
		}
		if t.f == nil {
			f, err := os.Open(t.path)
			if err != nil {
				if finished || !os.IsNotExist(err) {
					return 0, io.EOF
				}
				time.Sleep(20 * time.Millisecond)
				continue
			}
			t.f = f
		}
		n, err := t.f.Read(p)
		if n > 0 || (err != nil && err != io.EOF) {
			return n, err
		}
		if finished {
			return 0, io.EOF
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
	}
}

// lockedBuffer collects mpirun's output from its two pipes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
