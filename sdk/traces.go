package sdk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"superstep/display/views"
	"superstep/sdk/trace"
	"superstep/sdk/trace/ompimon"
)

// TimelineOptions say how Timeline draws a trace.
type TimelineOptions struct {
	Title string
	// From and To, in seconds since the trace's start, are the window
	// shown (both 0: the whole trace). The window is bundled anew at the
	// picture's resolution.
	From, To float64
	// Routing is "grid" (default), "hierarchy" or "straight"; Beta
	// straightens hierarchical routes (views.TimelineData).
	Routing string
	Beta    float64
	// Blend is "additive" (default) or "alpha"; Gain scales the light or
	// the coverage (0: automatic).
	Blend string
	Gain  float64
	// Bandwidth is the level-1 bandwidth in seconds; 0: BandwidthPx
	// pixels (default 3) at the picture's scale.
	Bandwidth   float64
	BandwidthPx float64
	// Width is the picture's width in px (0: 888).
	Width float64
	// NoRegions leaves the region intervals out of the background.
	NoRegions bool
}

// TraceTimelineData turns a trace into the data of a message timeline: one
// lane per process, one curve per message, and the region intervals as
// background in two classes, "MPI" (regions named MPI_…) and
// "application".
func TraceTimelineData(tr *trace.Trace, opts TimelineOptions) (views.TimelineData, error) {
	if tr == nil {
		return views.TimelineData{}, fmt.Errorf("sdk: Timeline: no trace")
	}
	t := tr
	if opts.From != 0 || opts.To != 0 {
		w, err := tr.Window(int64(opts.From*1e9), int64(opts.To*1e9))
		if err != nil {
			return views.TimelineData{}, fmt.Errorf("sdk: Timeline: %w", err)
		}
		t = w
	}
	d := views.TimelineData{
		Title: opts.Title, Routing: opts.Routing, Beta: opts.Beta, Blend: opts.Blend, Gain: opts.Gain,
		Bandwidth: opts.Bandwidth, BandwidthPx: opts.BandwidthPx, Width: opts.Width,
		Start: 0, End: float64(tr.DurationNS) / 1e9,
	}
	if opts.From != 0 || opts.To != 0 {
		d.Start, d.End = opts.From, opts.To
	}
	if d.Title == "" {
		d.Title = tr.Name
	}
	d.Lanes = processNames(t)
	n := len(t.Messages)
	d.From, d.To = make([]int32, n), make([]int32, n)
	d.Send, d.Recv, d.Bytes = make([]float64, n), make([]float64, n), make([]float64, n)
	for i, m := range t.Messages {
		d.From[i], d.To[i] = m.Src, m.Dst
		d.Send[i], d.Recv[i], d.Bytes[i] = float64(m.SendNS)/1e9, float64(m.RecvNS)/1e9, float64(m.Bytes)
	}
	if !opts.NoRegions && len(t.Regions) > 0 {
		d.ClassNames = []string{"application", "MPI"}
		mpi := make([]int32, len(t.RegionNames))
		for i, name := range t.RegionNames {
			if strings.HasPrefix(strings.ToUpper(name), "MPI_") {
				mpi[i] = 1
			}
		}
		k := len(t.Regions)
		d.IntervalLane, d.IntervalClass = make([]int32, k), make([]int32, k)
		d.IntervalFrom, d.IntervalTo = make([]float64, k), make([]float64, k)
		for i, r := range t.Regions {
			d.IntervalLane[i], d.IntervalClass[i] = r.Process, mpi[r.Region]
			d.IntervalFrom[i], d.IntervalTo[i] = float64(r.EnterNS)/1e9, float64(r.LeaveNS)/1e9
		}
	}
	return d, nil
}

// Timeline draws a trace's messages over time, bundled (paper 003; see
// views.Timeline): lanes are processes, curves run green (sender) to red
// (receiver), the background shows where processes were in MPI. Its
// Window method re-bundles a zoomed window.
//
// It bundles and draws under ctx (seconds for millions of messages: pass
// sdk.Context() in a cell, so ■ stops it); showing the view afterwards
// only encodes the picture.
func Timeline(ctx context.Context, tr *trace.Trace, opts TimelineOptions) (*views.TimelineView, error) {
	d, err := TraceTimelineData(tr, opts)
	if err != nil {
		return nil, err
	}
	return views.Timeline(ctx, d)
}

// processNames are the labels of a trace's processes in every view:
// rank first, the full name after it (trace.Trace.ProcessLabels).
func processNames(tr *trace.Trace) []string { return tr.ProcessLabels() }

// CommMatrix is the communication matrix of a trace (Vampir's, paper
// 003's Fig. 8): senders as rows, receivers as columns, coloured by
// metric: "messages" (default), "bytes" or "bandwidth" (bytes over the
// time messages spent in transfer).
func CommMatrix(tr *trace.Trace, metric string) (*views.MatrixView, error) {
	if tr == nil {
		return nil, fmt.Errorf("sdk: CommMatrix: no trace")
	}
	return pairMatrix(tr.Name, processNames(tr), tr.Pairs(), metric)
}

// MonitoringMatrix is the communication matrix of Open MPI's monitoring
// files (pml_monitoring, read by sdk/trace/ompimon): the external
// point-to-point messages or bytes per pair of ranks (metric "messages"
// or "bytes"; the files hold no times, so no bandwidth).
func MonitoringMatrix(title string, data *ompimon.Data, metric string) (*views.MatrixView, error) {
	if data == nil {
		return nil, fmt.Errorf("sdk: MonitoringMatrix: no monitoring data")
	}
	if metric == "bandwidth" {
		return nil, fmt.Errorf("sdk: MonitoringMatrix: monitoring files hold no times, so no bandwidth (use messages or bytes)")
	}
	return pairMatrix(title, rankNames(data.Ranks), MonitoringPairs(data), metric)
}

