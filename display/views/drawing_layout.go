package views

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"superstep/display"
)

// drawingLayout is everything Go computes for a drawing; the static
// picture, the SVG, the live spec and Positions all read it.
type drawingLayout struct {
	n          int
	w, h       float64 // the plot area, px
	r          float64 // node radius, px
	x, y       []float64
	rank       []int32  // group rank per node, largest group 0 (nil without groups)
	groupIDs   []int32  // rank → group id
	groupSizes []int    // rank → nodes
	groupName  string   // "group", "community", …
	colored    int      // groups with a colour of their own (ranks 0..colored-1)
	colors     []string // colour of rank r: colors[min(r, len-1)] (the last grey if some are)
	order      []int32  // node drawing order: by rank, largest group last
	legendRows [][]legendEntry
	edges      []int32 // the drawn edges, as pairs of node indices
	drawable   int     // edges that could be drawn (no self-loops)
	opacity    float64 // of the edges
	big        bool
	frame      Frame // in the data's units (Outside: nodes beyond the plot)
}

// drawingRadius is the automatic node radius for n nodes: about a fifth of
// the spacing of n nodes spread evenly over a 640×480 picture, within 1–5 px.
func drawingRadius(n int) float64 {
	if n <= 0 {
		return 5
	}
	return math.Round(math.Max(1, math.Min(5, 0.18*math.Sqrt(drawingWidth*480/float64(n))))*100) / 100
}

// FitPositions maps positions into a width×height box, keeping the aspect
// ratio: the positions' bounding box is scaled uniformly to fit inside the
// box less margin on every side, and centred. A single point (or all points
// equal) lands in the centre. Non-finite coordinates stay NaN.
func FitPositions(x, y []float64, width, height, margin float64) (fx, fy []float64) {
	return fitBox(x, y, boundingBox(x, y), width, height, margin)
}

// Frame is the part of the plane a drawing shows, in the positions' own
// units, and how many positions lie outside it.
type Frame struct {
	X0, Y0, X1, Y1 float64
	Outside        int
}

// FrameOf is the frame a drawing of positions x, y is framed on: the
// vertices, not their extremes. It is the bounding box, unless a few
// positions lie far from all others, which would shrink the drawing to a
// dot: when the bounding box has more than twice the area of the box of
// the central 99% of the positions (the 0.5th to the 99.5th percentile of
// x, and of y) grown by a tenth on every side, the frame is that grown box
// and the positions beyond it are counted in Outside (they are cut off in
// the static picture, and the caption says how many; the live view zooms
// out to them). A cloud with Gaussian tails is framed whole; a real
// social graph's few far vertices are not (Facebook's frame would be five
// times larger with them). A small set of positions (under 200) is always
// framed whole. Non-finite coordinates are ignored.
func FrameOf(x, y []float64) Frame {
	b := boundingBox(x, y)
	var xs, ys []float64
	for i := range min(len(x), len(y)) {
		if finite(x[i]) && finite(y[i]) {
			xs, ys = append(xs, x[i]), append(ys, y[i])
		}
	}
	if len(xs) < 200 {
		return b
	}
	slices.Sort(xs)
	slices.Sort(ys)
	k := len(xs) / 200 // the 0.5th percentile's rank
	x0, x1, y0, y1 := xs[k], xs[len(xs)-1-k], ys[k], ys[len(ys)-1-k]
	gx, gy := (x1-x0)/10, (y1-y0)/10
	c := Frame{X0: x0 - gx, X1: x1 + gx, Y0: y0 - gy, Y1: y1 + gy}
	if (b.X1-b.X0)*(b.Y1-b.Y0) <= 2*(c.X1-c.X0)*(c.Y1-c.Y0) {
		return b // the extremes are near: frame them all
	}
	for i := range min(len(x), len(y)) {
		if !finite(x[i]) || !finite(y[i]) {
			continue
		}
		if x[i] < c.X0 || x[i] > c.X1 || y[i] < c.Y0 || y[i] > c.Y1 {
			c.Outside++
		}
	}
	return c
}

// boundingBox is the bounding box of the finite positions.
func boundingBox(x, y []float64) Frame {
	b := Frame{X0: math.Inf(1), X1: math.Inf(-1), Y0: math.Inf(1), Y1: math.Inf(-1)}
	for i := range min(len(x), len(y)) {
		if finite(x[i]) && finite(y[i]) {
			b.X0, b.X1 = math.Min(b.X0, x[i]), math.Max(b.X1, x[i])
			b.Y0, b.Y1 = math.Min(b.Y0, y[i]), math.Max(b.Y1, y[i])
		}
	}
	return b
}

