package views

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"superstep/display"
)

// The graph drawing, by concern: this file holds the data, the view and its
// figure; drawing_layout.go fits the positions, ranks the groups and samples
// the edges; drawing_svg.go writes the SVG; drawing_raster.go draws the
// static picture; drawing_spec.go packs what the runtime draws from.

// DrawingData is a node-link drawing: positions computed elsewhere (a
// layout), optional labels, communities and edges.
type DrawingData struct {
	// X and Y are the node positions, in any units: the drawing fits them
	// into the picture, keeping the aspect ratio. Y grows downwards, as on
	// screen. Both must have the same length, the number of nodes, and hold
	// finite numbers.
	X, Y []float64
	// Labels is the hover text per node (optional; "node i" when absent
	// or empty).
	Labels []string
	// Groups is the community of each node (optional). The largest groups
	// (ColoredGroups of them) take the colour-blind-safe colours of
	// Palette, largest first, and are named in a legend; the others are
	// grey. Hovering a node names its group.
	Groups []int32
	// GroupName is what a group is called in the legend and on hover
	// (default "group"; e.g. "community").
	GroupName string
	// ColoredGroups is how many of the largest groups get a colour of
	// their own (default and at most 9: more colours cannot be told apart).
	ColoredGroups int
	// Edges are pairs of node indices (optional), drawn as thin translucent
	// lines under the nodes; self-loops are not drawn.
	Edges [][2]int32
	Title string
	// NodeSize is the node radius in px (0: automatic, from the node count).
	NodeSize float64
	// MaxEdges caps the edges drawn (0 or less: 20,000 below
	// DrawingCanvasNodes nodes, 200,000 from there). Beyond it, a
	// deterministic sample is drawn (the same edges for the same endpoints,
	// whatever their order), and the caption says so.
	MaxEdges int
}

// Drawings of at least this many nodes draw up to 200,000 edges (smaller
// ones up to 20,000), and their SVG export is big (some 60 bytes a node).
const DrawingCanvasNodes = 5000

const (
	drawingWidth       = 640.0 // px
	drawingMinHeight   = 240.0
	drawingMaxHeight   = 560.0
	drawingTitleBand   = 22.0
	drawingCaptionBand = 18.0
	drawingLegendRow   = 16.0
	drawingMaxSVGEdges = 20000
	drawingMaxEdges    = 200000
	drawingMaxColored  = 9
	drawingOtherColor  = "#c4c4c4" // groups beyond the coloured ones
	drawingEdgeColor   = "#555555"
	drawingEdgeWidth   = 0.6 // px
	drawingNodeColor   = "#3b6ea5"
)

// DrawingView is a graph drawing.
type DrawingView struct {
	Data DrawingData
}

// Drawing shows a node-link drawing: nodes coloured by group (the largest
// groups in colour, with a legend; the rest grey), thin translucent edges
// under them, fitted into a 640 px wide picture whose height follows the
// positions' aspect ratio. Live, Ctrl/⌘ + wheel or a pinch zooms (about
// the pointer; a plain wheel scrolls the notebook), dragging pans, a double
// click resets, and hovering a node shows its label and group.
func Drawing(d DrawingData) *DrawingView { return &DrawingView{Data: d} }

// validate reports why d cannot be drawn, or nil.
func (d DrawingData) validate() error {
	n := len(d.X)
	if len(d.Y) != n {
		return fmt.Errorf("views.Drawing: %d x positions but %d y positions", n, len(d.Y))
	}
	if d.Labels != nil && len(d.Labels) != n {
		return fmt.Errorf("views.Drawing: %d labels for %d nodes", len(d.Labels), n)
	}
	if d.Groups != nil && len(d.Groups) != n {
		return fmt.Errorf("views.Drawing: %d groups for %d nodes", len(d.Groups), n)
	}
	for i := range n {
		if !finite(d.X[i]) || !finite(d.Y[i]) {
			return fmt.Errorf("views.Drawing: node %d has position (%v, %v)", i, d.X[i], d.Y[i])
		}
	}
	for k, e := range d.Edges {
		if e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n {
			return fmt.Errorf("views.Drawing: edge %d (%d, %d) names a node outside 0..%d", k, e[0], e[1], n-1)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (d DrawingData) alt(L *drawingLayout) string {
	s := "Graph drawing"
	if d.Title != "" {
		s += " " + strconv.Quote(d.Title)
	}
	return s + ": " + d.caption(L)
}

// Positions returns the node positions as drawn: px in the plot area of the
// picture (below the title), before any zoom. They are nil when the data
// cannot be drawn.
func (v *DrawingView) Positions() (x, y []float64) {
	if v.Data.validate() != nil {
		return nil, nil
	}
	L := v.Data.layout()
	return L.x, L.y
}

// PlotSize is the size in px of the plot area that Positions refer to.
func (v *DrawingView) PlotSize() (width, height float64) {
	if v.Data.validate() != nil {
		return drawingWidth, drawingMinHeight
	}
	L := v.Data.layout()
	return L.w, L.h
}

// SVG is the drawing as an SVG document: title, the nodes (each circle
// with its hover text in data-tip) over the edges, the legend and a
// caption; or the reason it cannot be drawn, as text.
func (v *DrawingView) SVG() string {
	if err := v.Data.validate(); err != nil {
		return errorSVG(err)
	}
	L := v.Data.layout()
	return v.Data.svg(&L)
}

// PNG is the drawing as a PNG, one pixel per px (Save draws it at any
// size).
func (v *DrawingView) PNG() ([]byte, error) {
	f := v.figure()
	if f.err != nil {
		return nil, f.err
	}
	return f.png(1)
}

// MIMEBundle implements Renderer.
func (v *DrawingView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *DrawingView) figure() figure {
	d := v.Data
	if err := d.validate(); err != nil {
		return figure{err: err}
	}
	L := d.layout()
	return figure{
		makeSVG: func() string { return d.svg(&L) },
		alt:     d.alt(&L),
		kind:    "drawing",
		spec:    d.spec(&L),
		raster:  func(scale float64) (*image.RGBA, error) { return d.render(&L, scale) },
	}
}
