package boxfish

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/topology/torus"
)

// Meta is what a Boxfish run meta file says: the scalars of its first
// document (nested keys joined with ".", such as "hardware.type"), the
// torus (coords in order and their extents from dim), the declared
// node count, the table files and the columns that hold link endpoints.
type Meta struct {
	File       string
	Header     map[string]string
	Coords     []string
	Dim        []int
	Nodes      int    // hardware.nodes, 0 when absent
	NodesFile  string // coords_table (or the NODE table document)
	LinksFile  string // link_coords_table (or the LINK table document)
	MapFile    string // the rank-map projection's file
	SourceCols []string
	DestCols   []string
	RankField  string   // column of ranks in the map file (mpirank)
	NodeField  string   // column of node ids in the map file (nodeid)
	Mesh       []string // hardware.mesh: dimensions without wrap-around (a Superstep key)
	Extent2    int      // hardware.extent2_channels: 1 or 2, 0 when absent (a Superstep key)
	Warnings   []Warning
}

// bfMaxDims bounds the number of torus dimensions a meta file may declare.
const bfMaxDims = 32

// ReadMeta reads a Boxfish run meta file (name is the file name used in
// errors and warnings). Errors are *ParseError "name:line:col: expected
// …, found …"; a declared nodes count that differs from the product of
// dim is a warning.
func ReadMeta(name string, r io.Reader) (*Meta, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Msg: "reading: " + err.Error(), Err: err}
	}
	p := bfNewParser(name, src)
	docs, err := p.parseStream(false)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 || docs[0].root == nil || docs[0].root.kind != 'm' {
		var found *bfNode
		line := 1
		if len(docs) > 0 {
			found, line = docs[0].root, docs[0].line
		}
		return nil, p.errAt(line, 1, "expected a first document with a hardware mapping, found %s", found.describe())
	}
	m := &Meta{File: name, Header: map[string]string{}, RankField: "mpirank", NodeField: "nodeid"}
	head := docs[0].root
	bfFlatten("", head, m.Header)
	hw := head.get("hardware")
	if hw == nil && head.get("application") != nil {
		return nil, p.errAt(head.line, head.col, "expected a key hardware holding a mapping, found an application domain only (key application): "+
			"this Boxfish file describes an application's data, not a network run")
	}
	if hw == nil || hw.kind != 'm' {
		return nil, p.errAt(head.line, head.col, "expected a key hardware holding a mapping, found %s", hw.describe())
	}
	coords := hw.get("coords")
	if coords == nil || coords.kind != 'q' || len(coords.items) == 0 || len(coords.items) > bfMaxDims {
		return nil, p.errAt(hw.line, hw.col, "expected hardware.coords, a list of 1 to %d names, found %s", bfMaxDims, coords.describe())
	}
	for _, c := range coords.items {
		if c.scalar() == "" {
			return nil, p.errAt(coords.line, coords.col, "expected a coordinate name, found %s", c.describe())
		}
		m.Coords = append(m.Coords, c.str)
	}
	dim := hw.get("dim")
	if dim == nil || dim.kind != 'm' {
		return nil, p.errAt(hw.line, hw.col, "expected hardware.dim, a mapping of extents, found %s", dim.describe())
	}
	prod := int64(1)
	for _, c := range m.Coords {
		v := dim.get(c)
		k, err := strconv.Atoi(v.scalar())
		if err != nil || k < 1 || k > 1<<30 {
			line, col := dim.line, dim.col
			if v != nil {
				line, col = v.line, v.col
			}
			return nil, p.errAt(line, col, "expected an extent ≥ 1 for %s in hardware.dim, found %s", c, v.describe())
		}
		m.Dim = append(m.Dim, k)
		if prod *= int64(k); prod > 1<<31 {
			return nil, p.errAt(dim.line, dim.col, "expected at most 2³¹ nodes, found a larger dim")
		}
	}
	if n := hw.get("nodes"); n != nil {
		k, err := strconv.Atoi(n.scalar())
		if err != nil || k < 0 {
			return nil, p.errAt(n.line, n.col, "expected a node count, found %s", n.describe())
		}
		m.Nodes = k
		if int64(k) != prod {
			m.Warnings = append(m.Warnings, Warning{File: name, Line: n.line, Msg: fmt.Sprintf("hardware.nodes is %d but dim gives %d nodes; using dim", k, prod)})
		}
	}
	for i, which := range [2]string{"source_coords", "destination_coords"} {
		mp := hw.get(which)
		if mp != nil && mp.kind != 'm' {
			return nil, p.errAt(mp.line, mp.col, "expected hardware.%s, a mapping of column names, found %s", which, mp.describe())
		}
		var cols []string
		for _, c := range m.Coords {
			col := [2]string{"s", "t"}[i] + c
			if v := mp.get(c); v != nil {
				if v.scalar() == "" {
					return nil, p.errAt(v.line, v.col, "expected a column name for %s in hardware.%s, found %s", c, which, v.describe())
				}
				col = v.str
			}
			cols = append(cols, col)
		}
		if i == 0 {
			m.SourceCols = cols
		} else {
			m.DestCols = cols
		}
	}
	if mesh := hw.get("mesh"); mesh != nil {
		if mesh.kind != 'q' {
			return nil, p.errAt(mesh.line, mesh.col, "expected hardware.mesh, a list of coordinate names, found %s", mesh.describe())
		}
		for _, it := range mesh.items {
			if it.scalar() == "" || !slices.Contains(m.Coords, it.str) {
				return nil, p.errAt(mesh.line, mesh.col, "expected a coordinate name (%s) in hardware.mesh, found %s", strings.Join(m.Coords, ", "), it.describe())
			}
			m.Mesh = append(m.Mesh, it.str)
		}
	}
	if k2 := hw.get("extent2_channels"); k2 != nil {
		if s := k2.scalar(); s != "1" && s != "2" {
			return nil, p.errAt(k2.line, k2.col, "expected hardware.extent2_channels 1 or 2, found %s", k2.describe())
		}
		m.Extent2 = int(k2.str[0] - '0')
	}
	m.NodesFile = hw.get("coords_table").scalar()
	m.LinksFile = hw.get("link_coords_table").scalar()
	for _, d := range docs[1:] {
		n := d.root
		if n == nil {
			continue
		}
		if n.kind != 'm' {
			return nil, p.errAt(n.line, n.col, "expected a table or projection document (a mapping), found %s", n.describe())
		}
		switch n.get("filetype").scalar() {
		case "table":
			f := n.get("filename").scalar()
			switch n.get("type").scalar() {
			case "NODE":
				if m.NodesFile == "" {
					m.NodesFile = f
				}
			case "LINK":
				if m.LinksFile == "" {
					m.LinksFile = f
				}
			}
		case "projection":
			// The rank map is the first file projection between ranks
			// and nodes; others (communicators to ranks, say) are not.
			if n.get("type").scalar() != "file" || m.MapFile != "" {
				continue
			}
			rankField, nodeField := "", ""
			if sd := n.get("subdomain"); sd != nil && sd.kind == 'q' {
				for _, it := range sd.items {
					switch it.get("type").scalar() {
					case "RANK":
						rankField = it.get("field").scalar()
					case "NODE":
						nodeField = it.get("field").scalar()
					}
				}
			}
			if rankField == "" || nodeField == "" {
				continue
			}
			m.MapFile, m.RankField, m.NodeField = n.get("filename").scalar(), rankField, nodeField
		}
	}
	return m, nil
}

