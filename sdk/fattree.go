package sdk

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"
	"unicode/utf8"

	"superstep/display/views"
	"superstep/topology/fattree"
)

// fatTreeBoardWidth is the widest a board's rows of pods grow by default.
const fatTreeBoardWidth = 1100.0

// A tree of at most fatTreeLabelledPods pods of at most fatTreeLabelledL1
// L1 switches each names its L1 rows on the board.
const (
	fatTreeLabelledL1   = 4
	fatTreeLabelledPods = 8
)

// FatTreeOptions say what a fat-tree board shows.
type FatTreeOptions struct {
	Title string
	// Routing gives the jobs' footprints; nil means fattree.DModK.
	Routing fattree.Routing
	// Jobs fill the job table; their footprints and placements are
	// computed under Routing.
	Jobs []fattree.Job
	// Window limits the counters to the intervals ending in (From, To];
	// zero times mean the counters' first and last.
	Window [2]time.Time
	// Bins is the most time bins; 0 means views.MatrixBoardMaxBins
	// within the payload budget. Consecutive intervals are merged into
	// bins of equal length.
	Bins int
	// Maps, Threshold and Layout are the board's (views.MatrixBoardData),
	// but for a Threshold of 0: it outlines the top FatTreeHotShare of
	// the cells over the window (views.MatrixBoardData.HotShare), and a
	// negative Threshold outlines nothing.
	Maps      map[string]views.MatrixColorMap
	Threshold float64
	Layout    *views.MatrixBoardOptions
}

// FatTreeHotShare is the share of a fat-tree board's cells its default
// hotspot threshold outlines: the top 3 %.
const FatTreeHotShare = 0.03

// FatTree is TreeScope's matrix view of a fat-tree's port counters: one
// panel per pod (one for a two-level tree), its L1 switches as rows, a
// block per bundle whose columns are the pod's L2 switches of that bundle
// (left: links into the L2, right: links out of it) and whose lower rows
// are the bundle's L3 switches; a cell is one directed inter-switch link
// (the parallel cables between two switches together), coloured by its
// bytes over the window. Host links have no cell but count in the time
// chart and in their L1's bar. counters are Deltas' or Simulate's rows;
// a link without rows carried nothing. A link whose cable is missing
// (fattree.Fabric.Missing: Infer found none) is drawn grey and hatched,
// apart from idle links, and named so in the legend and its tooltip; a
// row giving it bytes is an error.
func FatTree(f *fattree.Fabric, counters []fattree.CounterRow, opt FatTreeOptions) (*views.MatrixBoardView, error) {
	d, err := fatTreeBoard(Context(), f, counters, opt)
	if err != nil {
		return nil, err
	}
	return views.MatrixBoard(d), nil
}

