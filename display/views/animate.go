package views

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"superstep/display"
)

// The animated run, by concern: this file holds the data, its validation,
// the view and its figure; animate_layout.go fits the positions, computes
// the colour scale, the default frames and the pulse samples;
// animate_svg.go draws the static small multiples (SVG and raster);
// animate_spec.go packs what the runtime (runtime/src/animate.js) plays.

// AnimateData is a vertex program's run laid on a drawing: per superstep,
// each vertex's value and state and the messages sent along edges.
type AnimateData struct {
	Title string
	// X and Y are the vertex positions, in any units, fitted like
	// Drawing's (Y grows downwards). Both must have the same length, the
	// number of vertices, and hold finite numbers.
	X, Y []float64
	// Labels is the hover name per vertex (optional; "vertex i").
	Labels []string
	// Edges are drawn under the vertices (optional; each once).
	Edges [][2]int32
	// ValueName names the value in the legend and on hover (default
	// "value").
	ValueName string
	// Scale is "sequential" (default: low light, high dark, one hue ramp,
	// from the lowest to the highest finite value of the run) or
	// "diverging" (around Center, symmetric: Center is the middle colour).
	// Values are binned into 32 colours, so that they can be told apart;
	// the hover text shows the exact value.
	Scale  string
	Center float64
	// Group outlines each vertex in its group's colour (optional: the
	// worker or host running it); GroupName names it in the legend and on
	// hover (default "worker").
	Group     []int32
	GroupName string
	// Steps holds one entry per superstep, in order (superstep i is
	// Steps[i]).
	Steps []AnimateStep
	// Trend is the job's heartbeat (optional), one frame per superstep:
	// drawn under the drawing, the current superstep marked on it; a click
	// on a superstep of it jumps there.
	Trend *TrendData
	// Frames are the supersteps of the static small multiples (nil: 6
	// evenly spaced from first to last, plus the busiest — most messages —
	// if not among them; see DefaultFrames).
	Frames []int
	// Start is the superstep the live view opens at (default 0): a
	// stepped job's frame opens at the superstep just run.
	Start int
	// MaxPulses caps the message pulses drawn per superstep (0: 2,000);
	// beyond it a deterministic sample (the same pulses for the same data)
	// is drawn and the caption says so.
	MaxPulses int
}

// AnimateStep is one superstep of an AnimateData.
type AnimateStep struct {
	// Value is per vertex, after the superstep; ±Inf and NaN are allowed
	// (drawn in a "no value" grey).
	Value []float64
	// State is per vertex: StateHalted (did not compute), StateWoken
	// (computed, set nothing, sent nothing) or StateActive.
	State []uint8
	// Sent and Received are the messages per vertex in this superstep
	// (received: delivered at its end). Either may be nil: then it is
	// counted from Pulses.
	Sent, Received []int32
	// Pulses are the messages along edges in this superstep.
	Pulses []Pulse
}

// Pulse is Count messages from vertex From to vertex To within one
// superstep.
type Pulse struct{ From, To, Count int32 }

// The states of a vertex in a superstep.
const (
	StateHalted uint8 = iota // did not compute
	StateWoken               // computed, but set nothing and sent nothing
	StateActive              // computed and changed its value or sent
)

// AnimateView plays a vertex program's run on a graph drawing.
type AnimateView struct {
	Data AnimateData
}

// Animate shows a vertex program's run on a drawing. Live, it plays the
// supersteps: vertices coloured by value, active ones ringed, messages as
// pulses travelling along the edges, with play/pause, step and scrub
// controls, a speed choice and the keyboard (space, ←, →) once the view
// has focus; hovering a vertex shows its value, state and messages, and
// the optional trend strip marks the current superstep and jumps to the
// one clicked. The static picture is a grid of small multiples of chosen
// supersteps (AnimateData.Frames) with one legend.
func Animate(d AnimateData) *AnimateView { return &AnimateView{Data: d} }

