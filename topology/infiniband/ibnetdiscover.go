package infiniband

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"superstep/internal/linereader"
	"superstep/topology/fattree"
)

// maxLine is the longest line ReadIBNetDiscover accepts.
const maxLine = 1 << 20

// ReadIBNetDiscover reads the output of ibnetdiscover (infiniband-diags)
// from r, in either of its two formats, and returns the devices and cables
// it describes. name is the file name used in errors and warnings.
//
// The topology format (plain ibnetdiscover, also with -g or -f) is a
// record per node: "key=value" lines (vendid, devid, sysimgguid,
// switchguid, caguid, rtguid), a header line
//
//	Switch	36 "S-0002c90200401234"		# "desc" enhanced port 0 lid 5 lmc 0
//	Ca	2 "H-0002c90300a1b2c0"		# "node017 HCA-1"
//
// and one line per connected port:
//
//	[3]	"S-0002c90200405678"[12]		# "desc" lid 7 4xQDR
//	[1](2c90300a1b2c1) 	"S-0002c90200401234"[17]		# lid 11 lmc 0 "desc" lid 5 4xQDR
//
// The ports format (ibnetdiscover -p) is a line per port, connected or not:
//
//	CA    36  1 0x000000000010001f 4x SDR - SW    12  2 0x0000000000200007 ( 'node-15' - 'L1-p3-s1' )
//	SW    12  9 0x0000000000200007 4x SDR                                    'L1-p3-s1'
//
// The format is recognised from the first line that is neither blank nor
// a comment. Devices are identified by their type and GUID: the node GUID
// in the topology format; in the ports format, which shows port GUIDs
// only, the port GUID (one per switch, one per CA port, so a two-port CA
// is two hosts there) and the number of ports is unknown (Device.Ports 0).
// Names are node descriptions; LIDs are the switches' port-0 LID and a
// CA's LID on its (first) port. GUIDs are hexadecimal with or without
// "0x" and may be grouped with colons ("0002:c903:00a1:b2c0").
//
// Every cable is normally listed at both ends; ReadIBNetDiscover keeps one
// Cable per pair of ports, in the order of first mention, and devices in
// the order of first mention. Routers (Rt, RT) are left out with their
// cables, with a warning; so is a device that cables point to but that the
// file does not describe (its description then comes from the comment),
// which is kept. Errors are *ParseError: a line of neither format, a bad
// number or GUID, a node described twice, a port outside the node's port
// count or listed twice, and a port cabled to two different ports.
func ReadIBNetDiscover(r io.Reader, name string) (fattree.Discovered, []Warning, error) {
	p := &ibReader{file: name, index: map[devKey]int{}, peer: map[portKey]peerAt{}}
	if err := p.read(r); err != nil {
		return fattree.Discovered{}, nil, err
	}
	return p.result()
}

type devKey struct {
	kind byte // 'S', 'H' or 'R'
	guid uint64
}

type portKey struct {
	dev  int
	port int
}

type peerAt struct {
	to   portKey
	line int
}

type ibDevice struct {
	key       devKey
	name      string
	ports     int
	lid       uint16
	described int // line of the header (topology) or first line (ports); 0 when only referenced
	mention   int // line of the first mention
	maxRef    int // highest port number that a cable names
	maxRefAt  int // line of that cable
}

type ibReader struct {
	file        string
	devs        []ibDevice
	index       map[devKey]int
	peer        map[portKey]peerAt
	cables      []fattree.Cable
	cableAt     []int            // line of each cable's first mention
	listedPorts map[portKey]bool // ports listed under their own node
	warns       []Warning
	line        int
	text        string
	ports       bool // the ports (-p) format
	current     int  // device of the current record in the topology format, -1 before any
}