// Run is a Boxfish run read whole: the torus from the meta file, the
// link counters as a channel table (torus.ChannelFields, then the file's
// extra counter columns), the node counters as a node table
// (torus.NodeFields, then the counters; nil when the nodes file has only
// ids and coordinates), the rank map (RankToNode[rank] = node, −1 for a
// rank the file lacks; nil without a map file; torus.RankMapTable makes it
// a table) and every warning of every file. ReadBGQCounters fills one too,
// without Meta.
//
// The tables' region is the file's code_region (−2 when the file has
// none); the phase of a row is its occurrence: the k-th row, in file
// order, for a given (channel or node, region) is phase k. Every row is
// kept.
type Run struct {
	Torus      *torus.Torus
	Meta       *Meta
	Links      arrow.Table
	Nodes      arrow.Table
	RankToNode []int
	Warnings   []Warning
}

// Release releases the tables.
func (r *Run) Release() {
	if r.Links != nil {
		r.Links.Release()
	}
	if r.Nodes != nil {
		r.Nodes.Release()
	}
}

// Read reads a Boxfish run: the meta file at metaPath and the tables it
// names (paths relative to the meta file's folder). opts go to torus.New:
// torus.Mesh for dimensions without wrap-around,
// torus.Extent2Channels(1) for files (like Boxfish's synthetic BG/Q ones)
// that list one channel per extent-2 dimension. The meta keys
// hardware.mesh (a list of coordinate names) and
// hardware.extent2_channels (1 or 2), which Write writes and Boxfish
// ignores, give the same options; opts come after them.
//
// Link rows are matched to channels by their endpoint coordinates (the
// meta's source_coords and destination_coords columns; linkid is not
// used). Between the two nodes of a wrapped extent-2 dimension with
// torus.Extent2Channels(2) the rows of a (source, dimension, region)
// alternate: "+", "−", "+", … in file order. A link whose endpoints are not torus
// neighbours is an error. The packets column is "packets", or
// "sent_chunks" in files from Boxfish's BG/Q converter.
//
// Warnings: a meta nodes count that differs from dim; integral floats in
// integer columns; per region, channels (or nodes) with more rows than the
// region's phase count (its most common row count: "duplicate rows",
// naming lines) or fewer ("missing channels", "missing nodes"); ranks
// listed twice or missing.
func Read(metaPath string, opts ...torus.Option) (*Run, error) {
	dir := filepath.Dir(metaPath)
	open := func(name string) (io.ReadCloser, string, error) {
		if name == metaPath {
			f, err := os.Open(metaPath)
			return f, metaPath, err
		}
		path := filepath.Join(dir, name)
		f, err := os.Open(path)
		return f, path, err
	}
	return readRun(open, metaPath, opts)
}

