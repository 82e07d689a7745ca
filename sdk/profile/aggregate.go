package profile

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Level is a level of the inclusion tree at which units are summed.
type Level int

// The levels of the inclusion tree.
const (
	WorkerLevel Level = iota
	HostLevel
	RackLevel
)

func (l Level) String() string { return [...]string{"worker", "host", "rack"}[l] }

// ParseLevel reads "worker", "host" or "rack".
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(s) {
	case "worker", "workers":
		return WorkerLevel, nil
	case "host", "hosts":
		return HostLevel, nil
	case "rack", "racks":
		return RackLevel, nil
	}
	return 0, fmt.Errorf("unknown level %q: want worker, host or rack", s)
}

// Options choose an aggregation. The zero value is every superstep on its
// own, at worker level, every unit.
type Options struct {
	Level Level
	// FrameSize is the number of consecutive supersteps summed into one
	// frame (GiViP's temporal aggregation); 0 or 1 keeps supersteps apart.
	FrameSize int
	// MinTraffic drops units whose total messages (sent plus received,
	// over the whole job) are below it.
	MinTraffic int64
	// Units, if not empty, keeps only the units with these names.
	Units []string
	// Time chooses the compute times: Measured (default) or Modelled by
	// Cost (zero: DefaultCost).
	Time TimeSource
	Cost Cost
}

// Aggregated is a profile summed into frames and units: what the views
// draw. Matrices are indexed [frame][src][dst] over the kept units.
type Aggregated struct {
	Level Level
	// TimeLabel says what the times are: "measured", "modelled" or
	// "median of 5 runs".
	TimeLabel string
	Frames    []Frame
	Units     []Unit
	// Time is compute time plus modelled communication time, in seconds,
	// [unit][frame]; Compute, Wait and Comm split it.
	Time, Compute, Wait, Comm [][]float64
	// MessagesOut/In and BytesOut/In are [unit][frame]; traffic between
	// two workers of the same unit counts as both out and in.
	MessagesOut, MessagesIn, BytesOut, BytesIn [][]float64
	Messages, Bytes                            [][][]float64
	// Vertices is the number of graph vertices of each unit.
	Vertices []int64
}

// Frame is a run of consecutive supersteps.
type Frame struct{ First, Last int }

// Label is "7" for one superstep or "5–8" for a run.
func (f Frame) Label() string {
	if f.First == f.Last {
		return fmt.Sprint(f.First)
	}
	return fmt.Sprintf("%d–%d", f.First, f.Last)
}

// Unit is a worker, host or rack.
type Unit struct {
	Name string
	// Index is the unit's index among the cluster's workers, hosts or racks.
	Index int
	// Host and Rack are the unit's host and rack indices (-1 above its level).
	Host, Rack int
}

