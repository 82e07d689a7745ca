package sdk

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"superstep/algo/circular"
	"superstep/algo/partition"
	"superstep/display"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/mpijob"
	"superstep/sdk/profile"
	"superstep/sdk/vrecord"
	"superstep/topology/cluster"
)

// Options say how to run a job: the engine's settings (bsp.Config, whose
// fields read as Options' own: Name, Cluster, Partition, MaxSupersteps,
// Network, SlowHosts, Combiner, …) and what only a notebook job has.
//
// The zero value runs on DefaultCluster (one rack of 4 hosts with 2
// workers each) with hash partitioning, no network cost, at most 1000
// supersteps (or the program's own cap), named after the program's type,
// without a live view or a capture. A field set here is used as it is;
// the program's Configurer then adjusts the config to what the program
// needs (widths, combiner, aggregators; a superstep cap where none is
// set), and the defaults fill what is still unset.
type Options struct {
	bsp.Config
	// Partitioner names how to assign the vertices to workers when
	// Config.Partition is nil: "hash" (default), "range" or "spinner"
	// (label propagation that keeps neighbours together).
	Partitioner string
	// Seed drives the randomised partitioner.
	Seed uint64
	// Out shows the job's heartbeat while it runs, updated in place every
	// superstep: pass display.Here() in a notebook. Nil runs quietly.
	// (What stops a job is Run's context.)
	Out *display.Output
	// Capture, if set, streams the profile to this file as it is measured
	// (msgpack; profile.LoadCapture reads it back).
	Capture string
	// RecordVertices keeps the vertex-level record of the run (values,
	// states and messages of every vertex in every superstep, see package
	// vrecord) for Animate and Job.Superstep: for graphs a class looks at,
	// up to some 20,000 vertices and a few hundred supersteps; past the
	// record's budget (256 MiB unless Config.Record says otherwise) the
	// job stops with an error saying so. Config.Record, when set, is used
	// instead.
	RecordVertices bool
	// Repeat runs the job this many times (0 or 1: once) and keeps, per
	// superstep and worker, the median of the measured times
	// (profile.Median): a view that does not mistake one run's noise for a
	// hot spot. The heartbeat and the capture show the first run.
	Repeat int
}

// Configurer is a program that knows the engine settings it needs (a
// combiner, value and message widths): the built-in programs of
// algo/vertex are. Config returns cfg with what the program needs set,
// and keeps the caller's settings otherwise (a superstep cap it fills
// only when cfg has none).
type Configurer interface {
	Config(bsp.Config) bsp.Config
}

// Job is a finished job: the vertex values, the profile and the views of
// its heartbeat.
type Job struct {
	Graph     *graph.Graph
	Result    *bsp.Result
	Profile   *profile.Profile
	Partition []int32
	// PartitionStats reports the partition's balance and edge cut.
	PartitionStats partition.Stats
	// order is the circular order of the workers for every chord view,
	// fixed for the whole job (GiViP's crossing minimisation on the total
	// traffic).
	order []int
}

// DefaultCluster is the cluster jobs run on unless told otherwise: one
// rack, 4 hosts, 2 workers per host.
func DefaultCluster() *cluster.Cluster {
	c, _ := cluster.New(1, 4, 2)
	return c
}

