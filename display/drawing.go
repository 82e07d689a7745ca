package display

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

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
	// Groups is the community of each node (optional). Distinct values, in
	// ascending order, take the colours of Palette: up to nine groups are
	// colour-blind safe.
	Groups []int32
	// Edges are pairs of node indices (optional), drawn as thin translucent
	// lines under the nodes; self-loops are not drawn.
	Edges [][2]int32
	Title string
	// NodeSize is the node radius in px (0: automatic, from the node count).
	NodeSize float64
	// MaxEdges caps the edges drawn (0 or less: 20,000 for an SVG drawing,
	// 200,000 for a canvas one). Beyond it, a deterministic sample is drawn (the
	// same edges for the same endpoints, whatever their order), and the
	// caption says so.
	MaxEdges int
}

// Drawings of at least this many nodes are drawn on a canvas when live and
// as a PNG in the static picture; smaller ones as SVG.
const DrawingCanvasNodes = 5000

const (
	drawingWidth       = 640.0 // px
	drawingMinHeight   = 240.0
	drawingMaxHeight   = 560.0
	drawingTitleBand   = 22.0
	drawingCaptionBand = 18.0
	drawingMaxSVGEdges = 20000
	drawingMaxEdges    = 200000
	drawingMaxColors   = 1024 // groups beyond reuse colours (rank mod this)
	drawingEdgeColor   = "#555555"
	drawingEdgeWidth   = 0.6 // px
	drawingNodeColor   = "#3b6ea5"
	drawingPNGScale    = 1 // raster px per picture px (2 is sharper on HiDPI screens, but 3–4× the bytes)
)

// DrawingView is a graph drawing. It is small (SVG) below
// DrawingCanvasNodes nodes and large (canvas, PNG static picture) from there.
type DrawingView struct {
	Data DrawingData
}

// Drawing shows a node-link drawing: nodes coloured by group, thin
// translucent edges under them, fitted into a 640 px wide picture whose
// height follows the positions' aspect ratio. Small drawings are SVG; from
// DrawingCanvasNodes nodes on the static picture is a PNG and the live view
// a canvas. Live, the wheel zooms (about the pointer), dragging pans, a
// double click resets, and hovering a node shows its label and group.
func Drawing(d DrawingData) *DrawingView { return &DrawingView{Data: d} }

// drawingLayout is everything Go computes for a drawing; the static
// picture, the live spec and Positions all read it.
type drawingLayout struct {
	n        int
	w, h     float64 // the plot area, px
	r        float64 // node radius, px
	x, y     []float64
	rank     []int32  // colour rank per node (nil without groups)
	groupIDs []int32  // rank → group id
	colors   []string // colour of rank i: colors[i % len(colors)]
	order    []int32  // node drawing order on canvas and PNG: by rank, stable
	edges    []int32  // the drawn edges, as pairs of node indices
	drawable int      // edges that could be drawn (no self-loops)
	opacity  float64  // of the edges
	canvas   bool
}

