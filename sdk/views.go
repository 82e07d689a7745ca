package sdk

import (
	"fmt"
	"math"
	"time"

	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// unitID names a unit the same way in every view (treemap tiles, trend
// rows, chord arcs), so that filtering links them.
func unitID(level profile.Level, name string) string { return level.String() + ":" + name }

// colours gives every worker, host and rack one colour, the same in every
// view of the job: a hue per rack, hues within it per host, shades of its
// host's hue per worker (views.NestedPalette), so that a colour tells
// where a unit sits and no two branches share one.
func colours(c *cluster.Cluster, level profile.Level, index int) string {
	hostRack := make([]int, len(c.Hosts))
	for h, host := range c.Hosts {
		hostRack[h] = host.Rack
	}
	workerHost := make([]int, len(c.Workers))
	for w, worker := range c.Workers {
		workerHost[w] = worker.Host
	}
	racks, hosts, workers := views.NestedPalette(len(c.Racks), hostRack, workerHost)
	switch level {
	case profile.HostLevel:
		return hosts[index]
	case profile.RackLevel:
		return racks[index]
	}
	return workers[index]
}

func displayUnits(c *cluster.Cluster, a *profile.Aggregated) []views.Unit {
	units := make([]views.Unit, len(a.Units))
	for i, u := range a.Units {
		du := views.Unit{ID: unitID(a.Level, u.Name), Name: u.Name, Color: colours(c, a.Level, u.Index)}
		if a.Level == profile.WorkerLevel {
			du.Parents = append(du.Parents, unitID(profile.HostLevel, c.Hosts[u.Host].Name))
		}
		if a.Level != profile.RackLevel {
			du.Parents = append(du.Parents, unitID(profile.RackLevel, c.Racks[u.Rack].Name))
		}
		units[i] = du
	}
	return units
}

// TrendData is the Trend View's data for an aggregation: compute time,
// messages and bytes per unit and frame.
func (j *Job) TrendData(opt profile.Options) (views.TrendData, error) {
	a, err := j.Profile.Aggregate(opt)
	if err != nil {
		return views.TrendData{}, err
	}
	return trendData(j.Profile, a), nil
}

// The trend's panels of messages and bytes, which the dashboard's totals
// sum.
const (
	messagesPanel = "messages: out, in (hatched)"
	bytesPanel    = "bytes: out, in (hatched)"
)

func trendData(p *profile.Profile, a *profile.Aggregated) views.TrendData {
	frames := make([]string, len(a.Frames))
	for i, f := range a.Frames {
		frames[i] = f.Label()
	}
	unit, times := inTimeUnit(a.Time)
	return views.TrendData{
		Title:  fmt.Sprintf("%s — heartbeat per %s", p.Job, a.Level),
		Frames: frames,
		// A heartbeat reads best whole: page only long jobs.
		FramesPerPage: 64,
		Units:         displayUnits(p.Cluster, a),
		// Time is measured, so noisy (a first superstep that loads, a
		// pause): its scale is clipped at the 90th percentile when the
		// largest is more than twice that, so the heartbeat shows;
		// messages and bytes are counted and keep their whole scale.
		// Quantity lets a Row of trends share each panel's scale.
		Panels: []views.TrendPanel{
			{Title: "time (" + unit + ", " + a.TimeLabel + "): compute + communication", Out: times, Quantity: "time (" + unit + ")", Clip: trendTimeClip},
			{Title: messagesPanel, Out: a.MessagesOut, In: a.MessagesIn, Quantity: "messages"},
			{Title: bytesPanel, Out: a.BytesOut, In: a.BytesIn, Quantity: "bytes"},
		},
	}
}

// inTimeUnit expresses times in seconds in the unit that reads best for
// their largest: s from a second, ms from a millisecond, µs below. It
// returns the unit's name and the scaled copy.
func inTimeUnit(secs [][]float64) (string, [][]float64) {
	mx := 0.0
	for _, row := range secs {
		for _, v := range row {
			mx = math.Max(mx, v)
		}
	}
	unit, scale := "s", 1.0
	switch {
	case mx >= 1 || mx == 0:
	case mx >= 1e-3:
		unit, scale = "ms", 1e3
	default:
		unit, scale = "µs", 1e6
	}
	out := make([][]float64, len(secs))
	for i, row := range secs {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			out[i][j] = v * scale
		}
	}
	return unit, out
}

