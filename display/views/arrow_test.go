package views

import (
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/display"
)

func TestArrowTableShowsItsEnds(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "vertex", Type: arrow.PrimitiveTypes.Int64}, {Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := 0; i < 100; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i == 1 {
			b.Field(1).(*array.Float64Builder).AppendNull()
		} else {
			b.Field(1).(*array.Float64Builder).Append(float64(i) / 2)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	tab := array.NewTableFromRecords(schema, []arrow.Record{rec})
	defer tab.Release()

	bundle, ok := TableOf(tab)
	if !ok {
		t.Fatal("an arrow.Table is not shown as a table")
	}
	text := bundle.Text()
	lines := strings.Split(text, "\n")
	if lines[0] != "arrow.Table: 100 rows × 2 columns" {
		t.Fatalf("summary %q", lines[0])
	}
	// Header, 5 first rows, the gap, 5 last rows.
	if len(lines) != 1+1+5+1+5 || !strings.HasPrefix(lines[1], "vertex (int64)") || !strings.Contains(lines[3], "null") ||
		!strings.HasPrefix(lines[7], "…") || !strings.HasPrefix(lines[12], "99") || !strings.Contains(lines[12], "49.5") {
		t.Fatalf("text form:\n%s", text)
	}
	if html := bundle.Data["text/html"].(string); !strings.Contains(html, "<th>x (float64)</th>") || !strings.Contains(html, "100 rows") {
		t.Fatalf("html %s", html)
	}
	if _, ok := TableOf(rec); !ok {
		t.Fatal("an arrow.Record is not shown as a table")
	}
	// An Output made with TableOf shows a record as a table: a session's.
	var shown strings.Builder
	display.OnWith(textSink{&shown}, TableOf).Show(rec)
	if !strings.HasPrefix(shown.String(), "arrow.Record: 100 rows") {
		t.Fatalf("Show(record) = %q", shown.String())
	}
	if _, ok := TableOf(42); ok {
		t.Fatal("a number is a table")
	}
}

// textSink prints what it is shown, as a kernel would send it.
type textSink struct{ w *strings.Builder }

func (s textSink) Display(b display.Bundle, _ string) error { s.w.WriteString(b.Text()); return nil }
func (s textSink) Update(b display.Bundle, id string) error { return s.Display(b, id) }
func (s textSink) Clear(bool) error                         { return nil }
func (s textSink) Page(b display.Bundle) error              { return s.Display(b, "") }
