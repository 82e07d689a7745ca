// Package otf reads message traces in the Open Trace Format version 1
// (OTF v1, as written by VampirTrace and by the OTF library 1.12) into a
// trace.Trace, in pure Go.
//
// An OTF v1 trace is a master file "<name>.otf" mapping streams to
// processes and process groups ("1:1,2,3b9aca01": stream 1 holds
// processes 1 and 2 and the group 3b9aca01, all ids in hex), a definition
// file "<name>.0.def" (plus optional per-stream "<name>.<stream>.def"),
// one event file per stream "<name>.<stream>.events", and optional
// snapshot ("<name>.<stream>.snaps"), summary ("….stats") and marker
// ("<name>.0.marker", "….<stream>.marker") files; each may be
// zlib-compressed with a ".z" suffix (VampirTrace's carry no end marker:
// they are inflated until the input ends). Records are text lines in
// OTF's short format: a line of hex digits sets the current time,
// "*<id>" switches the current process (or process group), lines
// "K<key>Y<type>V<value>[L<length>]" are key-value pairs belonging to the
// next record, and
//
//	E<function>[X<scl>]                       enter a function
//	L[<function>][X<scl>]                     leave it (no id or 0: the innermost)
//	S<receiver>L<length>T<tag>C<group>[X<scl>]  send
//	R<sender>L<length>T<tag>C<group>[X<scl>]    receive
//
// What is read: processes (DP, with their names; a parent PT is allowed),
// process groups (DPG: the group a message names becomes its
// communicator; MPI_COMM_WORLD gives the ranks), attribute lists and
// process-group attributes (DA, DPGA: the groups with the attribute
// hasGroupCounters, VampirTrace's node groups, give the processes' hosts;
// without such groups, a group whose name does not start with "MPI" or
// "OMP", that is not a communicator and that is the only such group
// holding a process gives that process's host), functions (DF) as
// regions, the timer resolution (DTR), and, on processes, enters, leaves,
// sends and receives. Time 0 is the earliest event of the trace; ticks
// are converted to nanoseconds exactly, in integer arithmetic. OTF v1 has
// no non-blocking flag, so every message is a trace.Send.
//
// What is skipped, each record checked against its layout in OTF 1.12.5
// (records.go):
//   - definitions: comments (DCMT), version (DV), creator (DCR), unique id
//     (DUI), time range (DTRG), function groups (DFG), collective
//     operations (DCO), counters and counter groups (DCNT, DCG), counter
//     assignments (DCA), source-code locations and files (DS, DSF), files
//     and file groups (DFL, DFLG), key-value definitions (DK), process
//     substitutes (DPS), auxiliary sample points (DAUX);
//   - events: counters (CNT), collective operations (COP, COPB, COPE),
//     process begin and end (PB, PE), comments (#), no-ops (N), file
//     operations (F, FA, FF), RMA put, put remote end, get and end (T, U,
//     G, M), inline snapshots (T…), key-value pairs (K);
//   - snapshots (TC, TE, TS, TOF, TBC, TBF, TCO, TCNT), summaries (SC, SF,
//     SG, SM, SCO, SFL, SFLG) and markers (MD, MS), in their own files.
//
// What warns (Trace.Warnings, "file:line: …", a few of each kind, then a
// count): a record of no known type ("unknown record skipped"), a known
// record the reader skips whose fields do not fit its layout ("malformed
// record skipped"), and every record on a process-group stream, such as
// VampirTrace's per-node counters ("record on a process-group stream
// skipped").
//
// What is an error (a ParseError with file and line): a malformed record
// the reader uses (DTR, DP, DPG, DF, DA, DPGA, E, L, S, R), a switch to an
// id that is neither a process nor a process group, events out of time
// order or naming undefined processes or functions, text cut mid-record,
// and OTF's long text format ("DEFTIMERRESOLUTION …", "ENTER …"), which is
// not read: convert such a trace with "otfmerge -n 0".
//
// The package knows the file format only: matching sends with receives is
// the trace.Builder's job, and pictures are the display's.
package otf

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"superstep/internal/linereader"
	"superstep/internal/parallel"
	"superstep/sdk/trace"
)