// Trend is the Trend View: three small multiples (time, messages, bytes)
// sharing the time axis, one row per unit.
func (j *Job) Trend(opt profile.Options) display.Renderer {
	d, err := j.TrendData(opt)
	if err != nil {
		return display.TextBundle(err.Error())
	}
	return views.Trend(d)
}

// ChordData is the Frame View's data: the traffic between units in every
// frame, in the job's circular order, with rings for hosts and racks.
func (j *Job) ChordData(opt profile.Options) (views.ChordData, error) {
	a, err := j.Profile.Aggregate(opt)
	if err != nil {
		return views.ChordData{}, err
	}
	return chordData(j.Profile, a, j.Order()), nil
}

func chordData(p *profile.Profile, a *profile.Aggregated, workerOrder []int) views.ChordData {
	c := p.Cluster
	// The units' order follows the workers' circular order.
	rank := map[int]int{}
	for _, w := range workerOrder {
		var idx int
		switch a.Level {
		case profile.WorkerLevel:
			idx = w
		case profile.HostLevel:
			idx = c.HostOf(w)
		default:
			idx = c.RackOf(w)
		}
		if _, ok := rank[idx]; !ok {
			rank[idx] = len(rank)
		}
	}
	order := make([]int, 0, len(a.Units)) // positions in a.Units, in circular order
	for r := 0; r < len(rank); r++ {
		for i, u := range a.Units {
			if rank[u.Index] == r {
				order = append(order, i)
			}
		}
	}
	all := displayUnits(c, a)
	units := make([]views.Unit, len(order))
	for k, i := range order {
		units[k] = all[i]
	}
	var rings []views.Ring
	ring := func(level profile.Level, of func(u profile.Unit) int, names func(int) string) views.Ring {
		r := views.Ring{Name: level.String()}
		for k, i := range order {
			g := of(a.Units[i])
			if n := len(r.Groups); n > 0 && r.Groups[n-1].ID == unitID(level, names(g)) {
				r.Groups[n-1].Last = k
				continue
			}
			r.Groups = append(r.Groups, views.RingGroup{ID: unitID(level, names(g)), Name: names(g), Color: colours(c, level, g), First: k, Last: k})
		}
		return r
	}
	hostName := func(h int) string { return c.Hosts[h].Name }
	rackName := func(r int) string { return c.Racks[r].Name }
	if a.Level == profile.WorkerLevel {
		rings = append(rings, ring(profile.HostLevel, func(u profile.Unit) int { return u.Host }, hostName))
	}
	if a.Level != profile.RackLevel {
		rings = append(rings, ring(profile.RackLevel, func(u profile.Unit) int { return u.Rack }, rackName))
	}
	frames := make([]views.ChordFrame, len(a.Frames))
	for f, fr := range a.Frames {
		w := make([][]float64, len(order))
		det := make([][]string, len(order))
		for x, i := range order {
			w[x] = make([]float64, len(order))
			det[x] = make([]string, len(order))
			for y, k := range order {
				w[x][y] = a.Messages[f][i][k]
				det[x][y] = fmt.Sprintf("%s → %s: %.0f messages, %s", a.Units[i].Name, a.Units[k].Name, a.Messages[f][i][k], byteSize(int64(a.Bytes[f][i][k])))
			}
		}
		var msgs, bytes float64
		for _, i := range order {
			for _, k := range order {
				msgs += a.Messages[f][i][k]
				bytes += a.Bytes[f][i][k]
			}
		}
		frames[f] = views.ChordFrame{Label: "superstep " + fr.Label(), Weight: w, Details: det,
			Total: fmt.Sprintf("%s messages, %s", display.FormatNumber(msgs), byteSize(int64(bytes)))}
	}
	selected := 0
	best := -1.0
	for f := range frames {
		var tot float64
		for _, row := range frames[f].Weight {
			for _, x := range row {
				tot += x
			}
		}
		if tot > best {
			best, selected = tot, f
		}
	}
	return views.ChordData{Units: units, Rings: rings, Frames: frames, Selected: selected, WeightName: "messages"}
}

