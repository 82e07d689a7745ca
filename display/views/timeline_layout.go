package views

import (
	"context"
	"fmt"
	"math"
	"slices"

	"superstep/algo/bundle"
	"superstep/display"
)

// TimelineLayout is a timeline's geometry: where the plot is, how time and
// lanes map to its pixels, and the bundles. Plot coordinates are px from
// the plot's top-left corner; a lane's centre line is at (lane + ½)·LaneH.
type TimelineLayout struct {
	// Width and Height are the picture's size; the plot is PlotW×PlotH at
	// (PlotX, PlotY).
	Width, Height                float64
	PlotX, PlotY, PlotW, PlotH   float64
	LaneH                        float64
	Start, End                   float64 // seconds at the plot's left and right edges
	Routing                      string
	BandwidthPx, BandwidthSecond float64
	Additive                     bool
	// Bundle is the bundled geometry in plot px (x) and lanes (y), nil for
	// straight lines.
	Bundle *bundle.Bundling
	// Per route (bundle): the lanes of its two clusters, its bytes, the
	// first send and last receive of its messages (seconds); RouteText is
	// its hover text. Straight lines have one route per (sender, receiver)
	// pair.
	RouteFromLane, RouteToLane []int32
	RouteMessages              []int64
	RouteBytes                 []float64
	RouteT0, RouteT1           []float64
	// EdgeRoute is each curve's route.
	EdgeRoute []int32

	d          *TimelineData
	edges      *bundle.Edges
	labelW     float64
	labelEvery int
	decimals   int
	interiors  [][][2]float64 // per route, its interior control points in plot px
}

// X is the plot x of time t (seconds).
func (L *TimelineLayout) X(t float64) float64 {
	return (t - L.Start) / (L.End - L.Start) * L.PlotW
}

// Y is the plot y of a lane position (lane i's centre at i).
func (L *TimelineLayout) Y(lane float64) float64 { return (lane + 0.5) * L.LaneH }

// Seconds is the time at plot x.
func (L *TimelineLayout) Seconds(x float64) float64 {
	return L.Start + x/L.PlotW*(L.End-L.Start)
}

