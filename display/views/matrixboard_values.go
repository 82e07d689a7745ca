package views

import (
	"fmt"
	"image/color"
	"math"
	"slices"
)

// matrixModel is a board ready to draw: its data checked and its bins
// merged to at most MaxBins, the layout, every cell's item, the window's
// totals and the colour scales. The static picture and the spec are both
// drawn from it, so they agree.
type matrixModel struct {
	d         MatrixBoardData
	opt       MatrixBoardOptions
	geo       MatrixBoardGeometry
	itemIndex map[string]int
	headers   []string // every header id of the board, in order of first appearance
	hdrIndex  map[string]int
	hdrCat    []int
	cells     []matrixCell
	window    [2]int
	total     []float64 // per item, over the window
	from, to  [][]int   // per header, the items leaving and entering it
	scales    map[string]ColorScale
	routes    *matrixRoutes // nil without MatrixBoardData.Routes
	// The strips around the board (fitTo): the width the picture keeps to
	// (0: none), the title strip's height, each legend entry's place
	// (below the board) and the legend strip's height.
	fit       float64
	titleH    float64
	legendPos map[string][2]float64
	legendH   float64
	// Fitted: the picture's width, the title's lines, and whether the
	// window's text has a line of its own.
	picW       float64
	titleLines []string
	winOwnLine bool
	hotKey     *[2]float64 // the hot outline's key, below the legend's top; nil without a threshold
	missingKey *[2]float64 // the missing cells' key, below the legend's top; nil without missing cells
}

type matrixCell struct {
	item  int
	panel int
	box   MatrixRect
}

func newMatrixModel(d MatrixBoardData) (*matrixModel, error) {
	m := &matrixModel{d: d, opt: DefaultMatrixBoardOptions(), itemIndex: map[string]int{}, hdrIndex: map[string]int{}}
	if d.Layout != nil {
		m.opt = *d.Layout
	}
	for i, c := range d.Categories {
		if c.Direction == "" || c.Direction == "in" || c.Direction == "out" {
			return nil, fmt.Errorf("category %d (%q): Direction must name a colour map other than \"in\" and \"out\", found %q", i, c.Name, c.Direction)
		}
	}
	for i, it := range d.Items {
		if it.ID == "" {
			return nil, fmt.Errorf("item %d has no ID", i)
		}
		if _, dup := m.itemIndex[it.ID]; dup {
			return nil, fmt.Errorf("item %q appears twice", it.ID)
		}
		if it.Category < 0 || it.Category >= len(d.Categories) {
			return nil, fmt.Errorf("item %q: category %d out of range (%d categories)", it.ID, it.Category, len(d.Categories))
		}
		m.itemIndex[it.ID] = i
	}
	for i, row := range d.Values {
		if i < len(d.Items) && d.Items[i].Missing {
			for b, v := range row {
				if v != 0 {
					return nil, fmt.Errorf("item %q is missing (no cable) but has value %v in bin %d", d.Items[i].ID, v, b)
				}
			}
		}
	}
	if len(d.Values) > len(d.Items) {
		return nil, fmt.Errorf("%d rows of values for %d items", len(d.Values), len(d.Items))
	}
	for i, row := range d.Values {
		if len(row) > len(d.Bins) {
			return nil, fmt.Errorf("item %q has %d values for %d bins", d.Items[i].ID, len(row), len(d.Bins))
		}
	}
	for b := 1; b < len(d.Bins); b++ {
		if d.Bins[b].Start.Before(d.Bins[b-1].Start) {
			return nil, fmt.Errorf("bin %d starts before bin %d: bins must be in time order", b, b-1)
		}
	}
	geo, err := MatrixBoardLayout(d, m.opt)
	if err != nil {
		return nil, err
	}
	m.geo = geo
	addHeader := func(h MatrixHeader) {
		if _, ok := m.hdrIndex[h.ID]; !ok {
			m.hdrIndex[h.ID] = len(m.headers)
			m.headers = append(m.headers, h.ID)
			m.hdrCat = append(m.hdrCat, h.Category)
		}
	}
	for p, panel := range d.Panels {
		for _, h := range panel.Top {
			addHeader(h)
		}
		for _, blk := range panel.Blocks {
			for _, h := range blk.Columns {
				addHeader(h)
			}
			for _, h := range blk.Bottom {
				addHeader(h)
			}
		}
		for i, c := range panel.Cells {
			it, ok := m.itemIndex[c.Item]
			if !ok {
				return nil, fmt.Errorf("panel %d: cell %q names no item", p, c.Item)
			}
			m.cells = append(m.cells, matrixCell{item: it, panel: p, box: geo.Panels[p].Cells[i].MatrixRect})
		}
	}
	m.from = make([][]int, len(m.headers))
	m.to = make([][]int, len(m.headers))
	for i, it := range d.Items {
		if h, ok := m.hdrIndex[it.From]; ok {
			m.from[h] = append(m.from[h], i)
		}
		if h, ok := m.hdrIndex[it.To]; ok {
			m.to[h] = append(m.to[h], i)
		}
	}
	for _, j := range d.Jobs {
		for _, id := range j.Items {
			if _, ok := m.itemIndex[id]; !ok {
				return nil, fmt.Errorf("job %q: item %q is not on the board", j.ID, id)
			}
		}
		for _, id := range j.Headers {
			if _, ok := m.hdrIndex[id]; !ok {
				return nil, fmt.Errorf("job %q: header %q is not on the board", j.ID, id)
			}
		}
		for id := range j.Stacks {
			if _, ok := m.hdrIndex[id]; !ok {
				return nil, fmt.Errorf("job %q: stack on header %q, which is not on the board", j.ID, id)
			}
		}
	}
	if m.routes, err = m.newMatrixRoutes(); err != nil {
		return nil, err
	}
	m.mergeBins()
	m.window = [2]int{0, len(m.d.Bins) - 1}
	if w := d.Window; w != [2]int{} && len(m.d.Bins) > 0 {
		if w[0] < 0 || w[1] < w[0] || w[1] >= len(d.Bins) {
			return nil, fmt.Errorf("window %v out of range: %d bins", w, len(d.Bins))
		}
		k := m.mergedBy(len(d.Bins))
		m.window = [2]int{w[0] / k, w[1] / k}
	}
	if len(m.d.Bins) == 0 {
		m.window = [2]int{0, -1}
	}
	m.total = m.sums(m.window)
	if m.d.Threshold <= 0 && m.d.HotShare > 0 {
		m.d.Threshold = hotThreshold(m.cellTotals(), m.d.HotShare)
	}
	m.scales = map[string]ColorScale{}
	for key := range m.mapKeys() {
		s, err := m.scaleFor(key)
		if err != nil {
			return nil, err
		}
		m.scales[key] = s
	}
	m.fitTo(0)
	return m, nil
}

