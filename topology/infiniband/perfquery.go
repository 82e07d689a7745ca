package infiniband

import (
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
	"superstep/topology/fattree"
)

// SnapshotLayout is how TreeScope names a snapshot file: its time in UTC,
// "YYYYmmdd-HHMMSS" (time.Format's layout).
const SnapshotLayout = "20060102-150405"

// The counters ReadPerfquery uses, by their perfquery names.
const (
	cXmitData = iota
	cRcvData
	cXmitPkts
	cRcvPkts
	cXmitWait
	numMain
)

var counterIndex = map[string]int{
	"PortXmitData": cXmitData,
	"PortRcvData":  cRcvData,
	"PortXmitPkts": cXmitPkts,
	"PortRcvPkts":  cRcvPkts,
	"PortXmitWait": cXmitWait,
}

// errorCounters are the perfquery counters whose sum is a link's Errors
// (the plain output's error counters; QP1Dropped, which counts management
// packets dropped for want of a buffer, is not among them).
var errorCounters = [...]string{
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
	"PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "VL15Dropped",
}

var isErrorCounter = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range errorCounters {
		m[n] = true
	}
	return m
}()

// pqBlock is one port's output.
type pqBlock struct {
	lid, port int
	ext       bool
	line      int
	has       [numMain]bool
	v         [numMain]uint64
	errors    uint64
	hasErrors bool
	names     map[string]bool // counters seen, for duplicates
	label     string          // the device, for messages: "Lid 12"
}

// mulSat is a·b, or 2^64−1 when that overflows.
func mulSat(a, b uint64) uint64 {
	if b != 0 && a > math.MaxUint64/b {
		return math.MaxUint64
	}
	return a * b
}

// ReadPerfquery reads one snapshot of a fabric's port counters: the
// concatenated outputs of perfquery (infiniband-diags) for some ports,
// plain (32-bit counters) or with -x (extended, 64-bit), each a block
//
//	# Port counters: Lid 12 port 1 (CapMask: 0x1300)
//	PortXmitData:....................864
//	...
//	# Port extended counters: Lid 12 port 1 (CapMask: 0x1300 CapMask2: 0x0000000)
//	PortXmitData:....................864
//
// read at time t. name is the file name used in errors and warnings.
//
// A block's LID is a switch's or a node's LID in f; a switch's port is
// mapped to f's with f.ModelPort, a node's must be its cabled HCA port
// (f.NodeHCAPort). The port's receive and transmit counters belong to the
// directed links that fattree.SwitchPort or fattree.NodePort give under
// d. Each directed link is listed once in the Snapshot: from the transmit
// counters of the port whose transmit counter d assigns to it (its
// source's, under PortDirection) when that port was read, otherwise from
// the receive counters of the other end (ReadPerfqueryWith chooses
// otherwise: Receive, Max, TreeScope). When both ends were read their
// bytes are compared, and a disagreement beyond DefaultTolerance (1%,
// and at least MinDisagreement bytes) is a warning with both values and
// both positions.
//
// Of the values, Bytes is 4 × PortXmitData (or PortRcvData), which count
// 4-byte words; Packets is PortXmitPkts (PortRcvPkts); XmitWait is the
// port's PortXmitWait when the block has it (plain output), 0 otherwise,
// and for a value read from a receive counter; Errors is the sum of the
// port's error counters (SymbolErrorCounter, LinkErrorRecoveryCounter,
// LinkDownedCounter, PortRcvErrors, PortRcvRemotePhysicalErrors,
// PortRcvSwitchRelayErrors, PortXmitDiscards, PortXmitConstraintErrors,
// PortRcvConstraintErrors, LocalLinkIntegrityErrors,
// ExcessiveBufferOverrunErrors, VL15Dropped; not QP1Dropped) that the
// block lists (the plain output's; an extended block has none), so the errors of a port go to the link whose
// value it gives. Bits is 32 for a plain block and 64 for an extended one;
// when a file has both for a port, the extended one gives bytes and
// packets, the plain one XmitWait and Errors. A plain block's bytes can
// exceed 2^32−1 (4 bytes a word): its values are then given as 64-bit
// (fattree.Deltas would refuse them as 32-bit), and a 32-bit data counter
// stuck at 2^32−1 is reported by a warning of ReadPerfquery rather than
// flagged by Deltas. LinkCounters.Line is the line of the block.
//
// Warnings (file:line): blocks of LIDs that are no device of f, and
// blocks of ports that f does not have (a free switch port, a node's
// other HCA port, the aggregate port 255): one warning each per file with
// the count and the first few; directed links of f that no block gives
// (one warning with the count and the first few); saturated 32-bit data
// counters (one per block); ports with both a plain and an extended
// block, whose plain data and packet counters are left out (one warning
// with the count and the first few); links whose two ends disagree (the
// first few in full, then one with the count). Counters other than those
// named above (PortSelect, CounterSelect, QP1Dropped, the unicast and
// multicast packet counters) say nothing about a link's traffic and are
// not read.
//
// Errors are *ParseError: a line that is no block header, "Name:....value"
// line or blank line; a counter line before the first header; a bad LID
// or port in a header; a counter that ReadPerfquery uses (or an error
// counter) whose value is not a decimal number of the block's width; a
// counter listed twice in a block; a port listed twice with the same kind
// of block; a file without any block; a line longer than 1 MiB; a read
// error. d must be PortDirection or TreeScopeDirection.
func ReadPerfquery(r io.Reader, name string, f *fattree.Fabric, t time.Time, d fattree.Direction) (fattree.Snapshot, []Warning, error) {
	if d != fattree.PortDirection && d != fattree.TreeScopeDirection {
		return fattree.Snapshot{}, nil, fmt.Errorf("infiniband: ReadPerfquery: unknown direction %v", d)
	}
	return ReadPerfqueryWith(r, name, f, t, PerfqueryOptions{Direction: d})
}