// animateDefaultPulses is the pulse cap per superstep when MaxPulses is 0.
const animateDefaultPulses = 2000

// validate reports why d cannot be drawn, or nil.
func (d AnimateData) validate() error {
	n := len(d.X)
	if len(d.Y) != n {
		return fmt.Errorf("views.Animate: %d x positions but %d y positions", n, len(d.Y))
	}
	if d.Labels != nil && len(d.Labels) != n {
		return fmt.Errorf("views.Animate: %d labels for %d vertices", len(d.Labels), n)
	}
	if d.Group != nil && len(d.Group) != n {
		return fmt.Errorf("views.Animate: %d groups for %d vertices", len(d.Group), n)
	}
	for i := range n {
		if !finite(d.X[i]) || !finite(d.Y[i]) {
			return fmt.Errorf("views.Animate: vertex %d has position (%v, %v)", i, d.X[i], d.Y[i])
		}
	}
	for k, e := range d.Edges {
		if e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n {
			return fmt.Errorf("views.Animate: edge %d (%d, %d) names a vertex outside 0..%d", k, e[0], e[1], n-1)
		}
	}
	switch d.Scale {
	case "", "sequential", "diverging":
	default:
		return fmt.Errorf("views.Animate: unknown scale %q (known: sequential, diverging)", d.Scale)
	}
	if !finite(d.Center) {
		return fmt.Errorf("views.Animate: center %v is not a finite number", d.Center)
	}
	if d.Start < 0 || d.Start > 0 && d.Start >= len(d.Steps) {
		return fmt.Errorf("views.Animate: Start is superstep %d, outside 0..%d", d.Start, len(d.Steps)-1)
	}
	if d.MaxPulses < 0 {
		return fmt.Errorf("views.Animate: MaxPulses %d is negative", d.MaxPulses)
	}
	for s, st := range d.Steps {
		if len(st.Value) != n {
			return fmt.Errorf("views.Animate: step %d has %d values for %d vertices", s, len(st.Value), n)
		}
		if len(st.State) != n {
			return fmt.Errorf("views.Animate: step %d has %d states for %d vertices", s, len(st.State), n)
		}
		for i, x := range st.State {
			if x > StateActive {
				return fmt.Errorf("views.Animate: vertex %d of step %d has state %d (known: 0 halted, 1 woken, 2 active)", i, s, x)
			}
		}
		for _, c := range []struct {
			name string
			v    []int32
		}{{"sent", st.Sent}, {"received", st.Received}} {
			if c.v == nil {
				continue
			}
			if len(c.v) != n {
				return fmt.Errorf("views.Animate: step %d has %d %s counts for %d vertices", s, len(c.v), c.name, n)
			}
			for i, x := range c.v {
				if x < 0 {
					return fmt.Errorf("views.Animate: vertex %d of step %d has %s count %d", i, s, c.name, x)
				}
			}
		}
		for k, p := range st.Pulses {
			switch {
			case p.From < 0 || int(p.From) >= n:
				return fmt.Errorf("views.Animate: pulse %d of step %d comes from vertex %d of %d", k, s, p.From, n)
			case p.To < 0 || int(p.To) >= n:
				return fmt.Errorf("views.Animate: pulse %d of step %d goes to vertex %d of %d", k, s, p.To, n)
			case p.Count < 0:
				return fmt.Errorf("views.Animate: pulse %d of step %d has count %d", k, s, p.Count)
			}
		}
	}
	for k, f := range d.Frames {
		if f < 0 || f >= len(d.Steps) {
			return fmt.Errorf("views.Animate: frame %d is superstep %d, outside 0..%d", k, f, len(d.Steps)-1)
		}
	}
	if d.Trend != nil && len(d.Trend.Frames) != len(d.Steps) {
		return fmt.Errorf("views.Animate: the trend has %d frames for %d supersteps", len(d.Trend.Frames), len(d.Steps))
	}
	return nil
}

