package views

import (
	"fmt"
	"html"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"superstep/display"
)

// arrowEdgeRows is how many rows an Arrow table shows at each end.
const arrowEdgeRows = 5

// ArrowView shows an Arrow table or record: its size, its schema as the
// column heads, and its first and last rows.
type ArrowView struct {
	kind    string
	rows    int64
	schema  *arrow.Schema
	valueAt func(col int, row int64) string
}

// TableOf returns the bundle of an Arrow table or record, and false for
// any other value: the form a cell's result takes when it is one.
func TableOf(v any) (display.Bundle, bool) {
	switch t := v.(type) {
	case arrow.Table:
		if t == nil || isNilPointer(v) {
			return display.Bundle{}, false
		}
		return ArrowTable(t).MIMEBundle(), true
	case arrow.Record:
		if t == nil || isNilPointer(v) {
			return display.Bundle{}, false
		}
		return ArrowRecord(t).MIMEBundle(), true
	}
	return display.Bundle{}, false
}

// ArrowTable is the view of an Arrow table.
func ArrowTable(t arrow.Table) ArrowView {
	return ArrowView{kind: "arrow.Table", rows: t.NumRows(), schema: t.Schema(), valueAt: func(col int, row int64) string {
		for _, chunk := range t.Column(col).Data().Chunks() {
			if row < int64(chunk.Len()) {
				return arrowValue(chunk, int(row))
			}
			row -= int64(chunk.Len())
		}
		return ""
	}}
}

// ArrowRecord is the view of an Arrow record (one batch).
func ArrowRecord(r arrow.Record) ArrowView {
	return ArrowView{kind: "arrow.Record", rows: r.NumRows(), schema: r.Schema(), valueAt: func(col int, row int64) string {
		return arrowValue(r.Column(col), int(row))
	}}
}

func arrowValue(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	return a.ValueStr(i)
}

// MIMEBundle implements Renderer: an HTML table with a text twin.
func (a ArrowView) MIMEBundle() display.Bundle {
	fields := a.schema.Fields()
	heads := make([]string, len(fields))
	for i, f := range fields {
		heads[i] = fmt.Sprintf("%s (%s)", f.Name, f.Type)
	}
	var rows [][]any
	addRow := func(r int64) {
		row := make([]any, len(fields))
		for c := range fields {
			row[c] = a.valueAt(c, r)
		}
		rows = append(rows, row)
	}
	if a.rows <= 2*arrowEdgeRows {
		for r := int64(0); r < a.rows; r++ {
			addRow(r)
		}
	} else {
		for r := int64(0); r < arrowEdgeRows; r++ {
			addRow(r)
		}
		gap := make([]any, len(fields))
		for c := range gap {
			gap[c] = "…"
		}
		rows = append(rows, gap)
		for r := a.rows - arrowEdgeRows; r < a.rows; r++ {
			addRow(r)
		}
	}
	summary := fmt.Sprintf("%s: %d rows × %d columns", a.kind, a.rows, len(fields))
	b := display.Table(heads, rows).MIMEBundle()
	table, _ := b.Data["text/html"].(string)
	text, _ := b.Data["text/plain"].(string)
	b.Data["text/html"] = "<p>" + html.EscapeString(summary) + "</p>" + table
	b.Data["text/plain"] = summary + "\n" + strings.TrimRight(text, "\n")
	return b
}
