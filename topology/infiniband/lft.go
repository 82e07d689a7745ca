package infiniband

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"superstep/internal/linereader"
	"superstep/topology/fattree"
)

// maxLID is the largest unicast LID: InfiniBand's unicast LIDs are
// 0x0001–0xBFFF.
const maxLID = 0xBFFF

// maxListed is how many examples a summarising warning lists.
const maxListed = 5

// ReadLFT reads the unicast linear forwarding tables of a fabric's
// switches, as dump_fts and ibroute (infiniband-diags) print them, and
// returns them as a Table of f: for every switch and node, the port of f
// through which the switch forwards the node's traffic. name is the file
// name used in errors and warnings.
//
// The input is a sequence of switch blocks, each a header, two column
// title lines, one line per LID and an optional count line:
//
//	Unicast lids [0x0-0xd0] of switch DR path slid 0; dlid 0; 0,1,5 guid 0x000000000020001f (L1-p7-s3):
//	  Lid  Out   Destination
//	       Port     Info
//	0x0001 005 : (Channel Adapter portguid 0x0000000000100001: 'node-0')
//	0x0002 000 : (Switch portguid 0x0000000000200000: 'L1-p0-s0')
//	208 valid lids dumped
//
// dump_fts names the switch by a directed-route path ("DR path …"),
// ibroute by its LID ("Lid 2"); the entries of both, and of their -n
// forms (no destination), are read alike, and OpenSM's own LFT dump
// ("0x0001 005 # Channel Adapter …") too. Each block is recognised by its
// header, so outputs of both tools may be concatenated. Blank lines are
// ignored.
//
// A block's switch is the switch of f with the header's GUID or, when no
// switch of f has that GUID, the switch with the header's LID (ibroute's
// form). An entry's LID is a node's LID in f (Node.LID) or a switch's
// (Switch.LID): its output port is the device's port number, mapped to
// f's with f.ModelPort, and it sets the Table's Port for a node and its
// SwitchRoute for a switch (the routes of management traffic, which
// fattree.Destinations, TreeScope's d(ℓ), lists with the nodes'). A
// switch's own LID on port 0 is no route out of it. Port 255 (ibroute
// -a's "no route") sets no route.
//
// Warnings (file:line) report what was read but left out or is missing:
// a block whose switch f lacks (the block is skipped), switches of f that
// the file does not list (one warning, with the count and the first few),
// a switch without a route to some nodes of f that have a LID (one
// warning per switch, with the count and the first few), LIDs that are no
// device of f (one warning, with the count and the first few), and routes
// to nodes or other switches through a port that f does not have on that
// switch or port 0 (one warning per switch, with the count; those routes
// are left out).
//
// Errors are *ParseError "file:line:col: expected …, found …": a line
// that is no header, title, entry or count line; an entry before the
// first header; a bad LID (not hexadecimal, 0 or above 0xBFFF) or port
// (above 255); a LID listed twice in one block; a switch listed twice; a
// header without its "guid"; a multicast table (dump with -M); an input
// without any block; a line longer than 1 MiB; a read error.
func ReadLFT(r io.Reader, name string, f *fattree.Fabric) (*fattree.Table, []Warning, error) {
	p := newLFTReader(name, f)
	if err := p.read(r); err != nil {
		return nil, nil, err
	}
	p.finish()
	return p.table, p.warns, nil
}

type lftBlock struct {
	sw      int // switch id of f, -1 when f lacks it
	line    int // line of the header
	desc    string
	routed  int // entries that set a route
	badPort int // entries through a port f lacks
	badEx   []string
}

type lftReader struct {
	file   string
	f      *fattree.Fabric
	table  *fattree.Table
	warns  []Warning
	line   int
	text   []byte
	byLID  []int32 // LID -> node+1 (>0), -(switch+1) (<0), 0 unknown
	byGUID map[uint64]int
	seenSw []int // line of the block of each switch, 0 when not seen
	blocks int
	cur    *lftBlock
	seen   []uint16 // per LID: block number+1 that listed it (duplicate check)
	blockN uint16
	// unknown LIDs, per file
	unknown      int
	unknownEx    []string
	unknownFirst int
	// per block: which nodes were routed
	routedNode []uint16 // block number+1 of the last block that routed the node
}

func newLFTReader(name string, f *fattree.Fabric) *lftReader {
	p := &lftReader{
		file:       name,
		f:          f,
		table:      fattree.NewTable(f),
		byLID:      make([]int32, maxLID+1),
		byGUID:     make(map[uint64]int, len(f.Switches)),
		seenSw:     make([]int, len(f.Switches)),
		seen:       make([]uint16, maxLID+1),
		routedNode: make([]uint16, len(f.Nodes)),
	}
	for i, n := range f.Nodes {
		if n.LID != 0 && int(n.LID) <= maxLID {
			p.byLID[n.LID] = int32(i + 1)
		}
	}
	for i, s := range f.Switches {
		if s.LID != 0 && int(s.LID) <= maxLID && p.byLID[s.LID] == 0 {
			p.byLID[s.LID] = -int32(i + 1)
		}
		if s.GUID != 0 {
			if _, dup := p.byGUID[s.GUID]; !dup {
				p.byGUID[s.GUID] = i
			}
		}
	}
	return p
}