// MonitoringPairs are the external point-to-point totals of Open MPI's
// monitoring files as trace pairs (no transfer times).
func MonitoringPairs(data *ompimon.Data) []trace.Pair {
	var out []trace.Pair
	for _, p := range data.Pairs() {
		if p.ExtMsgs == 0 && p.ExtBytes == 0 {
			continue
		}
		out = append(out, trace.Pair{Src: int32(p.Src), Dst: int32(p.Dst), Messages: int64(p.ExtMsgs), Bytes: int64(p.ExtBytes)})
	}
	return out
}

func rankNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("rank %d", i)
	}
	return names
}

func pairMatrix(title string, names []string, pairs []trace.Pair, metric string) (*views.MatrixView, error) {
	if metric == "" {
		metric = "messages"
	}
	m, err := trace.ParseMetric(metric)
	if err != nil {
		return nil, fmt.Errorf("sdk: communication matrix: %w", err)
	}
	d := views.MatrixData{Title: title, Rows: names, Cols: names, ValueName: m.String()}
	switch m {
	case trace.Bytes:
		d.Unit = "B"
	case trace.Bandwidth:
		d.Unit, d.ValueName = "B/s", "bandwidth"
	}
	for _, p := range pairs {
		if v := p.Value(m); v > 0 {
			d.Cells = append(d.Cells, views.MatrixEntry{Row: p.Src, Col: p.Dst, Value: v})
		}
	}
	return views.Matrix(d), nil
}

// TraceJob turns a trace into a Job whose profile is the trace in time
// bins of bin (trace.ToProfile: bins as frames, processes as workers,
// hosts from the trace), so the job views (Trend, Frames, Dashboard,
// ClusterView) show an MPI run. It has no graph and no vertex values.
func TraceJob(tr *trace.Trace, bin time.Duration) (*Job, error) {
	if tr == nil {
		return nil, fmt.Errorf("sdk: TraceJob: no trace")
	}
	p, err := tr.ToProfile(int64(bin))
	if err != nil {
		return nil, fmt.Errorf("sdk: TraceJob: %w", err)
	}
	return &Job{Profile: p}, nil
}

// SenderReceiver draws who sends to whom (paper 003's sender/receiver
// diagram, Fig. 10): senders on the left, receivers on the right, one
// bundled curve per pair routed through an 8×8 grid, coloured by sender.
func SenderReceiver(tr *trace.Trace) (*views.SenderReceiverView, error) {
	if tr == nil {
		return nil, fmt.Errorf("sdk: SenderReceiver: no trace")
	}
	return PairsSenderReceiver(tr.Name, processNames(tr), tr.Pairs())
}

// PairsSenderReceiver is SenderReceiver of pair totals (a trace's Pairs,
// or MonitoringPairs of Open MPI's monitoring files) between named units.
func PairsSenderReceiver(title string, names []string, pairs []trace.Pair) (*views.SenderReceiverView, error) {
	d := views.SenderReceiverData{Title: title, Units: names}
	d.Src, d.Dst, d.Weight, d.Bytes = pairColumns(pairs)
	return views.SenderReceiver(d), nil
}

// CommChord draws a trace's pairs as bundled lines on a circle (paper 003,
// Fig. 9): one line per ordered pair, green at the sender, red at the
// receiver, added up, so pairs talking both ways turn yellow-brown; the
// processes are grouped by host when the trace names hosts.
func CommChord(tr *trace.Trace) (*views.ChordLinesView, error) {
	if tr == nil {
		return nil, fmt.Errorf("sdk: CommChord: no trace")
	}
	return PairsChord(tr.Name, processNames(tr), hostsOf(tr), tr.Pairs())
}

// PairsChord is CommChord of pair totals between named units; hosts, if
// not nil, names each unit's group (consecutive units of one host form a
// group).
func PairsChord(title string, names, hosts []string, pairs []trace.Pair) (*views.ChordLinesView, error) {
	d := views.ChordLinesData{Title: title}
	for i, n := range names {
		d.Units = append(d.Units, views.Unit{ID: fmt.Sprint(i), Name: n})
	}
	if hosts != nil {
		var ring views.Ring
		ring.Name = "host"
		for i := 0; i < len(hosts); {
			j := i
			for j < len(hosts) && hosts[j] == hosts[i] {
				j++
			}
			ring.Groups = append(ring.Groups, views.RingGroup{ID: "host:" + hosts[i], Name: hosts[i], First: i, Last: j - 1})
			i = j
		}
		if len(ring.Groups) > 1 && len(ring.Groups) < len(names) {
			d.Rings = []views.Ring{ring}
		}
	}
	d.Src, d.Dst, d.Weight, d.Bytes = pairColumns(pairs)
	return views.ChordLines(d), nil
}

func hostsOf(tr *trace.Trace) []string {
	hosts := make([]string, len(tr.Processes))
	for i, p := range tr.Processes {
		if p.Host == "" {
			return nil
		}
		hosts[i] = p.Host
	}
	return hosts
}

func pairColumns(pairs []trace.Pair) (src, dst []int32, weight, bytes []float64) {
	for _, p := range pairs {
		src, dst = append(src, p.Src), append(dst, p.Dst)
		weight, bytes = append(weight, float64(p.Messages)), append(bytes, float64(p.Bytes))
	}
	return
}