func (d AnimateData) valueName() string {
	if d.ValueName == "" {
		return "value"
	}
	return d.ValueName
}

func (d AnimateData) groupName() string {
	if d.GroupName == "" {
		return "worker"
	}
	return d.GroupName
}

func (d AnimateData) label(i int) string {
	if d.Labels != nil && d.Labels[i] != "" {
		return d.Labels[i]
	}
	return "vertex " + strconv.Itoa(i)
}

func (d AnimateData) maxPulses() int {
	if d.MaxPulses <= 0 {
		return animateDefaultPulses
	}
	return d.MaxPulses
}

// goFloat formats x as Go's %v does (the hover text and the legend).
func goFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func (d AnimateData) alt(L *animateLayout) string {
	s := "Animated vertex program run"
	if d.Title != "" {
		s += " " + strconv.Quote(d.Title)
	}
	return s + ": " + L.caption
}

// DefaultFrames returns the supersteps of the static small multiples when
// AnimateData.Frames is nil, for a run of the given number of supersteps
// whose superstep i sent messages[i] messages: all of them up to 6, else 6
// evenly spaced from first to last (superstep round(k·(steps−1)/5) for
// k = 0..5, so 10 supersteps give 0, 2, 4, 5, 7, 9), plus the busiest (the
// first with the most messages) if it is not among them, in order.
func DefaultFrames(steps int, messages []int64) []int {
	if steps <= 0 {
		return []int{}
	}
	var out []int
	if steps <= 6 {
		for i := range steps {
			out = append(out, i)
		}
		return out
	}
	for k := 0; k <= 5; k++ {
		f := int(math.Round(float64(k) * float64(steps-1) / 5))
		if len(out) == 0 || out[len(out)-1] != f {
			out = append(out, f)
		}
	}
	busiest, most := -1, int64(-1)
	for i := 0; i < steps && i < len(messages); i++ {
		if messages[i] > most {
			busiest, most = i, messages[i]
		}
	}
	if busiest < 0 || most <= 0 {
		return out
	}
	for k, f := range out {
		if f == busiest {
			return out
		}
		if f > busiest {
			return append(out[:k], append([]int{busiest}, out[k:]...)...)
		}
	}
	return append(out, busiest)
}

// Frames returns the supersteps the static picture shows (nil when the
// data cannot be drawn).
func (v *AnimateView) Frames() []int {
	if v.Data.validate() != nil {
		return nil
	}
	L := v.Data.layout()
	return L.frames
}

// Positions returns the vertex positions as the live view draws them: px
// in its plot area (below the title), before any zoom; nil when the data
// cannot be drawn.
func (v *AnimateView) Positions() (x, y []float64) {
	if v.Data.validate() != nil {
		return nil, nil
	}
	L := v.Data.layout()
	return L.x, L.y
}

// PlotSize is the size in px of the live plot area that Positions refer
// to.
func (v *AnimateView) PlotSize() (width, height float64) {
	if v.Data.validate() != nil {
		return drawingWidth, drawingMinHeight
	}
	L := v.Data.layout()
	return L.w, L.h
}

// SVG is the static picture as an SVG document: the small multiples, the
// legend, the caption and the trend; or the reason it cannot be drawn.
func (v *AnimateView) SVG() string {
	if err := v.Data.validate(); err != nil {
		return errorSVG(err)
	}
	L := v.Data.layout()
	return v.Data.staticSVG(&L, true)
}

// PNG is the static picture as a PNG, one pixel per px.
func (v *AnimateView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *AnimateView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *AnimateView) figure() figure {
	d := v.Data
	if err := d.validate(); err != nil {
		return figure{err: err}
	}
	L := d.layout()
	return figure{
		makeSVG: func() string { return d.staticSVG(&L, true) },
		alt:     d.alt(&L),
		kind:    "animate",
		spec:    d.spec(&L),
		raster:  func(scale float64) (*image.RGBA, error) { return d.render(&L, scale) },
	}
}
