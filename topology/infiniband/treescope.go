package infiniband

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"superstep/internal/linereader"
	"superstep/internal/parallel"
	"superstep/topology/fattree"
	"superstep/topology/slurm"
)

// TreeScopeOptions says how to read a TreeScope directory.
type TreeScopeOptions struct {
	// Direction maps a port's receive and transmit counters to directed
	// links (fattree.PortDirection, the zero value, is the physical one).
	Direction fattree.Direction
	// Source and Tolerance choose the end whose counters a link gets when
	// a counters file has both xmit_data and rcv_data, and the
	// disagreement accepted without a warning, as in PerfqueryOptions.
	// Source TreeScope gives TreeScope v1.0's own numbers: rcv_data
	// only, on the reversed direction (Direction is then ignored), and a
	// counter that decreased counted as 0 (fattree.ResetToZero), as
	// app/src/model/counters.js does in fix().
	Source    CounterSource
	Tolerance float64
	// Year is the year of the dates of slurmqlog/sqlog.txt, which have
	// none (TreeScope asks its user). 0 means the year of the first
	// counters file.
	Year int
	// Location is the time zone of sqlog's times; nil means UTC.
	Location *time.Location
	// Columnar puts the counters in TreeScopeData.Columns rather than
	// Counters: for days of counters (CounterColumns.Table makes the Arrow
	// table with no copy).
	Columnar bool
}

// TreeScopeJob is a job of the directory's job log and where it ran.
type TreeScopeJob struct {
	Job   slurm.Job
	Nodes []int // indices in the Fabric of Job.Nodes that the network knows, in that order
}

// TreeScopeData is the content of a TreeScope v1.0 data directory.
type TreeScopeData struct {
	Name   string // the network's name ("name" of network.topo)
	Fabric *fattree.Fabric
	// Start is the time of the first counters file: counters are
	// cumulative, so that file is the baseline and Counters' intervals
	// start there.
	Start    time.Time
	Counters []fattree.CounterRow    // fattree.Deltas of the counters files
	Columns  *fattree.CounterColumns // the same by column, instead, with TreeScopeOptions.Columnar
	Routings fattree.Routings        // one per routing table file, from its time
	Jobs     []TreeScopeJob
}

// The files of a TreeScope directory.
const (
	TopoFile    = "network.topo"
	ListingFile = "listing.txt"
	SqlogFile   = "slurmqlog/sqlog.txt"
)

