package trace

import (
	"fmt"
	"slices"
)

// Pair sums the messages one process sent to another.
type Pair struct {
	Src, Dst int32
	Messages int64
	Bytes    int64
	// TransferNS is Σ(receive − send) over the pair's messages.
	TransferNS int64
}

// Bandwidth is the pair's average bandwidth in bytes per second: its bytes
// over the time its messages spent in transfer (Vampir's definition). It
// is 0 when that time is not positive (clocks that disagree).
func (p Pair) Bandwidth() float64 {
	if p.TransferNS <= 0 {
		return 0
	}
	return float64(p.Bytes) / (float64(p.TransferNS) / 1e9)
}

// Pairs sums the messages per ordered pair of processes. Only pairs that
// exchanged messages are listed, ordered by sender, then receiver.
func (t *Trace) Pairs() []Pair {
	n := len(t.Processes)
	var out []Pair
	if n > 0 && n*n <= 1<<22 {
		index := make([]int32, n*n)
		for _, m := range t.Messages {
			k := int(m.Src)*n + int(m.Dst)
			if index[k] == 0 {
				out = append(out, Pair{Src: m.Src, Dst: m.Dst})
				index[k] = int32(len(out))
			}
			p := &out[index[k]-1]
			p.Messages++
			p.Bytes += m.Bytes
			p.TransferNS += m.RecvNS - m.SendNS
		}
	} else {
		index := map[[2]int32]int{}
		for _, m := range t.Messages {
			k := [2]int32{m.Src, m.Dst}
			i, ok := index[k]
			if !ok {
				out = append(out, Pair{Src: m.Src, Dst: m.Dst})
				i = len(out) - 1
				index[k] = i
			}
			p := &out[i]
			p.Messages++
			p.Bytes += m.Bytes
			p.TransferNS += m.RecvNS - m.SendNS
		}
	}
	slices.SortFunc(out, func(a, b Pair) int {
		if a.Src != b.Src {
			return int(a.Src - b.Src)
		}
		return int(a.Dst - b.Dst)
	})
	return out
}

// Metric is what a communication matrix shows per pair.
type Metric int

// The metrics of a pair.
const (
	// Messages is the number of messages.
	Messages Metric = iota
	// Bytes is the number of bytes.
	Bytes
	// Bandwidth is bytes over Σ transfer time, in bytes per second.
	Bandwidth
)

// String is the metric's name: "messages", "bytes", "bandwidth".
func (m Metric) String() string {
	switch m {
	case Messages:
		return "messages"
	case Bytes:
		return "bytes"
	case Bandwidth:
		return "bandwidth"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric reads "messages", "bytes" or "bandwidth".
func ParseMetric(s string) (Metric, error) {
	for m := Messages; m <= Bandwidth; m++ {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q (want messages, bytes or bandwidth)", s)
}

// Value is the pair's value of the metric.
func (p Pair) Value(m Metric) float64 {
	switch m {
	case Messages:
		return float64(p.Messages)
	case Bytes:
		return float64(p.Bytes)
	case Bandwidth:
		return p.Bandwidth()
	}
	return 0
}

// Matrix is the n×n communication matrix of the metric, row-major: row =
// sender, column = receiver, n = the number of processes.
func (t *Trace) Matrix(m Metric) []float64 {
	n := len(t.Processes)
	out := make([]float64, n*n)
	for _, p := range t.Pairs() {
		out[int(p.Src)*n+int(p.Dst)] = p.Value(m)
	}
	return out
}

// Window keeps what happened between fromNS and toNS: the messages in
// flight at some time of [fromNS, toNS] (sent before toNS and received
// after fromNS, either way round on skewed clocks), the region intervals
// cut to the window and the unmatched events inside it. Times stay
// relative to the trace's start, so a window's labels read as the whole
// trace's.
func (t *Trace) Window(fromNS, toNS int64) (*Trace, error) {
	if toNS < fromNS {
		return nil, fmt.Errorf("trace %s: window ends at %s s before it starts at %s s", t.Name, formatSeconds(toNS), formatSeconds(fromNS))
	}
	w := t.shallow()
	for _, m := range t.Messages {
		lo, hi := min(m.SendNS, m.RecvNS), max(m.SendNS, m.RecvNS)
		if lo <= toNS && hi >= fromNS {
			w.Messages = append(w.Messages, m)
		}
	}
	for _, r := range t.Regions {
		if r.EnterNS <= toNS && r.LeaveNS >= fromNS {
			r.EnterNS, r.LeaveNS = max(r.EnterNS, fromNS), min(r.LeaveNS, toNS)
			w.Regions = append(w.Regions, r)
		}
	}
	for _, u := range t.Unmatched {
		if u.TimeNS >= fromNS && u.TimeNS <= toNS {
			w.Unmatched = append(w.Unmatched, u)
		}
	}
	return w, nil
}

// Select keeps the given processes, in the given order: process procs[i]
// becomes process i, and only messages between kept processes stay.
func (t *Trace) Select(procs []int32) (*Trace, error) {
	n := int32(len(t.Processes))
	newIndex := make([]int32, n)
	for i := range newIndex {
		newIndex[i] = -1
	}
	s := t.shallow()
	s.Processes = make([]Process, 0, len(procs))
	for i, p := range procs {
		if p < 0 || p >= n {
			return nil, fmt.Errorf("trace %s: process %d out of range (%d processes)", t.Name, p, n)
		}
		if newIndex[p] >= 0 {
			return nil, fmt.Errorf("trace %s: process %d selected twice", t.Name, p)
		}
		newIndex[p] = int32(i)
		s.Processes = append(s.Processes, t.Processes[p])
	}
	for _, m := range t.Messages {
		if a, b := newIndex[m.Src], newIndex[m.Dst]; a >= 0 && b >= 0 {
			m.Src, m.Dst = a, b
			s.Messages = append(s.Messages, m)
		}
	}
	slices.SortStableFunc(s.Messages, func(a, b Message) int { return int(a.Src - b.Src) })
	for _, r := range t.Regions {
		if a := newIndex[r.Process]; a >= 0 {
			r.Process = a
			s.Regions = append(s.Regions, r)
		}
	}
	slices.SortStableFunc(s.Regions, func(a, b Region) int { return int(a.Process - b.Process) })
	for _, u := range t.Unmatched {
		if a := newIndex[u.Process]; a >= 0 {
			u.Process = a
			if u.Peer >= 0 && u.Peer < n {
				u.Peer = newIndex[u.Peer]
			}
			s.Unmatched = append(s.Unmatched, u)
		}
	}
	return s, nil
}

// shallow copies everything but the messages, regions and unmatched
// events.
func (t *Trace) shallow() *Trace {
	return &Trace{
		Name: t.Name, Processes: t.Processes, RegionNames: t.RegionNames, Comms: t.Comms,
		TicksPerSecond: t.TicksPerSecond, OffsetTicks: t.OffsetTicks, DurationNS: t.DurationNS,
	}
}

// Totals counts the messages and bytes of the trace.
func (t *Trace) Totals() (messages, bytes int64) {
	for _, m := range t.Messages {
		bytes += m.Bytes
	}
	return int64(len(t.Messages)), bytes
}
