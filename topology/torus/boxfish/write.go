package boxfish

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"superstep/sdk/table"
	"superstep/topology/torus"
)

// Write writes run as Boxfish files in dir: prefix_meta.yaml,
// prefix_links.yaml (when run.Links is set), prefix_nodes.yaml (node
// counters, or only ids and coordinates when run.Nodes is nil) and
// prefix_map.yaml (when run.RankToNode is set). Rows are written by
// region, then phase, then channel (node), so that Read of
// prefix_meta.yaml gives back the same tables in that order; mesh
// dimensions and torus.Extent2Channels(1) are recorded as hardware.mesh
// and hardware.extent2_channels, keys Boxfish ignores and Read applies. A
// table whose phases have gaps (a phase k without k−1 for the same
// channel and region) cannot be written that way and is an error.
func Write(dir, prefix string, run *Run) error {
	if run == nil || run.Torus == nil {
		return errors.New("boxfish: Write: no torus")
	}
	t := run.Torus
	for _, n := range t.Names() {
		if !bfPlainName(n) {
			return fmt.Errorf("boxfish: Write: dimension name %q is not a plain name (letters, digits, _)", n)
		}
	}
	base := func(kind string) string { return prefix + "_" + kind + ".yaml" }
	key := prefix
	if run.Meta != nil && run.Meta.Header["key"] != "" && bfPlainName(run.Meta.Header["key"]) {
		key = run.Meta.Header["key"]
	}
	if run.Links != nil {
		if err := bfWriteLinks(filepath.Join(dir, base("links")), key, t, run.Links); err != nil {
			return err
		}
	}
	if err := bfWriteNodes(filepath.Join(dir, base("nodes")), key, t, run.Nodes); err != nil {
		return err
	}
	if run.RankToNode != nil {
		if err := bfWriteFile(filepath.Join(dir, base("map")), func(w *bufio.Writer) error {
			fmt.Fprintf(w, "---\nkey: %s\n---\n- [mpirank, int32]\n- [nodeid, int32]\n...\n", key)
			for r, v := range run.RankToNode {
				if v >= 0 {
					fmt.Fprintf(w, "%d %d\n", r, v)
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return bfWriteFile(filepath.Join(dir, base("meta")), func(w *bufio.Writer) error {
		fmt.Fprintf(w, "---\nkey: %s\nhardware: {\n", key)
		if run.Meta != nil && bfPlainName(run.Meta.Header["hardware.type"]) {
			fmt.Fprintf(w, " type: %s,\n", run.Meta.Header["hardware.type"])
		}
		fmt.Fprintf(w, " network: torus,\n nodes: %d,\n coords: [%s],\n coords_table: %s,\n", t.Nodes(), strings.Join(t.Names(), ", "), base("nodes"))
		var dim, sc, dc, mesh []string
		for d, n := range t.Names() {
			dim = append(dim, fmt.Sprintf("%s: %d", n, t.Extent(d)))
			sc = append(sc, fmt.Sprintf("%s: s%s", n, n))
			dc = append(dc, fmt.Sprintf("%s: t%s", n, n))
			if t.IsMesh(d) {
				mesh = append(mesh, n)
			}
		}
		fmt.Fprintf(w, " dim: {%s},\n source_coords: {%s},\n destination_coords: {%s},\n", strings.Join(dim, ", "), strings.Join(sc, ", "), strings.Join(dc, ", "))
		if len(mesh) > 0 {
			fmt.Fprintf(w, " mesh: [%s],\n", strings.Join(mesh, ", "))
		}
		if t.Extent2() != 2 {
			fmt.Fprintf(w, " extent2_channels: %d,\n", t.Extent2())
		}
		if run.Links != nil {
			fmt.Fprintf(w, " link_coords_table: %s,\n", base("links"))
		}
		fmt.Fprintf(w, "}\n---\nfiletype: table\nfilename: %s\ndomain: HW\ntype: NODE\nfield: nodeid\nflags: 0\n", base("nodes"))
		if run.Links != nil {
			fmt.Fprintf(w, "---\nfiletype: table\nfilename: %s\ndomain: HW\ntype: LINK\nfield: linkid\nflags: 0\n", base("links"))
		}
		if run.RankToNode != nil {
			fmt.Fprintf(w, "---\nfiletype: projection\ntype: file\nfilename: %s\nsubdomain:\n- { domain: HW, type: NODE, field: nodeid }\n- { domain: COMM, type: RANK, field: mpirank }\nflags: 0\n", base("map"))
		}
		fmt.Fprintf(w, "---\nfiletype: projection\ntype: node link\nnode_policy: Source\nlink_policy: Source\nsubdomain:\n- { domain: HW, type: NODE, field: nodeid }\n- { domain: HW, type: LINK, field: linkid }\nflags: 0\n...\n")
		return nil
	})
}

// bfPlainName says whether s can be written as a plain YAML scalar and
// column name.
func bfPlainName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return s[0] != '-' && s[0] != '.'
}

// bfWriteFile writes a file through a buffered writer.
func bfWriteFile(path string, fill func(w *bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("boxfish: Write: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("boxfish: Write %s: %w", path, err)
	}
	return nil
}

// bfCounterCols reads the leading columns and the extra counter columns
// (int or float) of a traffic table.
func bfCounterCols(tab arrow.Table, lead []arrow.Field) ([]table.Column, []arrow.Field, error) {
	fields := append([]arrow.Field(nil), lead...)
	var extra []arrow.Field
	for _, f := range tab.Schema().Fields() {
		skip := false
		for _, l := range lead {
			skip = skip || l.Name == f.Name
		}
		if skip {
			continue
		}
		switch {
		case arrow.IsInteger(f.Type.ID()):
			extra = append(extra, arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Int64})
		case arrow.IsFloating(f.Type.ID()):
			extra = append(extra, arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Float64})
		default:
			return nil, nil, fmt.Errorf("column %s has type %s, want an integer or float counter", f.Name, f.Type)
		}
		if !bfPlainName(f.Name) {
			return nil, nil, fmt.Errorf("column name %q is not a plain name", f.Name)
		}
	}
	cols, err := table.Read(tab, append(fields, extra...))
	return cols, extra, err
}

// bfOrder returns the rows sorted by region, phase and key, and checks
// that phases have no gap.
func bfOrder(region, phase, key []int64) ([]int, error) {
	order := make([]int, len(region))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if region[i] != region[j] {
			return region[i] < region[j]
		}
		if phase[i] != phase[j] {
			return phase[i] < phase[j]
		}
		return key[i] < key[j]
	})
	next := map[[2]int64]int64{}
	for _, i := range order {
		k := [2]int64{region[i], key[i]}
		if phase[i] != next[k] {
			return nil, fmt.Errorf("row %d: region %d, key %d has phase %d, want %d (phases must count up from 0)", i, region[i], key[i], phase[i], next[k])
		}
		next[k]++
	}
	return order, nil
}

func bfWriteValue(w *bufio.Writer, c table.Column, i int) {
	w.WriteByte(' ')
	if c.Ints != nil {
		w.WriteString(strconv.FormatInt(c.Ints[i], 10))
	} else {
		w.WriteString(strconv.FormatFloat(c.Floats[i], 'g', -1, 64))
	}
}

func bfTypeName(f arrow.Field) string {
	if f.Type.ID() == arrow.FLOAT64 {
		return "float64"
	}
	return "int64"
}

func bfWriteLinks(path, key string, t *torus.Torus, tab arrow.Table) error {
	cols, extra, err := bfCounterCols(tab, torus.ChannelFields())
	if err != nil {
		return fmt.Errorf("boxfish: Write links: %w", err)
	}
	region, phase, ch, packets := cols[0].Ints, cols[1].Ints, cols[2].Ints, cols[3].Ints
	for i, c := range ch {
		if c < 0 || c >= int64(t.Channels()) {
			return fmt.Errorf("boxfish: Write links: row %d: channel %d outside 0..%d", i, c, t.Channels()-1)
		}
		if region[i] < -1<<31 || region[i] >= 1<<31 {
			return fmt.Errorf("boxfish: Write links: row %d: region %d is not an int32", i, region[i])
		}
	}
	order, err := bfOrder(region, phase, ch)
	if err != nil {
		return fmt.Errorf("boxfish: Write links: %w", err)
	}
	// The "−" channel of an extent-2 pair is told from "+" by order only:
	// it needs the "+" row of the same phase before it.
	seen := map[[3]int64]bool{}
	for _, i := range order {
		seen[[3]int64{region[i], phase[i], ch[i]}] = true
		c := t.Channel(int(ch[i]))
		if c.Dir < 0 && t.Extent(c.Dim) == 2 && t.Extent2() == 2 && !t.IsMesh(c.Dim) {
			plus, _ := t.ChannelID(c.Node, c.Dim, +1)
			if !seen[[3]int64{region[i], phase[i], int64(plus)}] {
				return fmt.Errorf("boxfish: Write links: row %d: channel %s has no \"+\" twin in region %d phase %d, so a reader cannot tell it from \"+\"", i, bfChannelString(t, int(ch[i])), region[i], phase[i])
			}
		}
	}
	names := map[string]bool{"linkid": true, "code_region": true, torus.ColPackets: true}
	for _, n := range t.Names() {
		names["s"+n], names["t"+n] = true, true
	}
	for _, f := range extra {
		if names[f.Name] {
			return fmt.Errorf("boxfish: Write links: extra column %s clashes with a Boxfish column", f.Name)
		}
	}
	return bfWriteFile(path, func(w *bufio.Writer) error {
		fmt.Fprintf(w, "---\nkey: %s\n---\n- [linkid, int32]\n", key)
		for _, p := range [2]string{"s", "t"} {
			for _, n := range t.Names() {
				fmt.Fprintf(w, "- [%s%s, int32]\n", p, n)
			}
		}
		fmt.Fprintf(w, "- [code_region, int32]\n- [packets, int64]\n")
		for _, f := range extra {
			fmt.Fprintf(w, "- [%s, %s]\n", f.Name, bfTypeName(f))
		}
		w.WriteString("...\n")
		cu, cv := make([]int, t.Dims()), make([]int, t.Dims())
		for _, i := range order {
			c := t.Channel(int(ch[i]))
			t.CoordInto(c.Node, cu)
			t.CoordInto(c.To, cv)
			w.WriteString(strconv.FormatInt(ch[i], 10))
			for _, x := range cu {
				w.WriteByte(' ')
				w.WriteString(strconv.Itoa(x))
			}
			for _, x := range cv {
				w.WriteByte(' ')
				w.WriteString(strconv.Itoa(x))
			}
			w.WriteByte(' ')
			w.WriteString(strconv.FormatInt(region[i], 10))
			w.WriteByte(' ')
			w.WriteString(strconv.FormatInt(packets[i], 10))
			for k := range extra {
				bfWriteValue(w, cols[4+k], i)
			}
			w.WriteByte('\n')
		}
		return nil
	})
}

func bfWriteNodes(path, key string, t *torus.Torus, tab arrow.Table) error {
	var cols []table.Column
	var extra []arrow.Field
	var order []int
	if tab != nil {
		var err error
		if cols, extra, err = bfCounterCols(tab, torus.NodeFields()); err != nil {
			return fmt.Errorf("boxfish: Write nodes: %w", err)
		}
		for i, v := range cols[2].Ints {
			if v < 0 || v >= int64(t.Nodes()) {
				return fmt.Errorf("boxfish: Write nodes: row %d: node %d outside 0..%d", i, v, t.Nodes()-1)
			}
			if r := cols[0].Ints[i]; r < -1<<31 || r >= 1<<31 {
				return fmt.Errorf("boxfish: Write nodes: row %d: region %d is not an int32", i, r)
			}
		}
		if order, err = bfOrder(cols[0].Ints, cols[1].Ints, cols[2].Ints); err != nil {
			return fmt.Errorf("boxfish: Write nodes: %w", err)
		}
		names := map[string]bool{"nodeid": true, "code_region": true}
		for _, n := range t.Names() {
			names[n] = true
		}
		for _, f := range extra {
			if names[f.Name] {
				return fmt.Errorf("boxfish: Write nodes: counter column %s clashes with a Boxfish column", f.Name)
			}
		}
	}
	return bfWriteFile(path, func(w *bufio.Writer) error {
		fmt.Fprintf(w, "---\nkey: %s\n---\n- [nodeid, int32]\n", key)
		for _, n := range t.Names() {
			fmt.Fprintf(w, "- [%s, int32]\n", n)
		}
		if tab != nil {
			w.WriteString("- [code_region, int32]\n")
		}
		for _, f := range extra {
			fmt.Fprintf(w, "- [%s, %s]\n", f.Name, bfTypeName(f))
		}
		w.WriteString("...\n")
		c := make([]int, t.Dims())
		row := func(v int) {
			t.CoordInto(v, c)
			w.WriteString(strconv.Itoa(v))
			for _, x := range c {
				w.WriteByte(' ')
				w.WriteString(strconv.Itoa(x))
			}
		}
		if tab == nil {
			for v := 0; v < t.Nodes(); v++ {
				row(v)
				w.WriteByte('\n')
			}
			return nil
		}
		for _, i := range order {
			row(int(cols[2].Ints[i]))
			w.WriteByte(' ')
			w.WriteString(strconv.FormatInt(cols[0].Ints[i], 10))
			for k := range extra {
				bfWriteValue(w, cols[3+k], i)
			}
			w.WriteByte('\n')
		}
		return nil
	})
}