// ReadTreeScope reads a data directory of TreeScope v1.0 (LLNL): the
// fabric, its port counters over time, its routing tables over time and
// its job log.
//
//   - network.topo (required): JSON, the devices ("nodes" and "switches",
//     each with "id" (a GUID, "0011:aaaa:bbbb:cccc"), "desc" or "name",
//     "lid" and "ports": [{"num", "dest_node", "dest_port"}], an
//     unconnected port having dest_node "" and dest_port −1). The devices
//     and cables go to fattree.Infer, which finds levels, pods and bundles
//     from the cabling ("lvl", "pod", "idx", "core" are not used), and
//     whose warnings are returned.
//   - <YYYYmmdd-HHMMSS>.count: CSV, the cumulative counters of every port
//     at that time (UTC): a header naming the columns, of which node_id
//     (the device's GUID) and port_idx (its port number) are required;
//     rcv_data and xmit_data are bytes (TreeScope's files have rcv_data
//     only: 4 × PortRcvData); rcv_pkts, xmit_pkts and xmit_wait are read
//     when present; the error columns of OpenSM's monitoring service that
//     TreeScope's tool lists (rcv_err, rcv_switch_relay_err,
//     rcv_rem_phys_err, rcv_constraint_err, xmit_discards,
//     xmit_constraint_err, symbol_err_cnt, vl15_dropped, buffer_overrun,
//     link_downed, link_err_recover, link_integrity) and "errors" are
//     summed into the port's errors; other columns are ignored. Values
//     map to directed links as in ReadPerfqueryWith (by default transmit
//     values of the source port first, then receive values of the other
//     end; opt.Source and opt.Tolerance as there, the two ends compared
//     when a file has both xmit_data and rcv_data; errors of the port the
//     value is read from; 64-bit). The files, in time order, become
//     snapshots and fattree.Deltas turns them into Counters (a reset
//     counted 0 with Source TreeScope), its warnings (resets, saturation)
//     returned with the file and line.
//   - <YYYYmmdd-HHMMSS>.rtable: the switches' routing tables from that
//     time on: a header line, then per switch its GUID and "lid:port"
//     fields, separated by commas. A LID of a node sets the switch's
//     route to it (the port mapped with Fabric.ModelPort), a LID of
//     another switch its SwitchRoute (fattree.Destinations, TreeScope's
//     d(ℓ), lists both, as routing.js's dlids4link does); a switch's own
//     LID on port 0 is no route out.
//   - listing.txt (optional): the names of the counters and routing
//     files to read, one a line, as TreeScope requires it; without it,
//     every file of the directory named so is read.
//   - slurmqlog/sqlog.txt (optional): the job log, read with
//     slurm.ReadSqlog (Year and Location of opt); job node names are
//     mapped to nodes by the host name of their description
//     (slurm.HCAHost, slurm.MapNodes).
//
// Warnings name the file and line: Infer's, Deltas', unknown devices and
// ports in counters and routing files, links without counters in a
// counters file (one warning per file), switches without a table and
// nodes without a route in a routing file, files listed in listing.txt
// but absent or of another kind, other files of the directory, and the
// job log's and MapNodes' warnings.
//
// Errors are *ParseError (file:line:col) for malformed files, including
// a counters file that lists a port twice, and errors of Infer, Deltas
// and reading the directory as they are. Counters files read at a time
// before an earlier file are impossible (names are times). Memory is
// bounded by the input's size (a Table per routing file: switches ×
// nodes bytes).
func ReadTreeScope(dir string, opt TreeScopeOptions) (*TreeScopeData, []Warning, error) {
	po := PerfqueryOptions{Direction: opt.Direction, Source: opt.Source, Tolerance: opt.Tolerance}
	if err := po.check("ReadTreeScope"); err != nil {
		return nil, nil, err
	}
	var warns []Warning
	topoPath := filepath.Join(dir, TopoFile)
	tf, err := os.Open(topoPath)
	if err != nil {
		return nil, nil, err
	}
	g, meta, w, err := readTopo(tf, topoPath)
	tf.Close()
	if err != nil {
		return nil, nil, err
	}
	warns = append(warns, w...)
	f, iw, err := fattree.Infer(g)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", topoPath, err)
	}
	for _, x := range iw {
		warns = append(warns, Warning{File: topoPath, Msg: x.Msg})
	}
	data := &TreeScopeData{Name: meta.name, Fabric: f}

	counts, rtables, w, err := treeScopeFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	warns = append(warns, w...)

	dev := deviceIndex(f)
	// The snapshots go into the deltas as they are read, in time order,
	// and are dropped: a day of them on Paper1296 would hold 600 MB.
	ds := fattree.DeltaStream{Reset: po.ResetRule()}
	if opt.Columnar {
		ds.Columns = &fattree.CounterColumns{}
		data.Columns = ds.Columns
	}
	if len(counts) > 1 {
		ds.Grow((len(counts) - 1) * len(f.Links))
	}
	read := func(cf timedFile, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
		return readCountFile(cf, f, dev, po, scratch)
	}
	w, err = readCounts(counts, f, read, func(k int, s fattree.Snapshot) error {
		if k == 0 {
			data.Start = s.Time
		}
		return ds.Add(s)
	})
	if err != nil {
		return nil, nil, err
	}
	warns = append(warns, w...)
	rows, dw := ds.Result()
	data.Counters = rows
	for _, x := range dw {
		warns = append(warns, Warning{File: dir, Msg: x.Msg})
	}
	for _, rf := range rtables {
		r, err := os.Open(rf.path)
		if err != nil {
			return nil, nil, err
		}
		t, w, err := readRTable(r, rf.path, f, dev)
		r.Close()
		if err != nil {
			return nil, nil, err
		}
		data.Routings = append(data.Routings, fattree.TimedRouting{From: rf.t, Routing: t})
		warns = append(warns, w...)
	}

	sqPath := filepath.Join(dir, SqlogFile)
	if sf, err := os.Open(sqPath); err == nil {
		year := opt.Year
		if year == 0 {
			if data.Start.IsZero() {
				sf.Close()
				return nil, nil, fmt.Errorf("infiniband: ReadTreeScope: %s has dates without a year and there is no counters file to take it from: set TreeScopeOptions.Year", sqPath)
			}
			year = data.Start.Year()
		}
		jobs, jw, err := slurm.ReadSqlog(sf, sqPath, year, slurm.Location(opt.Location))
		sf.Close()
		if err != nil {
			return nil, nil, err
		}
		for _, x := range jw {
			warns = append(warns, Warning{File: x.File, Line: x.Line, Msg: "job " + x.JobID + ": " + x.Msg})
		}
		known := make(map[string]int, len(f.Nodes))
		for i, n := range f.Nodes {
			if h := slurm.HCAHost(n.Name); h != "" && n.GUID != 0 {
				if _, dup := known[h]; !dup {
					known[h] = i
				}
			}
		}
		idx, mw := slurm.MapNodes(jobs, known)
		for _, x := range mw {
			warns = append(warns, Warning{File: sqPath, Line: x.Line, Msg: "job " + x.JobID + ": " + x.Msg})
		}
		for i, j := range jobs {
			data.Jobs = append(data.Jobs, TreeScopeJob{Job: j, Nodes: idx[i]})
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	return data, warns, nil
}

type timedFile struct {
	path string
	t    time.Time
}

// treeScopeFiles lists the counters and routing files of dir, in time
// order, from listing.txt when there is one.
func treeScopeFiles(dir string) (counts, rtables []timedFile, warns []Warning, err error) {
	add := func(name, where string, line int) {
		base := name
		ext := ""
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			base, ext = name[:i], name[i+1:]
		}
		t, ok := snapshotTime(base)
		switch {
		case ok && ext == "count":
			counts = append(counts, timedFile{filepath.Join(dir, name), t})
		case ok && ext == "rtable":
			rtables = append(rtables, timedFile{filepath.Join(dir, name), t})
		default:
			warns = append(warns, Warning{File: where, Line: line, Msg: fmt.Sprintf("%q is neither a counters file (YYYYmmdd-HHMMSS.count) nor a routing file (.rtable): left out", name)})
		}
	}
	listing := filepath.Join(dir, ListingFile)
	if lf, e := os.Open(listing); e == nil {
		lr := linereader.New(lf, listing, maxLine)
		for lr.Next() {
			l := strings.TrimSpace(lr.Text())
			if l == "" {
				continue
			}
			if _, e := os.Stat(filepath.Join(dir, l)); e != nil || strings.Contains(l, "/") {
				warns = append(warns, Warning{File: listing, Line: lr.Line(), Msg: fmt.Sprintf("%q is listed but is not a file of the directory: left out", l)})
				continue
			}
			add(l, listing, lr.Line())
		}
		lf.Close()
		if e := lr.Err(); e != nil {
			return nil, nil, nil, e
		}
	} else if errors.Is(e, os.ErrNotExist) {
		entries, e := os.ReadDir(dir)
		if e != nil {
			return nil, nil, nil, e
		}
		for _, en := range entries {
			switch en.Name() {
			case TopoFile, ListingFile, "slurmqlog":
				continue
			}
			if en.IsDir() {
				warns = append(warns, Warning{File: filepath.Join(dir, en.Name()), Msg: "a directory TreeScope does not read: left out"})
				continue
			}
			add(en.Name(), dir, 0)
		}
	} else {
		return nil, nil, nil, e
	}
	for _, l := range []*[]timedFile{&counts, &rtables} {
		s := *l
		sort.SliceStable(s, func(a, b int) bool { return s[a].t.Before(s[b].t) })
		for i := 1; i < len(s); i++ {
			if s[i].t.Equal(s[i-1].t) {
				warns = append(warns, Warning{File: s[i].path, Msg: "listed twice: read once"})
				s = append(s[:i], s[i+1:]...)
				i--
			}
		}
		*l = s
	}
	return counts, rtables, warns, nil
}

