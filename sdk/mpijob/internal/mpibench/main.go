// Command mpibench times PageRank supersteps on one seeded random graph in
// three ways, in one run: the in-process engine (sdk/bsp) with k workers,
// k MPI ranks over Open MPI's default transport (shared memory), and k MPI
// ranks with TCP forced over loopback (--mca btl tcp,self). It prints,
// per configuration, the median, min and max superstep time, the
// messages and bytes that crossed between distinct workers per
// superstep, the load and start-up time, peak memory, and the ratios to
// the in-process engine against issue 15's target (MPI over shared memory
// within 2× of in-process).
//
//	go run ./sdk/mpijob/internal/mpibench [-vertices 1000000 -edges 10000000 \
//	    -supersteps 10 -seed 1 -ranks 4 -yield -worker PATH -keep DIR]
//
// The graph is Chung–Lu: vertex i's expected degree is proportional to
// (i+1)^(-1/(γ-1)) with γ = 2.5 (a power-law degree spread), capped at
// √(2m) so that edge probabilities stay below one; -edges undirected
// edges are drawn by picking both ends by weight, without self-loops or
// repeats (a simple graph, each edge stored as two arcs: 10 M edges are
// 20 M arcs, and PageRank sends one message per arc). It is written once
// as METIS, which the in-process engine reads whole (datasets.Load) and
// every rank in part (only its own vertices' lines, see
// datasets.ReadMETISPart): METIS keeps every vertex (isolated ones too)
// with input id i+1, so the hash partition is the same in every process.
//
// Superstep 0 (the engine's set-up and first sends) and the last (every
// vertex halts, nothing is sent) are left out of the summary; supersteps
// 1 and 2 are slow too (buffers growing) but the median shrugs them off,
// and every superstep's time is printed below the table.
//
// The command knows no MPI call and no engine internals: it starts the
// worker through mpijob.Launch, building superstep-worker with `go build`
// unless -worker names it, and reads what it reports from the profiles.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"superstep/algo/partition"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/mpijob"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

func main() {
	var o options
	flag.IntVar(&o.Vertices, "vertices", 1_000_000, "vertices of the random graph")
	flag.IntVar(&o.Edges, "edges", 10_000_000, "undirected edges of the random graph (each is two arcs)")
	flag.IntVar(&o.Iterations, "supersteps", 10, "PageRank iterations: supersteps 0..N send, superstep N halts")
	flag.Uint64Var(&o.Seed, "seed", 1, "seed of the graph")
	flag.IntVar(&o.Ranks, "ranks", 4, "in-process workers and MPI ranks")
	flag.BoolVar(&o.Yield, "yield", false, "also run shared memory with --mca mpi_yield_when_idle 1")
	flag.StringVar(&o.Worker, "worker", "", "superstep-worker command (default: go build it)")
	flag.StringVar(&o.Dir, "keep", "", "directory for the graph and the jobs' outputs, kept (default: a temporary one, removed)")
	flag.Parse()
	o.Progress = os.Stderr
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mpibench:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	Vertices, Edges int
	Iterations      int
	Seed            uint64
	Ranks           int
	Yield           bool
	Worker          string
	Dir             string
	// InProcessOnly leaves out the MPI configurations (tests without
	// Open MPI).
	InProcessOnly bool
	// Progress, if set, receives a line as each phase starts.
	Progress io.Writer
}

// config is one way of running the job.
type config struct {
	Name string
	// MPI is false for the in-process engine.
	MPI        bool
	MpirunArgs []string
}

// configs lists the configurations bench runs, in-process first.
func configs(o options) []config {
	cs := []config{
		{Name: "in-process"},
	}
	if o.InProcessOnly {
		return cs
	}
	cs = append(cs, config{Name: "mpi-shm", MPI: true})
	if o.Yield {
		cs = append(cs, config{Name: "mpi-shm-yield", MPI: true, MpirunArgs: []string{"--mca", "mpi_yield_when_idle", "1"}})
	}
	return append(cs, config{Name: "mpi-tcp", MPI: true, MpirunArgs: []string{"--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo"}})
}