// Run runs prog on g, profiled, as opt says. Cancelling ctx (in a
// notebook, pass Context(), which the kernel cancels when the cell is
// interrupted) stops the partitioner or the job promptly: Run then returns
// an error wrapping ctx.Err(), with the job so far if it had started (its
// supersteps, profile and values, see bsp.Run).
func Run(ctx context.Context, g *graph.Graph, prog bsp.Program, opt Options) (*Job, error) {
	if g == nil || prog == nil {
		return nil, fmt.Errorf("sdk.Run: needs a graph and a program")
	}
	cfg, err := jobConfig(ctx, g, prog, opt, "sdk.Run")
	if err != nil {
		return nil, err
	}
	k := cfg.Cluster.NumWorkers()
	part := cfg.Partition
	if opt.RecordVertices && cfg.Record == nil {
		cfg.Record = &vrecord.Options{}
	}
	if opt.Out != nil {
		cfg.Recorders = append(cfg.Recorders, newHeartbeat(opt.Out, cfg))
	}
	var capture *profile.CaptureWriter
	if opt.Capture != "" {
		var err error
		if capture, err = profile.CreateCapture(opt.Capture); err != nil {
			return nil, err
		}
		cfg.Recorders = append(cfg.Recorders, capture)
	}
	res, err := bsp.Run(ctx, g, prog, cfg)
	if capture != nil {
		if cerr := capture.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("writing the capture %s: %w", opt.Capture, cerr)
		}
	}
	if res == nil {
		return nil, err
	}
	prof := res.Profile
	if opt.Repeat > 1 && err == nil && prof != nil {
		runs := []*profile.Profile{prof}
		quiet := cfg
		quiet.Record = nil // the record is the first run's
		quiet.Recorders = slices.DeleteFunc(slices.Clone(cfg.Recorders), func(r bsp.Recorder) bool {
			_, hb := r.(*heartbeat)
			return hb || r == bsp.Recorder(capture)
		})
		for range opt.Repeat - 1 {
			again, rerr := bsp.Run(ctx, g, prog, quiet)
			if rerr != nil {
				return nil, fmt.Errorf("sdk.Run %s: repeat %d of %d: %w", cfg.Name, len(runs)+1, opt.Repeat, rerr)
			}
			runs = append(runs, again.Profile)
		}
		if prof, err = profile.Median(runs...); err != nil {
			return nil, fmt.Errorf("sdk.Run %s: %w", cfg.Name, err)
		}
		res.Profile = prof
	}
	j := &Job{Graph: g, Result: res, Profile: prof, Partition: part, PartitionStats: partition.Quality(g, part, k)}
	for _, r := range cfg.Recorders {
		if h, ok := r.(*heartbeat); ok {
			h.finish(j)
		}
	}
	return j, err
}

// jobConfig is the engine's configuration of a job of prog on g as opt
// says: the program's own settings (Configurer), the default cluster, the
// job's name and the partition filled where unset. who names the caller
// in an error.
func jobConfig(ctx context.Context, g *graph.Graph, prog bsp.Program, opt Options, who string) (bsp.Config, error) {
	cfg := opt.Config
	cfg.Recorders = slices.Clone(cfg.Recorders) // a heartbeat or capture joins the caller's
	if c, ok := prog.(Configurer); ok {
		cfg = c.Config(cfg)
	}
	if cfg.Cluster == nil {
		cfg.Cluster = DefaultCluster()
	}
	if cfg.Name == "" {
		cfg.Name = programName(ctx, prog)
	}
	if k := cfg.Cluster.NumWorkers(); cfg.Partition == nil && k > 0 {
		var err error
		if cfg.Partition, err = Partition(ctx, g, k, opt.Partitioner, opt.Seed); err != nil {
			return cfg, fmt.Errorf("%s %s: %w", who, cfg.Name, err)
		}
	}
	return cfg, nil
}

// programName names a job after its program's type: the type's name, or
// for a program declared in a cell (which reaches compiled code in the
// interpreter's wrapper) the cell's name for it, when ctx carries the
// kernel's Namer.
func programName(ctx context.Context, prog bsp.Program) string {
	name := strings.TrimPrefix(fmt.Sprintf("%T", prog), "*")
	if !strings.HasPrefix(name, "symbols.") {
		return name
	}
	if namer := mpijob.NamerFrom(ctx); namer != nil {
		if n := namer(prog); n != "" {
			return n
		}
	}
	return "program"
}

// Partition assigns g's vertices to k workers with the named partitioner:
// "hash" (or ""), "range" or "spinner" (label propagation, which takes
// seconds on a large graph and stops when ctx is cancelled).
func Partition(ctx context.Context, g *graph.Graph, k int, name string, seed uint64) ([]int32, error) {
	switch strings.ToLower(name) {
	case "", "hash":
		return partition.Hash(g, k), nil
	case "range":
		return partition.Range(g, k), nil
	case "spinner", "label-propagation", "lp":
		return partition.LabelPropagation(ctx, g, k, partition.Options{Seed: seed})
	}
	return nil, fmt.Errorf("unknown partitioner %q: want hash, range or spinner", name)
}

