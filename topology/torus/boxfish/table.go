package boxfish

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Column is one column of a Boxfish table: its name, its declared type
// (such as "int32" or "float64") and its values, in Ints when the type is
// an integer type and in Floats otherwise.
type Column struct {
	Name, Type string
	Ints       []int64
	Floats     []float64
}

// IsFloat says whether the column's declared type is a floating-point one.
func (c *Column) IsFloat() bool { return c.Floats != nil || bfFloatType(c.Type) }

// Table is one raw Boxfish table file: the scalars of its optional meta
// document (nested keys joined with "."), its columns and, for every row,
// the file line it came from.
type Table struct {
	File     string
	Meta     map[string]string
	Columns  []Column
	Lines    []int // file line of each row
	Warnings []Warning

	headerLine int   // line of the column list
	offs       []int // byte offset of each row's line, for error columns
	src        []byte
}

// Rows is the number of rows.
func (t *Table) Rows() int { return len(t.Lines) }

// Column returns the index of the named column, or −1.
func (t *Table) Column(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// fieldCol returns the 1-based column of field f of row r.
func (t *Table) fieldCol(r, f int) int {
	off := t.offs[r]
	line := t.src[off:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	i := 0
	for k := 0; ; k++ {
		for i < len(line) && bfRowSpace(line[i]) {
			i++
		}
		if k == f || i >= len(line) {
			return i + 1
		}
		for i < len(line) && !bfRowSpace(line[i]) {
			i++
		}
	}
}

// errAt returns a ParseError at field f of row r.
func (t *Table) errAt(r, f int, format string, args ...any) error {
	return &ParseError{File: t.File, Line: t.Lines[r], Col: t.fieldCol(r, f), Msg: fmt.Sprintf(format, args...)}
}

// errHeader returns a ParseError at the column list.
func (t *Table) errHeader(format string, args ...any) error {
	return &ParseError{File: t.File, Line: t.headerLine, Col: 1, Msg: fmt.Sprintf(format, args...)}
}

func (t *Table) columnNames() string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func bfRowSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// bfNextLine returns the line of src that starts at pos, without its
// '\n', and where the next line starts.
func bfNextLine(src []byte, pos int) (row []byte, next int) {
	end := bytes.IndexByte(src[pos:], '\n')
	if end < 0 {
		return src[pos:], len(src)
	}
	return src[pos : pos+end], pos + end + 1
}

// bfNextField returns the next whitespace-separated field of a table row
// at or after i, as row[start:end]; ok is false at the end of the row or
// at a '#' comment.
func bfNextField(row []byte, i int) (start, end int, ok bool) {
	for i < len(row) && bfRowSpace(row[i]) {
		i++
	}
	if i >= len(row) || row[i] == '#' {
		return i, i, false
	}
	j := i
	for j < len(row) && !bfRowSpace(row[j]) {
		j++
	}
	return i, j, true
}

func bfFloatType(t string) bool {
	switch t {
	case "float", "float16", "float32", "float64", "double", "f4", "f8":
		return true
	}
	return false
}

// bfIntRange returns the range of an integer type name, ok false for a
// name that is no integer type.
func bfIntRange(t string) (lo, hi int64, ok bool) {
	switch t {
	case "int8", "i1":
		return math.MinInt8, math.MaxInt8, true
	case "int16", "i2":
		return math.MinInt16, math.MaxInt16, true
	case "int32", "i4":
		return math.MinInt32, math.MaxInt32, true
	case "int", "int64", "i8", "long":
		return math.MinInt64, math.MaxInt64, true
	case "uint8", "u1":
		return 0, math.MaxUint8, true
	case "uint16", "u2":
		return 0, math.MaxUint16, true
	case "uint32", "u4":
		return 0, math.MaxUint32, true
	case "uint64", "u8", "uint":
		return 0, math.MaxInt64, true
	}
	return 0, 0, false
}

// bfFlatten puts the scalars of n into out, nested mapping keys joined
// with "." and sequence items as key[i].
func bfFlatten(prefix string, n *bfNode, out map[string]string) {
	if n == nil {
		if prefix != "" {
			out[prefix] = ""
		}
		return
	}
	switch n.kind {
	case 's':
		out[prefix] = n.str
	case 'm':
		for i, k := range n.keys {
			if prefix != "" {
				k = prefix + "." + k
			}
			bfFlatten(k, n.vals[i], out)
		}
	case 'q':
		for i, v := range n.items {
			bfFlatten(fmt.Sprintf("%s[%d]", prefix, i), v, out)
		}
	}
}

// ReadTable reads one Boxfish table file: a YAML header of an optional
// meta document and a column list (a sequence of [name, type] pairs;
// types int8…int64, uint8…uint64, float32, float64), a line "...",
// then one row of whitespace-separated numbers per line (blank lines and
// # comments skipped). name is the file name used in errors and warnings.
//
// A value of an integer column must be an integer in the type's range; an
// integral float such as 40000.0 is accepted with a warning (one per
// column). Anything else is a *ParseError "name:line:col: expected …,
// found …". Memory is a small multiple of the input size.
func ReadTable(name string, r io.Reader) (*Table, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Msg: "reading: " + err.Error(), Err: err}
	}
	return bfParseTable(name, src)
}

