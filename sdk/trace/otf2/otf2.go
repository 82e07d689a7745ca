// Package otf2 reads OTF2 traces (the Open Trace Format 2 of Score-P and
// libotf2, archive formats 2.x and 3.x) into a trace.Trace, in pure Go.
// The record types it knows are OTF2 3.0's, as libotf2 3.0 numbers them:
// event types 10 (BufferFlush) to 88 (CommDestroy), global definitions 5
// to 8 and 10 (String) to 43 (InterComm), local definitions 5, 6 and 10
// to 43.
//
// What it reads: the anchor file; of the global definitions the clock,
// strings, system tree nodes, location groups, locations, regions,
// groups, communicators and inter-communicators; of each location's local
// definitions the mapping tables and clock offsets (applied as OTF2's own
// reader applies them); of the MPI locations' events Enter and Leave
// (region intervals) and MpiSend, MpiIsend, MpiRecv, MpiIrecvRequest and
// MpiIrecv (messages, whose peers are ranks in their communicator
// resolved through its group to locations; on an inter-communicator, in
// the remote group).
//
// What it skips, by each record's announced length: every other known
// record. Among definitions: paradigms and their properties, attributes,
// callsites, callpaths and their parameters, metric members, classes,
// instances and recorders, parameters, RMA windows, system-tree and
// location (group) properties and domains, Cartesian topologies, source
// code locations, calling contexts and their properties, interrupt
// generators, I/O paradigms, files, directories, handles and their
// properties, and the local twins of the global definitions. Among
// events: attribute lists, buffer flushes, measurement on/off, request
// tests and cancellations, OpenMP and thread events (fork, join, team,
// locks, tasks, create, begin, wait, end), metrics, parameters, RMA,
// calling-context enter, leave and sample, I/O, program begin and end,
// communicator creation and destruction, collectives.
//
// What warns (Trace.Warnings, see trace.Warnings): a record type OTF2 3.0
// does not know, with its file and byte offset (file:offset: …), skipped
// by its length; locations outside the MPI paradigm's COMM_LOCATIONS
// group (threads, accelerator streams, metric locations), which are not
// read; and, once per archive with a count and the first one's position,
// MPI collectives (MpiCollectiveEnd, NonBlockingCollectiveComplete) and
// one-sided RMA transfers (RmaPut, RmaGet, RmaAtomic), because they move
// data a user may expect to see as messages, which they are not: a
// collective stays the region it happened in. Other skipped records warn
// not: they carry no communication between processes.
//
// Compressed (zlib) and SIONlib archives are refused. Truncated or
// corrupt files, and records (known or not) whose length runs past their
// chunk, give a *ParseError naming the file, the byte offset and what
// was expected, never a panic.
package otf2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"superstep/internal/parallel"
	"superstep/sdk/trace"
)

// Info is the content of an OTF2 anchor file.
type Info struct {
	AnchorFormat uint8
	// TraceFormat is the archive's trace format; Version the OTF2 version
	// that wrote it (major, minor, bugfix).
	TraceFormat uint8
	Version     [3]uint8
	// EventChunkSize and DefChunkSize are the chunk sizes of the event
	// and definition files in bytes.
	EventChunkSize, DefChunkSize uint64
	// Substrate is 1 for POSIX files; Compression 1 for none.
	Substrate, Compression uint8
	// Locations and GlobalDefs count the locations and global definitions.
	Locations, GlobalDefs         uint64
	Machine, Creator, Description string
	// Properties are the archive's name/value properties in file order.
	Properties [][2]string
}

// ReadInfo reads the anchor file of an archive.
func ReadInfo(fsys fs.FS, anchor string) (*Info, error) {
	data, err := fs.ReadFile(fsys, anchor)
	if err != nil {
		return nil, fmt.Errorf("otf2: %w", err)
	}
	return parseAnchor(anchor, data)
}