// fitBox maps positions into a width×height box less margin on every side,
// frame f scaled uniformly to fit and centred; positions outside f land
// outside the box.
func fitBox(x, y []float64, f Frame, width, height, margin float64) (fx, fy []float64) {
	n := min(len(x), len(y))
	fx, fy = make([]float64, n), make([]float64, n)
	x0, x1, y0, y1 := f.X0, f.X1, f.Y0, f.Y1
	iw, ih := math.Max(0, width-2*margin), math.Max(0, height-2*margin)
	s := 0.0
	switch dx, dy := x1-x0, y1-y0; {
	case dx > 0 && dy > 0:
		s = math.Min(iw/dx, ih/dy)
	case dx > 0:
		s = iw / dx
	case dy > 0:
		s = ih / dy
	}
	ox := margin + (iw-s*(x1-x0))/2
	oy := margin + (ih-s*(y1-y0))/2
	for i := range n {
		if !finite(x[i]) || !finite(y[i]) {
			fx[i], fy[i] = math.NaN(), math.NaN()
			continue
		}
		fx[i] = ox + s*(x[i]-x0)
		fy[i] = oy + s*(y[i]-y0)
	}
	return fx, fy
}

// drawingHeight is the plot height for frame f in a plot of width w with
// margin m: the aspect ratio, within bounds.
func drawingHeight(f Frame, w, m float64) float64 {
	dx, dy := f.X1-f.X0, f.Y1-f.Y0
	switch {
	case !(dx > 0) && !(dy > 0):
		return drawingMinHeight
	case !(dx > 0):
		return drawingMaxHeight
	}
	return math.Round(math.Max(drawingMinHeight, math.Min(drawingMaxHeight, (w-2*m)*dy/dx+2*m)))
}