// layout computes the geometry, bundling under ctx; d is valid.
func (d TimelineData) layout(ctx context.Context) (*TimelineLayout, error) {
	L := &TimelineLayout{d: &d, Routing: d.Routing, Additive: d.Blend != "alpha"}
	if L.Routing == "" {
		L.Routing = "grid"
	}
	L.Width = d.Width
	if L.Width == 0 {
		L.Width = timelineWidth
	}
	L.Start, L.End = d.Start, d.End
	if L.Start == 0 && L.End == 0 {
		L.Start, L.End = math.Inf(1), math.Inf(-1)
		for i := range d.Send {
			L.Start = min(L.Start, d.Send[i], d.Recv[i])
			L.End = max(L.End, d.Send[i], d.Recv[i])
		}
		for i := range d.IntervalFrom {
			L.Start = min(L.Start, d.IntervalFrom[i])
			L.End = max(L.End, d.IntervalTo[i])
		}
		if L.Start > L.End {
			L.Start, L.End = 0, 1
		}
		if L.End == L.Start {
			L.End = L.Start + 1
		}
		L.Start = min(L.Start, 0)
	}
	L.decimals = timeDecimals(L.End - L.Start)
	n := len(d.Lanes)
	for _, s := range d.Lanes {
		L.labelW = max(L.labelW, textWidth(s, smallFont)+8)
	}
	L.labelW = min(max(L.labelW, 30), timelineLabelMax)
	L.PlotX = L.labelW
	L.PlotW = L.Width - L.labelW - 12
	if L.PlotW < 50 {
		return nil, fmt.Errorf("views.Timeline: width %v px leaves no room for the plot", L.Width)
	}
	L.PlotH = min(max(float64(n)*timelineLaneMin, timelinePlotMin), timelinePlotMax)
	L.LaneH = L.PlotH / float64(n)
	L.labelEvery = max(1, int(math.Ceil(smallFont/L.LaneH)))
	if d.Title != "" {
		L.PlotY = timelineTitleBand
	}
	L.Height = L.PlotY + L.PlotH + timelineAxisBand + timelineLegend
	pxPerSecond := L.PlotW / (L.End - L.Start)
	L.BandwidthPx = d.BandwidthPx
	if L.BandwidthPx == 0 {
		L.BandwidthPx = 3
	}
	if d.Bandwidth > 0 {
		L.BandwidthPx = d.Bandwidth * pxPerSecond
	}
	L.BandwidthSecond = L.BandwidthPx / pxPerSecond

	m := len(d.From)
	L.edges = &bundle.Edges{FromLane: d.From, ToLane: d.To, FromX: make([]float64, m), ToX: make([]float64, m)}
	for i := 0; i < m; i++ {
		L.edges.FromX[i], L.edges.ToX[i] = L.X(d.Send[i]), L.X(d.Recv[i])
	}
	if L.Routing == "straight" {
		L.straightRoutes()
	} else if m > 0 {
		opts := bundle.Options{Bandwidth: L.BandwidthPx, Lanes: n, Beta: d.Beta}
		if L.Routing == "hierarchy" {
			opts.Routing = bundle.Hierarchy
		}
		b, err := bundle.New(ctx, L.edges, opts)
		if err != nil {
			return nil, fmt.Errorf("views.Timeline: %w", err)
		}
		L.Bundle = b
		L.EdgeRoute = b.EdgeRoute
		r := b.NumRoutes()
		L.RouteFromLane, L.RouteToLane = make([]int32, r), make([]int32, r)
		L.interiors = make([][][2]float64, r)
		for k := 0; k < r; k++ {
			L.RouteFromLane[k], L.RouteToLane[k] = b.ClusterLane[b.RouteFrom[k]], b.ClusterLane[b.RouteTo[k]]
			in := b.Interior(k)
			pts := make([][2]float64, len(in))
			for j, p := range in {
				// A grid column's centre may lie past the plot's edge
				// (messages in the trace's last pixels): the curve bends
				// at the edge instead, where it is drawn.
				pts[j] = [2]float64{min(max(p.X, 0), L.PlotW), L.Y(p.Y)}
			}
			L.interiors[k] = pts
		}
	}
	L.routeSums()
	return L, nil
}

// straightRoutes makes one route per (sender, receiver) pair, for hover.
func (L *TimelineLayout) straightRoutes() {
	d := L.d
	index := map[[2]int32]int32{}
	L.EdgeRoute = make([]int32, len(d.From))
	for i := range d.From {
		k := [2]int32{d.From[i], d.To[i]}
		r, ok := index[k]
		if !ok {
			r = int32(len(L.RouteFromLane))
			index[k] = r
			L.RouteFromLane = append(L.RouteFromLane, k[0])
			L.RouteToLane = append(L.RouteToLane, k[1])
		}
		L.EdgeRoute[i] = r
	}
}

// routeSums counts each route's messages and bytes and its time span.
func (L *TimelineLayout) routeSums() {
	d := L.d
	r := len(L.RouteFromLane)
	L.RouteMessages = make([]int64, r)
	L.RouteBytes = make([]float64, r)
	L.RouteT0, L.RouteT1 = make([]float64, r), make([]float64, r)
	for k := range L.RouteT0 {
		L.RouteT0[k], L.RouteT1[k] = math.Inf(1), math.Inf(-1)
	}
	for i, k := range L.EdgeRoute {
		L.RouteMessages[k]++
		if d.Bytes != nil {
			L.RouteBytes[k] += d.Bytes[i]
		}
		L.RouteT0[k] = min(L.RouteT0[k], d.Send[i])
		L.RouteT1[k] = max(L.RouteT1[k], d.Recv[i])
	}
}

// NumRoutes is the number of routes (bundles).
func (L *TimelineLayout) NumRoutes() int { return len(L.RouteFromLane) }

