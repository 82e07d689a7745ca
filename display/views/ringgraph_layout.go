package views

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"superstep/display"
)

// RingSpan is a radial span: a ring from radius Inner to Outer (px).
type RingSpan struct{ Inner, Outer float64 }

// RingGraphClass is the class of a block pair (and of its links).
type RingGraphClass uint8

const (
	// RingGraphIntra: both ends in one block.
	RingGraphIntra RingGraphClass = iota
	// RingGraphAdjacent: ends in ring-adjacent blocks b and b+1 mod m.
	RingGraphAdjacent
	// RingGraphFar: ends in two blocks not adjacent on the ring.
	RingGraphFar
)

func (c RingGraphClass) String() string {
	switch c {
	case RingGraphIntra:
		return "intra-block"
	case RingGraphAdjacent:
		return "adjacent blocks"
	}
	return "far pair"
}

// The class colours, close to those of Cheng et al.'s figures: purple
// inside a block, earth-yellow between ring-adjacent blocks, and for far
// block pairs orange, blue, green and pink (Tableau-like hues), then
// Palette's colour-blind-safe colours.
const (
	RingGraphIntraColor    = "#7b3294"
	RingGraphAdjacentColor = "#c2a04a"
)

// RingGraphFarColors are the first far pairs' colours, in order: orange,
// blue, green, pink.
var RingGraphFarColors = [...]string{"#f28e2b", "#4e79a7", "#59a14f", "#e377c2"}

// ringFarColors returns n far-pair colours: RingGraphFarColors, then
// Palette's muted colours without its sand and purple (too close to the
// adjacent and intra colours) while they last (7 more), else Palette(n−4).
func ringFarColors(n int) []string {
	out := make([]string, 0, n)
	for i := 0; i < n && i < len(RingGraphFarColors); i++ {
		out = append(out, RingGraphFarColors[i])
	}
	rest := n - len(out)
	if rest <= 0 {
		return out
	}
	if rest <= 7 {
		for _, c := range Palette(9) {
			if c != "#ddcc77" && c != "#aa4499" && len(out) < n {
				out = append(out, c)
			}
		}
		return out
	}
	return append(out, Palette(rest)...)
}

// RingGraphPair is a pair of blocks (Lo ≤ Hi) joined by at least one link.
type RingGraphPair struct {
	Lo, Hi int
	Links  int            // links joining them
	CX, CY float64        // bundle centre: the mean of the endpoint positions of those links
	Class  RingGraphClass // intra, adjacent or far
	Color  string         // its class colour (far pairs: one each)
}

// RingGraphLevel is one block level of a ring graph.
type RingGraphLevel struct {
	Blocks int
	// Starts[b] is block b's first leaf; Starts[Blocks] = N.
	Starts []int
	// Arcs[b] is block b's angle: from Starts[b]·2π/N to
	// Starts[b+1]·2π/N.
	Arcs []Interval
	// Uneven says that Blocks does not divide N: the first N mod Blocks
	// blocks are one leaf larger.
	Uneven bool
	// Caption says the block sizes, e.g. "4 blocks of 4 leaves" or "12
	// blocks of 42 or 43 leaves (12 does not divide 512: the first 8 are
	// one larger)".
	Caption string
	// Pairs are the block pairs joined by links, ordered by (Lo, Hi).
	Pairs []RingGraphPair
	// PairOf[k] is link k's index in Pairs.
	PairOf []int32
	// FarPairs is the number of far pairs (bundles between blocks not
	// adjacent on the ring).
	FarPairs int
}

