package sdk

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/display/views"
	"superstep/sdk/table"
	"superstep/topology/fattree"
)

// FatTreeLoads is the load that jobs put on every directed link of f
// routed by r (nil: fattree.DModK), as an Arrow table with one row per
// link: link (id), kind ("L1→L2"…), src and dst (names), bytes_per_s (all
// jobs together), routes (ordered pairs crossing it, all jobs) and jobs
// (how many jobs cross it). Loads add up per destination tree, never per
// pair (fattree.JobLoads).
func FatTreeLoads(f *fattree.Fabric, r fattree.Routing, jobs []fattree.Job) (arrow.Table, error) {
	if f == nil {
		return nil, fmt.Errorf("sdk: FatTreeLoads: no fabric")
	}
	if r == nil {
		r = fattree.DModK(f)
	}
	tr, err := fattree.JobLoads(Context(), f, r, jobs)
	if err != nil {
		return nil, fmt.Errorf("sdk: FatTreeLoads: %w", err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "link", Type: arrow.PrimitiveTypes.Int32},
		{Name: "kind", Type: arrow.BinaryTypes.String},
		{Name: "src", Type: arrow.BinaryTypes.String},
		{Name: "dst", Type: arrow.BinaryTypes.String},
		{Name: "bytes_per_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "routes", Type: arrow.PrimitiveTypes.Int64},
		{Name: "jobs", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for id, l := range f.Links {
		var routes int64
		var n int32
		for _, j := range tr.Jobs {
			if j.Routes[id] > 0 {
				routes += j.Routes[id]
				n++
			}
		}
		b.Field(0).(*array.Int32Builder).Append(int32(id))
		b.Field(1).(*array.StringBuilder).Append(l.Kind.String())
		b.Field(2).(*array.StringBuilder).Append(endName(f, l.Kind.From(), l.From))
		b.Field(3).(*array.StringBuilder).Append(endName(f, l.Kind.To(), l.To))
		b.Field(4).(*array.Float64Builder).Append(tr.Links[id])
		b.Field(5).(*array.Int64Builder).Append(routes)
		b.Field(6).(*array.Int32Builder).Append(n)
	}
	return table.FromBuilder(b), nil
}

func endName(f *fattree.Fabric, level, i int) string {
	if level == 0 {
		return nodeName(f, i)
	}
	return f.Switches[i].Name
}

// FatTreeRoute is the route of one pair of nodes as text: the switches it
// visits, by name, e.g. "node 0 → L1 p0 s0 → L2 p0 s1 → L1 p0 s1 → node 3".
func FatTreeRoute(f *fattree.Fabric, r fattree.Routing, src, dst int) (string, error) {
	if f == nil {
		return "", fmt.Errorf("sdk: FatTreeRoute: no fabric")
	}
	if r == nil {
		r = fattree.DModK(f)
	}
	p, err := fattree.Route(f, r, src, dst)
	if err != nil {
		return "", fmt.Errorf("sdk: FatTreeRoute: %w", err)
	}
	s := nodeName(f, src)
	for _, sw := range p.Switches {
		s += " → " + f.Switches[sw].Name
	}
	return s + " → " + nodeName(f, dst), nil
}

// FatTreeCompare shows two fat-tree boards side by side on one colour
// scale and the board of their difference (b − a), as
// views.CompareMatrixBoards does: the same fabric under two routings or
// two placements.
func FatTreeCompare(a, b *views.MatrixBoardView) (views.RowView, error) {
	if a == nil || b == nil {
		return views.RowView{}, fmt.Errorf("sdk: FatTreeCompare: a board is nil")
	}
	row, err := views.CompareMatrixBoards(a.Data, b.Data)
	if err != nil {
		return views.RowView{}, fmt.Errorf("sdk: FatTreeCompare: %w", err)
	}
	return row, nil
}
