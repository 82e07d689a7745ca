package mpijob

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"superstep/algo/partition"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// Outcome is result.json: how the job ended, as rank 0 saw it.
type Outcome struct {
	Job        string             `json:"job"`
	Program    string             `json:"program"`
	Supersteps int                `json:"supersteps"`
	Halted     bool               `json:"halted"`
	Aggregated map[string]float64 `json:"aggregated,omitempty"`
	Vertices   int                `json:"vertices"`
	ValueWidth int                `json:"value_width"`
	Ranks      int                `json:"ranks"`
	// Hosts is each rank's host (MPI_Get_processor_name).
	Hosts []string `json:"hosts"`
	// Elapsed is the job's wall time on rank 0, in nanoseconds.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Error is the job's error on rank 0 ("" if it ended well).
	Error string `json:"error,omitempty"`
}

// Work is one rank's part of the job: it reads the graph and keeps its own
// vertices' arcs, partitions as every rank does, makes the program, runs
// it joined to the other ranks by tr, and on rank 0 writes the capture,
// the profile, the values and result.json to spec.Out. host is the name
// of the host this rank runs on. Every rank returns the job's error; a
// failed rank's own error (a bad graph file, a program that panicked) is
// returned on that rank and named by rank on the others. cells makes a
// program written in cells (spec.Source); nil refuses such a job.
func Work(ctx context.Context, tr bsp.Transport, host string, spec *Spec, cells Interpreter) (*bsp.Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	rank, size := tr.Rank(), tr.Size()
	prog, part, mine, err := prepare(spec, rank, size, cells)
	// Every rank must know whether every other could start before any
	// waits on the others in the job.
	if err := agree(tr, rank, err); err != nil {
		return nil, err
	}
	if prog, err = finish(tr, spec, prog, mine); err != nil {
		err = fmt.Errorf("rank %d: %w", rank, err)
	}
	if err := agree(tr, rank, err); err != nil {
		return nil, err
	}
	hosts, err := gatherHosts(tr, host)
	if err != nil {
		return nil, fmt.Errorf("rank %d: gathering host names: %w", rank, err)
	}
	cfg := bsp.Config{Name: spec.Name, MaxSupersteps: spec.MaxSupersteps, Partition: part, Transport: tr}
	if c, ok := prog.(interface{ Config(bsp.Config) bsp.Config }); ok {
		cfg = c.Config(cfg)
	}
	if cfg.Name == "" {
		cfg.Name = spec.Program
	}
	if rank == 0 {
		cfg.Cluster = hostCluster(hosts)
	} else if cfg.Cluster, err = cluster.Single(size); err != nil {
		return nil, err
	}
	var capture *profile.CaptureWriter
	if rank == 0 {
		if err := os.MkdirAll(spec.Out, 0o755); err != nil {
			return nil, err
		}
		if capture, err = profile.CreateCapture(filepath.Join(spec.Out, CaptureFile)); err != nil {
			return nil, err
		}
		cfg.Recorders = append(cfg.Recorders, capture)
	}
	res, runErr := bsp.Run(ctx, mine, prog, cfg)
	if rank != 0 {
		return res, runErr
	}
	if err := capture.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("writing the capture: %w", err)
	}
	if res == nil {
		return nil, runErr
	}
	if err := writeOutputs(spec, res, hosts, runErr); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// agree tells every rank whether every rank got this far: it returns
// this rank's own err, or an error naming the lowest rank that failed.
func agree(tr bsp.Transport, rank int, err error) error {
	failed, verr := vote(tr, err != nil)
	switch {
	case verr != nil:
		return fmt.Errorf("rank %d: %w", rank, verr)
	case err != nil:
		return fmt.Errorf("rank %d: %w", rank, err)
	case failed >= 0:
		return fmt.Errorf("rank %d could not start the job (its error is in its own output)", failed)
	}
	return nil
}