// RingGraphGeometry is the layout of a ring graph, in px. Angles are in
// radians clockwise from 12 o'clock; a point at radius r and angle θ is
// (CX + r·sin θ, CY − r·cos θ), y downwards.
type RingGraphGeometry struct {
	Width, Height float64
	CX, CY        float64
	// Angles[i] is leaf i's angle, the middle of its cell: 2π(i+½)/N.
	Angles []float64
	// X[i], Y[i] is leaf i's position: at LinkRadius and Angles[i].
	X, Y       []float64
	LinkRadius float64
	// Tracks are the tracks' radial spans, innermost first.
	Tracks []RingSpan
	// LeafRing is the ring of leaf colour values, inside the tracks
	// (zero when no frame has leaf values).
	LeafRing RingSpan
	// BlockRing is the ring of the selected level's blocks, outside the
	// tracks; the block numbers sit at BlockLabelRadius.
	BlockRing        RingSpan
	BlockLabelRadius float64
	Levels           []RingGraphLevel
	Level            int // the selected level
	Beta             float64
	// MarkRadius is the radius of the largest mark (px); MarkMax[mode] is
	// the top of each mode's traffic scale: the largest link value of the
	// mode over all frames, or RingGraphData.ScaleMax when that is larger,
	// to 6 significant digits (as the runtime gets it). A link of that
	// value carries a mark of MarkRadius and is LinkMaxWidth wide.
	MarkRadius float64
	MarkMax    [4]float64
	// LinkWidth and LinkOpacity are the links' stroke: every link's
	// without frames, else the thinnest busy link's (load step 1). Busy
	// links widen in ringWidthSteps steps up to LinkMaxWidth (see
	// LinkStroke); idle links (value 0 in the mode) are IdleWidth wide at
	// IdleOpacity.
	LinkWidth, LinkOpacity float64
	LinkMaxWidth           float64
	IdleWidth, IdleOpacity float64
	// LegendTop is the y of the legend, below the circle.
	LegendTop float64
	// TitleLines are the title, wrapped to the width (their baselines 16
	// px apart from y 15); HeadY are the baselines of the frame-and-mode
	// line, or of its two halves ("frame …", "mode: …") when the longest
	// does not fit the width. The circle's square starts below them, at
	// CY − (Width − 40)/2.
	TitleLines []string
	HeadY      []float64
	a, b       []int32
}

const (
	ringWidth       = 640.0
	ringHeader      = 40.0
	ringBox         = 600.0 // the circle's square
	ringOuter       = 270.0 // outer radius of the block ring
	ringBlockWidth  = 8.0
	ringTrackMax    = 14.0
	ringTrackSep    = 1.0
	ringLeafWidth   = 8.0
	ringLegendRow   = 16.0
	ringCaptionBand = 18.0
	ringCaptionLine = 13.0 // each further line of a wrapped caption
	// ringMinWidth is the narrowest a ring is laid out for: three side
	// by side in a 900 px row.
	ringMinWidth = 240.0
	// Mark parameters: a mark sits at t = ringMarkT0 + ringMarkTSpan·u
	// from its end, u = ringHash(k)/2³² in [0, 1).
	ringMarkT0    = 0.2
	ringMarkTSpan = 0.2
	ringMarkMinR  = 0.75 // px, any mark of positive value
	ringArrowMinR = 1.5  // px
)

// RingGraphBlocks returns the first leaf of each of m consecutive blocks
// of n leaves, and n: blocks differ in size by at most 1, the first n mod m
// one larger. m must be in 1..n (else nil).
func RingGraphBlocks(n, m int) []int {
	if m < 1 || m > n {
		return nil
	}
	q, r := n/m, n%m
	s := make([]int, m+1)
	for b := 0; b <= m; b++ {
		s[b] = b*q + min(b, r)
	}
	return s
}

// blockOf returns each leaf's block given the starts.
func blockOf(starts []int) []int32 {
	n := starts[len(starts)-1]
	out := make([]int32, n)
	for b := 0; b+1 < len(starts); b++ {
		for i := starts[b]; i < starts[b+1]; i++ {
			out[i] = int32(b)
		}
	}
	return out
}

// ringClass is the class of the block pair lo ≤ hi of m blocks.
func ringClass(lo, hi, m int) RingGraphClass {
	switch {
	case lo == hi:
		return RingGraphIntra
	case hi-lo == 1 || lo == 0 && hi == m-1:
		return RingGraphAdjacent
	}
	return RingGraphFar
}