// measured is one configuration's run.
type measured struct {
	Config config
	// Steps is each superstep's wall time: in process, between the
	// engine's successive RecordStep calls (superstep 0 from the call of
	// bsp.Run, so it includes the engine's set-up); on MPI, the slowest
	// rank's compute + barrier wait + exchange (encode, Alltoallv, decode,
	// delivery and the vote), as the profile measures them.
	Steps []time.Duration
	// Messages and Bytes are each superstep's traffic between distinct
	// workers, from the profile (in process Bytes is the engine's
	// message size × messages; on MPI the encoded bytes sent).
	Messages, Bytes []int64
	// PairMessages is each superstep's messages for every ordered pair of
	// workers (W×W, row-major), the diagonal included.
	PairMessages [][]int64
	// Load is reading the graph and Partition hashing it (in process);
	// on MPI Load is mpirun's wall time less the job's (start-up, every
	// rank reading and partitioning the graph, the outputs).
	Load, Partition time.Duration
	// Elapsed is the job's wall time from its first superstep to its end
	// (bsp.Result.Elapsed; rank 0's on MPI).
	Elapsed time.Duration
	// PeakRSS is the peak resident memory in bytes: of this process for
	// the in-process run (reset before loading the graph), of each
	// worker process on MPI (sorted, largest last); nil if unknown.
	PeakRSS []int64
	Values  []float64
	// Compute and Comm are each superstep's slowest worker compute and
	// (MPI) slowest exchange, from the profile.
	Compute, Comm []time.Duration
}

// report is what run prints.
type report struct {
	Options  options
	Vertices int
	Arcs     int
	Format   string
	GenTime  time.Duration
	Runs     []*measured
}

// run generates the graph, runs every configuration and prints the table.
func run(ctx context.Context, o options, w io.Writer) error {
	r, err := bench(ctx, o)
	if err != nil {
		return err
	}
	return r.print(w)
}

