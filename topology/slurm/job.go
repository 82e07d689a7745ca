package slurm

import "time"

// Job is one job (or, with KeepSteps, one job step) of a job log.
type Job struct {
	ID        string // as the log writes it: "123", "123_4" (array task), "123+1" (heterogeneous component), "123.batch" (a step)
	Name      string // the job name ("" when the log has no such column)
	User      string
	Partition string
	State     string // as the log writes it: "COMPLETED", "CANCELLED by 0", "R", "CD"…

	// Start and End are when the job started and ended. A zero time means
	// the log does not know it: a pending job has no start, a job still
	// running when the log was written has no end (ReadSacct warns about
	// both).
	Start, End time.Time
	// Elapsed is the run time the log gives (sacct's Elapsed, squeue's
	// TIME); without such a column it is End−Start when both are known.
	Elapsed time.Duration
	// NNodes is the node count the log gives; without such a column it is
	// len(Nodes). A count that disagrees with Nodes is kept, with a warning.
	NNodes int
	// Nodes are the job's nodes, the log's node list expanded, in
	// ExpandHostlist's order. A job without nodes (pending, or the list
	// was "None assigned") has none, with a warning.
	Nodes []string

	Line int // the 1-based line of the log the job was read from
}

// IsStep reports whether the job is a job step ("123.batch", "123.0",
// "123+0.1"): its ID has a '.'. Heterogeneous job components ("123+0")
// and array tasks ("123_4") are jobs, not steps.
func (j *Job) IsStep() bool {
	for i := 0; i < len(j.ID); i++ {
		if j.ID[i] == '.' {
			return true
		}
	}
	return false
}

// Option changes how a log is read.
type Option func(*options)

type options struct {
	loc       *time.Location
	keepSteps bool
}

// Location reads the log's times, which carry no zone, as times in loc
// (the time zone of the machine that wrote the log). The default is UTC.
// A nil loc means UTC.
func Location(loc *time.Location) Option {
	return func(o *options) { o.loc = loc }
}

// KeepSteps keeps job steps ("123.batch", "123.0"), which ReadSacct skips
// by default: a step runs inside its job's allocation, on a subset of the
// job's nodes.
func KeepSteps() Option {
	return func(o *options) { o.keepSteps = true }
}

func makeOptions(opts []Option) options {
	var o options
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	if o.loc == nil {
		o.loc = time.UTC
	}
	return o
}
