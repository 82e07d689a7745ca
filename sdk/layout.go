package sdk

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/display"
	"superstep/display/views"
	"superstep/sdk/graph"
)

// Drawing shows a layout of g (positions x0, y0, x1, y1, …): nodes
// coloured by community when membership is given (the nine largest
// communities in colour, with a legend, the rest grey), edges drawn (a
// deterministic sample when there are many), with zoom, pan and hover
// labels. views.Save writes it to a file.
func Drawing(g *graph.Graph, pos []float64, membership []int32, title string) display.Renderer {
	n := g.NumVertices()
	if len(pos) != 2*n {
		return display.TextBundle(fmt.Sprintf("sdk.Drawing: %d coordinates for %d vertices (want 2 per vertex)", len(pos), n))
	}
	if membership != nil && len(membership) != n {
		return display.TextBundle(fmt.Sprintf("sdk.Drawing: %d community labels for %d vertices", len(membership), n))
	}
	d := views.DrawingData{Title: title, GroupName: "community", X: make([]float64, n), Y: make([]float64, n), Labels: make([]string, n), Groups: membership}
	for v := 0; v < n; v++ {
		d.X[v], d.Y[v] = pos[2*v], pos[2*v+1]
		d.Labels[v] = g.Label(v)
	}
	for v := 0; v < n; v++ {
		for _, u := range g.Neighbors(v) {
			if g.Directed() || int(u) > v {
				d.Edges = append(d.Edges, [2]int32{int32(v), u})
			}
		}
	}
	return views.Drawing(d)
}

// WritePositions writes a layout as TSV with the header
// "id\tlabel\tx\ty\tgroup": the vertex index, its label, x and y (the
// shortest decimal that reads back as the same float64) and its community
// (empty without membership). Tabs and line breaks in a label become
// spaces, so every vertex is one line.
func WritePositions(w io.Writer, g *graph.Graph, pos []float64, membership []int32) error {
	n := g.NumVertices()
	if len(pos) != 2*n {
		return fmt.Errorf("sdk.WritePositions: %d coordinates for %d vertices", len(pos), n)
	}
	labels := make([]string, n)
	x, y := make([]float64, n), make([]float64, n)
	for v := 0; v < n; v++ {
		labels[v] = g.Label(v)
		x[v], y[v] = pos[2*v], pos[2*v+1]
	}
	return writePositionsTSV(w, labels, x, y, membership)
}

// PositionsTable is a layout as an Arrow table (id int64 — the input's
// vertex id, label, x, y, community int32 or null without membership), for
// Parquet, DuckDB, pandas or Polars.
func PositionsTable(g *graph.Graph, pos []float64, membership []int32) (arrow.Table, error) {
	n := g.NumVertices()
	if len(pos) != 2*n {
		return nil, fmt.Errorf("sdk.PositionsTable: %d coordinates for %d vertices", len(pos), n)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64},
		{Name: "community", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for v := 0; v < n; v++ {
		b.Field(0).(*array.Int64Builder).Append(g.ID(v))
		b.Field(1).(*array.StringBuilder).Append(g.Label(v))
		b.Field(2).(*array.Float64Builder).Append(pos[2*v])
		b.Field(3).(*array.Float64Builder).Append(pos[2*v+1])
		if membership != nil {
			b.Field(4).(*array.Int32Builder).Append(membership[v])
		} else {
			b.Field(4).(*array.Int32Builder).AppendNull()
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	return array.NewTableFromRecords(schema, []arrow.Record{rec}), nil
}
