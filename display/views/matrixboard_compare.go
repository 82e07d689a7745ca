package views

import (
	"fmt"
	"math"
)

// CompareMatrixBoards shows boards a and b side by side on one colour
// scale, and a third board of their difference, b − a, coloured by a
// diverging map centred on 0 (red: b carried more; blue: less). The
// boards must have the same items (matched by ID) and bins; a's panels,
// categories and jobs lay out the difference. Every colour map of a and
// b without a forced domain gets the union of both boards' domains over
// their windows, so equal colours mean equal values; forced domains are
// kept. An item missing on either board (MatrixItem.Missing) is missing
// on the difference.
func CompareMatrixBoards(a, b MatrixBoardData) (RowView, error) {
	ma, err := newMatrixModel(a)
	if err != nil {
		return RowView{}, fmt.Errorf("views: compare matrix boards: board A: %w", err)
	}
	mb, err := newMatrixModel(b)
	if err != nil {
		return RowView{}, fmt.Errorf("views: compare matrix boards: board B: %w", err)
	}
	if len(a.Bins) != len(b.Bins) {
		return RowView{}, fmt.Errorf("views: compare matrix boards: A has %d bins, B %d", len(a.Bins), len(b.Bins))
	}
	common := map[string]MatrixColorMap{}
	for key, sa := range ma.scales {
		sb, ok := mb.scales[key]
		cm := a.Maps[key]
		if !ok || len(cm.Domain) > 0 || len(b.Maps[key].Domain) > 0 {
			continue
		}
		cm.Ramp = sa.Ramp.Name
		lo, hi := math.Min(sa.Min, sb.Min), math.Max(sa.Max, sb.Max)
		cm.Domain = []float64{lo, hi}
		if sa.Ramp.Diverging {
			cm.Domain = []float64{lo, (sa.Mid + sb.Mid) / 2, hi}
		}
		common[key] = cm
	}
	// A threshold by share is one threshold for both: the share of the
	// cells of A and B together.
	if a.Threshold <= 0 && b.Threshold <= 0 && a.HotShare > 0 && a.HotShare == b.HotShare {
		t := hotThreshold(append(ma.cellTotals(), mb.cellTotals()...), a.HotShare)
		a.Threshold, b.Threshold = t, t
		if t == 0 {
			a.HotShare, b.HotShare = 0, 0
		}
	}
	withMaps := func(d MatrixBoardData) MatrixBoardData {
		maps := map[string]MatrixColorMap{}
		for k, v := range d.Maps {
			maps[k] = v
		}
		for k, v := range common {
			if _, forced := maps[k]; !forced || len(maps[k].Domain) == 0 {
				maps[k] = v
			}
		}
		d.Maps = maps
		return d
	}
	diff := a
	diff.Title = "B − A"
	if a.Title != "" || b.Title != "" {
		diff.Title = fmt.Sprintf("%s − %s", orDefault(b.Title, "B"), orDefault(a.Title, "A"))
	}
	diff.Threshold, diff.HotShare = 0, 0
	// Routes belong to one routing: the difference board has none.
	if a.Routes != nil || b.Routes != nil {
		diff.Routes = nil
		diff.RoutesNote = "The difference board has no routing of its own: trace routes on board A or B."
		diff.Jobs = make([]MatrixJob, len(a.Jobs))
		for k, j := range a.Jobs {
			j.Endpoints = nil
			diff.Jobs[k] = j
		}
	}
	diff.Values = make([][]float32, len(a.Items))
	diff.Items = append([]MatrixItem(nil), a.Items...)
	bIndex := map[string]int{}
	for i, it := range b.Items {
		bIndex[it.ID] = i
	}
	for i, it := range a.Items {
		j, ok := bIndex[it.ID]
		if !ok {
			return RowView{}, fmt.Errorf("views: compare matrix boards: item %q of A is not on B", it.ID)
		}
		row := make([]float32, len(a.Bins))
		if b.Items[j].Missing {
			// Missing on either board: missing on the difference.
			diff.Items[i].Missing = true
		}
		for bin := range row {
			if !diff.Items[i].Missing {
				row[bin] = float32(mb.value(j, bin) - ma.value(i, bin))
			}
		}
		diff.Values[i] = row
	}
	if len(b.Items) != len(a.Items) {
		return RowView{}, fmt.Errorf("views: compare matrix boards: A has %d items, B %d", len(a.Items), len(b.Items))
	}
	// The difference's domain: symmetric around 0, as wide as the largest
	// difference of a cell over the window.
	md, err := newMatrixModel(diff)
	if err != nil {
		return RowView{}, fmt.Errorf("views: compare matrix boards: difference: %w", err)
	}
	m := 0.0
	for _, c := range md.cells {
		m = math.Max(m, math.Abs(md.total[c.item]))
	}
	if m == 0 {
		m = 1
	}
	diff.Maps = map[string]MatrixColorMap{}
	for key := range md.mapKeys() {
		diff.Maps[key] = MatrixColorMap{Ramp: "rdylbu", Domain: []float64{-m, 0, m}}
	}
	return Row(MatrixBoard(withMaps(a)), MatrixBoard(withMaps(b)), MatrixBoard(diff)), nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
