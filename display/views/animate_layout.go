package views

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// animateLayout is everything Go computes for an animated run; the static
// picture, the SVG and the live spec all read it.
type animateLayout struct {
	n, steps  int
	w, h      float64 // the live plot area, px
	r         float64 // live vertex radius, px
	x, y      []float64
	frame     Frame // in the data's units (Outside: vertices beyond the plot)
	scale     ColorScale
	finite    bool     // some value is finite
	noValue   []string // the non-finite kinds that occur: "+Inf", "-Inf", "NaN"
	messages  []int64  // per step
	active    []int    // per step, vertices in StateActive
	woken     []int    // per step, vertices in StateWoken
	frames    []int    // the static small multiples
	pulses    [][]int  // per step: indices of the pulses drawn
	sampled   bool     // some step has more pulses than drawn
	maxDrawn  int      // the cap
	edges     []int32  // the drawn edges, as pairs
	opacity   float64  // of the edges
	groupIDs  []int32  // the distinct group ids, ascending
	groupRank []int32  // per vertex: index into groupIDs (nil without groups)
	groupClr  []string // colour of rank k: groupClr[min(k, 9)] (grey beyond 9)
	caption   string
	trend     *trendSpec
}

const (
	animateMargin     = 12.0
	animateNoValue    = "#bdbdbd"
	animatePulseColor = "#e66101"
	animateActiveRing = "#222222"
	animateWokenRing  = "#999999"
	animateOutline    = "#666666"
	animateSeqRamp    = "purples"
	animateDivRamp    = "rdylbu"
	animateMaxGroups  = 9
)

// animateRadius is the live vertex radius for n vertices: a quarter of the
// spacing of n vertices spread evenly over a 640×480 picture, within 1–7
// px (larger than a drawing's: the colour must read).
func animateRadius(n int) float64 {
	if n <= 0 {
		return 7
	}
	return math.Round(math.Max(1, math.Min(7, 0.25*math.Sqrt(drawingWidth*480/float64(n))))*100) / 100
}

// groupColor is the outline colour of vertex i (L must have groups).
func (L *animateLayout) groupColor(i int) string {
	return L.groupClr[min(int(L.groupRank[i]), animateMaxGroups)]
}

// layout computes the animation; d must be valid.
func (d AnimateData) layout() animateLayout {
	n := len(d.X)
	L := animateLayout{n: n, steps: len(d.Steps), w: drawingWidth, r: animateRadius(n)}
	L.frame = FrameOf(d.X, d.Y)
	L.h = drawingHeight(L.frame, L.w, animateMargin+L.r)
	fx, fy := fitBox(d.X, d.Y, L.frame, L.w, L.h, animateMargin+L.r)
	L.x, L.y = make([]float64, n), make([]float64, n)
	for i := range n {
		L.x[i], L.y[i] = math.Round(fx[i]*100)/100, math.Round(fy[i]*100)/100
	}

	// The colour scale: finite values over all steps.
	lo, hi := math.Inf(1), math.Inf(-1)
	kinds := map[string]bool{}
	for _, st := range d.Steps {
		for _, v := range st.Value {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			} else {
				kinds[goFloat(v)] = true
			}
		}
	}
	for _, k := range []string{"+Inf", "-Inf", "NaN"} {
		if kinds[k] {
			L.noValue = append(L.noValue, k)
		}
	}
	L.finite = lo <= hi
	if !L.finite {
		lo, hi = 0, 0
	}
	if d.Scale == "diverging" {
		half := math.Max(math.Abs(hi-d.Center), math.Abs(lo-d.Center))
		if !L.finite {
			half = 0
		}
		ramp, _ := RampByName(animateDivRamp)
		L.scale = ColorScale{Ramp: ramp, Min: d.Center - half, Mid: d.Center, Max: d.Center + half}
	} else {
		ramp, _ := RampByName(animateSeqRamp)
		L.scale = ColorScale{Ramp: ramp, Min: lo, Max: hi}
	}

	// Per-step counts and the pulse samples.
	L.maxDrawn = d.maxPulses()
	L.messages = make([]int64, L.steps)
	L.active = make([]int, L.steps)
	L.woken = make([]int, L.steps)
	L.pulses = make([][]int, L.steps)
	for s, st := range d.Steps {
		if st.Sent != nil {
			for _, c := range st.Sent {
				L.messages[s] += int64(c)
			}
		} else {
			for _, p := range st.Pulses {
				L.messages[s] += int64(p.Count)
			}
		}
		for _, x := range st.State {
			switch x {
			case StateActive:
				L.active[s]++
			case StateWoken:
				L.woken[s]++
			}
		}
		L.pulses[s] = samplePulses(st.Pulses, L.maxDrawn, s)
		if len(L.pulses[s]) < countDrawable(st.Pulses) {
			L.sampled = true
		}
	}
	L.frames = d.Frames
	if L.frames == nil {
		L.frames = DefaultFrames(L.steps, L.messages)
	}

	// Edges.
	keep, _ := sampleEdges(d.Edges, drawingMaxSVGEdges)
	L.edges = make([]int32, 0, 2*len(keep))
	for _, k := range keep {
		L.edges = append(L.edges, d.Edges[k][0], d.Edges[k][1])
	}
	L.opacity = math.Round(math.Max(0.08, math.Min(0.45, 30/math.Sqrt(float64(max(len(keep), 1)))))*100) / 100

	// Groups: ranked by id, the first 9 coloured.
	if d.Group != nil {
		ids := slices.Clone(d.Group)
		slices.Sort(ids)
		L.groupIDs = slices.Compact(ids)
		pal := Palette(min(len(L.groupIDs), animateMaxGroups))
		L.groupClr = append(pal, drawingOtherColor)
		L.groupRank = make([]int32, n)
		for i, g := range d.Group {
			k, _ := slices.BinarySearch(L.groupIDs, g)
			L.groupRank[i] = int32(k)
		}
	}

	L.caption = d.captionText(&L)
	if d.Trend != nil {
		sp := buildTrendSpec(*d.Trend, drawingWidth)
		L.trend = &sp
	}
	return L
}