func parseAnchor(file string, data []byte) (*Info, error) {
	c := &cursor{file: file, b: data, end: len(data)}
	if m := c.u8("a buffer header"); c.err == nil && m != markChunkHeader {
		c.fail(0, "expected a buffer header (0x03), found 0x%02x", m)
	}
	switch e := c.u8("an endianness byte"); {
	case c.err != nil:
	case e == endianBig:
		c.big = true
	case e != endianLittle:
		c.fail(1, "expected an endianness byte (0x42 or 0x23), found 0x%02x", e)
	}
	if magic := c.cstring("the magic \"OTF2\""); c.err == nil && magic != "OTF2" {
		c.fail(2, "expected the magic \"OTF2\", found %q", magic)
	}
	in := &Info{}
	in.AnchorFormat = c.u8("the anchor format")
	if c.err == nil && in.AnchorFormat == 0 {
		c.fail(c.pos-1, "expected an anchor format above 0, found 0")
	}
	in.TraceFormat = c.u8("the trace format")
	for i := range in.Version {
		in.Version[i] = c.u8("the OTF2 version")
	}
	in.EventChunkSize = c.full("the event chunk size")
	in.DefChunkSize = c.full("the definition chunk size")
	at := c.pos
	in.Substrate = c.u8("the file substrate")
	if c.err == nil && in.Substrate != 1 {
		c.fail(at, "file substrate %d: only POSIX files (1) are read", in.Substrate)
	}
	at = c.pos
	in.Compression = c.u8("the compression")
	if c.err == nil && in.Compression != 1 {
		c.fail(at, "compression %d: only uncompressed archives (1) are read", in.Compression)
	}
	in.Locations = c.full("the number of locations")
	in.GlobalDefs = c.full("the number of global definitions")
	in.Machine = c.cstring("the machine name")
	in.Creator = c.cstring("the creator")
	in.Description = c.cstring("the description")
	if in.AnchorFormat > 1 {
		n := c.u32full("the number of properties")
		for i := uint32(0); i < n && c.err == nil; i++ {
			k := c.cstring("a property name")
			v := c.cstring("a property value")
			in.Properties = append(in.Properties, [2]string{k, v})
		}
		c.full("the trace id")
	}
	if c.err != nil {
		return nil, c.err
	}
	for _, cs := range []uint64{in.EventChunkSize, in.DefChunkSize} {
		if cs < 1024 || cs > 1<<40 {
			return nil, &ParseError{File: file, Binary: true, Offset: 11, Msg: fmt.Sprintf("implausible chunk size %d", cs)}
		}
	}
	return in, nil
}

// Read reads the OTF2 archive whose anchor file (traces.otf2) is at
// anchorPath.
func Read(ctx context.Context, anchorPath string) (*trace.Trace, error) {
	return ReadFS(ctx, os.DirFS(filepath.Dir(anchorPath)), filepath.Base(anchorPath))
}

// ReadFS reads the OTF2 archive whose anchor file is anchor in fsys; the
// global definitions lie beside it (<name>.def) and the locations' files
// in the folder <name>/.
func ReadFS(ctx context.Context, fsys fs.FS, anchor string) (*trace.Trace, error) {
	return readFS(ctx, fsys, anchor, decodeLocation)
}

// decodeFunc decodes one location's files; readFS takes it as a parameter
// (always decodeLocation outside tests) so that a test can make one
// location's decoding fail or panic on a worker.
type decodeFunc func(ctx context.Context, fsys fs.FS, base string, id uint64, proc int32, comms map[uint32]*commInfo, clk clock, info *Info) (*locDecoder, error)

