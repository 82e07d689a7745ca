package sdk

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"superstep/datasets"
	"superstep/display"
	"superstep/sdk/table"
	"superstep/topology/torus"
	"superstep/topology/torus/boxfish"

	"github.com/apache/arrow/go/v15/arrow"
)

func mustTorus(t *testing.T, names string, extents ...int) *torus.Torus {
	t.Helper()
	tt, err := torus.New(strings.Split(names, ","), extents)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// TestPF3DMappings checks the mapping rows of issue 13's Done-when 7: the
// pF3D-like pattern (all-to-all along X lines, then along Y lines), 32 or
// 4 ranks per node, dimension-order routing A→E with ties to +, under the
// default and the Hilbert mappings.
func TestPF3DMappings(t *testing.T) {
	cases := []struct {
		name       string
		torus      *torus.Torus
		grid       [3]int
		perNode    int
		defaultDim []int64
		defaultMax int64
		hilbertDim []int64 // nil: checked by the BG/P rule below
		hilbertMax int64
	}{
		{"4x4x4x4x2", mustTorus(t, "a,b,c,d,e", 4, 4, 4, 4, 2), [3]int{32, 32, 16}, 32,
			[]int64{0, 0, 524288, 524288, 262144}, 768,
			[]int64{262144, 262144, 262144, 262144, 262144}, 512},
		{"4x4x4x4x1", mustTorus(t, "a,b,c,d,e", 4, 4, 4, 4, 1), [3]int{32, 16, 16}, 32,
			[]int64{0, 0, 131072, 131072, 0}, 384,
			[]int64{65536, 65536, 65536, 65536, 0}, 256},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := torus.PF3D(c.grid[0], c.grid[1], c.grid[2])
			if err != nil {
				t.Fatal(err)
			}
			ms, err := TorusMappings(c.torus, c.perNode, nil)
			if err != nil {
				t.Fatal(err)
			}
			cmp, err := CompareMappings(c.torus, p, ms)
			if err != nil {
				t.Fatal(err)
			}
			if got := cmp.Totals[0]; !reflect.DeepEqual(got.Dim, c.defaultDim) || got.Max != c.defaultMax {
				t.Errorf("default mapping: per dimension %v max %d, want %v max %d", got.Dim, got.Max, c.defaultDim, c.defaultMax)
			}
			if got := cmp.Totals[1]; !reflect.DeepEqual(got.Dim, c.hilbertDim) || got.Max != c.hilbertMax {
				t.Errorf("Hilbert mapping: per dimension %v max %d, want %v max %d", got.Dim, got.Max, c.hilbertDim, c.hilbertMax)
			}
		})
	}
}