func bfParseTable(name string, src []byte) (*Table, error) {
	p := bfNewParser(name, src)
	docs, err := p.parseStream(true)
	if err != nil {
		return nil, err
	}
	t := &Table{File: name, Meta: map[string]string{}, src: src}
	var cols bfDoc
	switch len(docs) {
	case 1:
		cols = docs[0]
	case 2:
		if docs[0].root != nil && docs[0].root.kind != 'm' {
			return nil, p.errAt(docs[0].root.line, docs[0].root.col, "expected a meta mapping, found %s", docs[0].root.describe())
		}
		bfFlatten("", docs[0].root, t.Meta)
		cols = docs[1]
	default:
		return nil, p.errAt(p.line-1, 1, "expected a header of one or two documents (meta, columns) before \"...\", found %d", len(docs))
	}
	t.headerLine = cols.line
	if cols.root == nil || cols.root.kind != 'q' || len(cols.root.items) == 0 {
		line, col := cols.line, 1
		if cols.root != nil {
			line, col = cols.root.line, cols.root.col
		}
		return nil, p.errAt(line, col, "expected a column list (- [name, type]), found %s", cols.root.describe())
	}
	t.headerLine = cols.root.line
	type colSpec struct {
		lo, hi int64
		float  bool
	}
	specs := make([]colSpec, len(cols.root.items))
	for i, it := range cols.root.items {
		if it == nil || it.kind != 'q' || len(it.items) != 2 || it.items[0].scalar() == "" || it.items[1].scalar() == "" {
			line, col := cols.root.line+i, 1
			if it != nil {
				line, col = it.line, it.col
			}
			return nil, p.errAt(line, col, "expected a column [name, type], found %s", it.describe())
		}
		c := Column{Name: it.items[0].str, Type: it.items[1].str}
		if t.Column(c.Name) >= 0 {
			return nil, p.errAt(it.items[0].line, it.items[0].col, "expected a new column name, found %q again", c.Name)
		}
		lo, hi, ok := bfIntRange(c.Type)
		switch {
		case ok:
			specs[i] = colSpec{lo: lo, hi: hi}
		case bfFloatType(c.Type):
			specs[i] = colSpec{float: true}
		default:
			return nil, p.errAt(it.items[1].line, it.items[1].col, "expected a numeric column type (int32, int64, float64, …), found %q", c.Type)
		}
		t.Columns = append(t.Columns, c)
	}
	// Rows: count lines first so the columns are allocated once, bounded
	// by the input size.
	body := src[p.pos:]
	nlines := bytes.Count(body, []byte{'\n'}) + 1
	// A row of k values takes at least 2k bytes, so this stays within a
	// small multiple of the input however many columns the header lists.
	nrows := min(nlines, len(body)/(2*len(t.Columns))+1)
	for i := range t.Columns {
		if specs[i].float {
			t.Columns[i].Floats = make([]float64, 0, nrows)
		} else {
			t.Columns[i].Ints = make([]int64, 0, nrows)
		}
	}
	t.Lines = make([]int, 0, nlines)
	t.offs = make([]int, 0, nlines)
	type floatNote struct {
		n, first int
		example  string
	}
	notes := make([]floatNote, len(t.Columns))
	line := p.line
	pos := p.pos
	ncol := len(t.Columns)
	for pos < len(src) {
		row, next := bfNextLine(src, pos)
		k, i := 0, 0
		for {
			start, j, ok := bfNextField(row, i)
			i = start // after the loop: where the row ended
			if !ok {
				break
			}
			tok := row[i:j]
			if k >= ncol {
				return nil, &ParseError{File: name, Line: line, Col: i + 1, Msg: fmt.Sprintf("expected %d values (%s), found more: %q", ncol, t.columnNames(), tok)}
			}
			c := &t.Columns[k]
			if specs[k].float {
				v, err := strconv.ParseFloat(string(tok), 64)
				if err != nil {
					return nil, &ParseError{File: name, Line: line, Col: i + 1, Msg: fmt.Sprintf("expected a number for %s, found %q", c.Name, tok)}
				}
				c.Floats = append(c.Floats, v)
			} else {
				v, ok := bfParseInt(tok)
				if !ok {
					f, err := strconv.ParseFloat(string(tok), 64)
					if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) || f < -9.2e18 || f > 9.2e18 {
						return nil, &ParseError{File: name, Line: line, Col: i + 1, Msg: fmt.Sprintf("expected an integer for %s (%s), found %q", c.Name, c.Type, tok)}
					}
					v = int64(f)
					if notes[k].n == 0 {
						notes[k].first, notes[k].example = line, string(tok)
					}
					notes[k].n++
				}
				if v < specs[k].lo || v > specs[k].hi {
					return nil, &ParseError{File: name, Line: line, Col: i + 1, Msg: fmt.Sprintf("expected %s in %d..%d for %s, found %q", c.Type, specs[k].lo, specs[k].hi, c.Name, tok)}
				}
				c.Ints = append(c.Ints, v)
			}
			k++
			i = j
		}
		if k > 0 && k < ncol {
			return nil, &ParseError{File: name, Line: line, Col: i + 1, Msg: fmt.Sprintf("expected %d values (%s), found %d", ncol, t.columnNames(), k)}
		}
		if k > 0 {
			t.Lines = append(t.Lines, line)
			t.offs = append(t.offs, pos)
		}
		pos = next
		line++
	}
	for k, n := range notes {
		if n.n > 0 {
			t.Warnings = append(t.Warnings, Warning{File: name, Line: n.first, Msg: fmt.Sprintf("column %s (%s): %d integral float value(s) such as %s read as integers", t.Columns[k].Name, t.Columns[k].Type, n.n, n.example)})
		}
	}
	return t, nil
}

// bfParseInt parses a decimal integer with an optional sign; ok is false
// for anything else, including overflow.
func bfParseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// bfSortedKeys returns the keys of m in increasing order.
func bfSortedKeys[V any](m map[int32]V) []int32 {
	out := make([]int32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