// fatTreeBoard builds the board's data.
func fatTreeBoard(ctx context.Context, f *fattree.Fabric, counters []fattree.CounterRow, opt FatTreeOptions) (views.MatrixBoardData, error) {
	if f == nil {
		return views.MatrixBoardData{}, fmt.Errorf("sdk: FatTree: no fabric")
	}
	d := views.MatrixBoardData{Title: opt.Title, Unit: "B", Maps: opt.Maps, Threshold: max(opt.Threshold, 0), Layout: opt.Layout,
		MissingName: "missing cable"}
	if opt.Threshold == 0 {
		d.HotShare = FatTreeHotShare
	}
	if d.Title == "" {
		d.Title = f.Spec.String()
	}
	for k := fattree.Kind(0); k < fattree.NumKinds; k++ {
		dir := "down"
		if k.Up() {
			dir = "up"
		}
		lo, hi := min(k.From(), k.To()), max(k.From(), k.To())
		d.Categories = append(d.Categories, views.MatrixCategory{Name: k.String(), Level: fmt.Sprintf("L%d–L%d", lo, hi), Direction: dir})
	}
	hdr := switchHeaderIDs(f)
	// Items: one per host link, one per directed switch pair.
	itemOf := make([]int, len(f.Links))
	pairItem := map[[2]int]int{}
	for id, l := range f.Links {
		if !l.Kind.Cell() {
			itemOf[id] = len(d.Items)
			it := views.MatrixItem{ID: fmt.Sprintf("l%d", id), Category: int(l.Kind)}
			if l.Kind.From() == 0 {
				it.Name = fmt.Sprintf("%s → %s", nodeName(f, l.From), f.Switches[l.To].Name)
				it.To = hdr[l.To]
			} else {
				it.Name = fmt.Sprintf("%s → %s", f.Switches[l.From].Name, nodeName(f, l.To))
				it.From = hdr[l.From]
			}
			it.Missing = f.Missing(id)
			d.Items = append(d.Items, it)
			continue
		}
		key := [2]int{l.From, l.To}
		if i, ok := pairItem[key]; ok {
			itemOf[id] = i
			continue
		}
		pairItem[key] = len(d.Items)
		itemOf[id] = len(d.Items)
		d.Items = append(d.Items, views.MatrixItem{ID: fmt.Sprintf("c%d", id), Category: int(l.Kind),
			Name: fmt.Sprintf("%s → %s", f.Switches[l.From].Name, f.Switches[l.To].Name), From: hdr[l.From], To: hdr[l.To]})
	}
	// A cell is missing when all of its parallel cables are; one that
	// lacks some says how many in its name.
	cables, gone := make([]int, len(d.Items)), make([]int, len(d.Items))
	for id, l := range f.Links {
		if l.Kind.Cell() {
			cables[itemOf[id]]++
			if f.Missing(id) {
				gone[itemOf[id]]++
			}
		}
	}
	for i := range d.Items {
		switch {
		case gone[i] == 0:
		case gone[i] == cables[i]:
			d.Items[i].Missing = true
		default:
			d.Items[i].Name += fmt.Sprintf(" (%d of %d cables missing)", gone[i], cables[i])
		}
	}
	d.Panels = fatTreePanels(f, hdr, d.Items, itemOf)
	if d.Layout == nil && len(d.Panels) > 0 {
		o := views.DefaultMatrixBoardOptions()
		if f.Spec.L1PerPod <= fatTreeLabelledL1 && len(d.Panels) <= fatTreeLabelledPods {
			// A small tree names its L1 switches left of their bars, on
			// rows 10 px apart: what a reader clicks is written there.
			o.Cell, o.TopBar = 9, 4 // bars of 36 px: the four pods of k = 4 stay within an output
			for _, p := range d.Panels {
				for _, h := range p.Top {
					// views' estimate of a 10 px sans-serif text: 0.58 em a glyph.
					o.RowLabels = max(o.RowLabels, math.Ceil(float64(utf8.RuneCountInString(h.ID))*10*0.58)+6)
				}
			}
		}
		// As many pods in a row as fit in a notebook's width.
		g, err := views.MatrixBoardLayout(views.MatrixBoardData{Panels: d.Panels[:1]}, o)
		if err == nil && g.W > 0 && (len(d.Panels) > 1 || o.RowLabels > 0) {
			o.PanelsPerRow = max(1, int((fatTreeBoardWidth+o.PanelGap)/(g.W+o.PanelGap)))
			d.Layout = &o
		}
	}

	bins, binOf, err := counterBins(counters, opt.Window, opt.Bins)
	if err != nil {
		return views.MatrixBoardData{}, err
	}
	d.Bins = bins
	d.Values = make([][]float32, len(d.Items))
	sums := make([][]float64, len(d.Items))
	for i := range sums {
		sums[i] = make([]float64, len(bins))
	}
	lastT, lastB, lastOK := int64(math.MinInt64), 0, false
	for _, r := range counters {
		// Rows come grouped by time: look the bin up once per time.
		if t := r.Time.Unix(); t != lastT {
			lastT = t
			lastB, lastOK = binOf[t]
		}
		b, ok := lastB, lastOK
		if !ok {
			continue
		}
		if r.Link < 0 || r.Link >= len(f.Links) {
			return views.MatrixBoardData{}, fmt.Errorf("sdk: FatTree: a counter row at %s names link %d; the fabric has %d", r.Time.UTC().Format(time.RFC3339), r.Link, len(f.Links))
		}
		if f.Missing(r.Link) && r.Bytes != 0 {
			return views.MatrixBoardData{}, fmt.Errorf("sdk: FatTree: a counter row at %s gives %d bytes to link %d (%s), whose cable is missing", r.Time.UTC().Format(time.RFC3339), r.Bytes, r.Link, d.Items[itemOf[r.Link]].Name)
		}
		sums[itemOf[r.Link]][b] += float64(r.Bytes)
	}
	for i, row := range sums {
		d.Values[i] = make([]float32, len(row))
		for b, v := range row {
			d.Values[i][b] = float32(v)
		}
	}

	r := opt.Routing
	if r == nil {
		r = fattree.DModK(f)
	}
	ends := endpointIDs(f)
	if n := len(f.Switches) * len(f.Nodes); n > views.MatrixRoutesPayload {
		d.RoutesNote = fmt.Sprintf("%d switches × %d nodes: the forwarding table is too large to ship with the board; draw routes from Go with sdk.FatTreeRoute or fattree.Route.", len(f.Switches), len(f.Nodes))
	} else {
		d.Routes = fatTreeRoutes(f, r, hdr, ends, itemOf)
	}
	if len(opt.Jobs) > 0 {
		for _, j := range opt.Jobs {
			sc, err := fattree.Footprint(ctx, f, r, j.Nodes)
			if err != nil {
				return views.MatrixBoardData{}, fmt.Errorf("sdk: FatTree: job %s: %w", j.ID, err)
			}
			mj := views.MatrixJob{ID: j.ID, Name: j.ID, Start: j.Start, End: j.End, Nodes: len(j.Nodes), Stacks: map[string]int{}}
			seen := map[int]bool{}
			for _, l := range sc.Links {
				if i := itemOf[l]; !seen[i] {
					seen[i] = true
					mj.Items = append(mj.Items, d.Items[i].ID)
				}
			}
			for _, s := range sc.Switches {
				mj.Headers = append(mj.Headers, hdr[s])
			}
			for _, n := range j.Nodes {
				if n >= 0 && n < len(f.Nodes) {
					mj.Stacks[hdr[f.Nodes[n].Switch]]++
					if d.Routes != nil {
						mj.Endpoints = append(mj.Endpoints, ends[n])
					}
				}
			}
			d.Jobs = append(d.Jobs, mj)
		}
	}
	return d, nil
}