func (p *ibReader) errAt(col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// expected is the error "expected what, found …" at byte i of the line.
func (p *ibReader) expected(i int, what string) error {
	return p.errAt(i+1, "expected %s, found %s", what, found(p.text, i))
}

func (p *ibReader) warn(line int, format string, args ...any) {
	p.warns = append(p.warns, Warning{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *ibReader) read(r io.Reader) error {
	lr := linereader.New(r, p.file, maxLine)
	p.current = -1
	detected := false
	for lr.Next() {
		p.line = lr.Line()
		p.text = strings.TrimRight(lr.Text(), " \t\r")
		i := skipSpace(p.text, 0)
		if i == len(p.text) || p.text[i] == '#' {
			continue
		}
		if !detected {
			detected = true
			p.ports = isPortsLine(p.text[i:])
		}
		var err error
		if p.ports {
			err = p.portsLine(i)
		} else {
			err = p.topologyLine(i)
		}
		if err != nil {
			return err
		}
	}
	if err := lr.Err(); err != nil {
		return scanError(p.file, err)
	}
	if len(p.devs) == 0 {
		return &ParseError{File: p.file, Msg: "expected ibnetdiscover output (Switch/Ca records or SW/CA port lines), found no device"}
	}
	return nil
}

// isPortsLine reports whether a line looks like one of ibnetdiscover -p:
// "SW", "CA" or "RT" and a number.
func isPortsLine(s string) bool {
	if len(s) < 3 || !(strings.HasPrefix(s, "SW") || strings.HasPrefix(s, "CA") || strings.HasPrefix(s, "RT")) {
		return false
	}
	i := skipSpace(s, 2)
	return i > 2 && i < len(s) && s[i] >= '0' && s[i] <= '9'
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// token returns the end of the run of non-blank bytes at i.
func token(s string, i int) int {
	for i < len(s) && s[i] != ' ' && s[i] != '\t' {
		i++
	}
	return i
}

// parseGUID reads a GUID: hexadecimal, an optional "0x", colons allowed
// between digits, at most 16 digits. ok is false for anything else.
func parseGUID[T string | []byte](s T) (uint64, bool) {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	var v uint64
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		case c == ':' && i > 0 && i < len(s)-1 && s[i-1] != ':':
			continue
		default:
			return 0, false
		}
		digits++
		if digits > 16 {
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, digits > 0
}

// number reads a decimal number in [lo, hi] at byte i of the line and
// returns it and the end of its digits.
func (p *ibReader) number(i, lo, hi int, what string) (int, int, error) {
	j := i
	for j < len(p.text) && p.text[j] >= '0' && p.text[j] <= '9' {
		j++
	}
	if j == i {
		return 0, i, p.expected(i, what)
	}
	v, err := strconv.Atoi(p.text[i:j])
	if err != nil || v < lo || v > hi {
		return 0, i, p.errAt(i+1, "expected %s (%d to %d), found %s", what, lo, hi, strconv.Quote(p.text[i:j]))
	}
	return v, j, nil
}

// device returns the index of the device with key k, adding it when new.
func (p *ibReader) device(k devKey) int {
	if i, ok := p.index[k]; ok {
		return i
	}
	p.index[k] = len(p.devs)
	p.devs = append(p.devs, ibDevice{key: k, mention: p.line})
	return len(p.devs) - 1
}

// nodeID reads a quoted node id "S-<guid>" (or H-, R-) at byte i and
// returns its key and the end of the closing quote.
func (p *ibReader) nodeID(i int) (devKey, int, error) {
	const what = `a node id "S-<guid>", "H-<guid>" or "R-<guid>"`
	s := p.text
	if i+3 >= len(s) || s[i] != '"' || s[i+2] != '-' || !strings.ContainsRune("SHR", rune(s[i+1])) {
		return devKey{}, i, p.expected(i, what)
	}
	end := strings.IndexByte(s[i+3:], '"')
	if end < 0 {
		return devKey{}, i, p.expected(len(s), `the closing quote of the node id`)
	}
	g, ok := parseGUID(s[i+3 : i+3+end])
	if !ok {
		return devKey{}, i, p.errAt(i+4, "expected a hexadecimal GUID in the node id, found %s", strconv.Quote(s[i+3:i+3+end]))
	}
	return devKey{s[i+1], g}, i + 3 + end + 1, nil
}

// portNum reads "[n]" at byte i, then an optional "[ext n]", and returns n
// and the end.
func (p *ibReader) portNum(i int) (int, int, error) {
	if i >= len(p.text) || p.text[i] != '[' {
		return 0, i, p.expected(i, "a port number in brackets, [n]")
	}
	n, j, err := p.number(i+1, 1, 254, "a port number")
	if err != nil {
		return 0, i, err
	}
	if j >= len(p.text) || p.text[j] != ']' {
		return 0, i, p.expected(j, `"]"`)
	}
	j++
	if strings.HasPrefix(p.text[j:], "[ext ") {
		k := strings.IndexByte(p.text[j:], ']')
		if k < 0 {
			return 0, i, p.expected(len(p.text), `"]" closing "[ext n"`)
		}
		j += k + 1
	}
	return n, j, nil
}

// portGUID skips an optional "(hexguid)" at byte i (after blanks).
func (p *ibReader) portGUID(i int) (int, error) {
	j := skipSpace(p.text, i)
	if j >= len(p.text) || p.text[j] != '(' {
		return i, nil
	}
	k := strings.IndexByte(p.text[j:], ')')
	if k < 0 {
		return i, p.expected(len(p.text), `")" closing the port GUID`)
	}
	if _, ok := parseGUID(p.text[j+1 : j+k]); !ok {
		return i, p.errAt(j+2, "expected a hexadecimal port GUID, found %s", strconv.Quote(p.text[j+1:j+k]))
	}
	return j + k + 1, nil
}

// cable records one end's view of a cable between (a, pa) and (b, pb).
func (p *ibReader) cable(a, pa, b, pb int) error {
	ea, eb := portKey{a, pa}, portKey{b, pb}
	if ea == eb {
		return p.errAt(0, "expected a cable between two ports, found %s cabled to itself", p.portName(ea))
	}
	for _, e := range [2][2]portKey{{ea, eb}, {eb, ea}} {
		if prev, ok := p.peer[e[0]]; ok && prev.to != e[1] {
			return p.errAt(0, "expected %s to be cabled to %s as line %d says, found it cabled to %s",
				p.portName(e[0]), p.portName(prev.to), prev.line, p.portName(e[1]))
		}
	}
	if _, ok := p.peer[ea]; !ok {
		p.cables = append(p.cables, fattree.Cable{A: fattree.Endpoint{Device: a, Port: pa}, B: fattree.Endpoint{Device: b, Port: pb}})
		p.cableAt = append(p.cableAt, p.line)
	}
	for _, e := range [2]portKey{ea, eb} {
		if d := &p.devs[e.dev]; e.port > d.maxRef {
			d.maxRef, d.maxRefAt = e.port, p.line
		}
	}
	p.peer[ea] = peerAt{eb, p.line}
	p.peer[eb] = peerAt{ea, p.line}
	return nil
}

func (p *ibReader) portName(e portKey) string {
	d := p.devs[e.dev]
	return fmt.Sprintf("%c-%016x port %d", d.key.kind, d.key.guid, e.port)
}

// quoted reads a string in quote characters q at byte i (the desc of
// ibnetdiscover) up to the last q before stop (or the end), returning the
// string and the end.
func (p *ibReader) quoted(i int, q byte, stop string) (string, int, error) {
	if i >= len(p.text) || p.text[i] != q {
		return "", i, p.expected(i, fmt.Sprintf("a node description in %c quotes", q))
	}
	rest := p.text[i+1:]
	limit := len(rest)
	if stop != "" {
		if k := strings.Index(rest, stop); k >= 0 {
			limit = k + 1
		}
	}
	k := strings.LastIndexByte(rest[:limit], q)
	if k < 0 {
		return "", i, p.expected(len(p.text), fmt.Sprintf("the closing %c of the node description", q))
	}
	return rest[:k], i + 1 + k + 1, nil
}

var guidKeys = []string{"switchguid=", "caguid=", "rtguid=", "sysimgguid="}

// topologyLine parses one line of the topology format starting at byte i.
func (p *ibReader) topologyLine(i int) error {
	s := p.text[i:]
	switch {
	case strings.HasPrefix(s, "vendid=") || strings.HasPrefix(s, "devid="):
		j := i + strings.IndexByte(s, '=') + 1
		if _, ok := parseGUID(p.text[j:]); !ok {
			return p.expected(j, "a hexadecimal number")
		}
		return nil
	case strings.HasPrefix(s, "Chassis ") || strings.HasPrefix(s, "Non-Chassis Nodes") || strings.HasPrefix(s, "Hostname:"):
		return nil // grouping (-g) output
	case s[0] == '[':
		return p.topologyPort(i)
	}
	for _, k := range guidKeys {
		if strings.HasPrefix(s, k) {
			j := i + len(k)
			end := token(p.text, j)
			if k := strings.IndexByte(p.text[j:end], '('); k >= 0 {
				end = j + k
			}
			if _, ok := parseGUID(p.text[j:end]); !ok {
				return p.expected(j, "a hexadecimal GUID")
			}
			return nil
		}
	}
	var kind byte
	word := s[:token(s, 0)]
	switch word {
	case "Switch":
		kind = 'S'
	case "Ca":
		kind = 'H'
	case "Rt":
		kind = 'R'
	default:
		return p.expected(i, `a node header (Switch, Ca, Rt), a port line "[n]", a key=value line or a comment`)
	}
	j := skipSpace(p.text, i+len(word))
	ports, j, err := p.number(j, 1, 254, "a port count")
	if err != nil {
		return err
	}
	idAt := skipSpace(p.text, j)
	key, j, err := p.nodeID(idAt)
	if err != nil {
		return err
	}
	if key.kind != kind {
		return p.errAt(idAt+2, "expected a node id starting with %c- after %s, found %s", kind, word, strconv.Quote(p.text[idAt:j]))
	}
	d := p.device(key)
	if prev := p.devs[d].described; prev > 0 {
		return p.errAt(idAt+1, "expected each node once, found %s again (first described at line %d)", strconv.Quote(p.text[idAt:j]), prev)
	}
	if r := p.devs[d].maxRef; r > ports {
		return p.errAt(0, "expected at most %d ports for %s, found port %d cabled to it at line %d", ports, p.text[idAt:j], r, p.devs[d].maxRefAt)
	}
	dev := &p.devs[d]
	dev.described, dev.ports = p.line, ports
	p.current = d
	j = skipSpace(p.text, j)
	if j == len(p.text) {
		return nil
	}
	if p.text[j] != '#' {
		return p.expected(j, `"#" and the node description`)
	}
	j = skipSpace(p.text, j+1)
	stop := ""
	if kind == 'S' {
		stop = "\" base port 0"
		if strings.Contains(p.text[j:], "\" enhanced port 0") {
			stop = "\" enhanced port 0"
		}
	}
	desc, j, err := p.quoted(j, '"', stop)
	if err != nil {
		return err
	}
	dev.name = desc
	if kind == 'S' {
		if k := strings.Index(p.text[j:], " lid "); k >= 0 {
			at := skipSpace(p.text, j+k+5)
			lid, _, err := p.number(at, 0, 0xFFFF, "a LID")
			if err != nil {
				return err
			}
			dev.lid = uint16(lid)
		}
	}
	return nil
}

// topologyPort parses a port line of the topology format.
func (p *ibReader) topologyPort(i int) error {
	if p.current < 0 {
		return p.expected(i, "a node header (Switch, Ca, Rt) before the first port line")
	}
	dev := p.current
	port, j, err := p.portNum(i)
	if err != nil {
		return err
	}
	if n := p.devs[dev].ports; port > n {
		return p.errAt(i+2, "expected a port number from 1 to %d (the node's port count), found %d", n, port)
	}
	if j, err = p.portGUID(j); err != nil {
		return err
	}
	j = skipSpace(p.text, j)
	key, j, err := p.nodeID(j)
	if err != nil {
		return err
	}
	rport, j, err := p.portNum(j)
	if err != nil {
		return err
	}
	if j, err = p.portGUID(j); err != nil {
		return err
	}
	j = skipSpace(p.text, j)
	if j < len(p.text) && p.text[j] != '#' {
		return p.expected(j, `"#" and a comment, or the end of the line`)
	}
	remote := p.device(key)
	if p.listed(portKey{dev, port}) {
		return p.errAt(i+1, "expected each port of a node once, found port %d again", port)
	}
	p.listedPorts[portKey{dev, port}] = true
	if d := p.devs[remote]; d.described > 0 && rport > d.ports {
		return p.errAt(0, "expected a port from 1 to %d of %c-%016x (described at line %d), found port %d", d.ports, d.key.kind, d.key.guid, d.described, rport)
	}
	if j < len(p.text) {
		p.comment(dev, remote, j+1)
	}
	return p.cable(dev, port, remote, rport)
}

// listed reports whether port pk was listed already under its node.
func (p *ibReader) listed(pk portKey) bool {
	if p.listedPorts == nil {
		p.listedPorts = map[portKey]bool{}
	}
	return p.listedPorts[pk]
}

// comment takes what the comment of a port line tells: a CA's own LID
// ("lid N lmc M" first) and the description of the remote node, kept for
// a node the file never describes.
func (p *ibReader) comment(dev, remote, i int) {
	c := strings.TrimSpace(p.text[i:])
	if strings.HasPrefix(c, "lid ") && p.devs[dev].key.kind != 'S' {
		f := strings.Fields(c)
		if v, err := strconv.ParseUint(f[1], 10, 16); err == nil && p.devs[dev].lid == 0 {
			p.devs[dev].lid = uint16(v)
		}
	}
	if a := strings.IndexByte(c, '"'); a >= 0 {
		if b := strings.LastIndexByte(c, '"'); b > a && p.devs[remote].name == "" && p.devs[remote].described == 0 {
			p.devs[remote].name = c[a+1 : b]
		}
	}
}

// portsLine parses one line of the ports (-p) format.
func (p *ibReader) portsLine(i int) error {
	a, ap, j, err := p.portsEnd(i)
	if err != nil {
		return err
	}
	// width and speed
	for _, what := range []string{"a link width (4x)", "a link speed (QDR)"} {
		j = skipSpace(p.text, j)
		if j >= len(p.text) {
			return p.expected(j, what)
		}
		j = token(p.text, j)
	}
	j = skipSpace(p.text, j)
	if j < len(p.text) && p.text[j] == '\'' {
		desc, _, err := p.quoted(j, '\'', "")
		if err != nil {
			return err
		}
		p.describe(a, desc)
		return nil
	}
	if j >= len(p.text) || p.text[j] != '-' {
		return p.expected(j, `"-" and the remote port, or the node description in ' quotes`)
	}
	b, bp, j, err := p.portsEnd(skipSpace(p.text, j+1))
	if err != nil {
		return err
	}
	j = skipSpace(p.text, j)
	if j >= len(p.text) || p.text[j] != '(' {
		return p.expected(j, `"(" and the two node descriptions`)
	}
	j = skipSpace(p.text, j+1)
	da, j, err := p.quoted(j, '\'', "' - '")
	if err != nil {
		return err
	}
	j = skipSpace(p.text, j)
	if j >= len(p.text) || p.text[j] != '-' {
		return p.expected(j, `"-" between the two node descriptions`)
	}
	j = skipSpace(p.text, j+1)
	db, j, err := p.quoted(j, '\'', "' )")
	if err != nil {
		return err
	}
	j = skipSpace(p.text, j)
	if j >= len(p.text) || p.text[j] != ')' {
		return p.expected(j, `")" closing the node descriptions`)
	}
	if j = skipSpace(p.text, j+1); j < len(p.text) {
		return p.expected(j, "the end of the line")
	}
	p.describe(a, da)
	p.describe(b, db)
	pk := portKey{a, ap}
	if p.listed(pk) {
		return p.errAt(i+1, "expected each port once, found %s again", p.portName(pk))
	}
	p.listedPorts[pk] = true
	return p.cable(a, ap, b, bp)
}

// portsEnd reads "TYPE LID PORT GUID" of the ports format at byte i.
func (p *ibReader) portsEnd(i int) (dev, port, end int, err error) {
	var kind byte
	switch {
	case strings.HasPrefix(p.text[i:], "SW"):
		kind = 'S'
	case strings.HasPrefix(p.text[i:], "CA"):
		kind = 'H'
	case strings.HasPrefix(p.text[i:], "RT"):
		kind = 'R'
	}
	if kind == 0 || token(p.text, i) != i+2 {
		return 0, 0, i, p.expected(i, "a node type SW, CA or RT")
	}
	lid, j, err := p.number(skipSpace(p.text, i+2), 0, 0xFFFF, "a LID")
	if err != nil {
		return 0, 0, i, err
	}
	port, j, err = p.number(skipSpace(p.text, j), 1, 254, "a port number")
	if err != nil {
		return 0, 0, i, err
	}
	g := skipSpace(p.text, j)
	e := token(p.text, g)
	guid, ok := parseGUID(p.text[g:e])
	if !ok {
		return 0, 0, i, p.expected(g, "a hexadecimal port GUID")
	}
	dev = p.device(devKey{kind, guid})
	d := &p.devs[dev]
	if d.described == 0 {
		d.described = p.line
	}
	if d.lid == 0 {
		d.lid = uint16(lid)
	}
	return dev, port, e, nil
}

func (p *ibReader) describe(dev int, desc string) {
	if p.devs[dev].name == "" {
		p.devs[dev].name = desc
	}
}

// result builds the Discovered: routers and their cables left out.
func (p *ibReader) result() (fattree.Discovered, []Warning, error) {
	var g fattree.Discovered
	idx := make([]int, len(p.devs))
	for i, d := range p.devs {
		idx[i] = -1
		if d.key.kind == 'R' {
			p.warn(d.mention, "router R-%016x %q left out with its cables: a fat-tree has no routers", d.key.guid, d.name)
			continue
		}
		if d.described == 0 {
			p.warn(d.mention, "%c-%016x %q is cabled to but not described in the file: kept, its port count unknown", d.key.kind, d.key.guid, d.name)
		}
		kind := fattree.HostDevice
		if d.key.kind == 'S' {
			kind = fattree.SwitchDevice
		}
		ports := d.ports
		if p.ports || d.described == 0 {
			ports = 0
		}
		idx[i] = len(g.Devices)
		g.Devices = append(g.Devices, fattree.Device{Kind: kind, GUID: d.key.guid, Name: d.name, Ports: ports, LID: d.lid})
	}
	for ci, c := range p.cables {
		a, b := idx[c.A.Device], idx[c.B.Device]
		if a < 0 || b < 0 {
			continue
		}
		for _, e := range [2]fattree.Endpoint{c.A, c.B} {
			if pk := (portKey{e.Device, e.Port}); p.devs[e.Device].described > 0 && !p.listedPorts[pk] {
				p.warn(p.cableAt[ci], "%s does not list its cable to %s: kept", p.portName(pk), p.portName(p.peer[pk].to))
			}
		}
		c.A.Device, c.B.Device = a, b
		g.Cables = append(g.Cables, c)
	}
	return g, p.warns, nil
}
