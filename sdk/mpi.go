package sdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"superstep/algo/vertex"
	"superstep/display"
	"superstep/sdk/bsp"
	"superstep/sdk/mpijob"
	"superstep/sdk/profile"
)

// MPIOptions say how RunMPI runs a job on MPI ranks.
type MPIOptions struct {
	// Name names the job in its profile ("" names it after the program).
	Name string
	// Ranks is the number of MPI processes, one worker each (0 means 2).
	Ranks int
	// Hosts (mpirun --host) or Hostfile place the ranks on machines;
	// without them every rank runs here.
	Hosts    []string
	Hostfile string
	// MpirunArgs pass through to mpirun: a transport
	// ("--mca", "btl", "tcp,self"), binding, environment.
	MpirunArgs []string
	// Partitioner is "hash" (default) or "range", which every rank
	// computes itself, or "spinner", which runs here (the graph is then
	// loaded here too) and is shipped to the ranks as a file. Partition,
	// if set, is shipped as it is: one rank per vertex.
	Partitioner string
	Partition   []int32
	// Seed drives the spinner partitioner.
	Seed uint64
	// MaxSupersteps caps the job (0: the program's cap, else 1000).
	MaxSupersteps int
	// Out shows the heartbeat while the job runs (display.Here() in a
	// notebook); nil runs quietly.
	Out *display.Output
	// Dir is where rank 0 writes the capture, the Parquet profile and the
	// values ("" makes a temporary directory).
	Dir string
}

// RunMPI runs a vertex program on real MPI processes: it starts mpirun
// with opt.Ranks copies of superstep-worker (installed by ./install.sh),
// each of which reads graphPath (a graph file, or the name of a shipped
// data set such as "4elt"), keeps its own vertices' arcs and exchanges
// each superstep's messages with the others; the heartbeat shows on
// opt.Out as rank 0 measures it. The job it returns reads like one of
// Run: the values, and a profile of measured compute, barrier wait and
// exchange times and of the messages and bytes between every pair of
// ranks, on a cluster of the hosts MPI reported. With the same partition
// (the hash partition is the same for Run and RunMPI) the messages and the
// values are those of Run.
//
// prog is a bsp.Program: one of algo/vertex's programs (PageRank, SSSP,
// also Buggy, Components, *GILA, or *Louvain, whose Initial labels
// cannot be shipped), which the ranks make by name, or a value of a type
// declared in the notebook's cells (MyProgram{...} or &MyProgram{...}),
// whose declaration, methods and the cells' types, functions and
// constants they use are shipped as source with the value's fields as
// JSON, and interpreted on every rank as in a cell. A cell program needs
// the cell's context, sdk.Context(), which knows the cells. Its type
// is any because the interpreter passes a cell value's fields only
// through an empty interface.
//
// Cancelling ctx stops every rank and mpirun; a failed or killed rank
// ends the job with an error naming it. Without Open MPI or the worker,
// RunMPI returns an error saying what to install.
func RunMPI(ctx context.Context, graphPath string, prog any, opt MPIOptions) (*Job, error) {
	name, params, source, err := mpiProgram(ctx, prog)
	if err != nil {
		return nil, fmt.Errorf("sdk.RunMPI: %w", err)
	}
	dir := opt.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "superstep-mpi-"); err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
	} else if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("sdk.RunMPI: %w", err)
	}
	if _, statErr := os.Stat(graphPath); statErr == nil {
		if graphPath, err = filepath.Abs(graphPath); err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
	}
	ranks := opt.Ranks
	if ranks == 0 {
		ranks = 2
	}
	spec := &mpijob.Spec{Name: opt.Name, Graph: graphPath, Program: name, Params: params, Source: source, MaxSupersteps: opt.MaxSupersteps, Out: dir}
	part := opt.Partition
	switch p := strings.ToLower(opt.Partitioner); {
	case part != nil:
	case p == "" || p == "hash" || p == "range":
		spec.Partitioner = p
	default:
		g, err := mpijob.LoadGraph(graphPath)
		if err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
		if part, err = Partition(ctx, g, ranks, opt.Partitioner, opt.Seed); err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
	}
	if part != nil {
		spec.Partition = filepath.Join(dir, "partition.i32")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
		if err := mpijob.WritePartition(spec.Partition, part); err != nil {
			return nil, fmt.Errorf("sdk.RunMPI: %w", err)
		}
	}
	jobName := opt.Name
	if jobName == "" {
		jobName = fmt.Sprintf("%s on %d MPI ranks", name, ranks)
	}
	launch := mpijob.Options{Ranks: ranks, Hosts: opt.Hosts, Hostfile: opt.Hostfile, MpirunArgs: opt.MpirunArgs}
	var hb *heartbeat
	if opt.Out != nil {
		hb = newHeartbeat(opt.Out, bsp.Config{Name: jobName, MaxSupersteps: maxSteps(prog, opt.MaxSupersteps)})
		launch.OnStep = func(p *profile.Profile, s profile.Step) { hb.RecordStep(p, s) }
	}
	res, err := mpijob.Launch(ctx, spec, launch)
	if res == nil || res.Profile == nil || res.Values == nil {
		if err == nil {
			err = fmt.Errorf("the job left no result")
		}
		return nil, fmt.Errorf("sdk.RunMPI: %w", err)
	}
	j := &Job{Result: &bsp.Result{Values: res.Values, ValueWidth: res.ValueWidth, Supersteps: res.Supersteps, Halted: res.Halted,
		Aggregated: res.Aggregated, Profile: res.Profile, Elapsed: res.Elapsed}, Profile: res.Profile, Partition: part}
	if hb != nil {
		hb.finish(j)
	}
	if err != nil {
		return j, fmt.Errorf("sdk.RunMPI: %w", err)
	}
	return j, nil
}