// ReadPerfqueryWith is ReadPerfquery with options: the direction, the
// end whose counters a link gets when both were read (opt.Source:
// Transmit, Receive, Max, or TreeScope's receive counters on the
// reversed direction) and the disagreement between the two ends that is
// accepted without a warning (opt.Tolerance). Whatever the source, a link
// whose two ends were both read is checked: transmitted and received
// bytes that differ by more than the tolerance give a warning with both
// values, both ports and both file:line positions (the first few links
// in full, then one warning with the count). It fails as ReadPerfquery
// does, and for an option out of range.
func ReadPerfqueryWith(r io.Reader, name string, f *fattree.Fabric, t time.Time, opt PerfqueryOptions) (fattree.Snapshot, []Warning, error) {
	if err := opt.check("ReadPerfquery"); err != nil {
		return fattree.Snapshot{}, nil, err
	}
	p := &pqReader{file: name}
	if err := p.read(r); err != nil {
		return fattree.Snapshot{}, nil, err
	}
	snap := fattree.Snapshot{Time: t, Where: name}
	lidSw := map[int]int{}
	lidNode := map[int]int{}
	for i, n := range f.Nodes {
		if n.LID != 0 {
			lidNode[int(n.LID)] = i
		}
	}
	for i, s := range f.Switches {
		if s.LID != 0 {
			lidSw[int(s.LID)] = i
		}
	}
	snap.Links, p.warns = mapPorts(f, opt, name, p.blocks, p.warns, 4, func(b *pqBlock) (int, int, bool) {
		if sw, ok := lidSw[b.lid]; ok {
			return sw, -1, true
		}
		if n, ok := lidNode[b.lid]; ok {
			return -1, n, true
		}
		return -1, -1, false
	})
	return snap, p.warns, nil
}

type pqReader struct {
	file   string
	line   int
	text   string
	blocks []*pqBlock
	cur    *pqBlock
	seen   map[[3]int]int // lid, port, ext → line
	warns  []Warning
}

func (p *pqReader) errAt(col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *pqReader) expected(i int, what string) error {
	return p.errAt(i+1, "expected %s, found %s", what, found(p.text, i))
}

func (p *pqReader) read(r io.Reader) error {
	lr := linereader.New(r, p.file, maxLine)
	p.seen = map[[3]int]int{}
	for lr.Next() {
		p.line = lr.Line()
		p.text = strings.TrimRight(lr.Text(), " \t\r")
		if err := p.lineOf(); err != nil {
			return err
		}
	}
	if err := lr.Err(); err != nil {
		return scanError(p.file, err)
	}
	if len(p.blocks) == 0 {
		return &ParseError{File: p.file, Msg: `expected perfquery output ("# Port counters: Lid L port P" blocks), found no block`}
	}
	return nil
}

const (
	plainHeader = "# Port counters: "
	extHeader   = "# Port extended counters: "
)

