package sdk

import (
	"fmt"
	"strings"

	"superstep/algo/embed"
	"superstep/algo/hilbert"
	"superstep/display"
	"superstep/display/views"
	"superstep/topology/torus"
)

// TorusEmbedding draws t the way paper 004's baselines do, as a node-link
// drawing whose edges are the channels (one per neighbour pair) and whose
// nodes are coloured by their Hilbert block of 8, so the ring's blocks can
// be found again:
//
//   - "mds-full": classical MDS of the full hop-distance matrix;
//   - "mds-3hop": SMACOF stress majorisation (seed 1) of the distances up
//     to 3 hops, the longer ones left out (weight 0);
//   - "mds-neighbours": SMACOF (seed 1) of the neighbour distances only;
//   - "radviz": RadViz (eq. 6) of the raw coordinates, each dimension an
//     anchor on the circle; the origin (all zero) sits at the centre.
//
// The title reports the normalised stress of the MDS variants. Every
// result is the same run to run.
func TorusEmbedding(t *torus.Torus, method string) (*views.DrawingView, error) {
	if t == nil {
		return nil, fmt.Errorf("sdk: TorusEmbedding: no torus")
	}
	n := t.Nodes()
	if n > 4096 {
		return nil, fmt.Errorf("sdk: TorusEmbedding: %s has %d nodes; the embeddings need the n×n distance matrix and stop at 4,096 nodes", t, n)
	}
	var pos [][]float64
	var stress float64
	hasStress := true
	switch method {
	case "mds-full":
		dist := embed.DistanceMatrix(n, t.Dist, 0)
		x, err := embed.ClassicalMDS(dist, 2)
		if err != nil {
			return nil, fmt.Errorf("sdk: TorusEmbedding %s: %w", method, err)
		}
		pos, stress = x, embed.Stress(dist, x)
	case "mds-3hop", "mds-neighbours":
		cutoff := 3
		if method == "mds-neighbours" {
			cutoff = 1
		}
		dist := embed.DistanceMatrix(n, t.Dist, cutoff)
		res, err := embed.SMACOF(dist, 2, embed.SMACOFOptions{Seed: 1, MaxIter: 3000})
		if err != nil {
			return nil, fmt.Errorf("sdk: TorusEmbedding %s: %w", method, err)
		}
		pos, stress = res.X, res.Stress
	case "radviz":
		coords := make([][]float64, n)
		for v := range coords {
			c := t.Coord(v)
			coords[v] = make([]float64, len(c))
			for i, x := range c {
				coords[v][i] = float64(x)
			}
		}
		x, err := embed.RadViz(coords, embed.RadVizOptions{})
		if err != nil {
			return nil, fmt.Errorf("sdk: TorusEmbedding %s: %w", method, err)
		}
		pos, hasStress = x, false
	default:
		return nil, fmt.Errorf("sdk: TorusEmbedding: method %q: want mds-full, mds-3hop, mds-neighbours or radviz", method)
	}
	order, err := hilbert.Order(t.Extents())
	if err != nil {
		return nil, err
	}
	rank := hilbert.Ranks(order)
	d := views.DrawingData{X: make([]float64, n), Y: make([]float64, n), Labels: make([]string, n), Groups: make([]int32, n), GroupName: "Hilbert block"}
	blocks := min(8, n)
	for v := 0; v < n; v++ {
		d.X[v] = pos[v][0]
		d.Y[v] = -pos[v][1] // y up in the embedding, down on screen
		d.Labels[v] = fmt.Sprintf("node %d %v", v, t.Coord(v))
		// Numbered from 1, as the ring numbers its blocks.
		d.Groups[v] = int32(hilbert.BlockOf(n, blocks, rank[v])) + 1
	}
	for _, p := range t.Pairs() {
		d.Edges = append(d.Edges, [2]int32{int32(p.A), int32(p.B)})
	}
	d.Title = fmt.Sprintf("%s of %s", method, t)
	if hasStress {
		d.Title += fmt.Sprintf(", normalised stress %.3f", stress)
	}
	return views.Drawing(d), nil
}

// TorusMapping is a named task mapping for CompareMappings.
type TorusMapping struct {
	Name    string
	Mapping torus.Mapping
}

// TorusMappings returns the three mappings worth comparing first, each
// with ranksPerNode ranks per node: "default" (Blue Gene/Q's, the last
// dimension fastest), "hilbert" (nodes in Hilbert order) and, when tile
// is given, "blocked" (sub-box tiles, torus.BlockedOrder).
func TorusMappings(t *torus.Torus, ranksPerNode int, tile []int) ([]TorusMapping, error) {
	if t == nil {
		return nil, fmt.Errorf("sdk: TorusMappings: no torus")
	}
	h, err := hilbert.Order(t.Extents())
	if err != nil {
		return nil, err
	}
	if h, err = torus.GivenOrder(t, h); err != nil {
		return nil, err
	}
	out := []TorusMapping{
		{"default", torus.Mapping{RanksPerNode: ranksPerNode, Order: torus.DefaultOrder(t)}},
		{"hilbert", torus.Mapping{RanksPerNode: ranksPerNode, Order: h}},
	}
	if len(tile) > 0 {
		b, err := torus.BlockedOrder(t, tile)
		if err != nil {
			return nil, fmt.Errorf("sdk: TorusMappings: %w", err)
		}
		out = append(out, TorusMapping{"blocked", torus.Mapping{RanksPerNode: ranksPerNode, Order: b}})
	}
	return out, nil
}

// MappingComparison is what CompareMappings found: per mapping, the
// routed loads and their totals, and a small ring of each.
type MappingComparison struct {
	Torus    *torus.Torus
	Pattern  string
	Mappings []TorusMapping
	Loads    [][]int64      // per mapping, per channel
	Totals   []torus.Totals // per mapping
	Rings    []*views.RingGraphView
	// ScaleMax is the one scale of the rings: the most packets on one
	// neighbour pair (both directions) under any mapping, drawn widest.
	ScaleMax float64
}