// ReadFS is Read on a file system (such as datasets.BoxfishBGP() or
// os.DirFS): metaPath and the tables it names, relative to its folder, are
// paths in fsys. Errors and warnings name the
// files by those paths.
func ReadFS(fsys fs.FS, metaPath string, opts ...torus.Option) (*Run, error) {
	dir := path.Dir(metaPath)
	open := func(name string) (io.ReadCloser, string, error) {
		if name != metaPath {
			name = path.Join(dir, name)
		}
		f, err := fsys.Open(name)
		return f, name, err
	}
	return readRun(open, metaPath, opts)
}

// readRun reads a run whose files open gives: the meta file by
// metaPath, a table by its name in the meta file. open also returns the
// name errors use.
func readRun(open func(name string) (io.ReadCloser, string, error), metaPath string, opts []torus.Option) (*Run, error) {
	f, _, err := open(metaPath)
	if err != nil {
		return nil, &ParseError{File: metaPath, Msg: err.Error(), Err: err}
	}
	meta, err := ReadMeta(metaPath, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	run := &Run{Meta: meta}
	run.Warnings = append(run.Warnings, meta.Warnings...)
	read := func(name string) (*Table, error) {
		if name == "" {
			return nil, nil
		}
		f, path, err := open(name)
		if err != nil {
			return nil, &ParseError{File: metaPath, Msg: fmt.Sprintf("table %s: %v", name, err), Err: err}
		}
		defer f.Close()
		t, err := ReadTable(path, f)
		if err != nil {
			return nil, err
		}
		run.Warnings = append(run.Warnings, t.Warnings...)
		return t, nil
	}
	links, err := read(meta.LinksFile)
	if err != nil {
		return nil, err
	}
	nodes, err := read(meta.NodesFile)
	if err != nil {
		return nil, err
	}
	ranks, err := read(meta.MapFile)
	if err != nil {
		return nil, err
	}
	// Bound the torus by the input: a node needs at least a few bytes of
	// table somewhere (or the torus is small).
	budget := 1 << 12
	for _, t := range []*Table{links, nodes, ranks} {
		if t != nil {
			budget += len(t.src)
		}
	}
	total := 1
	for _, k := range meta.Dim {
		total *= k
	}
	if total > budget {
		return nil, &ParseError{File: metaPath, Msg: fmt.Sprintf("expected at most %d nodes for tables of this size, found dim with %d", budget, total)}
	}
	opts = append([]torus.Option{torus.Mesh(meta.Mesh...)}, opts...)
	if meta.Extent2 != 0 {
		opts = append([]torus.Option{torus.Extent2Channels(meta.Extent2)}, opts...)
	}
	t, err := torus.New(meta.Coords, meta.Dim, opts...)
	if err != nil {
		return nil, &ParseError{File: metaPath, Msg: err.Error(), Err: err}
	}
	run.Torus = t
	if links != nil {
		tab, warns, err := bfLinks(t, meta, links)
		if err != nil {
			return nil, err
		}
		run.Links = tab
		run.Warnings = append(run.Warnings, warns...)
	}
	if nodes != nil {
		tab, warns, err := bfNodes(t, meta, nodes)
		if err != nil {
			run.Release()
			return nil, err
		}
		run.Nodes = tab
		run.Warnings = append(run.Warnings, warns...)
	}
	if ranks != nil {
		r2n, warns, err := bfRanks(t, meta, ranks)
		if err != nil {
			run.Release()
			return nil, err
		}
		run.RankToNode = r2n
		run.Warnings = append(run.Warnings, warns...)
	}
	return run, nil
}

// bfSchemaMeta is the schema metadata of a table of kind on t: the
// torus's (Torus.Metadata), without the main counter for node tables.
func bfSchemaMeta(t *torus.Torus, kind string) arrow.Metadata {
	md := t.Metadata(kind)
	if kind == torus.KindChannels {
		return md
	}
	var keys, vals []string
	for i, k := range md.Keys() {
		if k != torus.MetaCounter {
			keys, vals = append(keys, k), append(vals, md.Values()[i])
		}
	}
	return arrow.NewMetadata(keys, vals)
}

// bfIntCol returns the integer column named name, −1 if absent, or an
// error if it holds floats.
func bfIntCol(tab *Table, name, what string) (int, error) {
	i := tab.Column(name)
	if i >= 0 && tab.Columns[i].Ints == nil {
		return 0, tab.errHeader("expected an integer type for %s (%s), found %s", name, what, tab.Columns[i].Type)
	}
	return i, nil
}

// bfCoordCols finds the coordinate columns named cols.
func bfCoordCols(tab *Table, cols []string, what string) ([]int, error) {
	out := make([]int, len(cols))
	for d, c := range cols {
		i, err := bfIntCol(tab, c, what)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, tab.errHeader("expected a column %s (%s), found columns %s", c, what, tab.columnNames())
		}
		out[d] = i
	}
	return out, nil
}

