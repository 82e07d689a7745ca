package views

import (
	"encoding/base64"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"superstep/algo/bundle"
	"superstep/display"
)

// timelineSpec is what the runtime's timeline view draws from. Small
// timelines ("svg" mode) are their whole SVG, every curve a path grouped by
// route (data-route, data-from, data-to, data-tip), intervals as rects
// (data-class); the runtime zooms, hides lanes, switches the blend and
// sets the opacity on it. Large ones ("canvas" mode) are the frame (SVG,
// empty plot) and PNG layers of the plot: the ground of each blend and
// the curves of the blend the static picture does not show. The runtime
// composites them on a canvas; the curves of the blend the static picture
// shows it takes from the static picture's plot (StaticPlot: x, y, width,
// height in its pixels), which Go drew from the same light over the
// ground: the curves are stored once. It finds the heaviest routes under
// the pointer from their interior points and builds their hover text
// from their numbers (see hoverSpec).
type timelineSpec struct {
	Mode  string `json:"mode"`
	SVG   string `json:"svg"`
	W     ang    `json:"w"`
	H     ang    `json:"h"`
	PX    ang    `json:"px"`
	PY    ang    `json:"py"`
	PW    ang    `json:"pw"`
	PH    ang    `json:"ph"`
	LaneH ang    `json:"laneH"`
	Lanes int    `json:"lanes"`
	// T0 and T1 are the seconds at the plot's left and right edges (the
	// runtime's time axis and pointer time under a zoom); LaneNames and
	// ClassNames name the lane and the region under the pointer.
	T0         float64  `json:"t0"`
	T1         float64  `json:"t1"`
	LaneNames  []string `json:"laneNames"`
	ClassNames []string `json:"classNames"`
	Blend      string   `json:"blend"`
	// Opacity is the vector curves' stroke opacity per blend.
	OpAdd   ang `json:"opAdd"`
	OpAlpha ang `json:"opAlpha"`
	// Ground colours per blend: the empty ground, then each class.
	GroundAdd   []string `json:"groundAdd"`
	GroundAlpha []string `json:"groundAlpha"`
	// Canvas mode.
	ImgGroundAdd   string `json:"imgGroundAdd,omitempty"`
	ImgGroundAlpha string `json:"imgGroundAlpha,omitempty"`
	ImgCurvesAdd   string `json:"imgCurvesAdd,omitempty"`
	ImgCurvesAlpha string `json:"imgCurvesAlpha,omitempty"`
	StaticPlot     [4]int `json:"staticPlot,omitzero"`
	hoverSpec
}

// hoverSpec is what a canvas timeline names on hover: the heaviest
// routes (timelineHoverRoutes), heaviest first, as arrays in Bin (an
// arrayPack). Route r's interior points are (RX[i], RY[i]) for s ≤ i <
// s+RN[r] (tenths of a px, s the sum of RN before r), which the runtime
// samples as Go's curves pass them (bundle.InteriorQuads); its text is
// "RMsgs messages, RBytes, lane RFrom→lane RTo, t0–t1 s" (hoverText):
// RBytes 0 when it has no bytes, else 1 + digits·32 + decimals·8 +
// prefix, the number display.FormatBytes writes and its prefix (B, kB,
// MB, …), and the times as FormatFloat writes them with TDec decimals,
// without the point: t0 is RT0, t1 is RT0 + RDur. Go checks that the
// numbers say exactly RouteText; a route whose text they cannot say
// (times past 2⁵³ of their last digit) makes RText hold every route's
// text instead.
type hoverSpec struct {
	Bin    string   `json:"bin,omitempty"`
	RX     arrayRef `json:"rx,omitzero"`
	RY     arrayRef `json:"ry,omitzero"`
	RN     arrayRef `json:"rn,omitzero"`
	RFrom  arrayRef `json:"rFrom,omitzero"`
	RTo    arrayRef `json:"rTo,omitzero"`
	RMsgs  arrayRef `json:"rMsgs,omitzero"`
	RBytes arrayRef `json:"rBytes,omitzero"`
	RT0    arrayRef `json:"rT0,omitzero"`
	RDur   arrayRef `json:"rDur,omitzero"`
	TDec   int      `json:"tDec,omitempty"`
	RText  []string `json:"rText,omitempty"`
}