func TestPF3DMappingsBGP(t *testing.T) {
	tt := mustTorus(t, "x,y,z", 8, 8, 8)
	p, err := torus.PF3D(16, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := TorusMappings(tt, 4, []int{4, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	// The node-id order (identity), as Boxfish's BG/P rank map has it.
	ident := make([]int, tt.Nodes())
	for i := range ident {
		ident[i] = i
	}
	ms = append(ms, TorusMapping{"node id", torus.Mapping{RanksPerNode: 4, Order: ident}})
	cmp, err := CompareMappings(tt, p, ms)
	if err != nil {
		t.Fatal(err)
	}
	id := cmp.Totals[3]
	if !reflect.DeepEqual(id.Dim, []int64{106496, 65536, 0}) || id.Max != 192 || id.Total != 172032 {
		t.Errorf("node-id order: %v max %d total %d, want [106496 65536 0] max 192 total 172032", id.Dim, id.Max, id.Total)
	}
	h := cmp.Totals[1]
	for d, v := range h.Dim {
		third := float64(h.Total) / 3
		if math.Abs(float64(v)-third) > 0.03*third {
			t.Errorf("Hilbert mapping: dimension %s carries %d, more than 3%% from a third of %d", tt.Names()[d], v, h.Total)
		}
	}
	if h.Max > 128 || h.Total > 151552 {
		t.Errorf("Hilbert mapping: max %d total %d, want ≤ 128 and ≤ 151,552", h.Max, h.Total)
	}
	t.Logf("Hilbert mapping on BG/P: %v max %d total %d; blocked: %v max %d", h.Dim, h.Max, h.Total, cmp.Totals[2].Dim, cmp.Totals[2].Max)
	text := cmp.String()
	for _, want := range []string{"default", "hilbert", "blocked", "node id", "172032"} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison text lacks %q:\n%s", want, text)
		}
	}
}

// TestTorusRingBoxfish draws the BG/P counters and checks the ring's data
// against the counts of issue 13's Done-when 5.
func TestTorusRingBoxfish(t *testing.T) {
	run, err := boxfish.ReadFS(datasets.BoxfishBGP(), "bgpc_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	d, err := torusRing(run.Torus, run.Links, TorusOptions{Nodes: run.Nodes, NodeColor: "netWrites"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Leaves) != 512 || len(d.Links) != 1536 || len(d.Tracks) != 3 {
		t.Fatalf("%d leaves, %d links, %d tracks; want 512, 1536 (neighbour pairs), 3", len(d.Leaves), len(d.Links), len(d.Tracks))
	}
	// Frames: −2, 0, 1 (two phases) … 7 (two phases), 8.
	if len(d.Frames) != 17 || d.Frames[0].Label != "whole run (region −2)" || d.Frames[2].Label != "region 1, phase 0" {
		t.Fatalf("%d frames, first %q, third %q", len(d.Frames), d.Frames[0].Label, d.Frames[2].Label)
	}
	var fwd, bwd float64
	for k := range d.Links {
		fwd += d.Frames[0].Forward[k]
		bwd += d.Frames[0].Backward[k]
	}
	// "+" channels of region −2: 5,265,237 + 5,167,111 + 5,039,221.
	if fwd != 15471569 || bwd != 15436537 {
		t.Errorf("whole run: forward %v backward %v, want 15,471,569 (+) and 15,436,537 (−)", fwd, bwd)
	}
	if d.Frames[0].LeafValues == nil {
		t.Error("no node colours")
	}
	if !strings.Contains(d.Summary, "busiest channel [3 2 2]→[3 2 3] (z+) with 17304 packets") {
		t.Errorf("summary lacks the whole run's total:\n%s", d.Summary)
	}
	tot, err := TorusTotals(run.Torus, run.Links)
	if err != nil {
		t.Fatal(err)
	}
	defer tot.Release()
	cols, err := table.Read(tot, []arrow.Field{{Name: "region", Type: arrow.PrimitiveTypes.Int32}, {Name: "dim", Type: arrow.BinaryTypes.String}, {Name: "packets", Type: arrow.PrimitiveTypes.Int64}, {Name: "idle", Type: arrow.PrimitiveTypes.Int32}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"x": 10533183, "y": 10275788, "z": 10099135}
	var sum08, idle8 int64
	for i, r := range cols[0].Ints {
		if r == -2 && cols[2].Ints[i] != want[cols[1].Strings[i]] {
			t.Errorf("region −2, %s: %d packets, want %d", cols[1].Strings[i], cols[2].Ints[i], want[cols[1].Strings[i]])
		}
		if r >= 0 {
			sum08 += cols[2].Ints[i]
		}
		if r == 8 {
			idle8 += cols[3].Ints[i]
		}
	}
	if sum08 != 1413480 || idle8 != 1906 {
		t.Errorf("regions 0–8 sum to %d (want 1,413,480); region 8 has %d idle channels (want 1,906)", sum08, idle8)
	}
}

func TestTorusRingErrors(t *testing.T) {
	tt := mustTorus(t, "x,y", 4, 4)
	for _, c := range []struct {
		opt  TorusOptions
		want string
	}{
		{TorusOptions{Order: "zigzag"}, `order "zigzag"`},
		{TorusOptions{Tracks: []string{"w"}}, `track "w"`},
		{TorusOptions{Level: 5}, "level 5"},
		{TorusOptions{LinkMode: "both"}, `link mode "both"`},
		{TorusOptions{NodeColor: "muls"}, "needs a node table"},
	} {
		if _, err := Torus(tt, nil, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.opt, err, c.want)
		}
	}
	if _, err := TorusEmbedding(tt, "tsne"); err == nil || !strings.Contains(err.Error(), `"tsne"`) {
		t.Errorf("TorusEmbedding(tsne): %v", err)
	}
}

// TestTorusRingOrientation checks that a link's forward direction is its
// "+" channel, wrap-around links included, on a 4×4 torus with one unit
// on every "+" channel and two on every "−".
func TestTorusRingOrientation(t *testing.T) {
	tt := mustTorus(t, "x,y", 4, 4)
	var rows []torus.ChannelRow
	for id := 0; id < tt.Channels(); id++ {
		p := int64(1)
		if tt.Channel(id).Dir < 0 {
			p = 2
		}
		rows = append(rows, torus.ChannelRow{Region: 0, Channel: id, Packets: p})
	}
	tbl, err := torus.ChannelTable(tt, rows)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	d, err := torusRing(tt, tbl, TorusOptions{Blocks: []int{4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Links) != 32 || len(d.Frames) != 1 {
		t.Fatalf("%d links, %d frames", len(d.Links), len(d.Frames))
	}
	for k := range d.Links {
		if d.Frames[0].Forward[k] != 1 || d.Frames[0].Backward[k] != 2 {
			t.Errorf("link %d (%s–%s): forward %v backward %v, want 1 (+) and 2 (−)", k, d.Leaves[d.Links[k].A], d.Leaves[d.Links[k].B], d.Frames[0].Forward[k], d.Frames[0].Backward[k])
		}
	}
	// Hilbert ranks: (0,0) first, (3,0) last; the tracks hold x and y.
	if d.Leaves[0] != "node 0 (0,0)" || d.Leaves[15] != "node 3 (3,0)" || d.Tracks[0].Values[8] != 2 || d.Tracks[1].Values[13] != 1 {
		t.Errorf("leaves %q … %q, x[8] = %d, y[13] = %d", d.Leaves[0], d.Leaves[15], d.Tracks[0].Values[8], d.Tracks[1].Values[13])
	}
}

func TestTorusEmbeddingDeterministic(t *testing.T) {
	tt := mustTorus(t, "a,b,c,d,e", 1, 4, 4, 4, 2)
	for _, m := range []string{"mds-full", "mds-3hop", "mds-neighbours", "radviz"} {
		a, err := TorusEmbedding(tt, m)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := TorusEmbedding(tt, m)
		if !reflect.DeepEqual(a.Data, b.Data) {
			t.Errorf("%s differs run to run", m)
		}
		if len(a.Data.Edges) != 448 {
			t.Errorf("%s: %d edges, want the 448 neighbour pairs", m, len(a.Data.Edges))
		}
		if strings.HasPrefix(m, "mds") != strings.Contains(a.Data.Title, "stress") {
			t.Errorf("%s: title %q", m, a.Data.Title)
		}
		// Blocks are numbered 1 to 8, as on the ring: 16 nodes each.
		count := map[int32]int{}
		for _, g := range a.Data.Groups {
			count[g]++
		}
		for b := int32(1); b <= 8; b++ {
			if count[b] != 16 {
				t.Errorf("%s: Hilbert block %d holds %d nodes, want 16 (blocks %v)", m, b, count[b], count)
			}
		}
	}
	var _ display.Renderer = &MappingComparison{}
}

// pathStrokes reads a ring's static SVG: per link path, its effective
// stroke width and opacity (its own, else the links group's) and its
// curves.
func pathStrokes(t *testing.T, svg string) (widths, opacities []float64, curves []int) {
	t.Helper()
	num := func(tag, name string, def float64) float64 {
		i := strings.Index(tag, " "+name+`="`)
		if i < 0 {
			return def
		}
		v := tag[i+len(name)+3:]
		f, err := strconv.ParseFloat(v[:strings.Index(v, `"`)], 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	g := svg[strings.Index(svg, `<g class="ss-links"`):]
	g = g[:strings.Index(g, "</g>")]
	head := g[:strings.Index(g, ">")]
	w0, o0 := num(head, "stroke-width", 1), num(head, "stroke-opacity", 1)
	for _, p := range strings.Split(g, "<path")[1:] {
		widths = append(widths, num(p, "stroke-width", w0))
		opacities = append(opacities, num(p, "stroke-opacity", o0))
		curves = append(curves, strings.Count(p, "M"))
	}
	return widths, opacities, curves
}

// TestCompareMappingsLoadOnLinks is issue 27's item 2. pF3D on the
// 4×4×4×4×1 torus under the default mapping leaves dimensions a and b
// idle (1,024 channels, 512 neighbour pairs): their curves must be drawn
// fainter than every busy one. On the 8×8×8 torus the Hilbert mapping
// halves the busiest neighbour pair's packets: on the comparison's one
// scale its ring must be drawn thinner than the default mapping's.
func TestCompareMappingsLoadOnLinks(t *testing.T) {
	compare := func(tt *torus.Torus, x, y, z, perNode int) *MappingComparison {
		t.Helper()
		p, err := torus.PF3D(x, y, z)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := TorusMappings(tt, perNode, nil)
		if err != nil {
			t.Fatal(err)
		}
		cmp, err := CompareMappings(tt, p, ms)
		if err != nil {
			t.Fatal(err)
		}
		return cmp
	}
	cmp := compare(mustTorus(t, "a,b,c,d,e", 4, 4, 4, 4, 1), 32, 16, 16, 32)
	if idle := cmp.Totals[0].Idle; idle[0] != 512 || idle[1] != 512 {
		t.Fatalf("default mapping: idle channels %v, want 512 on a and on b", idle)
	}
	ws, os, cs := pathStrokes(t, cmp.Rings[0].SVG())
	ink, faint := math.Inf(1), 0
	for j := range ws {
		ink = math.Min(ink, ws[j]*os[j])
	}
	for j := range ws {
		if ws[j]*os[j] == ink {
			faint += cs[j]
		}
	}
	if faint != 512 {
		t.Errorf("default mapping: %d curves drawn faintest, want the 512 idle pairs of a and b", faint)
	}

	cmp = compare(mustTorus(t, "x,y,z", 8, 8, 8), 16, 16, 8, 4)
	widest := make([]float64, len(cmp.Rings))
	for i, r := range cmp.Rings {
		ws, _, _ := pathStrokes(t, r.SVG())
		for _, w := range ws {
			widest[i] = math.Max(widest[i], w)
		}
	}
	if widest[1] >= widest[0] {
		t.Errorf("one scale: the Hilbert ring's widest link is %v px, the default's %v px; want it thinner", widest[1], widest[0])
	}
	if html := cmp.MIMEBundle().Data["text/html"].(string); !strings.Contains(html, "one scale for all 2 rings") {
		t.Error("the comparison does not say that its rings share a scale")
	}
}

// TestTorusRingOrderNote checks that the ring names its order, the shape
// the Hilbert curve was padded to and its jumps, in the caption, the alt
// text and the text form. Known answers: the Hilbert order of 4×4 is
// continuous and closes with a wrap-around link; row-major on 4×4 steps
// from (3,y) to (0,y+1), two hops, at three row ends, and closes from
// (3,3) to (0,0), two hops; the issue counted 5 jumps on the padded
// 6×5×4×3×2.
func TestTorusRingOrderNote(t *testing.T) {
	for _, c := range []struct {
		extents []int
		order   string
		want    string
	}{
		{[]int{4, 4}, "", "Hilbert order: no jumps"},
		{[]int{4, 4}, "rowmajor", "row-major order, first coordinate fastest: 3 jumps, and the ring closes over 2 hops"},
		{[]int{6, 5, 4, 3, 2}, "hilbert", "Hilbert order of 6×5×4×3×2 padded to 8×8×4×4×2: 5 jumps"},
	} {
		names := []string{"a", "b", "c", "d", "e"}[:len(c.extents)]
		tt := mustTorus(t, strings.Join(names, ","), c.extents...)
		d, err := torusRing(tt, nil, TorusOptions{Order: c.order})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(d.OrderNote, c.want) {
			t.Errorf("%v %q: order note %q, want %q", c.extents, c.order, d.OrderNote, c.want)
		}
		v, err := Torus(tt, nil, TorusOptions{Order: c.order})
		if err != nil {
			t.Fatal(err)
		}
		b := v.MIMEBundle()
		for _, part := range []struct{ name, text string }{{"text/plain", b.Text()}, {"text/html (caption, alt)", fmt.Sprint(b.Data["text/html"])}} {
			if n := strings.Count(part.text, c.want); n == 0 {
				t.Errorf("%v %q: %s does not name the order %q", c.extents, c.order, part.name, c.want)
			}
		}
	}
}