// devIndex finds devices of a Fabric by GUID: a node (≥ 0) or a switch
// (−1 − id).
type devIndex map[uint64]int

func deviceIndex(f *fattree.Fabric) devIndex {
	m := devIndex{}
	for i, n := range f.Nodes {
		if n.GUID != 0 {
			m[n.GUID] = i
		}
	}
	for i, s := range f.Switches {
		if s.GUID != 0 {
			m[s.GUID] = -1 - i
		}
	}
	return m
}

// csvLines splits a line of a TreeScope CSV file into fields with their
// byte offsets.
func csvFields(s string) (fields []string, starts []int) {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			f := s[start:i]
			lead := len(f) - len(strings.TrimLeft(f, " \t"))
			fields = append(fields, strings.TrimSpace(f))
			starts = append(starts, start+lead)
			start = i + 1
		}
	}
	return
}

// countColumn is what a .count column holds: a main counter (cXmitData
// …), numMain for an error counter (summed into Errors), −1 for others.
func countColumn(h string) int {
	switch h {
	case "xmit_data":
		return cXmitData
	case "rcv_data":
		return cRcvData
	case "xmit_pkts":
		return cXmitPkts
	case "rcv_pkts":
		return cRcvPkts
	case "xmit_wait":
		return cXmitWait
	case "rcv_err", "rcv_switch_relay_err", "rcv_rem_phys_err", "rcv_constraint_err",
		"xmit_discards", "xmit_constraint_err", "symbol_err_cnt", "vl15_dropped",
		"buffer_overrun", "link_downed", "link_err_recover", "link_integrity", "errors":
		return numMain
	}
	return -1
}

// csvFieldsBytes is csvFields on bytes, appending to fields and starts.
func csvFieldsBytes(s []byte, fields [][]byte, starts []int) ([][]byte, []int) {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			f := s[start:i]
			lead := len(f) - len(trimLeft(f))
			f = trimRight(f[lead:])
			fields = append(fields, f)
			starts = append(starts, start+lead)
			start = i + 1
		}
	}
	return fields, starts
}

