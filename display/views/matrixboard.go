package views

import (
	"fmt"
	"strings"
	"time"

	"superstep/display"
)

// The matrix board, by concern: matrixboard_layout.go places panels, bars
// and cells (MatrixBoardLayout); this file holds the data the board shows
// and the view; matrixboard_values.go aggregates values over a window and
// picks colours; matrixboard_spec.go packs what the runtime draws from;
// matrixboard_svg.go writes the static picture.

// MatrixCategory is a class of items, e.g. one of a fat-tree's six kinds
// of directed link. Level and Direction are what the live time chart's
// toggles group series by (one series per category, per Level, per
// Direction, or one in all), and Direction picks the colour map of the
// category's cells and what the direction radio shows or hides.
type MatrixCategory struct {
	Name      string // "L1→L2"
	Level     string // "L1–L2"
	Direction string // "up" or "down" (or any name with a colour map)
}

// MatrixItem is one thing that has a value per time bin: a cell of the
// board when a panel's cell names its ID, or an item without a cell (a
// fat-tree's host links) that still counts in the time chart, the
// histogram's totals and the bars' colours.
type MatrixItem struct {
	ID       string // unique on the board
	Name     string // hover title, e.g. "L1 p0 s1 → L2 p0 s3"
	Category int    // index into MatrixBoardData.Categories
	// From and To are the header ids the item leaves and enters ("" for
	// none): a split bar's Out half is coloured by the largest of its
	// header's From items, its In half by the largest of its To items.
	From, To string
	// Missing marks an item that does not exist (a fat-tree link whose
	// cable is missing): its cell is drawn grey and hatched, named so in
	// the legend and its tooltip, and counts in no colour scale, hot
	// share, histogram or summary. Its values must be 0.
	Missing bool
}

// MatrixBin is one time bin: values are what happened in [Start, End).
type MatrixBin struct{ Start, End time.Time }

// MatrixColorMap is how one group of cells or bar halves is coloured: a
// ramp (RampNames) and its domain. An empty Domain follows the values
// shown: a single-hue ramp spans 0 (or the least value, if negative) to
// the largest, a diverging one the least to the largest with their mean
// in the middle; two values force [min, max]; three force
// [min, mid, max].
type MatrixColorMap struct {
	Ramp   string
	Domain []float64
}

// MatrixJob is one job of the board's job table: a row that, selected,
// sets the time window to the job's interval and fades every cell and
// header outside its footprint.
type MatrixJob struct {
	ID, Name, User string
	Start, End     time.Time
	Nodes          int
	Items          []string       // the items of its footprint
	Headers        []string       // the headers (switches) of its footprint
	Stacks         map[string]int // header id → how many of its nodes sit under that header (placement stacks on top bars)
	Endpoints      []string       // its MatrixRoutes endpoints: a selected job limits routes to them
}

// defaultMatrixMap is the ramp of a colour map the data leaves unset,
// keyed as MatrixBoardData.Maps: up and down cells, In and Out bar halves
// (any other direction gets Greens, as up).
func defaultMatrixMap(key string) string {
	switch key {
	case "down":
		return "oranges"
	case "in":
		return "purples"
	case "out":
		return "pink"
	}
	return "greens"
}

// MatrixBoardPayload is the most bytes of values a live board ships by
// default: more bins than fit are merged (MatrixBoardData.MaxBins).
const MatrixBoardPayload = 6 << 20

// MatrixBoardMaxBins is the default most bins a live board ships.
const MatrixBoardMaxBins = 128

// MatrixCanvasCells is the number of cells from which the static picture
// is drawn straight to pixels rather than through SVG, and the live board
// draws its cells on a canvas.
const MatrixCanvasCells = 20000

// MatrixBoard shows a matrix board: the panels of d, its cells coloured by
// their total over the window, switch bars by the largest of their items,
// with, live, a time chart and a histogram to brush, direction and colour
// controls, hot cells outlined, and the job table. It is TreeScope's
// matrix view when the items are a fat-tree's links (sdk.FatTree builds
// it), but knows nothing of fat-trees.
func MatrixBoard(d MatrixBoardData) *MatrixBoardView {
	return &MatrixBoardView{Data: d}
}

// MatrixBoardView is a matrix board as a display value.
type MatrixBoardView struct {
	Data MatrixBoardData
	fit  float64 // the width it is laid out for (fitWidth), 0: none
}