// maxBins is how many bins the board ships.
func (m *matrixModel) maxBins() int {
	n := m.d.MaxBins
	if n <= 0 {
		n = MatrixBoardMaxBins
		if items := len(m.d.Items); items > 0 {
			n = min(n, max(1, MatrixBoardPayload/(4*items)))
		}
	}
	return n
}

// mergedBy is how many of n bins are merged into one.
func (m *matrixModel) mergedBy(n int) int {
	k := 1
	if mb := m.maxBins(); n > mb {
		k = (n + mb - 1) / mb
	}
	return k
}

// mergeBins merges runs of k bins when there are more than maxBins.
func (m *matrixModel) mergeBins() {
	n := len(m.d.Bins)
	k := m.mergedBy(n)
	if k == 1 {
		return
	}
	nb := (n + k - 1) / k
	bins := make([]MatrixBin, nb)
	for b := range bins {
		bins[b] = MatrixBin{Start: m.d.Bins[b*k].Start, End: m.d.Bins[min(n, (b+1)*k)-1].End}
	}
	vals := make([][]float32, len(m.d.Values))
	for i, row := range m.d.Values {
		out := make([]float32, nb)
		for b, v := range row {
			out[b/k] += v
		}
		vals[i] = out
	}
	m.d.Bins, m.d.Values = bins, vals
}