// fatTreeRoutes is r as the board's forwarding table: the nodes are the
// endpoints, every switch forwards.
func fatTreeRoutes(f *fattree.Fabric, r fattree.Routing, hdr, ends []string, itemOf []int) *views.MatrixRoutes {
	rt := &views.MatrixRoutes{Headers: hdr, Next: make([][]int32, len(f.Switches))}
	for n, node := range f.Nodes {
		rt.Endpoints = append(rt.Endpoints, views.MatrixEndpoint{ID: ends[n], Header: hdr[node.Switch], In: fmt.Sprintf("l%d", node.Up)})
	}
	for sw, s := range f.Switches {
		row := make([]int32, len(f.Nodes))
		for n := range f.Nodes {
			row[n] = -1
			if p := r.Port(sw, n); p >= 1 && p <= len(s.Ports) && s.Ports[p-1].Out >= 0 {
				row[n] = int32(itemOf[s.Ports[p-1].Out])
			}
		}
		rt.Next[sw] = row
	}
	return rt
}

// endpointIDs names every node for the board's routes: its name, or with
// its index appended when two nodes share a name.
func endpointIDs(f *fattree.Fabric) []string {
	count := map[string]int{}
	for n := range f.Nodes {
		count[nodeName(f, n)]++
	}
	ids := make([]string, len(f.Nodes))
	for n := range f.Nodes {
		ids[n] = nodeName(f, n)
		if count[ids[n]] > 1 {
			ids[n] = fmt.Sprintf("%s#%d", ids[n], n)
		}
	}
	return ids
}

func nodeName(f *fattree.Fabric, n int) string {
	if name := f.Nodes[n].Name; name != "" {
		return name
	}
	return fmt.Sprintf("node %d", n)
}

// switchHeaderIDs names every switch for the board: its name, or with its
// id appended when two switches share a name.
func switchHeaderIDs(f *fattree.Fabric) []string {
	count := map[string]int{}
	for _, s := range f.Switches {
		count[s.Name]++
	}
	ids := make([]string, len(f.Switches))
	for i, s := range f.Switches {
		ids[i] = s.Name
		if s.Name == "" || count[s.Name] > 1 {
			ids[i] = fmt.Sprintf("%s#%d", s.Name, i)
		}
	}
	return ids
}