func (L *TimelineLayout) canvasMode() bool {
	return len(L.d.From) > TimelineCanvasCurves || len(L.d.IntervalLane) > 20*TimelineCanvasCurves
}

func (L *TimelineLayout) spec(p *timelinePicture) timelineSpec {
	blendName := "alpha"
	if L.Additive {
		blendName = "additive"
	}
	sp := timelineSpec{W: a4(L.Width), H: a4(L.Height), PX: a4(L.PlotX), PY: a4(L.PlotY), PW: a4(L.PlotW), PH: a4(L.PlotH),
		LaneH: a4(L.LaneH), Lanes: len(L.d.Lanes), Blend: blendName,
		T0: L.Start, T1: L.End, LaneNames: L.d.Lanes, ClassNames: L.d.ClassNames}
	save := L.Additive
	L.Additive = true
	sp.OpAdd = a4(L.svgOpacity(p))
	L.Additive = false
	sp.OpAlpha = a4(L.svgOpacity(p))
	L.Additive = save
	sp.GroundAdd = []string{hex3(timelineDarkBg)}
	for _, c := range L.classColors(true) {
		sp.GroundAdd = append(sp.GroundAdd, hex3(c))
	}
	sp.GroundAlpha = []string{hex3(timelineLightBg)}
	for _, c := range L.classColors(false) {
		sp.GroundAlpha = append(sp.GroundAlpha, hex3(c))
	}
	if !L.canvasMode() {
		sp.Mode, sp.SVG = "svg", L.svg(p)
		return sp
	}
	sp.Mode, sp.SVG = "canvas", L.svgDoc(p, false)
	ga, gl, ca, cl := L.layers(p)
	enc := func(img *image.RGBA) string {
		b, err := compactPNG(img)
		if err != nil {
			return ""
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	sp.ImgGroundAdd, sp.ImgGroundAlpha = enc(ga), enc(gl)
	// The static picture (render at StaticScale) shows the curves of the
	// layout's blend: only the other blend's are a layer.
	if L.Additive {
		sp.ImgCurvesAlpha = enc(cl)
	} else {
		sp.ImgCurvesAdd = enc(ca)
	}
	sp.StaticPlot = [4]int{int(math.Round(L.PlotX * StaticScale)), int(math.Round(L.PlotY * StaticScale)),
		int(math.Ceil(L.PlotW * StaticScale)), int(math.Ceil(L.PlotH * StaticScale))}
	sp.hoverSpec = L.hoverSpec()
	return sp
}

// hoverSpec packs the heaviest routes for hover (see hoverSpec).
func (L *TimelineLayout) hoverSpec() hoverSpec {
	var xs, ys []int32
	var n []int32
	var from, to []int32
	var msgs []float64
	var byt []int32
	var t0, dur []float64
	tenths := func(v float64) int32 { return int32(math.Max(0, math.Min(65535, math.Round(v*10)))) }
	first := make([]int, len(L.RouteFromLane))
	for i := len(L.EdgeRoute) - 1; i >= 0; i-- {
		first[L.EdgeRoute[i]] = i
	}
	heavy := L.heaviest(timelineHoverRoutes)
	compact := true
	for _, r := range heavy {
		var in []bundle.Point
		if L.Bundle == nil {
			i := first[r]
			in = []bundle.Point{{X: L.edges.FromX[i], Y: L.Y(float64(L.d.From[i]))}, {X: L.edges.ToX[i], Y: L.Y(float64(L.d.To[i]))}}
		} else {
			in = L.interiorPoints(r)
		}
		for _, q := range in {
			xs, ys = append(xs, tenths(q.X)), append(ys, tenths(q.Y))
		}
		n = append(n, int32(len(in)))
		from, to = append(from, L.RouteFromLane[r]), append(to, L.RouteToLane[r])
		msgs = append(msgs, float64(L.RouteMessages[r]))
		b := 0
		if L.RouteBytes[r] > 0 {
			b = bytesCode(display.FormatBytes(L.RouteBytes[r]))
		}
		a, aok := decimalDigits(secondsText(L.RouteT0[r], L.decimals))
		z, zok := decimalDigits(secondsText(L.RouteT1[r], L.decimals))
		byt, t0, dur = append(byt, int32(b)), append(t0, a), append(dur, z-a)
		if !aok || !zok || a+(z-a) != z || b < 0 || routeText(L.RouteMessages[r], b, L.d.Lanes[L.RouteFromLane[r]], L.d.Lanes[L.RouteToLane[r]], a, z, L.decimals) != L.RouteText(int(r)) {
			compact = false
		}
	}
	var pack arrayPack
	h := hoverSpec{RX: pack.ints(xs), RY: pack.ints(ys), RN: pack.ints(n), RFrom: pack.ints(from), RTo: pack.ints(to)}
	if compact {
		h.RMsgs, h.RBytes, h.RT0, h.RDur, h.TDec = pack.counts(msgs), pack.ints(byt), pack.counts(t0), pack.counts(dur), L.decimals
	} else {
		for _, r := range heavy {
			h.RText = append(h.RText, L.RouteText(int(r)))
		}
	}
	h.Bin = pack.String()
	return h
}

// byteUnits are display.FormatBytes's units, in the order of a bytesCode.
var byteUnits = []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}

// bytesCode is FormatBytes's text s as the runtime rebuilds it: 1 +
// digits·32 + decimals·8 + unit (byteUnits), or −1 when s is not a
// number of at most 2 decimals and a unit.
func bytesCode(s string) int {
	num, unit, ok := strings.Cut(s, " ")
	u := slices.Index(byteUnits, unit)
	digits, dok := decimalDigits(num)
	dec := 0
	if i := strings.IndexByte(num, '.'); i >= 0 {
		dec = len(num) - i - 1
	}
	if !ok || u < 0 || !dok || digits < 0 || dec > 2 || digits > math.MaxInt32/64 {
		return -1
	}
	return 1 + int(digits)*32 + dec*8 + u
}

// decimalDigits is the decimal number s without its point (-1.50 → -150),
// and whether s is one and it is exact as a float64.
func decimalDigits(s string) (float64, bool) {
	v, err := strconv.ParseInt(strings.Replace(s, ".", "", 1), 10, 64)
	if err != nil || v > 1<<53 || v < -(1<<53) {
		return 0, false
	}
	return float64(v), true
}

// pointed writes the digits v with dec decimals: pointed(-150, 2) is
// "-1.50" (timeline.js pointed).
func pointed(v float64, dec int) string {
	n := int64(v)
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.FormatInt(n, 10)
	if dec == 0 {
		return sign + s
	}
	for len(s) <= dec {
		s = "0" + s
	}
	return sign + s[:len(s)-dec] + "." + s[len(s)-dec:]
}

// routeText is a route's hover text from its hoverSpec numbers, as the
// runtime writes it (timeline.js routeTexts); hoverSpec checks it against
// RouteText.
func routeText(messages int64, bytesCode int, from, to string, t0, t1 float64, dec int) string {
	s := groupDigits(messages) + " messages"
	if messages == 1 {
		s = "1 message"
	}
	if bytesCode > 0 {
		c := bytesCode - 1
		s += ", " + pointed(float64(c/32), c/8%4) + " " + byteUnits[c%8]
	}
	return s + ", " + from + "→" + to + ", " + pointed(t0, dec) + "–" + pointed(t1, dec) + " s"
}