// readFS is ReadFS decoding each location with decode.
func readFS(ctx context.Context, fsys fs.FS, anchor string, decode decodeFunc) (*trace.Trace, error) {
	info, err := ReadInfo(fsys, anchor)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(anchor, path.Ext(anchor))
	defFile := base + ".def"
	data, err := fs.ReadFile(fsys, defFile)
	if err != nil {
		return nil, fmt.Errorf("otf2: %w", err)
	}
	g, err := readGlobalDefs(defFile, data, info.DefChunkSize)
	if err != nil {
		return nil, err
	}

	// Processes: the MPI paradigm's COMM_LOCATIONS group, in location-id
	// order; without one, every location.
	var mpiLocs []uint64
	for _, id := range g.groupIDs {
		if gr := g.groups[id]; gr.typ == groupCommLocations && gr.paradigm == paradigmMPI {
			mpiLocs = gr.members
			break
		}
	}
	rankOf := map[uint64]int32{}
	for r, l := range mpiLocs {
		if _, ok := rankOf[l]; !ok {
			rankOf[l] = int32(r)
		}
	}
	b := trace.NewBuilder(path.Base(anchor))
	procOf := map[uint64]int32{}
	var locs []location
	var notRead []uint64
	for _, l := range g.locations {
		rank := int32(-1)
		if mpiLocs != nil {
			r, ok := rankOf[l.id]
			if !ok {
				notRead = append(notRead, l.id)
				continue
			}
			rank = r
		}
		if _, dup := procOf[l.id]; dup {
			continue
		}
		host := ""
		if parent, ok := g.locGroups[l.group]; ok {
			if node, ok := g.nodes[parent]; ok {
				host = g.str(node[0])
			}
		}
		procOf[l.id] = b.AddProcess(trace.Process{Name: g.str(l.name), Rank: rank, Host: host})
		locs = append(locs, l)
	}
	b.SetClock(g.tps, int64(g.offset))
	comms := g.resolveComms(procOf)
	clk := clock{tps: g.tps, offset: g.offset}
	if d, ok := clk.ns(g.offset + g.length); ok && g.offset+g.length >= g.offset {
		b.SetDuration(d)
	}

	// Decode the locations in parallel, then feed the Builder in order.
	// A cancellation comes first, then the first location's error in
	// location order.
	decs := make([]*locDecoder, len(locs))
	err = parallel.ForErr(ctx, 0, len(locs), func(w, i int) error {
		d, err := decode(ctx, fsys, base, locs[i].id, procOf[locs[i].id], comms, clk, info)
		decs[i] = d
		return err
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	warn := g.warn
	if len(notRead) > 0 {
		warn.Add("locations not read", defFile, 0,
			"%d of %d locations are not in the MPI paradigm's COMM_LOCATIONS group and are not read (threads, accelerator streams, metric locations): %s",
			len(notRead), len(g.locations), idList(notRead))
	}
	var collectives, rma []*skipped
	for _, d := range decs {
		warn.Merge(&d.warn)
		collectives = append(collectives, &d.collectives)
		rma = append(rma, &d.rma)
	}
	if n, first := sumSkipped(collectives); n > 0 {
		warn.Add("MPI collectives are not messages", first.file, first.at,
			"%d MPI collective operations (MpiCollectiveEnd, NonBlockingCollectiveComplete; the first at byte offset %d) are read as regions only, not as messages", n, first.at)
	}
	if n, first := sumSkipped(rma); n > 0 {
		warn.Add("RMA transfers are not messages", first.file, first.at,
			"%d one-sided RMA transfers (RmaPut, RmaGet, RmaAtomic; the first at byte offset %d) are not read as messages", n, first.at)
	}
	commIdx := map[uint32]int32{}
	regIdx := map[int32]int32{}
	for i, d := range decs {
		for _, e := range d.events {
			if err := feed(b, d.proc, &e, g, comms, commIdx, regIdx); err != nil {
				return nil, &ParseError{File: fmt.Sprintf("%s/%d.evt", base, locs[i].id), Binary: true, Offset: int64(e.off), Msg: err.Error(), Err: err}
			}
		}
		d.events = nil
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	tr, err := b.Finish(ctx)
	if err != nil {
		return nil, err
	}
	tr.Warnings = warn.List()
	return tr, nil
}

// sumSkipped adds up the locations' counts of one kind of skipped record
// and returns the first location's (in location order) that has any.
func sumSkipped(per []*skipped) (n int, first *skipped) {
	for _, s := range per {
		if s.n > 0 && first == nil {
			first = s
		}
		n += s.n
	}
	return n, first
}

// idList is "4, 5" for the first few ids and "…" after them.
func idList(ids []uint64) string {
	const show = 8
	var sb strings.Builder
	for i, id := range ids {
		if i == show {
			sb.WriteString(", …")
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatUint(id, 10))
	}
	return "locations " + sb.String()
}

func decodeLocation(ctx context.Context, fsys fs.FS, base string, id uint64, proc int32, comms map[uint32]*commInfo, clk clock, info *Info) (*locDecoder, error) {
	name := base + "/" + strconv.FormatUint(id, 10)
	d := &locDecoder{proc: proc, comms: comms, clk: clk, local: &localDefs{}}
	data, err := fs.ReadFile(fsys, name+".def")
	switch {
	case err == nil:
		if d.local, err = readLocalDefs(name+".def", data, info.DefChunkSize, &d.warn); err != nil {
			return nil, err
		}
		d.clk.iv = d.local.clocks
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("otf2: %w", err)
	}
	data, err = fs.ReadFile(fsys, name+".evt")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return d, nil // a location without events
		}
		return nil, fmt.Errorf("otf2: %w", err)
	}
	d.events = make([]event, 0, len(data)/12)
	if err := d.decodeEvents(ctx, name+".evt", data, info.EventChunkSize); err != nil {
		return nil, err
	}
	return d, nil
}

func feed(b *trace.Builder, proc int32, e *event, g *globalDefs, comms map[uint32]*commInfo, commIdx map[uint32]int32, regIdx map[int32]int32) error {
	switch e.kind {
	case evEnter, evLeave:
		r, ok := regIdx[e.a]
		if !ok {
			name, known := g.strings[g.regions[uint32(e.a)]]
			if _, def := g.regions[uint32(e.a)]; !def || !known {
				name = fmt.Sprintf("region %d", e.a)
			}
			r = b.Region(name)
			regIdx[e.a] = r
		}
		if e.kind == evEnter {
			return b.Enter(proc, e.ns, r)
		}
		return b.Leave(proc, e.ns, r)
	case evMpiIrecvRequest:
		return b.IrecvPosted(proc, e.req)
	}
	ci, ok := commIdx[e.comm]
	if !ok {
		ci = b.Comm(comms[e.comm].name)
		commIdx[e.comm] = ci
	}
	switch e.kind {
	case evMpiSend:
		return b.Send(proc, e.ns, e.a, ci, int32(e.tag), int64(e.bytes), trace.Send)
	case evMpiIsend:
		return b.Send(proc, e.ns, e.a, ci, int32(e.tag), int64(e.bytes), trace.Isend)
	case evMpiRecv:
		return b.Recv(proc, e.ns, e.a, ci, int32(e.tag), int64(e.bytes))
	case evMpiIrecv:
		return b.IrecvCompleted(proc, e.ns, e.req, e.a, ci, int32(e.tag), int64(e.bytes))
	}
	return fmt.Errorf("unexpected %s event", describe(e.kind))
}

// CountEvents counts the event records of every location's event file of
// an archive (timestamps and attribute lists are not events; records the
// reader does not know are), keyed by the file's name: "traces/0.evt".
func CountEvents(fsys fs.FS, anchor string) (map[string]int, error) {
	info, err := ReadInfo(fsys, anchor)
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(fsys, path.Join(strings.TrimSuffix(anchor, ".otf2"), "*.evt"))
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		c := &cursor{file: name, b: data}
		n := 0
		c.chunks(info.EventChunkSize, func() bool {
			for c.err == nil {
				t := c.u8("an event record type")
				if c.err != nil {
					return false
				}
				switch t {
				case markEndOfChunk:
					return false
				case markEndOfFile:
					return true
				case markTimestamp:
					c.full("an 8-byte timestamp")
					continue
				case markAttrList:
					c.pos = c.recordLen()
					continue
				case evEnter, evLeave, evMpiIsendComplete, evMpiIrecvRequest, evMpiRequestTest, evMpiRequestCancel,
					evOmpFork, evOmpTaskCreate, evOmpTaskSwitch, evOmpTaskComplete:
					c.comp("the record's value")
				default:
					c.pos = c.recordLen()
				}
				if c.err == nil {
					n++
				}
			}
			return false
		})
		if c.err != nil {
			return nil, c.err
		}
		out[name] = n
	}
	return out, nil
}
