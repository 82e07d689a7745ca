package sdk

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/algo/layout"
	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/sdk/table"
	"superstep/sdk/vrecord"
)

// AnimateOptions say how Animate draws a run. The zero value colours
// vertices by value on a sequential scale, shows the job's trend strip and
// picks the static picture's supersteps itself.
type AnimateOptions struct {
	// Title (default: the job's name).
	Title string
	// ValueName names the value in the legend and on hover (default
	// "value"; "distance" suits SSSP, "rank" PageRank).
	ValueName string
	// Diverging colours values on a diverging scale around Center instead
	// of a sequential one.
	Diverging bool
	Center    float64
	// Outline colours each vertex's outline by the unit that runs it:
	// "worker", "host" or "rack"; "" or "none" draws no outline.
	Outline string
	// Frames are the supersteps of the static small multiples (nil: 6
	// evenly spaced and the busiest, see views.DefaultFrames).
	Frames []int
	// MaxPulses caps the message pulses drawn per superstep (0: 2,000; a
	// deterministic sample beyond).
	MaxPulses int
	// NoTrend leaves out the job's trend strip.
	NoTrend bool
}

// Animate plays a job's vertex-level record (Options.RecordVertices) on a
// drawing of its graph with positions pos (x0, y0, x1, y1, …, from any
// layout; nil lays the graph out with SFDP, seed 1): vertices coloured by
// value, active ones ringed, messages as pulses along the edges, the
// job's trend strip below with the current superstep marked. Live it
// plays, steps (space, ←, →), scrubs and jumps to a superstep clicked on
// the trend; hovering a vertex shows its value, state and messages. The
// static picture is a grid of small multiples of chosen supersteps.
//
// Laying the graph out (when pos is nil) stops when ctx is cancelled:
// pass sdk.Context() in a cell.
func Animate(ctx context.Context, job *Job, pos []float64, opt AnimateOptions) display.Renderer {
	d, err := AnimateData(ctx, job, pos, opt)
	if err != nil {
		return display.TextBundle(err.Error())
	}
	return views.Animate(d)
}

// AnimateData is the data Animate draws: the record turned into the
// display's per-superstep vertex colours, states, counts and pulses. A
// nil pos is laid out with SFDP under ctx.
func AnimateData(ctx context.Context, job *Job, pos []float64, opt AnimateOptions) (views.AnimateData, error) {
	if job == nil || job.Result == nil || job.Graph == nil {
		return views.AnimateData{}, fmt.Errorf("sdk.Animate: needs a job run on a graph")
	}
	rec := job.Result.Record
	if rec == nil {
		return views.AnimateData{}, fmt.Errorf("sdk.Animate: job %s has no vertex record: run it with sdk.Options{RecordVertices: true}", job.Profile.Job)
	}
	g := job.Graph
	pos, err := positionsOrLayout(ctx, g, pos, "sdk.Animate")
	if err != nil {
		return views.AnimateData{}, err
	}
	n := g.NumVertices()
	d := views.AnimateData{
		Title:     opt.Title,
		X:         make([]float64, n),
		Y:         make([]float64, n),
		Labels:    make([]string, n),
		ValueName: opt.ValueName,
		Center:    opt.Center,
		Frames:    opt.Frames,
		MaxPulses: opt.MaxPulses,
	}
	if d.Title == "" {
		d.Title = job.Profile.Job
	}
	if opt.Diverging {
		d.Scale = "diverging"
	}
	for v := range n {
		d.X[v], d.Y[v] = pos[2*v], pos[2*v+1]
		d.Labels[v] = g.Label(v)
		for _, u := range g.Neighbors(v) {
			if g.Directed() || int(u) > v {
				d.Edges = append(d.Edges, [2]int32{int32(v), u})
			}
		}
	}
	if d.Group, d.GroupName, err = outlineGroups(job, opt.Outline); err != nil {
		return views.AnimateData{}, err
	}
	d.Steps = animateSteps(rec)
	if !opt.NoTrend && len(job.Profile.Steps) == rec.Len() {
		level := profile.WorkerLevel
		if job.Profile.NumWorkers() > 16 {
			level = profile.HostLevel
		}
		t, err := job.TrendData(profile.Options{Level: level})
		if err != nil {
			return views.AnimateData{}, err
		}
		if len(t.Frames) == len(d.Steps) {
			d.Trend = &t
		}
	}
	return d, nil
}