// Frames is the Frame View: a chord diagram of the traffic between units,
// one frame at a time with a slider; the busiest frame is shown first.
func (j *Job) Frames(opt profile.Options) display.Renderer {
	d, err := j.ChordData(opt)
	if err != nil {
		return display.TextBundle(err.Error())
	}
	return views.Chord(d)
}

// ClusterTree is the inclusion tree sized by the vertices on each worker.
func (j *Job) ClusterTree() views.TreeNode {
	c := j.Profile.Cluster
	root := views.TreeNode{ID: "cluster", Name: "cluster"}
	for r, rack := range c.Racks {
		rn := views.TreeNode{ID: unitID(profile.RackLevel, rack.Name), Name: rack.Name, Color: colours(c, profile.RackLevel, r)}
		for h, host := range c.Hosts {
			if host.Rack != r {
				continue
			}
			hn := views.TreeNode{ID: unitID(profile.HostLevel, host.Name), Name: host.Name, Color: colours(c, profile.HostLevel, h)}
			for w, wk := range c.Workers {
				if wk.Host == h {
					hn.Children = append(hn.Children, views.TreeNode{ID: unitID(profile.WorkerLevel, wk.Name), Name: wk.Name,
						Color: colours(c, profile.WorkerLevel, w), Value: float64(j.Profile.Vertices[w])})
					hn.Value += float64(j.Profile.Vertices[w])
				}
			}
			rn.Children = append(rn.Children, hn)
			rn.Value += hn.Value
		}
		root.Children = append(root.Children, rn)
		root.Value += rn.Value
	}
	return root
}

// ClusterView is the Cluster View: a squarified treemap of racks, hosts
// and workers sized by the vertices each holds.
func (j *Job) ClusterView() display.Renderer { return views.Treemap(j.ClusterTree()) }

// Dashboard shows the four panels of GiViP together and linked: the
// aggregation panel (totals, level switch), the cluster view (click a tile
// to filter it out), the trend view and the frame view with its slider.
// opt sets the frames and filters; the dashboard offers every level.
func (j *Job) Dashboard(opt profile.Options) display.Renderer {
	t := j.Profile.Totals()
	d := views.DashboardData{
		Title: j.Profile.Job,
		Stats: []views.Stat{
			{Label: "graph", Value: graphSummary(j.Graph)},
			{Label: "supersteps", Value: fmt.Sprint(t.Supersteps)},
			{Label: "messages", Value: display.FormatNumber(float64(t.Messages)), Sums: messagesPanel},
			{Label: "bytes", Value: byteSize(t.Bytes), Sums: bytesPanel, Bytes: true},
			// The cost model's time: the same on every run and machine.
			{Label: "modelled time", Value: roundTime(t.Modelled).String()},
			// The clock's: it moves with the machine's load.
			{Label: "measured time", Value: t.Measured.Round(time.Microsecond).String()},
		},
		Tree: j.ClusterTree(),
	}
	switch {
	case j.Result != nil && j.Graph == nil:
		// A job on MPI ranks: its graph stayed with the ranks, and its
		// times are measured.
		hosts := fmt.Sprintf("%d hosts", len(j.Profile.Cluster.Hosts))
		if len(j.Profile.Cluster.Hosts) == 1 {
			hosts = "host " + j.Profile.Cluster.Hosts[0].Name
		}
		// Their communication times are measured too: no modelled time.
		d.Stats[0] = views.Stat{Label: "ranks", Value: fmt.Sprintf("%d on %s", j.Profile.NumWorkers(), hosts)}
		d.Stats = append(d.Stats[:4], d.Stats[5], views.Stat{Label: "wall time", Value: j.Result.Elapsed.Round(time.Millisecond).String()})
	case j.Result != nil:
		d.Stats = append(d.Stats,
			views.Stat{Label: "wall time", Value: j.Result.Elapsed.Round(time.Millisecond).String()},
			views.Stat{Label: "partition", Value: fmt.Sprintf("balance %.2f, edge cut %.1f%%", j.PartitionStats.Balance, 100*j.PartitionStats.CutFraction)})
	default:
		d.Stats[0] = views.Stat{Label: "processes", Value: fmt.Sprint(j.Profile.NumWorkers())}
		d.Stats[1].Label = "frames"
		d.Stats = d.Stats[:4] // a trace has neither a modelled nor a run's time
	}
	for _, level := range []profile.Level{profile.WorkerLevel, profile.HostLevel, profile.RackLevel} {
		o := opt
		o.Level = level
		if len(opt.Units) > 0 && level != opt.Level {
			o.Units = nil
		}
		a, err := j.Profile.Aggregate(o)
		if err != nil {
			return display.TextBundle(err.Error())
		}
		d.Levels = append(d.Levels, views.DashboardLevel{Name: level.String(), Trend: trendData(j.Profile, a), Chord: chordData(j.Profile, a, j.Order())})
	}
	return views.Dashboard(d)
}