// ringHash is a 32-bit integer hash (Chris Wellons' "lowbias32"), the
// same in the runtime with Math.imul.
func ringHash(k uint32) uint32 {
	x := k
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// RingGraphMarkT is the curve parameter of link k's mark, counted from the
// end it is placed at: 0.2 + 0.2·u with u = lowbias32(k)/2³² — a
// deterministic offset in [0.2, 0.4) that keeps the marks of a bundle from
// sitting on one another.
func RingGraphMarkT(k int) float64 {
	return ringMarkT0 + ringMarkTSpan*float64(ringHash(uint32(k)))/(1<<32)
}

// RingGraphLayout computes a ring graph's geometry: leaf angles and
// positions, track spans, block arcs per level, each joined block pair's
// bundle centre per level, and what the marks are scaled by. d must be
// valid (its errors are returned).
func RingGraphLayout(d RingGraphData) (*RingGraphGeometry, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	n := len(d.Leaves)
	// The width: ringWidth, or the one the ring was fitted to. The circle's
	// square is the width less 20 px each side, the block ring 30 px
	// inside the square (room for the block numbers): at 640 px a square
	// of 600 and an outer radius of 270.
	width := ringWidth
	if d.width > 0 && finite(d.width) {
		width = math.Floor(math.Max(ringMinWidth, math.Min(ringWidth, d.width)))
	}
	box := width - (ringWidth - ringBox)
	outer := box/2 - (ringBox/2 - ringOuter)
	scale := box / ringBox
	header := ringHeader
	g := &RingGraphGeometry{Width: width, CX: width / 2, Beta: d.beta()}
	if d.Title != "" {
		g.TitleLines = wrapWordsFont(d.Title, width-8, boldFont)
	}
	y := 31 + 16*float64(max(len(g.TitleLines), 1)-1)
	g.HeadY = []float64{y}
	if textWidth(d.longestHead(), smallFont) > width-8 {
		g.HeadY = append(g.HeadY, y+13)
	}
	header += g.HeadY[len(g.HeadY)-1] - 31
	g.CY = header + box/2
	g.BlockRing = RingSpan{outer - ringBlockWidth, outer}
	g.BlockLabelRadius = outer + 12
	nt := len(d.Tracks)
	top := g.BlockRing.Inner - 3
	if nt > 0 {
		tw := math.Round(math.Min(ringTrackMax, 0.3*outer/float64(nt))*100) / 100
		r0 := top - float64(nt)*tw - float64(nt-1)*ringTrackSep
		for k := range nt {
			in := r0 + float64(k)*(tw+ringTrackSep)
			g.Tracks = append(g.Tracks, RingSpan{in, in + tw})
		}
		top = r0 - 2
	}
	if d.hasLeafValues() {
		g.LeafRing = RingSpan{top - ringLeafWidth, top}
		top -= ringLeafWidth + 2
	}
	g.LinkRadius = top - 1
	g.Angles, g.X, g.Y = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		th := 2 * math.Pi * (float64(i) + 0.5) / float64(n)
		g.Angles[i] = th
		g.X[i], g.Y[i] = pt(g.CX, g.CY, g.LinkRadius, th)
	}
	g.a, g.b = make([]int32, len(d.Links)), make([]int32, len(d.Links))
	for k, l := range d.Links {
		g.a[k], g.b[k] = int32(l.A), int32(l.B)
	}
	if n > 0 {
		for _, m := range d.levels() {
			g.Levels = append(g.Levels, g.level1(n, m))
		}
		g.Level = clampInt(d.Level, 0, len(g.Levels)-1)
	}
	// The traffic scale: the largest value of each mode over all frames,
	// at least ScaleMax.
	for f := range d.Frames {
		for k := range d.Links {
			fw, bw := d.weights(f, k)
			for m := RingGraphSum; m <= RingGraphAverage; m++ {
				g.MarkMax[m] = math.Max(g.MarkMax[m], ringValue(m, fw, bw))
			}
		}
	}
	for m := range g.MarkMax {
		if d.ScaleMax > 0 && finite(d.ScaleMax) {
			g.MarkMax[m] = math.Max(g.MarkMax[m], d.ScaleMax)
		}
		if mm := d.modeMax[m]; mm > 0 && finite(mm) {
			g.MarkMax[m] = math.Max(g.MarkMax[m], mm)
		}
		g.MarkMax[m] = roundSig(g.MarkMax[m], 6)
	}
	nl := float64(max(len(d.Links), 1))
	g.MarkRadius = math.Round(math.Max(1.5, scale*math.Min(6, 90/math.Sqrt(nl)))*100) / 100
	g.LinkWidth = 1
	if len(d.Links) > RingGraphSVGLinks {
		g.LinkWidth = 0.6
	}
	g.LinkOpacity = math.Round(math.Max(0.06, math.Min(0.6, 60/math.Sqrt(nl)))*1000) / 1000
	g.LinkMaxWidth = math.Round(math.Max(2, math.Min(5, 100/math.Sqrt(nl)))*100) / 100
	g.IdleWidth = math.Min(0.5, g.LinkWidth)
	g.IdleOpacity = math.Round(math.Max(0.03, g.LinkOpacity*0.3)*1000) / 1000
	g.LegendTop = header + box
	g.Height = g.LegendTop + float64(len(d.legendRows(g)))*ringLegendRow + ringCaptionBand +
		ringCaptionLine*float64(len(d.captionLines(g))-1)
	return g, nil
}

