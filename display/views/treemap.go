package views

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"superstep/display"
)

// TreeNode is a node of a hierarchy shown as a treemap. Leaves carry Value;
// an internal node's value is the sum of its children's.
type TreeNode struct {
	ID, Name, Color string
	Value           float64
	Children        []TreeNode
}

// Tile is one node's rectangle in a treemap.
type Tile struct {
	ID, Name, Color string
	Value           float64 // the node's value; for internal nodes the sum of the leaves
	X, Y, W, H      float64
	Depth           int  // 0 for the root
	Parent          int  // index of the parent's tile, -1 for the root
	Leaf            bool // no children with a positive value
	// Header is the height of the band at the top of an internal node that
	// holds its name; its children fill the rest.
	Header float64
}

const (
	treemapHeader = 15.0 // header band of internal nodes, px
	treemapPad    = 2.0  // padding inside internal nodes, px
)

// treeValue is the node's value: its own for a leaf, the sum of its
// children's otherwise; invalid and negative values count as 0.
func treeValue(n TreeNode) float64 {
	if len(n.Children) == 0 {
		return clean(n.Value)
	}
	s := 0.0
	for _, c := range n.Children {
		s += treeValue(c)
	}
	return s
}

// SquarifiedLayout lays out a tree as a nested squarified treemap (Bruls,
// Huizing and van Wijk, 2000) in a width×height rectangle. Tiles come in
// pre-order, parents before children. An internal node keeps a header band
// for its name when it is tall enough, and a small padding; its children
// share the rest, each with an area proportional to its value, laid out in
// rows that keep aspect ratios near 1. Nodes of value 0 get no tile.
func SquarifiedLayout(root TreeNode, width, height float64) []Tile {
	var tiles []Tile
	var place func(n TreeNode, x, y, w, h float64, depth, parent int)
	place = func(n TreeNode, x, y, w, h float64, depth, parent int) {
		v := treeValue(n)
		t := Tile{ID: n.ID, Name: n.Name, Color: n.Color, Value: v, X: x, Y: y, W: w, H: h, Depth: depth, Parent: parent}
		var kids []int
		for i, c := range n.Children {
			if treeValue(c) > 0 {
				kids = append(kids, i)
			}
		}
		t.Leaf = len(kids) == 0
		idx := len(tiles)
		if t.Leaf {
			tiles = append(tiles, t)
			return
		}
		pad := math.Min(treemapPad, math.Min(w, h)/10)
		if h >= 2*treemapHeader+4 && w >= 24 {
			t.Header = treemapHeader
		} else {
			t.Header = pad
		}
		tiles = append(tiles, t)
		cx, cy := x+pad, y+t.Header
		cw, ch := math.Max(0, w-2*pad), math.Max(0, h-t.Header-pad)
		// Largest first, as the algorithm needs; ties keep their order.
		sort.SliceStable(kids, func(a, b int) bool {
			return treeValue(n.Children[kids[a]]) > treeValue(n.Children[kids[b]])
		})
		areas := make([]float64, len(kids))
		for k, i := range kids {
			areas[k] = treeValue(n.Children[i]) / v * cw * ch
		}
		rects := squarify(areas, cx, cy, cw, ch)
		// Children keep their input order among the tiles.
		order := make([]int, len(kids))
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return kids[order[a]] < kids[order[b]] })
		for _, k := range order {
			r := rects[k]
			place(n.Children[kids[k]], r[0], r[1], r[2], r[3], depth+1, idx)
		}
	}
	if treeValue(root) <= 0 {
		return []Tile{{ID: root.ID, Name: root.Name, Color: root.Color, W: width, H: height, Parent: -1, Leaf: true}}
	}
	place(root, 0, 0, width, height, 0, -1)
	return tiles
}

