package profile

// The profile as Arrow tables: the one data model (DESIGN.md principle 4).
//
// Three tables hold a profile:
//
//	workers  one row per (superstep, worker), ordered by superstep, worker:
//	         superstep int32, worker int32, worker_name, host, rack string,
//	         compute_s, wait_s, comm_s float64 (seconds; FromTables
//	         gets the nanoseconds back exactly below 2^22 s ≈ 48 days),
//	         active, processed int64
//	pairs    one row per (superstep, ordered pair of workers) that carried
//	         traffic, ordered by superstep, src, dst, plus the internal pair
//	         (src == dst) of every worker in every superstep even when zero:
//	         superstep, src, dst int32, src_name, dst_name string,
//	         messages, bytes int64, internal bool
//	cluster  one row per worker, ordered by worker:
//	         worker int32, worker_name, host, rack string, vertices int64,
//	         host_index, rack_index int32 (the host's and rack's numbers in
//	         the cluster, so names need not be unique)
//
// Zero pairs between different workers are left out because on big
// clusters most pairs are zero every superstep; the internal pairs are
// always there so that a per-worker join of pairs onto workers never loses
// a row. Names are repeated in plain string columns (not dictionaries) so
// DuckDB, pandas and Polars see ordinary strings.
//
// Every table's schema metadata carries the job and program
// ("superstep.job", "superstep.program"), which table it is
// (table.MetaTable, "superstep.table") and the version (table.MetaVersion,
// "superstep.version"). The cluster
// table's metadata also lists every rack and host ("superstep.racks",
// "superstep.hosts", JSON), so hosts without workers and racks without
// hosts survive; without those keys (a table written by another tool) the
// hierarchy is rebuilt from the rows.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/sdk/table"
	"superstep/topology/cluster"
)

// TableVersion is the version of the table layout, in the tables'
// "superstep.version" metadata.
const TableVersion = 1

// Metadata keys of the tables (and of the Parquet files), beside
// table.MetaTable and table.MetaVersion.
const (
	MetaJob     = "superstep.job"
	MetaProgram = "superstep.program"
	MetaRacks   = "superstep.racks"
	MetaHosts   = "superstep.hosts"
)