func (d RingGraphData) hasLeafValues() bool {
	for _, f := range d.Frames {
		if f.LeafValues != nil {
			return true
		}
	}
	return false
}

// level1 computes the level of m blocks on n leaves.
func (g *RingGraphGeometry) level1(n, m int) RingGraphLevel {
	lv := RingGraphLevel{Blocks: m, Starts: RingGraphBlocks(n, m), Uneven: n%m != 0}
	for b := range m {
		lv.Arcs = append(lv.Arcs, Interval{2 * math.Pi * float64(lv.Starts[b]) / float64(n), 2 * math.Pi * float64(lv.Starts[b+1]) / float64(n)})
	}
	q := n / m
	switch {
	case !lv.Uneven:
		lv.Caption = fmt.Sprintf("%s of %s", plural(m, "block"), plural(q, "leaf"))
	default:
		lv.Caption = fmt.Sprintf("%s of %s or %s leaves (%d does not divide %s: the first %d are one larger)",
			plural(m, "block"), display.FormatNumber(float64(q)), display.FormatNumber(float64(q+1)), m, display.FormatNumber(float64(n)), n%m)
	}
	lv.Caption = strings.ReplaceAll(lv.Caption, "leafs", "leaves")
	block := blockOf(lv.Starts)
	type acc struct {
		links  int
		sx, sy float64
	}
	idx := map[int]int{}
	var accs []acc
	var keys []int
	pairKey := make([]int, len(g.a))
	for k := range g.a {
		lo, hi := int(block[g.a[k]]), int(block[g.b[k]])
		if lo > hi {
			lo, hi = hi, lo
		}
		key := lo*m + hi
		j, ok := idx[key]
		if !ok {
			j = len(accs)
			idx[key] = j
			accs = append(accs, acc{})
			keys = append(keys, key)
		}
		pairKey[k] = j
		a := &accs[j]
		a.links++
		a.sx += g.X[g.a[k]] + g.X[g.b[k]]
		a.sy += g.Y[g.a[k]] + g.Y[g.b[k]]
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return keys[order[i]] < keys[order[j]] })
	rank := make([]int32, len(keys))
	for r, j := range order {
		rank[j] = int32(r)
		lo, hi := keys[j]/m, keys[j]%m
		a := accs[j]
		p := RingGraphPair{Lo: lo, Hi: hi, Links: a.links, Class: ringClass(lo, hi, m),
			CX: float64(a4(a.sx / float64(2*a.links))), CY: float64(a4(a.sy / float64(2*a.links)))}
		if p.Class == RingGraphFar {
			lv.FarPairs++
		}
		lv.Pairs = append(lv.Pairs, p)
	}
	far := ringFarColors(lv.FarPairs)
	k := 0
	for i := range lv.Pairs {
		switch lv.Pairs[i].Class {
		case RingGraphIntra:
			lv.Pairs[i].Color = RingGraphIntraColor
		case RingGraphAdjacent:
			lv.Pairs[i].Color = RingGraphAdjacentColor
		default:
			lv.Pairs[i].Color = far[k]
			k++
		}
	}
	lv.PairOf = make([]int32, len(g.a))
	for i, j := range pairKey {
		lv.PairOf[i] = rank[j]
	}
	return lv
}

// level is the selected level, or nil (no leaves).
func (g *RingGraphGeometry) level() *RingGraphLevel {
	if len(g.Levels) == 0 {
		return nil
	}
	return &g.Levels[g.Level]
}

