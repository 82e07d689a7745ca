package fattree

import "fmt"

// LoadStats summarises the loads (bytes per second) on the links of one
// kind.
type LoadStats struct {
	Kind            Kind
	Links           int     // links of the kind that exist (Fabric.Missing ones are not counted)
	Missing         int     // links of the kind whose cable is missing
	Used            int     // links with a load above 0
	Dark            int     // links that exist and carry no load, Links − Used
	Min, Mean, Max  float64 // over the kind's links that exist, dark ones included (0 without links)
	Sum             float64 // total load
	MaxOverMean     float64 // Max / Mean: 1 when balanced; 0 when nothing flows
	UsedMean        float64 // mean over the used links only (0 when none is)
	UsedMaxOverMean float64 // Max / UsedMean (0 when no link is used)
}

// Stats summarises the loads of t on the links of kind k.
func (t *Traffic) Stats(k Kind) LoadStats {
	loads := t.Kind(k)
	st := LoadStats{Kind: k}
	for i, v := range loads {
		if missingAt(t.missing, t.kindStart, k, i) {
			st.Missing++
			continue
		}
		if st.Links == 0 || v < st.Min {
			st.Min = v
		}
		st.Links++
		st.Max = max(st.Max, v)
		st.Sum += v
		if v > 0 {
			st.Used++
		}
	}
	st.Dark = st.Links - st.Used
	if st.Links > 0 {
		st.Mean = st.Sum / float64(st.Links)
	}
	if st.Mean > 0 {
		st.MaxOverMean = st.Max / st.Mean
	}
	if st.Used > 0 {
		st.UsedMean = st.Sum / float64(st.Used)
		st.UsedMaxOverMean = st.Max / st.UsedMean
	}
	return st
}

// Hotspots is the ids of the links whose load is above threshold, in id
// order. With relative, the threshold is a multiple of the mean load of
// the link's own kind (Stats(kind).Mean, dark links included), so 2 picks
// the links carrying more than twice their kind's mean; otherwise it is
// in bytes per second. A link with no load is never a hotspot.
func (t *Traffic) Hotspots(threshold float64, relative bool) []int {
	var out []int
	for k := Kind(0); k < NumKinds; k++ {
		limit := threshold
		if relative {
			limit = threshold * t.Stats(k).Mean
		}
		lo := t.kindStart[k]
		for i, v := range t.Kind(k) {
			if v > limit && v > 0 {
				out = append(out, lo+i)
			}
		}
	}
	return out
}

// Dark is the ids of the links of kind k that exist and carry no load,
// in id order (a missing link is not dark: Fabric.MissingLinks).
func (t *Traffic) Dark(k Kind) []int {
	var out []int
	lo := 0
	if k < NumKinds {
		lo = t.kindStart[k]
	}
	for i, v := range t.Kind(k) {
		if v == 0 && !missingAt(t.missing, t.kindStart, k, i) {
			out = append(out, lo+i)
		}
	}
	return out
}

// Shared is the ids of the links that carry the routes of at least two
// jobs (whatever their bytes), in id order; with cellsOnly, only links
// between two switches (Kind.Cell).
func (t *Traffic) Shared(cellsOnly bool) []int {
	var out []int
	first := 0
	if cellsOnly {
		first = t.kindStart[Up12]
	}
	for id := first; id < len(t.Links); id++ {
		jobs := 0
		for j := range t.Jobs {
			if t.Jobs[j].Routes[id] > 0 {
				jobs++
			}
		}
		if jobs >= 2 {
			out = append(out, id)
		}
	}
	return out
}

// Inflation is job j's bottleneck inflation: the largest, over the links
// on which job j puts a load, of the total load over job j's own load
// there, and the link where it is largest (the lowest id of equals). It
// is 1 when no other job loads any of j's links, 2 when another job puts
// as much as j on one of them. A job that loads no link (no pairs, or 0
// bytes per pair) has inflation 0 and link −1. It fails when j is not a
// job of t.
func (t *Traffic) Inflation(j int) (float64, int, error) {
	if j < 0 || j >= len(t.Jobs) {
		return 0, -1, fmt.Errorf("fattree: inflation of job %d: the traffic has jobs 0..%d", j, len(t.Jobs)-1)
	}
	best, at := 0.0, -1
	for id, own := range t.Jobs[j].Links {
		if own > 0 {
			if r := t.Links[id] / own; r > best {
				best, at = r, id
			}
		}
	}
	return best, at, nil
}