func (p *pqReader) lineOf() error {
	s := p.text
	i := skipSpace(s, 0)
	if i == len(s) {
		return nil
	}
	if s[i] == '#' {
		switch {
		case strings.HasPrefix(s[i:], plainHeader):
			return p.header(i+len(plainHeader), false)
		case strings.HasPrefix(s[i:], extHeader):
			return p.header(i+len(extHeader), true)
		}
		return p.expected(i, `"# Port counters:" or "# Port extended counters:"`)
	}
	colon := strings.IndexByte(s, ':')
	if colon <= i || strings.ContainsAny(s[i:colon], " \t") {
		return p.expected(i, `a block header "# Port counters: Lid L port P" or a counter "Name:....value"`)
	}
	if p.cur == nil {
		return p.expected(i, `a block header "# Port counters: Lid L port P" before the first counter`)
	}
	cname := s[i:colon]
	j := colon + 1
	for j < len(s) && s[j] == '.' {
		j++
	}
	k, main := counterIndex[cname]
	if !main && !isErrorCounter[cname] {
		return nil // a counter ReadPerfquery does not use
	}
	b := p.cur
	if b.names[cname] {
		return p.errAt(i+1, "expected each counter once in a block, found %s again", cname)
	}
	b.names[cname] = true
	bits := 32
	if b.ext {
		bits = 64
	}
	v, err := strconv.ParseUint(s[j:], 10, bits)
	if err != nil || j == len(s) {
		return p.expected(j, fmt.Sprintf("a decimal %d-bit counter value", bits))
	}
	if main {
		b.v[k], b.has[k] = v, true
	} else {
		if b.errors+v < b.errors {
			b.errors = math.MaxUint64 // 64-bit error counters that sum above 2^64−1
		} else {
			b.errors += v
		}
		b.hasErrors = true
	}
	return nil
}

// header reads "Lid L port P" and the rest of a block header.
func (p *pqReader) header(i int, ext bool) error {
	s := p.text
	if !strings.HasPrefix(s[i:], "Lid ") {
		return p.expected(i, `"Lid"`)
	}
	i += 4
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	lid, err := strconv.Atoi(s[i:j])
	if err != nil || lid < 1 || lid > maxLID {
		return p.expected(i, fmt.Sprintf("a LID (1 to %d)", maxLID))
	}
	if !strings.HasPrefix(s[j:], " port ") {
		return p.expected(skipSpace(s, j), `" port" and the port number`)
	}
	i = j + 6
	j = i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	port, err := strconv.Atoi(s[i:j])
	if err != nil || port > 255 {
		return p.expected(i, "a port number (0 to 255)")
	}
	if j < len(s) && s[j] != ' ' {
		return p.expected(j, "the end of the port number")
	}
	key := [3]int{lid, port, 0}
	if ext {
		key[2] = 1
	}
	if at, ok := p.seen[key]; ok {
		return p.errAt(1, "expected each port once per kind of block, found Lid %d port %d again (first at line %d)", lid, port, at)
	}
	p.seen[key] = p.line
	p.cur = &pqBlock{lid: lid, port: port, ext: ext, line: p.line, names: map[string]bool{}, label: "Lid " + strconv.Itoa(lid)}
	p.blocks = append(p.blocks, p.cur)
	return nil
}