// heartbeat shows a job's trend while it runs, updated in place, with a
// progress bar.
type heartbeat struct {
	out      *display.Output
	max      int
	name     string
	progress *display.Progress
	id       string
	last     time.Time
	level    profile.Level
}

// heartbeatInterval is the least time between two live updates.
const heartbeatInterval = 250 * time.Millisecond

func newHeartbeat(out *display.Output, cfg bsp.Config) *heartbeat {
	max := cfg.MaxSupersteps
	if max <= 0 {
		max = 1000
	}
	level := profile.WorkerLevel
	if cfg.Cluster != nil && cfg.Cluster.NumWorkers() > 16 {
		level = profile.HostLevel
	}
	return &heartbeat{out: out, max: max, name: cfg.Name, level: level}
}

func (h *heartbeat) RecordStep(p *profile.Profile, s profile.Step) {
	if h.progress == nil {
		h.progress = h.out.NewProgress(h.max, fmt.Sprintf("%s: superstep (of at most %d)", h.name, h.max))
	}
	h.progress.Set(s.Superstep + 1)
	if time.Since(h.last) < heartbeatInterval && h.id != "" {
		return
	}
	h.last = time.Now()
	h.show(p)
}

func (h *heartbeat) show(p *profile.Profile) {
	a, err := p.Aggregate(profile.Options{Level: h.level})
	if err != nil {
		return
	}
	view := views.Trend(trendData(p, a))
	if h.id == "" {
		h.id = h.out.ShowWithID(view)
	} else {
		h.out.Update(h.id, view)
	}
}

func (h *heartbeat) finish(j *Job) {
	if h.progress != nil {
		h.progress.Finish(fmt.Sprintf("%s: %d supersteps", h.name, j.Supersteps()))
	}
	h.show(j.Profile)
}

// CompareFrames shows the Frame Views of several jobs side by side, in one
// row, on one scale: the circle is the busiest frame's traffic between units
// over all the jobs, and arc thickness the largest self traffic, so a frame
// or job with less traffic between units draws less of the circle. One
// slider moves every diagram to the same frame. A job that keeps more
// traffic inside its units draws smaller ribbons and thicker arcs. The jobs
// should run on the same cluster.
func CompareFrames(opt profile.Options, jobs ...*Job) display.Renderer {
	datas := make([]views.ChordData, len(jobs))
	captions := make([]string, len(jobs))
	for i, j := range jobs {
		d, err := j.ChordData(opt)
		if err != nil {
			return display.TextBundle(err.Error())
		}
		datas[i] = d
		captions[i] = j.Profile.Job
	}
	return views.CompareChords(captions, datas...)
}

// graphSummary is a graph's size in the few words a panel row holds.
func graphSummary(g *graph.Graph) string {
	if g == nil {
		return "no graph"
	}
	kind := "undirected"
	if g.Directed() {
		kind = "directed"
	}
	return fmt.Sprintf("%d vertices, %d edges, %s", g.NumVertices(), g.NumEdges(), kind)
}