// ParseError is malformed input: the file, the line (1-based; 0 when the
// problem is the file as a whole) and what was expected; its text is
// "a.1f.events.z:1203: expected a hex timestamp, found "zz"". It is the
// one parse error of all of Superstep's file readers
// (internal/linereader.ParseError), so errors.As matches every reader's.
type ParseError = linereader.ParseError

// Read reads the OTF v1 trace whose master file is path (a ".otf" file),
// or the one ".otf" file in the directory path.
func Read(ctx context.Context, path string) (*trace.Trace, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("otf: %w", err)
	}
	dir, name := filepath.Dir(path), filepath.Base(path)
	if st.IsDir() {
		dir = path
		m, err := filepath.Glob(filepath.Join(path, "*.otf"))
		if err != nil {
			return nil, fmt.Errorf("otf: %w", err)
		}
		if len(m) != 1 {
			return nil, fmt.Errorf("otf: directory %s holds %d .otf files, want exactly 1", path, len(m))
		}
		name = filepath.Base(m[0])
	}
	return ReadFS(ctx, os.DirFS(dir), name)
}

// ReadFS reads the OTF v1 trace whose master file is name in fsys; the
// definition and event files lie beside it.
func ReadFS(ctx context.Context, fsys fs.FS, name string) (*trace.Trace, error) {
	return readFS(ctx, fsys, name, readStream)
}

// streamReader reads and parses one stream's event file with a worker's
// inflater; readFS takes it as a parameter (always readStream outside
// tests) so that a test can make one stream's reading fail or panic on a
// worker.
type streamReader func(fsys fs.FS, prefix string, id uint64, tb *tables, in *inflater) (*streamResult, error)

// readFS is ReadFS reading each stream with read.
func readFS(ctx context.Context, fsys fs.FS, name string, read streamReader) (*trace.Trace, error) {
	if !strings.HasSuffix(name, ".otf") {
		return nil, fmt.Errorf("otf: %s: want the .otf master file", name)
	}
	dir, base := path.Split(name)
	stem := strings.TrimSuffix(base, ".otf")
	prefix := dir + stem // "dir/a"

	master, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("otf: %w", err)
	}
	streams, err := parseMaster(base, master)
	if err != nil {
		return nil, err
	}

	defs := newDefs()
	if err := readDefFile(fsys, prefix+".0.def", true, defs); err != nil {
		return nil, err
	}
	for _, s := range streams {
		if err := readDefFile(fsys, fmt.Sprintf("%s.%x.def", prefix, s.id), false, defs); err != nil {
			return nil, err
		}
	}
	if defs.ticksPerSecond == 0 {
		return nil, &ParseError{File: stem + ".0.def", Msg: "no timer resolution (DTR) record"}
	}
	if len(defs.procs) == 0 {
		return nil, &ParseError{File: stem + ".0.def", Msg: "no process (DP) records"}
	}
	tb := defs.tables()
	start, ok := traceStart(fsys, prefix, streams)
	if !ok {
		start = 0
	}
	tb.start = start
	var warn trace.Warnings
	warn.Merge(&defs.warn.w)
	// The global markers; each stream's are read with its events.
	var in inflater
	if err := readAux(fsys, prefix+".0.marker", kindMarkers, tb, &in, &warn); err != nil {
		return nil, err
	}
	return readStreams(ctx, stem, fsys, prefix, streams, defs, tb, read, &warn)
}

