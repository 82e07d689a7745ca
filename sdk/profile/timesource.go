package profile

import (
	"fmt"
	"slices"
	"time"
)

// TimeSource says which compute times the views show.
type TimeSource int

const (
	// Measured is the compute time the engine measured, each worker's wall
	// clock: real, and noisy (a spike on one worker in one run may be the
	// machine, not the program). Profile.Median over repeated runs (sdk
	// Options.Repeat) removes most of the noise.
	Measured TimeSource = iota
	// Modelled is the compute time of a cost model: Cost.PerVertex for
	// each vertex processed plus Cost.PerMessage for each message sent.
	// It is the same on every run and machine: the shape of the
	// computation, without the machine's noise.
	Modelled
)

func (t TimeSource) String() string {
	if t == Modelled {
		return "modelled"
	}
	return "measured"
}

// Cost is the cost model of Modelled compute time.
type Cost struct {
	PerVertex, PerMessage time.Duration
}

// DefaultCost is the cost model used when Options.Cost is zero: 10 ns a
// vertex processed and 50 ns a message sent, the order of what the engine
// measures for SSSP and PageRank on the cti mesh (a superstep's compute
// time against its vertices and messages), so that modelled and measured
// heartbeats have the same shape.
func DefaultCost() Cost {
	return Cost{PerVertex: 10 * time.Nanosecond, PerMessage: 50 * time.Nanosecond}
}

// compute is worker i's compute time in step s under the options' source.
func (o Options) compute(s Step, i int) time.Duration {
	ws := s.Workers[i]
	if o.Time != Modelled {
		return ws.Compute
	}
	c := o.Cost
	if c == (Cost{}) {
		c = DefaultCost()
	}
	w := len(s.Workers)
	var sent int64
	for dst := 0; dst < w; dst++ {
		sent += s.Messages[i*w+dst]
	}
	return time.Duration(ws.Processed)*c.PerVertex + time.Duration(sent)*c.PerMessage
}

// Median combines repeated runs of one job into one profile whose compute
// and communication times are, per superstep and worker, the median of the
// runs' (and the barrier waits follow from them). The runs must agree on
// everything else (cluster size, supersteps, vertices, traffic), as runs of
// a deterministic program with the same partition do; where they differ,
// Median says where.
func Median(runs ...*Profile) (*Profile, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("profile.Median: no runs")
	}
	first := runs[0]
	for r, p := range runs {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("profile.Median: run %d: %w", r+1, err)
		}
		if r == 0 {
			continue
		}
		if p.NumWorkers() != first.NumWorkers() || len(p.Steps) != len(first.Steps) || !slices.Equal(p.Vertices, first.Vertices) {
			return nil, fmt.Errorf("profile.Median: run %d has %d workers and %d supersteps, run 1 %d and %d (or other vertex counts)",
				r+1, p.NumWorkers(), len(p.Steps), first.NumWorkers(), len(first.Steps))
		}
		for i, s := range p.Steps {
			if !slices.Equal(s.Messages, first.Steps[i].Messages) {
				return nil, fmt.Errorf("profile.Median: run %d sent other messages than run 1 in superstep %d: the program is not deterministic", r+1, s.Superstep)
			}
		}
	}
	out := *first
	out.Runs = len(runs)
	out.Steps = make([]Step, len(first.Steps))
	w := first.NumWorkers()
	compute, comm := make([]time.Duration, len(runs)), make([]time.Duration, len(runs))
	for i, s := range first.Steps {
		t := s
		t.Workers = slices.Clone(s.Workers)
		var slowest time.Duration
		for k := 0; k < w; k++ {
			for r, p := range runs {
				compute[r], comm[r] = p.Steps[i].Workers[k].Compute, p.Steps[i].Workers[k].Comm
			}
			t.Workers[k].Compute, t.Workers[k].Comm = median(compute), median(comm)
			slowest = max(slowest, t.Workers[k].Compute+t.Workers[k].Comm)
		}
		for k := range t.Workers {
			t.Workers[k].Wait = slowest - t.Workers[k].Compute - t.Workers[k].Comm
		}
		out.Steps[i] = t
	}
	return &out, nil
}

// median of d (sorted in place); of an even count, the lower middle one,
// a time that was measured.
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[(len(d)-1)/2]
}

// TimeLabel says what a view's times are: "measured", "modelled", or
// "median of 5 runs".
func (p *Profile) TimeLabel(src TimeSource) string {
	if src == Measured && p.Runs > 1 {
		return fmt.Sprintf("median of %d runs", p.Runs)
	}
	return src.String()
}