// Value is the value of vertex v (its first element).
func (j *Job) Value(v int) float64 {
	if j.Result == nil {
		return math.NaN() // a job made of a trace (TraceJob) has no vertices
	}
	return j.Result.Value(v)
}

// Supersteps is the number of supersteps the job ran (a trace's job: its
// time bins).
func (j *Job) Supersteps() int {
	if j.Result == nil {
		return len(j.Profile.Steps)
	}
	return j.Result.Supersteps
}

// String summarises the job.
func (j *Job) String() string {
	t := j.Profile.Totals()
	if j.Result == nil {
		return fmt.Sprintf("%s: %d frames, %d messages (%s) between %d processes", j.Profile.Job, t.Supersteps, t.Messages, byteSize(t.Bytes), j.Profile.NumWorkers())
	}
	if j.Graph == nil {
		hosts := fmt.Sprintf("%d hosts", len(j.Profile.Cluster.Hosts))
		if len(j.Profile.Cluster.Hosts) == 1 {
			hosts = "host " + j.Profile.Cluster.Hosts[0].Name
		}
		return fmt.Sprintf("%s on %d workers on %s: %d supersteps, %d messages (%s), measured time %v, wall time %v",
			j.Profile.Job, j.Profile.NumWorkers(), hosts, t.Supersteps, t.Messages, byteSize(t.Bytes), t.Measured.Round(time.Microsecond), j.Result.Elapsed.Round(time.Millisecond))
	}
	// Modelled: the cost model's, the same on every run; measured: the
	// clock's, which moves with the machine's load; wall: the whole run.
	return fmt.Sprintf("%s on %v: %d supersteps, %d messages (%s), modelled time %v, measured time %v, wall time %v; partition balance %.2f, edge cut %.1f%%",
		j.Profile.Job, j.Graph, t.Supersteps, t.Messages, byteSize(t.Bytes), roundTime(t.Modelled), t.Measured.Round(time.Microsecond),
		j.Result.Elapsed.Round(time.Millisecond), j.PartitionStats.Balance, 100*j.PartitionStats.CutFraction)
}

// MIMEBundle shows a finished job as its dashboard.
func (j *Job) MIMEBundle() display.Bundle { return j.Dashboard(profile.Options{}).MIMEBundle() }

// Order is the circular order of the workers used by every chord view of
// the job: hosts and racks contiguous, weighted crossings of the total
// traffic minimised.
func (j *Job) Order() []int {
	if j.order == nil {
		j.order = workerOrder(j.Profile)
	}
	return j.order
}

func workerOrder(p *profile.Profile) []int {
	c := p.Cluster
	w := c.NumWorkers()
	total := make([][]float64, w)
	for i := range total {
		total[i] = make([]float64, w)
	}
	for _, s := range p.Steps {
		for i := range s.Messages {
			total[i/w][i%w] += float64(s.Messages[i])
		}
	}
	hosts := make([]int, w)
	for i := range hosts {
		hosts[i] = c.HostOf(i)
	}
	racks := make([]int, len(c.Hosts))
	for h := range racks {
		racks[h] = c.Hosts[h].Rack
	}
	return circular.Order(total, hosts, racks)
}

// roundTime rounds a duration for a summary: to the microsecond from a
// millisecond up, exact below (a small job's modelled time is
// nanoseconds).
func roundTime(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d
}

// byteSize writes a size as every display does (display.FormatBytes).
func byteSize(n int64) string { return display.FormatBytes(float64(n)) }

// CrossTraffic is the share of the job's messages that travel between
// different units at level (workers, hosts or racks): what a partition
// that keeps neighbours together reduces.
func (j *Job) CrossTraffic(level profile.Level) float64 {
	a, err := j.Profile.Aggregate(profile.Options{Level: level, FrameSize: len(j.Profile.Steps)})
	if err != nil || len(a.Frames) == 0 {
		return 0
	}
	var between, total float64
	for s, row := range a.Messages[0] {
		for t, m := range row {
			total += m
			if s != t {
				between += m
			}
		}
	}
	if total == 0 {
		return 0
	}
	return between / total
}
