package table

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// RowGroup is the number of rows in a Parquet row group WriteParquet writes.
const RowGroup = 1 << 20

// WriteParquet writes t to path as Parquet: plain types, Snappy, row
// groups of RowGroup rows, the schema's metadata as key-value metadata and
// no Arrow schema. It writes a temporary file beside path and renames it,
// so a reader never sees half a file.
func WriteParquet(path string, t arrow.Table) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithCreatedBy("superstep"),
	)
	if err = pqarrow.WriteTable(t, tmp, RowGroup, props, pqarrow.DefaultWriterProps()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// WriteTable closes the file it writes to.
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReadParquet reads a whole Parquet file as an Arrow table whose schema
// metadata is the file's key-value metadata.
//
// It reads column by column on the calling goroutine rather than with
// FileReader.ReadTable, which decodes on goroutines of its own: the
// Parquet decompressors panic on corrupt data (arrow/go v15.0.2), and only
// a panic on this goroutine can be turned into an error here.
func ReadParquet(path string) (t arrow.Table, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cols []arrow.Column
	defer func() {
		for i := range cols {
			cols[i].Release()
		}
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("%s: not a readable Parquet file: %v", path, r)
		}
	}()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer pf.Close()
	mem := memory.DefaultAllocator
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rows := pf.NumRows()
	ctx := context.Background()
	for i, field := range sc.Fields() {
		cr, err := fr.GetColumn(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", path, field.Name, err)
		}
		data, err := cr.NextBatch(rows)
		cr.Release()
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", path, field.Name, err)
		}
		if int64(data.Len()) != rows {
			data.Release()
			return nil, fmt.Errorf("%s: column %s has %d rows, the file %d", path, field.Name, data.Len(), rows)
		}
		cols = append(cols, *arrow.NewColumn(field, data))
		data.Release()
	}
	// The table's schema metadata is the file's key-value metadata.
	var keys, vals []string
	for _, kv := range pf.MetaData().KeyValueMetadata() {
		if kv.Value != nil {
			keys = append(keys, kv.Key)
			vals = append(vals, *kv.Value)
		}
	}
	md := arrow.NewMetadata(keys, vals)
	return array.NewTable(arrow.NewSchema(sc.Fields(), &md), cols, rows), nil
}

// Named is one table of a directory of Parquet files: the file's name
// and the method that makes the table (the caller of WriteDir releases
// nothing; WriteDir releases each table once written).
type Named struct {
	File  string
	Table func(memory.Allocator) arrow.Table
}

// WriteDir writes each table to dir/File with WriteParquet, creating dir
// if needed; the first error stops it.
func WriteDir(dir string, tables ...Named) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, n := range tables {
		t := n.Table(memory.DefaultAllocator)
		err := WriteParquet(filepath.Join(dir, n.File), t)
		t.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// ReadDir reads dir/file for each of files with ReadParquet. A file
// named in optional that does not exist gives a nil table. release frees
// every table read; call it also after an error.
func ReadDir(dir string, files []string, optional ...string) (tables []arrow.Table, release func(), err error) {
	tables = make([]arrow.Table, len(files))
	release = func() {
		for _, t := range tables {
			if t != nil {
				t.Release()
			}
		}
	}
	for i, name := range files {
		path := filepath.Join(dir, name)
		if slices.Contains(optional, name) {
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		t, err := ReadParquet(path)
		if err != nil {
			return tables, release, err
		}
		tables[i] = t
	}
	return tables, release, nil
}
