package profile

import (
	"fmt"
	"path/filepath"

	"superstep/sdk/table"
)

// The file names SaveParquet writes in its directory.
const (
	WorkersFile = "workers.parquet"
	PairsFile   = "pairs.parquet"
	ClusterFile = "cluster.parquet"
)

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
	return table.WriteDir(dir, table.Named{File: WorkersFile, Table: p.WorkerTable},
		table.Named{File: PairsFile, Table: p.PairTable}, table.Named{File: ClusterFile, Table: p.ClusterTable})
}

// LoadParquet reads a profile that SaveParquet wrote (or three files with
// the same columns written by another tool; see FromTables for what is
// accepted). Errors name the file: "run/workers.parquet: no column wait_s
// (the table has ...)".
func LoadParquet(dir string) (*Profile, error) {
	names := [3]string{ClusterFile, WorkersFile, PairsFile}
	tables, release, err := table.ReadDir(dir, names[:])
	defer release()
	if err != nil {
		return nil, err
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
