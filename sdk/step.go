package sdk

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/algo/partition"
	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/table"
	"superstep/sdk/vrecord"
)

// Stepper is a job run one superstep at a time from cells, its vertex
// record kept (see Start): a teacher runs a superstep, shows the frame,
// and asks the class what happens next.
type Stepper struct {
	// Positions are the drawing's vertex positions (x0, y0, x1, y1, …);
	// nil lays the graph out with SFDP (seed 1) at the first frame.
	Positions []float64
	// View says how frames are drawn (value name, scale, outline).
	View AnimateOptions

	g    *graph.Graph
	bs   *bsp.Stepper
	part []int32
	k    int
	name string
}

// Start sets prog up on g as Run would (opt's cluster, partition and
// settings; the vertex record is always kept) and returns it before its
// first superstep; ctx (sdk.Context() in a cell) stops the set-up. Step runs one superstep and shows its frame; State is
// the vertex table now; Job is the job so far, for every view of a
// finished job. A program written in a cell may be stepped too.
func Start(ctx context.Context, g *graph.Graph, prog bsp.Program, opt Options) (*Stepper, error) {
	if g == nil || prog == nil {
		return nil, fmt.Errorf("sdk.Start: needs a graph and a program")
	}
	if opt.Out != nil || opt.Capture != "" || opt.Repeat > 1 || opt.Transport != nil {
		return nil, fmt.Errorf("sdk.Start: a stepped job shows its frames itself, in memory, once: Out, Capture, Repeat and Transport are for sdk.Run")
	}
	cfg, err := jobConfig(ctx, g, prog, opt, "sdk.Start")
	if err != nil {
		return nil, err
	}
	if cfg.Record == nil {
		cfg.Record = &vrecord.Options{}
	}
	bs, err := bsp.Start(ctx, g, prog, cfg)
	if err != nil {
		return nil, fmt.Errorf("sdk.Start %s: %w", cfg.Name, err)
	}
	return &Stepper{g: g, bs: bs, part: cfg.Partition, k: cfg.Cluster.NumWorkers(), name: cfg.Name}, nil
}

// Step runs the next superstep and returns its frame: the drawing with
// the values, states and messages of that superstep, which a cell shows.
// After the job has ended, or when the superstep fails, the frame says
// so (and Err keeps the failure). A superstep runs to its end: to
// interrupt a program that may loop forever inside Compute, use
// StepContext(sdk.Context()).
func (s *Stepper) Step() *Frame { return s.StepContext(context.Background()) }

// StepContext is Step, stopped promptly when ctx is cancelled (pass
// sdk.Context() in a cell); a cancelled superstep ends the job.
func (s *Stepper) StepContext(ctx context.Context) *Frame {
	if err := s.bs.Step(ctx); err != nil {
		return &Frame{s: s, err: fmt.Errorf("%s: %w", s.name, err)}
	}
	if s.Positions == nil {
		// The first frame needs a drawing: SFDP, under the step's context.
		pos, err := positionsOrLayout(ctx, s.g, nil, "sdk.Stepper")
		if err != nil {
			return &Frame{s: s, err: err}
		}
		s.Positions = pos
	}
	return s.Frame()
}

// Run steps until the job ends (or ctx is cancelled) and returns the last
// frame.
func (s *Stepper) Run(ctx context.Context) *Frame {
	for !s.bs.Done() {
		if f := s.StepContext(ctx); f.err != nil {
			return f
		}
	}
	return s.Frame()
}

// Superstep is the number of supersteps run so far (the next Step runs
// superstep Superstep()).
func (s *Stepper) Superstep() int { return s.bs.Superstep() }

// Done reports whether the job has ended: every vertex halted with no
// message in flight, the superstep cap reached, or a superstep failed.
func (s *Stepper) Done() bool { return s.bs.Done() }

// Err is the failure that ended the job, or nil.
func (s *Stepper) Err() error { return s.bs.Err() }

// Job is the job so far: its values, profile and record, for every view
// of a job (Trend, Dashboard, Animate).
func (s *Stepper) Job() *Job {
	res := s.bs.Result()
	return &Job{Graph: s.g, Result: res, Profile: res.Profile, Partition: s.part, PartitionStats: partition.Quality(s.g, s.part, s.k)}
}

// State is the vertex table now, one row per vertex (the columns of
// Job.Superstep): the last superstep run, or before the first the
// initial values with every vertex "halted" and superstep -1.
func (s *Stepper) State() arrow.Table {
	res := s.bs.Result()
	if rec := res.Record; rec.Len() > 0 {
		return vertexTable(s.g, s.part, rec, rec.Len()-1)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(vertexTableFields, nil))
	defer b.Release()
	for v := range s.g.NumVertices() {
		b.Field(0).(*array.Int32Builder).Append(-1)
		b.Field(1).(*array.Int64Builder).Append(s.g.ID(v))
		b.Field(2).(*array.StringBuilder).Append(s.g.Label(v))
		b.Field(3).(*array.Int32Builder).Append(s.part[v])
		b.Field(4).(*array.Float64Builder).Append(res.Value(v))
		b.Field(5).(*array.StringBuilder).Append(vrecord.Halted.String())
		b.Field(6).(*array.Int32Builder).Append(0)
		b.Field(7).(*array.Int32Builder).Append(0)
	}
	return table.FromBuilder(b)
}

// Frame is the frame of the last superstep run (or, before the first, a
// note saying none has run).
func (s *Stepper) Frame() *Frame { return &Frame{s: s} }

// String says where the job is.
func (s *Stepper) String() string {
	switch {
	case s.bs.Err() != nil:
		return fmt.Sprintf("%s: failed after %d supersteps: %v", s.name, s.bs.Superstep(), s.bs.Err())
	case s.bs.Done():
		return fmt.Sprintf("%s: finished after %d supersteps", s.name, s.bs.Superstep())
	}
	return fmt.Sprintf("%s: %d supersteps run; Step() runs superstep %d", s.name, s.bs.Superstep(), s.bs.Superstep())
}

// MIMEBundle shows the stepper as its current frame.
func (s *Stepper) MIMEBundle() display.Bundle { return s.Frame().MIMEBundle() }

// Frame is one superstep of a stepped job, as a cell shows it: the run so
// far on the drawing, opened at that superstep, whose static picture is
// that superstep alone; or the error that ended the job.
type Frame struct {
	s   *Stepper
	err error
}

// Err is the failure of the superstep, or nil.
func (f *Frame) Err() error { return f.err }

// MIMEBundle implements display.Renderer.
func (f *Frame) MIMEBundle() display.Bundle {
	if f.err != nil {
		return display.TextBundle(f.err.Error())
	}
	s := f.s
	if s.bs.Superstep() == 0 {
		return display.TextBundle(s.String())
	}
	if s.Positions == nil {
		// Showing draws; it does not lay out (StepContext does).
		return display.TextBundle(s.name + ": no positions to draw on: set Positions, or step again to lay the graph out")
	}
	opt := s.View
	last := s.bs.Superstep() - 1
	opt.Frames = []int{last}
	d, err := AnimateData(context.Background(), s.Job(), s.Positions, opt) // positions given: no layout
	if err != nil {
		return display.TextBundle(err.Error())
	}
	d.Start = last
	return views.Animate(d).MIMEBundle()
}