// squarify lays out areas (sorted decreasing, summing to w·h) in the
// rectangle: rows along the shorter side, each row grown while that does
// not worsen its worst aspect ratio.
func squarify(areas []float64, x, y, w, h float64) [][4]float64 {
	rects := make([][4]float64, len(areas))
	worst := func(from, to int, sum, side float64) float64 {
		m := 0.0
		for k := from; k < to; k++ {
			r := areas[k]
			if r <= 0 || sum <= 0 {
				continue
			}
			m = math.Max(m, math.Max(side*side*r/(sum*sum), sum*sum/(side*side*r)))
		}
		return m
	}
	for i := 0; i < len(areas); {
		side := math.Min(w, h)
		j, sum, best := i, 0.0, math.Inf(1)
		for j < len(areas) {
			s := sum + areas[j]
			wr := worst(i, j+1, s, side)
			if j > i && wr > best {
				break
			}
			best, sum = wr, s
			j++
		}
		if w >= h {
			sw := 0.0
			if h > 0 {
				sw = sum / h
			}
			yy := y
			for k := i; k < j; k++ {
				hh := 0.0
				if sw > 0 {
					hh = areas[k] / sw
				}
				rects[k] = [4]float64{x, yy, sw, hh}
				yy += hh
			}
			x, w = x+sw, math.Max(0, w-sw)
		} else {
			sh := 0.0
			if w > 0 {
				sh = sum / w
			}
			xx := x
			for k := i; k < j; k++ {
				ww := 0.0
				if sh > 0 {
					ww = areas[k] / sh
				}
				rects[k] = [4]float64{xx, y, ww, sh}
				xx += ww
			}
			y, h = y+sh, math.Max(0, h-sh)
		}
		i = j
	}
	return rects
}

// treemapSpec is what the runtime's treemap view draws from.
type treemapSpec struct {
	Width  ang        `json:"width"`
	Height ang        `json:"height"`
	Tiles  []tileSpec `json:"tiles"`
}

type tileSpec struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Fill   string `json:"fill"`
	Head   string `json:"head"` // header band fill (internal nodes)
	Ink    string `json:"ink"`  // label colour
	X      ang    `json:"x"`
	Y      ang    `json:"y"`
	W      ang    `json:"w"`
	H      ang    `json:"h"`
	Header ang    `json:"header"`
	Parent int    `json:"parent"`
	Leaf   bool   `json:"leaf"`
	Label  string `json:"label"` // "" when it does not fit
	Sub    string `json:"sub"`   // the value, under a leaf's label, if it fits
	Tip    string `json:"tip"`
}

var treemapGreys = []string{"#f4f4f4", "#e6e6e6", "#d8d8d8", "#cacaca"}

func buildTreemapSpec(root TreeNode, width, height float64) treemapSpec {
	tiles := SquarifiedLayout(root, width, height)
	sp := treemapSpec{Width: a4(width), Height: a4(height)}
	nLeaves := 0
	for _, t := range tiles {
		if t.Leaf && t.Depth > 0 {
			nLeaves++
		}
	}
	pal := Palette(nLeaves)
	leaf := 0
	for i, t := range tiles {
		name := t.Name
		if name == "" {
			name = t.ID
		}
		id := t.ID
		if id == "" {
			id = fmt.Sprintf("tile-%d", i)
		}
		ts := tileSpec{ID: id, Name: name, X: a4(t.X), Y: a4(t.Y), W: a4(t.W), H: a4(t.H), Header: a4(t.Header), Parent: t.Parent, Leaf: t.Leaf}
		if t.Leaf && t.Depth > 0 {
			ts.Fill = t.Color
			if ts.Fill == "" {
				ts.Fill = pal[leaf]
			}
			leaf++
			ts.Ink = labelInk(ts.Fill)
			if t.H >= 13 {
				ts.Label = fitLabel(name, t.W-6, fontSize)
			}
			if v := display.FormatNumber(t.Value); ts.Label != "" && t.H >= 27 && textWidth(v, smallFont) <= t.W-6 {
				ts.Sub = v
			}
		} else {
			ts.Fill = treemapGreys[min(t.Depth, len(treemapGreys)-1)]
			ts.Head = t.Color
			if ts.Head == "" {
				ts.Head = treemapGreys[min(t.Depth+1, len(treemapGreys)-1)]
			}
			ts.Ink = labelInk(ts.Head)
			if t.Header >= treemapHeader {
				label := name
				if t.Depth == 0 {
					label += " · " + display.FormatNumber(t.Value)
				}
				ts.Label = fitLabel(label, t.W-6, smallFont)
			}
		}
		// The tip: the path from the root's child down, and the value.
		var path []string
		for k := i; k > 0; k = tiles[k].Parent {
			n := tiles[k].Name
			if n == "" {
				n = tiles[k].ID
			}
			path = append([]string{n}, path...)
		}
		if len(path) == 0 {
			path = []string{name}
		}
		ts.Tip = strings.Join(path, " › ") + "\n" + display.FormatNumber(t.Value)
		sp.Tiles = append(sp.Tiles, ts)
	}
	return sp
}