func (p *lftReader) errAt(col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *lftReader) expected(i int, what string) error {
	return p.errAt(i+1, "expected %s, found %s", what, found(string(p.text), i))
}

func (p *lftReader) warn(line int, format string, args ...any) {
	p.warns = append(p.warns, Warning{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *lftReader) read(r io.Reader) error {
	lr := linereader.New(r, p.file, maxLine)
	for lr.Next() {
		p.line = lr.Line()
		p.text = bytes.TrimRight(lr.Bytes(), " \t\r")
		if err := p.lineOf(); err != nil {
			return err
		}
	}
	if err := lr.Err(); err != nil {
		return scanError(p.file, err)
	}
	if p.blocks == 0 {
		return &ParseError{File: p.file, Msg: `expected dump_fts or ibroute output ("Unicast lids [...] of switch ..." blocks), found no switch`}
	}
	p.endBlock()
	return nil
}

func (p *lftReader) lineOf() error {
	s := p.text
	if len(s) == 0 {
		return nil
	}
	switch {
	case s[0] == '0' && len(s) > 1 && (s[1] == 'x' || s[1] == 'X'):
		return p.entry()
	case bytes.HasPrefix(s, []byte("Unicast lids")):
		return p.header()
	case bytes.HasPrefix(s, []byte("Multicast mlids")):
		return p.errAt(1, "expected a unicast table (dump_fts or ibroute without -M), found a multicast table")
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	t := string(s[i:])
	if t == "Lid  Out   Destination" || strings.HasPrefix(t, "Port") && strings.Fields(t)[0] == "Port" && (len(strings.Fields(t)) == 1 || strings.Fields(t)[1] == "Info") {
		if p.cur == nil {
			return p.expected(0, `a "Unicast lids" header first`)
		}
		return nil
	}
	if f := strings.Fields(t); len(f) >= 3 && isDigits(f[0]) && strings.Join(f[1:], " ") == "valid lids dumped" || len(f) == 3 && isDigits(f[0]) && f[1] == "lids" && f[2] == "dumped" {
		if p.cur == nil {
			return p.expected(0, `a "Unicast lids" header first`)
		}
		return nil
	}
	return p.expected(i, `a "Unicast lids" header, an entry "0x<lid> <port>" or a "valid lids dumped" line`)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// header reads "Unicast lids [a-b] of switch <portid> guid 0x<guid> (desc):".
func (p *lftReader) header() error {
	p.endBlock()
	s := string(p.text)
	const of = " of switch "
	k := strings.Index(s, of)
	if k < 0 {
		return p.expected(len("Unicast lids "), `"[<first>-<last>] of switch"`)
	}
	rest := k + len(of)
	g := strings.Index(s[rest:], "guid ")
	if g < 0 || g > 0 && s[rest+g-1] != ' ' {
		return p.expected(len(s), `" guid 0x<guid>" naming the switch`)
	}
	portid := strings.TrimSpace(s[rest : rest+g])
	g += rest + len("guid ")
	e := g
	for e < len(s) && s[e] != ' ' && s[e] != '\t' && s[e] != ':' {
		e++
	}
	guid, ok := parseGUID(s[g:e])
	if !ok {
		return p.expected(g, "a hexadecimal GUID")
	}
	lid := -1
	if strings.HasPrefix(portid, "Lid ") {
		v, err := strconv.Atoi(strings.TrimSpace(portid[4:]))
		if err != nil || v < 1 || v > maxLID {
			return p.errAt(rest+5, "expected a switch LID (1 to %d), found %s", maxLID, strconv.Quote(portid[4:]))
		}
		lid = v
	}
	desc := strings.TrimSuffix(strings.TrimSpace(s[e:]), ":")
	desc = strings.TrimSuffix(strings.TrimPrefix(desc, "("), ")")
	desc = strings.TrimSuffix(strings.TrimPrefix(desc, "'"), "'")
	p.blocks++
	p.blockN++
	if p.blockN == 0 { // wrapped: clear the duplicate marks
		clear(p.seen)
		clear(p.routedNode)
		p.blockN = 1
	}
	b := &lftBlock{sw: -1, line: p.line, desc: desc}
	if sw, ok := p.byGUID[guid]; ok && guid != 0 {
		b.sw = sw
	} else if lid > 0 && p.byLID[lid] < 0 {
		b.sw = int(-p.byLID[lid]) - 1
	}
	if b.sw < 0 {
		what := fmt.Sprintf("GUID %#016x", guid)
		if lid > 0 {
			what += fmt.Sprintf(" and LID %d", lid)
		}
		p.warn(p.line, "switch %q (%s) is no switch of the fabric: its table is left out", desc, what)
	} else if at := p.seenSw[b.sw]; at > 0 {
		return p.errAt(g+1, "expected each switch once, found %s (%s) again (first at line %d)", p.f.Switches[b.sw].Name, s[g:e], at)
	} else {
		p.seenSw[b.sw] = p.line
	}
	p.cur = b
	return nil
}

// entry reads "0x<lid> <port>" and what follows.
func (p *lftReader) entry() error {
	s := p.text
	if p.cur == nil {
		return p.expected(0, `a "Unicast lids" header before the first entry`)
	}
	i := 2
	lid := 0
	for i < len(s) && i < 12 {
		c := s[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			goto done
		}
		lid = lid<<4 | d
		i++
	}
done:
	if i == 2 || lid < 1 || lid > maxLID || i < len(s) && s[i] != ' ' && s[i] != '\t' {
		return p.errAt(1, "expected a unicast LID 0x0001 to 0xbfff, found %s", found(string(s), 0))
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	port := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i < 4 {
		port = port*10 + int(s[j]-'0')
		j++
	}
	if j == i || port > 255 || j < len(s) && s[j] != ' ' && s[j] != '\t' {
		return p.expected(i, "an output port (0 to 255)")
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j < len(s) && s[j] != ':' && s[j] != '#' {
		return p.expected(j, `":" or "#" and the destination, or the end of the line`)
	}
	b := p.cur
	if p.seen[lid] == p.blockN {
		return p.errAt(1, "expected each LID once in a switch's table, found 0x%04x again", lid)
	}
	p.seen[lid] = p.blockN
	if b.sw < 0 || port == 255 {
		return nil
	}
	who := p.byLID[lid]
	switch {
	case who < 0:
		return p.switchEntry(b, int(-who)-1, lid, port)
	case who == 0:
		p.unknown++
		if p.unknown == 1 {
			p.unknownFirst = p.line
		}
		if len(p.unknownEx) < maxListed {
			p.unknownEx = append(p.unknownEx, fmt.Sprintf("0x%04x", lid))
		}
		return nil
	}
	n := int(who) - 1
	mp := p.f.ModelPort(b.sw, port)
	if mp == 0 {
		b.badPort++
		if len(b.badEx) < maxListed {
			b.badEx = append(b.badEx, fmt.Sprintf("%s via %d", p.f.Nodes[n].Name, port))
		}
		return nil
	}
	if err := p.table.SetPort(b.sw, n, mp); err != nil {
		return p.errAt(1, "%v", err)
	}
	p.routedNode[n] = p.blockN
	b.routed++
	return nil
}

// switchEntry keeps the route of block b's switch to the LID of switch
// dst through (device) port: the Table's SwitchRoute. A switch's own LID
// on port 0 is where it consumes its own traffic: no route out.
func (p *lftReader) switchEntry(b *lftBlock, dst, lid, port int) error {
	if dst == b.sw && port == 0 {
		return nil
	}
	mp := p.f.ModelPort(b.sw, port)
	if mp == 0 {
		b.badPort++
		if len(b.badEx) < maxListed {
			b.badEx = append(b.badEx, fmt.Sprintf("switch %s (0x%04x) via %d", p.f.Switches[dst].Name, lid, port))
		}
		return nil
	}
	if err := p.table.SetSwitchRoute(b.sw, dst, mp); err != nil {
		return p.errAt(1, "%v", err)
	}
	return nil
}

// endBlock reports the nodes the current block did not route.
func (p *lftReader) endBlock() {
	b := p.cur
	if b == nil || b.sw < 0 {
		p.cur = nil
		return
	}
	name := p.f.Switches[b.sw].Name
	if b.badPort > 0 {
		p.warn(b.line, "switch %s: %d routes through a port the fabric does not have there (port 0 or not cabled), left out: %s", name, b.badPort, strings.Join(b.badEx, ", "))
	}
	missing := 0
	var ex []string
	for n, node := range p.f.Nodes {
		if node.LID == 0 || p.routedNode[n] == p.blockN {
			continue
		}
		missing++
		if len(ex) < maxListed {
			ex = append(ex, node.Name)
		}
	}
	if missing > 0 {
		p.warn(b.line, "switch %s has no route to %d nodes: %s%s", name, missing, strings.Join(ex, ", "), more(missing, len(ex)))
	}
	p.cur = nil
}

func more(n, shown int) string {
	if n > shown {
		return ", …"
	}
	return ""
}

func (p *lftReader) finish() {
	if p.unknown > 0 {
		p.warn(p.unknownFirst, "%d entries name LIDs that are no device of the fabric, left out: %s%s", p.unknown, strings.Join(p.unknownEx, ", "), more(p.unknown, len(p.unknownEx)))
	}
	missing := 0
	var ex []string
	for sw, at := range p.seenSw {
		if at == 0 {
			missing++
			if len(ex) < maxListed {
				ex = append(ex, p.f.Switches[sw].Name)
			}
		}
	}
	if missing > 0 {
		p.warn(0, "%d switches of the fabric have no table in the file: %s%s", missing, strings.Join(ex, ", "), more(missing, len(ex)))
	}
}

// WriteLFT writes the forwarding tables of r on f in dump_fts's format
// (one block per switch, in switch id order), which ReadLFT reads back:
// a header naming the switch by its LID and GUID, then in LID order an
// entry per node with a LID, with its port on the real device
// (f.PhysicalPort), the switch's own LID with port 0 and, when r is a
// fattree.SwitchRouting (a Table that ReadLFT filled), an entry per other
// switch it routes. The destination column names the device's GUID (the
// Fabric knows no port GUIDs) and name. Destinations for which r has no
// route, or whose port has no physical number, get no entry. It fails
// when a LID of f is above 0xBFFF or on a write error.
func WriteLFT(w io.Writer, f *fattree.Fabric, r fattree.Routing) error {
	type dst struct {
		lid int
		dev int // node index ≥ 0, or −1 − switch id
	}
	sr, _ := r.(fattree.SwitchRouting)
	maxL := 0
	dsts := make([]dst, 0, len(f.Nodes)+len(f.Switches))
	for i, n := range f.Nodes {
		if n.LID == 0 {
			continue
		}
		if int(n.LID) > maxLID {
			return fmt.Errorf("infiniband: WriteLFT: node %s has LID %d, above 0xbfff", n.Name, n.LID)
		}
		dsts = append(dsts, dst{int(n.LID), i})
		maxL = max(maxL, int(n.LID))
	}
	for i, s := range f.Switches {
		if int(s.LID) > maxLID {
			return fmt.Errorf("infiniband: WriteLFT: switch %s has LID %d, above 0xbfff", s.Name, s.LID)
		}
		if s.LID != 0 {
			dsts = append(dsts, dst{int(s.LID), -1 - i})
		}
		maxL = max(maxL, int(s.LID))
	}
	// LID order; nodes then switches are usually in order already
	if !slices.IsSortedFunc(dsts, func(a, b dst) int { return a.lid - b.lid }) {
		slices.SortStableFunc(dsts, func(a, b dst) int { return a.lid - b.lid })
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	var buf []byte
	for sw, s := range f.Switches {
		buf = buf[:0]
		buf = fmt.Appendf(buf, "Unicast lids [0x0-0x%x] of switch Lid %d guid 0x%016x (%s):\n  Lid  Out   Destination\n       Port     Info \n", maxL, s.LID, s.GUID, s.Name)
		bw.Write(buf)
		count := 0
		for _, d := range dsts {
			var mp int
			kind, guid, name := "Channel Adapter", uint64(0), ""
			switch {
			case d.dev == -1-sw:
				buf = appendEntry(buf[:0], d.lid, 0, "Switch", s.GUID, s.Name)
				bw.Write(buf)
				count++
				continue
			case d.dev < 0:
				if sr == nil {
					continue
				}
				o := &f.Switches[-1-d.dev]
				mp, kind, guid, name = sr.SwitchRoute(sw, -1-d.dev), "Switch", o.GUID, o.Name
			default:
				n := &f.Nodes[d.dev]
				mp, guid, name = r.Port(sw, d.dev), n.GUID, n.Name
			}
			if mp == 0 {
				continue
			}
			pp := f.PhysicalPort(sw, mp)
			if pp == 0 {
				continue
			}
			buf = appendEntry(buf[:0], d.lid, pp, kind, guid, name)
			bw.Write(buf)
			count++
		}
		buf = strconv.AppendInt(buf[:0], int64(count), 10)
		buf = append(buf, " valid lids dumped \n"...)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

const hexDigits = "0123456789abcdef"

func appendEntry(b []byte, lid, port int, kind string, guid uint64, name string) []byte {
	b = append(b, '0', 'x', hexDigits[lid>>12&15], hexDigits[lid>>8&15], hexDigits[lid>>4&15], hexDigits[lid&15], ' ',
		byte('0'+port/100), byte('0'+port/10%10), byte('0'+port%10))
	b = append(b, " : ("...)
	b = append(b, kind...)
	b = append(b, " portguid 0x"...)
	for sh := 60; sh >= 0; sh -= 4 {
		b = append(b, hexDigits[guid>>uint(sh)&15])
	}
	b = append(b, ": '"...)
	b = append(b, name...)
	b = append(b, "')\n"...)
	return b
}