// CompareMappings routes pattern under every mapping (dimension order,
// ties to +; one unit per ordered rank pair on different nodes and per
// hop) and compares the loads: per-dimension totals, the busiest
// channel, the total (hop-units) and the idle channels, plus a small
// Hilbert ring per mapping at 8 blocks. The rings share one scale: a
// neighbour pair's width (and mark) says its packets against the busiest
// pair of all the mappings, so a lighter mapping's ring is thinner.
func CompareMappings(t *torus.Torus, pattern torus.Pattern, mappings []TorusMapping) (*MappingComparison, error) {
	if t == nil {
		return nil, fmt.Errorf("sdk: CompareMappings: no torus")
	}
	if len(mappings) == 0 {
		return nil, fmt.Errorf("sdk: CompareMappings: no mapping")
	}
	c := &MappingComparison{Torus: t, Pattern: pattern.Name, Mappings: mappings}
	var rings []views.RingGraphData
	for _, m := range mappings {
		rows, err := torus.MapPairs(t, pattern, m.Mapping)
		if err != nil {
			return nil, fmt.Errorf("sdk: CompareMappings: mapping %q: %w", m.Name, err)
		}
		loads, err := torus.Loads(t, rows, torus.RouteOptions{})
		if err != nil {
			return nil, fmt.Errorf("sdk: CompareMappings: mapping %q: %w", m.Name, err)
		}
		tot, err := torus.Measure(t, loads)
		if err != nil {
			return nil, err
		}
		c.Loads = append(c.Loads, loads)
		c.Totals = append(c.Totals, tot)
		tbl, err := torus.ChannelTable(t, torus.LoadRows(loads, 0, 0))
		if err != nil {
			return nil, err
		}
		ring, err := torusRing(t, tbl, TorusOptions{Title: m.Name})
		tbl.Release()
		if err != nil {
			return nil, err
		}
		rings = append(rings, ring)
	}
	// One scale: the busiest neighbour pair (both directions) of all rings.
	top := 0.0
	for _, d := range rings {
		top = max(top, ringScaleMax(d))
	}
	c.ScaleMax = top
	for _, d := range rings {
		d.ScaleMax = top
		c.Rings = append(c.Rings, views.RingGraph(d))
	}
	return c, nil
}

// ringScaleMax is the largest sum of both directions of any link in any
// frame of d: the top of its traffic scale in mode sum.
func ringScaleMax(d views.RingGraphData) float64 {
	top := 0.0
	for _, f := range d.Frames {
		for k := range d.Links {
			v := 0.0
			if f.Forward != nil {
				v += f.Forward[k]
			}
			if f.Backward != nil {
				v += f.Backward[k]
			}
			top = max(top, v)
		}
	}
	return top
}

// Table returns the comparison as a table: one row per mapping, its
// packets per dimension, total, busiest channel and idle channels.
func (c *MappingComparison) Table() display.TableView {
	cols := []string{"mapping"}
	names := c.Torus.Names()
	cols = append(cols, names...)
	cols = append(cols, "total", "max", "idle")
	var rows [][]any
	for i, m := range c.Mappings {
		tot := c.Totals[i]
		row := []any{m.Name}
		idle := 0
		for d := range names {
			row = append(row, tot.Dim[d])
			idle += tot.Idle[d]
		}
		row = append(row, tot.Total, tot.Max, idle)
		rows = append(rows, row)
	}
	return display.Table(cols, rows)
}

// String is the comparison's table as text.
func (c *MappingComparison) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s\n", c.Pattern, c.Torus)
	b.WriteString(c.Table().MIMEBundle().Text())
	return b.String()
}

// MIMEBundle shows the table above the small rings, side by side in
// views.Rows of at most three: each ring is laid out for its share of the
// row's width (its fonts at their size), so the rows fit the output
// without shrinking, all on the one scale, ScaleMax.
func (c *MappingComparison) MIMEBundle() display.Bundle {
	var h strings.Builder
	tbl := c.Table().MIMEBundle()
	table, _ := tbl.Data["text/html"].(string)
	h.WriteString(table)
	fmt.Fprintf(&h, `<div style="font:12px sans-serif;margin:4px 0">Link width: packets per neighbour pair, one scale for all %d rings, 0–%s (the busiest pair of any mapping); idle pairs thin and faint.</div>`,
		len(c.Rings), display.FormatNumber(c.ScaleMax))
	// Rows of at most three rings, as even as can be (four: two and two),
	// so that no ring is laid out narrower than a third of the row.
	n := len(c.Rings)
	rows := (n + compareRingsPerRow - 1) / compareRingsPerRow
	per := (n + rows - 1) / max(rows, 1)
	live := false
	for i := 0; i < n; i += per {
		var items []display.Renderer
		var captions []string
		for k := i; k < min(n, i+per); k++ {
			items = append(items, c.Rings[k])
			captions = append(captions, fmt.Sprintf("%s: max %d", c.Mappings[k].Name, c.Totals[k].Max))
		}
		row := views.Row(items...).WithCaptions(captions...).MIMEBundle()
		ring, _ := row.Data["text/html"].(string)
		if i > 0 {
			h.WriteString(`<div style="height:8px"></div>`)
		}
		h.WriteString(ring)
		live = live || row.NeedsRuntime
	}
	return display.Bundle{Data: map[string]any{"text/plain": c.String(), "text/html": h.String()}, NeedsRuntime: live}
}

// compareRingsPerRow is the most rings a row of the comparison holds.
const compareRingsPerRow = 3