// mapPorts turns the blocks of one file into each link's counters.
// resolve says which device a block is about: a switch id (sw ≥ 0) or a
// node (node ≥ 0), ok false when the fabric has no such device. Data
// counters are multiplied by scale (4 for perfquery's words).
func mapPorts(f *fattree.Fabric, opt PerfqueryOptions, file string, blocks []*pqBlock, warns []Warning, scale uint64,
	resolve func(b *pqBlock) (sw, node int, ok bool)) ([]fattree.LinkCounters, []Warning) {
	d := opt.direction()
	// merge the plain and extended blocks of one port
	type portKey struct{ sw, node, port int }
	type portBlocks struct {
		k portKey
		m [2]*pqBlock // plain, extended
	}
	ports := make([]portBlocks, 0, len(blocks))
	var unknown, noPort, both summary
	allExt := true
	for _, b := range blocks {
		allExt = allExt && b.ext
	}
	if allExt {
		// One block a port (the callers refuse a port twice): nothing to merge.
		for _, b := range blocks {
			sw, node, ok := resolve(b)
			if !ok {
				unknown.add(b.line, b.label)
				continue
			}
			ports = append(ports, portBlocks{portKey{sw, node, b.port}, [2]*pqBlock{nil, b}})
		}
	} else {
		index := make(map[portKey]int, len(blocks))
		for _, b := range blocks {
			sw, node, ok := resolve(b)
			if !ok {
				unknown.add(b.line, b.label)
				continue
			}
			k := portKey{sw, node, b.port}
			i, ok := index[k]
			if !ok {
				i = len(ports)
				index[k] = i
				ports = append(ports, portBlocks{k: k})
			}
			if b.ext {
				ports[i].m[1] = b
			} else {
				ports[i].m[0] = b
			}
		}
	}
	// By link id: the values from the transmit and the receive side.
	ends := linkEnds{tx: make([]portReading, len(f.Links)), rx: make([]portReading, len(f.Links))}
	for _, pb := range ports {
		k, m := pb.k, pb.m
		first := m[0]
		if first == nil || m[1] != nil && m[1].line < first.line {
			first = m[1]
		}
		if m[0] != nil && m[1] != nil && (m[0].has[cXmitData] || m[0].has[cRcvData] || m[0].has[cXmitPkts] || m[0].has[cRcvPkts]) {
			both.add(m[0].line, fmt.Sprintf("%s port %d (lines %d and %d)", first.label, k.port, m[0].line, m[1].line))
		}
		var rx, tx int
		var err error
		if k.sw >= 0 {
			mp := f.ModelPort(k.sw, k.port)
			if mp == 0 {
				noPort.add(first.line, fmt.Sprintf("%s port %d", f.Switches[k.sw].Name, k.port))
				continue
			}
			rx, tx, err = fattree.SwitchPort(f, k.sw, mp, d)
		} else {
			if k.port != f.NodeHCAPort(k.node) {
				noPort.add(first.line, fmt.Sprintf("%s port %d", f.Nodes[k.node].Name, k.port))
				continue
			}
			rx, tx, err = fattree.NodePort(f, k.node, d)
		}
		if err != nil { // cannot happen: the port exists and d was checked
			continue
		}
		var txv, rxv fattree.LinkCounters
		txv.Link, rxv.Link = tx, rx
		txv.Line, rxv.Line = first.line, first.line
		txv.Bits, rxv.Bits = 32, 32
		sat := false
		for _, b := range m {
			if b == nil {
				continue
			}
			if b.ext || m[1] == nil {
				if b.ext {
					txv.Bits, rxv.Bits = 64, 64
				}
				txv.Bytes, rxv.Bytes = mulSat(scale, b.v[cXmitData]), mulSat(scale, b.v[cRcvData])
				txv.Packets, rxv.Packets = b.v[cXmitPkts], b.v[cRcvPkts]
				if !b.ext && (b.v[cXmitData] == math.MaxUint32 || b.v[cRcvData] == math.MaxUint32) {
					sat = true
				}
			}
			if !b.ext || m[0] == nil {
				txv.XmitWait = b.v[cXmitWait]
				txv.Errors, rxv.Errors = b.errors, b.errors
			}
		}
		for _, lc := range []*fattree.LinkCounters{&txv, &rxv} {
			if lc.Bits == 32 && (lc.Bytes > math.MaxUint32 || lc.Errors > math.MaxUint32) {
				lc.Bits = 64
			}
		}
		if sat {
			warns = append(warns, Warning{File: file, Line: first.line, Msg: fmt.Sprintf("%s port %d: a 32-bit data counter is saturated at 2^32−1 words: its bytes are lower bounds", first.label, k.port)})
		}
		for _, b := range m {
			if b != nil {
				if b.has[cXmitData] {
					ends.tx[tx] = portReading{txv, first, k.port, true}
				}
				if b.has[cRcvData] {
					ends.rx[rx] = portReading{rxv, first, k.port, true}
				}
			}
		}
	}
	if both.n > 0 {
		warns = append(warns, Warning{File: file, Line: both.line, Msg: fmt.Sprintf("%d ports have both a plain and an extended block: the plain blocks' data and packet counters (32-bit) are left out for the extended ones: %s", both.n, both.list())})
	}
	if unknown.n > 0 {
		warns = append(warns, Warning{File: file, Line: unknown.line, Msg: fmt.Sprintf("%d blocks of devices that are not in the fabric, left out: %s", unknown.n, unknown.list())})
	}
	if noPort.n > 0 {
		warns = append(warns, Warning{File: file, Line: noPort.line, Msg: fmt.Sprintf("%d blocks of ports that the fabric does not have (free or irregular ports), left out: %s", noPort.n, noPort.list())})
	}
	return ends.choose(f, file, opt, warns)
}

// summary counts items for one warning and keeps the first few.
type summary struct {
	n     int
	line  int
	first []string
}

func (s *summary) add(line int, what string) {
	if s.n == 0 {
		s.line = line
	}
	s.n++
	if len(s.first) < maxListed {
		s.first = append(s.first, what)
	}
}