// Aggregate sums the profile as opt says.
func (p *Profile) Aggregate(opt Options) (*Aggregated, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := p.Cluster
	w := p.NumWorkers()
	// Map every worker to its unit at the level.
	var all []Unit
	unitOf := make([]int, w)
	switch opt.Level {
	case WorkerLevel:
		for i, wk := range c.Workers {
			all = append(all, Unit{Name: wk.Name, Index: i, Host: wk.Host, Rack: c.Hosts[wk.Host].Rack})
			unitOf[i] = i
		}
	case HostLevel:
		for i, h := range c.Hosts {
			all = append(all, Unit{Name: h.Name, Index: i, Host: i, Rack: h.Rack})
		}
		for i := range c.Workers {
			unitOf[i] = c.HostOf(i)
		}
	case RackLevel:
		for i, r := range c.Racks {
			all = append(all, Unit{Name: r.Name, Index: i, Host: -1, Rack: i})
		}
		for i := range c.Workers {
			unitOf[i] = c.RackOf(i)
		}
	default:
		return nil, fmt.Errorf("unknown level %d", opt.Level)
	}
	size := opt.FrameSize
	if size < 1 {
		size = 1
	}
	var frames []Frame
	for i := 0; i < len(p.Steps); i += size {
		last := i + size - 1
		if last >= len(p.Steps) {
			last = len(p.Steps) - 1
		}
		frames = append(frames, Frame{First: p.Steps[i].Superstep, Last: p.Steps[last].Superstep})
	}
	n, nf := len(all), len(frames)
	a := &Aggregated{Level: opt.Level, TimeLabel: p.TimeLabel(opt.Time), Frames: frames, Units: all}
	grid := func() [][]float64 {
		g := make([][]float64, n)
		for i := range g {
			g[i] = make([]float64, nf)
		}
		return g
	}
	a.Time, a.Compute, a.Wait, a.Comm = grid(), grid(), grid(), grid()
	a.MessagesOut, a.MessagesIn, a.BytesOut, a.BytesIn = grid(), grid(), grid(), grid()
	a.Messages, a.Bytes = make([][][]float64, nf), make([][][]float64, nf)
	for f := range frames {
		a.Messages[f], a.Bytes[f] = make([][]float64, n), make([][]float64, n)
		for u := 0; u < n; u++ {
			a.Messages[f][u], a.Bytes[f][u] = make([]float64, n), make([]float64, n)
		}
	}
	a.Vertices = make([]int64, n)
	for i := 0; i < w; i++ {
		a.Vertices[unitOf[i]] += p.Vertices[i]
	}
	compute := make([]time.Duration, w)
	for si, s := range p.Steps {
		f := si / size
		var slowest time.Duration
		for i, ws := range s.Workers {
			compute[i] = opt.compute(s, i)
			slowest = max(slowest, compute[i]+ws.Comm)
		}
		for i, ws := range s.Workers {
			u := unitOf[i]
			a.Compute[u][f] += compute[i].Seconds()
			a.Wait[u][f] += (slowest - compute[i] - ws.Comm).Seconds()
			a.Comm[u][f] += ws.Comm.Seconds()
			a.Time[u][f] += compute[i].Seconds() + ws.Comm.Seconds()
		}
		for src := 0; src < w; src++ {
			for dst := 0; dst < w; dst++ {
				m, b := float64(s.Messages[src*w+dst]), float64(s.Bytes[src*w+dst])
				if m == 0 && b == 0 {
					continue
				}
				us, ud := unitOf[src], unitOf[dst]
				a.Messages[f][us][ud] += m
				a.Bytes[f][us][ud] += b
				a.MessagesOut[us][f] += m
				a.BytesOut[us][f] += b
				a.MessagesIn[ud][f] += m
				a.BytesIn[ud][f] += b
			}
		}
	}
	return a.filter(opt)
}

// filter keeps the units opt asks for.
func (a *Aggregated) filter(opt Options) (*Aggregated, error) {
	keep := make([]bool, len(a.Units))
	for i := range keep {
		keep[i] = true
	}
	if len(opt.Units) > 0 {
		want := map[string]bool{}
		for _, n := range opt.Units {
			want[n] = true
		}
		for i, u := range a.Units {
			keep[i] = want[u.Name]
			delete(want, u.Name)
		}
		if len(want) > 0 {
			var missing []string
			for n := range want {
				missing = append(missing, n)
			}
			sort.Strings(missing)
			return nil, fmt.Errorf("no %s named %s", a.Level, strings.Join(missing, ", "))
		}
	}
	if opt.MinTraffic > 0 {
		for i := range a.Units {
			var total float64
			for f := range a.Frames {
				total += a.MessagesOut[i][f] + a.MessagesIn[i][f]
			}
			if total < float64(opt.MinTraffic) {
				keep[i] = false
			}
		}
	}
	var idx []int
	for i, k := range keep {
		if k {
			idx = append(idx, i)
		}
	}
	if len(idx) == len(a.Units) {
		return a, nil
	}
	pick := func(g [][]float64) [][]float64 {
		out := make([][]float64, len(idx))
		for j, i := range idx {
			out[j] = g[i]
		}
		return out
	}
	b := *a
	b.Units = nil
	b.Vertices = nil
	for _, i := range idx {
		b.Units = append(b.Units, a.Units[i])
		b.Vertices = append(b.Vertices, a.Vertices[i])
	}
	b.Time, b.Compute, b.Wait, b.Comm = pick(a.Time), pick(a.Compute), pick(a.Wait), pick(a.Comm)
	b.MessagesOut, b.MessagesIn, b.BytesOut, b.BytesIn = pick(a.MessagesOut), pick(a.MessagesIn), pick(a.BytesOut), pick(a.BytesIn)
	b.Messages, b.Bytes = make([][][]float64, len(a.Frames)), make([][][]float64, len(a.Frames))
	for f := range a.Frames {
		b.Messages[f], b.Bytes[f] = make([][]float64, len(idx)), make([][]float64, len(idx))
		for j, i := range idx {
			b.Messages[f][j], b.Bytes[f][j] = make([]float64, len(idx)), make([]float64, len(idx))
			for k, l := range idx {
				b.Messages[f][j][k] = a.Messages[f][i][l]
				b.Bytes[f][j][k] = a.Bytes[f][i][l]
			}
		}
	}
	return &b, nil
}