// bfNodeAt reads the node whose coordinates are in columns cols of row r.
func bfNodeAt(t *torus.Torus, tab *Table, cols []int, r int) (int, error) {
	v := 0
	for d, c := range cols {
		x := tab.Columns[c].Ints[r]
		if x < 0 || x >= int64(t.Extent(d)) {
			return 0, tab.errAt(r, c, "expected %s in 0..%d, found %d", tab.Columns[c].Name, t.Extent(d)-1, x)
		}
		v += int(x) * t.Stride(d)
	}
	return v, nil
}

// bfRegions reads the code_region column (−2 for every row without one).
func bfRegions(tab *Table) ([]int32, int, error) {
	out := make([]int32, tab.Rows())
	ci, err := bfIntCol(tab, "code_region", "code region")
	if err != nil {
		return nil, 0, err
	}
	if ci < 0 {
		for i := range out {
			out[i] = -2
		}
		return out, -1, nil
	}
	for r, v := range tab.Columns[ci].Ints {
		if v < -1<<31 || v >= 1<<31 {
			return nil, 0, tab.errAt(r, ci, "expected an int32 code_region, found %d", v)
		}
		out[r] = int32(v)
	}
	return out, ci, nil
}

// bfPhases assigns phases to rows keyed by (region, key) and returns the
// warnings for duplicate and missing keys: per region the phase count is
// the most common row count among the keys present (ties to the larger);
// rows beyond it are duplicates, keys with fewer rows are missing. name
// describes a key for the messages.
func bfPhases(tab *Table, regions []int32, keys []int32, nkeys int, what string, name func(int) string) ([]int32, []Warning) {
	count := map[int64]int32{}
	phases := make([]int32, len(keys))
	for r, k := range keys {
		id := int64(regions[r])<<32 | int64(uint32(k))
		phases[r] = count[id]
		count[id]++
	}
	hist := map[int32]map[int32]int{}
	for id, c := range count {
		reg := int32(id >> 32)
		if hist[reg] == nil {
			hist[reg] = map[int32]int{}
		}
		hist[reg][c]++
	}
	best := map[int32]int32{}
	for reg, h := range hist {
		b, bn := int32(0), -1
		for c, n := range h {
			if n > bn || (n == bn && c > b) {
				b, bn = c, n
			}
		}
		best[reg] = b
	}
	dups := map[int32][]int{}
	for r := range keys {
		if phases[r] >= best[regions[r]] {
			dups[regions[r]] = append(dups[regions[r]], tab.Lines[r])
		}
	}
	var warns []Warning
	for _, reg := range bfSortedKeys(hist) {
		b := best[reg]
		if dup := dups[reg]; len(dup) > 0 {
			warns = append(warns, Warning{File: tab.File, Line: dup[0], Msg: fmt.Sprintf("region %d: %d duplicate rows (a %s with more than the region's %d rows): lines %s", reg, len(dup), what, b, bfList(dup, 10))})
		}
		full := 0
		for c, n := range hist[reg] {
			if c >= b {
				full += n
			}
		}
		nmiss := nkeys - full
		if nmiss <= 0 {
			continue
		}
		var miss []string
		for k := 0; k < nkeys && len(miss) < 5; k++ {
			if count[int64(reg)<<32|int64(uint32(k))] < b {
				miss = append(miss, name(k))
			}
		}
		more := ""
		if nmiss > len(miss) {
			more = fmt.Sprintf(" and %d more", nmiss-len(miss))
		}
		warns = append(warns, Warning{File: tab.File, Msg: fmt.Sprintf("region %d: %d missing %ss (fewer than the region's %d rows): %s%s", reg, nmiss, what, b, strings.Join(miss, ", "), more)})
	}
	return phases, warns
}

