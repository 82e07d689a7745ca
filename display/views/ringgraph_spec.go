package views

import (
	"encoding/base64"
	"encoding/binary"
	"math"
)

// What the runtime's ring graph (ringgraph.js) draws from. Every field is
// documented in ringgraph_spec.md; keep the two in step.

type ringSpec struct {
	Title         string          `json:"title"`
	W             ang             `json:"w"`
	H             ang             `json:"h"`
	CX            ang             `json:"cx"`
	CY            ang             `json:"cy"`
	N             int             `json:"n"`
	Labels        []string        `json:"labels"`
	LinkR         ang             `json:"linkR"`
	Tracks        []ringTrackSpec `json:"tracks"`
	LeafRing      ringLeafSpec    `json:"leafRing"`
	BlockRing     [2]ang          `json:"blockRing"`
	BlockLabelR   ang             `json:"blockLabelR"`
	Levels        []ringLevelSpec `json:"levels"`
	Level         int             `json:"level"`
	Beta          ang             `json:"beta"`
	Links         ringLinksSpec   `json:"links"`
	GroupName     string          `json:"groupName"`
	Groups        []ringNamed     `json:"groups"`
	Classes       []ringNamed     `json:"classes"`
	WB            string          `json:"wb"`
	Frames        []ringFrameSpec `json:"frames"`
	Selected      int             `json:"selected"`
	Mode          string          `json:"mode"`
	Modes         []string        `json:"modes"`
	ColorBy       string          `json:"colorBy"`
	MarkR         ang             `json:"markR"`
	MarkMax       map[string]num  `json:"markMax"`
	MarkT         [2]ang          `json:"markT"`
	MarkMinR      ang             `json:"markMinR"`
	ArrowMinR     ang             `json:"arrowMinR"`
	MarkOpacity   ang             `json:"markOpacity"`
	MarkDarken    ang             `json:"markDarken"`
	LinkWidth     ang             `json:"linkWidth"`
	LinkOpacity   ang             `json:"linkOpacity"`
	LinkMaxWidth  ang             `json:"linkMaxWidth"`
	WidthSteps    int             `json:"widthSteps"`
	IdleWidth     ang             `json:"idleWidth"`
	IdleOpacity   ang             `json:"idleOpacity"`
	WeightName    string          `json:"weightName"`
	LeafValueName string          `json:"leafValueName"`
	Canvas        bool            `json:"canvas"`
	LegendTop     ang             `json:"legendTop"`
	Caption       string          `json:"caption"`
	// TitleLines are the title wrapped to the width, HeadY the baselines
	// of the frame-and-mode line (two: frame, then mode).
	TitleLines []string `json:"titleLines"`
	HeadY      []ang    `json:"headY"`
}

type ringTrackSpec struct {
	Name string `json:"name"`
	R0   ang    `json:"r0"`
	R1   ang    `json:"r1"`
	Min  int    `json:"min"`
	Max  int    `json:"max"`
	VB   int    `json:"vb"`
	V    string `json:"v"`
}

type ringLeafSpec struct {
	On   bool   `json:"on"`
	Name string `json:"name"`
	R0   ang    `json:"r0"`
	R1   ang    `json:"r1"`
	Min  num    `json:"min"`
	Max  num    `json:"max"`
	Ramp string `json:"ramp"`
}

type ringLevelSpec struct {
	M        int            `json:"m"`
	Starts   []int          `json:"starts"`
	Uneven   bool           `json:"uneven"`
	Caption  string         `json:"caption"`
	Pairs    []ringPairSpec `json:"pairs"`
	FarPairs int            `json:"farPairs"`
	PB       int            `json:"pb"`
	Pair     string         `json:"pair"`
	Cls      string         `json:"cls"`
}

type ringPairSpec struct {
	Lo    int    `json:"lo"`
	Hi    int    `json:"hi"`
	Links int    `json:"links"`
	X     ang    `json:"x"`
	Y     ang    `json:"y"`
	Cls   int    `json:"cls"`
	Color string `json:"color"`
}

type ringLinksSpec struct {
	Count int    `json:"count"`
	IB    int    `json:"ib"`
	A     string `json:"a"`
	B     string `json:"b"`
	GB    int    `json:"gb"`
	Group string `json:"group"`
}

