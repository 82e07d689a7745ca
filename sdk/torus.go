package sdk

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/algo/hilbert"
	"superstep/display/views"
	"superstep/sdk/table"
	"superstep/topology/torus"
)

// TorusOptions say what a torus ring (Torus) shows.
type TorusOptions struct {
	Title string
	// Order puts the nodes on the ring: "hilbert" (the default; the
	// compact Hilbert order of algo/hilbert), "rowmajor" (node ids, the
	// first coordinate fastest) or "rowmajor-last" (the last coordinate
	// fastest), the 2014 tool's baselines.
	Order string
	// Blocks are the block levels (block counts) the view switches
	// between; empty means 4, 8 and 16 (those not above the node count).
	Blocks []int
	// Level is the block count shown first; 0 means 8 if Blocks has it,
	// else the first level.
	Level int
	// Regions are the regions shown, one frame per (region, phase), in
	// this order; empty means every region of the traffic, in ascending
	// order (so Boxfish's whole run, −2, comes first).
	Regions []int
	// LinkMode is the direction the marks show first: "sum" (default),
	// "plus", "minus" or "average" (Boxfish's modes).
	LinkMode string
	// Tracks are the dimensions whose coordinates ring the disk, first
	// innermost; empty means every dimension of extent > 1, in order.
	Tracks []string
	// Nodes is a node-counter table (torus.NodeFields, then counters) and
	// NodeColor the counter that colours the nodes; both optional.
	Nodes     arrow.Table
	NodeColor string
	// ColorByDimension colours channels by dimension instead of by block
	// class (intra-block, adjacent blocks, far block pairs).
	ColorByDimension bool
	// Route routes node-pair traffic (dimension order, ties).
	Route torus.RouteOptions
	// ScaleMax, when positive, is the least number of packets the link
	// widths and mark sizes scale to (views.RingGraphData.ScaleMax): give
	// rings shown side by side one ScaleMax (at least each one's busiest
	// link) to put them on one scale. 0: each ring its own busiest link.
	ScaleMax float64
}

// TorusOrder returns the nodes of t in ring order ("hilbert",
// "rowmajor" or "rowmajor-last", as TorusOptions.Order): order[r] is the
// node at rank r.
func TorusOrder(t *torus.Torus, name string) ([]int, error) {
	if t == nil {
		return nil, fmt.Errorf("sdk: TorusOrder: no torus")
	}
	switch name {
	case "", "hilbert":
		return hilbert.Order(t.Extents())
	case "rowmajor":
		return hilbert.RowMajorFirst(t.Extents())
	case "rowmajor-last":
		return hilbert.RowMajorLast(t.Extents())
	}
	return nil, fmt.Errorf("sdk: torus order %q: want hilbert, rowmajor or rowmajor-last", name)
}

// torusOrderNote says how TorusOrder put t's nodes on the ring (name as
// TorusOptions.Order), the shape the Hilbert curve was padded to, and the
// order's jumps: consecutive nodes more than one hop apart, and the
// closing step from the last node to the first when it is one.
func torusOrderNote(t *torus.Torus, name string, order []int) (string, error) {
	jumps, err := hilbert.Jumps(t, order)
	if err != nil {
		return "", fmt.Errorf("sdk: Torus: %w", err)
	}
	ext := t.Extents()
	shape := func(e []int) string {
		parts := make([]string, len(e))
		for i, k := range e {
			parts[i] = fmt.Sprint(k)
		}
		return strings.Join(parts, "×")
	}
	var s string
	switch name {
	case "", "hilbert":
		padded := make([]int, len(ext))
		for i, k := range ext {
			padded[i] = k
			if k > 1 {
				padded[i] = 1 << bits.Len(uint(k-1))
			}
		}
		s = "Hilbert order"
		if !slices.Equal(padded, ext) {
			s = fmt.Sprintf("Hilbert order of %s padded to %s", shape(ext), shape(padded))
		}
	case "rowmajor":
		s = "row-major order, first coordinate fastest"
	case "rowmajor-last":
		s = "row-major order, last coordinate fastest"
	}
	switch jumps {
	case 0:
		s += ": no jumps"
	case 1:
		s += ": 1 jump"
	default:
		s += fmt.Sprintf(": %d jumps", jumps)
	}
	if n := len(order); n > 2 {
		if hops := t.Dist(order[n-1], order[0]); hops > 1 {
			s += fmt.Sprintf(", and the ring closes over %d hops", hops)
		}
	}
	return s, nil
}