// value is item i's value in bin b; a value that is not finite counts as
// 0 (negative values are kept: a difference board has them).
func (m *matrixModel) value(i, b int) float64 {
	if i >= len(m.d.Values) || b >= len(m.d.Values[i]) {
		return 0
	}
	v := float64(m.d.Values[i][b])
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// sums is every item's total over bins w[0]..w[1], summed in float64 in
// bin order (the runtime sums the same way).
func (m *matrixModel) sums(w [2]int) []float64 {
	t := make([]float64, len(m.d.Items))
	for i := range t {
		for b := w[0]; b <= w[1]; b++ {
			t[i] += m.value(i, b)
		}
	}
	return t
}

// mapKeys are the colour maps the board uses: its cells' directions, and
// in and out for the bars.
func (m *matrixModel) mapKeys() map[string]bool {
	keys := map[string]bool{"in": true, "out": true}
	for _, c := range m.cells {
		keys[m.d.Categories[m.d.Items[c.item].Category].Direction] = true
	}
	return keys
}

// barValue is the value a bar half shows: the largest window total of its
// header's items leaving (Out) or entering (In) it; a whole bar, of both.
func (m *matrixModel) barValue(hdr int, side MatrixSide) float64 {
	v := 0.0
	if side != MatrixOut {
		for _, i := range m.to[hdr] {
			v = math.Max(v, m.total[i])
		}
	}
	if side != MatrixIn {
		for _, i := range m.from[hdr] {
			v = math.Max(v, m.total[i])
		}
	}
	return v
}

// mapValues are the values coloured by map key: the totals of the cells
// whose category has that direction, or the bar halves' values.
func (m *matrixModel) mapValues(key string) []float64 {
	var vs []float64
	switch key {
	case "in", "out":
		side := MatrixIn
		if key == "out" {
			side = MatrixOut
		}
		for _, p := range m.geo.Panels {
			for _, b := range p.Bars {
				if b.Side == side || b.Side == MatrixWhole {
					vs = append(vs, m.barValue(m.hdrIndex[b.ID], side))
				}
			}
		}
	default:
		for _, c := range m.cells {
			if m.d.Items[c.item].Missing {
				continue
			}
			if m.d.Categories[m.d.Items[c.item].Category].Direction == key {
				vs = append(vs, m.total[c.item])
			}
		}
	}
	return vs
}

// scaleFor is map key's scale over the window: its ramp, and its forced
// domain or one that follows the values: for a single-hue ramp from 0 (or
// the least value, if negative) to the largest, for a diverging one from
// the least to the largest with their mean in the middle.
func (m *matrixModel) scaleFor(key string) (ColorScale, error) {
	cm, ok := m.d.Maps[key]
	if !ok || cm.Ramp == "" {
		cm.Ramp = defaultMatrixMap(key)
	}
	r, err := RampByName(cm.Ramp)
	if err != nil {
		return ColorScale{}, fmt.Errorf("colour map %q: %w", key, err)
	}
	s := ColorScale{Ramp: r}
	switch len(cm.Domain) {
	case 0:
		s.Min, s.Mid, s.Max = autoDomain(m.mapValues(key))
		if !r.Diverging && s.Min > 0 {
			// A single-hue ramp starts at 0: white is "nothing".
			s.Min = 0
		}
	case 2:
		s.Min, s.Max = cm.Domain[0], cm.Domain[1]
		s.Mid = (s.Min + s.Max) / 2
	case 3:
		s.Min, s.Mid, s.Max = cm.Domain[0], cm.Domain[1], cm.Domain[2]
	default:
		return ColorScale{}, fmt.Errorf("colour map %q: a domain has 2 or 3 values, found %d", key, len(cm.Domain))
	}
	if !(s.Min <= s.Mid && s.Mid <= s.Max) {
		return ColorScale{}, fmt.Errorf("colour map %q: domain [%v %v %v] is not in order", key, s.Min, s.Mid, s.Max)
	}
	return s, nil
}

// autoDomain is the least, mean and largest of vs (zeros when empty).
func autoDomain(vs []float64) (lo, mid, hi float64) {
	if len(vs) == 0 {
		return 0, 0, 0
	}
	lo, hi = slices.Min(vs), slices.Max(vs)
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return lo, sum / float64(len(vs)), hi
}

// cellColor is the colour of cell c; a missing item's is matrixMissingFill.
func (m *matrixModel) cellColor(c matrixCell) color.RGBA {
	if m.d.Items[c.item].Missing {
		return matrixMissingRGBA()
	}
	key := m.d.Categories[m.d.Items[c.item].Category].Direction
	return m.scales[key].Color(m.total[c.item])
}

// barColor is the colour of a bar.
func (m *matrixModel) barColor(b MatrixBar) color.RGBA {
	key := "in"
	if b.Side == MatrixOut {
		key = "out"
	}
	return m.scales[key].Color(m.barValue(m.hdrIndex[b.ID], b.Side))
}

// cellTotals are the window totals of the board's cells that exist
// (missing items are left out).
func (m *matrixModel) cellTotals() []float64 {
	ts := make([]float64, 0, len(m.cells))
	for _, c := range m.cells {
		if !m.d.Items[c.item].Missing {
			ts = append(ts, m.total[c.item])
		}
	}
	return ts
}

// missingCells is the number of the board's cells whose item is missing.
func (m *matrixModel) missingCells() int {
	n := 0
	for _, c := range m.cells {
		if m.d.Items[c.item].Missing {
			n++
		}
	}
	return n
}

// hotThreshold is the least of totals that at most share of them reach
// (and that is positive), or 0 when there is none: ties at the top
// larger than the share outline nothing rather than a third of a
// uniform board.
func hotThreshold(totals []float64, share float64) float64 {
	ts := slices.Clone(totals)
	slices.Sort(ts)
	slices.Reverse(ts)
	k := int(math.Floor(share * float64(len(ts))))
	if k <= 0 {
		return 0
	}
	i := min(k, len(ts)) - 1
	// count(≥ ts[i]) is past the last total equal to ts[i]: while it is
	// more than k, step above the tie.
	for i >= 0 {
		j := i
		for j+1 < len(ts) && ts[j+1] == ts[i] {
			j++
		}
		if j+1 <= k {
			break
		}
		for i >= 0 && ts[i] == ts[j] {
			i--
		}
	}
	if i < 0 || !(ts[i] > 0) {
		return 0
	}
	return ts[i]
}

// hot reports whether item i's window total is at or above the threshold.
func (m *matrixModel) hot(i int) bool {
	return m.d.Threshold > 0 && m.total[i] >= m.d.Threshold && !m.d.Items[i].Missing
}

// matrixMissingRGBA is matrixMissingFill.
func matrixMissingRGBA() color.RGBA { return color.RGBA{0x9e, 0x9e, 0x9e, 0xff} }

func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
