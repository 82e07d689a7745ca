package sdk_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"

	"superstep/datasets"
	"superstep/sdk"
)

func TestLayoutExports(t *testing.T) {
	g := datasets.Must(datasets.Lattice(2, 2)) // 0-1, 2-3, 0-2, 1-3
	pos := []float64{0, 0, 1, 0, 0, 1, 1, 1}
	memb := []int32{0, 0, 1, 1}
	var b strings.Builder
	if err := sdk.WritePositions(&b, g, pos, memb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || lines[0] != "id\tlabel\tx\ty\tgroup" || !strings.HasSuffix(lines[4], "\t1\t1\t1") {
		t.Fatalf("%q", b.String())
	}
	tab, err := sdk.PositionsTable(g, pos, memb)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	if tab.NumRows() != 4 || tab.NumCols() != 5 {
		t.Fatalf("%d rows, %d columns", tab.NumRows(), tab.NumCols())
	}
	xs := tab.Column(2).Data().Chunk(0).(*array.Float64)
	cs := tab.Column(4).Data().Chunk(0).(*array.Int32)
	if xs.Value(3) != 1 || cs.Value(2) != 1 {
		t.Fatal("values")
	}
	html, _ := sdk.Drawing(g, pos, memb, "square").MIMEBundle().Data["text/html"].(string)
	if !strings.Contains(html, "data:image/png;base64,") {
		t.Fatal("no static picture")
	}
	if got := sdk.Drawing(g, pos[:3], nil, "").MIMEBundle().Text(); !strings.Contains(got, "3 coordinates for 4 vertices") {
		t.Fatal(got)
	}
}
