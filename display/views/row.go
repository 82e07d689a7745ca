package views

import (
	"fmt"
	"html"
	"strings"

	"superstep/display"
)

// RowView shows several displays side by side (wrapping on narrow
// screens), each with an optional caption.
type RowView struct {
	Items    []display.Renderer
	Captions []string
}

// Row shows items side by side.
func Row(items ...display.Renderer) RowView { return RowView{Items: items} }

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
	h.WriteString(`<div class="superstep-row" style="display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start">`)
	for i, item := range r.Items {
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
		if i < len(r.Items)-1 {
			p.WriteString("\n\n")
		}
	}
	h.WriteString(`</div>`)
	return display.Bundle{Data: map[string]any{"text/html": h.String(), "text/plain": p.String()}, NeedsRuntime: live}
}