// Control is link k's control point at level lv: mix(midpoint, centre, β)
// = midpoint + β·(centre − midpoint), the centre being its block pair's.
func (g *RingGraphGeometry) Control(lv, k int) (x, y float64) {
	a, b := g.a[k], g.b[k]
	mx, my := (g.X[a]+g.X[b])/2, (g.Y[a]+g.Y[b])/2
	p := g.Levels[lv].Pairs[g.Levels[lv].PairOf[k]]
	return mx + g.Beta*(p.CX-mx), my + g.Beta*(p.CY-my)
}

// Point is the point at parameter t of link k's curve at level lv: the
// quadratic Bézier from leaf A (t = 0) through the control point to leaf B
// (t = 1).
func (g *RingGraphGeometry) Point(lv, k int, t float64) (x, y float64) {
	cx, cy := g.Control(lv, k)
	a, b := g.a[k], g.b[k]
	u := 1 - t
	return u*u*g.X[a] + 2*u*t*cx + t*t*g.X[b], u*u*g.Y[a] + 2*u*t*cy + t*t*g.Y[b]
}

// tangent is the derivative of link k's curve at t, from A towards B.
func (g *RingGraphGeometry) tangent(lv, k int, t float64) (dx, dy float64) {
	cx, cy := g.Control(lv, k)
	a, b := g.a[k], g.b[k]
	return 2*(1-t)*(cx-g.X[a]) + 2*t*(g.X[b]-cx), 2*(1-t)*(cy-g.Y[a]) + 2*t*(g.Y[b]-cy)
}

// RingGraphMarkKind is what a link carries.
type RingGraphMarkKind uint8

const (
	// RingGraphNoMark: no traffic in the mode.
	RingGraphNoMark RingGraphMarkKind = iota
	// RingGraphCircle: traffic both ways (modes sum and average).
	RingGraphCircle
	// RingGraphArrow: traffic one way only, or modes + and −.
	RingGraphArrow
)

// RingGraphMark is the traffic mark of one link.
type RingGraphMark struct {
	Kind RingGraphMarkKind
	// X, Y is its centre; R its radius (circles: area ∝ value).
	X, Y, R float64
	// FromB says that it is placed from leaf B (B sends more, or B is the
	// sender); T is its curve parameter counted from that end
	// (RingGraphMarkT), so it sits at Point(1−T) when FromB, else Point(T).
	FromB bool
	T     float64
	// DX, DY is the unit tangent at the mark pointing away from the end it
	// is placed from (towards the receiver: the arrow's direction).
	DX, DY float64
	// Value is the link's value in the mode.
	Value float64
}

// ringValue is a link's value in a mode.
func ringValue(m RingGraphMode, fwd, bwd float64) float64 {
	switch m {
	case RingGraphPlus:
		return fwd
	case RingGraphMinus:
		return bwd
	case RingGraphAverage:
		return (fwd + bwd) / 2
	}
	return fwd + bwd
}

// Mark places link k's mark at level lv for traffic fwd (A→B) and bwd
// (B→A) in mode m.
//
// The value is fwd+bwd (sum), fwd (+), bwd (−) or (fwd+bwd)/2 (average);
// zero gives no mark. In modes sum and average a link with traffic both
// ways gets a circle, placed from the dominant end (the one that sends
// more; A on a tie), and a link with traffic one way an arrow, placed from
// the sender; in mode + every link with forward traffic gets an arrow
// from A, in mode − with backward traffic from B. The mark sits at
// parameter T = RingGraphMarkT(k) from its end. Its radius is
// MarkRadius·√(value/MarkMax[m]), at least 0.75 px (arrows 1.5 px).
func (g *RingGraphGeometry) Mark(lv, k int, m RingGraphMode, fwd, bwd float64) RingGraphMark {
	fwd, bwd = clean(fwd), clean(bwd)
	mk := RingGraphMark{Value: ringValue(m, fwd, bwd), T: RingGraphMarkT(k)}
	if mk.Value <= 0 {
		return RingGraphMark{}
	}
	switch m {
	case RingGraphPlus:
		mk.Kind = RingGraphArrow
	case RingGraphMinus:
		mk.Kind, mk.FromB = RingGraphArrow, true
	default:
		mk.FromB = bwd > fwd
		mk.Kind = RingGraphCircle
		if fwd == 0 || bwd == 0 {
			mk.Kind = RingGraphArrow
		}
	}
	t := mk.T
	if mk.FromB {
		t = 1 - mk.T
	}
	mk.X, mk.Y = g.Point(lv, k, t)
	dx, dy := g.tangent(lv, k, t)
	if mk.FromB {
		dx, dy = -dx, -dy
	}
	if l := math.Hypot(dx, dy); l > 0 {
		mk.DX, mk.DY = dx/l, dy/l
	}
	mk.R = ringMarkMinR
	if mx := g.MarkMax[m]; mx > 0 {
		mk.R = math.Max(ringMarkMinR, g.MarkRadius*math.Sqrt(mk.Value/mx))
	}
	if mk.Kind == RingGraphArrow {
		mk.R = math.Max(ringArrowMinR, mk.R)
	}
	return mk
}

