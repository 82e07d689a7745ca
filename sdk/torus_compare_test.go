package sdk

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"superstep/display/views"
	"superstep/topology/torus"
)

// The comparison of notebook 04 (four mappings of pF3D on the 8×8×8
// torus) shows its rings in rows that fit a 900 px output: two rows of
// two, each ring laid out for its half (not drawn at 640 px and shrunk by
// CSS), its text at full size.
func TestCompareMappingsRowsFit(t *testing.T) {
	tt := mustTorus(t, "x,y,z", 8, 8, 8)
	p, err := torus.PF3D(16, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := TorusMappings(tt, 4, []int{4, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	ident := make([]int, tt.Nodes())
	for i := range ident {
		ident[i] = i
	}
	ms = append(ms, TorusMapping{"node id", torus.Mapping{RanksPerNode: 4, Order: ident}})
	cmp, err := CompareMappings(tt, p, ms)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := cmp.MIMEBundle().Data["text/html"].(string)
	if strings.Contains(h, "width:330px") {
		t.Errorf("rings still squeezed into 330 px boxes")
	}
	rows := strings.Split(h, `<div class="superstep-row"`)[1:]
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 of 2 rings", len(rows))
	}
	img := regexp.MustCompile(`<img alt="Ring graph[^"]*" width="(\d+)"`)
	for r, row := range rows {
		ws := img.FindAllStringSubmatch(row, -1)
		sum := 0
		for _, m := range ws {
			w, _ := strconv.Atoi(m[1])
			sum += w
		}
		if len(ws) != 2 || sum+8+2*26 > views.DefaultRowWidth || sum < 800 {
			t.Errorf("row %d: %d rings, %d px wide in all; want 2 laid out for a 900 px row", r, len(ws), sum)
		}
	}
}