// captionText says what the picture holds, and whether pulses were sampled.
func (d AnimateData) captionText(L *animateLayout) string {
	s := plural(L.n, "vertex") + " · " + plural(L.steps, "superstep")
	if len(d.Edges) > 0 {
		s += " · " + plural(len(d.Edges), "edge")
	}
	if L.sampled {
		s += fmt.Sprintf(" · message pulses sampled: at most %s per superstep drawn", groupDigits(int64(L.maxDrawn)))
	}
	return s + outsideNote(L.frame.Outside, "vertex")
}

// countDrawable is the number of pulses with a positive count.
func countDrawable(p []Pulse) int {
	k := 0
	for _, x := range p {
		if x.Count > 0 {
			k++
		}
	}
	return k
}

// pulseKey is a hash of a pulse's endpoints and superstep: the sampling
// order (splitmix64's finaliser).
func pulseKey(from, to int32, step int) uint64 {
	z := uint64(uint32(from))<<32 | uint64(uint32(to))
	z ^= uint64(step) * 0xd1b54a32d192ed03
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// samplePulses returns the indices, in input order, of at most max pulses
// of superstep step to draw (those of positive count). Beyond max it keeps
// the pulses with the smallest hashes of (from, to, step), ties by input
// order: a deterministic sample, the same for the same data.
func samplePulses(p []Pulse, max, step int) []int {
	var keep []int
	for k, x := range p {
		if x.Count > 0 {
			keep = append(keep, k)
		}
	}
	if len(keep) <= max {
		return keep
	}
	type kk struct {
		key uint64
		k   int
	}
	keys := make([]kk, len(keep))
	for i, k := range keep {
		keys[i] = kk{pulseKey(p[k].From, p[k].To, step), k}
	}
	slices.SortFunc(keys, func(a, b kk) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return a.k - b.k
	})
	out := make([]int, max)
	for i := range out {
		out[i] = keys[i].k
	}
	slices.Sort(out)
	return out
}

// stateWord names a vertex state.
func stateWord(s uint8) string {
	switch s {
	case StateActive:
		return "active"
	case StateWoken:
		return "woken"
	}
	return "halted"
}

// tip is the hover text of vertex i at superstep s, as the runtime writes
// it.
func (d AnimateData) tip(i, s int) string {
	st := d.Steps[s]
	var b strings.Builder
	b.WriteString(d.label(i))
	fmt.Fprintf(&b, "\n%s = %s\n%s", d.valueName(), goFloat(st.Value[i]), stateWord(st.State[i]))
	sent, recv := d.counts(s)
	fmt.Fprintf(&b, "\nsent %d · received %d", sent[i], recv[i])
	if d.Group != nil {
		fmt.Fprintf(&b, "\n%s %d", d.groupName(), d.Group[i])
	}
	return b.String()
}

// counts are the messages each vertex sent and received in superstep s:
// Sent and Received where given, else summed from the pulses (all of
// them, not only the ones drawn).
func (d AnimateData) counts(s int) (sent, recv []int32) {
	st := d.Steps[s]
	sent, recv = st.Sent, st.Received
	if sent != nil && recv != nil {
		return sent, recv
	}
	n := len(d.X)
	ps, pr := make([]int32, n), make([]int32, n)
	for _, p := range st.Pulses {
		ps[p.From] += p.Count
		pr[p.To] += p.Count
	}
	if sent == nil {
		sent = ps
	}
	if recv == nil {
		recv = pr
	}
	return sent, recv
}

// fill is the colour of value v.
func (L *animateLayout) fill(v float64) string {
	if !finite(v) {
		return animateNoValue
	}
	c := L.scale.Ramp.Colors[L.rampEntry(L.scale.Index(v))]
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// animateRampFloor is the first entry of a sequential ramp that values
// take: the entries below it are too close to the white ground.
const animateRampFloor = 40

// animateLevels is how many colours a scale has: values are binned, so
// that the colours can be told apart (and a picture of a few hundred
// vertices keeps to a small PNG palette).
const animateLevels = 32

// rampEntry maps the scale's index i (0–255) to the ramp entry drawn, in
// animateLevels steps: a sequential ramp from animateRampFloor to 255; a
// diverging one in two halves of animateLevels/2 steps, the upper one
// starting at 128 (so the centre value gets the middle colour) and the
// lower one ending at 127.
func (L *animateLayout) rampEntry(i int) int {
	if L.scale.Ramp.Diverging {
		half := animateLevels / 2
		if i < 128 {
			return (i * half / 128) * 127 / (half - 1)
		}
		return 128 + ((i-128)*half/128)*127/(half-1)
	}
	q := i * animateLevels / 256
	return animateRampFloor + q*(255-animateRampFloor)/(animateLevels-1)
}
