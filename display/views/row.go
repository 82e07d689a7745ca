package views

import (
	"fmt"
	"html"
	"strings"

	"superstep/display"
)

// RowView shows several displays side by side, each with an optional
// caption. The row is Width px wide (DefaultRowWidth when 0): every item
// that can lay itself out for a width (rings, trends, fat-tree boards) is
// laid out for its share (the width less the gaps and each live view's
// download gutter, divided among the items), so the row fits without
// shrinking text; other items keep their size and the row wraps on
// narrow screens. Compared views share their scales: ring graphs that
// count the same thing (WeightName) one traffic scale per link mode (a
// link of the same traffic is as wide in each), trends one time axis
// (the plots' left edge and frame columns) and one y-scale per quantity
// (TrendPanel.Quantity).
type RowView struct {
	Items    []display.Renderer
	Captions []string
	Width    float64
}

// DefaultRowWidth is the width of a row: it fits JupyterLab's output area
// at a normal window width (923 px beside the file browser) and a 1,000 px
// output.
const DefaultRowWidth = 900

// rowGap is the space between the items of a row, in px.
const rowGap = 8

// downloadGutter is the space the live runtime keeps right of every view
// for its download button (GUTTER in runtime/src/download.js): a row
// leaves it beside each item, so the button never sits over the next
// item's title and the live row fits as the static one does.
const downloadGutter = 26

// A widthFitter is a view that can lay itself out for a given width in
// px: the static picture and the live view both fit it.
type widthFitter interface {
	fitWidth(w float64) display.Renderer
}

// Row shows items side by side.
func Row(items ...display.Renderer) RowView { return RowView{Items: items} }

// WithWidth sets the width of the row in px.
func (r RowView) WithWidth(w float64) RowView {
	r.Width = w
	return r
}

// itemWidth is each item's share of the row's width.
func (r RowView) itemWidth() float64 {
	w := r.Width
	if w <= 0 {
		w = DefaultRowWidth
	}
	n := float64(max(1, len(r.Items)))
	return (w - rowGap*(n-1) - downloadGutter*n) / n
}

// fitted is the items as the row shows them: compared views share their
// scales (rings of the same weights one traffic scale per mode, trends
// one time axis and one scale per quantity), and every item that can is
// laid out for its share of the width.
func (r RowView) fitted() []display.Renderer {
	share := r.itemWidth()
	items := shareTrendScales(shareRingScales(r.Items))
	for i, item := range items {
		if f, ok := item.(widthFitter); ok {
			items[i] = f.fitWidth(share)
		}
	}
	return items
}

// WithCaptions sets a caption above each item.
func (r RowView) WithCaptions(captions ...string) RowView {
	r.Captions = captions
	return r
}

// MIMEBundle implements Renderer: each item's HTML (with its own static
// picture and script) in a flex row, and the items' text one after another.
func (r RowView) MIMEBundle() display.Bundle {
	var h, p strings.Builder
	live := false
	h.WriteString(`<div class="superstep-row" style="display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start">`)
	items := r.fitted()
	for i, item := range items {
		b := display.BundleOf(item)
		live = live || b.NeedsRuntime
		caption := ""
		if i < len(r.Captions) {
			caption = r.Captions[i]
		}
		h.WriteString(`<div class="superstep-row-item">`)
		if caption != "" {
			fmt.Fprintf(&h, `<div style="font:bold 13px sans-serif;margin-bottom:4px">%s</div>`, html.EscapeString(caption))
			fmt.Fprintf(&p, "%s\n", caption)
		}
		if view, ok := b.Data["text/html"].(string); ok {
			h.WriteString(view)
		} else {
			fmt.Fprintf(&h, "<pre>%s</pre>", html.EscapeString(b.Text()))
		}
		h.WriteString(`</div>`)
		p.WriteString(b.Text())
		if i < len(items)-1 {
			p.WriteString("\n\n")
		}
	}
	h.WriteString(`</div>`)
	return display.Bundle{Data: map[string]any{"text/html": h.String(), "text/plain": p.String()}, NeedsRuntime: live}
}
