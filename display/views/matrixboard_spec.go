package views

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"sort"
	"time"
)

// What the runtime draws a matrix board from (matrixboard.js). Geometry is
// Go's: every bar and cell rectangle comes from MatrixBoardLayout, every
// colour from the ramps' tables; the browser sums values over the brushed
// window, maps them through the same tables and formats them as
// formatValue does.

// matrixSpec is the runtime's view of a board.
type matrixSpec struct {
	Title      string                   `json:"title"`
	Unit       string                   `json:"unit"`
	Stat       string                   `json:"stat"`
	W          ang                      `json:"w"`
	H          ang                      `json:"h"`
	Cell       ang                      `json:"cell"`
	Canvas     bool                     `json:"canvas"` // draw cells on a canvas
	Panels     []matrixPanelSpec        `json:"panels"`
	Headers    []matrixHeaderSpec       `json:"headers"`
	Bars       matrixBarsSpec           `json:"bars"`
	Cats       []matrixCatSpec          `json:"categories"`
	Items      matrixItemsSpec          `json:"items"`
	Cells      matrixCellsSpec          `json:"cells"`
	Bins       matrixBinsSpec           `json:"bins"`
	Values     string                   `json:"values"` // base64 float32 little-endian, item-major: item*nbins+bin
	Maps       map[string]mapSpec       `json:"maps"`
	Ramps      map[string]rampTableSpec `json:"ramps"` // every ramp, for the colour controls
	Threshold  float64                  `json:"threshold"`
	Window     [2]int                   `json:"window"`
	Jobs       []matrixJobSpec          `json:"jobs"`
	MinJobSecs float64                  `json:"minJobSeconds"`
	Domain     map[string][3]float64    `json:"domain"` // the scales of the initial window, as Go computed them
	Routes     *matrixRoutesSpec        `json:"routes"`
	RoutesNote string                   `json:"routesNote"` // why there are no routes
	// The strips (matrixModel.fitTo): the title strip's height, where the
	// window's text starts ([x, y]), each legend entry's top left, and the
	// width the live board keeps its charts and controls to (0: none).
	TitleH ang               `json:"titleH"`
	Titles []string          `json:"titleLines"` // the title's lines, as the static picture draws them
	WinPos [2]ang            `json:"winPos"`
	Legend map[string][2]ang `json:"legend"`
	Fit    ang               `json:"fit"`
	HotKey *[2]ang           `json:"hotKey"` // the hot outline's key, [x, y] in board px; null without a threshold
	// MissingKey is the missing cells' key, [x, y] in board px (null
	// without missing cells), MissingName what they are called.
	MissingKey  *[2]ang `json:"missingKey"`
	MissingName string  `json:"missingName"`
	// RowLabels name the rows left of their bars: [x (the text's end), y (its baseline)] and the text.
	RowLabels []matrixRowLabelSpec `json:"rowLabels"`
}

type matrixRowLabelSpec struct {
	X    ang    `json:"x"`
	Y    ang    `json:"y"`
	Text string `json:"text"`
}

type matrixPanelSpec struct {
	Label string `json:"label"`
	L     [4]ang `json:"labelBox"` // x, y, w, h
	Frame [4]ang `json:"frame"`
}

type matrixHeaderSpec struct {
	ID  string `json:"id"`
	Cat int    `json:"cat"`
}

// Bars and cells as columns of numbers: the board of a large fabric has
// tens of thousands of them.
type matrixBarsSpec struct {
	X    []ang `json:"x"`
	Y    []ang `json:"y"`
	W    []ang `json:"w"`
	H    []ang `json:"h"`
	Hdr  []int `json:"hdr"`  // index into headers
	Side []int `json:"side"` // 0 in, 1 out, 2 whole
	Kind []int `json:"kind"` // 0 top, 1 column, 2 bottom
}

type matrixCatSpec struct {
	Name      string `json:"name"`
	Level     string `json:"level"`
	Direction string `json:"direction"`
}