// edgeKey is a hash of an edge's endpoints, the same for (u, v) and (v, u):
// the sampling order.
func edgeKey(u, v int32) uint64 {
	if u > v {
		u, v = v, u
	}
	z := uint64(uint32(u))<<32 | uint64(uint32(v))
	// splitmix64's finaliser
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// sampleEdges returns the indices of at most max edges to draw, in input
// order, and the number of edges that could be drawn (self-loops never
// are). Beyond max it keeps the edges with the smallest endpoint hashes: a
// deterministic sample that does not depend on the edges' order.
func sampleEdges(edges [][2]int32, max int) (keep []int, drawable int) {
	for k, e := range edges {
		if e[0] != e[1] {
			keep = append(keep, k)
		}
	}
	drawable = len(keep)
	if len(keep) <= max {
		return keep, drawable
	}
	if max <= 0 {
		return nil, drawable
	}
	keys := make([]uint64, len(keep))
	for i, k := range keep {
		keys[i] = edgeKey(edges[k][0], edges[k][1])
	}
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	limit := sorted[max-1]
	below, _ := slices.BinarySearch(sorted, limit) // keys under the limit: all kept
	ties := max - below                            // and this many equal to it, first come
	out := make([]int, 0, max)
	for i, k := range keep {
		if keys[i] < limit || keys[i] == limit && ties > 0 {
			if keys[i] == limit {
				ties--
			}
			out = append(out, k)
		}
	}
	return out, drawable
}

// layout computes the drawing; d must be valid.
func (d DrawingData) layout() drawingLayout {
	n := len(d.X)
	L := drawingLayout{n: n, w: drawingWidth, big: n >= DrawingCanvasNodes}
	L.r = d.NodeSize
	if L.r <= 0 || !finite(L.r) {
		L.r = drawingRadius(n)
	}
	m := math.Ceil(L.r) + 6
	L.frame = FrameOf(d.X, d.Y)
	L.h = drawingHeight(L.frame, L.w, m)
	fx, fy := fitBox(d.X, d.Y, L.frame, L.w, L.h, m)
	for i := range fx { // the numbers every form of the picture draws
		fx[i], fy[i] = math.Round(fx[i]*100)/100, math.Round(fy[i]*100)/100
	}
	L.x, L.y = fx, fy

	L.groupName = d.GroupName
	if L.groupName == "" {
		L.groupName = "group"
	}
	if d.Groups != nil {
		L.rankGroups(d.Groups, d.ColoredGroups)
	} else {
		L.colors = []string{drawingNodeColor}
	}
	// Drawing order: grey groups first, then the coloured ones, the
	// largest last (on top); nodes of one group in index order.
	L.order = make([]int32, n)
	for i := range L.order {
		L.order[i] = int32(i)
	}
	if L.rank != nil {
		slices.SortStableFunc(L.order, func(a, b int32) int { return int(L.rank[b]) - int(L.rank[a]) })
	}
	L.legendRows = L.legendLayout()

	limit := d.MaxEdges
	if limit <= 0 {
		limit = drawingMaxSVGEdges
		if L.big {
			limit = drawingMaxEdges
		}
	}
	keep, drawable := sampleEdges(d.Edges, limit)
	L.drawable = drawable
	L.edges = make([]int32, 0, 2*len(keep))
	for _, k := range keep {
		L.edges = append(L.edges, d.Edges[k][0], d.Edges[k][1])
	}
	// Fewer edges, stronger lines: a few hundred at half opacity, 200,000
	// at about an eighth.
	L.opacity = math.Round(math.Max(0.06, math.Min(0.5, 60/math.Sqrt(float64(max(len(keep), 1)))))*1000) / 1000
	return L
}

// colorOf is node i's fill.
func (L *drawingLayout) colorOf(i int) string {
	if L.rank == nil {
		return L.colors[0]
	}
	return L.colors[L.colorIndex(L.rank[i])]
}

// colorIndex is the colour of the group of the given rank.
func (L *drawingLayout) colorIndex(rank int32) int { return min(int(rank), len(L.colors)-1) }

// rankGroups orders the groups by size (largest first, ties by id), and
// gives the largest colored ones (default and at most
// drawingMaxColored) the Palette's colours, the others one grey.
func (L *drawingLayout) rankGroups(groups []int32, colored int) {
	size := map[int32]int{}
	for _, g := range groups {
		size[g]++
	}
	ids := make([]int32, 0, len(size))
	for g := range size {
		ids = append(ids, g)
	}
	slices.SortFunc(ids, func(a, b int32) int {
		if size[a] != size[b] {
			return size[b] - size[a]
		}
		return int(a) - int(b)
	})
	L.groupIDs = ids
	L.groupSizes = make([]int, len(ids))
	rankOf := make(map[int32]int32, len(ids))
	for r, g := range ids {
		rankOf[g] = int32(r)
		L.groupSizes[r] = size[g]
	}
	L.rank = make([]int32, len(groups))
	for i, g := range groups {
		L.rank[i] = rankOf[g]
	}
	if colored <= 0 || colored > drawingMaxColored {
		colored = drawingMaxColored
	}
	L.colored = min(colored, len(ids))
	L.colors = Palette(L.colored)
	if len(ids) > L.colored {
		L.colors = append(L.colors, drawingOtherColor)
	}
}

// legendEntry is one swatch of a drawing's legend.
type legendEntry struct {
	Color, Text string
	X           float64 // within its row
}

// legendLayout places the legend of the groups: one entry per coloured
// group ("community 17 · 812"), then one for the grey rest, in rows that
// fit the picture's width.
func (L *drawingLayout) legendLayout() [][]legendEntry {
	if L.rank == nil {
		return nil
	}
	var entries []legendEntry
	for r := 0; r < L.colored; r++ {
		entries = append(entries, legendEntry{Color: L.colors[r],
			Text: fmt.Sprintf("%s %d · %s", L.groupName, L.groupIDs[r], display.FormatNumber(float64(L.groupSizes[r])))})
	}
	if rest := len(L.groupIDs) - L.colored; rest > 0 {
		nodes := 0
		for _, s := range L.groupSizes[L.colored:] {
			nodes += s
		}
		entries = append(entries, legendEntry{Color: drawingOtherColor,
			Text: fmt.Sprintf("%s · %s", plural(rest, "other "+L.groupName), display.FormatNumber(float64(nodes)))})
	}
	var rows [][]legendEntry
	x := 0.0
	for _, e := range entries {
		w := 14 + textWidth(e.Text, smallFont) + 12
		if len(rows) == 0 || x+w > L.w-8 && x > 0 {
			rows = append(rows, nil)
			x = 0
		}
		e.X = x
		rows[len(rows)-1] = append(rows[len(rows)-1], e)
		x += w
	}
	return rows
}

// tip is node i's hover text: its label and group.
func (d DrawingData) tip(L *drawingLayout, i int) string {
	s := ""
	if d.Labels != nil {
		s = d.Labels[i]
	}
	if s == "" {
		s = "node " + strconv.Itoa(i)
	}
	if L.rank != nil {
		s += "\n" + L.groupName + " " + strconv.Itoa(int(d.Groups[i]))
	}
	return s
}

// caption says what the picture shows: nodes, edges (and whether sampled),
// groups.
func (d DrawingData) caption(L *drawingLayout) string {
	s := plural(L.n, "node")
	if len(d.Edges) > 0 {
		drawn := len(L.edges) / 2
		s += " · " + plural(len(d.Edges), "edge")
		if drawn < L.drawable {
			s += fmt.Sprintf(", %s drawn (sampled)", display.FormatNumber(float64(drawn)))
		}
	}
	if L.rank != nil {
		s += " · " + plural(len(L.groupIDs), L.groupName)
	}
	return s + outsideNote(L.frame.Outside, "node")
}

// outsideNote tells how many nodes (what: "node", "vertex") lie beyond a
// drawing's frame (see FrameOf).
func outsideNote(outside int, what string) string {
	if outside == 0 {
		return ""
	}
	return " · " + plural(outside, what) + " beyond the frame"
}

// plural is "1 node", "12,345 nodes", "3 communities", "2 vertices".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if what == "vertex" {
		return display.FormatNumber(float64(n)) + " vertices"
	}
	if strings.HasSuffix(what, "y") {
		return display.FormatNumber(float64(n)) + " " + what[:len(what)-1] + "ies"
	}
	return display.FormatNumber(float64(n)) + " " + what + "s"
}
