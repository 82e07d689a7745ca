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
// the receive counters of the other end.
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
// counters (one per block).
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
	snap.Links, p.warns = mapPorts(f, d, name, p.blocks, p.warns, 4, func(b *pqBlock) (int, int, bool) {
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
	lr := linereader.New(r, maxLine)
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
func mapPorts(f *fattree.Fabric, d fattree.Direction, file string, blocks []*pqBlock, warns []Warning, scale uint64,
	resolve func(b *pqBlock) (sw, node int, ok bool)) ([]fattree.LinkCounters, []Warning) {
	// merge the plain and extended blocks of one port
	type portKey struct{ sw, node, port int }
	type portBlocks struct {
		k portKey
		m [2]*pqBlock // plain, extended
	}
	ports := make([]portBlocks, 0, len(blocks))
	var unknown, noPort summary
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
	byTx := make([]fattree.LinkCounters, len(f.Links))
	byRx := make([]fattree.LinkCounters, len(f.Links))
	hasTx := make([]bool, len(f.Links))
	hasRx := make([]bool, len(f.Links))
	for _, pb := range ports {
		k, m := pb.k, pb.m
		first := m[0]
		if first == nil || m[1] != nil && m[1].line < first.line {
			first = m[1]
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
					byTx[tx], hasTx[tx] = txv, true
				}
				if b.has[cRcvData] {
					byRx[rx], hasRx[rx] = rxv, true
				}
			}
		}
	}
	if unknown.n > 0 {
		warns = append(warns, Warning{File: file, Line: unknown.line, Msg: fmt.Sprintf("%d blocks of devices that are not in the fabric, left out: %s", unknown.n, unknown.list())})
	}
	if noPort.n > 0 {
		warns = append(warns, Warning{File: file, Line: noPort.line, Msg: fmt.Sprintf("%d blocks of ports that the fabric does not have (free or irregular ports), left out: %s", noPort.n, noPort.list())})
	}
	links := make([]fattree.LinkCounters, 0, len(f.Links))
	var missing summary
	for id := range f.Links {
		if hasTx[id] {
			links = append(links, byTx[id])
		} else if hasRx[id] {
			v := byRx[id]
			v.XmitWait = 0
			links = append(links, v)
		} else {
			missing.add(0, linkName(f, id))
		}
	}
	if missing.n > 0 {
		warns = append(warns, Warning{File: file, Msg: fmt.Sprintf("missing port: %d directed links have no counters in the file (neither end's port was read): %s", missing.n, missing.list())})
	}
	return links, warns
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
// (SnapshotLayout, TreeScope's naming), in time order. Other entries of
// dir (files of other names, subdirectories) are left out with a warning
// each. It fails when dir cannot be read, a file cannot be opened, or
// ReadPerfquery fails on a file (its *ParseError names the file by its
// path). Without any snapshot file it returns no snapshots and no error.
func ReadPerfqueryDir(dir string, f *fattree.Fabric, d fattree.Direction) ([]fattree.Snapshot, []Warning, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
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
	sort.Slice(files, func(a, b int) bool { return files[a].t.Before(files[b].t) })
	snaps := make([]fattree.Snapshot, 0, len(files))
	for _, sf := range files {
		path := filepath.Join(dir, sf.name)
		r, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		s, w, err := ReadPerfquery(r, path, f, sf.t, d)
		r.Close()
		if err != nil {
			return nil, nil, err
		}
		snaps = append(snaps, s)
		warns = append(warns, w...)
	}
	return snaps, warns, nil
}

// snapshotTime parses a file name "YYYYmmdd-HHMMSS" (exactly) in UTC.
func snapshotTime(name string) (time.Time, bool) {
	t, err := time.Parse(SnapshotLayout, name)
	if err != nil || t.Format(SnapshotLayout) != name {
		return time.Time{}, false
	}
	return t, true
}