type matrixItemsSpec struct {
	ID   []string `json:"id"`
	Name []string `json:"name"`
	Cat  []int    `json:"cat"`
	From []int    `json:"from"` // header index, -1 for none
	To   []int    `json:"to"`
	// Missing lists the items that do not exist (MatrixItem.Missing).
	Missing []int `json:"missing"`
}

type matrixCellsSpec struct {
	Item []int `json:"item"`
	X    []ang `json:"x"`
	Y    []ang `json:"y"`
}

type matrixBinsSpec struct {
	Start []int64 `json:"start"` // Unix seconds
	End   []int64 `json:"end"`
}

// mapSpec is a colour map: the ramp's 256 colours as hex digits, and the
// forced domain (empty: follow the values).
type mapSpec struct {
	Name      string    `json:"name"`
	Ramp      string    `json:"ramp"`
	Diverging bool      `json:"diverging"`
	Domain    []float64 `json:"domain"`
}

type rampTableSpec struct {
	Hex       string `json:"hex"`
	Diverging bool   `json:"diverging"`
}

type matrixJobSpec struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	User    string   `json:"user"`
	Start   int64    `json:"start"`
	End     int64    `json:"end"`
	Nodes   int      `json:"nodes"`
	Items   []int    `json:"items"`
	Headers []int    `json:"headers"`
	Stacks  [][2]int `json:"stacks"` // [header index, nodes]
	Ends    []int    `json:"ends"`   // its endpoints (routes)
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func (m *matrixModel) spec() matrixSpec {
	d := m.d
	W, H := m.matrixSize()
	sp := matrixSpec{Title: d.Title, Unit: d.Unit, Stat: d.Stat, W: a4(W), H: a4(H),
		Cell: a4(m.opt.Cell), Canvas: len(m.cells) > MatrixCanvasCells, Threshold: m.d.Threshold, Window: m.window,
		Maps: map[string]mapSpec{}, Domain: map[string][3]float64{},
		TitleH: a4(m.titleH), Fit: a4(m.fit), Legend: map[string][2]ang{}}
	sp.Titles = m.titleRows()
	for _, l := range m.rowLabels() {
		sp.RowLabels = append(sp.RowLabels, matrixRowLabelSpec{a4(l.X), a4(l.Y + m.titleH), l.Text})
	}
	if k := m.hotKey; k != nil {
		sp.HotKey = &[2]ang{a4(k[0]), a4(m.geo.H + m.titleH + 6 + k[1])}
	}
	if k := m.missingKey; k != nil {
		sp.MissingKey = &[2]ang{a4(k[0]), a4(m.geo.H + m.titleH + 6 + k[1])}
	}
	sp.MissingName = m.missingName()
	sp.Items.Missing = []int{}
	wx, wy, _ := m.windowPos()
	sp.WinPos = [2]ang{a4(wx), a4(wy)}
	for k, p := range m.legendPos {
		sp.Legend[k] = [2]ang{a4(p[0]), a4(m.geo.H + m.titleH + 6 + p[1])}
	}
	if sp.Stat != "mean" {
		sp.Stat = "max"
	}
	for _, p := range m.geo.Panels {
		label := ""
		if i := len(sp.Panels); i < len(d.Panels) {
			label = d.Panels[i].Label
		}
		sp.Panels = append(sp.Panels, matrixPanelSpec{Label: label,
			L:     [4]ang{a4(p.Label.X), a4(p.Label.Y + m.titleH), a4(p.Label.W), a4(p.Label.H)},
			Frame: [4]ang{a4(p.Frame.X), a4(p.Frame.Y + m.titleH), a4(p.Frame.W), a4(p.Frame.H)}})
		for _, b := range p.Bars {
			sp.Bars.X = append(sp.Bars.X, a4(b.X))
			sp.Bars.Y = append(sp.Bars.Y, a4(b.Y+m.titleH))
			sp.Bars.W = append(sp.Bars.W, a4(b.W))
			sp.Bars.H = append(sp.Bars.H, a4(b.H))
			sp.Bars.Hdr = append(sp.Bars.Hdr, m.hdrIndex[b.ID])
			sp.Bars.Side = append(sp.Bars.Side, int(b.Side))
			sp.Bars.Kind = append(sp.Bars.Kind, int(b.Kind))
		}
	}
	for i, id := range m.headers {
		sp.Headers = append(sp.Headers, matrixHeaderSpec{ID: id, Cat: m.hdrCat[i]})
	}
	for _, c := range d.Categories {
		sp.Cats = append(sp.Cats, matrixCatSpec(c))
	}
	hdr := func(id string) int {
		if h, ok := m.hdrIndex[id]; ok {
			return h
		}
		return -1
	}
	for _, it := range d.Items {
		sp.Items.ID = append(sp.Items.ID, it.ID)
		sp.Items.Name = append(sp.Items.Name, it.Name)
		sp.Items.Cat = append(sp.Items.Cat, it.Category)
		sp.Items.From = append(sp.Items.From, hdr(it.From))
		sp.Items.To = append(sp.Items.To, hdr(it.To))
		if it.Missing {
			sp.Items.Missing = append(sp.Items.Missing, len(sp.Items.ID)-1)
		}
	}
	for _, c := range m.cells {
		sp.Cells.Item = append(sp.Cells.Item, c.item)
		sp.Cells.X = append(sp.Cells.X, a4(c.box.X))
		sp.Cells.Y = append(sp.Cells.Y, a4(c.box.Y+m.titleH))
	}
	for _, b := range d.Bins {
		sp.Bins.Start = append(sp.Bins.Start, unixOrZero(b.Start))
		sp.Bins.End = append(sp.Bins.End, unixOrZero(b.End))
	}
	nb := len(d.Bins)
	buf := make([]byte, 4*nb*len(d.Items))
	for i := range d.Items {
		for b := 0; b < nb; b++ {
			binary.LittleEndian.PutUint32(buf[4*(i*nb+b):], math.Float32bits(float32(m.value(i, b))))
		}
	}
	sp.Values = base64.StdEncoding.EncodeToString(buf)
	for key, s := range m.scales {
		cm := d.Maps[key]
		sp.Maps[key] = mapSpec{Name: s.Ramp.Name, Ramp: s.Ramp.Hex(), Diverging: s.Ramp.Diverging, Domain: cm.Domain}
		sp.Domain[key] = [3]float64{s.Min, s.Mid, s.Max}
	}
	sp.Ramps = map[string]rampTableSpec{}
	for _, name := range RampNames() {
		if r, err := RampByName(name); err == nil {
			sp.Ramps[name] = rampTableSpec{Hex: r.Hex(), Diverging: r.Diverging}
		}
	}
	sp.MinJobSecs = 60
	if d.MinJobDuration != 0 {
		sp.MinJobSecs = math.Max(0, d.MinJobDuration.Seconds())
	}
	sp.Routes, sp.RoutesNote = m.routesSpec()
	for k, j := range d.Jobs {
		js := matrixJobSpec{ID: j.ID, Name: j.Name, User: j.User, Start: unixOrZero(j.Start), End: unixOrZero(j.End), Nodes: j.Nodes,
			Items: []int{}, Headers: []int{}, Stacks: [][2]int{}}
		for _, id := range j.Items {
			if i, ok := m.itemIndex[id]; ok {
				js.Items = append(js.Items, i)
			}
		}
		for _, id := range j.Headers {
			if h, ok := m.hdrIndex[id]; ok {
				js.Headers = append(js.Headers, h)
			}
		}
		for id, n := range j.Stacks {
			if h, ok := m.hdrIndex[id]; ok && n > 0 {
				js.Stacks = append(js.Stacks, [2]int{h, n})
			}
		}
		sort.Slice(js.Stacks, func(a, b int) bool { return js.Stacks[a][0] < js.Stacks[b][0] })
		js.Ends = []int{}
		if m.routes != nil {
			js.Ends = append(js.Ends, m.routes.jobEnd[k]...)
		}
		sp.Jobs = append(sp.Jobs, js)
	}
	return sp
}
