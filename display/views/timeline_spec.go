package views

import (
	"encoding/base64"
	"encoding/binary"
	"image"
	"math"

	"superstep/algo/bundle"
)

// timelineSpec is what the runtime's timeline view draws from. Small
// timelines ("svg" mode) are their whole SVG, every curve a path grouped by
// route (data-route, data-from, data-to, data-tip), intervals as rects
// (data-class); the runtime zooms, hides lanes, switches the blend and
// sets the opacity on it. Large ones ("canvas" mode) are the frame (SVG,
// empty plot) and PNG layers of the plot: the ground and the curves of each
// blend; the runtime composites them on a canvas and finds the heaviest
// routes under the pointer from their polylines (tenths of a px, Uint16
// pairs; route r's points are RP[RS[r]..RS[r+1]]).
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
	ImgGroundAdd   string   `json:"imgGroundAdd,omitempty"`
	ImgGroundAlpha string   `json:"imgGroundAlpha,omitempty"`
	ImgCurvesAdd   string   `json:"imgCurvesAdd,omitempty"`
	ImgCurvesAlpha string   `json:"imgCurvesAlpha,omitempty"`
	RP             string   `json:"rp,omitempty"`
	RS             []int32  `json:"rs,omitempty"`
	RFrom          []int32  `json:"rFrom,omitempty"`
	RTo            []int32  `json:"rTo,omitempty"`
	RText          []string `json:"rText,omitempty"`
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
	sp.ImgGroundAdd, sp.ImgGroundAlpha, sp.ImgCurvesAdd, sp.ImgCurvesAlpha = enc(ga), enc(gl), enc(ca), enc(cl)
	// The heaviest routes, as polylines for hover.
	var pts []byte
	le := binary.LittleEndian
	put := func(x, y float64) {
		pts = le.AppendUint16(pts, uint16(math.Max(0, math.Min(65535, math.Round(x*10)))))
		pts = le.AppendUint16(pts, uint16(math.Max(0, math.Min(65535, math.Round(y*10)))))
	}
	first := make([]int, len(L.RouteFromLane))
	for i := len(L.EdgeRoute) - 1; i >= 0; i-- {
		first[L.EdgeRoute[i]] = i
	}
	for _, r := range L.heaviest(timelineHoverRoutes) {
		sp.RS = append(sp.RS, int32(len(pts)/4))
		if L.Bundle == nil {
			i := first[r]
			put(L.edges.FromX[i], L.Y(float64(L.d.From[i])))
			put(L.edges.ToX[i], L.Y(float64(L.d.To[i])))
		} else {
			in := L.interiorPoints(r)
			put(in[0].X, in[0].Y)
			for _, q := range bundle.InteriorQuads(in) {
				for s := 1; s <= 4; s++ {
					pt := q.At(float64(s) / 4)
					put(pt.X, pt.Y)
				}
			}
			if len(in) == 2 {
				put(in[1].X, in[1].Y)
			}
		}
		sp.RFrom = append(sp.RFrom, L.RouteFromLane[r])
		sp.RTo = append(sp.RTo, L.RouteToLane[r])
		sp.RText = append(sp.RText, L.RouteText(int(r)))
	}
	sp.RS = append(sp.RS, int32(len(pts)/4))
	sp.RP = base64.StdEncoding.EncodeToString(pts)
	return sp
}
