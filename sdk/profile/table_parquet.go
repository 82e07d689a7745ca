package profile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// The file names SaveParquet writes in its directory.
const (
	WorkersFile = "workers.parquet"
	PairsFile   = "pairs.parquet"
	ClusterFile = "cluster.parquet"
)

// parquetRowGroup is the number of rows in a Parquet row group.
const parquetRowGroup = 1 << 20

// SaveParquet writes the profile's three tables (see WorkerTable,
// PairTable, ClusterTable) to dir/workers.parquet, dir/pairs.parquet and
// dir/cluster.parquet, creating dir if needed. Each file's key-value
// metadata holds the job, the program and the table's name (the
// superstep.* keys). The files use plain Parquet types (INT32, INT64,
// DOUBLE, BOOLEAN, UTF8 strings) and Snappy compression, and carry no
// Arrow schema, so DuckDB, pandas and Polars read them as ordinary
// columns. Each file is written under a temporary name and renamed, so a
// reader never sees half a file.
func (p *Profile) SaveParquet(dir string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		make func(memory.Allocator) arrow.Table
	}{{WorkersFile, p.WorkerTable}, {PairsFile, p.PairTable}, {ClusterFile, p.ClusterTable}} {
		t := f.make(memory.DefaultAllocator)
		err := writeParquet(filepath.Join(dir, f.name), t)
		t.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func writeParquet(path string, t arrow.Table) (err error) {
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
	if err = pqarrow.WriteTable(t, tmp, parquetRowGroup, props, pqarrow.DefaultWriterProps()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// WriteTable closes the file it writes to.
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// LoadParquet reads a profile that SaveParquet wrote (or three files with
// the same columns written by another tool; see FromTables for what is
// accepted). Errors name the file: "run/workers.parquet: no column wait_s
// (the table has ...)".
func LoadParquet(dir string) (*Profile, error) {
	var tables [3]arrow.Table
	defer func() {
		for _, t := range tables {
			if t != nil {
				t.Release()
			}
		}
	}()
	names := [3]string{ClusterFile, WorkersFile, PairsFile}
	for i, name := range names {
		t, err := readParquet(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		tables[i] = t
	}
	path := func(i int) string { return filepath.Join(dir, names[i]) }
	p, err := fromClusterTable(tables[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path(0), err)
	}
	for i, table := range []string{1: "workers", 2: "pairs"} {
		if i == 0 {
			continue
		}
		if err := p.checkMeta(tables[i].Schema().Metadata(), table); err != nil {
			return nil, fmt.Errorf("%s: %w", path(i), err)
		}
	}
	if err := p.fromWorkerTable(tables[1]); err != nil {
		return nil, fmt.Errorf("%s: %w", path(1), err)
	}
	if err := p.fromPairTable(tables[2]); err != nil {
		return nil, fmt.Errorf("%s: %w", path(2), err)
	}
	return p, nil
}

// readParquet reads a whole Parquet file as an Arrow table whose schema
// metadata is the file's key-value metadata.
//
// It reads column by column on the calling goroutine rather than with
// FileReader.ReadTable, which decodes on goroutines of its own: the
// Parquet decompressors panic on corrupt data (arrow/go v15.0.2), and only
// a panic on this goroutine can be turned into an error here.
func readParquet(path string) (t arrow.Table, err error) {
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
