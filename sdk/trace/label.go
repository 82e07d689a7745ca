package trace

import (
	"fmt"
	"strings"
)

// ProcessLabel is how every view labels process i: its rank first, then
// its host and its name in the trace when they say more ("rank 0 ·
// quartz10 · Master thread"; "process 3 · …" without a rank), so that a
// label cut to fit still tells processes apart and its full text (a
// hover, a tooltip) still holds the trace's own name. Score-P names every
// process's location "Master thread": by name alone they read the same.
func (t *Trace) ProcessLabel(i int) string { return t.ProcessLabels()[i] }

// ProcessLabels are the labels of every process (ProcessLabel), distinct.
func (t *Trace) ProcessLabels() []string {
	labels := make([]string, len(t.Processes))
	seen := make(map[string]int, len(t.Processes))
	for i, p := range t.Processes {
		id := fmt.Sprintf("process %d", i)
		if p.Rank >= 0 {
			id = fmt.Sprintf("rank %d", p.Rank)
		}
		parts := []string{id}
		if p.Host != "" {
			parts = append(parts, p.Host)
		}
		if p.Name != "" && !namesRank(p.Name, p.Rank, i) {
			parts = append(parts, p.Name)
		}
		labels[i] = strings.Join(parts, " · ")
		seen[labels[i]]++
	}
	// Two locations of one rank the trace names alike: their indices
	// tell them apart.
	for i, l := range labels {
		if seen[l] > 1 {
			labels[i] = fmt.Sprintf("%s (process %d)", l, i)
		}
	}
	return labels
}

// namesRank reports whether a process's name says no more than its rank
// (or, without one, its index) does: "Process 3", "rank 3", "P3".
func namesRank(name string, rank int32, i int) bool {
	n := int64(rank)
	if rank < 0 {
		n = int64(i)
	}
	s := strings.ToLower(strings.Join(strings.Fields(name), ""))
	for _, prefix := range []string{"process", "rank", "mpirank", "p", "r"} {
		if s == fmt.Sprintf("%s%d", prefix, n) {
			return true
		}
	}
	return false
}