// maxSteps is the superstep cap the heartbeat shows.
func maxSteps(prog any, cap int) int {
	if c, ok := prog.(Configurer); ok {
		return c.Config(bsp.Config{MaxSupersteps: cap}).MaxSupersteps
	}
	return cap
}

// mpiProgram names a built-in program and its parameters for the ranks,
// or ships a program declared in cells with the Shipper in ctx.
func mpiProgram(ctx context.Context, prog any) (string, map[string]float64, *mpijob.Source, error) {
	switch p := prog.(type) {
	case vertex.PageRank:
		return "pagerank", map[string]float64{"damping": p.Damping, "iterations": float64(p.Iterations)}, nil, nil
	case vertex.SSSP:
		name := "sssp"
		if p.Buggy {
			name = "buggy-sssp"
		}
		return name, map[string]float64{"source": float64(p.Source)}, nil, nil
	case vertex.Components:
		return "components", nil, nil, nil
	case *vertex.GILA:
		return "gila", map[string]float64{"hops": float64(p.Hops), "periods": float64(p.Periods), "seed": float64(p.Seed)}, nil, nil
	case *vertex.Louvain:
		o := p.Options()
		if o.Initial != nil {
			return "", nil, nil, fmt.Errorf("a Louvain program with Initial labels cannot be shipped to the ranks")
		}
		return "louvain", map[string]float64{"seed": float64(o.Seed), "resolution": o.Resolution, "move_probability": o.MoveProbability,
			"max_rounds": float64(o.MaxRounds), "patience": float64(o.Patience), "min_gain": o.MinGain}, nil, nil
	case nil:
		return "", nil, nil, fmt.Errorf("no program")
	}
	ship := mpijob.ShipperFrom(ctx)
	if ship == nil {
		return "", nil, nil, fmt.Errorf("%T is not one of the programs the ranks know (%s); a program declared in a cell is shipped with the cell's context: pass sdk.Context() as ctx", prog, strings.Join(mpijob.Programs(), ", "))
	}
	src, err := ship(prog)
	if err != nil {
		return "", nil, nil, err
	}
	return src.Type, nil, src, nil
}