type ringNamed struct {
	Name  string `json:"name"`
	Color string `json:"color"`
}

type ringFrameSpec struct {
	Label string `json:"label"`
	Fwd   string `json:"fwd"`
	Bwd   string `json:"bwd"`
	Leaf  string `json:"leaf"`
	// LeafMin and LeafMax are the range of this frame's leaf values,
	// which its leaf-ring colours span.
	LeafMin num          `json:"leafMin"`
	LeafMax num          `json:"leafMax"`
	Totals  [][4]float64 `json:"totals"`
}

// leWeights packs float64s as little-endian unsigned integers of size
// bytes (integral), else as float32, base64.
func leWeights(v []float64, size int, integral bool) string {
	b := make([]byte, size*len(v))
	le := binary.LittleEndian
	for i, x := range v {
		switch {
		case !integral:
			le.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		case size == 1:
			b[i] = byte(x)
		case size == 2:
			le.PutUint16(b[2*i:], uint16(x))
		default:
			le.PutUint32(b[4*i:], uint32(x))
		}
	}
	return base64.StdEncoding.EncodeToString(b)
}

// RingGraphSpecLabels is the most leaves whose labels travel to the
// runtime; a larger ring's runtime names a leaf by its index and track
// values (the labels would take long to compress, and its tracks hold
// what they say).
const RingGraphSpecLabels = 4096

// byteSize is the bytes per entry of indices below n: 1, 2 or 4.
func byteSize(n int) int {
	switch {
	case n <= 1<<8:
		return 1
	case n <= 1<<16:
		return 2
	}
	return 4
}