// fatTreePanels lays the fabric out as TreeScope does: a panel per pod,
// a block per bundle.
func fatTreePanels(f *fattree.Fabric, hdr []string, items []views.MatrixItem, itemOf []int) []views.MatrixPanel {
	s := f.Spec
	bundles := max(s.Bundles, 1)
	perBundle := s.L2PerPod / bundles
	panels := make([]views.MatrixPanel, s.Pods)
	header := func(sw int) views.MatrixHeader {
		return views.MatrixHeader{ID: hdr[sw], Category: f.Switches[sw].Level}
	}
	for p := range panels {
		pl := views.MatrixPanel{Label: fmt.Sprintf("pod %d", p)}
		for i := 0; i < s.L1PerPod; i++ {
			pl.Top = append(pl.Top, header(f.L1(p, i)))
		}
		for b := 0; b < bundles; b++ {
			blk := views.MatrixBlock{Label: fmt.Sprintf("bundle %d", b)}
			for m := b * perBundle; m < (b+1)*perBundle; m++ {
				blk.Columns = append(blk.Columns, header(f.L2(p, m)))
			}
			if s.Bundles > 0 {
				for j := 0; j < s.L3PerBundle; j++ {
					blk.Bottom = append(blk.Bottom, header(f.L3(b, j)))
				}
			}
			pl.Blocks = append(pl.Blocks, blk)
		}
		panels[p] = pl
	}
	placed := map[int]bool{}
	for id, l := range f.Links {
		if !l.Kind.Cell() || placed[itemOf[id]] {
			continue
		}
		placed[itemOf[id]] = true
		var l2, other int
		side := views.MatrixIn
		bottom := false
		switch l.Kind {
		case fattree.Up12:
			l2, other = l.To, l.From
		case fattree.Down21:
			l2, other, side = l.From, l.To, views.MatrixOut
		case fattree.Up23:
			l2, other, side, bottom = l.From, l.To, views.MatrixOut, true
		case fattree.Down32:
			l2, other, bottom = l.To, l.From, true
		}
		sw := f.Switches[l2]
		m := sw.Index
		c := views.MatrixCell{Item: items[itemOf[id]].ID, Category: int(l.Kind), Block: m / perBundle, Column: m % perBundle,
			Side: side, Bottom: bottom, Row: f.Switches[other].Index}
		panels[sw.Pod].Cells = append(panels[sw.Pod].Cells, c)
	}
	return panels
}

// counterBins groups the intervals of counters (each row stands for the
// interval ending at its Time) that end within window into at most n bins
// of equal numbers of intervals, and maps each interval's end (Unix
// seconds) to its bin.
func counterBins(counters []fattree.CounterRow, window [2]time.Time, n int) ([]views.MatrixBin, map[int64]int, error) {
	seen := map[int64]bool{}
	var ends []int64
	last := int64(math.MinInt64)
	for _, r := range counters {
		t := r.Time.Unix()
		if t == last {
			continue // rows come grouped by time
		}
		last = t
		if !window[0].IsZero() && t <= window[0].Unix() || !window[1].IsZero() && t > window[1].Unix() {
			continue
		}
		if !seen[t] {
			seen[t] = true
			ends = append(ends, t)
		}
	}
	slices.Sort(ends)
	binOf := map[int64]int{}
	if len(ends) == 0 {
		return nil, binOf, nil
	}
	if n <= 0 {
		n = views.MatrixBoardMaxBins
	}
	k := (len(ends) + n - 1) / n
	start := func(i int) int64 { // start of interval i
		if i > 0 {
			return ends[i-1]
		}
		if !window[0].IsZero() {
			return window[0].Unix()
		}
		if len(ends) > 1 {
			return ends[0] - (ends[1] - ends[0])
		}
		return ends[0]
	}
	var bins []views.MatrixBin
	for i := 0; i < len(ends); i += k {
		last := min(i+k, len(ends)) - 1
		for j := i; j <= last; j++ {
			binOf[ends[j]] = len(bins)
		}
		bins = append(bins, views.MatrixBin{Start: time.Unix(start(i), 0).UTC(), End: time.Unix(ends[last], 0).UTC()})
	}
	sort.SliceStable(bins, func(a, b int) bool { return bins[a].Start.Before(bins[b].Start) })
	return bins, binOf, nil
}
