package fattree

import (
	"context"
	"fmt"
	"math"
	"time"
)

// MTU is the packet size Simulate assumes, in bytes: InfiniBand's largest
// MTU.
const MTU = 4096

// maxSimulateRows bounds the rows Simulate makes (intervals × links): 2^24
// rows are about 1.2 GB.
const maxSimulateRows = 1 << 24

// Simulate is the counters that jobs would leave on f routed by r from
// start to end, read every step: one row per interval and directed link
// (every link that exists, zeros included; a missing link, Fabric.Missing,
// has no counters), ordered by time and link, each row at the
// interval's end. The last interval ends at end and may be shorter than
// step.
//
// A link's bytes in an interval are the jobs' bytes per second on it
// (JobLoads) times the seconds each job runs within the interval: a job
// runs over [Start, End), a zero Start or End meaning no bound, so a job
// that starts or ends inside an interval contributes pro rata. To keep
// sums exact the bytes are those of a cumulative counter rounded to whole
// bytes: an interval's bytes are round(C(t1)) − round(C(t0)), C(t) being
// the exact bytes carried since start, so the bytes summed over the
// intervals are round(C(end)) whatever the step. Packets are the bytes
// divided by MTU, rounded up, per interval; xmit_wait and errors are 0.
//
// It fails when step is not a positive whole number of seconds, when start
// or end is not a whole second or end is not after start, when the rows
// would exceed 2^24 (about 1.2 GB), when JobLoads fails, when a counter
// would exceed the int64 range, or with ctx's error.
func Simulate(ctx context.Context, f *Fabric, r Routing, jobs []Job, start, end time.Time, step time.Duration) ([]CounterRow, error) {
	if step <= 0 || step%time.Second != 0 {
		return nil, fmt.Errorf("fattree: simulate: step %v, want a positive whole number of seconds", step)
	}
	if start.Nanosecond() != 0 || end.Nanosecond() != 0 {
		return nil, fmt.Errorf("fattree: simulate: start %v and end %v must be whole seconds", start, end)
	}
	if !end.After(start) {
		return nil, fmt.Errorf("fattree: simulate: end %v is not after start %v", end, start)
	}
	span := end.Sub(start)
	intervals := int64((span + step - 1) / step)
	if intervals*int64(len(f.Links)) > maxSimulateRows {
		return nil, fmt.Errorf("fattree: simulate: %d intervals × %d links exceed %d rows; use a longer step", intervals, len(f.Links), maxSimulateRows)
	}
	tr, err := JobLoads(ctx, f, r, jobs)
	if err != nil {
		return nil, fmt.Errorf("fattree: simulate: %w", err)
	}
	// The links each job loads.
	used := make([][]int, len(jobs))
	for j, jt := range tr.Jobs {
		for id, b := range jt.Links {
			if b != 0 {
				used[j] = append(used[j], id)
			}
		}
	}
	nl := len(f.Links)
	rows := make([]CounterRow, 0, intervals*int64(nl))
	prev := make([]int64, nl) // round(C(t0)) per link
	cum := make([]float64, nl)
	for i := int64(1); i <= intervals; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t1 := start.Add(time.Duration(i) * step)
		if t1.After(end) {
			t1 = end
		}
		clear(cum)
		for j := range jobs {
			s := overlap(jobs[j], start, t1)
			if s == 0 {
				continue
			}
			for _, id := range used[j] {
				cum[id] += tr.Jobs[j].Links[id] * s
			}
		}
		for id := range nl {
			if f.Missing(id) {
				continue // no cable, no counters
			}
			c := math.Round(cum[id])
			if c >= math.MaxInt64 {
				return nil, fmt.Errorf("fattree: simulate: link %d carries %g bytes by %v, beyond the int64 range", id, cum[id], t1)
			}
			b := int64(c) - prev[id]
			prev[id] = int64(c)
			rows = append(rows, CounterRow{Time: t1, Link: id, Bytes: b, Packets: (b + MTU - 1) / MTU})
		}
	}
	return rows, nil
}

// overlap is the seconds job j runs within [t0, t1).
func overlap(j Job, t0, t1 time.Time) float64 {
	if !j.Start.IsZero() && j.Start.After(t0) {
		t0 = j.Start
	}
	if !j.End.IsZero() && j.End.Before(t1) {
		t1 = j.End
	}
	if !t1.After(t0) {
		return 0
	}
	return t1.Sub(t0).Seconds()
}