func (s *summary) list() string { return strings.Join(s.first, ", ") + more(s.n, len(s.first)) }

// linkName is "src port p -> dst port q" for link id of f.
func linkName(f *fattree.Fabric, id int) string {
	l := f.Links[id]
	end := func(level, i int) string {
		if level == 0 {
			return f.Nodes[i].Name
		}
		return f.Switches[i].Name
	}
	return fmt.Sprintf("%s[%d] -> %s[%d]", end(l.Kind.From(), l.From), l.FromPort, end(l.Kind.To(), l.To), l.ToPort)
}

// ReadPerfqueryDir reads every snapshot file of dir, as ReadPerfquery
// does: the files named by their time in UTC, "YYYYmmdd-HHMMSS"
// (SnapshotLayout, TreeScope's naming), with or without an extension
// ("20170301-000000.perfquery"), in time order. Other entries of dir
// (files of other names, subdirectories) are left out with a warning
// each, and so is a second file of the same time (another extension);
// a directory without any snapshot file gives a warning saying so. It
// fails when dir cannot be read, a file cannot be opened, or
// ReadPerfquery fails on a file (its *ParseError names the file by its
// path).
func ReadPerfqueryDir(dir string, f *fattree.Fabric, d fattree.Direction) ([]fattree.Snapshot, []Warning, error) {
	if d != fattree.PortDirection && d != fattree.TreeScopeDirection {
		return nil, nil, fmt.Errorf("infiniband: ReadPerfqueryDir: unknown direction %v", d)
	}
	return ReadPerfqueryDirWith(dir, f, PerfqueryOptions{Direction: d})
}

// ReadPerfqueryDirWith is ReadPerfqueryDir with ReadPerfqueryWith's
// options. For TreeScope's numbers, read with Source TreeScope and turn
// the snapshots into counters with fattree.DeltasWith(snaps,
// opt.ResetRule()).
func ReadPerfqueryDirWith(dir string, f *fattree.Fabric, opt PerfqueryOptions) ([]fattree.Snapshot, []Warning, error) {
	if err := opt.check("ReadPerfqueryDir"); err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("infiniband: ReadPerfqueryDir: %w", err)
	}
	type snapFile struct {
		name string
		t    time.Time
	}
	var files []snapFile
	var warns []Warning
	for _, e := range entries {
		t, ok := snapshotTime(e.Name())
		if !ok || e.IsDir() {
			warns = append(warns, Warning{File: filepath.Join(dir, e.Name()), Msg: "not a snapshot file (named YYYYmmdd-HHMMSS): left out"})
			continue
		}
		files = append(files, snapFile{e.Name(), t})
	}
	sort.SliceStable(files, func(a, b int) bool { return files[a].t.Before(files[b].t) })
	for i := 1; i < len(files); i++ {
		if files[i].t.Equal(files[i-1].t) {
			warns = append(warns, Warning{File: filepath.Join(dir, files[i].name), Msg: fmt.Sprintf("a second snapshot of the time of %s: left out", files[i-1].name)})
			files = append(files[:i], files[i+1:]...)
			i--
		}
	}
	if len(files) == 0 {
		warns = append(warns, Warning{File: dir, Msg: fmt.Sprintf("no snapshot file (named YYYYmmdd-HHMMSS, with or without an extension) among its %d entries: no snapshots", len(entries))})
	}
	snaps := make([]fattree.Snapshot, 0, len(files))
	for _, sf := range files {
		path := filepath.Join(dir, sf.name)
		r, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("infiniband: ReadPerfqueryDir: %w", err)
		}
		s, w, err := ReadPerfqueryWith(r, path, f, sf.t, opt)
		r.Close()
		if err != nil {
			return nil, nil, err
		}
		snaps = append(snaps, s)
		warns = append(warns, w...)
	}
	return snaps, warns, nil
}

// snapshotTime parses a file name "YYYYmmdd-HHMMSS" in UTC, exactly or
// followed by one extension: "." and at least one character other than
// '.' ("20170301-000000.perfquery").
func snapshotTime(name string) (time.Time, bool) {
	base := name
	if i := strings.IndexByte(name, '.'); i >= 0 {
		ext := name[i+1:]
		if ext == "" || strings.IndexByte(ext, '.') >= 0 {
			return time.Time{}, false
		}
		base = name[:i]
	}
	t, err := time.Parse(SnapshotLayout, base)
	if err != nil || t.Format(SnapshotLayout) != base {
		return time.Time{}, false
	}
	return t, true
}