// MIMEBundle is the static picture with the call that makes it live.
func (v *MatrixBoardView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

// SVG is the static picture of the board over its window.
func (v *MatrixBoardView) SVG() string {
	m, err := v.model()
	if err != nil {
		return errorSVG(err)
	}
	return matrixBoardSVG(m)
}

func (v *MatrixBoardView) figure() figure {
	m, err := v.model()
	if err != nil {
		return figure{kind: "matrixboard", err: fmt.Errorf("views: matrix board: %w", err)}
	}
	alt := m.alt()
	f := figure{alt: alt, text: alt + "\n" + m.summary(), kind: "matrixboard", spec: m.spec(), scales: map[string][2]float64{}}
	for key, s := range m.scales {
		// A colour map is one quantity on one ramp: a difference board's
		// diverging map is another scale than its boards' own.
		f.scales[fmt.Sprintf("%s colour (%s)", key, s.Ramp.Name)] = [2]float64{s.Min, s.Max}
	}
	if len(m.cells) > MatrixCanvasCells {
		f.makeSVG = func() string { return matrixBoardSVG(m) }
	} else {
		f.svg = matrixBoardSVG(m)
	}
	return f
}

// MatrixBoardSummary is the numbers of a board over its window, as its
// text form prints them.
type MatrixBoardSummary struct {
	Cells, Items, Bins int
	Window             [2]int   // first and last bin of the window
	Max                float64  // the largest cell total in the window
	MaxItem            string   // its item
	Hot                []string // the items of the cells at or above the threshold
	Missing            []string // the items of the missing cells (MatrixItem.Missing)
}

// Summary is the board's numbers over its window: what the static
// picture shows, for tests and for cells that print rather than draw.
func (v *MatrixBoardView) Summary() (MatrixBoardSummary, error) {
	m, err := newMatrixModel(v.Data)
	if err != nil {
		return MatrixBoardSummary{}, err
	}
	s := MatrixBoardSummary{Cells: len(m.cells), Items: len(m.d.Items), Bins: len(m.d.Bins), Window: m.window}
	first := true
	for _, c := range m.cells {
		if m.d.Items[c.item].Missing {
			s.Missing = append(s.Missing, m.d.Items[c.item].ID)
			continue
		}
		t := m.total[c.item]
		if first || t > s.Max {
			s.Max, s.MaxItem, first = t, m.d.Items[c.item].ID, false
		}
		if m.hot(c.item) {
			s.Hot = append(s.Hot, m.d.Items[c.item].ID)
		}
	}
	return s, nil
}

func (m *matrixModel) alt() string {
	d := m.d
	s := fmt.Sprintf("Matrix board of %d panels, %d cells", len(d.Panels), len(m.cells))
	if n := m.missingCells(); n > 0 {
		s += fmt.Sprintf(" (%s: %d)", m.missingName(), n)
	}
	if d.Title != "" {
		s = d.Title + ": " + s
	}
	if len(d.Bins) > 0 {
		a, b := d.Bins[m.window[0]], d.Bins[m.window[1]]
		s += fmt.Sprintf(", totals from %s to %s", a.Start.UTC().Format("2006-01-02 15:04:05"), b.End.UTC().Format("2006-01-02 15:04:05"))
	}
	return s
}

func (m *matrixModel) summary() string {
	var b strings.Builder
	best, hot := -1, 0
	for _, c := range m.cells {
		if m.d.Items[c.item].Missing {
			continue
		}
		if best < 0 || m.total[c.item] > m.total[best] {
			best = c.item
		}
		if m.hot(c.item) {
			hot++
		}
	}
	if best >= 0 {
		fmt.Fprintf(&b, "largest cell: %s, %s", m.d.Items[best].Name, display.FormatValue(m.total[best], m.d.Unit))
	}
	if m.d.Threshold > 0 {
		fmt.Fprintf(&b, "; %d cells at or above %s", hot, display.FormatValue(m.d.Threshold, m.d.Unit))
	}
	if len(m.d.Jobs) > 0 {
		fmt.Fprintf(&b, "; %d jobs", len(m.d.Jobs))
	}
	if m.missingCells() > 0 {
		fmt.Fprintf(&b, "; %s", m.missingText())
	}
	return b.String()
}