// readStreams parses the streams in parallel (runtime.GOMAXPROCS workers,
// each taking whole streams, each with its own inflater) while this
// goroutine feeds the finished ones to the Builder in the master file's
// order, merging the streams' warnings into warn in that order too. The
// error is the first in that order: a stream's, or feeding's.
func readStreams(ctx context.Context, stem string, fsys fs.FS, prefix string, streams []streamInfo, defs *defs, tb *tables, read streamReader, warn *trace.Warnings) (*trace.Trace, error) {
	workers := parallel.Workers(0, len(streams))
	// Workers run at most a few streams ahead of the feeder, so the event
	// blocks of fed streams are reused instead of new memory.
	window := 2*workers + 1
	tb.pool = newBlockPool(1 << 14)
	ins := make([]inflater, workers)

	b := trace.NewBuilder(stem)
	for _, p := range defs.processes() {
		b.AddProcess(p)
	}
	for _, f := range defs.funcs {
		b.Region(f.name)
	}
	tps := defs.ticksPerSecond
	b.SetClock(tps, int64(min(tb.start, math.MaxInt64)))
	f := feeder{b: b, defs: defs, tps: tps, start: tb.start, comms: map[uint32]int32{}}
	err := parallel.Ordered(ctx, workers, len(streams), window,
		func(w, i int) (*streamResult, error) {
			return read(fsys, prefix, streams[i].id, tb, &ins[w])
		},
		func(i int, r *streamResult) error {
			if i == 0 {
				f.estimate(r, streams)
			}
			if err := f.feed(r); err != nil {
				return err
			}
			warn.Merge(r.warn)
			for _, pe := range r.procs {
				pe.regs.release()
				pe.msgs.release()
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	if f.maxT > tb.start {
		b.SetDuration(ticksToNS(f.maxT-tb.start, tps))
	}
	t, err := b.Finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("otf: %s: %w", stem, err)
	}
	t.Warnings = warn.List()
	return t, nil
}

// feeder hands parsed events to the Builder.
type feeder struct {
	b           *trace.Builder
	defs        *defs
	tps, start  uint64
	maxT        uint64
	comms       map[uint32]int32
	lastG       uint32
	lastC       int32
	haveLastCom bool
	// sends and receives fed, and room reserved for them in the Builder.
	nSend, nRecv     int
	nLeave, capLeave int
	capSend, capRecv int
}

// estimate reserves room for the whole trace's sends and receives from
// the first stream's counts, scaled by the event files' sizes (10 % more:
// room never touched costs address space, not memory).
func (f *feeder) estimate(first *streamResult, streams []streamInfo) {
	var total int64
	for _, s := range streams {
		total += s.size
	}
	if streams[0].size <= 0 || total <= 0 {
		return
	}
	scale := 1.1 * float64(total) / float64(streams[0].size)
	sends, recvs := 0, 0
	for _, pe := range first.procs {
		sends += pe.nSend
		recvs += pe.nRecv
	}
	es, er := int(float64(sends)*scale), int(float64(recvs)*scale)
	if es > 0 || er > 0 {
		f.b.Reserve(es, er)
		f.capSend, f.capRecv = es, er
	}
}

// reserve makes room for a stream's sends and receives, doubling the room
// so that millions of events are copied a few times only.
func (f *feeder) reserve(sends, recvs int) {
	grow := func(n, c, more int) (add int) {
		if n+more <= c {
			return 0
		}
		return max(n+more, 2*c) - n
	}
	as, ar := grow(f.nSend, f.capSend, sends), grow(f.nRecv, f.capRecv, recvs)
	if as > 0 || ar > 0 {
		f.b.Reserve(as, ar)
		if as > 0 {
			f.capSend = f.nSend + as
		}
		if ar > 0 {
			f.capRecv = f.nRecv + ar
		}
	}
	f.nSend += sends
	f.nRecv += recvs
}

// reserveRegions makes room for a stream's region intervals, doubling the
// room like reserve.
func (f *feeder) reserveRegions(n int) {
	if f.nLeave+n > f.capLeave {
		add := max(f.nLeave+n, 2*f.capLeave) - f.nLeave
		f.b.ReserveRegions(add)
		f.capLeave = f.nLeave + add
	}
	f.nLeave += n
}

func (f *feeder) comm(g uint32) int32 {
	if f.haveLastCom && g == f.lastG {
		return f.lastC
	}
	c, ok := f.comms[g]
	if !ok {
		name, ok := f.defs.groupName[g]
		if !ok {
			name = fmt.Sprintf("group %x", g)
		}
		c = f.b.Comm(name)
		f.comms[g] = c
	}
	f.lastG, f.lastC, f.haveLastCom = g, c, true
	return c
}

// feed adds one stream's events, process by process.
func (f *feeder) feed(r *streamResult) error {
	if r.n > 0 {
		f.maxT = max(f.maxT, r.maxT)
	}
	sends, recvs, leaves := 0, 0, 0
	for _, pe := range r.procs {
		sends += pe.nSend
		recvs += pe.nRecv
		leaves += pe.nLeave
	}
	f.reserve(sends, recvs)
	f.reserveRegions(leaves)
	procs := slices.Clone(r.procs)
	slices.SortStableFunc(procs, func(x, y *procEvents) int { return cmp.Compare(x.proc, y.proc) })
	b := f.b
	for _, pe := range procs {
		proc := pe.proc
		for _, blk := range pe.regs.blocks {
			for _, e := range blk {
				ns := ticksToNS(e.t-f.start, f.tps)
				var err error
				if e.leave {
					err = b.Leave(proc, ns, e.fn)
				} else {
					err = b.Enter(proc, ns, e.fn)
				}
				if err != nil {
					return fmt.Errorf("otf: %s: %w", r.file, err)
				}
			}
		}
		for _, blk := range pe.msgs.blocks {
			for _, e := range blk {
				ns := ticksToNS(e.t-f.start, f.tps)
				c := f.comm(e.group)
				var err error
				if e.recv {
					err = b.Recv(proc, ns, e.peer, c, e.tag, int64(e.bytes))
				} else {
					err = b.Send(proc, ns, e.peer, c, e.tag, int64(e.bytes), trace.Send)
				}
				if err != nil {
					return fmt.Errorf("otf: %s: %w", r.file, err)
				}
			}
		}
	}
	return nil
}

// ticksToNS converts a tick count to nanoseconds exactly (rounding down),
// saturating at math.MaxInt64.
func ticksToNS(d, tps uint64) int64 {
	hi, lo := bits.Mul64(d, 1e9)
	if hi >= tps {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, tps)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

// processes returns the trace's processes in process-id order.
func (d *defs) processes() []trace.Process {
	out := make([]trace.Process, len(d.procs))
	world := d.groupMembers("MPI_COMM_WORLD")
	rank := map[uint64]int32{}
	for i, m := range world {
		if _, ok := rank[m]; !ok {
			rank[m] = int32(i)
		}
	}
	host := map[uint64]string{}
	hostCount := map[uint64]int{}
	nodes := d.groupsWithAttr(attrHasGroupCounters)
	comms := d.groupsWithAttr(attrIsCommunicator)
	for _, g := range d.groups {
		if len(nodes) > 0 {
			if !nodes[g.id] {
				continue
			}
		} else if comms[g.id] || strings.HasPrefix(g.name, "MPI") || strings.HasPrefix(g.name, "OMP") {
			continue
		}
		for _, m := range g.members {
			host[m] = g.name
			hostCount[m]++
		}
	}
	for i, p := range d.procs {
		r, ok := rank[p.id]
		if !ok {
			r = int32(i)
		}
		h := ""
		if hostCount[p.id] == 1 {
			h = host[p.id]
		}
		out[i] = trace.Process{Name: p.name, Rank: r, Host: h}
	}
	return out
}

// OTF_ATTR_TYPE values of process-group attributes (DA, DPGA).
const (
	attrHasGroupCounters = 5 // VampirTrace's node groups
	attrIsCommunicator   = 7
)

// groupsWithAttr returns the process groups whose attribute list holds
// attr.
func (d *defs) groupsWithAttr(attr uint64) map[uint64]bool {
	out := map[uint64]bool{}
	for g, list := range d.groupAttrs {
		if slices.Contains(d.attrLists[list], attr) {
			out[g] = true
		}
	}
	return out
}

// groupMembers returns the members of the first group with this name.
func (d *defs) groupMembers(name string) []uint64 {
	for _, g := range d.groups {
		if g.name == name {
			return g.members
		}
	}
	return nil
}

// sortProcs orders the process definitions by id and drops duplicates
// (the last definition wins).
func sortProcs(ps []procDef) []procDef {
	slices.SortStableFunc(ps, func(a, b procDef) int { return cmp.Compare(a.id, b.id) })
	out := ps[:0]
	for i, p := range ps {
		if i+1 < len(ps) && ps[i+1].id == p.id {
			continue
		}
		out = append(out, p)
	}
	return out
}