func bfList(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(xs)-max))
			break
		}
		parts = append(parts, strconv.Itoa(x))
	}
	return strings.Join(parts, ", ")
}

// bfCoordString writes node v as "(x,y,z)".
func bfCoordString(t *torus.Torus, v int) string {
	parts := make([]string, t.Dims())
	for d, x := range t.Coord(v) {
		parts[d] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// bfChannelString writes channel c as "(x,y,z)→(x,y,z)", with +/− for the
// parallel channels of an extent-2 dimension.
func bfChannelString(t *torus.Torus, c int) string {
	ch := t.Channel(c)
	s := bfCoordString(t, ch.Node) + "→" + bfCoordString(t, ch.To)
	if t.Extent(ch.Dim) == 2 && t.Extent2() == 2 {
		s += [2]string{"−", "+"}[(ch.Dir+1)/2]
	}
	return s
}

// bfExtraFields returns the Arrow fields of the columns not in skip.
func bfExtraFields(tab *Table, skip map[int]bool) ([]int, []arrow.Field) {
	var idx []int
	var fs []arrow.Field
	for i, c := range tab.Columns {
		if skip[i] {
			continue
		}
		typ := arrow.DataType(arrow.PrimitiveTypes.Int64)
		if c.Ints == nil {
			typ = arrow.PrimitiveTypes.Float64
		}
		idx = append(idx, i)
		fs = append(fs, arrow.Field{Name: c.Name, Type: typ})
	}
	return idx, fs
}

// bfBuild builds a one-record table from the leading int32 columns,
// an optional int64 packets column and the extra columns of tab.
func bfBuild(sc *arrow.Schema, lead [][]int32, packets []int64, tab *Table, extra []int) arrow.Table {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	k := 0
	for _, col := range lead {
		b.Field(k).(*array.Int32Builder).AppendValues(col, nil)
		k++
	}
	if packets != nil {
		b.Field(k).(*array.Int64Builder).AppendValues(packets, nil)
		k++
	}
	for _, i := range extra {
		c := tab.Columns[i]
		if c.Ints != nil {
			b.Field(k).(*array.Int64Builder).AppendValues(c.Ints, nil)
		} else {
			b.Field(k).(*array.Float64Builder).AppendValues(c.Floats, nil)
		}
		k++
	}
	rec := b.NewRecord()
	defer rec.Release()
	return array.NewTableFromRecords(sc, []arrow.Record{rec})
}

// bfLinks turns a links table into a channel table.
func bfLinks(t *torus.Torus, meta *Meta, tab *Table) (arrow.Table, []Warning, error) {
	src, err := bfCoordCols(tab, meta.SourceCols, "source coordinate")
	if err != nil {
		return nil, nil, err
	}
	dst, err := bfCoordCols(tab, meta.DestCols, "destination coordinate")
	if err != nil {
		return nil, nil, err
	}
	regions, regCol, err := bfRegions(tab)
	if err != nil {
		return nil, nil, err
	}
	pc := tab.Column(torus.ColPackets)
	if pc < 0 {
		pc = tab.Column("sent_chunks")
	}
	if pc < 0 {
		return nil, nil, tab.errHeader("expected a column packets (or sent_chunks), found columns %s", tab.columnNames())
	}
	if _, err := bfIntCol(tab, tab.Columns[pc].Name, "packet count"); err != nil {
		return nil, nil, err
	}
	skip := map[int]bool{pc: true, regCol: true}
	if i := tab.Column("linkid"); i >= 0 {
		skip[i] = true
	}
	for _, c := range append(append([]int(nil), src...), dst...) {
		skip[c] = true
	}
	n := tab.Rows()
	chans := make([]int32, n)
	pairs := map[int64]int32{} // rows so far per (region, source, dimension) of extent-2 pairs
	for r := 0; r < n; r++ {
		u, err := bfNodeAt(t, tab, src, r)
		if err != nil {
			return nil, nil, err
		}
		v, err := bfNodeAt(t, tab, dst, r)
		if err != nil {
			return nil, nil, err
		}
		c := -1
		for d := range t.Dims() {
			if u/t.Stride(d)%t.Extent(d) == v/t.Stride(d)%t.Extent(d) {
				continue
			}
			if w, ok := t.Step(u, d, +1); ok && w == v {
				if t.Extent(d) == 2 && t.Extent2() == 2 && !t.IsMesh(d) {
					id := int64(regions[r])<<32 | int64(u*t.Dims()+d)
					dir := 1 - 2*int(pairs[id]%2)
					pairs[id]++
					c, _ = t.ChannelID(u, d, dir)
				} else {
					c, _ = t.ChannelID(u, d, +1)
				}
			} else if w, ok := t.Step(u, d, -1); ok && w == v {
				c, _ = t.ChannelID(u, d, -1)
			}
			break
		}
		if c < 0 || t.Dist(u, v) != 1 {
			return nil, nil, tab.errAt(r, dst[0], "expected a torus neighbour of %s (%s), found %s", bfCoordString(t, u), t, bfCoordString(t, v))
		}
		chans[r] = int32(c)
	}
	phases, warns := bfPhases(tab, regions, chans, t.Channels(), "channel", func(c int) string { return bfChannelString(t, c) })
	extra, efs := bfExtraFields(tab, skip)
	md := bfSchemaMeta(t, torus.KindChannels)
	sc := arrow.NewSchema(append(torus.ChannelFields(), efs...), &md)
	return bfBuild(sc, [][]int32{regions, phases, chans}, tab.Columns[pc].Ints, tab, extra), warns, nil
}

// bfNodes turns a nodes table into a node-counter table (nil when the
// table has no counter column).
func bfNodes(t *torus.Torus, meta *Meta, tab *Table) (arrow.Table, []Warning, error) {
	idCol, err := bfIntCol(tab, "nodeid", "node id")
	if err != nil {
		return nil, nil, err
	}
	skip := map[int]bool{idCol: true}
	var coords []int
	if tab.Column(meta.Coords[0]) >= 0 || idCol < 0 {
		if coords, err = bfCoordCols(tab, meta.Coords, "node coordinate"); err != nil {
			return nil, nil, err
		}
		for _, c := range coords {
			skip[c] = true
		}
	}
	regions, regCol, err := bfRegions(tab)
	if err != nil {
		return nil, nil, err
	}
	skip[regCol] = true
	n := tab.Rows()
	ids := make([]int32, n)
	for r := 0; r < n; r++ {
		v := -1
		if coords != nil {
			if v, err = bfNodeAt(t, tab, coords, r); err != nil {
				return nil, nil, err
			}
		}
		if idCol >= 0 {
			id := tab.Columns[idCol].Ints[r]
			switch {
			case id < 0 || id >= int64(t.Nodes()):
				return nil, nil, tab.errAt(r, idCol, "expected a node id in 0..%d, found %d", t.Nodes()-1, id)
			case v >= 0 && int(id) != v:
				return nil, nil, tab.errAt(r, idCol, "expected node id %d for coordinates %s, found %d", v, bfCoordString(t, v), id)
			}
			v = int(id)
		}
		ids[r] = int32(v)
	}
	phases, warns := bfPhases(tab, regions, ids, t.Nodes(), "node", func(v int) string { return bfCoordString(t, v) })
	extra, efs := bfExtraFields(tab, skip)
	if len(extra) == 0 {
		return nil, warns, nil
	}
	md := bfSchemaMeta(t, torus.KindNodes)
	sc := arrow.NewSchema(append(torus.NodeFields(), efs...), &md)
	return bfBuild(sc, [][]int32{regions, phases, ids}, nil, tab, extra), warns, nil
}

// bfRanks reads a rank map: rank → node; ranks are bounded by the number
// of rows.
func bfRanks(t *torus.Torus, meta *Meta, tab *Table) ([]int, []Warning, error) {
	rc, err := bfIntCol(tab, meta.RankField, "rank")
	if err != nil {
		return nil, nil, err
	}
	nc, err := bfIntCol(tab, meta.NodeField, "node id")
	if err != nil {
		return nil, nil, err
	}
	if rc < 0 || nc < 0 {
		return nil, nil, tab.errHeader("expected columns %s and %s, found columns %s", meta.RankField, meta.NodeField, tab.columnNames())
	}
	n := tab.Rows()
	out := make([]int, 0, n)
	lineOf := make([]int, 0, n)
	var warns []Warning
	var dups []int
	for r := 0; r < n; r++ {
		rank, node := tab.Columns[rc].Ints[r], tab.Columns[nc].Ints[r]
		if rank < 0 || rank >= int64(n) {
			return nil, nil, tab.errAt(r, rc, "expected a rank in 0..%d (the file has %d rows), found %d", n-1, n, rank)
		}
		if node < 0 || node >= int64(t.Nodes()) {
			return nil, nil, tab.errAt(r, nc, "expected a node id in 0..%d, found %d", t.Nodes()-1, node)
		}
		for int64(len(out)) <= rank {
			out = append(out, -1)
			lineOf = append(lineOf, 0)
		}
		switch {
		case out[rank] < 0:
			out[rank], lineOf[rank] = int(node), tab.Lines[r]
		case out[rank] == int(node):
			dups = append(dups, tab.Lines[r])
		default:
			return nil, nil, tab.errAt(r, nc, "expected node %d for rank %d (as on line %d), found %d", out[rank], rank, lineOf[rank], node)
		}
	}
	if len(dups) > 0 {
		warns = append(warns, Warning{File: tab.File, Line: dups[0], Msg: fmt.Sprintf("%d duplicate rows (a rank listed again): lines %s", len(dups), bfList(dups, 10))})
	}
	var miss []int
	for rank, v := range out {
		if v < 0 {
			miss = append(miss, rank)
		}
	}
	if len(miss) > 0 {
		warns = append(warns, Warning{File: tab.File, Msg: fmt.Sprintf("%d missing ranks: %s", len(miss), bfList(miss, 10))})
	}
	return out, warns, nil
}
