package bsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"superstep/sdk/graph"
)

// A Stepper runs a job one superstep at a time: what a teacher uses to
// stop after each superstep and ask what happens next. Run is a Stepper
// stepped to the end.
//
// A Stepper is not safe for concurrent use.
type Stepper struct {
	e       *engine
	elapsed time.Duration
	err     error // the error that ended the job, if any
}

// ErrFinished is returned by Stepper.Step once the job has ended (its
// vertices all halted, it reached MaxSupersteps, or a superstep failed).
var ErrFinished = errors.New("bsp: the job has finished")

// Start sets a job up as Run does (the placement, the workers, superstep
// 0's initial values) and returns it before its first superstep. ctx
// cancels the set-up only; each Step takes its own.
func Start(ctx context.Context, g *graph.Graph, prog Program, cfg Config) (*Stepper, error) {
	e, err := newEngine(ctx, g, prog, cfg)
	if err != nil {
		return nil, err
	}
	if e.tr != nil {
		return nil, fmt.Errorf("bsp: job %q: a job on a transport runs with Run, not a superstep at a time", e.prof.Job)
	}
	return &Stepper{e: e}, nil
}

// Superstep is the number of supersteps run so far: the next Step runs
// superstep Superstep().
func (s *Stepper) Superstep() int { return s.e.step }

// Done reports whether the job has ended: every vertex halted with no
// message in flight, MaxSupersteps reached, or a superstep failed (Err).
func (s *Stepper) Done() bool {
	return s.e.done || s.err != nil || s.e.step >= s.e.maxSteps()
}

// Err is the error that ended the job (a panic in Compute, a cancelled
// superstep, a record over its budget), or nil.
func (s *Stepper) Err() error { return s.err }

// Step runs the next superstep. It returns ErrFinished (wrapped, naming
// why) when the job has already ended, and a superstep's error as Run
// would; such an error ends the job (a superstep abandoned because ctx
// was cancelled does not count, but it may have changed some values, so
// the job cannot go on).
func (s *Stepper) Step(ctx context.Context) error {
	switch {
	case s.err != nil:
		return fmt.Errorf("%w after an error in superstep %d: %v", ErrFinished, s.e.step-1, s.err)
	case s.e.done:
		return fmt.Errorf("%w: every vertex halted in superstep %d with no message in flight", ErrFinished, s.e.step-1)
	case s.e.step >= s.e.maxSteps():
		return fmt.Errorf("%w: it ran its %d supersteps (MaxSupersteps)", ErrFinished, s.e.maxSteps())
	}
	t0 := time.Now()
	_, err := s.e.superstep(ctx)
	s.elapsed += time.Since(t0)
	if err != nil {
		s.err = err
	}
	return err
}

// Values are the vertex values now (ValueWidth numbers each): read them,
// do not keep them across a Step.
func (s *Stepper) Values() []float64 { return s.e.values }

// Result is the job so far: its supersteps, values, profile and record,
// as Run returns them; Elapsed is the time spent in Step.
func (s *Stepper) Result() *Result {
	res, _ := s.e.finish(nil)
	res.Elapsed = s.elapsed
	return res
}