func (d RingGraphData) spec(g *RingGraphGeometry) ringSpec {
	n, nl := len(d.Leaves), len(d.Links)
	sp := ringSpec{Title: d.Title, W: a4(g.Width), H: a4(g.Height), CX: a4(g.CX), CY: a4(g.CY), N: n,
		LinkR: a4(g.LinkRadius), Tracks: []ringTrackSpec{},
		BlockRing: [2]ang{a4(g.BlockRing.Inner), a4(g.BlockRing.Outer)}, BlockLabelR: a4(g.BlockLabelRadius),
		Levels: []ringLevelSpec{}, Level: g.Level, Beta: ang(g.Beta), GroupName: d.groupName(), Groups: []ringNamed{},
		Frames: []ringFrameSpec{}, Selected: max(d.selected(), 0), Mode: d.Mode.String(), Modes: ringGraphModeNames[:],
		ColorBy: "class", MarkR: a4(g.MarkRadius), MarkMax: map[string]num{},
		MarkT: [2]ang{ringMarkT0, ringMarkTSpan}, MarkMinR: ringMarkMinR, ArrowMinR: ringArrowMinR,
		MarkOpacity: 0.85, MarkDarken: 0.25, LinkWidth: a4(g.LinkWidth), LinkOpacity: a4(g.LinkOpacity),
		LinkMaxWidth: a4(g.LinkMaxWidth), WidthSteps: ringWidthSteps, IdleWidth: a4(g.IdleWidth), IdleOpacity: a4(g.IdleOpacity),
		WeightName: d.weightName(), LeafValueName: d.leafValueName(), Canvas: d.big(), LegendTop: a4(g.LegendTop),
		Caption: d.caption(g), TitleLines: g.TitleLines, HeadY: []ang{}}
	if sp.TitleLines == nil {
		sp.TitleLines = []string{}
	}
	for _, y := range g.HeadY {
		sp.HeadY = append(sp.HeadY, a4(y))
	}
	if d.ColorByGroup {
		sp.ColorBy = "group"
	}
	for m := RingGraphSum; m <= RingGraphAverage; m++ {
		sp.MarkMax[m.String()] = num(g.MarkMax[m])
	}
	for t, tr := range d.Tracks {
		lo, hi := trackRange(tr.Values)
		v := make([]int32, n)
		for i, x := range tr.Values {
			v[i] = int32(x - lo)
		}
		vb := byteSize(hi - lo + 1)
		sp.Tracks = append(sp.Tracks, ringTrackSpec{Name: tr.Name, R0: a4(g.Tracks[t].Inner), R1: a4(g.Tracks[t].Outer),
			Min: lo, Max: hi, VB: vb, V: leInts(v, vb)})
	}
	if g.LeafRing.Outer > 0 {
		s := d.leafScale(-1)
		sp.LeafRing = ringLeafSpec{On: true, Name: d.leafValueName(), R0: a4(g.LeafRing.Inner), R1: a4(g.LeafRing.Outer),
			Min: num(s.Min), Max: num(s.Max), Ramp: s.Ramp.Hex()}
	}
	for _, lv := range g.Levels {
		ls := ringLevelSpec{M: lv.Blocks, Starts: lv.Starts, Uneven: lv.Uneven, Caption: lv.Caption, Pairs: []ringPairSpec{},
			FarPairs: lv.FarPairs, PB: byteSize(len(lv.Pairs))}
		for _, p := range lv.Pairs {
			ls.Pairs = append(ls.Pairs, ringPairSpec{Lo: p.Lo, Hi: p.Hi, Links: p.Links, X: a4(p.CX), Y: a4(p.CY), Cls: int(p.Class), Color: p.Color})
		}
		cls := make([]int32, nl)
		for k, j := range lv.PairOf {
			cls[k] = int32(lv.Pairs[j].Class)
		}
		ls.Pair, ls.Cls = leInts(lv.PairOf, ls.PB), leInts(cls, 1)
		sp.Levels = append(sp.Levels, ls)
	}
	// Links.
	sp.Links = ringLinksSpec{Count: nl, IB: 2}
	if n > 1<<16 {
		sp.Links.IB = 4
	}
	groups := make([]int32, nl)
	for k, l := range d.Links {
		groups[k] = int32(l.Group)
	}
	gc := d.groupColors()
	sp.Links.GB = byteSize(len(gc))
	if sp.Links.GB > 2 {
		sp.Links.GB = 2
	}
	sp.Links.A, sp.Links.B, sp.Links.Group = leInts(g.a, sp.Links.IB), leInts(g.b, sp.Links.IB), leInts(groups, sp.Links.GB)
	for i, c := range gc {
		sp.Groups = append(sp.Groups, ringNamed{Name: d.groupLabel(i), Color: c})
	}
	sp.Classes = []ringNamed{{Name: RingGraphIntra.String(), Color: RingGraphIntraColor}, {Name: RingGraphAdjacent.String(), Color: RingGraphAdjacentColor},
		{Name: RingGraphFar.String(), Color: RingGraphFarColors[0]}}
	// Weights: the narrowest unsigned integers that hold them all when
	// every one is an integer below 2³², else float32.
	integral, top := true, 0.0
	for f := range d.Frames {
		for k := 0; k < nl && integral; k++ {
			fw, bw := d.weights(f, k)
			top = math.Max(top, math.Max(fw, bw))
			if fw != math.Trunc(fw) || bw != math.Trunc(bw) || fw > math.MaxUint32 || bw > math.MaxUint32 {
				integral = false
			}
		}
	}
	sp.WB = "f32"
	wsize := 4
	switch {
	case integral && top < 1<<8:
		sp.WB, wsize = "u8", 1
	case integral && top < 1<<16:
		sp.WB, wsize = "u16", 2
	case integral:
		sp.WB = "u32"
	}
	if n > 0 && n <= RingGraphSpecLabels {
		sp.Labels = d.Leaves
	} else {
		sp.Labels = []string{}
	}
	fw, bw := make([]float64, nl), make([]float64, nl)
	for f, fr := range d.Frames {
		for k := range nl {
			fw[k], bw[k] = d.weights(f, k)
		}
		fs := ringFrameSpec{Label: d.frameLabel(f), Fwd: leWeights(fw, wsize, integral), Bwd: leWeights(bw, wsize, integral), Totals: [][4]float64{}}
		if fr.LeafValues != nil {
			fs.Leaf = leWeights(fr.LeafValues, 4, false)
			ls := d.leafScale(f)
			fs.LeafMin, fs.LeafMax = num(ls.Min), num(ls.Max)
		}
		for _, t := range d.Totals(f) {
			fs.Totals = append(fs.Totals, [4]float64{float64(t.Links), t.Forward, t.Backward, float64(t.Idle)})
		}
		sp.Frames = append(sp.Frames, fs)
	}
	return sp
}