// RouteText is what hovering route r says: "N messages, B bytes, P→Q,
// t0–t1 s".
func (L *TimelineLayout) RouteText(r int) string {
	d := L.d
	return hoverText(L.RouteMessages[r], L.RouteBytes[r], d.Lanes[L.RouteFromLane[r]], d.Lanes[L.RouteToLane[r]], L.RouteT0[r], L.RouteT1[r], L.decimals)
}

// heaviest returns up to k routes, most messages first (ties: lower
// route first).
func (L *TimelineLayout) heaviest(k int) []int32 {
	idx := make([]int32, len(L.RouteMessages))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		if L.RouteMessages[a] != L.RouteMessages[b] {
			if L.RouteMessages[a] > L.RouteMessages[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	return idx[:min(k, len(idx))]
}

// curve calls piece for each quadratic piece of curve i in plot px, with
// the gradient parameters at its ends (0 at the sender, 1 at the
// receiver). Straight lines are one piece whose control point is its
// midpoint.
func (L *TimelineLayout) curve(i int, piece func(q bundle.Quad, t0, t1 float64)) {
	send := bundle.Point{X: L.edges.FromX[i], Y: L.Y(float64(L.d.From[i]))}
	recv := bundle.Point{X: L.edges.ToX[i], Y: L.Y(float64(L.d.To[i]))}
	if L.Bundle == nil {
		mid := bundle.Point{X: (send.X + recv.X) / 2, Y: (send.Y + recv.Y) / 2}
		piece(bundle.Quad{P0: send, C: mid, P1: recv}, 0, 1)
		return
	}
	in := L.interiorPoints(L.EdgeRoute[i])
	head, tail, err := bundle.EndQuads(send, in, recv)
	if err != nil { // an interior has ≥ 2 points: cannot happen
		return
	}
	m := float64(len(in))
	piece(head, 0, 1/m)
	for k, q := range bundle.InteriorQuads(in) {
		piece(q, float64(k+1)/m, float64(k+2)/m)
	}
	piece(tail, (m-1)/m, 1)
}

// interiorPoints is route r's interior in plot px.
func (L *TimelineLayout) interiorPoints(r int32) []bundle.Point {
	return L.appendInterior(nil, r)
}

// appendInterior appends route r's interior in plot px to dst.
func (L *TimelineLayout) appendInterior(dst []bundle.Point, r int32) []bundle.Point {
	for _, p := range L.interiors[r] {
		dst = append(dst, bundle.Point{X: p[0], Y: p[1]})
	}
	return dst
}

// caption says what the picture shows.
func (L *TimelineLayout) caption() string {
	d := L.d
	s := fmt.Sprintf("%s messages between %s lanes, %s–%s s", groupDigits(int64(len(d.From))), groupDigits(int64(len(d.Lanes))),
		secondsText(L.Start, L.decimals), secondsText(L.End, L.decimals))
	switch L.Routing {
	case "straight":
		s += ", straight lines"
	case "hierarchy":
		s += fmt.Sprintf(", %s bundles through a cluster hierarchy (bandwidth %s s)", groupDigits(int64(len(L.RouteFromLane))), display.FormatNumber(L.BandwidthSecond))
	default:
		s += fmt.Sprintf(", %s bundles through a grid (bandwidth %s s)", groupDigits(int64(len(L.RouteFromLane))), display.FormatNumber(L.BandwidthSecond))
	}
	if L.Additive {
		return s + ", additive colours"
	}
	return s + ", alpha blending"
}

// routeMiddle is a point on route r's curve halfway along its interior
// (the midpoint of its middle inner edge, which the quadratic chain
// passes through), in plot px.
func (L *TimelineLayout) routeMiddle(r int) (x, y float64) {
	if L.Bundle == nil {
		i := 0
		for k, e := range L.EdgeRoute {
			if int(e) == r {
				i = k
				break
			}
		}
		return (L.edges.FromX[i] + L.edges.ToX[i]) / 2, (L.Y(float64(L.d.From[i])) + L.Y(float64(L.d.To[i]))) / 2
	}
	in := L.interiors[r]
	p, q := in[len(in)/2-1], in[len(in)/2]
	return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
}