// drawTreemap writes the static treemap at the origin of the current user
// space.
func drawTreemap(w *svgw, sp treemapSpec) {
	for _, t := range sp.Tiles {
		x, y, tw, th := float64(t.X), float64(t.Y), float64(t.W), float64(t.H)
		if tw <= 0 || th <= 0 {
			continue
		}
		if t.Leaf {
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#ffffff" stroke-width="1"/>`, n2(x), n2(y), n2(tw), n2(th), t.Fill)
			if t.Label != "" {
				w.text(x+3, y+12, t.Label, fmt.Sprintf(` fill="%s"`, t.Ink))
			}
			if t.Sub != "" {
				w.text(x+3, y+24, t.Sub, fmt.Sprintf(` font-size="%s" fill="%s"`, n2(smallFont), t.Ink))
			}
			continue
		}
		w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#ffffff" stroke-width="1"/>`, n2(x), n2(y), n2(tw), n2(th), t.Fill)
		if t.Header > 0 {
			w.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, n2(x), n2(y), n2(tw), n2(float64(t.Header)), t.Head)
		}
		if t.Label != "" {
			w.text(x+3, y+11, t.Label, fmt.Sprintf(` font-size="%s" font-weight="bold" fill="%s"`, n2(smallFont), t.Ink))
		}
	}
}

// TreemapView is a squarified treemap: GiViP's Cluster View.
type TreemapView struct {
	Root TreeNode
	// Width and Height of the picture in px (default 480×320).
	Width, Height float64
}

// Treemap shows a hierarchy as a nested squarified treemap, tile areas
// proportional to the leaves' values. Live, hovering a tile shows its name
// and value and clicking it toggles it filtered (greyed).
func Treemap(root TreeNode) *TreemapView { return &TreemapView{Root: root, Width: 480, Height: 320} }

func (v *TreemapView) spec() treemapSpec {
	w, h := v.Width, v.Height
	if w <= 0 {
		w = 480
	}
	if h <= 0 {
		h = 320
	}
	return buildTreemapSpec(v.Root, w, h)
}

func treemapSVG(sp treemapSpec) string {
	var w svgw
	w.open(float64(sp.Width), float64(sp.Height), "hatch")
	drawTreemap(&w, sp)
	w.close()
	return w.String()
}

// SVG is the static picture.
func (v *TreemapView) SVG() string { return treemapSVG(v.spec()) }

// MIMEBundle implements Renderer.
func (v *TreemapView) MIMEBundle() display.Bundle { return v.figure().MIMEBundle() }

func (v *TreemapView) figure() figure {
	sp := v.spec()
	leaves := 0
	for _, t := range sp.Tiles {
		if t.Leaf {
			leaves++
		}
	}
	name := v.Root.Name
	if name == "" {
		name = v.Root.ID
	}
	alt := fmt.Sprintf("Treemap of %s: %d leaves, total %s", name, leaves, display.FormatNumber(treeValue(v.Root)))
	return figure{svg: treemapSVG(sp), alt: alt, kind: "treemap", spec: sp}
}