// prepare reads this rank's part of the graph (see readPart),
// partitions it and makes the program.
func prepare(spec *Spec, rank, size int, cells Interpreter) (bsp.Program, []int32, *graph.Graph, error) {
	mine, part, err := readPart(spec, rank, size)
	if err != nil {
		return nil, nil, nil, err
	}
	var prog bsp.Program
	switch {
	case spec.Source == nil:
		prog, err = makeProgram(spec.Program, spec.Params, mine)
	case cells == nil:
		err = fmt.Errorf("this worker cannot interpret programs written in cells")
	default:
		prog, err = interpret(cells, spec.Source)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return prog, part, mine, nil
}

// readPart reads the vertices of the graph and the arcs of this rank's
// own: a METIS file line by line, skipping the other ranks' lines, so
// that no rank holds every arc; any other source whole, keeping this
// rank's arcs (graph.Keep).
func readPart(spec *Spec, rank, size int) (*graph.Graph, []int32, error) {
	partitionOf := func(g *graph.Graph) ([]int32, error) {
		switch {
		case spec.Partition != "":
			return readPartition(spec.Partition, g.NumVertices(), size)
		case spec.Partitioner == "range":
			return partition.Range(g, size), nil
		}
		return partition.Hash(g, size), nil
	}
	if _, err := os.Stat(spec.Graph); err == nil && datasets.IsMETIS(spec.Graph) {
		var part []int32
		mine, err := datasets.LoadMETISPart(spec.Graph, func(n int) (func(v int) bool, error) {
			// The partitioners read only ids (METIS: v+1) and n.
			ids := make([]int64, n)
			for v := range ids {
				ids[v] = int64(v + 1)
			}
			skeleton, err := graph.FromCSR(false, ids, make([]int, n+1), nil, nil, 0)
			if err != nil {
				return nil, err
			}
			if part, err = partitionOf(skeleton); err != nil {
				return nil, err
			}
			return func(v int) bool { return part[v] == int32(rank) }, nil
		})
		return mine, part, err
	}
	g, err := LoadGraph(spec.Graph)
	if err != nil {
		return nil, nil, err
	}
	part, err := partitionOf(g)
	if err != nil {
		return nil, nil, err
	}
	return g.Keep(func(v int) bool { return part[v] == int32(rank) }), part, nil
}

// finish is what needs every rank's part: a check that the parts' arcs
// add up to the graph's (a METIS file read in parts was checked part by
// part), and Louvain, which needs the whole graph's 2m.
func finish(tr bsp.Transport, spec *Spec, prog bsp.Program, mine *graph.Graph) (bsp.Program, error) {
	got, err := tr.Allgather([]float64{float64(mine.NumArcs()), totalStrength(mine)})
	if err != nil {
		return nil, err
	}
	var arcs, strength float64
	for k := 0; k+1 < len(got); k += 2 {
		arcs += got[k]
		strength += got[k+1]
	}
	if !mine.Directed() && datasets.IsMETIS(spec.Graph) && arcs != float64(2*mine.NumEdges()) {
		return nil, fmt.Errorf("graph %s: the vertex lines list %.0f neighbours in all, but the header's %d edges need %d (an edge listed from one end only?)",
			spec.Graph, arcs, mine.NumEdges(), 2*mine.NumEdges())
	}
	if l, ok := prog.(louvainOnRank); ok {
		l.opts.TotalWeight = strength
		return newLouvain(mine, l.opts)
	}
	return prog, nil
}

// interpret makes a program from cells, a panic of the interpreter
// becoming an error.
func interpret(cells Interpreter, src *Source) (prog bsp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("interpreting %s: %v", src.Type, r)
		}
	}()
	if prog, err = cells(src); err != nil {
		return nil, fmt.Errorf("interpreting %s: %w", src.Type, err)
	}
	return prog, nil
}

func newLouvain(g *graph.Graph, opts vertex.LouvainOptions) (prog bsp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("louvain: %v", r)
		}
	}()
	return vertex.NewLouvain(g, opts), nil
}

// LoadGraph reads a graph file as every rank does (datasets.Load), or
// opens a data set shipped with Superstep by name (datasets.Open).
func LoadGraph(name string) (*graph.Graph, error) {
	if _, err := os.Stat(name); err != nil && !strings.ContainsAny(name, `/\.`) {
		return datasets.Open(name)
	}
	return datasets.Load(name)
}

// vote tells every rank which rank (the lowest) failed, or -1.
func vote(tr bsp.Transport, failed bool) (int, error) {
	x := []float64{0}
	if failed {
		x[0] = 1
	}
	all, err := tr.Allgather(x)
	if err != nil {
		return -1, err
	}
	for k, f := range all {
		if f != 0 {
			return k, nil
		}
	}
	return -1, nil
}

// gatherHosts brings every rank's host name to rank 0.
func gatherHosts(tr bsp.Transport, host string) ([]string, error) {
	got, err := tr.Gather([]byte(host))
	if err != nil || got == nil {
		return nil, err
	}
	hosts := make([]string, len(got))
	for k, b := range got {
		hosts[k] = string(b)
	}
	return hosts, nil
}

// hostCluster is the cluster the ranks ran on: one rack, the hosts in the
// order of their first rank, rank k as worker "rank k".
func hostCluster(hosts []string) *cluster.Cluster {
	c := &cluster.Cluster{Racks: []cluster.Rack{{Name: "mpi"}}}
	index := map[string]int{}
	for k, h := range hosts {
		i, ok := index[h]
		if !ok {
			i = len(c.Hosts)
			index[h] = i
			c.Hosts = append(c.Hosts, cluster.Host{Name: h, Rack: 0})
		}
		c.Workers = append(c.Workers, cluster.Worker{Name: fmt.Sprintf("rank %d", k), Host: i})
	}
	return c
}

// writeOutputs writes the values, the Parquet profile and result.json.
func writeOutputs(spec *Spec, res *bsp.Result, hosts []string, runErr error) error {
	b := make([]byte, 8*len(res.Values))
	for i, x := range res.Values {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	var errs []error
	errs = append(errs, os.WriteFile(filepath.Join(spec.Out, ValuesFile), b, 0o644))
	if res.Profile != nil && len(res.Profile.Steps) > 0 {
		errs = append(errs, res.Profile.SaveParquet(filepath.Join(spec.Out, ProfileDir)))
	}
	o := Outcome{Job: res.Profile.Job, Program: spec.Program, Supersteps: res.Supersteps, Halted: res.Halted, Aggregated: res.Aggregated,
		Vertices: len(res.Values) / max(res.ValueWidth, 1), ValueWidth: res.ValueWidth, Ranks: len(hosts), Hosts: hosts, Elapsed: res.Elapsed}
	if runErr != nil {
		o.Error = runErr.Error()
	}
	for k, x := range o.Aggregated {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			delete(o.Aggregated, k) // JSON has no such numbers
		}
	}
	j, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, os.WriteFile(filepath.Join(spec.Out, ResultFile), append(j, '\n'), 0o644))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing the outputs to %s: %w", spec.Out, err)
	}
	return nil
}