func (o options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// bench is the command's core: generate, write, run every configuration.
func bench(ctx context.Context, o options) (*report, error) {
	switch {
	case o.Vertices < 2 || o.Vertices > math.MaxInt32-1:
		return nil, fmt.Errorf("%d vertices, want 2..%d", o.Vertices, math.MaxInt32-1)
	case o.Edges < 1 || o.Edges > o.Vertices/2*(o.Vertices-1)/2:
		return nil, fmt.Errorf("%d edges on %d vertices: want 1 to a quarter of all pairs (sampling without repeats)", o.Edges, o.Vertices)
	case o.Iterations < 2:
		return nil, fmt.Errorf("%d supersteps, want at least 2", o.Iterations)
	case o.Ranks < 1:
		return nil, fmt.Errorf("%d ranks, want at least 1", o.Ranks)
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "mpibench")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	rep := &report{Options: o, Vertices: o.Vertices, Arcs: 2 * o.Edges, Format: "METIS"}
	o.progress("generating a Chung–Lu graph: %d vertices, %d edges, seed %d", o.Vertices, o.Edges, o.Seed)
	start := time.Now()
	offsets, adj := chungLu(o.Vertices, o.Edges, o.Seed)
	path := filepath.Join(dir, "graph.metis")
	if err := writeMETIS(path, offsets, adj); err != nil {
		return nil, fmt.Errorf("writing the graph: %w", err)
	}
	rep.GenTime = time.Since(start)
	offsets, adj = nil, nil
	worker := o.Worker
	for _, c := range configs(o) {
		var m *measured
		var err error
		if c.MPI {
			if worker == "" {
				o.progress("building superstep-worker")
				if worker, err = buildWorker(dir); err != nil {
					return nil, err
				}
			}
			o.progress("running %s", c.Name)
			m, err = runMPI(ctx, c, path, filepath.Join(dir, c.Name), worker, o)
		} else {
			o.progress("running %s", c.Name)
			m, err = runInProcess(ctx, path, o)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		m.Config = c
		rep.Runs = append(rep.Runs, m)
	}
	return rep, nil
}

// chungLu draws a simple undirected Chung–Lu graph with n vertices and m
// edges (see the package comment) and returns it as a CSR: the
// neighbours of v are adj[offsets[v]:offsets[v+1]], sorted.
func chungLu(n, m int, seed uint64) (offsets []int, adj []int32) {
	const gamma = 2.5
	alpha := 1 / (gamma - 1)
	w := make([]float64, n)
	var sum float64
	for i := range w {
		w[i] = math.Pow(float64(i+1), -alpha)
		sum += w[i]
	}
	// Expected degrees summing to 2m, capped at √(2m).
	limit := math.Sqrt(2 * float64(m))
	for i := range w {
		w[i] = math.Min(w[i]*2*float64(m)/sum, limit)
	}
	al := newAlias(w)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	keys := make([]uint64, 0, m+m/8)
	for len(keys) < m {
		for need := m - len(keys); need > 0; {
			u, v := al.draw(rng), al.draw(rng)
			if u == v {
				continue
			}
			keys = append(keys, uint64(min(u, v))<<32|uint64(max(u, v)))
			need--
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	offsets = make([]int, n+1)
	for _, k := range keys {
		offsets[k>>32+1]++
		offsets[k&0xffffffff+1]++
	}
	for v := 0; v < n; v++ {
		offsets[v+1] += offsets[v]
	}
	adj = make([]int32, 2*m)
	fill := slices.Clone(offsets[:n])
	// Keys are sorted by (low, high): each list gets its lower neighbours
	// in order (as the high end), then its higher ones (as the low end).
	for _, k := range keys {
		u, v := int(k>>32), int(k&0xffffffff)
		adj[fill[v]] = int32(u)
		fill[v]++
	}
	for _, k := range keys {
		u, v := int(k>>32), int(k&0xffffffff)
		adj[fill[u]] = int32(v)
		fill[u]++
	}
	return offsets, adj
}

// alias is Vose's alias table: draw picks index i with probability
// proportional to its weight in O(1).
type alias struct {
	prob  []float64
	other []int32
}

func newAlias(w []float64) *alias {
	n := len(w)
	var sum float64
	for _, x := range w {
		sum += x
	}
	a := &alias{prob: make([]float64, n), other: make([]int32, n)}
	scaled := make([]float64, n)
	var small, large []int32
	for i, x := range w {
		scaled[i] = x * float64(n) / sum
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.other[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range large {
		a.prob[i] = 1
	}
	for _, i := range small { // rounding leftovers
		a.prob[i] = 1
	}
	return a
}

func (a *alias) draw(rng *rand.Rand) int {
	i := rng.IntN(len(a.prob))
	if rng.Float64() < a.prob[i] {
		return i
	}
	return int(a.other[i])
}

// writeMETIS writes the CSR as a METIS graph (1-based neighbours).
func writeMETIS(path string, offsets []int, adj []int32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	n := len(offsets) - 1
	fmt.Fprintf(bw, "%d %d\n", n, len(adj)/2)
	line := make([]byte, 0, 1<<12)
	for v := 0; v < n; v++ {
		line = line[:0]
		for i, u := range adj[offsets[v]:offsets[v+1]] {
			if i > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, int64(u)+1, 10)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			f.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// buildWorker builds superstep-worker into dir, as sdk/mpijob's tests do.
func buildWorker(dir string) (string, error) {
	for _, tool := range []string{"mpirun", "mpicc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%w: %s is missing (install openmpi-bin and libopenmpi-dev)", mpijob.ErrNoMPI, tool)
		}
	}
	bin := filepath.Join(dir, "superstep-worker")
	out, err := exec.Command("go", "build", "-o", bin, "superstep/sdk/bsp/mpi/cmd/superstep-worker").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building superstep-worker: %v\n%s", err, out)
	}
	return bin, nil
}

// stepClock is a bsp.Recorder noting when each superstep ends.
type stepClock struct {
	mu    sync.Mutex
	start time.Time
	ends  []time.Time
}

func (c *stepClock) RecordStep(*profile.Profile, profile.Step) {
	c.mu.Lock()
	c.ends = append(c.ends, time.Now())
	c.mu.Unlock()
}

func (c *stepClock) steps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := make([]time.Duration, len(c.ends))
	prev := c.start
	for i, t := range c.ends {
		d[i], prev = t.Sub(prev), t
	}
	return d
}

// runInProcess loads the graph as the ranks do and runs PageRank on the
// in-process engine with o.Ranks workers and the hash partition.
func runInProcess(ctx context.Context, path string, o options) (*measured, error) {
	runtime.GC()
	debug.FreeOSMemory()
	resetPeak := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	m := &measured{}
	start := time.Now()
	g, err := datasets.Load(path)
	if err != nil {
		return nil, err
	}
	m.Load = time.Since(start)
	start = time.Now()
	part := partition.Hash(g, o.Ranks)
	m.Partition = time.Since(start)
	cl, err := cluster.Single(o.Ranks)
	if err != nil {
		return nil, err
	}
	clock := &stepClock{}
	cfg := bsp.Config{Name: "pagerank", Cluster: cl, Partition: part, MaxSupersteps: o.Iterations + 1, Recorders: []bsp.Recorder{clock}}
	clock.start = time.Now()
	res, err := bsp.Run(ctx, g, vertex.PageRank{Iterations: o.Iterations}, cfg)
	if err != nil {
		return nil, err
	}
	m.Steps = clock.steps()
	m.Elapsed = res.Elapsed
	m.Values = res.Values
	m.traffic(res.Profile)
	if hwm, ok := peakRSS("self"); ok && resetPeak {
		m.PeakRSS = []int64{hwm}
	}
	return m, nil
}

// traffic fills the messages and bytes between distinct workers.
func (m *measured) traffic(p *profile.Profile) {
	for _, s := range p.Steps {
		nw := len(s.Workers)
		var msgs, bytes int64
		for i := range s.Messages {
			if i/nw != i%nw {
				msgs += s.Messages[i]
				bytes += s.Bytes[i]
			}
		}
		m.Messages = append(m.Messages, msgs)
		m.Bytes = append(m.Bytes, bytes)
		m.PairMessages = append(m.PairMessages, slices.Clone(s.Messages))
		var comp, comm time.Duration
		for _, ws := range s.Workers {
			comp, comm = max(comp, ws.Compute), max(comm, ws.Comm)
		}
		m.Compute = append(m.Compute, comp)
		m.Comm = append(m.Comm, comm)
	}
}

// runMPI runs the job on o.Ranks MPI ranks with c's mpirun arguments,
// sampling the workers' peak memory from /proc meanwhile.
func runMPI(ctx context.Context, c config, path, out, worker string, o options) (*measured, error) {
	spec := &mpijob.Spec{Name: "pagerank", Graph: path, Program: "pagerank", Params: map[string]float64{"iterations": float64(o.Iterations)},
		Partitioner: "hash", MaxSupersteps: o.Iterations + 1, Out: out}
	specPath := filepath.Join(out, mpijob.SpecFile)
	stop := make(chan struct{})
	peaks := map[int]int64{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			for pid, hwm := range workerPeaks(specPath) {
				peaks[pid] = max(peaks[pid], hwm)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	res, err := mpijob.Launch(ctx, spec, mpijob.Options{Ranks: o.Ranks, MpirunArgs: c.MpirunArgs, Worker: worker})
	wall := time.Since(start)
	close(stop)
	wg.Wait()
	if err != nil {
		if res != nil {
			return nil, fmt.Errorf("%w\n%s", err, res.Output)
		}
		return nil, err
	}
	m := &measured{Elapsed: res.Elapsed, Load: wall - res.Elapsed, Values: res.Values}
	for _, s := range res.Profile.Steps {
		var slowest time.Duration
		for _, ws := range s.Workers {
			slowest = max(slowest, ws.Compute+ws.Wait+ws.Comm)
		}
		m.Steps = append(m.Steps, slowest)
	}
	m.traffic(res.Profile)
	for _, p := range peaks {
		m.PeakRSS = append(m.PeakRSS, p)
	}
	slices.Sort(m.PeakRSS)
	return m, nil
}

// workerPeaks reads VmHWM of every live superstep-worker process whose
// command line names specPath.
func workerPeaks(specPath string) map[int]int64 {
	got := map[int]int64{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(cmdline), "\x00")
		if len(args) < 3 || !strings.HasSuffix(args[0], "superstep-worker") || !slices.Contains(args, specPath) {
			continue
		}
		if hwm, ok := peakRSS(d.Name()); ok {
			got[pid] = hwm
		}
	}
	return got
}

// peakRSS reads VmHWM (peak resident memory) of process pid ("self").
func peakRSS(pid string) (int64, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb << 10, err == nil
			}
		}
	}
	return 0, false
}

// typical is the supersteps the summary uses: 1..N-1, leaving out
// superstep 0 (the engine's set-up, first sends) and the last (no
// messages: every vertex votes to halt).
func typical(steps []time.Duration) []time.Duration {
	if len(steps) <= 2 {
		return steps
	}
	return steps[1 : len(steps)-1]
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// summary is one configuration's line of the table.
type summary struct {
	Median, Min, Max time.Duration
	// Messages and Bytes are per typical superstep (their median).
	Messages, Bytes int64
}

func (m *measured) summary() summary {
	t := typical(m.Steps)
	s := summary{Median: median(t), Min: slices.Min(t), Max: slices.Max(t)}
	msgs, bytes := typicalInts(m.Messages), typicalInts(m.Bytes)
	slices.Sort(msgs)
	slices.Sort(bytes)
	s.Messages, s.Bytes = msgs[len(msgs)/2], bytes[len(bytes)/2]
	return s
}

func typicalInts(x []int64) []int64 {
	if len(x) <= 2 {
		return slices.Clone(x)
	}
	return slices.Clone(x[1 : len(x)-1])
}

// maxRelDiff is the largest relative difference between two value arrays.
func maxRelDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	worst := 0.0
	for i := range a {
		d := math.Abs(a[i] - b[i])
		if d != 0 {
			worst = math.Max(worst, d/math.Max(math.Abs(a[i]), math.Abs(b[i])))
		}
	}
	return worst
}

func ms(d time.Duration) string {
	if d < 100*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0f ms", float64(d)/1e6)
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// print writes the table.
func (r *report) print(w io.Writer) error {
	if len(r.Runs) == 0 {
		return errors.New("no configuration ran")
	}
	o := r.Options
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "PageRank, %d iterations (%d supersteps; summary over supersteps 1..%d, leaving out superstep 0 (set-up) and %d (halt, no messages))\n",
		o.Iterations, o.Iterations+1, o.Iterations-1, o.Iterations)
	fmt.Fprintf(bw, "graph: Chung–Lu γ=2.5, seed %d: %d vertices, %d undirected edges = %d arcs, %s (generated and written in %s); %d workers/ranks, hash partition; GOMAXPROCS %d, %d CPUs\n\n",
		o.Seed, r.Vertices, r.Arcs/2, r.Arcs, r.Format, ms(r.GenTime), o.Ranks, runtime.GOMAXPROCS(0), runtime.NumCPU())
	base := r.Runs[0].summary()
	fmt.Fprintf(bw, "%-14s %9s %9s %9s %12s %9s %11s %10s %10s %13s %7s\n",
		"config", "median", "min", "max", "msgs/step", "MB/step", "load", "partition", "job wall", "peak RSS", "ratio")
	for _, m := range r.Runs {
		s := m.summary()
		load, part := ms(m.Load), ms(m.Partition)
		if m.Config.MPI {
			load, part = ms(m.Load)+"*", "(in load)"
		}
		peak := "?"
		if len(m.PeakRSS) > 0 {
			peak = mib(m.PeakRSS[len(m.PeakRSS)-1])
			if m.Config.MPI {
				peak += "/rank"
			}
		}
		fmt.Fprintf(bw, "%-14s %9s %9s %9s %12d %9.1f %11s %10s %10s %13s %6.2f×\n",
			m.Config.Name, ms(s.Median), ms(s.Min), ms(s.Max), s.Messages, float64(s.Bytes)/1e6, load, part, ms(m.Elapsed), peak,
			float64(s.Median)/float64(base.Median))
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "median/min/max: wall time of a superstep (in process: between the engine's step records; MPI: the slowest rank's compute + barrier wait + exchange from the profile)")
	fmt.Fprintln(bw, "msgs, MB: between distinct workers per superstep (in process: messages × the engine's message size; MPI: encoded bytes sent)")
	fmt.Fprintln(bw, "* MPI load: mpirun's wall time minus the job's (start-up, every rank reading, partitioning and keeping its share of the graph, writing the outputs)")
	fmt.Fprintln(bw, "peak RSS: VmHWM of this process from loading the graph on (in process), of the largest worker (MPI; all ranks listed below)")
	fmt.Fprintln(bw, "job wall: bsp.Run from superstep 0 to the end (rank 0's on MPI, with the final gathering of the values)")
	fmt.Fprintln(bw)
	for _, m := range r.Runs[1:] {
		s := m.summary()
		ratio := float64(s.Median) / float64(base.Median)
		line := fmt.Sprintf("%s / in-process: %.2f×", m.Config.Name, ratio)
		if strings.HasPrefix(m.Config.Name, "mpi-shm") {
			verdict := "MET"
			if ratio > 2 {
				verdict = "MISSED"
			}
			line += fmt.Sprintf(" (target ≤ 2×: %s)", verdict)
		}
		var same = "same"
		for i := range m.PairMessages {
			if i >= len(r.Runs[0].PairMessages) || !slices.Equal(m.PairMessages[i], r.Runs[0].PairMessages[i]) {
				same = "DIFFERENT"
			}
		}
		if len(m.PairMessages) != len(r.Runs[0].PairMessages) {
			same = "DIFFERENT"
		}
		line += fmt.Sprintf("; per-pair messages %s as in process; values within %.1e relative", same, maxRelDiff(m.Values, r.Runs[0].Values))
		if len(m.PeakRSS) > 0 {
			var ranks []string
			for _, p := range m.PeakRSS {
				ranks = append(ranks, mib(p))
			}
			line += "; peak RSS per rank " + strings.Join(ranks, ", ")
		}
		fmt.Fprintln(bw, line)
	}
	fmt.Fprintln(bw)
	for _, m := range r.Runs {
		fmt.Fprintf(bw, "%s: median superstep %s = slowest compute %s", m.Config.Name, ms(median(typical(m.Steps))), ms(median(typical(m.Compute))))
		if m.Config.MPI {
			fmt.Fprintf(bw, " + exchange (encode, Alltoallv, decode, vote) %s + the rest barrier wait", ms(median(typical(m.Comm))))
		} else {
			fmt.Fprintf(bw, " + delivery and recording")
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw)
	fmt.Fprintf(bw, "%-14s", "step (ms)")
	for _, m := range r.Runs {
		fmt.Fprintf(bw, " %14s", m.Config.Name)
	}
	fmt.Fprintln(bw)
	for i := range r.Runs[0].Steps {
		fmt.Fprintf(bw, "%-14d", i)
		for _, m := range r.Runs {
			if i < len(m.Steps) {
				fmt.Fprintf(bw, " %14.1f", float64(m.Steps[i])/1e6)
			} else {
				fmt.Fprintf(bw, " %14s", "-")
			}
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}
