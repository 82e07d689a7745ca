package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

func sample(t *testing.T) arrow.Table {
	t.Helper()
	md := arrow.NewMetadata([]string{"superstep.table"}, []string{"sample"})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "load", Type: arrow.PrimitiveTypes.Float64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "up", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Uint16},
	}, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{3, 1, 2}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, 1.25, 2}, nil)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"a", "b", "c"}, nil)
	b.Field(3).(*array.BooleanBuilder).AppendValues([]bool{true, false, true}, nil)
	b.Field(4).(*array.Uint16Builder).AppendValues([]uint16{7, 8, 9}, nil)
	return FromBuilder(b)
}

func TestReadColumns(t *testing.T) {
	tbl := sample(t)
	defer tbl.Release()
	cols, err := Read(tbl, []arrow.Field{
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Int64}, // any integer column
		{Name: "id", Type: arrow.PrimitiveTypes.Float64},  // integers as floats
		{Name: "up", Type: arrow.FixedWidthTypes.Boolean},
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cols[0].Strings, "") != "abc" || cols[1].Ints[0] != 3 || cols[2].Ints[2] != 9 || cols[3].Floats[1] != 1 || !cols[4].Bools[2] {
		t.Errorf("columns %+v", cols)
	}
	for _, c := range []struct {
		field arrow.Field
		want  string
	}{
		{arrow.Field{Name: "nope", Type: arrow.PrimitiveTypes.Int64}, "no column nope (the table has id, load, name, up, bytes)"},
		{arrow.Field{Name: "name", Type: arrow.PrimitiveTypes.Int64}, "column name: type utf8, want an integer type"},
		{arrow.Field{Name: "load", Type: arrow.BinaryTypes.String}, "column load: type float64, want a string type"},
	} {
		if _, err := Read(tbl, []arrow.Field{c.field}); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.field.Name, err, c.want)
		}
	}
}

func TestParquetRoundTripAndErrors(t *testing.T) {
	tbl := sample(t)
	defer tbl.Release()
	path := filepath.Join(t.TempDir(), "sample.parquet")
	if err := WriteParquet(path, tbl); err != nil {
		t.Fatal(err)
	}
	back, err := ReadParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if back.NumRows() != 3 || back.Schema().Metadata().FindKey("superstep.table") < 0 {
		t.Fatalf("read back %d rows, metadata %v", back.NumRows(), back.Schema().Metadata())
	}
	cols, err := Read(back, []arrow.Field{{Name: "load", Type: arrow.PrimitiveTypes.Float64}, {Name: "name", Type: arrow.BinaryTypes.String}})
	if err != nil || cols[0].Floats[1] != 1.25 || cols[1].Strings[2] != "c" {
		t.Fatalf("%v %v", cols, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	os.WriteFile(bad, []byte("PAR1 not really"), 0o644)
	if _, err := ReadParquet(bad); err == nil || !strings.Contains(err.Error(), "bad.parquet") {
		t.Errorf("a broken file: %v", err)
	}
	if err := WriteParquet(filepath.Join(t.TempDir(), "no", "dir", "x.parquet"), tbl); err == nil {
		t.Error("writing into a missing directory: no error")
	}
}

// A directory of tables: written together, read back by name; an
// optional file may be missing, a required one may not.
func TestDirOfTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	mk := func(memory.Allocator) arrow.Table { return sample(t) }
	if err := WriteDir(dir, Named{File: "a.parquet", Table: mk}, Named{File: "b.parquet", Table: mk}); err != nil {
		t.Fatal(err)
	}
	tables, release, err := ReadDir(dir, []string{"a.parquet", "c.parquet", "b.parquet"}, "c.parquet")
	defer release()
	if err != nil {
		t.Fatal(err)
	}
	if tables[0].NumRows() != 3 || tables[1] != nil || tables[2].NumRows() != 3 {
		t.Errorf("tables %v", tables)
	}
	_, release2, err := ReadDir(dir, []string{"a.parquet", "c.parquet"})
	defer release2()
	if err == nil || !strings.Contains(err.Error(), "c.parquet") {
		t.Errorf("a missing required file: %v", err)
	}
}
