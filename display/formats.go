package display

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"strings"
	"text/tabwriter"
)

// HTMLDoc is raw HTML shown as is. Prefer the picture types for drawings:
// HTMLDoc carries no static fallback of its own.
type HTMLDoc string

// HTML shows raw HTML.
func HTML(s string) HTMLDoc { return HTMLDoc(s) }

// MIMEBundle implements Renderer.
func (h HTMLDoc) MIMEBundle() Bundle {
	return Bundle{Data: map[string]any{"text/html": string(h), "text/plain": "HTML: " + truncate(stripTags(string(h)), 200)}}
}

// MarkdownDoc is Markdown text.
type MarkdownDoc string

// Markdown shows Markdown (rendered by the front end).
func Markdown(s string) MarkdownDoc { return MarkdownDoc(s) }

// MIMEBundle implements Renderer.
func (m MarkdownDoc) MIMEBundle() Bundle {
	return Bundle{Data: map[string]any{"text/markdown": string(m), "text/plain": string(m)}}
}

// JSONDoc is a value shown as a collapsible JSON tree.
type JSONDoc struct{ value any }

// JSON shows v as JSON.
func JSON(v any) JSONDoc { return JSONDoc{v} }

// MIMEBundle implements Renderer.
func (j JSONDoc) MIMEBundle() Bundle {
	raw, err := json.Marshal(j.value)
	if err != nil {
		return TextBundle(fmt.Sprintf("display.JSON: %v", err))
	}
	var indented bytes.Buffer
	json.Indent(&indented, raw, "", "  ")
	return Bundle{Data: map[string]any{"application/json": json.RawMessage(raw), "text/plain": indented.String()}}
}

// PNGImage is a PNG picture.
type PNGImage struct {
	data          []byte
	width, height int
	err           error
}

// PNG shows PNG-encoded bytes.
func PNG(data []byte) PNGImage {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return PNGImage{err: fmt.Errorf("display.PNG: not a PNG image: %w", err)}
	}
	return PNGImage{data: data, width: cfg.Width, height: cfg.Height}
}

// Image shows an image, encoded as PNG.
func Image(img image.Image) PNGImage {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return PNGImage{err: fmt.Errorf("display.Image: %w", err)}
	}
	r := img.Bounds()
	return PNGImage{data: b.Bytes(), width: r.Dx(), height: r.Dy()}
}

// MIMEBundle implements Renderer.
func (p PNGImage) MIMEBundle() Bundle {
	if p.err != nil {
		return TextBundle(p.err.Error())
	}
	return Bundle{
		Data:     map[string]any{"image/png": base64.StdEncoding.EncodeToString(p.data), "text/plain": fmt.Sprintf("PNG image %d×%d", p.width, p.height)},
		Metadata: map[string]any{"image/png": map[string]any{"width": p.width, "height": p.height}},
	}
}

// TableView is a table of rows under column headings.
type TableView struct {
	Columns []string
	Rows    [][]any
	// MaxRows caps the rows shown (default 200); the rest are counted.
	MaxRows int
}

// Table shows rows under column headings.
func Table(columns []string, rows [][]any) TableView { return TableView{Columns: columns, Rows: rows} }

// MIMEBundle implements Renderer.
func (t TableView) MIMEBundle() Bundle {
	max := t.MaxRows
	if max <= 0 {
		max = 200
	}
	rows := t.Rows
	more := 0
	if len(rows) > max {
		more = len(rows) - max
		rows = rows[:max]
	}
	var h strings.Builder
	h.WriteString(`<table class="superstep-table"><thead><tr>`)
	for _, c := range t.Columns {
		fmt.Fprintf(&h, "<th>%s</th>", html.EscapeString(c))
	}
	h.WriteString("</tr></thead><tbody>")
	for _, r := range rows {
		h.WriteString("<tr>")
		for _, v := range r {
			fmt.Fprintf(&h, "<td>%s</td>", html.EscapeString(cellText(v)))
		}
		h.WriteString("</tr>")
	}
	h.WriteString("</tbody></table>")
	if more > 0 {
		fmt.Fprintf(&h, "<p>… %d more rows</p>", more)
	}
	var p bytes.Buffer
	tw := tabwriter.NewWriter(&p, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.Columns, "\t"))
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = cellText(v)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	if more > 0 {
		fmt.Fprintf(&p, "… %d more rows\n", more)
	}
	return Bundle{Data: map[string]any{"text/html": h.String(), "text/plain": strings.TrimRight(p.String(), "\n")}}
}

func cellText(v any) string {
	switch x := v.(type) {
	case float64:
		return fmt.Sprintf("%.6g", x)
	case float32:
		return fmt.Sprintf("%.6g", x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
