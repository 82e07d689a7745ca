package fattree

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Job is a parallel job on a fabric: rank i runs on node Nodes[i] and the
// ranks communicate with Pattern, every ordered pair of the pattern
// sending BytesPerPair bytes per second while the job runs. Start and End
// say when it runs; the loads functions add up the jobs they are given
// whatever their times (pick the jobs running at a moment with Active).
type Job struct {
	ID           string
	Nodes        []int // node of each rank; no node twice
	Pattern      Pattern
	BytesPerPair float64 // bytes per second sent by each ordered pair of the pattern
	Start, End   time.Time
}

// Active is the jobs of jobs that run at time t: Start ≤ t < End, a zero
// Start or End meaning no bound on that side.
func Active(jobs []Job, t time.Time) []Job {
	var out []Job
	for _, j := range jobs {
		if (j.Start.IsZero() || !t.Before(j.Start)) && (j.End.IsZero() || t.Before(j.End)) {
			out = append(out, j)
		}
	}
	return out
}

// check reports what is wrong with job i of a list on f, or nil.
func (j *Job) check(f *Fabric, i int) error {
	name := fmt.Sprintf("job %d (%q)", i, j.ID)
	if _, err := nodeSet(f, j.Nodes); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(j.Nodes) == 0 {
		return fmt.Errorf("fattree: %s has no nodes", name)
	}
	if err := j.Pattern.Check(len(j.Nodes)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if j.BytesPerPair < 0 || math.IsNaN(j.BytesPerPair) || math.IsInf(j.BytesPerPair, 0) {
		return fmt.Errorf("fattree: %s: BytesPerPair = %v, want a finite number ≥ 0", name, j.BytesPerPair)
	}
	return nil
}

// Placement is a policy that picks the nodes of jobs on a fabric (Place).
type Placement uint8

// The placement policies.
const (
	// Contiguous gives the jobs consecutive node ranges in node order, the
	// first job from node 0.
	Contiguous Placement = iota
	// Fragmented shuffles the nodes with the seed and gives each job the
	// next free ones of that order, each job's nodes then sorted: what a
	// long-running cluster's scheduler ends up with.
	Fragmented
	// PodBased puts a job that fits in a pod on the lowest free nodes of
	// the first pod with enough free nodes (first fit), and a larger job
	// on the first run of consecutive entirely free pods that holds it
	// (its lowest nodes).
	PodBased
	// Stride orders the nodes slot by slot, L1 by L1 (node 0 of every L1,
	// then node 1 of every L1, …) and gives the jobs consecutive ranges of
	// that order: one node per L1, D-mod-k's worst case (on Paper1296 a
	// 72-node job gets nodes 0, 18, 36, …).
	Stride
	numPlacements
)

// String is "contiguous", "fragmented", "pod-based" or "stride".
func (p Placement) String() string {
	switch p {
	case Contiguous:
		return "contiguous"
	case Fragmented:
		return "fragmented"
	case PodBased:
		return "pod-based"
	case Stride:
		return "stride"
	}
	return fmt.Sprintf("Placement(%d)", uint8(p))
}

// Place picks nodes of f for jobs of the given sizes, in order, with
// policy p; seed is used by Fragmented only. Job i gets Place(...)[i],
// its nodes in increasing order except under Stride (in stride order). It
// fails when a size is below 1, when the jobs need more nodes than f has
// or, for PodBased, when no pod (or run of free pods) holds a job.
func Place(f *Fabric, p Placement, sizes []int, seed uint64) ([][]int, error) {
	total := 0
	for i, n := range sizes {
		if n < 1 {
			return nil, fmt.Errorf("fattree: %v placement: job %d has %d nodes, want at least 1", p, i, n)
		}
		total += n
	}
	if total > len(f.Nodes) {
		return nil, fmt.Errorf("fattree: %v placement: the jobs need %d nodes, the fabric has %d", p, total, len(f.Nodes))
	}
	var order []int
	switch p {
	case Contiguous:
		order = make([]int, len(f.Nodes))
		for i := range order {
			order[i] = i
		}
	case Fragmented:
		order = permute(len(f.Nodes), seed)
	case Stride:
		s := f.Spec
		for x := range s.NodesPerL1 {
			for l1 := range s.Switches(1) {
				order = append(order, l1*s.NodesPerL1+x)
			}
		}
	case PodBased:
		return placePods(f, sizes)
	default:
		return nil, fmt.Errorf("fattree: unknown placement %v", p)
	}
	out := make([][]int, len(sizes))
	at := 0
	for i, n := range sizes {
		out[i] = slices.Clone(order[at : at+n])
		at += n
		if p == Fragmented {
			slices.Sort(out[i])
		}
	}
	return out, nil
}

func placePods(f *Fabric, sizes []int) ([][]int, error) {
	perPod := f.Spec.L1PerPod * f.Spec.NodesPerL1
	pods := f.Spec.Pods
	used := make([]int, pods) // nodes taken in each pod, from its first node
	out := make([][]int, len(sizes))
	take := func(pod, n int) []int {
		nodes := make([]int, n)
		for i := range nodes {
			nodes[i] = pod*perPod + used[pod] + i
		}
		used[pod] += n
		return nodes
	}
	for i, n := range sizes {
		if n <= perPod {
			for pod := range pods {
				if perPod-used[pod] >= n {
					out[i] = take(pod, n)
					break
				}
			}
		} else {
			need := (n + perPod - 1) / perPod
			for first := 0; first+need <= pods && out[i] == nil; first++ {
				free := true
				for pod := first; pod < first+need; pod++ {
					free = free && used[pod] == 0
				}
				if !free {
					continue
				}
				for pod := first; pod < first+need; pod++ {
					out[i] = append(out[i], take(pod, min(perPod, n-len(out[i])))...)
				}
			}
		}
		if out[i] == nil {
			return nil, fmt.Errorf("fattree: pod-based placement: no pod has room for job %d (%d nodes; %d nodes per pod, %v taken)", i, n, perPod, used)
		}
	}
	return out, nil
}