// trimLeft drops leading spaces and tabs.
func trimLeft(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

// trimRight drops trailing spaces, tabs and a carriage return.
func trimRight(b []byte) []byte {
	n := len(b)
	for n > 0 && (b[n-1] == ' ' || b[n-1] == '\t' || b[n-1] == '\r') {
		n--
	}
	return b[:n]
}

// decimal is the value of b, a whole number in ASCII digits; ok is false
// for anything else, or above 2^64−1.
func decimal(b []byte) (v uint64, ok bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (math.MaxUint64-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// countReader reads one .count file, with the scratch of the worker
// reading it.
type countReader func(cf timedFile, scratch *countScratch) (fattree.Snapshot, []Warning, error)

// readCounts reads the .count files with read on as many goroutines as
// there are CPUs, each with its own scratch, and hands each snapshot to
// use, in the files' order, as soon as it and those before it are read.
// The error is the first in that order: a file's, or use's; once a file
// has failed no further file starts. read is readCountFile outside tests
// (a parameter so that a test can make one file's reading fail or panic
// on a worker).
func readCounts(counts []timedFile, f *fattree.Fabric, read countReader, use func(k int, s fattree.Snapshot) error) ([]Warning, error) {
	type result struct {
		s     fattree.Snapshot
		warns []Warning
	}
	workers := parallel.Workers(0, len(counts))
	scratch := make([]*countScratch, workers) // made on a worker's first file
	var warns []Warning
	// The window is every file: workers read on as fast as they can, as
	// they always have.
	err := parallel.Ordered(context.Background(), workers, len(counts), len(counts),
		func(w, k int) (result, error) {
			if scratch[w] == nil {
				scratch[w] = newCountScratch(f)
			}
			s, ws, err := read(counts[k], scratch[w])
			return result{s, ws}, err
		},
		func(k int, r result) error {
			if err := use(k, r.s); err != nil {
				return err
			}
			warns = append(warns, r.warns...)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return warns, nil
}

// readCountFile opens and reads the .count file cf.
func readCountFile(cf timedFile, f *fattree.Fabric, dev devIndex, opt PerfqueryOptions, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
	r, err := os.Open(cf.path)
	if err != nil {
		return fattree.Snapshot{}, nil, err
	}
	defer r.Close()
	return readCount(r, cf.path, f, dev, cf.t, opt, scratch)
}

// countScratch remembers, for one file at a time, the line where each
// port of a known device was seen: entry (device, port) holds the file's
// stamp and the line, so a new file needs no clearing.
type countScratch struct {
	stamp uint32
	seen  []uint64 // (nodes + switches) × 256 ports
}

func newCountScratch(f *fattree.Fabric) *countScratch {
	return &countScratch{seen: make([]uint64, (len(f.Nodes)+len(f.Switches))*256)}
}

// see records port of device id (a node ≥ 0 or −1 − switch) at line and
// returns the line it was first seen at in this file, or 0.
func (c *countScratch) see(f *fattree.Fabric, id, port, line int) int {
	k := id
	if id < 0 {
		k = len(f.Nodes) - 1 - id
	}
	k = k*256 + port
	if e := c.seen[k]; uint32(e>>32) == c.stamp {
		return int(uint32(e))
	}
	c.seen[k] = uint64(c.stamp)<<32 | uint64(uint32(line))
	return 0
}

// readCount reads one .count file into a snapshot at t; scratch, if not
// nil, is reused from file to file.
func readCount(r io.Reader, name string, f *fattree.Fabric, dev devIndex, t time.Time, opt PerfqueryOptions, scratch *countScratch) (fattree.Snapshot, []Warning, error) {
	lr := linereader.New(r, name, maxLine)
	line := 0
	errAt := func(col int, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	col := map[string]int{}
	var header []string
	var kinds []int // per column: a main counter, numMain for an error counter, −1 for others
	var blocks []*pqBlock
	// TreeScope's counters files give ports by GUID: make up a LID per
	// device for mapPorts, which works on LIDs.
	type pk struct {
		guid uint64
		port int
	}
	// Ports seen: of known devices in sc's table (line and file stamp),
	// of unknown ones in a map.
	sc2 := scratch
	if sc2 == nil {
		sc2 = newCountScratch(f)
	}
	sc2.stamp++
	var seenUnknown map[pk]int
	var slab []pqBlock // blocks are allocated in slabs: a file has thousands
	var warns []Warning
	var unknown summary
	// Data lines are parsed as bytes, with no string per line: a day of
	// counters on Paper1296 is 11 M lines.
	var fs [][]byte
	var at []int
	gi, pi := -1, -1
	var lastGUID uint64
	lastID, lastKnown, haveLast, lastLabel := 0, false, false, ""
	for lr.Next() {
		line = lr.Line()
		raw := trimRight(lr.Bytes())
		if len(trimLeft(raw)) == 0 {
			continue
		}
		if header == nil {
			text := string(raw)
			hs, hat := csvFields(text)
			header = hs
			for i, h := range hs {
				if _, dup := col[h]; dup {
					return fattree.Snapshot{}, nil, errAt(hat[i]+1, "expected each column once in the header, found %q again", h)
				}
				col[h] = i
			}
			kinds = make([]int, len(hs))
			for i, h := range hs {
				kinds[i] = countColumn(h)
			}
			for _, req := range []string{"node_id", "port_idx"} {
				if _, ok := col[req]; !ok {
					return fattree.Snapshot{}, nil, errAt(0, "expected a header with the columns node_id and port_idx, found no %s", req)
				}
			}
			gi, pi = col["node_id"], col["port_idx"]
			continue
		}
		fs, at = csvFieldsBytes(raw, fs[:0], at[:0])
		if len(fs) != len(header) {
			return fattree.Snapshot{}, nil, errAt(len(raw)+1, "expected %d fields as the header names, found %d", len(header), len(fs))
		}
		guid, ok := parseGUID(fs[gi])
		if !ok {
			return fattree.Snapshot{}, nil, errAt(at[gi]+1, "expected a device GUID in node_id, found %s", strconv.Quote(string(fs[gi])))
		}
		p, ok := decimal(fs[pi])
		if !ok || p > 255 {
			return fattree.Snapshot{}, nil, errAt(at[pi]+1, "expected a port number (0 to 255) in port_idx, found %s", strconv.Quote(string(fs[pi])))
		}
		port := int(p)
		// A switch's ports come one after another: look its GUID up once.
		if !haveLast || guid != lastGUID {
			lastID, lastKnown = dev[guid]
			lastGUID, haveLast, lastLabel = guid, true, string(fs[gi])
		}
		first := 0
		if lastKnown {
			first = sc2.see(f, lastID, port, line)
		} else {
			if seenUnknown == nil {
				seenUnknown = map[pk]int{}
			}
			if l, dup := seenUnknown[pk{guid, port}]; dup {
				first = l
			} else {
				seenUnknown[pk{guid, port}] = line
			}
		}
		if first > 0 {
			return fattree.Snapshot{}, nil, errAt(at[gi]+1, "expected each port once, found %s port %d again (first at line %d)", fs[gi], port, first)
		}
		if len(slab) == cap(slab) {
			slab = make([]pqBlock, 0, 4096)
		}
		slab = append(slab, pqBlock{port: port, ext: true, line: line})
		b := &slab[len(slab)-1]
		for i, k := range kinds {
			if k < 0 {
				continue
			}
			v, ok := decimal(fs[i])
			if !ok {
				// bytes may be written as a float by some tools: accept whole numbers
				fv, ferr := strconv.ParseFloat(string(fs[i]), 64)
				if ferr != nil || fv < 0 || fv != math.Trunc(fv) || fv >= 1<<64 {
					return fattree.Snapshot{}, nil, errAt(at[i]+1, "expected a counter value (a whole number ≥ 0) in %s, found %s", header[i], strconv.Quote(string(fs[i])))
				}
				v = uint64(fv)
			}
			if k < numMain {
				b.v[k], b.has[k] = v, true
			} else if b.errors+v < b.errors {
				b.errors = math.MaxUint64
			} else {
				b.errors += v
			}
		}
		if !lastKnown {
			unknown.add(line, lastLabel)
			continue
		}
		b.lid = lastID // the device: a node (≥ 0) or −1 − switch id
		b.label = lastLabel
		blocks = append(blocks, b)
	}
	if err := lr.Err(); err != nil {
		return fattree.Snapshot{}, nil, scanError(name, err)
	}
	if header == nil {
		return fattree.Snapshot{}, nil, &ParseError{File: name, Msg: "expected a CSV header node_id,port_idx,…, found an empty file"}
	}
	if unknown.n > 0 {
		warns = append(warns, Warning{File: name, Line: unknown.line, Msg: fmt.Sprintf("%d rows of devices that are not in network.topo, left out: %s", unknown.n, unknown.list())})
	}
	links, warns := mapPorts(f, opt, name, blocks, warns, 1, func(b *pqBlock) (int, int, bool) {
		if b.lid >= 0 {
			return -1, b.lid, true
		}
		return -1 - b.lid, -1, true
	})
	return fattree.Snapshot{Time: t, Where: name, Links: links}, warns, nil
}

// readRTable reads one .rtable file: a header line, then per switch its
// GUID and "lid:port" fields.
func readRTable(r io.Reader, name string, f *fattree.Fabric, dev devIndex) (*fattree.Table, []Warning, error) {
	lr := linereader.New(r, name, maxLine)
	line := 0
	errAt := func(col int, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	tab := fattree.NewTable(f)
	lidNode := map[int]int{}
	lidSwitch := map[int]int{}
	for i, n := range f.Nodes {
		if n.LID != 0 {
			lidNode[int(n.LID)] = i
		}
	}
	for i, s := range f.Switches {
		if s.LID != 0 {
			lidSwitch[int(s.LID)] = i
		}
	}
	seenSw := make([]int, len(f.Switches))
	var warns []Warning
	var unknownSw, unknownLID summary
	header := false
	routed := make([]int, len(f.Nodes)) // line of the switch that routed it last
	for lr.Next() {
		line = lr.Line()
		text := strings.TrimRight(lr.Text(), " \t\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if !header {
			header = true // "nodeid, lid:portnum, lid:portnum, ...."
			continue
		}
		fs, at := csvFields(text)
		guid, ok := parseGUID(fs[0])
		if !ok {
			return nil, nil, errAt(at[0]+1, "expected a switch GUID, found %s", strconv.Quote(fs[0]))
		}
		id, known := dev[guid]
		sw := -1 - id
		if !known || id >= 0 {
			unknownSw.add(line, fs[0])
			sw = -1
		} else if seenSw[sw] > 0 {
			return nil, nil, errAt(at[0]+1, "expected each switch once, found %s again (first at line %d)", fs[0], seenSw[sw])
		} else {
			seenSw[sw] = line
		}
		badPort := 0
		seenLID := map[int]bool{}
		for i := 1; i < len(fs); i++ {
			if fs[i] == "" && i == len(fs)-1 {
				break // a trailing comma
			}
			c := strings.IndexByte(fs[i], ':')
			if c < 0 {
				return nil, nil, errAt(at[i]+1, "expected lid:port, found %s", strconv.Quote(fs[i]))
			}
			lid, err := strconv.Atoi(fs[i][:c])
			if err != nil || lid < 1 || lid > maxLID {
				return nil, nil, errAt(at[i]+1, "expected a LID (1 to %d), found %s", maxLID, strconv.Quote(fs[i][:c]))
			}
			port, err := strconv.Atoi(fs[i][c+1:])
			if err != nil || port < 0 || port > 255 {
				return nil, nil, errAt(at[i]+c+2, "expected a port (0 to 255), found %s", strconv.Quote(fs[i][c+1:]))
			}
			if seenLID[lid] {
				return nil, nil, errAt(at[i]+1, "expected each LID once per switch, found %d again", lid)
			}
			seenLID[lid] = true
			if sw < 0 {
				continue
			}
			n, isNode := lidNode[lid]
			dsw, isSwitch := lidSwitch[lid]
			switch {
			case !isNode && !isSwitch:
				unknownLID.add(line, strconv.Itoa(lid))
				continue
			case !isNode && dsw == sw && port == 0:
				continue // the switch's own LID: no route out
			}
			mp := f.ModelPort(sw, port)
			if mp == 0 {
				badPort++
				continue
			}
			if !isNode {
				tab.SetSwitchRoute(sw, dsw, mp)
				continue
			}
			tab.SetPort(sw, n, mp)
			routed[n] = line
		}
		if sw < 0 {
			continue
		}
		if badPort > 0 {
			warns = append(warns, Warning{File: name, Line: line, Msg: fmt.Sprintf("switch %s: %d routes through a port the fabric does not have there (port 0 or not cabled), left out", f.Switches[sw].Name, badPort)})
		}
		var missing summary
		for n, node := range f.Nodes {
			if node.LID != 0 && routed[n] != line {
				missing.add(line, node.Name)
			}
		}
		if missing.n > 0 {
			warns = append(warns, Warning{File: name, Line: line, Msg: fmt.Sprintf("switch %s has no route to %d nodes: %s", f.Switches[sw].Name, missing.n, missing.list())})
		}
	}
	if err := lr.Err(); err != nil {
		return nil, nil, scanError(name, err)
	}
	if unknownSw.n > 0 {
		warns = append(warns, Warning{File: name, Line: unknownSw.line, Msg: fmt.Sprintf("%d tables of devices that are no switch of network.topo, left out: %s", unknownSw.n, unknownSw.list())})
	}
	if unknownLID.n > 0 {
		warns = append(warns, Warning{File: name, Line: unknownLID.line, Msg: fmt.Sprintf("%d entries name LIDs that are no device of network.topo, left out: %s", unknownLID.n, unknownLID.list())})
	}
	var missing summary
	for sw, at := range seenSw {
		if at == 0 && f.Switches[sw].GUID != 0 {
			missing.add(0, f.Switches[sw].Name)
		}
	}
	if missing.n > 0 {
		warns = append(warns, Warning{File: name, Msg: fmt.Sprintf("%d switches of the fabric have no table in the file: %s", missing.n, missing.list())})
	}
	return tab, warns, nil
}

// WriteTreeScope writes d as a TreeScope v1.0 data directory that
// ReadTreeScope reads back to the same Fabric, counters, routings and
// jobs (and that TreeScope itself can open): network.topo (the discovered
// devices, GUID ≠ 0, with their real port numbers, and TreeScope's
// "lvl", "pod", "idx" and "core", the bundle's name), one .count file at
// d.Start (zeros, the baseline) and one at every time of d.Counters
// (cumulative sums of the rows, node_id, port_idx, rcv_data, xmit_data,
// rcv_pkts, xmit_pkts, xmit_wait and errors of every cabled port, under
// the physical direction: a link's values are its source port's
// transmit counters and its destination port's receive counters, and its
// errors are its source port's), one .rtable per routing (d.Routings'
// From; the port of every switch and node with a LID, when the routing
// has one), slurmqlog/sqlog.txt when d has jobs (sqlog's short format:
// the jobs' Start and Elapsed, their node names as a hostlist) and
// listing.txt. It creates dir if needed and overwrites those files.
//
// It fails when d has no Fabric, when counters rows are not in time order
// or name a link that the Fabric does not have, when d.Start is not before
// the first row's time, when times are not whole seconds in UTC's file
// names' range, when a cumulative counter exceeds the int64 range, on a
// negative counter, and on I/O errors.
func WriteTreeScope(dir string, d *TreeScopeData) error {
	if d == nil || d.Fabric == nil {
		return errors.New("infiniband: WriteTreeScope: no fabric")
	}
	f := d.Fabric
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var listing []string
	write := func(name string, fill func(w *bufio.Writer) error) error {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		file, err := os.Create(path)
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(file)
		err = fill(bw)
		if e := bw.Flush(); err == nil {
			err = e
		}
		if e := file.Close(); err == nil {
			err = e
		}
		return err
	}
	if err := write(TopoFile, func(w *bufio.Writer) error { return writeTopo(w, f, d.Name) }); err != nil {
		return err
	}

	// counters: cumulative per link
	if len(d.Counters) > 0 {
		if !d.Start.Before(d.Counters[0].Time) {
			return fmt.Errorf("infiniband: WriteTreeScope: Start %s is not before the first counters row (%s)", d.Start.UTC().Format(time.RFC3339), d.Counters[0].Time.UTC().Format(time.RFC3339))
		}
		cum := make([][4]int64, len(f.Links))
		emit := func(t time.Time) error {
			name := t.UTC().Format(SnapshotLayout) + ".count"
			if tt, ok := snapshotTime(t.UTC().Format(SnapshotLayout)); !ok || !tt.Equal(t) {
				return fmt.Errorf("infiniband: WriteTreeScope: time %s is not a whole second that a file name can hold", t)
			}
			listing = append(listing, name)
			return write(name, func(w *bufio.Writer) error { return writeCount(w, f, cum) })
		}
		if err := emit(d.Start); err != nil {
			return err
		}
		for i := 0; i < len(d.Counters); {
			t := d.Counters[i].Time
			for ; i < len(d.Counters) && d.Counters[i].Time.Equal(t); i++ {
				r := d.Counters[i]
				if r.Link < 0 || r.Link >= len(f.Links) {
					return fmt.Errorf("infiniband: WriteTreeScope: counters row %d names link %d (the fabric has %d)", i, r.Link, len(f.Links))
				}
				for k, v := range [4]int64{r.Bytes, r.Packets, r.XmitWait, r.Errors} {
					if v < 0 || cum[r.Link][k] > math.MaxInt64-v {
						return fmt.Errorf("infiniband: WriteTreeScope: counters row %d: a negative value or a sum beyond the int64 range", i)
					}
					cum[r.Link][k] += v
				}
			}
			if i < len(d.Counters) && !d.Counters[i].Time.After(t) {
				return fmt.Errorf("infiniband: WriteTreeScope: counters row %d is not in time order", i)
			}
			if err := emit(t); err != nil {
				return err
			}
		}
	}
	for _, tr := range d.Routings {
		name := tr.From.UTC().Format(SnapshotLayout) + ".rtable"
		listing = append(listing, name)
		if err := write(name, func(w *bufio.Writer) error { return writeRTable(w, f, tr.Routing) }); err != nil {
			return err
		}
	}
	if len(d.Jobs) > 0 {
		if err := write(SqlogFile, func(w *bufio.Writer) error { return writeSqlog(w, d.Jobs) }); err != nil {
			return err
		}
	}
	return write(ListingFile, func(w *bufio.Writer) error {
		for _, l := range listing {
			w.WriteString(l + "\n")
		}
		return nil
	})
}

// writeCount writes one counters file: a row per cabled port.
func writeCount(w *bufio.Writer, f *fattree.Fabric, cum [][4]int64) error {
	w.WriteString("node_id,port_idx,rcv_data,xmit_data,rcv_pkts,xmit_pkts,xmit_wait,errors\n")
	row := func(guid uint64, port int, in, out int) {
		fmt.Fprintf(w, "%s,%d,%d,%d,%d,%d,%d,%d\n", colonGUID(guid), port, cum[in][0], cum[out][0], cum[in][1], cum[out][1], cum[out][2], cum[out][3])
	}
	for i, n := range f.Nodes {
		if n.GUID != 0 && f.NodeHCAPort(i) > 0 {
			row(n.GUID, f.NodeHCAPort(i), n.Down, n.Up)
		}
	}
	for i, s := range f.Switches {
		if s.GUID == 0 {
			continue
		}
		for p, port := range s.Ports {
			if pp := f.PhysicalPort(i, p+1); pp > 0 {
				row(s.GUID, pp, port.In, port.Out)
			}
		}
	}
	return nil
}

// writeRTable writes one routing file.
func writeRTable(w *bufio.Writer, f *fattree.Fabric, r fattree.Routing) error {
	w.WriteString("nodeid, lid:portnum, lid:portnum, ....\n")
	order := make([]int, 0, len(f.Nodes))
	for i, n := range f.Nodes {
		if n.LID != 0 {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool { return f.Nodes[order[a]].LID < f.Nodes[order[b]].LID })
	for sw, s := range f.Switches {
		if s.GUID == 0 {
			continue
		}
		w.WriteString(colonGUID(s.GUID))
		for _, n := range order {
			mp := r.Port(sw, n)
			if mp == 0 {
				continue
			}
			if pp := f.PhysicalPort(sw, mp); pp > 0 {
				fmt.Fprintf(w, ",%d:%d", f.Nodes[n].LID, pp)
			}
		}
		if sr, ok := r.(fattree.SwitchRouting); ok {
			for d, o := range f.Switches {
				if o.LID == 0 {
					continue
				}
				if d == sw {
					fmt.Fprintf(w, ",%d:0", o.LID)
				} else if pp := f.PhysicalPort(sw, sr.SwitchRoute(sw, d)); pp > 0 {
					fmt.Fprintf(w, ",%d:%d", o.LID, pp)
				}
			}
		}
		w.WriteString("\n")
	}
	return nil
}

// writeSqlog writes jobs in sqlog's short format, each column
// right-justified under the end of its name.
func writeSqlog(w *bufio.Writer, jobs []TreeScopeJob) error {
	names := []string{"JOBID", "PART", "NAME", "USER", "ST", "START", "TIME", "N", "NODELIST"}
	rows := make([][]string, len(jobs))
	width := make([]int, len(names))
	for i, n := range names {
		width[i] = len(n)
	}
	for i, tj := range jobs {
		j := tj.Job
		el := j.Elapsed
		if el == 0 && !j.Start.IsZero() && !j.End.IsZero() {
			el = j.End.Sub(j.Start)
		}
		secs := int64(el / time.Second)
		tm := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
		if secs >= 86400 {
			tm = fmt.Sprintf("%d-%02d:%02d:%02d", secs/86400, secs/3600%24, secs/60%60, secs%60)
		}
		start := "N/A"
		if !j.Start.IsZero() {
			start = j.Start.UTC().Format("01/02-15:04:05")
		}
		nn := j.NNodes
		if nn == 0 {
			nn = len(j.Nodes)
		}
		rows[i] = []string{j.ID, dash(j.Partition), dash(j.Name), dash(j.User), dash(j.State), start, tm, strconv.Itoa(nn), slurm.CompressHostlist(j.Nodes)}
		for c, v := range rows[i][:len(names)-1] {
			if strings.ContainsAny(v, " \t") {
				return fmt.Errorf("infiniband: WriteTreeScope: job %s: %s %q has a blank, which sqlog's columns cannot hold", j.ID, names[c], v)
			}
			width[c] = max(width[c], len(v))
		}
	}
	line := func(vals []string) {
		for c, v := range vals {
			if c > 0 {
				w.WriteByte(' ')
			}
			if c == len(vals)-1 {
				w.WriteString(v)
				continue
			}
			w.WriteString(strings.Repeat(" ", width[c]-len(v)) + v)
		}
		w.WriteByte('\n')
	}
	// the last column's name sits at its start, values are left-aligned
	width[len(names)-1] = len(names[len(names)-1])
	line(names)
	for _, r := range rows {
		line(r)
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