// torusFrames lists the (region, phase) frames of traffic, restricted to
// regions in the given order.
func torusFrames(traffic arrow.Table, regions []int) ([]torus.RegionPhase, error) {
	if traffic == nil {
		return nil, nil
	}
	all, err := torus.Regions(traffic)
	if err != nil {
		return nil, err
	}
	if len(regions) == 0 {
		return all, nil
	}
	var out []torus.RegionPhase
	for _, r := range regions {
		n := len(out)
		for _, rp := range all {
			if rp.Region == r {
				out = append(out, rp)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("sdk: the traffic has no region %d (it has %s)", r, regionList(all))
		}
	}
	return out, nil
}

func regionList(rps []torus.RegionPhase) string {
	var rs []string
	for i, rp := range rps {
		if i == 0 || rps[i-1].Region != rp.Region {
			rs = append(rs, fmt.Sprint(rp.Region))
		}
	}
	if len(rs) == 0 {
		return "no region"
	}
	return "regions " + strings.Join(rs, ", ")
}

// frameLabel names a frame: "whole run" for region −2, "region r" (and
// "phase p" when the region has several).
func frameLabel(rp torus.RegionPhase, phases int) string {
	s := fmt.Sprintf("region %d", rp.Region)
	if rp.Region == torus.WholeRun {
		s = "whole run (region −2)"
	}
	if phases > 1 {
		s += fmt.Sprintf(", phase %d", rp.Phase)
	}
	return s
}

// TorusLoads returns the packets on every channel of t in one selection
// of traffic: a channel-counter table is summed, a node-pair table routed
// (dimension order, route's options).
func TorusLoads(t *torus.Torus, traffic arrow.Table, sel torus.Selection, route torus.RouteOptions) ([]int64, error) {
	if t == nil || traffic == nil {
		return nil, fmt.Errorf("sdk: TorusLoads: no torus or no traffic")
	}
	if traffic.Schema().Metadata().FindKey(torus.MetaKind) >= 0 {
		md := traffic.Schema().Metadata()
		if kind := md.Values()[md.FindKey(torus.MetaKind)]; kind == torus.KindPairs {
			return torus.RoutePairs(t, traffic, sel, route)
		}
	} else if len(traffic.Schema().FieldIndices(torus.ColSrc)) > 0 {
		return torus.RoutePairs(t, traffic, sel, route)
	}
	return torus.ChannelLoads(t, traffic, sel)
}

// TorusTotals returns one row per (region, phase, dimension) of traffic
// (a channel-counter or node-pair table): the dimension's packets, its "+"
// and "−" shares, its channels, the idle ones and its busiest channel's
// load. Regions are never added up: each row is one measurement.
func TorusTotals(t *torus.Torus, traffic arrow.Table) (arrow.Table, error) {
	frames, err := torusFrames(traffic, nil)
	if err != nil {
		return nil, fmt.Errorf("sdk: TorusTotals: %w", err)
	}
	if t == nil {
		return nil, fmt.Errorf("sdk: TorusTotals: no torus")
	}
	var rows []torusTotalsRow
	for _, rp := range frames {
		loads, err := TorusLoads(t, traffic, torus.Selection{Regions: []int{rp.Region}, Phases: []int{rp.Phase}}, torus.RouteOptions{})
		if err != nil {
			return nil, fmt.Errorf("sdk: TorusTotals: %w", err)
		}
		m, err := torus.Measure(t, loads)
		if err != nil {
			return nil, err
		}
		dimMax := make([]int64, t.Dims())
		for id, l := range loads {
			d := t.Channel(id).Dim
			dimMax[d] = max(dimMax[d], l)
		}
		for d, name := range m.Names {
			if m.Channels[d] == 0 {
				continue
			}
			rows = append(rows, torusTotalsRow{rp.Region, rp.Phase, name, m.Dim[d], m.Plus[d], m.Minus[d], m.Channels[d], m.Idle[d], dimMax[d]})
		}
	}
	return torusTotalsTable(rows), nil
}

type torusTotalsRow struct {
	region, phase int
	dim           string
	packets       int64
	plus, minus   int64
	channels      int
	idle          int
	max           int64
}

func torusTotalsTable(rows []torusTotalsRow) arrow.Table {
	fields := []arrow.Field{
		{Name: "region", Type: arrow.PrimitiveTypes.Int32},
		{Name: "phase", Type: arrow.PrimitiveTypes.Int32},
		{Name: "dim", Type: arrow.BinaryTypes.String},
		{Name: "packets", Type: arrow.PrimitiveTypes.Int64},
		{Name: "plus", Type: arrow.PrimitiveTypes.Int64},
		{Name: "minus", Type: arrow.PrimitiveTypes.Int64},
		{Name: "channels", Type: arrow.PrimitiveTypes.Int32},
		{Name: "idle", Type: arrow.PrimitiveTypes.Int32},
		{Name: "max", Type: arrow.PrimitiveTypes.Int64},
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	for _, r := range rows {
		b.Field(0).(*array.Int32Builder).Append(int32(r.region))
		b.Field(1).(*array.Int32Builder).Append(int32(r.phase))
		b.Field(2).(*array.StringBuilder).Append(r.dim)
		b.Field(3).(*array.Int64Builder).Append(r.packets)
		b.Field(4).(*array.Int64Builder).Append(r.plus)
		b.Field(5).(*array.Int64Builder).Append(r.minus)
		b.Field(6).(*array.Int32Builder).Append(int32(r.channels))
		b.Field(7).(*array.Int32Builder).Append(int32(r.idle))
		b.Field(8).(*array.Int64Builder).Append(r.max)
	}
	t := table.FromBuilder(b)
	b.Release()
	return t
}

// Torus draws t's channels on a ring (Cheng et al. 2018): the nodes in
// Hilbert order (or a row-major baseline) around a disk ringed by one
// address track per dimension, each neighbour pair a curve bundled by
// the blocks its ends fall in and coloured by block class, its width
// growing with its packets (idle pairs thin and faint), a circle of area
// ∝ packets near the end that sends more (an arrow for one-way traffic),
// one frame per region and phase. traffic is a channel-counter or node-pair table; nil draws the
// topology alone (a cell cannot pass an untyped nil for an Arrow table,
// yaegi fails on it: pass torus.ChannelTable(t, nil) instead).
func Torus(t *torus.Torus, traffic arrow.Table, opt TorusOptions) (*views.RingGraphView, error) {
	d, err := torusRing(t, traffic, opt)
	if err != nil {
		return nil, err
	}
	return views.RingGraph(d), nil
}

// torusRing builds a torus ring's data.
func torusRing(t *torus.Torus, traffic arrow.Table, opt TorusOptions) (views.RingGraphData, error) {
	if t == nil {
		return views.RingGraphData{}, fmt.Errorf("sdk: Torus: no torus")
	}
	order, err := TorusOrder(t, opt.Order)
	if err != nil {
		return views.RingGraphData{}, err
	}
	n := t.Nodes()
	rank := hilbert.Ranks(order)
	note, err := torusOrderNote(t, opt.Order, order)
	if err != nil {
		return views.RingGraphData{}, err
	}
	d := views.RingGraphData{Title: opt.Title, GroupName: "dimension", GroupNames: t.Names(), ColorByGroup: opt.ColorByDimension, ScaleMax: opt.ScaleMax,
		OrderNote: note}
	if d.Title == "" {
		d.Title = t.String()
	}
	// Leaves: nodes by rank, labelled with their coordinates.
	names := t.Names()
	coord := make([]int, t.Dims())
	d.Leaves = make([]string, n)
	for r, v := range order {
		t.CoordInto(v, coord)
		parts := make([]string, len(coord))
		for i, x := range coord {
			parts[i] = fmt.Sprint(x)
		}
		d.Leaves[r] = fmt.Sprintf("node %d (%s)", v, strings.Join(parts, ","))
	}
	// Tracks: one per dimension of extent > 1 (or as asked).
	tracks := opt.Tracks
	if len(tracks) == 0 {
		for i, name := range names {
			if t.Extent(i) > 1 {
				tracks = append(tracks, name)
			}
		}
	}
	for _, name := range tracks {
		dim := t.Dim(name)
		if dim < 0 {
			return views.RingGraphData{}, fmt.Errorf("sdk: Torus: track %q: no such dimension (have %s)", name, strings.Join(names, ", "))
		}
		vals := make([]int, n)
		for r, v := range order {
			vals[r] = v / t.Stride(dim) % t.Extent(dim)
		}
		d.Tracks = append(d.Tracks, views.RingGraphTrack{Name: name, Values: vals})
	}
	// Levels.
	d.Levels = opt.Blocks
	if len(d.Levels) == 0 {
		for _, m := range []int{4, 8, 16} {
			if m <= n {
				d.Levels = append(d.Levels, m)
			}
		}
		if len(d.Levels) == 0 {
			d.Levels = []int{n}
		}
	}
	want := opt.Level
	if want == 0 {
		want = 8
	}
	if i := slices.Index(d.Levels, want); i >= 0 {
		d.Level = i
	} else if opt.Level != 0 {
		return views.RingGraphData{}, fmt.Errorf("sdk: Torus: level %d is not one of the block levels %v", opt.Level, d.Levels)
	}
	switch opt.LinkMode {
	case "", "sum":
		d.Mode = views.RingGraphSum
	case "plus", "+":
		d.Mode = views.RingGraphPlus
	case "minus", "-", "−":
		d.Mode = views.RingGraphMinus
	case "average":
		d.Mode = views.RingGraphAverage
	default:
		return views.RingGraphData{}, fmt.Errorf("sdk: Torus: link mode %q: want sum, plus, minus or average", opt.LinkMode)
	}
	// Links: one per neighbour pair, oriented so that A→B is the "+"
	// direction (for a wrap-around pair, from the last coordinate to 0).
	// fwd[c] / bwd[c] say which link a channel feeds and in which direction.
	pairs := t.Pairs()
	linkOf := make([]int32, t.Channels())
	forward := make([]bool, t.Channels())
	for k, p := range pairs {
		a, b := p.A, p.B
		if w, ok := t.Step(a, p.Dim, +1); !ok || w != b {
			a, b = b, a
		}
		d.Links = append(d.Links, views.RingGraphLink{A: rank[a], B: rank[b], Group: p.Dim})
		for _, end := range [2][2]int{{a, b}, {b, a}} {
			for _, dir := range [2]int{+1, -1} {
				if w, ok := t.Step(end[0], p.Dim, dir); ok && w == end[1] {
					if id, ok := t.ChannelID(end[0], p.Dim, dir); ok {
						linkOf[id] = int32(k)
						forward[id] = end[0] == a
					}
				}
			}
		}
	}
	// Frames.
	frames, err := torusFrames(traffic, opt.Regions)
	if err != nil {
		return views.RingGraphData{}, err
	}
	phases := map[int]int{}
	for _, rp := range frames {
		phases[rp.Region]++
	}
	colors, err := torusNodeColors(t, opt.Nodes, opt.NodeColor, order)
	if err != nil {
		return views.RingGraphData{}, err
	}
	if opt.NodeColor != "" {
		d.LeafValueName = opt.NodeColor
	}
	var summary strings.Builder
	for _, rp := range frames {
		loads, err := TorusLoads(t, traffic, torus.Selection{Regions: []int{rp.Region}, Phases: []int{rp.Phase}}, opt.Route)
		if err != nil {
			return views.RingGraphData{}, fmt.Errorf("sdk: Torus: %w", err)
		}
		f := views.RingGraphFrame{Label: frameLabel(rp, phases[rp.Region]), Forward: make([]float64, len(pairs)), Backward: make([]float64, len(pairs))}
		for id, l := range loads {
			if forward[id] {
				f.Forward[linkOf[id]] += float64(l)
			} else {
				f.Backward[linkOf[id]] += float64(l)
			}
		}
		if colors != nil {
			f.LeafValues = colors[rp]
		}
		d.Frames = append(d.Frames, f)
		if summary.Len() == 0 {
			m, err := torus.Measure(t, loads)
			if err != nil {
				return views.RingGraphData{}, err
			}
			if m.MaxChannel >= 0 {
				c := t.Channel(m.MaxChannel)
				fmt.Fprintf(&summary, "%s: busiest channel %v→%v (%s%s) with %d %s", f.Label, t.Coord(c.Node), t.Coord(c.To), names[c.Dim], map[int]string{1: "+", -1: "−"}[c.Dir], m.Max, "packets")
			}
		}
	}
	d.Summary = summary.String()
	return d, nil
}

// torusNodeColors reads one counter of a node table per (region, phase),
// in ring order.
func torusNodeColors(t *torus.Torus, nodes arrow.Table, column string, order []int) (map[torus.RegionPhase][]float64, error) {
	if column == "" {
		return nil, nil
	}
	if nodes == nil {
		return nil, fmt.Errorf("sdk: Torus: NodeColor %q needs a node table (TorusOptions.Nodes)", column)
	}
	fields := append(torus.NodeFields(), arrow.Field{Name: column, Type: arrow.PrimitiveTypes.Float64})
	cols, err := table.Read(nodes, fields)
	if err != nil {
		return nil, fmt.Errorf("sdk: Torus: node colours: %w", err)
	}
	rank := hilbert.Ranks(order)
	out := map[torus.RegionPhase][]float64{}
	for i, v := range cols[2].Ints {
		if v < 0 || int(v) >= t.Nodes() {
			return nil, fmt.Errorf("sdk: Torus: node colours: row %d: node %d outside 0..%d", i, v, t.Nodes()-1)
		}
		rp := torus.RegionPhase{Region: int(cols[0].Ints[i]), Phase: int(cols[1].Ints[i])}
		vals := out[rp]
		if vals == nil {
			vals = make([]float64, t.Nodes())
			out[rp] = vals
		}
		vals[rank[v]] += cols[3].Floats[i]
	}
	return out, nil
}