// animateSteps turns a record's supersteps into the display's: values,
// states and counts as they are, messages along arcs as pulses.
func animateSteps(rec *vrecord.Record) []views.AnimateStep {
	steps := make([]views.AnimateStep, rec.Len())
	for i := range steps {
		s := rec.Step(i)
		st := make([]uint8, len(s.State))
		for v, x := range s.State {
			st[v] = uint8(x)
		}
		arcs := rec.ArcMessages(i)
		pulses := make([]views.Pulse, len(arcs))
		for k, a := range arcs {
			pulses[k] = views.Pulse{From: int32(rec.Source(int(a.Arc))), To: rec.Targets[a.Arc], Count: a.Count}
		}
		steps[i] = views.AnimateStep{Value: s.Value, State: st, Sent: s.Sent, Received: s.Received, Pulses: pulses}
	}
	return steps
}

// outlineGroups is each vertex's unit for the outline colour, and the
// unit's name.
func outlineGroups(job *Job, outline string) ([]int32, string, error) {
	if outline == "" || outline == "none" || job.Partition == nil {
		return nil, "", nil
	}
	c := job.Profile.Cluster
	group := make([]int32, len(job.Partition))
	switch outline {
	case "worker":
		copy(group, job.Partition)
		return group, "worker", nil
	case "host", "rack":
		for v, w := range job.Partition {
			h := c.Workers[w].Host
			group[v] = int32(h)
			if outline == "rack" {
				group[v] = int32(c.Hosts[h].Rack)
			}
		}
		return group, outline, nil
	}
	return nil, "", fmt.Errorf("sdk.Animate: unknown outline %q (known: worker, host, rack, none)", outline)
}

// positionsOrLayout checks a layout's length, or makes one with SFDP
// (seed 1) when pos is nil.
func positionsOrLayout(ctx context.Context, g *graph.Graph, pos []float64, who string) ([]float64, error) {
	n := g.NumVertices()
	if pos == nil {
		var err error
		if pos, err = layout.SFDP(ctx, g, layout.Options{Seed: 1}); err != nil {
			return nil, fmt.Errorf("%s: laying the graph out: %w", who, err)
		}
	}
	if len(pos) != 2*n {
		return nil, fmt.Errorf("%s: %d coordinates for %d vertices (want 2 per vertex: x0, y0, x1, y1, …)", who, len(pos), n)
	}
	for i, x := range pos {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: vertex %d has coordinate %v", who, i/2, x)
		}
	}
	return pos, nil
}

// Record is the job's vertex-level record, or nil when it ran without one
// (see Options.RecordVertices).
func (j *Job) Record() *vrecord.Record {
	if j.Result == nil {
		return nil
	}
	return j.Result.Record
}

// Superstep is superstep i of the job's vertex-level record as a table,
// one row per vertex: id (the input's), label, worker, value, state
// ("halted": did not compute; "woken": computed but changed nothing and
// sent nothing; "active"), sent and received (messages). The caller may
// Release it; a cell shows it.
func (j *Job) Superstep(i int) (arrow.Table, error) {
	rec := j.Record()
	if rec == nil {
		name := "the job"
		if j.Profile != nil {
			name = j.Profile.Job
		}
		return nil, fmt.Errorf("sdk: %s has no vertex record: run it with sdk.Options{RecordVertices: true}", name)
	}
	if i < 0 || i >= rec.Len() {
		return nil, fmt.Errorf("sdk: superstep %d is outside the record's 0..%d", i, rec.Len()-1)
	}
	return vertexTable(j.Graph, j.Partition, rec, i), nil
}

var vertexTableFields = []arrow.Field{
	{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "label", Type: arrow.BinaryTypes.String},
	{Name: "worker", Type: arrow.PrimitiveTypes.Int32},
	{Name: "value", Type: arrow.PrimitiveTypes.Float64},
	{Name: "state", Type: arrow.BinaryTypes.String},
	{Name: "sent", Type: arrow.PrimitiveTypes.Int32},
	{Name: "received", Type: arrow.PrimitiveTypes.Int32},
}

// vertexTable is superstep i of rec with the graph's ids and labels and
// each vertex's worker.
func vertexTable(g *graph.Graph, part []int32, rec *vrecord.Record, i int) arrow.Table {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(vertexTableFields, nil))
	defer b.Release()
	s := rec.Step(i)
	for v := range rec.Vertices {
		b.Field(0).(*array.Int32Builder).Append(int32(s.Superstep))
		b.Field(1).(*array.Int64Builder).Append(g.ID(v))
		b.Field(2).(*array.StringBuilder).Append(g.Label(v))
		b.Field(3).(*array.Int32Builder).Append(part[v])
		b.Field(4).(*array.Float64Builder).Append(s.Value[v])
		b.Field(5).(*array.StringBuilder).Append(s.State[v].String())
		b.Field(6).(*array.Int32Builder).Append(s.Sent[v])
		b.Field(7).(*array.Int32Builder).Append(s.Received[v])
	}
	return table.FromBuilder(b)
}