// validate reports why d cannot be drawn, or nil.
func (d DrawingData) validate() error {
	n := len(d.X)
	if len(d.Y) != n {
		return fmt.Errorf("display.Drawing: %d x positions but %d y positions", n, len(d.Y))
	}
	if d.Labels != nil && len(d.Labels) != n {
		return fmt.Errorf("display.Drawing: %d labels for %d nodes", len(d.Labels), n)
	}
	if d.Groups != nil && len(d.Groups) != n {
		return fmt.Errorf("display.Drawing: %d groups for %d nodes", len(d.Groups), n)
	}
	for i := range n {
		if !finite(d.X[i]) || !finite(d.Y[i]) {
			return fmt.Errorf("display.Drawing: node %d has position (%v, %v)", i, d.X[i], d.Y[i])
		}
	}
	for k, e := range d.Edges {
		if e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n {
			return fmt.Errorf("display.Drawing: edge %d (%d, %d) names a node outside 0..%d", k, e[0], e[1], n-1)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

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
	n := min(len(x), len(y))
	fx, fy = make([]float64, n), make([]float64, n)
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range n {
		if finite(x[i]) && finite(y[i]) {
			x0, x1 = math.Min(x0, x[i]), math.Max(x1, x[i])
			y0, y1 = math.Min(y0, y[i]), math.Max(y1, y[i])
		}
	}
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

// drawingHeight is the plot height for positions of the given extent in a
// plot of width w with margin m: the aspect ratio, within bounds.
func drawingHeight(x, y []float64, w, m float64) float64 {
	if len(x) == 0 {
		return drawingMinHeight
	}
	dx := slices.Max(x) - slices.Min(x)
	dy := slices.Max(y) - slices.Min(y)
	switch {
	case dx <= 0 && dy <= 0:
		return drawingMinHeight
	case dx <= 0:
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
	L := drawingLayout{n: n, w: drawingWidth, canvas: n >= DrawingCanvasNodes}
	L.r = d.NodeSize
	if L.r <= 0 || !finite(L.r) {
		L.r = drawingRadius(n)
	}
	m := math.Ceil(L.r) + 6
	L.h = drawingHeight(d.X, d.Y, L.w, m)
	fx, fy := FitPositions(d.X, d.Y, L.w, L.h, m)
	for i := range fx { // the numbers every form of the picture draws
		fx[i], fy[i] = math.Round(fx[i]*100)/100, math.Round(fy[i]*100)/100
	}
	L.x, L.y = fx, fy

	if d.Groups != nil {
		ids := slices.Clone(d.Groups)
		slices.Sort(ids)
		L.groupIDs = slices.Compact(ids)
		L.colors = Palette(min(len(L.groupIDs), drawingMaxColors))
		L.rank = make([]int32, n)
		for i, g := range d.Groups {
			r, _ := slices.BinarySearch(L.groupIDs, g)
			L.rank[i] = int32(r)
		}
	} else {
		L.colors = []string{drawingNodeColor}
	}
	L.order = make([]int32, n)
	for i := range L.order {
		L.order[i] = int32(i)
	}
	if L.rank != nil {
		slices.SortStableFunc(L.order, func(a, b int32) int { return int(L.rank[a]) - int(L.rank[b]) })
	}

	limit := d.MaxEdges
	if limit <= 0 {
		limit = drawingMaxSVGEdges
		if L.canvas {
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
	return L.colors[int(L.rank[i])%len(L.colors)]
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
		s += "\ngroup " + strconv.Itoa(int(d.Groups[i]))
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
			s += fmt.Sprintf(", %s drawn (a deterministic sample)", FormatNumber(float64(drawn)))
		}
	}
	if L.rank != nil {
		s += " · " + plural(len(L.groupIDs), "group")
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return FormatNumber(float64(n)) + " " + what + "s"
}

func (d DrawingData) alt(L *drawingLayout) string {
	s := "Graph drawing"
	if d.Title != "" {
		s += " " + strconv.Quote(d.Title)
	}
	return s + ": " + d.caption(L)
}

// Positions returns the node positions as drawn: px in the plot area of the
// picture (the canvas, or the SVG's plot below the title), before any zoom.
// They are nil when the data cannot be drawn.
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
// with its hover text in data-tip) over the edges, and a caption. It is
// the static picture of drawings below DrawingCanvasNodes nodes; for larger
// ones it is still complete, but big (some 60 bytes a node).
func (v *DrawingView) SVG() string {
	if err := v.Data.validate(); err != nil {
		var w svgw
		w.open(drawingWidth, 60, "hatch")
		w.text(4, 30, err.Error(), fmt.Sprintf(` fill="%s"`, inkColor))
		w.close()
		return w.String()
	}
	L := v.Data.layout()
	return v.Data.svg(&L)
}

func (d DrawingData) top() float64 {
	if d.Title != "" {
		return drawingTitleBand
	}
	return 0
}

func (d DrawingData) svg(L *drawingLayout) string {
	top := d.top()
	height := top + L.h + drawingCaptionBand
	var w svgw
	w.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`,
		n2(L.w), n2(height), n2(L.w), n2(height), n2(fontSize))
	w.f(`<rect width="%s" height="%s" fill="#ffffff"/>`, n2(L.w), n2(height))
	if d.Title != "" {
		w.text(4, 15, fitText(d.Title, L.w-8, titleFont), fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(titleFont), inkColor))
	}
	// The plot: a nested <svg> clips what zooming moves outside it.
	w.f(`<svg class="ss-plot" x="0" y="%s" width="%s" height="%s" viewBox="0 0 %s %s" overflow="hidden">`, n2(top), n2(L.w), n2(L.h), n2(L.w), n2(L.h))
	// Its ground takes the pointer where no node is, and measures the plot
	// for the runtime (a nested <svg>'s client box is its content's).
	w.f(`<rect class="ss-bg" width="%s" height="%s" fill="#ffffff"/>`, n2(L.w), n2(L.h))
	w.WriteString(`<g class="ss-zoom">`)
	if len(L.edges) > 0 {
		w.f(`<path class="ss-edges" fill="none" stroke="%s" stroke-opacity="%s" stroke-width="%s" vector-effect="non-scaling-stroke" d="`,
			drawingEdgeColor, n2(L.opacity), n2(drawingEdgeWidth))
		for k := 0; k < len(L.edges); k += 2 {
			a, b := L.edges[k], L.edges[k+1]
			w.f("M%s %sL%s %s", n2(L.x[a]), n2(L.y[a]), n2(L.x[b]), n2(L.y[b]))
		}
		w.WriteString(`"/>`)
	}
	w.f(`<g class="ss-nodes" stroke="#ffffff" stroke-width="0.5">`)
	for i := 0; i < L.n; i++ {
		tip := strings.ReplaceAll(htmlEscape(d.tip(L, i)), "\n", "&#10;")
		w.f(`<circle class="ss-node" cx="%s" cy="%s" r="%s" fill="%s" vector-effect="non-scaling-stroke" data-tip="%s"/>`,
			n2(L.x[i]), n2(L.y[i]), n2(L.r), L.colorOf(i), tip)
	}
	w.WriteString(`</g></g></svg>`)
	w.text(4, height-5, fitText(d.caption(L), L.w-8, smallFont), fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), mutedInk))
	w.close()
	return w.String()
}

// PNG is the plot area of the drawing (no title or caption) as a PNG, one
// pixel per px: the static picture of drawings from
// DrawingCanvasNodes nodes on. Nodes are anti-aliased discs, edges
// anti-aliased lines, drawn in the order the live canvas draws them.
func (v *DrawingView) PNG() ([]byte, error) {
	if err := v.Data.validate(); err != nil {
		return nil, err
	}
	L := v.Data.layout()
	return L.png()
}

func (L *drawingLayout) png() ([]byte, error) {
	const s = drawingPNGScale
	r := raster{img: image.NewRGBA(image.Rect(0, 0, int(math.Ceil(L.w))*s, int(math.Ceil(L.h))*s))}
	for i := range r.img.Pix {
		r.img.Pix[i] = 255
	}
	ec := parseHex(drawingEdgeColor)
	alpha := L.opacity * drawingEdgeWidth
	for k := 0; k < len(L.edges); k += 2 {
		a, b := L.edges[k], L.edges[k+1]
		r.line(L.x[a]*s, L.y[a]*s, L.x[b]*s, L.y[b]*s, ec, alpha*s)
	}
	cols := make([][3]uint8, len(L.colors))
	for i, c := range L.colors {
		cols[i] = parseHex(c)
	}
	for _, i := range L.order {
		c := cols[0]
		if L.rank != nil {
			c = cols[int(L.rank[i])%len(cols)]
		}
		r.disc(L.x[i]*s, L.y[i]*s, L.r*s, c)
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, r.img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func parseHex(hex string) [3]uint8 {
	var r, g, b uint8
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return [3]uint8{r, g, b}
}

// raster draws on an opaque RGBA image (so premultiplied equals straight
// alpha) by blending.
type raster struct{ img *image.RGBA }

func (r raster) blend(x, y int, c [3]uint8, a float64) {
	b := r.img.Bounds()
	if x < 0 || y < 0 || x >= b.Dx() || y >= b.Dy() || a <= 0 {
		return
	}
	if a > 1 {
		a = 1
	}
	p := r.img.Pix[y*r.img.Stride+4*x:]
	for k := 0; k < 3; k++ {
		p[k] = uint8(float64(p[k])*(1-a) + float64(c[k])*a + 0.5)
	}
}

// line draws an anti-aliased line (Xiaolin Wu's) of opacity a; coordinates
// are pixel centres at +0.5.
func (r raster) line(x0, y0, x1, y1 float64, c [3]uint8, a float64) {
	x0, y0, x1, y1 = x0-0.5, y0-0.5, x1-0.5, y1-0.5
	steep := math.Abs(y1-y0) > math.Abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	dx := x1 - x0
	grad := 0.0
	if dx > 0 {
		grad = (y1 - y0) / dx
	}
	plot := func(x, y int, f float64) {
		if steep {
			r.blend(y, x, c, a*f)
		} else {
			r.blend(x, y, c, a*f)
		}
	}
	for x := int(math.Round(x0)); x <= int(math.Round(x1)); x++ {
		y := y0 + grad*(float64(x)-x0)
		fy := math.Floor(y)
		f := y - fy
		plot(x, int(fy), 1-f)
		plot(x, int(fy)+1, f)
	}
}

// disc fills an anti-aliased disc of radius rad centred at (cx, cy).
func (r raster) disc(cx, cy, rad float64, c [3]uint8) {
	for y := int(math.Floor(cy - rad - 1)); y <= int(math.Ceil(cy+rad+1)); y++ {
		for x := int(math.Floor(cx - rad - 1)); x <= int(math.Ceil(cx+rad+1)); x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			r.blend(x, y, c, rad+0.5-d)
		}
	}
}

// drawingSpec is what the runtime's drawing view draws from. A small
// drawing needs only the plot size and radius (the runtime inlines the
// static SVG); a large one carries the nodes as base64 little-endian typed
// arrays: positions as Float32, colour ranks as Uint8/16/32 (gb bytes),
// edges as Uint16/32 pairs (eb bytes).
type drawingSpec struct {
	Mode   string   `json:"mode"` // "svg" or "canvas"
	W      ang      `json:"w"`
	H      ang      `json:"h"`
	R      ang      `json:"r"`
	N      int      `json:"n"`
	X      string   `json:"x,omitempty"`
	Y      string   `json:"y,omitempty"`
	G      string   `json:"g,omitempty"`
	GB     int      `json:"gb,omitempty"`
	GID    []int32  `json:"gid,omitempty"`
	Colors []string `json:"colors,omitempty"`
	E      string   `json:"e,omitempty"`
	EB     int      `json:"eb,omitempty"`
	EC     string   `json:"ec,omitempty"`
	EO     ang      `json:"eo,omitempty"`
	EW     ang      `json:"ew,omitempty"`
	Labels []string `json:"labels,omitempty"`
}

func (d DrawingData) spec(L *drawingLayout) drawingSpec {
	sp := drawingSpec{Mode: "svg", W: a4(L.w), H: a4(L.h), R: a4(L.r), N: L.n}
	if !L.canvas {
		return sp
	}
	sp.Mode = "canvas"
	le := binary.LittleEndian
	f32 := func(v []float64) string {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			le.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	ints := func(v []int32, size int) string {
		b := make([]byte, size*len(v))
		for i, x := range v {
			switch size {
			case 1:
				b[i] = byte(x)
			case 2:
				le.PutUint16(b[2*i:], uint16(x))
			default:
				le.PutUint32(b[4*i:], uint32(x))
			}
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	sp.X, sp.Y = f32(L.x), f32(L.y)
	sp.Colors = L.colors
	if L.rank != nil {
		switch k := len(L.groupIDs); {
		case k <= 1<<8:
			sp.GB = 1
		case k <= 1<<16:
			sp.GB = 2
		default:
			sp.GB = 4
		}
		sp.G, sp.GID = ints(L.rank, sp.GB), L.groupIDs
	}
	if len(L.edges) > 0 {
		sp.EB = 4
		if L.n <= 1<<16 {
			sp.EB = 2
		}
		sp.E, sp.EC, sp.EO, sp.EW = ints(L.edges, sp.EB), drawingEdgeColor, a4(L.opacity), a4(drawingEdgeWidth)
	}
	if d.Labels != nil {
		sp.Labels = d.Labels
	}
	return sp
}

// MIMEBundle implements Renderer. Below DrawingCanvasNodes nodes the static
// picture is the SVG; from there on a PNG of the plot, with the title and
// caption as HTML text beside it.
func (v *DrawingView) MIMEBundle() Bundle {
	d := v.Data
	if err := d.validate(); err != nil {
		return TextBundle(err.Error())
	}
	L := d.layout()
	alt := d.alt(&L)
	sp := d.spec(&L)
	if !L.canvas {
		svg := d.svg(&L)
		return Bundle{Data: map[string]any{
			"text/html":     LiveHTML(svg, alt, "drawing", sp),
			"image/svg+xml": svg,
			"text/plain":    alt,
		}}
	}
	pic, err := L.png()
	if err != nil {
		return TextBundle(fmt.Sprintf("display.Drawing: %v", err))
	}
	b64 := base64.StdEncoding.EncodeToString(pic)
	spec := mustJSON(sp)
	id := contentID("drawing", alt, b64, string(spec))
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="superstep-display" id="%s" data-kind="drawing">`, id)
	if d.Title != "" {
		fmt.Fprintf(&h, `<div style="font:bold 13px sans-serif;color:#222;margin:0 0 4px">%s</div>`, htmlEscape(d.Title))
	}
	fmt.Fprintf(&h, `<img alt="%s" width="%s" height="%s" src="data:image/png;base64,%s" style="max-width:100%%;height:auto"/>`,
		htmlEscape(alt), n2(L.w), n2(L.h), b64)
	fmt.Fprintf(&h, `<div style="font:10px sans-serif;color:#666;margin-top:2px">%s</div></div>`, htmlEscape(d.caption(&L)))
	fmt.Fprintf(&h, "<script type=\"text/javascript\">\n%s\nsuperstep.live(%q, %q, %s);\n</script>", RuntimeJS, id, "drawing", spec)
	w, hh := int(math.Ceil(L.w)), int(math.Ceil(L.h))
	return Bundle{
		Data: map[string]any{
			"text/html":  h.String(),
			"image/png":  b64,
			"text/plain": alt,
		},
		Metadata: map[string]any{"image/png": map[string]any{"width": w, "height": hh}},
	}
}

// WritePositionsTSV writes node positions as tab-separated values with the
// header "id\tlabel\tx\ty\tgroup": the node index, its label, x and y (the
// shortest decimal that reads back as the same float64) and its group.
// labels and groups may be nil (empty columns). Tabs and line breaks in a
// label become spaces, so every node is one line.
func WritePositionsTSV(w io.Writer, labels []string, x, y []float64, groups []int32) error {
	n := len(x)
	if len(y) != n {
		return fmt.Errorf("display.WritePositionsTSV: %d x but %d y positions", n, len(y))
	}
	if labels != nil && len(labels) != n {
		return fmt.Errorf("display.WritePositionsTSV: %d labels for %d nodes", len(labels), n)
	}
	if groups != nil && len(groups) != n {
		return fmt.Errorf("display.WritePositionsTSV: %d groups for %d nodes", len(groups), n)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("id\tlabel\tx\ty\tgroup\n")
	clean := strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")
	var buf []byte
	for i := range n {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		buf = append(buf, '\t')
		if labels != nil {
			buf = append(buf, clean.Replace(labels[i])...)
		}
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, x[i], 'g', -1, 64)
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, y[i], 'g', -1, 64)
		buf = append(buf, '\t')
		if groups != nil {
			buf = strconv.AppendInt(buf, int64(groups[i]), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