var (
	workerFields = []arrow.Field{
		{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
		{Name: "worker", Type: arrow.PrimitiveTypes.Int32},
		{Name: "worker_name", Type: arrow.BinaryTypes.String},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "rack", Type: arrow.BinaryTypes.String},
		{Name: "compute_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "wait_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "comm_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "active", Type: arrow.PrimitiveTypes.Int64},
		{Name: "processed", Type: arrow.PrimitiveTypes.Int64},
	}
	pairFields = []arrow.Field{
		{Name: "superstep", Type: arrow.PrimitiveTypes.Int32},
		{Name: "src", Type: arrow.PrimitiveTypes.Int32},
		{Name: "dst", Type: arrow.PrimitiveTypes.Int32},
		{Name: "src_name", Type: arrow.BinaryTypes.String},
		{Name: "dst_name", Type: arrow.BinaryTypes.String},
		{Name: "messages", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
		{Name: "internal", Type: arrow.FixedWidthTypes.Boolean},
	}
	clusterFields = []arrow.Field{
		{Name: "worker", Type: arrow.PrimitiveTypes.Int32},
		{Name: "worker_name", Type: arrow.BinaryTypes.String},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "rack", Type: arrow.BinaryTypes.String},
		{Name: "vertices", Type: arrow.PrimitiveTypes.Int64},
		{Name: "host_index", Type: arrow.PrimitiveTypes.Int32},
		{Name: "rack_index", Type: arrow.PrimitiveTypes.Int32},
	}
)

func (p *Profile) meta(name string, extra ...string) *arrow.Metadata {
	keys := []string{table.MetaTable, table.MetaVersion, MetaJob, MetaProgram}
	vals := []string{name, strconv.Itoa(TableVersion), p.Job, p.Program}
	for i := 0; i+1 < len(extra); i += 2 {
		keys = append(keys, extra[i])
		vals = append(vals, extra[i+1])
	}
	md := arrow.NewMetadata(keys, vals)
	return &md
}

// WorkerTable is the workers table: one row per superstep and worker. The
// caller releases it. mem may be nil (the default allocator). It panics if
// the profile does not Validate, like the other table methods.
func (p *Profile) WorkerTable(mem memory.Allocator) arrow.Table {
	p.mustValidate()
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	c := p.Cluster
	b := array.NewRecordBuilder(mem, arrow.NewSchema(workerFields, p.meta("workers")))
	defer b.Release()
	rows := len(p.Steps) * c.NumWorkers()
	b.Reserve(rows)
	ss := b.Field(0).(*array.Int32Builder)
	wk := b.Field(1).(*array.Int32Builder)
	wn := b.Field(2).(*array.StringBuilder)
	hn := b.Field(3).(*array.StringBuilder)
	rn := b.Field(4).(*array.StringBuilder)
	cs := b.Field(5).(*array.Float64Builder)
	ws := b.Field(6).(*array.Float64Builder)
	ms := b.Field(7).(*array.Float64Builder)
	ac := b.Field(8).(*array.Int64Builder)
	pr := b.Field(9).(*array.Int64Builder)
	for _, s := range p.Steps {
		for i, st := range s.Workers {
			w := c.Workers[i]
			ss.Append(int32(s.Superstep))
			wk.Append(int32(i))
			wn.Append(w.Name)
			hn.Append(c.Hosts[w.Host].Name)
			rn.Append(c.Racks[c.Hosts[w.Host].Rack].Name)
			cs.Append(st.Compute.Seconds())
			ws.Append(st.Wait.Seconds())
			ms.Append(st.Comm.Seconds())
			ac.Append(st.Active)
			pr.Append(st.Processed)
		}
	}
	return table.FromBuilder(b)
}

// PairTable is the pairs table: per superstep every ordered pair of workers
// with messages or bytes, and every worker's internal pair (src == dst)
// even when zero. The caller releases it; mem may be nil.
func (p *Profile) PairTable(mem memory.Allocator) arrow.Table {
	p.mustValidate()
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	c := p.Cluster
	w := c.NumWorkers()
	b := array.NewRecordBuilder(mem, arrow.NewSchema(pairFields, p.meta("pairs")))
	defer b.Release()
	ss := b.Field(0).(*array.Int32Builder)
	sr := b.Field(1).(*array.Int32Builder)
	ds := b.Field(2).(*array.Int32Builder)
	sn := b.Field(3).(*array.StringBuilder)
	dn := b.Field(4).(*array.StringBuilder)
	mg := b.Field(5).(*array.Int64Builder)
	by := b.Field(6).(*array.Int64Builder)
	in := b.Field(7).(*array.BooleanBuilder)
	for _, s := range p.Steps {
		for i := range s.Messages {
			src, dst := i/w, i%w
			if src != dst && s.Messages[i] == 0 && s.Bytes[i] == 0 {
				continue
			}
			ss.Append(int32(s.Superstep))
			sr.Append(int32(src))
			ds.Append(int32(dst))
			sn.Append(c.Workers[src].Name)
			dn.Append(c.Workers[dst].Name)
			mg.Append(s.Messages[i])
			by.Append(s.Bytes[i])
			in.Append(src == dst)
		}
	}
	return table.FromBuilder(b)
}

// ClusterTable is the cluster table: one row per worker with its host,
// rack and vertices. The caller releases it; mem may be nil.
func (p *Profile) ClusterTable(mem memory.Allocator) arrow.Table {
	p.mustValidate()
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	c := p.Cluster
	racks := make([]string, len(c.Racks))
	for i, r := range c.Racks {
		racks[i] = r.Name
	}
	hosts := make([]jsonHost, len(c.Hosts))
	for i, h := range c.Hosts {
		hosts[i] = jsonHost{h.Name, h.Rack}
	}
	rj, _ := json.Marshal(racks)
	hj, _ := json.Marshal(hosts)
	b := array.NewRecordBuilder(mem, arrow.NewSchema(clusterFields, p.meta("cluster", MetaRacks, string(rj), MetaHosts, string(hj))))
	defer b.Release()
	for i, w := range c.Workers {
		h := c.Hosts[w.Host]
		b.Field(0).(*array.Int32Builder).Append(int32(i))
		b.Field(1).(*array.StringBuilder).Append(w.Name)
		b.Field(2).(*array.StringBuilder).Append(h.Name)
		b.Field(3).(*array.StringBuilder).Append(c.Racks[h.Rack].Name)
		b.Field(4).(*array.Int64Builder).Append(p.Vertices[i])
		b.Field(5).(*array.Int32Builder).Append(int32(w.Host))
		b.Field(6).(*array.Int32Builder).Append(int32(h.Rack))
	}
	return table.FromBuilder(b)
}

// jsonHost is a host in the cluster table's metadata: [name, rack].
type jsonHost struct {
	Name string
	Rack int
}

func (h jsonHost) MarshalJSON() ([]byte, error) { return json.Marshal([]any{h.Name, h.Rack}) }

func (h *jsonHost) UnmarshalJSON(b []byte) error {
	var v []json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if len(v) != 2 {
		return fmt.Errorf("host %s: want [name, rack]", b)
	}
	if err := json.Unmarshal(v[0], &h.Name); err != nil {
		return fmt.Errorf("host %s: %w", b, err)
	}
	if err := json.Unmarshal(v[1], &h.Rack); err != nil {
		return fmt.Errorf("host %s: %w", b, err)
	}
	return nil
}

func (p *Profile) mustValidate() {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	if n := len(p.Steps); n > 0 && (p.Steps[0].Superstep < 0 || p.Steps[n-1].Superstep > math.MaxInt32) {
		panic(fmt.Sprintf("profile %q: superstep numbers outside 0…%d do not fit the tables", p.Job, math.MaxInt32))
	}
}

// FromTables rebuilds a profile from its workers, pairs and cluster tables,
// as WorkerTable, PairTable and ClusterTable make them or as read from
// files another tool wrote. Rows may come in any order and columns in any
// order or chunking; extra columns are ignored. Integer columns may have
// any integer type, the *_s columns any integer or floating-point type,
// the names string or large_string; nulls are errors. Pairs missing from
// the pairs table are zero. Errors name the table, the column and the row
// (0-based, as pandas counts).
func FromTables(workers, pairs, clusterTbl arrow.Table) (*Profile, error) {
	if workers == nil || pairs == nil || clusterTbl == nil {
		return nil, errors.New("FromTables: a table is nil")
	}
	p, err := fromClusterTable(clusterTbl)
	if err != nil {
		return nil, fmt.Errorf("cluster table: %w", err)
	}
	if err := p.checkMeta(workers.Schema().Metadata(), "workers"); err != nil {
		return nil, fmt.Errorf("workers table: %w", err)
	}
	if err := p.checkMeta(pairs.Schema().Metadata(), "pairs"); err != nil {
		return nil, fmt.Errorf("pairs table: %w", err)
	}
	if err := p.fromWorkerTable(workers); err != nil {
		return nil, fmt.Errorf("workers table: %w", err)
	}
	if err := p.fromPairTable(pairs); err != nil {
		return nil, fmt.Errorf("pairs table: %w", err)
	}
	return p, nil
}

// checkMeta fills in the job and program from a table's metadata, or
// checks that they agree with what another table said.
func (p *Profile) checkMeta(md arrow.Metadata, name string) error {
	if i := md.FindKey(table.MetaTable); i >= 0 && md.Values()[i] != name {
		return fmt.Errorf("this is the %s table (metadata %s), not the %s table", md.Values()[i], table.MetaTable, name)
	}
	if i := md.FindKey(table.MetaVersion); i >= 0 {
		if v := md.Values()[i]; v != strconv.Itoa(TableVersion) {
			return fmt.Errorf("table layout version %s, this reader knows version %d", v, TableVersion)
		}
	}
	for _, kv := range []struct {
		key string
		dst *string
	}{{MetaJob, &p.Job}, {MetaProgram, &p.Program}} {
		i := md.FindKey(kv.key)
		if i < 0 {
			continue
		}
		v := md.Values()[i]
		if *kv.dst != "" && v != "" && v != *kv.dst {
			return fmt.Errorf("metadata %s is %q, another table says %q: tables of different jobs?", kv.key, v, *kv.dst)
		}
		if v != "" {
			*kv.dst = v
		}
	}
	return nil
}

func fromClusterTable(t arrow.Table) (*Profile, error) {
	p := &Profile{Cluster: &cluster.Cluster{}}
	md := t.Schema().Metadata()
	if err := p.checkMeta(md, "cluster"); err != nil {
		return nil, err
	}
	cols, err := table.Read(t, clusterFields)
	if err != nil {
		return nil, err
	}
	worker, wname, hname, rname := cols[0].Ints, cols[1].Strings, cols[2].Strings, cols[3].Strings
	vertices, hidx, ridx := cols[4].Ints, cols[5].Ints, cols[6].Ints
	n := len(worker)
	if n == 0 {
		return nil, errors.New("no rows: a cluster has at least one worker")
	}
	c := p.Cluster
	// Racks and hosts: from the metadata when present, else from the rows.
	ri, hi := md.FindKey(MetaRacks), md.FindKey(MetaHosts)
	if (ri < 0) != (hi < 0) {
		return nil, fmt.Errorf("metadata has only one of %s and %s", MetaRacks, MetaHosts)
	}
	if ri >= 0 {
		var racks []string
		if err := json.Unmarshal([]byte(md.Values()[ri]), &racks); err != nil {
			return nil, fmt.Errorf("metadata %s: %v", MetaRacks, err)
		}
		var hosts []jsonHost
		if err := json.Unmarshal([]byte(md.Values()[hi]), &hosts); err != nil {
			return nil, fmt.Errorf("metadata %s: %v", MetaHosts, err)
		}
		for _, r := range racks {
			c.Racks = append(c.Racks, cluster.Rack{Name: r})
		}
		for _, h := range hosts {
			c.Hosts = append(c.Hosts, cluster.Host{Name: h.Name, Rack: h.Rack})
		}
	} else {
		nh, nr := 0, 0
		for r := 0; r < n; r++ {
			if hidx[r] < 0 || hidx[r] >= int64(n) || ridx[r] < 0 || ridx[r] >= int64(n) {
				return nil, fmt.Errorf("row %d: host_index %d or rack_index %d outside 0…%d", r, hidx[r], ridx[r], n-1)
			}
			nh = max(nh, int(hidx[r])+1)
			nr = max(nr, int(ridx[r])+1)
		}
		c.Hosts = make([]cluster.Host, nh)
		c.Racks = make([]cluster.Rack, nr)
		seenH, seenR := make([]bool, nh), make([]bool, nr)
		for r := 0; r < n; r++ {
			h, k := int(hidx[r]), int(ridx[r])
			if !seenH[h] {
				seenH[h] = true
				c.Hosts[h] = cluster.Host{Name: hname[r], Rack: k}
			}
			if !seenR[k] {
				seenR[k] = true
				c.Racks[k] = cluster.Rack{Name: rname[r]}
			}
		}
		for h, ok := range seenH {
			if !ok {
				return nil, fmt.Errorf("no worker on host %d: without %s metadata every host needs a worker", h, MetaHosts)
			}
		}
		for k, ok := range seenR {
			if !ok {
				return nil, fmt.Errorf("no worker in rack %d: without %s metadata every rack needs a worker", k, MetaRacks)
			}
		}
	}
	c.Workers = make([]cluster.Worker, n)
	p.Vertices = make([]int64, n)
	seen := make([]bool, n)
	for r := 0; r < n; r++ {
		w := worker[r]
		if w < 0 || w >= int64(n) {
			return nil, fmt.Errorf("row %d: worker %d outside 0…%d (one row per worker)", r, w, n-1)
		}
		if seen[w] {
			return nil, fmt.Errorf("row %d: worker %d appears twice", r, w)
		}
		seen[w] = true
		h, k := hidx[r], ridx[r]
		if h < 0 || h >= int64(len(c.Hosts)) {
			return nil, fmt.Errorf("row %d: worker %d on host_index %d, the cluster has %d hosts", r, w, h, len(c.Hosts))
		}
		host := c.Hosts[h]
		if host.Rack < 0 || host.Rack >= len(c.Racks) {
			return nil, fmt.Errorf("host %d (%s) is in rack %d, which does not exist", h, host.Name, host.Rack)
		}
		if k != int64(host.Rack) {
			return nil, fmt.Errorf("row %d: rack_index %d, but host %d (%s) is in rack %d", r, k, h, host.Name, host.Rack)
		}
		if hname[r] != host.Name || rname[r] != c.Racks[host.Rack].Name {
			return nil, fmt.Errorf("row %d: host %q in rack %q, but host %d is %q in rack %q", r, hname[r], rname[r], h, host.Name, c.Racks[host.Rack].Name)
		}
		if vertices[r] < 0 {
			return nil, fmt.Errorf("row %d: column vertices: negative count %d", r, vertices[r])
		}
		c.Workers[w] = cluster.Worker{Name: wname[r], Host: int(h)}
		p.Vertices[w] = vertices[r]
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkWorker checks a worker index and, when names is not nil, its name.
func (p *Profile) checkWorker(what string, w int64, name []string, r int) error {
	c := p.Cluster
	if w < 0 || w >= int64(c.NumWorkers()) {
		return fmt.Errorf("row %d: %s %d outside %d workers", r, what, w, c.NumWorkers())
	}
	if name != nil && name[r] != c.Workers[w].Name {
		return fmt.Errorf("row %d: %s %d is named %q here and %q in the cluster table", r, what, w, name[r], c.Workers[w].Name)
	}
	return nil
}

func checkSuperstep(v int64, r int) error {
	if v < 0 || v > math.MaxInt32 {
		return fmt.Errorf("row %d: superstep %d outside 0…%d", r, v, math.MaxInt32)
	}
	return nil
}

func (p *Profile) fromWorkerTable(t arrow.Table) error {
	cols, err := table.Read(t, workerFields)
	if err != nil {
		return err
	}
	ss, wk, wn, hn, rn := cols[0].Ints, cols[1].Ints, cols[2].Strings, cols[3].Strings, cols[4].Strings
	cs, ws, ms, ac, pr := cols[5].Floats, cols[6].Floats, cols[7].Floats, cols[8].Ints, cols[9].Ints
	c := p.Cluster
	w := c.NumWorkers()
	steps := map[int64]*Step{}
	seen := map[int64][]bool{}
	for r := range ss {
		if err := checkSuperstep(ss[r], r); err != nil {
			return err
		}
		if err := p.checkWorker("worker", wk[r], wn, r); err != nil {
			return err
		}
		wi := int(wk[r])
		h := c.Hosts[c.Workers[wi].Host]
		if hn[r] != h.Name || rn[r] != c.Racks[h.Rack].Name {
			return fmt.Errorf("row %d: worker %d on host %q in rack %q here, on %q in %q in the cluster table", r, wi, hn[r], rn[r], h.Name, c.Racks[h.Rack].Name)
		}
		s := steps[ss[r]]
		if s == nil {
			st := NewStep(int(ss[r]), w)
			s = &st
			steps[ss[r]] = s
			seen[ss[r]] = make([]bool, w)
		}
		if seen[ss[r]][wi] {
			return fmt.Errorf("row %d: superstep %d, worker %d appears twice", r, ss[r], wi)
		}
		seen[ss[r]][wi] = true
		var st WorkerStats
		for _, f := range []struct {
			name string
			v    float64
			dst  *time.Duration
		}{{"compute_s", cs[r], &st.Compute}, {"wait_s", ws[r], &st.Wait}, {"comm_s", ms[r], &st.Comm}} {
			d, err := secondsToDuration(f.v)
			if err != nil {
				return fmt.Errorf("row %d: column %s: %v", r, f.name, err)
			}
			*f.dst = d
		}
		if ac[r] < 0 || pr[r] < 0 {
			return fmt.Errorf("row %d: negative vertex count (active %d, processed %d)", r, ac[r], pr[r])
		}
		st.Active, st.Processed = ac[r], pr[r]
		s.Workers[wi] = st
	}
	keys := make([]int64, 0, len(steps))
	for k := range steps {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		for wi, ok := range seen[k] {
			if !ok {
				return fmt.Errorf("superstep %d has no row for worker %d (%s)", k, wi, c.Workers[wi].Name)
			}
		}
		p.Steps = append(p.Steps, *steps[k])
	}
	return nil
}

func (p *Profile) fromPairTable(t arrow.Table) error {
	cols, err := table.Read(t, pairFields)
	if err != nil {
		return err
	}
	ss, src, dst, sn, dn := cols[0].Ints, cols[1].Ints, cols[2].Ints, cols[3].Strings, cols[4].Strings
	mg, by, in := cols[5].Ints, cols[6].Ints, cols[7].Bools
	w := p.NumWorkers()
	index := make(map[int64]int, len(p.Steps))
	for i, s := range p.Steps {
		index[int64(s.Superstep)] = i
	}
	seen := make([][]bool, len(p.Steps))
	for r := range ss {
		if err := checkSuperstep(ss[r], r); err != nil {
			return err
		}
		si, ok := index[ss[r]]
		if !ok {
			return fmt.Errorf("row %d: superstep %d has pairs but no rows in the workers table", r, ss[r])
		}
		if err := p.checkWorker("src", src[r], sn, r); err != nil {
			return err
		}
		if err := p.checkWorker("dst", dst[r], dn, r); err != nil {
			return err
		}
		if in[r] != (src[r] == dst[r]) {
			return fmt.Errorf("row %d: internal is %v for pair (%d, %d)", r, in[r], src[r], dst[r])
		}
		if mg[r] < 0 || by[r] < 0 {
			return fmt.Errorf("row %d: pair (%d, %d): negative count (%d messages, %d bytes)", r, src[r], dst[r], mg[r], by[r])
		}
		if seen[si] == nil {
			seen[si] = make([]bool, w*w)
		}
		i := int(src[r])*w + int(dst[r])
		if seen[si][i] {
			return fmt.Errorf("row %d: superstep %d, pair (%d, %d) appears twice", r, ss[r], src[r], dst[r])
		}
		seen[si][i] = true
		p.Steps[si].Messages[i] = mg[r]
		p.Steps[si].Bytes[i] = by[r]
	}
	return nil
}

// maxExactSeconds bounds the durations that survive float seconds: below
// 2^22 s (48 days) a float64 second count still resolves nanoseconds.
const maxExactSeconds = 1 << 22

// secondsToDuration turns seconds back into a Duration, exactly for the
// values Duration.Seconds makes of durations below maxExactSeconds.
func secondsToDuration(s float64) (time.Duration, error) {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, fmt.Errorf("%v seconds", s)
	}
	ns := math.Round(s * 1e9)
	if ns >= math.MaxInt64 || ns < math.MinInt64 {
		return 0, fmt.Errorf("%g seconds does not fit a duration", s)
	}
	return time.Duration(ns), nil
}
