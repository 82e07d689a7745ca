package trace

import (
	"fmt"
	"strings"
	"time"

	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// maxProfileCells bounds frames × processes² of ToProfile: the profile
// keeps a dense matrix per frame.
const maxProfileCells = 1 << 27

// ToProfile turns the trace into profile frames so the trend, chord and
// dashboard views show an MPI run: time bins of binNS become the
// supersteps (superstep k covers [k·binNS, (k+1)·binNS)), processes become
// workers, hosts come from the trace (processes without a host share one
// host named after the trace) in one rack. A message counts in the bin of
// its send. A worker's compute time in a bin is the time its innermost
// region was not an MPI call, its wait time the time it was in one (a
// region whose name starts with "MPI_"); time outside every region counts
// as neither.
func (t *Trace) ToProfile(binNS int64) (*profile.Profile, error) {
	if binNS <= 0 {
		return nil, fmt.Errorf("trace %s: bin width %d ns, want > 0", t.Name, binNS)
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	w := len(t.Processes)
	if w == 0 {
		return nil, fmt.Errorf("trace %s: no processes", t.Name)
	}
	bins := int(t.DurationNS/binNS) + 1
	if t.DurationNS > 0 && t.DurationNS%binNS == 0 {
		bins--
	}
	if cells := int64(bins) * int64(w) * int64(w); cells > maxProfileCells {
		return nil, fmt.Errorf("trace %s: %d bins of %s for %d processes is %d matrix cells (at most %d): use wider bins, a Window or Select",
			t.Name, bins, time.Duration(binNS), w, cells, maxProfileCells)
	}
	c, err := t.cluster()
	if err != nil {
		return nil, err
	}
	p := &profile.Profile{Job: t.Name, Program: "MPI trace", Cluster: c, Vertices: make([]int64, w)}
	for k := 0; k < bins; k++ {
		p.Steps = append(p.Steps, profile.NewStep(k, w))
	}
	bin := func(ns int64) int { return min(max(int(ns/binNS), 0), bins-1) }
	for _, m := range t.Messages {
		s := &p.Steps[bin(m.SendNS)]
		s.Messages[int(m.Src)*w+int(m.Dst)]++
		s.Bytes[int(m.Src)*w+int(m.Dst)] += m.Bytes
	}
	mpi := make([]bool, len(t.RegionNames))
	for i, n := range t.RegionNames {
		mpi[i] = strings.HasPrefix(strings.ToUpper(n), "MPI_")
	}
	t.innermost(func(proc int32, from, to int64, region int32) {
		for from < to {
			k := bin(from)
			end := min(to, int64(k+1)*binNS)
			if k == bins-1 {
				end = to
			}
			ws := &p.Steps[k].Workers[proc]
			if mpi[region] {
				ws.Wait += time.Duration(end - from)
			} else {
				ws.Compute += time.Duration(end - from)
			}
			from = end
		}
	})
	return p, p.Validate()
}

// innermost calls f for every stretch of time a process spent with region
// as its innermost region, process by process in time order.
func (t *Trace) innermost(f func(proc int32, from, to int64, region int32)) {
	type open struct {
		region int32
		leave  int64
	}
	var stack []open
	var cursor int64
	proc := int32(-1)
	// Pops the regions that end before next, reporting what remains of each.
	unwind := func(next int64) {
		for len(stack) > 0 && stack[len(stack)-1].leave <= next {
			top := stack[len(stack)-1]
			if top.leave > cursor {
				f(proc, cursor, top.leave, top.region)
				cursor = top.leave
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && next > cursor {
			f(proc, cursor, next, stack[len(stack)-1].region)
		}
		cursor = max(cursor, next)
	}
	for _, r := range t.Regions {
		if r.Process != proc {
			unwind(1<<62 - 1)
			stack, proc, cursor = stack[:0], r.Process, r.EnterNS
		}
		unwind(r.EnterNS)
		stack = append(stack, open{r.Region, r.LeaveNS})
	}
	if proc >= 0 {
		unwind(1<<62 - 1)
	}
}

// cluster makes the processes workers on their hosts, in one rack.
func (t *Trace) cluster() (*cluster.Cluster, error) {
	c := &cluster.Cluster{Racks: []cluster.Rack{{Name: t.Name}}}
	hosts := map[string]int{}
	labels := t.ProcessLabels()
	for i, p := range t.Processes {
		h := p.Host
		if h == "" {
			h = t.Name
		}
		hi, ok := hosts[h]
		if !ok {
			hi = len(c.Hosts)
			hosts[h] = hi
			c.Hosts = append(c.Hosts, cluster.Host{Name: h})
		}
		// Workers are named as every view labels processes: rank first.
		c.Workers = append(c.Workers, cluster.Worker{Name: labels[i], Host: hi})
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("trace %s: %w", t.Name, err)
	}
	return c, nil
}