// ringWidthSteps is the number of stroke widths busy links take.
const ringWidthSteps = 8

// loadStep is a link's load step in mode m for traffic fwd and bwd: 0 when
// its value is 0 (idle), else ⌈8·value/MarkMax[m]⌉ clamped to 1..8 (step s
// holds the values in ((s−1)/8, s/8] of the scale).
func (g *RingGraphGeometry) loadStep(m RingGraphMode, fwd, bwd float64) int {
	v := ringValue(m, clean(fwd), clean(bwd))
	if v <= 0 {
		return 0
	}
	mx := g.MarkMax[m]
	if mx <= 0 {
		return ringWidthSteps
	}
	return clampInt(int(math.Ceil(ringWidthSteps*v/mx)), 1, ringWidthSteps)
}

// stepWidth is the stroke width of load step s (1..8): LinkWidth at step
// 1, LinkMaxWidth at step 8, linear in between, to 2 decimals.
func (g *RingGraphGeometry) stepWidth(s int) float64 {
	w := g.LinkWidth + (g.LinkMaxWidth-g.LinkWidth)*float64(s-1)/(ringWidthSteps-1)
	return math.Round(w*100) / 100
}

// LinkStroke is the stroke of a link of traffic fwd (A→B) and bwd (B→A)
// in mode m: a link whose value in the mode is 0 is idle (IdleWidth,
// IdleOpacity); a busy one is stepWidth(loadStep) wide at LinkOpacity, so
// its width grows linearly with its value in 8 steps up to LinkMaxWidth at
// MarkMax[m]. step is the load step (0 idle, 1..8 busy).
func (g *RingGraphGeometry) LinkStroke(m RingGraphMode, fwd, bwd float64) (width, opacity float64, step int) {
	step = g.loadStep(m, fwd, bwd)
	if step == 0 {
		return g.IdleWidth, g.IdleOpacity, 0
	}
	return g.stepWidth(step), g.LinkOpacity, step
}

// arrowPoints are the corners of an arrow mark: the tip 1.6R ahead of the
// centre, the base 0.8R behind it, R to each side.
func (mk RingGraphMark) arrowPoints() [3][2]float64 {
	ux, uy := mk.DX, mk.DY
	nx, ny := -uy, ux
	return [3][2]float64{
		{mk.X + 1.6*mk.R*ux, mk.Y + 1.6*mk.R*uy},
		{mk.X - 0.8*mk.R*ux + mk.R*nx, mk.Y - 0.8*mk.R*uy + mk.R*ny},
		{mk.X - 0.8*mk.R*ux - mk.R*nx, mk.Y - 0.8*mk.R*uy - mk.R*ny},
	}
}

// linkColor is link k's colour at level lv.
func (g *RingGraphGeometry) linkColor(d *RingGraphData, groupColors []string, lv, k int) string {
	if d.ColorByGroup {
		return groupColors[min(d.Links[k].Group, len(groupColors)-1)]
	}
	return g.Levels[lv].Pairs[g.Levels[lv].PairOf[k]].Color
}

// groupColors are the groups' colours (Palette), one per group.
func (d RingGraphData) groupColors() []string {
	ng := max(1, len(d.GroupNames))
	for _, l := range d.Links {
		ng = max(ng, l.Group+1)
	}
	return Palette(ng)
}
