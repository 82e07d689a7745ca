// Package profile holds what the BSP engine measures while a job runs,
// without touching the vertex program (GiViP's data model): per superstep
// and worker the compute time, the time waiting at the barrier, the
// modelled communication time and the active and processed vertices; per
// superstep and ordered pair of workers the messages sent and their encoded
// bytes, the pair of a worker with itself included.
//
// Aggregate turns a profile into the numbers the views draw: supersteps
// summed into frames, workers summed into hosts or racks, units filtered by
// traffic or picked by name. The capture stream (msgpack), the Arrow tables
// and Parquet files are the profile on disk.
package profile

import (
	"fmt"
	"time"

	"superstep/topology/cluster"
)

// Profile is the measurements of one job.
type Profile struct {
	Job     string           // a name for the job
	Program string           // the vertex program's name
	Cluster *cluster.Cluster // where the workers ran
	// Vertices is the number of graph vertices assigned to each worker.
	Vertices []int64
	Steps    []Step
	// Runs is the number of runs whose median the times are (Median); 0
	// or 1 for a single run.
	Runs int
}

// Step is one superstep.
type Step struct {
	Superstep int
	Workers   []WorkerStats // one per worker
	// Messages and Bytes are W×W matrices in row-major order:
	// [src*W+dst] is what worker src sent to worker dst.
	Messages []int64
	Bytes    []int64
}

// WorkerStats is one worker in one superstep.
type WorkerStats struct {
	Compute   time.Duration // running the vertex program
	Wait      time.Duration // waiting for the slowest worker at the barrier
	Comm      time.Duration // modelled time to send its messages (0 without a network model)
	Active    int64         // vertices active at the start of the superstep
	Processed int64         // vertices whose compute ran
}

// NumWorkers is the number of workers.
func (p *Profile) NumWorkers() int { return p.Cluster.NumWorkers() }

// NewStep returns an empty step for w workers.
func NewStep(superstep, w int) Step {
	return Step{Superstep: superstep, Workers: make([]WorkerStats, w), Messages: make([]int64, w*w), Bytes: make([]int64, w*w)}
}

// Validate checks that the profile's sizes agree with its cluster.
func (p *Profile) Validate() error {
	if p.Cluster == nil {
		return fmt.Errorf("profile %q has no cluster", p.Job)
	}
	if err := p.Cluster.Validate(); err != nil {
		return fmt.Errorf("profile %q: %w", p.Job, err)
	}
	w := p.NumWorkers()
	if len(p.Vertices) != w {
		return fmt.Errorf("profile %q: %d vertex counts for %d workers", p.Job, len(p.Vertices), w)
	}
	for i, s := range p.Steps {
		if len(s.Workers) != w || len(s.Messages) != w*w || len(s.Bytes) != w*w {
			return fmt.Errorf("profile %q: superstep %d has %d workers and %d/%d pair counts, want %d and %d", p.Job, s.Superstep, len(s.Workers), len(s.Messages), len(s.Bytes), w, w*w)
		}
		if i > 0 && s.Superstep <= p.Steps[i-1].Superstep {
			return fmt.Errorf("profile %q: superstep %d follows %d", p.Job, s.Superstep, p.Steps[i-1].Superstep)
		}
	}
	return nil
}

// Totals are a job's sums.
type Totals struct {
	Supersteps int
	Messages   int64
	Bytes      int64
	// Measured is the job's running time as measured: per superstep the
	// slowest worker's measured compute time plus its communication time
	// (the network model's; on MPI ranks, the measured exchange). It moves
	// with the machine and its load from run to run.
	Measured time.Duration
	// Modelled is the job's running time under the cost model
	// (DefaultCost, as Options{Time: Modelled} draws it): per superstep the
	// slowest worker's modelled compute time plus its communication time.
	// It depends on no clock: for a deterministic program and partition it
	// is the same on every run and machine (but on MPI ranks, whose
	// communication times are measured).
	Modelled time.Duration
}

// Totals sums the profile.
func (p *Profile) Totals() Totals {
	t := Totals{Supersteps: len(p.Steps)}
	model := Options{Time: Modelled}
	for _, s := range p.Steps {
		for i := range s.Messages {
			t.Messages += s.Messages[i]
			t.Bytes += s.Bytes[i]
		}
		var measured, modelled time.Duration
		for i, w := range s.Workers {
			measured = max(measured, w.Compute+w.Comm)
			modelled = max(modelled, model.compute(s, i)+w.Comm)
		}
		t.Measured += measured
		t.Modelled += modelled
	}
	return t
}
