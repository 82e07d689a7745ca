// Package table holds what every Arrow table of Superstep needs: reading
// columns into Go values with errors that name the column and row, and
// writing and reading Parquet files with plain types (INT32, INT64,
// DOUBLE, BOOLEAN, UTF8), Snappy compression and the schema's metadata as
// the file's key-value metadata, so that DuckDB, pandas and Polars read
// them as ordinary columns. Profiles (sdk/profile) and network counters
// (topology/...) build on it; it knows neither.
package table

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// The schema metadata keys that say which Superstep table a table is and
// the version of its layout, the same in every package that writes one
// (profiles, traces, vertex records, fat-tree counters): MetaTable holds
// the table's name, such as "workers" or "counters", and MetaVersion its
// layout version, a decimal integer. Each package names its tables and
// numbers its versions; a reader checks these keys to refuse another
// package's table or a layout it does not know.
const (
	MetaTable   = "superstep.table"
	MetaVersion = "superstep.version"
)

// FromBuilder finishes a record builder into a one-record table (the
// caller releases it).
func FromBuilder(b *array.RecordBuilder) arrow.Table {
	rec := b.NewRecord()
	defer rec.Release()
	return array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
}

// Column is one column read into Go values: Ints for integer fields,
// Floats for floating-point ones, Strings, Bools.
type Column struct {
	Ints    []int64
	Floats  []float64
	Strings []string
	Bools   []bool
}

// Read reads the columns of t named by fields, in that order; each field's
// type says which kind of Go value the column becomes (INT32 or INT64:
// Ints, accepting any integer column; FLOAT64: Floats, accepting any
// floating-point or integer column; STRING: Strings; BOOL: Bools). A
// missing column, a column that appears twice, a null or a value of
// another type is an error naming the column and row; a missing column's
// error lists the columns the table has.
func Read(t arrow.Table, fields []arrow.Field) ([]Column, error) {
	sc := t.Schema()
	out := make([]Column, len(fields))
	var missing []string
	for k, f := range fields {
		idx := sc.FieldIndices(f.Name)
		switch len(idx) {
		case 0:
			missing = append(missing, f.Name)
			continue
		case 1:
		default:
			return nil, fmt.Errorf("column %s appears %d times", f.Name, len(idx))
		}
		col := t.Column(idx[0])
		var err error
		switch f.Type.ID() {
		case arrow.INT32, arrow.INT64:
			out[k].Ints, err = intColumn(col)
		case arrow.FLOAT64:
			out[k].Floats, err = floatColumn(col)
		case arrow.STRING:
			out[k].Strings, err = stringColumn(col)
		case arrow.BOOL:
			out[k].Bools, err = boolColumn(col)
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	if len(missing) > 0 {
		var have []string
		for _, f := range sc.Fields() {
			have = append(have, f.Name)
		}
		s := ""
		if len(missing) > 1 {
			s = "s"
		}
		return nil, fmt.Errorf("no column%s %s (the table has %s)", s, strings.Join(missing, ", "), strings.Join(have, ", "))
	}
	return out, nil
}

func nullError(row int) error { return fmt.Errorf("row %d: null", row) }

func intColumn(col *arrow.Column) ([]int64, error) {
	out := make([]int64, 0, col.Len())
	for _, ch := range col.Data().Chunks() {
		var err error
		if out, err = appendInts(out, ch); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendInts appends the values of an integer array; row numbers in
// errors continue from len(out).
func appendInts(out []int64, ch arrow.Array) ([]int64, error) {
	base := len(out)
	if ch.NullN() > 0 {
		for j := 0; j < ch.Len(); j++ {
			if ch.IsNull(j) {
				return nil, nullError(base + j)
			}
		}
	}
	switch a := ch.(type) {
	case *array.Int8:
		for _, v := range a.Int8Values() {
			out = append(out, int64(v))
		}
	case *array.Int16:
		for _, v := range a.Int16Values() {
			out = append(out, int64(v))
		}
	case *array.Int32:
		for _, v := range a.Int32Values() {
			out = append(out, int64(v))
		}
	case *array.Int64:
		out = append(out, a.Int64Values()...)
	case *array.Uint8:
		for _, v := range a.Uint8Values() {
			out = append(out, int64(v))
		}
	case *array.Uint16:
		for _, v := range a.Uint16Values() {
			out = append(out, int64(v))
		}
	case *array.Uint32:
		for _, v := range a.Uint32Values() {
			out = append(out, int64(v))
		}
	case *array.Uint64:
		for j, v := range a.Uint64Values() {
			if v > math.MaxInt64 {
				return nil, fmt.Errorf("row %d: %d is too large", base+j, v)
			}
			out = append(out, int64(v))
		}
	default:
		return nil, fmt.Errorf("type %s, want an integer type", ch.DataType())
	}
	return out, nil
}

func floatColumn(col *arrow.Column) ([]float64, error) {
	out := make([]float64, 0, col.Len())
	for _, ch := range col.Data().Chunks() {
		base := len(out)
		if ch.NullN() > 0 {
			for j := 0; j < ch.Len(); j++ {
				if ch.IsNull(j) {
					return nil, nullError(base + j)
				}
			}
		}
		switch a := ch.(type) {
		case *array.Float64:
			out = append(out, a.Float64Values()...)
		case *array.Float32:
			for _, v := range a.Float32Values() {
				out = append(out, float64(v))
			}
		default:
			// Whole seconds in an integer column are fine too.
			if !arrow.IsInteger(ch.DataType().ID()) {
				return nil, fmt.Errorf("type %s, want a floating-point type", ch.DataType())
			}
			ints, err := appendInts(make([]int64, base, base+ch.Len()), ch)
			if err != nil {
				return nil, err
			}
			for _, v := range ints[base:] {
				out = append(out, float64(v))
			}
		}
	}
	return out, nil
}

func stringColumn(col *arrow.Column) ([]string, error) {
	out := make([]string, 0, col.Len())
	for _, ch := range col.Data().Chunks() {
		base := len(out)
		if ch.NullN() > 0 {
			for j := 0; j < ch.Len(); j++ {
				if ch.IsNull(j) {
					return nil, nullError(base + j)
				}
			}
		}
		switch a := ch.(type) {
		case *array.String:
			for j := 0; j < a.Len(); j++ {
				out = append(out, a.Value(j))
			}
		case *array.LargeString:
			for j := 0; j < a.Len(); j++ {
				out = append(out, a.Value(j))
			}
		default:
			return nil, fmt.Errorf("type %s, want a string type", ch.DataType())
		}
	}
	return out, nil
}

func boolColumn(col *arrow.Column) ([]bool, error) {
	out := make([]bool, 0, col.Len())
	for _, ch := range col.Data().Chunks() {
		base := len(out)
		a, ok := ch.(*array.Boolean)
		if !ok {
			return nil, fmt.Errorf("type %s, want bool", ch.DataType())
		}
		for j := 0; j < a.Len(); j++ {
			if a.IsNull(j) {
				return nil, nullError(base + j)
			}
			out = append(out, a.Value(j))
		}
	}
	return out, nil
}
